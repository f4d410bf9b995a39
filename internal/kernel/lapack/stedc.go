package lapack

import (
	"math"

	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
	"github.com/tenferro-go/tenferro/internal/par"
)

// StedcLeaf is the order of the subproblems that Stedc solves by Steqr
// instead of halving them. Set it before calls run (it is read without
// locking).
var StedcLeaf = 32

// stedcMaxIter bounds the iterations of one secular equation root: the
// rational steps converge in a handful, and the bound leaves room for
// bisection to narrow a bracket by 2⁻³⁰⁰. A variable for the tests.
var stedcMaxIter = 300

// Stedc computes all eigenvalues and eigenvectors of the n×n real
// symmetric tridiagonal T with diagonal d[0:n] and off-diagonal e[0:n−1]
// by Cuppen's divide and conquer, as LAPACK's ?stedc with compz = 'I':
//
//	T = S·diag(d)·Sᵀ,  S orthogonal,  d ascending on exit.
//
// z's contents on entry are ignored; on exit z (n×n, any layout whose
// elements are distinct) holds S, column j the eigenvector of d[j]. e is
// destroyed.
//
// T is split where an off-diagonal element is negligible (as [Steqr]
// does) and each block scaled to unit max norm. A block of order above
// [StedcLeaf] is torn in two by the rank-one change
// T = diag(T1, T2) + ρ·u·uᵀ (ρ = |e[m−1]| at the middle, subtracted from
// the two diagonal elements it couples), both halves are solved
// recursively, and the merged problem D + ρ·z·zᵀ in the basis of their
// eigenvectors is solved (LAPACK's dlaed1-dlaed4): eigenvalues whose z
// component is negligible, or that are too close to a neighbour after a
// plane rotation zeroes one of the pair's components, deflate; the other
// k roots of the secular equation 1 + ρ·Σ z_j²/(d_j − λ) = 0 are found
// relative to the nearer pole, by a two-pole rational model safeguarded by
// bisection (at most 300 iterations each); z is recomputed from the
// roots by Löwner's formula (Gu and Eisenstat), so that the eigenvectors
// (D − λ_i)⁻¹·ẑ are orthogonal to working precision; and the eigenvectors
// of T are the product of the halves' eigenvectors with them, one
// gemm.Gemm of order n×k×k. Blocks up to StedcLeaf run Steqr.
//
// It returns 0 on success; n when d or e holds NaN or ±Inf (at once); and
// otherwise a positive value when Steqr's or a root's iteration bound ran
// out. ws's scratch holds about 3·n² + 10·n float64s; it must not hold z.
func Stedc(ws *Workspace, r par.Runner, n int, d, e []float64, z gemm.Mat[float64]) int {
	if n <= 0 {
		return 0
	}
	return stedc(ws, r, n, d, e, z, scratch[float64](ws, stedcSize(n)))
}

// stedcSize returns the scratch length stedc needs for order n.
func stedcSize(n int) int { return 3*n*n + 12*n }

