package lapack

import (
	"math"

	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
)

// bdsqrTol is Bdsqr's relative tolerance, LAPACK's max(10, min(100,
// ε^(−1/8)))·ε.
var bdsqrTol = max(10, min(100, math.Pow(0x1p-53, -0.125))) * 0x1p-53

// bdsqrMaxIter is the iteration bound of Bdsqr per n² (LAPACK's MAXITR):
// at most bdsqrMaxIter·n² inner QR steps are taken.
const bdsqrMaxIter = 6

// BdsqrWork returns the length of work with which [Bdsqr] of order n
// batches the application of its rotations: 4·n plus room for the
// rotations of about 40 full sweeps.
func BdsqrWork(n int) int { return 4*n + 40*(3+4*n) }

// Bdsqr computes the singular value decomposition of the n×n real
// bidiagonal matrix B,
//
//	B = Q·S·Pᵀ,  S = diag(σ1 ≥ σ2 ≥ … ≥ σn ≥ 0),
//
// by the implicit zero-shift and shifted QR iteration of Demmel and Kahan
// (LAPACK's ?bdsqr): each singular value is found to high relative
// accuracy (the values of a bidiagonal matrix are determined to high
// relative accuracy by its entries), and the iteration chases from the
// larger end of each unreduced block toward the smaller one, switching to
// the zero shift when the shift would be negligible against the smallest
// singular value; 2×2 blocks are diagonalized directly.
//
// B is upper bidiagonal when upper (d its diagonal, e[:n−1] its
// superdiagonal) and lower otherwise (e its subdiagonal; it is first
// rotated to upper form). On return d holds the singular values in
// descending order and e is destroyed. The rotations are accumulated:
//
//	vt (n×ncvt) ← Pᵀ·vt   (rows of vt are rotated),
//	u  (nru×n)  ← u·Q     (columns of u are rotated),
//
// so that with vt and u set to Pᴴ and Q of a reduction A = Q·B·Pᴴ on entry
// they hold the singular vectors on return; the rows of vt and the columns
// of u are permuted with the sort and signs are moved into vt. ncvt = 0 or
// nru = 0 (or nil Data) skips that matrix: the values alone cost O(n²).
// work needs 4·n elements (none when ncvt = nru = 0 and upper); with
// [BdsqrWork](n) elements the rotations of many sweeps are recorded and
// applied together, a cache-sized panel of u's rows (vt's columns) at a
// time, which is several times faster for large u and vt and gives the
// same result.
//
// It returns 0 on success; k > 0 when k off-diagonals did not converge in
// bdsqrMaxIter·n² = 6·n² inner steps (d and e then hold a bidiagonal
// matrix orthogonally equivalent to B, unsorted); and n when d or e holds
// NaN or ±Inf, which is checked before any iteration.
func Bdsqr[T Scalar](upper bool, n, ncvt, nru int, d, e []float64, vt, u gemm.Mat[T], work []float64) int {
	if n <= 0 {
		return 0
	}
	if vt.Data == nil {
		ncvt = 0
	}
	if u.Data == nil {
		nru = 0
	}
	for i := 0; i < n; i++ {
		if math.IsNaN(d[i]) || math.IsInf(d[i], 0) || i < n-1 && (math.IsNaN(e[i]) || math.IsInf(e[i], 0)) {
			return n
		}
	}
	if n > 1 {
		if !upper {
			// B = R·B′ with B′ upper: rotate the subdiagonal away from the
			// left, u ← u·Rᵀ.
			for i := 0; i < n-1; i++ {
				cs, sn, r := Lartg(d[i], e[i])
				d[i] = r
				e[i] = sn * d[i+1]
				d[i+1] *= cs
				if nru > 0 {
					work[i], work[n-1+i] = cs, sn
				}
			}
			if nru > 0 {
				Lasr(true, nru, u, 0, work[:n-1], work[n-1:2*n-2])
			}
		}
		if info := bdsqrIterate(n, ncvt, nru, d, e, vt, u, work); info != 0 {
			return info
		}
	}
	// Positive values, the sign moved into vt; then sort descending.
	for i := 0; i < n; i++ {
		if d[i] < 0 {
			d[i] = -d[i]
			if ncvt > 0 {
				scaleVec(vt.Data, vt.Off+i*vt.RS, ncvt, vt.CS, -1)
			}
		} else if d[i] == 0 {
			d[i] = 0 // −0 → +0
		}
	}
	for i := 0; i < n-1; i++ {
		// Move the least of d[0:n−i] to the end of that range.
		last := n - 1 - i
		p, smin := 0, d[0]
		for j := 1; j <= last; j++ {
			if d[j] <= smin {
				p, smin = j, d[j]
			}
		}
		if p != last {
			d[p], d[last] = d[last], smin
			if ncvt > 0 {
				swapVec(ncvt, vt.Data, vt.Off+p*vt.RS, vt.Off+last*vt.RS, vt.CS)
			}
			if nru > 0 {
				swapVec(nru, u.Data, u.Off+p*u.CS, u.Off+last*u.CS, u.RS)
			}
		}
	}
	return 0
}

