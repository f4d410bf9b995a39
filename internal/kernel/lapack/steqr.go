package lapack

import (
	"math"
	"slices"

	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
)

// Steqr computes the eigenvalues, and optionally the eigenvectors, of the
// n×n real symmetric tridiagonal T with diagonal d[0:n] and off-diagonal
// e[0:n−1], by the implicit QL or QR iteration of LAPACK's ?steqr:
//
//	T = S·Λ·Sᵀ,  S orthogonal,  Λ = diag(d) on exit, ascending.
//
// The matrix is split where an off-diagonal element is negligible
// (|e[i]| ≤ ε·sqrt|d[i]|·sqrt|d[i+1]|); each unreduced block is scaled into
// range when its largest element is near overflow or underflow, and
// iterated with Wilkinson shifts, by QL when its bottom end is the larger
// and by QR otherwise, until it splits; 2×2 blocks are solved directly.
//
// When z.Data is nil only eigenvalues are computed, by the root-free form
// of the same sweeps on the squares of e (Pal, Walker and Kahan, as
// LAPACK's ?sterf: one division per step instead of a square root and two;
// O(n²) work). Otherwise z (n rows, n columns, any layout) holds an
// orthonormal Q on entry (the identity for the eigenvectors of T itself,
// the Q of [Hetrd] for those of the original matrix) and Q·S on exit: the
// rotations of each sweep are applied to z's columns with [Lasr], and the
// columns are permuted with the values when they are sorted. work holds
// at least 2·n float64s (the rotations; unused, and may be nil, without
// vectors); e is destroyed. Steqr allocates nothing.
//
// It returns 0 on success. The iteration is bounded by 30·n sweeps in
// all (as LAPACK); when they run out it returns i > 0, the number of
// off-diagonal elements that did not converge, and d is left unsorted.
// NaN or ±Inf in d or e returns n (n ≥ 1) at once, with d and e as given.
func Steqr[T Scalar](n int, d, e []float64, z gemm.Mat[T], work []float64) int {
	if n <= 0 {
		return 0
	}
	for _, x := range d[:n] {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return n
		}
	}
	for _, x := range e[:n-1] {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return n
		}
	}
	vec := z.Data != nil
	if n == 1 {
		return 0
	}
	st := steqrState[T]{n: n, d: d[:n], e: e[:n-1], z: z, vec: vec, maxit: 30 * n}
	if vec {
		st.c, st.s = work[:n-1], work[n-1:2*n-2]
	}
	if info := st.run(); info > 0 {
		return info
	}
	if !vec {
		slices.Sort(d[:n])
		return 0
	}
	// Selection sort, so that each column moves at most once.
	for i := 0; i < n-1; i++ {
		k := i
		for j := i + 1; j < n; j++ {
			if d[j] < d[k] {
				k = j
			}
		}
		if k != i {
			d[i], d[k] = d[k], d[i]
			swapCols(n, z, i, k)
		}
	}
	return 0
}

// swapCols swaps columns i and k of the m-row a.
func swapCols[T Scalar](m int, a gemm.Mat[T], i, k int) {
	p, q := a.Off+i*a.CS, a.Off+k*a.CS
	for r := 0; r < m; r++ {
		a.Data[p+r*a.RS], a.Data[q+r*a.RS] = a.Data[q+r*a.RS], a.Data[p+r*a.RS]
	}
}

// Constants of the tridiagonal iterations (float64 throughout).
const (
	tdEps    = 0x1p-53 // unit roundoff
	tdSafmin = 0x1p-1022
)

// steqrState is the state of one Steqr call.
type steqrState[T Scalar] struct {
	n     int
	d, e  []float64
	z     gemm.Mat[T]
	vec   bool
	c, s  []float64
	jtot  int
	maxit int
}

