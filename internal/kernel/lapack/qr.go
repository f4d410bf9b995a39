package lapack

import (
	"math"

	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
	"github.com/tenferro-go/tenferro/internal/par"
)

// Block sizes of the Householder QR and LQ drivers. Set them before calls
// run (they are read without locking).
var (
	// QRBlock is the number of reflectors per block of the blocked drivers
	// (Geqrf, Orgqr, Ormqr and their LQ twins); 0 selects it from the
	// matrix size by qrBlock.
	QRBlock = 0
	// QRLeaf is the panel width below which a Geqrf panel is factored by
	// Geqr2 rather than halved.
	QRLeaf = 8
)

// qrBlock returns the block size for k = min(m, n) reflectors of an m×n
// problem: QRBlock when set, else one that grows with the matrix, as
// faer's does. BenchmarkQRBlock on a shared 2-vCPU AMD EPYC (Zen 5) guest
// (float64, GFLOP per CPU-second, leaf 8): at n = 256, nb = 16 and 32 gave
// 20 against 18 for 48-64 and 10-12 for 96-128; at n = 512, 48-64 gave
// 25-26 against 24 for 32 and 19-22 for 96-128; at n = 1024, 64 gave 33.5
// against 31.6 (32), 32.4 (48) and 30-31 (96-128). Orgqr followed the same
// pattern within the noise. Leaf 8 beat 4 and 16 at every size. Larger
// blocks lose because the T product (k²·n per block) and the panel grow
// with nb while gemm's inner dimension does not need more.
func qrBlock(m, n int) int {
	if QRBlock > 0 {
		return QRBlock
	}
	switch k := min(m, n); {
	case k <= 64:
		return max(k, 1)
	case k < 384:
		return 32
	}
	return 64
}

// Geqrf computes the QR factorization of the m×n matrix A,
//
//	A = Q·R,  Q = H1·H2···Hk,  Hi = I − τi·vi·viᴴ,  k = min(m, n),
//
// overwriting A with R (k×n upper trapezoidal) on and above the diagonal
// and the reflectors below it: vi has vi[0:i] = 0, vi[i] = 1 (not stored)
// and vi[i+1:m] in A[i+1:m, i]. τ is written to tau[:k]. This is LAPACK's
// ?geqrf layout; R's diagonal is real (negative entries are allowed; see
// [PositiveDiag]). A zero column gives τ = 0.
//
// The driver is blocked: each panel of nb columns ([QRBlock]) is factored
// recursively (halved down to [QRLeaf] columns, which [Geqr2] factors, the
// right half updated by the left half's block reflector), and the trailing
// columns are updated by the panel's block reflector I − V·T·Vᴴ through
// gemm.Gemm, as [Larfb] does. ws's scratch holds copies of the panel's V
// and T and the products (about 2·nb·(m+n) elements, twice for complex
// types), and for an A that is not column-major (RS ≠ 1) a column-major
// copy of the panel, which is factored there and copied back; a matrix no
// wider than QRLeaf uses neither ws nor r.
func Geqrf[T Scalar](ws *Workspace, r par.Runner, m, n int, a gemm.Mat[T], tau []T) {
	k := min(m, n)
	if k <= 0 {
		return
	}
	if n <= max(QRLeaf, 1) {
		Geqr2(m, n, a, tau)
		return
	}
	nb := min(qrBlock(m, n), k)
	// A panel that is not column-major is factored in a column-major copy.
	rs := reflSize[T](m, nb, n)
	copied := a.RS != 1
	if copied {
		rs += m * nb
	}
	s := scratch[T](ws, rs)
	var rb reflBlock[T]
	rb.init(s, m, nb, n)
	pbuf := s[reflSize[T](m, nb, n):]
	for j := 0; j < k; j += nb {
		jb := min(nb, k-j)
		aj := shift(a, j, j)
		p := aj
		if copied {
			p = gemm.Mat[T]{Data: pbuf[:(m-j)*jb], RS: 1, CS: m - j}
			copyMat(m-j, jb, aj, p)
		}
		qrPanel(ws, r, &rb, m-j, jb, p, tau[j:j+jb])
		if copied {
			copyMat(m-j, jb, p, aj)
		}
		if j+jb < n {
			rb.load(ws, r, m-j, jb, p, tau[j:], false)
			rb.apply(ws, r, Left, ConjTrans, m-j, n-j-jb, shift(a, j, j+jb))
		}
	}
}

