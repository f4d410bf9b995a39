package lapack

import (
	"math"
	"unsafe"

	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
	"github.com/tenferro-go/tenferro/internal/par"
)

// SVDJob selects what [Gesvd] computes.
type SVDJob int8

const (
	SVDValues SVDJob = iota // singular values only
	SVDThin                 // U m×k, Vᴴ k×n, k = min(m, n)
	SVDFull                 // U m×m, Vᴴ n×n
)

// Gesvd computes the singular value decomposition of the m×n matrix A,
//
//	A = U·diag(s)·Vᴴ,  s[0] ≥ s[1] ≥ … ≥ s[k−1] ≥ 0,  k = min(m, n),
//
// with U and V having orthonormal columns. s[:k] receives the singular
// values (float64 for every T). For SVDThin u is m×k and vt is k×n; for
// SVDFull u is m×m and vt is n×n, the extra columns of U and rows of Vᴴ
// completing orthonormal bases; for SVDValues u and vt are not referenced.
// A is destroyed. m = 0 or n = 0 is valid (for SVDFull u and vt are then
// set to the identity).
//
// The algorithm follows LAPACK's ?gesvd and ?gesdd: A is scaled by a
// power of two when its largest entry is outside [√safmin/ε, ε/√safmin]
// of T's precision, reduced to real bidiagonal form B = Qᴴ·A·P by
// [Gebrd], and Q and Pᴴ are formed by [Ungbr] into u and vt. B's values
// alone come from [Bdsqr] (O(n²)); with vectors, a B of order at least
// [GesvdDCMin] is decomposed by divide and conquer (bdsdc) and its
// vectors multiplied into u and vt by gemm.Gemm (as real products for
// complex128), and a smaller one by Bdsqr, which rotates u and vt (and is
// the fallback should the divide and conquer fail). A tall matrix
// (6·m ≥ 11·n) is first factored A = Q·R by [Geqrf]; R's SVD is computed
// in the top n×n block of u and U = Q·[U_R 0; 0 I] is formed by [Ormqr].
// A wide matrix (m < n) is decomposed as Aᴴ = V·S·Uᴴ, with u and vt
// swapped likewise. An A (or Aᴴ) that is not column-major is decomposed
// through a column-major copy in ws's scratch.
// u and vt must not overlap each other or a.
//
// ws's scratch holds the reflector scalars, B's vectors and copies of Q
// and Pᴴ for the divide and conquer (about 7·n² elements for n ≥
// GesvdDCMin), and what the blocked routines need; a warm call allocates
// nothing. r is passed to gemm.Gemm. Gesvd returns 0 on success, the
// [Bdsqr] info when the QR iteration failed to converge (s then holds
// unsorted approximations), and k when A holds NaN or ±Inf (s is then set
// to NaN; u and vt are undefined).
func Gesvd[T Scalar](ws *Workspace, r par.Runner, job SVDJob, m, n int, a gemm.Mat[T], s []float64, u, vt gemm.Mat[T]) int {
	k := min(m, n)
	if k <= 0 {
		if job == SVDFull {
			setIdentityCols(m, 0, m, u)
			setIdentityCols(n, 0, n, vt)
		}
		return 0
	}
	if m < n {
		conjMat(m, n, a)
		info := Gesvd(ws, r, job, n, m, transpose(a), s, transpose(vt), transpose(u))
		if job != SVDValues {
			uc, vr := k, k
			if job == SVDFull {
				uc, vr = m, n
			}
			conjMat(m, uc, u)
			conjMat(vr, n, vt)
		}
		return info
	}
	anrm := maxAbs(m, n, a)
	if math.IsNaN(anrm) || math.IsInf(anrm, 0) {
		for i := range s[:k] {
			s[i] = math.NaN()
		}
		return k
	}
	if a.RS != 1 {
		// The reduction's kernels run along columns: decompose a
		// column-major copy, placed past the scratch the rest takes.
		need := gesvdScratch[T](job, m, n)
		buf := scratch[T](ws, need+m*n)
		c := gemm.Mat[T]{Data: buf[need : need+m*n], RS: 1, CS: m}
		copyMat(m, n, a, c)
		a = c
	}
	// Scale into the safe range by a power of two (exact).
	small, big := svdSafeRange[T]()
	scl := 0
	switch {
	case anrm > 0 && anrm < small:
		_, scl = math.Frexp(small / anrm)
	case anrm > big:
		_, scl = math.Frexp(anrm / big)
		scl = -scl
	}
	if scl != 0 {
		scaleMat(m, n, fromReal[T](math.Ldexp(1, scl)), a)
	}
	info := gesvdTall(ws, r, job, m, n, a, s, u, vt)
	if scl != 0 {
		for i := range s[:k] {
			s[i] = math.Ldexp(s[i], -scl)
		}
	}
	return info
}

