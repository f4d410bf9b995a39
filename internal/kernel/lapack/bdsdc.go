package lapack

import (
	"math"

	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
	"github.com/tenferro-go/tenferro/internal/par"
)

// BdsdcLeaf is the order up to which the bidiagonal divide and conquer
// solves a subproblem by [Bdsqr] instead of splitting it. Set it before
// calls run (it is read without locking).
var BdsdcLeaf = 24

// secularMaxIter bounds the iterations per root of the secular equation:
// the rational steps converge in a handful; bisection, which takes over
// whenever a step leaves the bracket and every fifth step, shrinks the
// bracket to a relative width of ε within about 5·110 steps in the worst
// case, and far fewer in practice.
const secularMaxIter = 600

// bdsdcFailForTest makes bdsdc fail after clobbering d, so that tests
// reach Gesvd's fallback to Bdsqr.
var bdsdcFailForTest = false

// bdsdcWork returns the float64 work length bdsdc needs for order n.
func bdsdcWork(n int) int {
	m := n + 1
	leaf := max(BdsdcLeaf, 3) + 1
	return max(4*m*m+16*m, BdsqrWork(leaf))
}

// bdsdc computes the singular value decomposition of the n×n upper
// bidiagonal B with diagonal d and superdiagonal e[:n−1],
//
//	B = U·diag(σ)·Vᵀ,  σ1 ≥ σ2 ≥ … ≥ σn ≥ 0,
//
// by divide and conquer (Gu and Eisenstat; LAPACK's ?bdsdc): B is split at
// a middle row into an upper bidiagonal k×(k+1) block, the row, and the
// rest; the halves are decomposed recursively (down to [BdsdcLeaf], solved
// by [Bdsqr]), and merged by the singular values of a matrix that is
// diagonal but for its first row z, the roots of the secular equation
// 1 + Σ zj²/(dj² − σ²) = 0. Entries of z below a tolerance and nearly
// equal dj are deflated first; the vectors come from a recomputed z
// (Gu–Eisenstat), so that they are orthogonal to working precision, and
// are multiplied into the halves' vectors by gemm.Gemm. u and v (n×n,
// any strides) receive U and V; d receives σ and e is destroyed. work
// needs bdsdcWork(n) elements. It returns 0, or a nonzero info when a
// leaf's QR iteration or a secular root failed to converge (then the
// outputs are undefined and the caller falls back to Bdsqr).
func bdsdc(ws *Workspace, r par.Runner, n int, d, e []float64, u, v gemm.Mat[float64], work []float64) int {
	if n <= 0 {
		return 0
	}
	if bdsdcFailForTest {
		clear(d[:n])
		return n
	}
	if info := bdcRec(ws, r, n, 0, d, e, u, v, work); info != 0 {
		return info
	}
	for i := 0; i < n-1; i++ {
		p := i
		for j := i + 1; j < n; j++ {
			if d[j] > d[p] {
				p = j
			}
		}
		if p != i {
			d[i], d[p] = d[p], d[i]
			swapVec(n, u.Data, u.Off+i*u.CS, u.Off+p*u.CS, u.RS)
			swapVec(n, v.Data, v.Off+i*v.CS, v.Off+p*v.CS, v.RS)
		}
	}
	return 0
}

// bdcRec decomposes the n×(n+sqre) upper bidiagonal B (d[:n], e[:n−1+sqre])
// as B = U·[diag(d) 0]·Vᵀ, U n×n and V (n+sqre)×(n+sqre), the values in no
// particular order.
func bdcRec(ws *Workspace, r par.Runner, n, sqre int, d, e []float64, u, v gemm.Mat[float64], work []float64) int {
	if n <= max(BdsdcLeaf, 3) {
		return bdcLeaf(n, sqre, d, e, u, v, work)
	}
	k := n / 2
	alpha, beta := d[k], e[k]
	if info := bdcRec(ws, r, k, 1, d[:k], e[:k], u, v, work); info != 0 {
		return info
	}
	if info := bdcRec(ws, r, n-k-1, sqre, d[k+1:n], e[k+1:], shift(u, k+1, k+1), shift(v, k+1, k+1), work); info != 0 {
		return info
	}
	return bdcMerge(ws, r, n, sqre, k, alpha, beta, d, u, v, work)
}

// bdcLeaf solves a subproblem by Bdsqr. A k×(k+1) matrix is first rotated
// from the right to [L 0] with L lower bidiagonal, the rotations starting
// Vᵀ.
func bdcLeaf(n, sqre int, d, e []float64, u, v gemm.Mat[float64], work []float64) int {
	setIdentityCols(n, 0, n, u)
	setIdentityCols(n+sqre, 0, n+sqre, v)
	upper := true
	if sqre == 1 {
		for i := 0; i < n; i++ {
			c, s, rr := Lartg(d[i], e[i])
			d[i] = rr
			if i+1 < n {
				e[i] = s * d[i+1]
				d[i+1] *= c
			}
			Rot(n+1, v, i, i+1, c, s)
		}
		upper = false
	}
	return Bdsqr(upper, n, n+sqre, n, d, e, transpose(v), u, work)
}