// copyMat copies the m×n matrix src to dst, looping along dst's columns
// or, for a row-oriented dst, along its rows.
func copyMat[T Scalar](m, n int, src, dst gemm.Mat[T]) {
	if dst.CS == 1 && dst.RS != 1 {
		src, dst = transpose(src), transpose(dst)
		m, n = n, m
	}
	for j := 0; j < n; j++ {
		so, do := src.Off+j*src.CS, dst.Off+j*dst.CS
		if src.RS == 1 && dst.RS == 1 {
			copy(dst.Data[do:do+m], src.Data[so:so+m])
			continue
		}
		for i := 0; i < m; i++ {
			dst.Data[do+i*dst.RS] = src.Data[so+i*src.RS]
		}
	}
}

// qrPanel factors the m×n panel a (m ≥ n) recursively: the left half, then
// the right half updated by the left half's reflectors, then the right
// half's bottom rows.
func qrPanel[T Scalar](ws *Workspace, r par.Runner, rb *reflBlock[T], m, n int, a gemm.Mat[T], tau []T) {
	if n <= max(QRLeaf, 1) {
		Geqr2(m, n, a, tau)
		return
	}
	n1 := split(n)
	qrPanel(ws, r, rb, m, n1, a, tau[:n1])
	rb.load(ws, r, m, n1, a, tau, false)
	rb.apply(ws, r, Left, ConjTrans, m, n-n1, shift(a, 0, n1))
	qrPanel(ws, r, rb, m-n1, n-n1, shift(a, n1, n1), tau[n1:])
}

// Geqr2 is the unblocked QR factorization behind [Geqrf], with the same
// contract (tau has min(m, n) elements): for each column i, [Larfg] forms
// Hi from A[i:m, i], and Hiᴴ is applied to A[i:m, i+1:n]. It allocates
// nothing and runs on the caller; it is meant for small matrices and
// narrow panels.
func Geqr2[T Scalar](m, n int, a gemm.Mat[T], tau []T) {
	k := min(m, n)
	for i := 0; i < k; i++ {
		d := a.Off + i*a.RS + i*a.CS
		beta, t := Larfg(m-i, a.Data[d], a.Data, d+a.RS, a.RS)
		tau[i] = t
		a.Data[d] = beta
		if i+1 < n && t != 0 {
			larfLeft(false, m-i, n-i-1, 1, a.Data, d+a.RS, a.RS, conj(t), shift(a, i, i+1))
		}
	}
}

// Orgqr overwrites the m×n matrix A (m ≥ n ≥ k) with the first n columns
// of Q = H1·H2···Hk, the product of the k reflectors that [Geqrf] of an
// m×k′ matrix (k′ ≥ k) left in A's first k columns and tau[:k]: the thin Q
// when n = k, the full m×m Q when n = m (then A needs m columns). Columns
// k..n−1 need not be initialized. It is LAPACK's ?orgqr/?ungqr: Q is
// accumulated backwards one block of nb reflectors at a time, each block's
// V and T copied to ws's scratch, its columns set to those of the
// identity, and I − V·T·Vᴴ applied to A[j:m, j:n] through gemm.Gemm.
func Orgqr[T Scalar](ws *Workspace, r par.Runner, m, n, k int, a gemm.Mat[T], tau []T) {
	if n <= 0 {
		return
	}
	if n <= orgSmall {
		Org2r(m, n, k, a, tau)
		return
	}
	setIdentityCols(m, k, n, a)
	if k <= 0 {
		return
	}
	nb := min(qrBlock(m, k), k)
	var rb reflBlock[T]
	rb.init(scratch[T](ws, reflSize[T](m, nb, n)), m, nb, n)
	for j := (k - 1) / nb * nb; j >= 0; j -= nb {
		jb := min(nb, k-j)
		rb.load(ws, r, m-j, jb, shift(a, j, j), tau[j:], false)
		setIdentityCols(m, j, j+jb, a)
		rb.apply(ws, r, Left, NoTrans, m-j, n-j, shift(a, j, j))
	}
}

// Ungqr is [Orgqr] (the complex name of the same routine).
func Ungqr[T Scalar](ws *Workspace, r par.Runner, m, n, k int, a gemm.Mat[T], tau []T) {
	Orgqr(ws, r, m, n, k, a, tau)
}