// swapVec swaps the n elements x[a+i*inc] and x[b+i*inc].
func swapVec[T Scalar](n int, x []T, a, b, inc int) {
	for i := 0; i < n; i++ {
		x[a+i*inc], x[b+i*inc] = x[b+i*inc], x[a+i*inc]
	}
}

// bdsqrIterate runs the QR iteration on the upper bidiagonal (d, e) of
// order n ≥ 2 until every off-diagonal is negligible, and returns 0, or
// the number of nonzero off-diagonals left after the iteration bound.
func bdsqrIterate[T Scalar](n, ncvt, nru int, d, e []float64, vt, u gemm.Mat[T], work []float64) int {
	const (
		eps    = 0x1p-53
		unfl   = 0x1p-1022
		hndrth = 0.01
	)
	tol := bdsqrTol
	// Threshold for negligible off-diagonals: tol times an estimate of the
	// least singular value (the relative criterion), or a tiny absolute
	// floor when that estimate is 0.
	smax := 0.0
	for i := 0; i < n; i++ {
		smax = max(smax, math.Abs(d[i]))
	}
	for i := 0; i < n-1; i++ {
		smax = max(smax, math.Abs(e[i]))
	}
	sminoa := math.Abs(d[0])
	if sminoa != 0 {
		mu := sminoa
		for i := 1; i < n; i++ {
			mu = math.Abs(d[i]) * (mu / (mu + math.Abs(e[i-1])))
			sminoa = min(sminoa, mu)
			if sminoa == 0 {
				break
			}
		}
	}
	sminoa /= math.Sqrt(float64(n))
	thresh := max(tol*sminoa, bdsqrMaxIter*float64(n)*float64(n)*unfl)
	maxit := bdsqrMaxIter * n * n
	nm1 := n - 1
	vecs := ncvt > 0 || nru > 0
	var cr, sr, cl, sl []float64 // the right (vt) and left (u) rotations
	if vecs {
		cr, sr = work[:nm1], work[nm1:2*nm1]
		cl, sl = work[2*nm1:3*nm1], work[3*nm1:4*nm1]
	}
	rl := rotLog[T]{ncvt: ncvt, nru: nru, rowsVT: transpose(vt), u: u}
	if vecs && len(work) > 4*nm1 {
		rl.buf = work[4*nm1:]
	}
	defer rl.flush()
	iter := 0
	oldll, oldm := -1, -1
	idir := 0
	m := n - 1 // the block ends at d[m]
	for m > 0 {
		if iter > maxit {
			nz := 0
			for i := 0; i < n-1; i++ {
				if e[i] != 0 {
					nz++
				}
			}
			return nz
		}
		// Find the unreduced block d[ll..m]: the last negligible e above m.
		smax = math.Abs(d[m])
		ll := -1
		for l := m - 1; l >= 0; l-- {
			abss, abse := math.Abs(d[l]), math.Abs(e[l])
			if abse <= thresh {
				e[l] = 0
				ll = l
				break
			}
			smax = max(smax, abss, abse)
		}
		if ll == m-1 {
			m--
			continue
		}
		ll++
		if ll == m-1 {
			// A 2×2 block: diagonalize it directly.
			smin, smx, sinr, cosr, sinl, cosl := lasv2(d[m-1], e[m-1], d[m])
			d[m-1], e[m-1], d[m] = smx, 0, smin
			if vecs {
				rs := [4]float64{cosr, sinr, cosl, sinl}
				rl.add(true, m-1, rs[0:1], rs[1:2], rs[2:3], rs[3:4])
			}
			m -= 2
			continue
		}
		// A new block: chase from its larger end.
		if ll > oldm || m < oldll {
			if math.Abs(d[ll]) >= math.Abs(d[m]) {
				idir = 1 // top to bottom
			} else {
				idir = 2 // bottom to top
			}
		}
		// Convergence tests, the relative criterion along the chase
		// direction with the running estimate mu of the least singular
		// value of the leading (trailing) part.
		var sminl float64
		converged := false
		if idir == 1 {
			if math.Abs(e[m-1]) <= tol*math.Abs(d[m]) {
				e[m-1] = 0
				continue
			}
			mu := math.Abs(d[ll])
			sminl = mu
			for l := ll; l < m; l++ {
				if math.Abs(e[l]) <= tol*mu {
					e[l] = 0
					converged = true
					break
				}
				mu = math.Abs(d[l+1]) * (mu / (mu + math.Abs(e[l])))
				sminl = min(sminl, mu)
			}
		} else {
			if math.Abs(e[ll]) <= tol*math.Abs(d[ll]) {
				e[ll] = 0
				continue
			}
			mu := math.Abs(d[m])
			sminl = mu
			for l := m - 1; l >= ll; l-- {
				if math.Abs(e[l]) <= tol*mu {
					e[l] = 0
					converged = true
					break
				}
				mu = math.Abs(d[l]) * (mu / (mu + math.Abs(e[l])))
				sminl = min(sminl, mu)
			}
		}
		if converged {
			continue
		}
		oldll, oldm = ll, m
		// The shift: the least singular value of the trailing (leading)
		// 2×2, or zero when it is negligible against sminl.
		shift := 0.0
		if !(float64(n)*tol*(sminl/smax) <= max(eps, hndrth*tol)) {
			var sll float64
			if idir == 1 {
				sll = math.Abs(d[ll])
				shift, _ = las2(d[m-1], e[m-1], d[m])
			} else {
				sll = math.Abs(d[m])
				shift, _ = las2(d[ll], e[ll], d[ll+1])
			}
			if sll > 0 && (shift/sll)*(shift/sll) < eps {
				shift = 0
			}
		}
		iter += m - ll
		k := m - ll // rotations in this sweep
		if shift == 0 {
			if idir == 1 {
				cs, oldcs, oldsn := 1.0, 1.0, 0.0
				for i := ll; i < m; i++ {
					var sn, r float64
					cs, sn, r = Lartg(d[i]*cs, e[i])
					if i > ll {
						e[i-1] = oldsn * r
					}
					oldcs, oldsn, d[i] = Lartg(oldcs*r, d[i+1]*sn)
					if vecs {
						cr[i-ll], sr[i-ll], cl[i-ll], sl[i-ll] = cs, sn, oldcs, oldsn
					}
				}
				h := d[m] * cs
				d[m] = h * oldcs
				e[m-1] = h * oldsn
				if vecs {
					rl.add(true, ll, cr[:k], sr[:k], cl[:k], sl[:k])
				}
				if math.Abs(e[m-1]) <= thresh {
					e[m-1] = 0
				}
			} else {
				cs, oldcs, oldsn := 1.0, 1.0, 0.0
				for i := m; i > ll; i-- {
					var sn, r float64
					cs, sn, r = Lartg(d[i]*cs, e[i-1])
					if i < m {
						e[i] = oldsn * r
					}
					oldcs, oldsn, d[i] = Lartg(oldcs*r, d[i-1]*sn)
					if vecs {
						j := i - ll - 1
						cr[j], sr[j], cl[j], sl[j] = cs, -sn, oldcs, -oldsn
					}
				}
				h := d[ll] * cs
				d[ll] = h * oldcs
				e[ll] = h * oldsn
				if vecs {
					rl.add(false, ll, cl[:k], sl[:k], cr[:k], sr[:k])
				}
				if math.Abs(e[ll]) <= thresh {
					e[ll] = 0
				}
			}
			continue
		}
		if idir == 1 {
			f := (math.Abs(d[ll]) - shift) * (math.Copysign(1, d[ll]) + shift/d[ll])
			g := e[ll]
			for i := ll; i < m; i++ {
				cosr, sinr, r := Lartg(f, g)
				if i > ll {
					e[i-1] = r
				}
				f = cosr*d[i] + sinr*e[i]
				e[i] = cosr*e[i] - sinr*d[i]
				g = sinr * d[i+1]
				d[i+1] *= cosr
				cosl, sinl, r := Lartg(f, g)
				d[i] = r
				f = cosl*e[i] + sinl*d[i+1]
				d[i+1] = cosl*d[i+1] - sinl*e[i]
				if i < m-1 {
					g = sinl * e[i+1]
					e[i+1] *= cosl
				}
				if vecs {
					cr[i-ll], sr[i-ll], cl[i-ll], sl[i-ll] = cosr, sinr, cosl, sinl
				}
			}
			e[m-1] = f
			if vecs {
				rl.add(true, ll, cr[:k], sr[:k], cl[:k], sl[:k])
			}
			if math.Abs(e[m-1]) <= thresh {
				e[m-1] = 0
			}
			continue
		}
		f := (math.Abs(d[m]) - shift) * (math.Copysign(1, d[m]) + shift/d[m])
		g := e[m-1]
		for i := m; i > ll; i-- {
			cosr, sinr, r := Lartg(f, g)
			if i < m {
				e[i] = r
			}
			f = cosr*d[i] + sinr*e[i-1]
			e[i-1] = cosr*e[i-1] - sinr*d[i]
			g = sinr * d[i-1]
			d[i-1] *= cosr
			cosl, sinl, r := Lartg(f, g)
			d[i] = r
			f = cosl*e[i-1] + sinl*d[i-1]
			d[i-1] = cosl*d[i-1] - sinl*e[i-1]
			if i > ll+1 {
				g = sinl * e[i-2]
				e[i-2] *= cosl
			}
			if vecs {
				j := i - ll - 1
				cr[j], sr[j], cl[j], sl[j] = cosr, -sinr, cosl, -sinl
			}
		}
		e[ll] = f
		if math.Abs(e[ll]) <= thresh {
			e[ll] = 0
		}
		if vecs {
			rl.add(false, ll, cl[:k], sl[:k], cr[:k], sr[:k])
		}
	}
	return 0
}