// stedc is Stedc with its scratch s of length stedcSize(n) given.
func stedc(ws *Workspace, r par.Runner, n int, d, e []float64, z gemm.Mat[float64], s []float64) int {
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
	setIdentityCols(n, 0, n, z)
	leaf := max(StedcLeaf, 2)
	for start := 0; start < n; {
		end := start
		for ; end < n-1; end++ {
			if t := math.Abs(e[end]); t <= math.Sqrt(math.Abs(d[end]))*math.Sqrt(math.Abs(d[end+1]))*tdEps {
				e[end] = 0
				break
			}
		}
		m := end - start + 1
		db, eb, zb := d[start:end+1], e[start:end], shift(z, start, start)
		var info int
		if m <= leaf {
			info = Steqr(m, db, eb, zb, s)
		} else {
			nrm := 0.0
			for _, x := range db {
				nrm = max(nrm, math.Abs(x))
			}
			for _, x := range eb {
				nrm = max(nrm, math.Abs(x))
			}
			for i := range db {
				db[i] /= nrm
			}
			for i := range eb {
				eb[i] /= nrm
			}
			info = dcSolve(ws, r, leaf, m, db, eb, zb, s)
			scaleTri(db, nil, nrm)
		}
		if info != 0 {
			return min(start+info, n)
		}
		start = end + 1
	}
	// The blocks' eigenvalues are sorted within each block: sort them all,
	// moving each column at most once.
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

// dcSolve solves the unreduced n×n tridiagonal (d, e) into the n×n block
// q, which holds the identity on entry.
func dcSolve(ws *Workspace, r par.Runner, leaf, n int, d, e []float64, q gemm.Mat[float64], s []float64) int {
	if n <= leaf {
		return Steqr(n, d, e, q, s)
	}
	m := n / 2
	beta := e[m-1]
	rho := math.Abs(beta)
	d[m-1] -= rho
	d[m] -= rho
	if info := dcSolve(ws, r, leaf, m, d[:m], e[:m-1], q, s); info != 0 {
		return info
	}
	if info := dcSolve(ws, r, leaf, n-m, d[m:], e[m:], shift(q, m, m), s); info != 0 {
		return m + info
	}
	return dcMerge(ws, r, n, m, d, q, rho, math.Copysign(1, beta), s)
}

// dcMerge computes the eigen decomposition of
//
//	diag(T1, T2) + ρ·u·uᵀ,  u = e(m−1) + sgn·e(m),
//
// given T1 = Q1·D1·Q1ᵀ and T2 = Q2·D2·Q2ᵀ in d (each part ascending) and
// the diagonal blocks of the n×n q (zero elsewhere), into d and q.
func dcMerge(ws *Workspace, r par.Runner, n, m int, d []float64, q gemm.Mat[float64], rho, sgn float64, s []float64) int {
	take := func(k int) []float64 {
		b := s[:k:k]
		s = s[k:]
		return b
	}
	zv, perm, kept, defl := take(n), take(n), take(n), take(n)
	lam, zh, dk, zk := take(n), take(n), take(n), take(n)
	// typ[j] records where column j of q is nonzero: rows 0..m−1 only
	// (colTop), m..n−1 only (colBottom), or both after a rotation.
	typ := take(n)
	for j := range typ {
		typ[j] = colTop
		if j >= m {
			typ[j] = colBottom
		}
	}
	// z = blockdiag(Q1, Q2)ᵀ·u: Q1's last row and sgn times Q2's first,
	// norm √2; normalized, with ρ doubled.
	rs := 1 / math.Sqrt2
	for j := 0; j < m; j++ {
		zv[j] = q.Data[q.Off+(m-1)*q.RS+j*q.CS] * rs
	}
	for j := m; j < n; j++ {
		zv[j] = sgn * q.Data[q.Off+m*q.RS+j*q.CS] * rs
	}
	rho *= 2
	// Merge the two ascending halves into perm.
	for i, j, t := 0, m, 0; t < n; t++ {
		if j >= n || i < m && d[i] <= d[j] {
			perm[t] = float64(i)
			i++
		} else {
			perm[t] = float64(j)
			j++
		}
	}
	dmax, zmax := 0.0, 0.0
	for j := 0; j < n; j++ {
		dmax = max(dmax, math.Abs(d[j]))
		zmax = max(zmax, math.Abs(zv[j]))
	}
	tol := 8 * tdEps * max(dmax, zmax)
	// Deflation, in ascending order of d.
	nk, nd, prev := 0, 0, -1
	for t := 0; t < n; t++ {
		idx := int(perm[t])
		if rho*math.Abs(zv[idx]) <= tol {
			defl[nd] = float64(idx)
			nd++
			continue
		}
		if prev < 0 {
			prev = idx
			continue
		}
		// Rotate the pair (prev, idx) so that prev's component of z
		// vanishes; deflate prev when the off-diagonal element c·s·(d_idx −
		// d_prev) that the rotation makes is negligible.
		zj, zi := zv[prev], zv[idx]
		tau := math.Hypot(zj, zi)
		c, sn := zi/tau, zj/tau
		if math.Abs((d[idx]-d[prev])*c*sn) <= tol {
			dj, di := d[prev], d[idx]
			d[prev] = c*c*dj + sn*sn*di
			d[idx] = sn*sn*dj + c*c*di
			zv[idx], zv[prev] = tau, 0
			Rot(n, q, prev, idx, c, -sn)
			if typ[prev] != typ[idx] {
				typ[prev], typ[idx] = colMixed, colMixed
			}
			defl[nd] = float64(prev)
			nd++
		} else {
			kept[nk] = float64(prev)
			nk++
		}
		prev = idx
	}
	if prev >= 0 {
		kept[nk] = float64(prev)
		nk++
	}
	k := nk
	// Gather the columns: kept first, deflated after, in g (n×n). The
	// kept ones are ordered top-only, mixed, bottom-only (pos[t] is the
	// place of pole t), so that the product with the eigenvectors of the
	// merged problem skips the zero blocks.
	g := gemm.Mat[float64]{Data: take(n * n), RS: 1, CS: n}
	pos := perm[:k] // perm is no longer needed
	var cnt [3]int
	for t := 0; t < k; t++ {
		cnt[int(typ[int(kept[t])])]++
	}
	n1, n2 := cnt[colTop], cnt[colMixed]
	next := [3]int{0, n1, n1 + n2}
	for t := 0; t < k; t++ {
		c := int(kept[t])
		ty := int(typ[c])
		pos[t] = float64(next[ty])
		copyCol(n, q, c, g, next[ty])
		next[ty]++
		dk[t] = d[c]
		zk[t] = zv[c]
	}
	for t := 0; t < nd; t++ {
		copyCol(n, q, int(defl[t]), g, k+t)
	}
	// The deflated values, ascending (insertion sort of the columns'
	// order, values in zh's tail as scratch).
	dv := zh[k:n]
	for t := 0; t < nd; t++ {
		dv[t] = d[int(defl[t])]
	}
	ord := kept // kept is no longer needed
	for t := 0; t < nd; t++ {
		ord[t] = float64(t)
		for u := t; u > 0 && dv[int(ord[u])] < dv[int(ord[u-1])]; u-- {
			ord[u], ord[u-1] = ord[u-1], ord[u]
		}
	}
	var p gemm.Mat[float64]
	if k > 0 {
		u := gemm.Mat[float64]{Data: take(k * k), RS: 1, CS: k}
		if k == 1 {
			lam[0] = dk[0] + rho*zk[0]*zk[0]
			u.Data[0] = 1
		} else {
			for i := 0; i < k; i++ {
				l, ok := secularRoot(k, dk, zk, rho, i, u.Data[i*k:(i+1)*k])
				if !ok {
					return 1
				}
				lam[i] = l
			}
			loewner(k, dk, zk, rho, u.Data, zh[:k])
			// Rows of u in the order of g's columns.
			tmp := take(k)
			for i := 0; i < k; i++ {
				col := u.Data[i*k : (i+1)*k]
				for t, x := range col {
					tmp[int(pos[t])] = x
				}
				copy(col, tmp)
			}
		}
		p = gemm.Mat[float64]{Data: take(n * k), RS: 1, CS: n}
		// Rows 0..m−1 from the top-only and mixed columns, rows m..n−1
		// from the mixed and bottom-only ones.
		gemm.Gemm(&ws.Gemm, r, m, k, n1+n2, 1, g, u, 0, p)
		gemm.Gemm(&ws.Gemm, r, n-m, k, k-n1, 1, shift(g, m, n1), shift(u, n1, 0), 0, shift(p, m, 0))
	}
	// Merge the new eigenvalues (ascending) with the deflated ones.
	for i, j, t := 0, 0, 0; t < n; t++ {
		if j >= nd || i < k && lam[i] <= dv[int(ord[j])] {
			d[t] = lam[i]
			copyCol(n, p, i, q, t)
			i++
		} else {
			c := int(ord[j])
			d[t] = dv[c]
			copyCol(n, g, k+c, q, t)
			j++
		}
	}
	return 0
}

// Column types of dcMerge.
const (
	colTop    = 0
	colMixed  = 1
	colBottom = 2
)

// copyCol copies column j of the m-row src to column k of dst.
func copyCol[T Scalar](m int, src gemm.Mat[T], j int, dst gemm.Mat[T], k int) {
	so, do := src.Off+j*src.CS, dst.Off+k*dst.CS
	if src.RS == 1 && dst.RS == 1 {
		copy(dst.Data[do:do+m], src.Data[so:so+m])
		return
	}
	for i := 0; i < m; i++ {
		dst.Data[do+i*dst.RS] = src.Data[so+i*src.RS]
	}
}

// secularRoot returns root i of 1/ρ + Σ z_j²/(d_j − λ) = 0 (k ≥ 2, d
// strictly ascending, z nonzero, ρ > 0): λ_i ∈ (d_i, d_i+1), or
// (d_k−1, d_k−1 + ρ·zᵀz) for the last. It also sets delta[j] = d_j − λ_i,
// computed as (d_j − d_o) − τ with τ = λ_i − d_o relative to the nearer
// pole d_o, so that the small differences keep their accuracy.
//
// Each step evaluates ψ (the sum over the poles left of the root) and φ
// (right of it) with their derivatives, models them as a + b/(δ_p − λ)
// and c + e/(δ_q − λ) with the two poles p, q nearest the root (Li's
// middle way; for the last root φ is the single exact term of pole
// k−1), and solves the model's quadratic for the step; a step leaving the
// bracket, which shrinks with the sign of f, is replaced by bisection. It
// stops when |f| is below its rounding error or the bracket is a few ulps
// wide; ok is false after stedcMaxIter steps.
func secularRoot(k int, d, z []float64, rho float64, i int, delta []float64) (lam float64, ok bool) {
	var org, p1, p2 int
	var lo, hi float64
	if i < k-1 {
		gap := d[i+1] - d[i]
		mid := gap / 2
		f := 1 / rho
		for j := 0; j < k; j++ {
			f += z[j] * z[j] / ((d[j] - d[i]) - mid)
		}
		if f >= 0 {
			org, lo, hi = i, 0, mid
		} else {
			org, lo, hi = i+1, -mid, 0
		}
		p1, p2 = i, i+1
	} else {
		zz := 0.0
		for j := 0; j < k; j++ {
			zz += z[j] * z[j]
		}
		org, lo, hi = k-1, 0, rho*zz
		p1, p2 = k-2, k-1
	}
	o := d[org]
	for j := 0; j < k; j++ {
		delta[j] = d[j] - o
	}
	tau := (lo + hi) / 2
	for it := 0; it < stedcMaxIter; it++ {
		var psi, dpsi, phi, dphi float64
		for j := 0; j <= p1; j++ {
			t := z[j] / (delta[j] - tau)
			psi += z[j] * t
			dpsi += t * t
		}
		for j := p2; j < k; j++ {
			t := z[j] / (delta[j] - tau)
			phi += z[j] * t
			dphi += t * t
		}
		f := 1/rho + psi + phi
		if math.Abs(f) <= 8*tdEps*(1/rho+math.Abs(psi)+math.Abs(phi)) {
			ok = true
			break
		}
		if f > 0 {
			hi = tau
		} else {
			lo = tau
		}
		if hi-lo <= 4*tdEps*max(math.Abs(lo), math.Abs(hi)) {
			ok = true
			break
		}
		// Model f(τ+η) ≈ C + b/(a1 − η) + e/(a2 − η), a1, a2 the distances
		// from τ to the two poles; the quadratic
		// C·η² − (C·(a1+a2) + b + e)·η + a1·a2·f = 0.
		a1, a2 := delta[p1]-tau, delta[p2]-tau
		b, e := a1*a1*dpsi, a2*a2*dphi
		cc := 1/rho + (psi - b/a1) + (phi - e/a2)
		bb := cc*(a1+a2) + b + e
		c0 := a1 * a2 * f
		eta := math.NaN()
		if cc == 0 {
			if bb != 0 {
				eta = c0 / bb
			}
		} else if disc := bb*bb - 4*cc*c0; disc >= 0 {
			sq := math.Sqrt(disc)
			var e1, e2 float64
			if bb >= 0 {
				e1, e2 = (bb+sq)/(2*cc), 2*c0/(bb+sq)
			} else {
				e1, e2 = 2*c0/(bb-sq), (bb-sq)/(2*cc)
			}
			in1, in2 := tau+e1 > lo && tau+e1 < hi, tau+e2 > lo && tau+e2 < hi
			switch {
			case in1 && in2:
				eta = e1
				if math.Abs(e2) < math.Abs(e1) {
					eta = e2
				}
			case in1:
				eta = e1
			case in2:
				eta = e2
			}
		}
		next := tau + eta
		if !(next > lo && next < hi) {
			next = lo + (hi-lo)/2
			if !(next > lo && next < hi) {
				// The bracket is one ulp wide.
				ok = true
				break
			}
		}
		if next == tau {
			ok = true
			break
		}
		tau = next
	}
	for j := 0; j < k; j++ {
		delta[j] -= tau
	}
	return o + tau, ok
}

// loewner replaces z by ẑ, the weights for which the computed roots are
// exact eigenvalues of D + ρ·ẑ·ẑᵀ (Gu and Eisenstat),
//
//	ẑ_j² = Π_i (λ_i − d_j) / (ρ·Π_{i≠j} (d_i − d_j)),
//
// with the sign of z_j, the factors paired into ratios near one; and then
// sets u's column i (u k×k, column i holding d_j − λ_i on entry) to the
// unit eigenvector (D − λ_i)⁻¹·ẑ / ‖·‖.
func loewner(k int, d, z []float64, rho float64, u []float64, zh []float64) {
	for j := 0; j < k; j++ {
		p := -u[j+(k-1)*k] / rho
		for i := 0; i < j; i++ {
			p *= -u[j+i*k] / (d[i] - d[j])
		}
		for i := j; i < k-1; i++ {
			p *= -u[j+i*k] / (d[i+1] - d[j])
		}
		zh[j] = math.Copysign(math.Sqrt(math.Abs(p)), z[j])
	}
	for i := 0; i < k; i++ {
		col := u[i*k : (i+1)*k]
		for j := range col {
			col[j] = zh[j] / col[j]
		}
		nrm := math.Sqrt(sumSqR(col, 0, k, 1))
		for j := range col {
			col[j] /= nrm
		}
	}
}