// svdSafeRange returns LAPACK's bounds √safmin/ε and its inverse for T's
// precision, outside which Gesvd scales A.
func svdSafeRange[T Scalar]() (small, big float64) {
	var z T
	switch any(z).(type) {
	case float32, complex64:
		small = math.Sqrt(0x1p-126) / 0x1p-23
	default:
		small = math.Sqrt(0x1p-1022) / 0x1p-52
	}
	return small, 1 / small
}

// maxAbs returns the largest |A[i, j]| of the m×n a, NaN when a holds
// one.
func maxAbs[T Scalar](m, n int, a gemm.Mat[T]) float64 {
	mx := 0.0
	for j := 0; j < n; j++ {
		for i := 0; i < m; i++ {
			v := abs(a.Data[a.Off+i*a.RS+j*a.CS])
			if v > mx || v != v {
				if v != v {
					return v
				}
				mx = v
			}
		}
	}
	return mx
}

// GesvdDCMin is the order n of the bidiagonal matrix from which Gesvd
// computes singular vectors by divide and conquer (bdsdc) rather than by
// Bdsqr's QR iteration, whose rotations cost about 10·n³ flops outside
// gemm. Set it before calls run (it is read without locking). On a shared
// 2-vCPU AMD EPYC (Zen 5) guest, square SVDThin with BdsdcLeaf 24 (flops
// per CPU-second) favoured divide and conquer from n = 32 (float64 4.7
// against 3.9; complex128 13 against 9.3) and by 1.5-1.8x at n = 96-128.
var GesvdDCMin = 32

// svdDC holds the buffers of Gesvd's divide and conquer path: B's
// vectors, their copies in T, a copy of Q or Pᴴ, the bdsdc work and a
// copy of d and e for the fallback to Bdsqr.
type svdDC[T Scalar] struct {
	ub, vb     gemm.Mat[float64]
	ubT, vbT   gemm.Mat[T]
	tmp        []T
	work, save []float64
}

// init carves the buffers from t (max(m, 2n)·n, plus 2·n² for non-float64
// T) and f
// (2·n² + bdsdcWork(n) + 2·n).
func (c *svdDC[T]) init(m, n int, t []T, f []float64) {
	mt := max(m, 2*n) * n
	c.tmp, t = t[:mt], t[mt:]
	c.ub = gemm.Mat[float64]{Data: f[:n*n], RS: 1, CS: n}
	c.vb = gemm.Mat[float64]{Data: f[n*n : 2*n*n], RS: 1, CS: n}
	c.work = f[2*n*n : 2*n*n+bdsdcWork(n)]
	c.save = f[2*n*n+bdsdcWork(n):][:2*n]
	if isReal64[T]() {
		c.ubT = any(c.ub).(gemm.Mat[T])
		c.vbT = any(c.vb).(gemm.Mat[T])
		return
	}
	c.ubT = gemm.Mat[T]{Data: t[:n*n], RS: 1, CS: n}
	c.vbT = gemm.Mat[T]{Data: t[n*n : 2*n*n], RS: 1, CS: n}
}

// solve computes B = U_B·S·V_Bᵀ by bdsdc and sets q (rows×n) to q·U_B and
// vt (n×n) to V_Bᵀ·vt by gemm.Gemm; when bdsdc fails, it restores d and e
// and runs Bdsqr instead.
func (c *svdDC[T]) solve(ws *Workspace, r par.Runner, rows, n int, d, e []float64, vt, q gemm.Mat[T], work []float64) int {
	copy(c.save[:n], d[:n])
	copy(c.save[n:2*n-1], e[:n-1])
	if bdsdc(ws, r, n, d, e, c.ub, c.vb, c.work) != 0 {
		copy(d[:n], c.save[:n])
		copy(e[:n-1], c.save[n:2*n-1])
		return Bdsqr(true, n, n, rows, d, e, vt, q, work)
	}
	if q.RS == 1 && c.solveC128(ws, r, rows, n, vt, q) {
		return 0
	}
	if !isReal64[T]() {
		for k, x := range c.ub.Data {
			c.ubT.Data[k] = fromReal[T](x)
		}
		for k, x := range c.vb.Data {
			c.vbT.Data[k] = fromReal[T](x)
		}
	}
	tm := gemm.Mat[T]{Data: c.tmp[:rows*n], RS: 1, CS: rows}
	copyMat(rows, n, q, tm)
	gemm.Gemm(&ws.Gemm, r, rows, n, n, 1, tm, c.ubT, 0, q)
	tm = gemm.Mat[T]{Data: c.tmp[:n*n], RS: 1, CS: n}
	copyMat(n, n, vt, tm)
	gemm.Gemm(&ws.Gemm, r, n, n, n, 1, transpose(c.vbT), tm, 0, vt)
	return 0
}