// run iterates over the unreduced blocks until all converge (0) or the
// sweep budget is spent (the count of nonzero off-diagonals).
func (st *steqrState[T]) run() int {
	n, d, e := st.n, st.d, st.e
	eps2 := tdEps * tdEps
	ssfmax := math.Sqrt(1/tdSafmin) / 3
	ssfmin := math.Sqrt(tdSafmin) / eps2
	for l1 := 0; l1 < n; {
		if l1 > 0 {
			e[l1-1] = 0
		}
		m := n - 1
		for i := l1; i < n-1; i++ {
			t := math.Abs(e[i])
			if t == 0 {
				m = i
				break
			}
			if t <= math.Sqrt(math.Abs(d[i]))*math.Sqrt(math.Abs(d[i+1]))*tdEps {
				e[i] = 0
				m = i
				break
			}
		}
		l, lend := l1, m
		l1 = m + 1
		if lend == l {
			continue
		}
		// Scale the block l..lend into range.
		anorm := 0.0
		for i := l; i <= lend; i++ {
			anorm = max(anorm, math.Abs(d[i]))
		}
		for i := l; i < lend; i++ {
			anorm = max(anorm, math.Abs(e[i]))
		}
		if anorm == 0 {
			continue
		}
		sc := 1.0
		if anorm > ssfmax {
			sc = ssfmax / anorm
		} else if anorm < ssfmin {
			sc = ssfmin / anorm
		}
		if sc != 1 {
			scaleTri(d[l:lend+1], e[l:lend], sc)
		}
		lsv, lendsv := l, lend
		if math.Abs(d[lend]) < math.Abs(d[l]) {
			l, lend = lend, l
		}
		switch {
		case !st.vec:
			// Root-free: the sweeps work on the squares of e.
			for i := lsv; i < lendsv; i++ {
				e[i] *= e[i]
			}
			if lend > l {
				st.pwkQL(l, lend)
			} else {
				st.pwkQR(l, lend)
			}
		case lend > l:
			st.ql(l, lend)
		default:
			st.qr(l, lend)
		}
		if sc != 1 {
			// e is left squared by the root-free sweeps; only its zeros
			// matter from here on.
			scaleTri(d[lsv:lendsv+1], e[lsv:lendsv], 1/sc)
		}
		if st.jtot >= st.maxit {
			k := 0
			for _, x := range e {
				if x != 0 {
					k++
				}
			}
			return k
		}
	}
	return 0
}

// scaleTri multiplies d and e by s.
func scaleTri(d, e []float64, s float64) {
	for i := range d {
		d[i] *= s
	}
	for i := range e {
		e[i] *= s
	}
}

// ql runs QL sweeps on the block l..lend (l < lend) until its eigenvalues
// have converged from the top down, or the sweep budget is spent.
func (st *steqrState[T]) ql(l, lend int) {
	n, d, e := st.n, st.d, st.e
	eps2 := tdEps * tdEps
	for l <= lend {
		// Look for a small subdiagonal element.
		m := lend
		for i := l; i < lend; i++ {
			if t := e[i] * e[i]; t <= eps2*math.Abs(d[i])*math.Abs(d[i+1])+tdSafmin {
				m = i
				break
			}
		}
		if m < lend {
			e[m] = 0
		}
		p := d[l]
		if m == l {
			l++
			continue
		}
		if m == l+1 {
			rt1, rt2, c, s := laev2(d[l], e[l], d[l+1])
			if st.vec {
				Rot(n, st.z, l, l+1, c, s)
			}
			d[l], d[l+1], e[l] = rt1, rt2, 0
			l += 2
			continue
		}
		if st.jtot >= st.maxit {
			return
		}
		st.jtot++
		// Wilkinson shift and one implicit sweep from the bottom.
		g := (d[l+1] - p) / (2 * e[l])
		r := math.Hypot(g, 1)
		g = d[m] - p + e[l]/(g+math.Copysign(r, g))
		s, c := 1.0, 1.0
		p = 0
		for i := m - 1; i >= l; i-- {
			f, b := s*e[i], c*e[i]
			c, s, r = Lartg(g, f)
			if i != m-1 {
				e[i+1] = r
			}
			g = d[i+1] - p
			r = (d[i]-g)*s + 2*c*b
			p = s * r
			d[i+1] = g + p
			g = c*r - b
			if st.vec {
				st.c[i], st.s[i] = c, -s
			}
		}
		if st.vec {
			Lasr(false, n, st.z, l, st.c[l:m], st.s[l:m])
		}
		d[l] -= p
		e[l] = g
	}
}