// rotLog records the rotations of successive sweeps in buf and applies
// them to vt's rows and u's columns together, a panel of rows of u (of
// columns of vt) at a time, so that each panel stays in cache while all
// the recorded sweeps pass over it. The rows of u (and the columns of vt)
// are transformed independently, so the order of the sweeps is kept per
// row and the result is the same as applying each sweep at once. A record
// is j0, the rotation count k, the direction, then the k cosines and sines
// for vt and the k cosines and sines for u.
type rotLog[T Scalar] struct {
	buf       []float64
	used      int
	ncvt, nru int
	rowsVT, u gemm.Mat[T] // vt as its transposed view: rows of vt are columns
}

// add records the rotations (cv, sv) on the row pairs (j0+i, j0+i+1) of
// vt and (cu, su) on the column pairs of u, in order i = 0, 1, … when
// forward and in reverse otherwise.
func (l *rotLog[T]) add(forward bool, j0 int, cv, sv, cu, su []float64) {
	k := len(cv)
	need := 3 + 4*k
	if l.used+need > len(l.buf) {
		l.flush()
		if need > len(l.buf) {
			if l.ncvt > 0 {
				Lasr(forward, l.ncvt, l.rowsVT, j0, cv, sv)
			}
			if l.nru > 0 {
				Lasr(forward, l.nru, l.u, j0, cu, su)
			}
			return
		}
	}
	b := l.buf[l.used : l.used+need]
	b[0], b[1], b[2] = float64(j0), float64(k), 0
	if forward {
		b[2] = 1
	}
	copy(b[3:], cv)
	copy(b[3+k:], sv)
	copy(b[3+2*k:], cu)
	copy(b[3+3*k:], su)
	l.used += need
}

