package lapack

import (
	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
	"github.com/tenferro-go/tenferro/internal/par"
)

// The LQ routines run the QR ones on the conjugate-transposed matrix:
// A = L·Q  ⇔  Aᴴ = Qᴴ·Lᴴ, a QR factorization of the n×m Aᴴ. The transposed
// view of the storage gives Aᵀ; for complex types the storage is
// conjugated in place around the call (O(mn), against the O(mn·min(m, n))
// factorization), and Ormlq reads the reflectors conjugated instead, so
// that it leaves a unchanged.

// Gelqf computes the LQ factorization of the m×n matrix A,
//
//	A = L·Q,  Q = Hkᴴ···H2ᴴ·H1ᴴ,  Hi = I − τi·vi·viᴴ,  k = min(m, n),
//
// overwriting A with L (m×k lower trapezoidal, real diagonal) on and below
// the diagonal and the reflectors to its right: vi[0:i] = 0, vi[i] = 1
// (not stored) and conj(vi[i+1:n]) in A[i, i+1:n]. τ is written to
// tau[:k]. This is LAPACK's ?gelqf layout. It is [Geqrf] of Aᴴ, with the
// same use of ws and r.
func Gelqf[T Scalar](ws *Workspace, r par.Runner, m, n int, a gemm.Mat[T], tau []T) {
	if m <= 0 || n <= 0 {
		return
	}
	conjMat(m, n, a)
	Geqrf(ws, r, n, m, transpose(a), tau)
	conjMat(m, n, a)
}

// Orglq overwrites the m×n matrix A (n ≥ m ≥ k) with the first m rows of
// Q = Hkᴴ···H1ᴴ from the k reflectors that [Gelqf] left in A's first k
// rows and tau[:k]: the thin Q when m = k, the full n×n Q when m = n. Rows
// k..m−1 need not be initialized. It is [Orgqr] on Aᴴ (LAPACK's
// ?orglq/?unglq).
func Orglq[T Scalar](ws *Workspace, r par.Runner, m, n, k int, a gemm.Mat[T], tau []T) {
	if m <= 0 {
		return
	}
	conjMat(m, n, a)
	Orgqr(ws, r, n, m, k, transpose(a), tau)
	conjMat(m, n, a)
}

// Unglq is [Orglq] (the complex name of the same routine).
func Unglq[T Scalar](ws *Workspace, r par.Runner, m, n, k int, a gemm.Mat[T], tau []T) {
	Orglq(ws, r, m, n, k, a, tau)
}

// Ormlq overwrites the m×n matrix C with
//
//	op(Q)·C (side Left, Q m×m)  or  C·op(Q) (side Right, Q n×n),
//
// op NoTrans or ConjTrans (Trans is read as ConjTrans), where
// Q = Hkᴴ···H1ᴴ is given by the k reflectors that [Gelqf] left in the
// first k rows of a (k×m for Left, k×n for Right) and tau[:k]. Since Q is
// Q′ᴴ for the QR reflectors Q′ of Aᴴ, this is [Ormqr] with Q′ and the
// opposite op, the reflectors read conjugated from the transposed view; a
// is not modified. C must not overlap a. It is LAPACK's ?ormlq/?unmlq.
func Ormlq[T Scalar](ws *Workspace, r par.Runner, side Side, op Op, m, n, k int, a gemm.Mat[T], tau []T, c gemm.Mat[T]) {
	qop := ConjTrans
	if op != NoTrans {
		qop = NoTrans
	}
	ormqr(ws, r, side, qop, m, n, k, transpose(a), tau, c, true)
}

// Unmlq is [Ormlq] (the complex name of the same routine).
func Unmlq[T Scalar](ws *Workspace, r par.Runner, side Side, op Op, m, n, k int, a gemm.Mat[T], tau []T, c gemm.Mat[T]) {
	Ormlq(ws, r, side, op, m, n, k, a, tau, c)
}