// setIdentityCols sets columns j0..j1−1 of the m-row a to those of the
// identity.
func setIdentityCols[T Scalar](m, j0, j1 int, a gemm.Mat[T]) {
	for j := j0; j < j1; j++ {
		o := a.Off + j*a.CS
		for i := 0; i < m; i++ {
			a.Data[o+i*a.RS] = 0
		}
		if j < m {
			a.Data[o+j*a.RS] = 1
		}
	}
}

// Ormqr overwrites the m×n matrix C with
//
//	op(Q)·C (side Left, Q m×m)  or  C·op(Q) (side Right, Q n×n),
//
// op NoTrans or ConjTrans (Trans is read as ConjTrans: Qᵀ for real types,
// Qᴴ for complex ones), where Q = H1···Hk is the product of the k
// reflectors that [Geqrf] left in the first k columns of a (m×k for Left,
// n×k for Right, k at most that many rows) and tau[:k]. Q is never formed:
// blocks of nb reflectors are applied in turn as [Larfb] does, their V and
// T copied to ws's scratch. C must not overlap a. It is LAPACK's
// ?ormqr/?unmqr.
func Ormqr[T Scalar](ws *Workspace, r par.Runner, side Side, op Op, m, n, k int, a gemm.Mat[T], tau []T, c gemm.Mat[T]) {
	ormqr(ws, r, side, op, m, n, k, a, tau, c, false)
}

// Unmqr is [Ormqr] (the complex name of the same routine).
func Unmqr[T Scalar](ws *Workspace, r par.Runner, side Side, op Op, m, n, k int, a gemm.Mat[T], tau []T, c gemm.Mat[T]) {
	ormqr(ws, r, side, op, m, n, k, a, tau, c, false)
}

// ormqr is Ormqr with the reflectors read conjugated when cv.
func ormqr[T Scalar](ws *Workspace, r par.Runner, side Side, op Op, m, n, k int, a gemm.Mat[T], tau []T, c gemm.Mat[T], cv bool) {
	if m <= 0 || n <= 0 || k <= 0 {
		return
	}
	if op == Trans {
		op = ConjTrans
	}
	nq, nc := m, n
	if side == Right {
		nq, nc = n, m
	}
	nb := min(qrBlock(nq, k), k)
	var rb reflBlock[T]
	rb.init(scratch[T](ws, reflSize[T](nq, nb, nc)), nq, nb, nc)
	// Q = Q1·Q2··· by blocks: Q·C and C·Qᴴ apply the last block first.
	forward := (side == Left) != (op == NoTrans)
	nblk := (k + nb - 1) / nb
	for b := 0; b < nblk; b++ {
		j := b * nb
		if !forward {
			j = (nblk - 1 - b) * nb
		}
		jb := min(nb, k-j)
		rb.load(ws, r, nq-j, jb, shift(a, j, j), tau[j:], cv)
		if side == Left {
			rb.apply(ws, r, Left, op, m-j, n, shift(c, j, 0))
		} else {
			rb.apply(ws, r, Right, op, m, n-j, shift(c, 0, j))
		}
	}
}

// PositiveDiag fixes the gauge of a QR factorization A = Q·R so that R's
// diagonal is real and non-negative, which makes the factorization unique
// for A of full column rank: with φj = R[j,j]/|R[j,j]| (1 when R[j,j] is
// 0), row j of R (k×n, columns j..n−1) is multiplied by conj(φj) and
// column j of the explicit Q (m×k) by φj, for j < k; Q·R is unchanged. For
// an LQ factorization A = L·Q pass the transposed views: PositiveDiag(n,
// m, k, Qᵀ, Lᵀ) scales column j of L by conj(φj) and row j of Q by φj,
// φj = L[j,j]/|L[j,j]|. q and r must not overlap.
func PositiveDiag[T Scalar](m, n, k int, q, r gemm.Mat[T]) {
	for j := 0; j < k; j++ {
		d := toC128(r.Data[r.Off+j*r.RS+j*r.CS])
		ad := math.Hypot(real(d), imag(d))
		if ad == 0 || d == complex(ad, 0) || ad != ad {
			continue
		}
		ph := fromC128[T](d / complex(ad, 0))
		cph := conj(ph)
		for c := j; c < n; c++ {
			r.Data[r.Off+j*r.RS+c*r.CS] *= cph
		}
		r.Data[r.Off+j*r.RS+j*r.CS] = fromReal[T](ad)
		scaleVec(q.Data, q.Off+j*q.CS, m, q.RS, ph)
	}
}