// flush applies and forgets the recorded rotations.
func (l *rotLog[T]) flush() {
	if l.used == 0 {
		return
	}
	l.apply(l.rowsVT, l.ncvt, 0)
	l.apply(l.u, l.nru, 2)
	l.used = 0
}

// rotPanelBytes is the size of the panel of a that rotLog.apply keeps in
// cache while the recorded sweeps pass over it (an L2-sized block).
const rotPanelBytes = 1 << 18

// apply runs the recorded rotations (the pair at position which: 0 for
// vt, 2 for u) over the rows-row matrix a. When a's rows are contiguous
// (CS = 1) each row in turn passes through all recorded sweeps, a sweep
// being one pass along the row with the shared element carried in a
// register; otherwise a panel of rows at a time, rotating column pairs.
func (l *rotLog[T]) apply(a gemm.Mat[T], rows, which int) {
	if rows <= 0 {
		return
	}
	if a.CS == 1 {
		r := 0
		if _, ok := any(a.Data).([]float64); ok {
			// Four rows at a time: four independent chains hide the
			// latency of the carried element.
			for ; r+4 <= rows; r += 4 {
				var x [4][]float64
				for q := range x {
					x[q] = any(a.Data[a.Off+(r+q)*a.RS:]).([]float64)
				}
				for o := 0; o < l.used; {
					j0, k, fw := int(l.buf[o]), int(l.buf[o+1]), l.buf[o+2] != 0
					c := l.buf[o+3+which*k : o+3+(which+1)*k]
					s := l.buf[o+3+(which+1)*k : o+3+(which+2)*k]
					rotChain4(fw, x[0][j0:j0+k+1], x[1][j0:j0+k+1], x[2][j0:j0+k+1], x[3][j0:j0+k+1], c, s)
					o += 3 + 4*k
				}
			}
		}
		for ; r < rows; r++ {
			row := a.Data[a.Off+r*a.RS:]
			for o := 0; o < l.used; {
				j0, k, fw := int(l.buf[o]), int(l.buf[o+1]), l.buf[o+2] != 0
				c := l.buf[o+3+which*k : o+3+(which+1)*k]
				s := l.buf[o+3+(which+1)*k : o+3+(which+2)*k]
				rotChain(fw, row[j0:j0+k+1], c, s)
				o += 3 + 4*k
			}
		}
		return
	}
	ncols := 0
	for o := 0; o < l.used; o += 3 + 4*int(l.buf[o+1]) {
		ncols = max(ncols, int(l.buf[o])+int(l.buf[o+1])+1)
	}
	p := max(4, rotPanelBytes/(max(ncols, 1)*elemSize[T]()))
	for r0 := 0; r0 < rows; r0 += p {
		pr := min(p, rows-r0)
		sub := shift(a, r0, 0)
		for o := 0; o < l.used; {
			j0, k, fw := int(l.buf[o]), int(l.buf[o+1]), l.buf[o+2] != 0
			c := l.buf[o+3+which*k : o+3+(which+1)*k]
			s := l.buf[o+3+(which+1)*k : o+3+(which+2)*k]
			Lasr(fw, pr, sub, j0, c, s)
			o += 3 + 4*k
		}
	}
}