// bdcMerge merges the decompositions of B's blocks B1 = B[0:k, 0:k+1] (in
// d[:k], u[0:k, 0:k], v[0:k+1, 0:k+1]) and B2 = B[k+1:n, k+1:n+sqre] (in
// d[k+1:n] and the trailing blocks of u and v), with row k of B holding α
// at column k and β at column k+1.
func bdcMerge(ws *Workspace, r par.Runner, n, sqre, k int, alpha, beta float64, d []float64, u, v gemm.Mat[float64], work []float64) int {
	const eps = 0x1p-53
	m := n + sqre
	at := func(a gemm.Mat[float64], i, j int) *float64 { return &a.Data[a.Off+i*a.RS+j*a.CS] }
	// Work: W_U (n×n), W_V (m×m), Û, V̂ (K×K ≤ n×n) and vectors.
	wu := gemm.Mat[float64]{Data: work[:n*n], RS: 1, CS: n}
	wv := gemm.Mat[float64]{Data: work[n*n : n*n+m*m], RS: 1, CS: m}
	rest := work[n*n+m*m:]
	uh := gemm.Mat[float64]{Data: rest[:n*n], RS: 1, CS: n}
	vh := gemm.Mat[float64]{Data: rest[n*n : 2*n*n], RS: 1, CS: n}
	vec := rest[2*n*n:]
	take := func(l int) []float64 {
		x := vec[:l:l]
		vec = vec[l:]
		return x
	}
	dO, zO, perm := take(n), take(n), take(n)
	ds, zs := take(n), take(n)
	sIdx, dIdx := take(n), take(n)
	delta, zeta, zhat := take(n), take(n), take(n)
	base, tau, sig := take(n), take(n), take(n)

	orgnrm := max(math.Abs(alpha), math.Abs(beta))
	for i := 0; i < n; i++ {
		if i != k {
			orgnrm = max(orgnrm, math.Abs(d[i]))
		}
	}
	// The columns of M (after moving row k to the top): 0 the combined null
	// columns of V1 and V2, 1..k the values of B1, k+1..n−1 those of B2.
	a0 := alpha * *at(v, k, k)
	b0 := 0.0
	if sqre == 1 {
		b0 = beta * *at(v, k+1, n)
	}
	r0 := math.Hypot(a0, b0)
	c0, s0 := 1.0, 0.0
	if r0 != 0 {
		c0, s0 = a0/r0, b0/r0
	}
	zero := orgnrm == 0
	if zero {
		orgnrm = 1
	}
	dO[0], zO[0] = 0, r0/orgnrm
	for j := 1; j <= k; j++ {
		dO[j] = d[j-1] / orgnrm
		zO[j] = alpha / orgnrm * *at(v, k, j-1)
	}
	for j := k + 1; j < n; j++ {
		dO[j] = d[j] / orgnrm
		zO[j] = beta / orgnrm * *at(v, k+1, j)
	}
	// Sort columns 1..n−1 by value, ascending.
	for j := range perm {
		perm[j] = float64(j)
	}
	sortByKey(perm[1:], dO)
	// W_U and W_V: the merged bases, columns in sorted order.
	clear(wu.Data)
	clear(wv.Data)
	for i := 0; i < n; i++ {
		j := int(perm[i])
		ds[i], zs[i] = dO[j], zO[j]
		cu := wu.Data[i*n : (i+1)*n]
		cv := wv.Data[i*m : (i+1)*m]
		switch {
		case j == 0:
			cu[k] = 1
			for p := 0; p <= k; p++ {
				cv[p] = c0 * *at(v, p, k)
			}
			if sqre == 1 {
				for p := k + 1; p < m; p++ {
					cv[p] = s0 * *at(v, p, n)
				}
			}
		case j <= k:
			for p := 0; p < k; p++ {
				cu[p] = *at(u, p, j-1)
			}
			for p := 0; p <= k; p++ {
				cv[p] = *at(v, p, j-1)
			}
		default:
			for p := k + 1; p < n; p++ {
				cu[p] = *at(u, p, j)
			}
			for p := k + 1; p < m; p++ {
				cv[p] = *at(v, p, j)
			}
		}
	}
	var nullV []float64
	if sqre == 1 {
		// The parent's null column, −s0·V1null + c0·V2null, kept in v's
		// scratch-free place: the last column of W_V.
		nullV = wv.Data[n*m : (n+1)*m]
		for p := 0; p <= k; p++ {
			nullV[p] = -s0 * *at(v, p, k)
		}
		for p := k + 1; p < m; p++ {
			nullV[p] = c0 * *at(v, p, n)
		}
	}
	if zero {
		// B = 0: the merged bases are its singular vectors.
		for i := 0; i < n; i++ {
			copyCol(n, wu, i, u, i)
			d[i] = 0
		}
		for i := 0; i < m; i++ {
			copyCol(m, wv, i, v, i)
		}
		return 0
	}
	// Deflation.
	tol := 8 * eps * max(math.Abs(alpha), math.Abs(beta), orgnrm) / orgnrm
	for _, x := range ds {
		tol = max(tol, 8*eps*math.Abs(x))
	}
	if math.Abs(zs[0]) <= tol {
		zs[0] = tol
	}
	ns, nd := 1, 0
	sIdx[0] = 0
	p := -1
	for i := 1; i < n; i++ {
		if math.Abs(zs[i]) <= tol {
			dIdx[nd] = float64(i)
			nd++
			continue
		}
		if p >= 1 && ds[i]-ds[p] <= tol {
			rr := math.Hypot(zs[p], zs[i])
			c, s := zs[i]/rr, -zs[p]/rr
			Rot(n, wu, p, i, c, s)
			Rot(m, wv, p, i, c, s)
			zs[p], zs[i] = 0, rr
			sIdx[ns-1] = float64(i)
			dIdx[nd] = float64(p)
			nd++
			p = i
			continue
		}
		sIdx[ns] = float64(i)
		ns++
		p = i
	}
	if ns > 1 && ds[int(sIdx[1])] < tol/2 {
		ds[int(sIdx[1])] = tol / 2
	}
	kk := ns
	zz := 0.0
	for i := 0; i < kk; i++ {
		j := int(sIdx[i])
		delta[i], zeta[i] = ds[j], zs[j]
		zz += zs[j] * zs[j]
	}
	delta[0] = 0
	// The secular roots σi² = δ_b² + τ.
	for i := 0; i < kk; i++ {
		b, t, ok := secularRootSq(i, delta[:kk], zeta[:kk], zz)
		if !ok {
			return n
		}
		base[i], tau[i] = float64(b), t
		db := delta[b]
		sig[i] = math.Sqrt(db*db + t)
	}
	// Gu–Eisenstat: the z for which the computed σ are exact.
	diff := func(i, j int) float64 { // σi² − δj²
		b := int(base[i])
		return (delta[b]-delta[j])*(delta[b]+delta[j]) + tau[i]
	}
	for j := 0; j < kk; j++ {
		x := diff(kk-1, j)
		for i := 0; i < j; i++ {
			x *= diff(i, j) / ((delta[i] - delta[j]) * (delta[i] + delta[j]))
		}
		for i := j; i < kk-1; i++ {
			x *= diff(i, j) / ((delta[i+1] - delta[j]) * (delta[i+1] + delta[j]))
		}
		zhat[j] = math.Copysign(math.Sqrt(math.Abs(x)), zeta[j])
	}
	// The singular vectors of the merged matrix, columns of Û and V̂.
	uh.CS, vh.CS = kk, kk
	uh.Data, vh.Data = uh.Data[:kk*kk], vh.Data[:kk*kk]
	for i := 0; i < kk; i++ {
		cu := uh.Data[i*kk : (i+1)*kk]
		cv := vh.Data[i*kk : (i+1)*kk]
		var nu, nv float64
		for j := 0; j < kk; j++ {
			w := -diff(i, j)
			cv[j] = zhat[j] / w
			if j == 0 {
				cu[j] = -1
			} else {
				cu[j] = delta[j] * zhat[j] / w
			}
			nu += cu[j] * cu[j]
			nv += cv[j] * cv[j]
		}
		nu, nv = 1/math.Sqrt(nu), 1/math.Sqrt(nv)
		for j := range cu {
			cu[j] *= nu
			cv[j] *= nv
		}
	}
	// Move the kept columns of W_U and W_V to the front, the deflated ones
	// after them, in place: sIdx and dIdx are increasing, so a stable
	// compaction works when the deflated columns are set aside first. The
	// deflated columns go straight to u and v, which are free now.
	for t := 0; t < nd; t++ {
		j := int(dIdx[t])
		c := kk + t
		copyCol(n, wu, j, u, c)
		copyCol(m, wv, j, v, c)
		d[c] = ds[j] * orgnrm
	}
	if sqre == 1 {
		copyCol(m, wv, n, v, n)
	}
	for i := 0; i < kk; i++ {
		if j := int(sIdx[i]); j != i {
			copyCol(n, wu, j, wu, i)
			copyCol(m, wv, j, wv, i)
		}
	}
	gemm.Gemm(&ws.Gemm, r, n, kk, kk, 1, wu, uh, 0, u)
	gemm.Gemm(&ws.Gemm, r, m, kk, kk, 1, wv, vh, 0, v)
	for i := 0; i < kk; i++ {
		d[i] = sig[i] * orgnrm
	}
	return 0
}