// qr runs QR sweeps on the block lend..l (l > lend) until its eigenvalues
// have converged from the bottom up, or the sweep budget is spent.
func (st *steqrState[T]) qr(l, lend int) {
	n, d, e := st.n, st.d, st.e
	eps2 := tdEps * tdEps
	for l >= lend {
		m := lend
		for i := l; i > lend; i-- {
			if t := e[i-1] * e[i-1]; t <= eps2*math.Abs(d[i])*math.Abs(d[i-1])+tdSafmin {
				m = i
				break
			}
		}
		if m > lend {
			e[m-1] = 0
		}
		p := d[l]
		if m == l {
			l--
			continue
		}
		if m == l-1 {
			rt1, rt2, c, s := laev2(d[l-1], e[l-1], d[l])
			if st.vec {
				Rot(n, st.z, l-1, l, c, s)
			}
			d[l-1], d[l], e[l-1] = rt1, rt2, 0
			l -= 2
			continue
		}
		if st.jtot >= st.maxit {
			return
		}
		st.jtot++
		g := (d[l-1] - p) / (2 * e[l-1])
		r := math.Hypot(g, 1)
		g = d[m] - p + e[l-1]/(g+math.Copysign(r, g))
		s, c := 1.0, 1.0
		p = 0
		for i := m; i < l; i++ {
			f, b := s*e[i], c*e[i]
			c, s, r = Lartg(g, f)
			if i != m {
				e[i-1] = r
			}
			g = d[i] - p
			r = (d[i+1]-g)*s + 2*c*b
			p = s * r
			d[i] = g + p
			g = c*r - b
			if st.vec {
				st.c[i], st.s[i] = c, s
			}
		}
		if st.vec {
			Lasr(true, n, st.z, m, st.c[m:l], st.s[m:l])
		}
		d[l] -= p
		e[l-1] = g
	}
}

// pwkQL is ql without eigenvectors, root-free (the Pal–Walker–Kahan form
// of the QL sweep, as LAPACK's ?sterf): e holds the squares of the
// off-diagonal elements of the block, and each step of the sweep takes a
// division where the rotation form takes a square root and two. With
// c_i and s_i the rotation's cosine and sine of step i, it carries
// p = γ²/c (γ the rotated diagonal element minus the shift σ) and forms
// c² = p/(p + e²), s² = e²/(p + e²) directly.
func (st *steqrState[T]) pwkQL(l, lend int) {
	d, e := st.d, st.e
	eps2 := tdEps * tdEps
	for l <= lend {
		m := lend
		for i := l; i < lend; i++ {
			if math.Abs(e[i]) <= eps2*math.Abs(d[i]*d[i+1]) {
				m = i
				break
			}
		}
		if m < lend {
			e[m] = 0
		}
		p := d[l]
		if m == l {
			l++
			continue
		}
		if m == l+1 {
			rt1, rt2, _, _ := laev2(d[l], math.Sqrt(e[l]), d[l+1])
			d[l], d[l+1], e[l] = rt1, rt2, 0
			l += 2
			continue
		}
		if st.jtot >= st.maxit {
			return
		}
		st.jtot++
		rte := math.Sqrt(e[l])
		sigma := (d[l+1] - p) / (2 * rte)
		r := math.Hypot(sigma, 1)
		sigma = p - rte/(sigma+math.Copysign(r, sigma))
		c, sn := 1.0, 0.0
		gamma := d[m] - sigma
		p = gamma * gamma
		for i := m - 1; i >= l; i-- {
			bb := e[i]
			r := p + bb
			if i != m-1 {
				e[i+1] = sn * r
			}
			oldc := c
			c, sn = p/r, bb/r
			oldgam := gamma
			alpha := d[i]
			gamma = c*(alpha-sigma) - sn*oldgam
			d[i+1] = oldgam + (alpha - gamma)
			if c != 0 {
				p = gamma * gamma / c
			} else {
				p = oldc * bb
			}
		}
		e[l] = sn * p
		d[l] = sigma + gamma
	}
}