// rotChain applies the rotations (c[i], s[i]) to the element pairs
// (x[i], x[i+1]) of the row x (len(c)+1 elements), in order i = 0, 1, …
// when forward and in reverse otherwise, as [Rot] does to column pairs:
// x[i] ← c·x[i] + s·x[i+1], x[i+1] ← c·x[i+1] − s·x[i].
func rotChain[T Scalar](forward bool, x []T, c, s []float64) {
	switch p := any(x).(type) {
	case []float64:
		rotChainR(forward, p, c, s)
	case []complex128:
		rotChainC(forward, p, c, s)
	case []float32:
		rotChainR(forward, p, c, s)
	case []complex64:
		rotChainC(forward, p, c, s)
	}
}

func rotChainR[F float32 | float64](forward bool, x []F, c, s []float64) {
	k := len(c)
	x = x[:k+1]
	s = s[:k]
	if forward {
		t := x[0]
		for i, ci := range c {
			cc, ss := F(ci), F(s[i])
			b := x[i+1]
			x[i] = cc*t + ss*b
			t = cc*b - ss*t
		}
		x[k] = t
		return
	}
	t := x[k]
	for i := k - 1; i >= 0; i-- {
		cc, ss := F(c[i]), F(s[i])
		a := x[i]
		x[i+1] = cc*t - ss*a
		t = cc*a + ss*t
	}
	x[0] = t
}