// sortByKey sorts the indices idx (stored as float64) by key[idx],
// ascending (Shell's method with Ciura's gaps; no allocation).
func sortByKey(idx, key []float64) {
	gaps := [...]int{701, 301, 132, 57, 23, 10, 4, 1}
	n := len(idx)
	for _, g := range gaps {
		for i := g; i < n; i++ {
			x := idx[i]
			kx := key[int(x)]
			j := i
			for ; j >= g && key[int(idx[j-g])] > kx; j -= g {
				idx[j] = idx[j-g]
			}
			idx[j] = x
		}
	}
}

// secularRootSq returns root i (0-based, ascending) of the secular equation
//
//	f(σ²) = 1 + Σj ζj²/(δj² − σ²) = 0,  0 = δ0 < δ1 < … < δK−1,
//
// as σi² = δb² + τ with b the nearer of the poles bounding it (δi and
// δi+1; δK−1 for the last root, which lies below δK−1² + Σζ²), so that the
// differences σi² − δj² = (δb − δj)(δb + δj) + τ are accurate. It iterates
// on τ with a rational model of f with the two bounding poles (the
// "fixed weight" method), safeguarded by bisection of a bracket on which
// f changes sign, until the step is a few ε of τ or f is zero to within
// its rounding error; ok is false when that took more than
// secularMaxIter steps.
func secularRootSq(i int, delta, zeta []float64, zz float64) (b int, tau float64, ok bool) {
	const eps = 0x1p-53
	kk := len(delta)
	last := i == kk-1
	eval := func(b int, tau float64) (f, dpsi, dphi, sabs float64) {
		db := delta[b]
		f = 1
		for j, dj := range delta {
			den := (dj-db)*(dj+db) - tau
			t := zeta[j] / den
			f += zeta[j] * t
			sabs += math.Abs(zeta[j] * t)
			if j <= i {
				dpsi += t * t
			} else {
				dphi += t * t
			}
		}
		return f, dpsi, dphi, sabs
	}
	var lo, hi float64
	if last {
		b, lo, hi = i, 0, zz
	} else {
		gap := (delta[i+1] - delta[i]) * (delta[i+1] + delta[i])
		if f, _, _, _ := eval(i, gap/2); f >= 0 {
			b, lo, hi = i, 0, gap/2
		} else {
			b, lo, hi = i+1, -gap/2, 0
		}
	}
	tau = (lo + hi) / 2
	for it := 0; it < secularMaxIter; it++ {
		f, dpsi, dphi, sabs := eval(b, tau)
		if math.Abs(f) <= 8*eps*(1+sabs) {
			// f is zero to within its rounding error.
			return b, tau, true
		}
		if f < 0 {
			lo = tau
		} else {
			hi = tau
		}
		db := delta[b]
		a := (delta[i]-db)*(delta[i]+db) - tau // δi² − σ² < 0
		sl := dpsi * a * a
		var eta float64
		if last {
			c := f - sl/a
			eta = math.NaN()
			if c > 0 {
				eta = a + sl/c
			}
		} else {
			bb := (delta[i+1]-db)*(delta[i+1]+db) - tau // δi+1² − σ² > 0
			sr := dphi * bb * bb
			c := f - sl/a - sr/bb
			qa := c
			qb := -(c*(a+bb) + sl + sr)
			qc := c*a*bb + sl*bb + sr*a
			eta = math.NaN()
			if qa == 0 {
				if qb != 0 {
					eta = -qc / qb
				}
			} else if disc := qb*qb - 4*qa*qc; disc >= 0 {
				q := -0.5 * (qb + math.Copysign(math.Sqrt(disc), qb))
				e1, e2 := q/qa, math.NaN()
				if q != 0 {
					e2 = qc / q
				}
				if e1 > a && e1 < bb {
					eta = e1
				} else {
					eta = e2
				}
			}
		}
		next := tau + eta
		// Every fifth step bisects, so that the bracket shrinks even when
		// the rational steps stall on one side of the root.
		if !(next > lo && next < hi) || it%5 == 4 {
			next = (lo + hi) / 2
			if lo == 0 && hi > 0 {
				next = hi / 8 // toward a root near the pole at 0
			} else if hi == 0 && lo < 0 {
				next = lo / 8
			}
		}
		if math.Abs(next-tau) <= 2*eps*math.Abs(next) || hi-lo <= 2*eps*max(math.Abs(lo), math.Abs(hi)) {
			return b, next, true
		}
		tau = next
	}
	return b, tau, false
}