// solveC128 is the end of solve for complex128 with a column-major q:
// the products with the real U_B and V_B run as real products on the
// interleaved real and imaginary parts (half the flops of complex ones),
// q·U_B on q's columns and V_Bᵀ·vt as (vtᵀ·V_B)ᵀ on vtᵀ's. It reports
// false, doing nothing, for other types.
func (c *svdDC[T]) solveC128(ws *Workspace, r par.Runner, rows, n int, vt, q gemm.Mat[T]) bool {
	qd, ok := any(q.Data).([]complex128)
	if !ok {
		return false
	}
	tmp := any(c.tmp).([]complex128)
	tm := tmp[:rows*n]
	copyMat(rows, n, any(q).(gemm.Mat[complex128]), gemm.Mat[complex128]{Data: tm, RS: 1, CS: rows})
	qr := gemm.Mat[float64]{Data: reals(qd), Off: 2 * q.Off, RS: 1, CS: 2 * q.CS}
	gemm.Gemm(&ws.Gemm, r, 2*rows, n, n, 1, gemm.Mat[float64]{Data: reals(tm), RS: 1, CS: 2 * rows}, c.ub, 0, qr)
	// vtᵀ (n×n, column-major) in tmp[:n²], the product in tmp[n²:2n²].
	vtc := any(vt).(gemm.Mat[complex128])
	x, y := tmp[:n*n], tmp[n*n:2*n*n]
	copyMat(n, n, transpose(vtc), gemm.Mat[complex128]{Data: x, RS: 1, CS: n})
	gemm.Gemm(&ws.Gemm, r, 2*n, n, n, 1, gemm.Mat[float64]{Data: reals(x), RS: 1, CS: 2 * n}, c.vb, 0, gemm.Mat[float64]{Data: reals(y), RS: 1, CS: 2 * n})
	copyMat(n, n, gemm.Mat[complex128]{Data: y, RS: 1, CS: n}, transpose(vtc))
	return true
}

// reals returns the real and imaginary parts of z interleaved, sharing
// its storage.
func reals(z []complex128) []float64 {
	if len(z) == 0 {
		return nil
	}
	return unsafe.Slice((*float64)(unsafe.Pointer(&z[0])), 2*len(z))
}

// svdQRScratch bounds the scratch that Geqrf, Orgqr, Ormqr and their LQ
// twins take for problems of order at most p: reflSize for the largest
// block, plus a column-major copy of a panel.
func svdQRScratch[T Scalar](p int) int {
	nb := min(max(QRBlock, 64), p)
	return reflSize[T](p, nb, p) + p*nb
}

// gesvdLens returns the scratch that gesvdTall takes for an m×n A (m ≥
// n): the routines it calls take theirs from the start of the T scratch
// (up to sub); its own T arrays (tl) lie beyond, and its float64 arrays
// (fl) beyond those when T is float64 and in the float64 scratch
// otherwise. dc reports whether the vectors come from divide and conquer,
// which needs B's vectors (float64), their copies in T, and a copy of Q
// or Pᴴ to multiply them into.
func gesvdLens[T Scalar](job SVDJob, m, n int) (sub, tl, fl int, dc bool) {
	sub = max(svdQRScratch[T](m), gebrdScratch(m, n))
	dc = job != SVDValues && n >= max(GesvdDCMin, 1)
	tl, fl = 3*n, n+BdsqrWork(n)
	if dc {
		tl += max(m, 2*n) * n
		if !isReal64[T]() {
			tl += 2 * n * n
		}
		fl += 2*n*n + bdsdcWork(n) + 2*n
	}
	return sub, tl, fl, dc
}