// rotChain4 is rotChain on four float64 rows at once.
func rotChain4(forward bool, x0, x1, x2, x3 []float64, c, s []float64) {
	k := len(c)
	x0, x1, x2, x3 = x0[:k+1], x1[:k+1], x2[:k+1], x3[:k+1]
	s = s[:k]
	if forward {
		t0, t1, t2, t3 := x0[0], x1[0], x2[0], x3[0]
		for i, cc := range c {
			ss := s[i]
			b0, b1, b2, b3 := x0[i+1], x1[i+1], x2[i+1], x3[i+1]
			x0[i], x1[i], x2[i], x3[i] = cc*t0+ss*b0, cc*t1+ss*b1, cc*t2+ss*b2, cc*t3+ss*b3
			t0, t1, t2, t3 = cc*b0-ss*t0, cc*b1-ss*t1, cc*b2-ss*t2, cc*b3-ss*t3
		}
		x0[k], x1[k], x2[k], x3[k] = t0, t1, t2, t3
		return
	}
	t0, t1, t2, t3 := x0[k], x1[k], x2[k], x3[k]
	for i := k - 1; i >= 0; i-- {
		cc, ss := c[i], s[i]
		a0, a1, a2, a3 := x0[i], x1[i], x2[i], x3[i]
		x0[i+1], x1[i+1], x2[i+1], x3[i+1] = cc*t0-ss*a0, cc*t1-ss*a1, cc*t2-ss*a2, cc*t3-ss*a3
		t0, t1, t2, t3 = cc*a0+ss*t0, cc*a1+ss*t1, cc*a2+ss*t2, cc*a3+ss*t3
	}
	x0[0], x1[0], x2[0], x3[0] = t0, t1, t2, t3
}

func rotChainC[C complex64 | complex128](forward bool, x []C, c, s []float64) {
	k := len(c)
	x = x[:k+1]
	s = s[:k]
	if forward {
		t := complex128(x[0])
		tr, ti := real(t), imag(t)
		for i, cc := range c {
			ss := s[i]
			b := complex128(x[i+1])
			br, bi := real(b), imag(b)
			x[i] = C(complex(cc*tr+ss*br, cc*ti+ss*bi))
			tr, ti = cc*br-ss*tr, cc*bi-ss*ti
		}
		x[k] = C(complex(tr, ti))
		return
	}
	t := complex128(x[k])
	tr, ti := real(t), imag(t)
	for i := k - 1; i >= 0; i-- {
		cc, ss := c[i], s[i]
		a := complex128(x[i])
		ar, ai := real(a), imag(a)
		x[i+1] = C(complex(cc*tr-ss*ar, cc*ti-ss*ai))
		tr, ti = cc*ar+ss*tr, cc*ai+ss*ti
	}
	x[0] = C(complex(tr, ti))
}

// elemSize returns the size of a T in bytes.
func elemSize[T Scalar]() int {
	var z T
	switch any(z).(type) {
	case float32:
		return 4
	case float64, complex64:
		return 8
	}
	return 16
}