// pwkQR is qr without eigenvectors, root-free (see pwkQL).
func (st *steqrState[T]) pwkQR(l, lend int) {
	d, e := st.d, st.e
	eps2 := tdEps * tdEps
	for l >= lend {
		m := lend
		for i := l; i > lend; i-- {
			if math.Abs(e[i-1]) <= eps2*math.Abs(d[i]*d[i-1]) {
				m = i
				break
			}
		}
		if m > lend {
			e[m-1] = 0
		}
		p := d[l]
		if m == l {
			l--
			continue
		}
		if m == l-1 {
			rt1, rt2, _, _ := laev2(d[l], math.Sqrt(e[l-1]), d[l-1])
			d[l], d[l-1], e[l-1] = rt1, rt2, 0
			l -= 2
			continue
		}
		if st.jtot >= st.maxit {
			return
		}
		st.jtot++
		rte := math.Sqrt(e[l-1])
		sigma := (d[l-1] - p) / (2 * rte)
		r := math.Hypot(sigma, 1)
		sigma = p - rte/(sigma+math.Copysign(r, sigma))
		c, sn := 1.0, 0.0
		gamma := d[m] - sigma
		p = gamma * gamma
		for i := m; i < l; i++ {
			bb := e[i]
			r := p + bb
			if i != m {
				e[i-1] = sn * r
			}
			oldc := c
			c, sn = p/r, bb/r
			oldgam := gamma
			alpha := d[i+1]
			gamma = c*(alpha-sigma) - sn*oldgam
			d[i] = oldgam + (alpha - gamma)
			if c != 0 {
				p = gamma * gamma / c
			} else {
				p = oldc * bb
			}
		}
		e[l-1] = sn * p
		d[l] = sigma + gamma
	}
}

// laev2 returns the eigen decomposition of the symmetric 2×2 [a b; b c]:
//
//	[ cs sn] [a b] [cs −sn]   [rt1  0 ]
//	[−sn cs] [b c] [sn  cs] = [ 0  rt2],  |rt1| ≥ |rt2|,
//
// so (cs, sn) is the unit eigenvector of rt1. rt1 is the root of larger
// magnitude, (a + c ± hypot(a − c, 2b))/2 with the sign of a + c, and
// rt2 = (a·c − b²)/rt1 formed without cancellation; the eigenvector comes
// from whichever of the two rows of A − rt1·I is better conditioned.
func laev2(a, b, c float64) (rt1, rt2, cs, sn float64) {
	sm, df := a+c, a-c
	tb := 2 * b
	ab := math.Abs(tb)
	acmx, acmn := a, c
	if math.Abs(c) > math.Abs(a) {
		acmx, acmn = c, a
	}
	rt := math.Hypot(df, tb)
	sgn1 := 1.0
	switch {
	case sm < 0:
		rt1, sgn1 = 0.5*(sm-rt), -1
		rt2 = (acmx/rt1)*acmn - (b/rt1)*b
	case sm > 0:
		rt1 = 0.5 * (sm + rt)
		rt2 = (acmx/rt1)*acmn - (b/rt1)*b
	default:
		rt1, rt2 = 0.5*rt, -0.5*rt
	}
	// (cs, sn) ∝ (−2b, df ± rt) or (df ± rt, 2b) turned a quarter.
	sgn2 := 1.0
	v := df + rt
	if df < 0 {
		v, sgn2 = df-rt, -1
	}
	switch {
	case math.Abs(v) > ab:
		ct := -tb / v
		sn = 1 / math.Sqrt(1+ct*ct)
		cs = ct * sn
	case ab == 0:
		cs, sn = 1, 0
	default:
		tn := -v / tb
		cs = 1 / math.Sqrt(1+tn*tn)
		sn = tn * cs
	}
	if sgn1 == sgn2 {
		cs, sn = -sn, cs
	}
	return rt1, rt2, cs, sn
}