// gesvdScratch returns the length of the T scratch that Gesvd of an m×n
// (m ≥ n) matrix takes.
func gesvdScratch[T Scalar](job SVDJob, m, n int) int {
	sub, tl, fl, _ := gesvdLens[T](job, m, n)
	if isReal64[T]() {
		return sub + tl + fl
	}
	return sub + tl
}

// gesvdTall is Gesvd for m ≥ n ≥ 1 with A in the safe range.
func gesvdTall[T Scalar](ws *Workspace, r par.Runner, job SVDJob, m, n int, a gemm.Mat[T], s []float64, u, vt gemm.Mat[T]) int {
	sub, tl, fl, dc := gesvdLens[T](job, m, n)
	nw := BdsqrWork(n)
	var buf []T
	var rs []float64
	if isReal64[T]() {
		buf = scratch[T](ws, sub+tl+fl)
		rs = any(buf[sub+tl:]).([]float64)
	} else {
		buf = scratch[T](ws, sub+tl)
		rs = scratch[float64](ws, fl)
	}
	tau, tauq, taup := buf[sub:sub+n], buf[sub+n:sub+2*n], buf[sub+2*n:sub+3*n]
	e, work := rs[:n], rs[n:n+nw]
	var dcs svdDC[T]
	if dc {
		dcs.init(m, n, buf[sub+3*n:sub+tl], rs[n+nw:])
	}
	bidiagSVD := func(rows int, q gemm.Mat[T]) int {
		if dc {
			return dcs.solve(ws, r, rows, n, s, e, vt, q, work)
		}
		return Bdsqr(true, n, n, rows, s, e, vt, q, work)
	}
	vecs := job != SVDValues
	ucols := n
	if job == SVDFull {
		ucols = m
	}
	if 6*m < 11*n {
		Gebrd(ws, r, m, n, a, s, e, tauq, taup)
		if !vecs {
			return Bdsqr[T](true, n, 0, 0, s, e, gemm.Mat[T]{}, gemm.Mat[T]{}, nil)
		}
		copyMat(m, n, a, u)
		Ungbr(ws, r, BrQ, m, ucols, n, u, tauq)
		copyUpper(n, a, vt)
		Ungbr(ws, r, BrPH, n, n, n, vt, taup)
		return bidiagSVD(m, u)
	}
	Geqrf(ws, r, m, n, a, tau)
	if !vecs {
		zeroLower(n, a)
		Gebrd(ws, r, n, n, a, s, e, tauq, taup)
		return Bdsqr[T](true, n, 0, 0, s, e, gemm.Mat[T]{}, gemm.Mat[T]{}, nil)
	}
	// R's SVD in the top n×n block of u.
	ur := u
	copyUpper(n, a, ur)
	zeroLower(n, ur)
	Gebrd(ws, r, n, n, ur, s, e, tauq, taup)
	copyUpper(n, ur, vt)
	Ungbr(ws, r, BrPH, n, n, n, vt, taup)
	Ungbr(ws, r, BrQ, n, n, n, ur, tauq)
	info := bidiagSVD(n, ur)
	// U = Q·[U_R 0; 0 I].
	for j := 0; j < ucols; j++ {
		o := u.Off + j*u.CS
		i0 := n
		if j >= n {
			i0 = 0
		}
		for i := i0; i < m; i++ {
			u.Data[o+i*u.RS] = 0
		}
		if j >= n {
			u.Data[o+j*u.RS] = 1
		}
	}
	Ormqr(ws, r, Left, NoTrans, m, ucols, n, a, tau, u)
	return info
}

// copyUpper copies the upper triangle (diagonal included) of the leading
// n×n block of src to dst; dst's strict lower triangle is not written.
func copyUpper[T Scalar](n int, src, dst gemm.Mat[T]) {
	for j := 0; j < n; j++ {
		for i := 0; i <= j; i++ {
			dst.Data[dst.Off+i*dst.RS+j*dst.CS] = src.Data[src.Off+i*src.RS+j*src.CS]
		}
	}
}

// zeroLower sets the strict lower triangle of the leading n×n block of a
// to zero.
func zeroLower[T Scalar](n int, a gemm.Mat[T]) {
	for j := 0; j < n; j++ {
		for i := j + 1; i < n; i++ {
			a.Data[a.Off+i*a.RS+j*a.CS] = 0
		}
	}
}

// isReal64 reports whether T is float64.
func isReal64[T Scalar]() bool {
	var z T
	_, ok := any(z).(float64)
	return ok
}