// las2 returns the singular values σmin ≤ σmax of the 2×2 upper
// triangular [f g; 0 h], computed without overflow and, when σmin > 0,
// to high relative accuracy (LAPACK's las2).
func las2(f, g, h float64) (smin, smax float64) {
	fa, ga, ha := math.Abs(f), math.Abs(g), math.Abs(h)
	fhmn, fhmx := min(fa, ha), max(fa, ha)
	if fhmn == 0 {
		if fhmx == 0 {
			return 0, ga
		}
		lo, hi := min(fhmx, ga), max(fhmx, ga)
		return 0, hi * math.Sqrt(1+(lo/hi)*(lo/hi))
	}
	if ga < fhmx {
		as := 1 + fhmn/fhmx
		at := (fhmx - fhmn) / fhmx
		au := (ga / fhmx) * (ga / fhmx)
		c := 2 / (math.Sqrt(as*as+au) + math.Sqrt(at*at+au))
		return fhmn * c, fhmx / c
	}
	au := fhmx / ga
	if au == 0 {
		// fhmx/ga underflows: σmin = fhmn·fhmx/ga, σmax = ga.
		return fhmn * fhmx / ga, ga
	}
	as := 1 + fhmn/fhmx
	at := (fhmx - fhmn) / fhmx
	c := 1 / (math.Sqrt(1+(as*au)*(as*au)) + math.Sqrt(1+(at*au)*(at*au)))
	return 2 * (fhmn * c) * au, ga / (c + c)
}

// lasv2 returns the singular value decomposition of the 2×2 upper
// triangular [f g; 0 h]:
//
//	[ cosl sinl] [f g] [cosr −sinr]   [smax    0]
//	[−sinl cosl] [0 h] [sinr  cosr] = [   0 smin],
//
// |smax| ≥ |smin|, the signed singular values, accurate to a few ulps
// and to high relative accuracy (LAPACK's lasv2, after Demmel and Kahan).
func lasv2(f, g, h float64) (smin, smax, sinr, cosr, sinl, cosl float64) {
	const eps = 0x1p-53
	ft, fa, ht, ha := f, math.Abs(f), h, math.Abs(h)
	// pmax names the entry of largest magnitude: 1 f, 2 g, 3 h.
	pmax := 1
	swap := ha > fa
	if swap {
		pmax = 3
		ft, ht = ht, ft
		fa, ha = ha, fa
	}
	gt, ga := g, math.Abs(g)
	var clt, crt, slt, srt float64
	if ga == 0 {
		smin, smax = ha, fa
		clt, crt, slt, srt = 1, 1, 0, 0
	} else {
		small := true
		if ga > fa {
			pmax = 2
			if fa/ga < eps {
				// g dominates: the values are ga and fa·ha/ga.
				small = false
				smax = ga
				if ha > 1 {
					smin = fa / (ga / ha)
				} else {
					smin = (fa / ga) * ha
				}
				clt = 1
				slt = ht / gt
				srt = 1
				crt = ft / gt
			}
		}
		if small {
			dd := fa - ha
			l := 1.0
			if dd != fa {
				l = dd / fa
			}
			mq := gt / ft
			t := 2 - l
			mm, tt := mq*mq, t*t
			s := math.Sqrt(tt + mm)
			r := math.Abs(mq)
			if l != 0 {
				r = math.Sqrt(l*l + mm)
			}
			a := 0.5 * (s + r)
			smin, smax = ha/a, fa*a
			switch {
			case mm == 0 && l == 0:
				t = math.Copysign(2, ft) * math.Copysign(1, gt)
			case mm == 0:
				t = gt/math.Copysign(dd, ft) + mq/t
			default:
				t = (mq/(s+t) + mq/(r+l)) * (1 + a)
			}
			l = math.Sqrt(t*t + 4)
			crt = 2 / l
			srt = t / l
			clt = (crt + srt*mq) / a
			slt = (ht / ft) * srt / a
		}
	}
	if swap {
		cosl, sinl, cosr, sinr = srt, crt, slt, clt
	} else {
		cosl, sinl, cosr, sinr = clt, slt, crt, srt
	}
	// The signs of the values follow from det = f·h and the rotations.
	var tsign float64
	switch pmax {
	case 1:
		tsign = math.Copysign(1, cosr) * math.Copysign(1, cosl) * math.Copysign(1, f)
	case 2:
		tsign = math.Copysign(1, sinr) * math.Copysign(1, cosl) * math.Copysign(1, g)
	default:
		tsign = math.Copysign(1, sinr) * math.Copysign(1, sinl) * math.Copysign(1, h)
	}
	smax = math.Copysign(smax, tsign)
	smin = math.Copysign(smin, tsign*math.Copysign(1, f)*math.Copysign(1, h))
	return smin, smax, sinr, cosr, sinl, cosl
}
