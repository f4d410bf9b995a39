package backend

import "strconv"

// Linalg runs the dense factorizations and solves of package linalg on
// batches of matrices. Every matrix operand is a view (rows, cols,
// batch...): the first two axes are the matrix, the axes after them the
// batch, as for Matmul. Views may have any strides; destinations have
// distinct elements and overlap no input. Batch extents of an input equal
// the destination's or are 1 (broadcast); inputs and destinations have the
// same rank. Batch items are numbered in column-major order over the batch
// axes (item 0, 1, ... with the first batch axis fastest).
//
// A numerical failure of one batch item (a zero pivot, a minor that is not
// positive definite, a non-finite entry) is returned as a *[LinalgFailure]
// and leaves every destination untouched: engines factor into their own
// scratch and write destinations only once every item has succeeded.
type Linalg[T Elem] interface {
	// Cholesky sets dst (n, n, batch...) to the Cholesky factor of the
	// Hermitian positive definite a: L with a = L·Lᴴ (upper false, reading
	// a's lower triangle) or U with a = Uᴴ·U (upper true, reading a's
	// upper triangle). The other triangle of dst is set to zero.
	// Failures: NonFinite in the read triangle, NotPositiveDefinite.
	Cholesky(dst, a *View[T], upper bool) error
	// LU sets lu (m, n, batch...) to the packed LU factorization with
	// partial pivoting of a, P·a = L·U (L unit lower, below the diagonal;
	// U on and above it), and piv (min(m, n), batch...) to its 0-based
	// row interchanges: row i was swapped with row piv[i] ≥ i, for i = 0,
	// 1, ... in order. A singular a is not a failure (U has a zero
	// diagonal). Failures: NonFinite.
	LU(lu *View[T], piv *View[int64], a *View[T]) error
	// LUUnpack sets p (m, m, batch...), l (m, r, batch...) and u (r, n,
	// batch...), r = min(m, n), from the packed factors lu (m, n, batch...)
	// and pivots piv (r, batch...) of LU: a = p·l·u with p a permutation
	// matrix, l unit lower and u upper triangular (trapezoidal). A pivot
	// outside [i, m) is an ErrArgument error, reported before anything is
	// written.
	LUUnpack(p, l, u *View[T], lu *View[T], piv *View[int64]) error
	// Solve sets x (n, k, batch...) to the solution of a·x = b, a (n, n,
	// batch...), b (n, k, batch...). Failures: NonFinite in a, Singular.
	Solve(x, a, b *View[T]) error
	// SolveTriangular sets x (m, k, batch...) to the solution of
	// op·x = b (left) or x·op = b (right) for the triangular a whose
	// upper or lower triangle is read (unit: its diagonal is taken as
	// ones and not read); a is (m, m, ...) for left, (k, k, ...) for right.
	// Failures: NonFinite in the read triangle, Singular (a zero diagonal
	// entry).
	SolveTriangular(x, a, b *View[T], upper, left, unit bool) error
	// CholeskySolve sets x (n, k, batch...) to the solution of a·x = b
	// where c (n, n, batch...) is a's Cholesky factor (L with a = L·Lᴴ,
	// or U with a = Uᴴ·U when upper); only c's triangle is read.
	// Failures: NonFinite in that triangle, Singular (a zero diagonal).
	CholeskySolve(x, c, b *View[T], upper bool) error
	// Inv sets dst (n, n, batch...) to a⁻¹. Failures: NonFinite,
	// Singular.
	Inv(dst, a *View[T]) error
	// Det sets dst (batch...) to det(a), a (n, n, batch...); dst is 0-d
	// for a single matrix. A singular a gives 0 and NaN entries give NaN:
	// Det never fails.
	Det(dst, a *View[T]) error
	// SlogDet sets sign (batch...) and logabs, a *View[R] of the same
	// shape with R the real type of T, to det(a) = sign·exp(logabs):
	// sign is ±1 (real T) or a unit-modulus phase (complex T), 0 with
	// logabs −Inf for a singular a; NaN entries give NaN. It never fails.
	SlogDet(sign *View[T], logabs any, a *View[T]) error
	// QR sets q (m, kq, batch...) and r (kr, n, batch...) to the
	// Householder QR factorization a = q·r of a (m, n, batch...), with
	// k = min(m, n): reduced when kq = kr = k (q has orthonormal columns,
	// r is upper trapezoidal), complete when kq = kr = m (q unitary, r
	// zero below its first k rows). q may be nil: only r is computed.
	// positive makes r's diagonal real and non-negative (q's columns
	// scaled to match). perm, when not nil, is (n, batch...): the QR
	// factorization with column pivoting a[:, perm] = q·r, |r[j, j]|
	// non-increasing, column j of a[:, perm] being column perm[j] of a.
	// Failures: NonFinite.
	QR(q, r *View[T], perm *View[int64], a *View[T], positive bool) error
	// LQ sets l (m, kl, batch...) and q (kq, n, batch...) to a = l·q,
	// the QR factorization of aᴴ conjugate-transposed: reduced when
	// kl = kq = k, complete when kl = kq = n (q unitary, l zero right of
	// its first k columns). q may be nil. positive makes l's diagonal real
	// and non-negative. Failures: NonFinite.
	LQ(l, q *View[T], a *View[T], positive bool) error
	// SVD sets s (k, batch...), a *View[R] with R the real type of T, to
	// the singular values of a (m, n, batch...) in descending order,
	// k = min(m, n), and u (m, ku, batch...) and vh (kv, n, batch...) to
	// singular vectors with a = u·diag(s)·vh: thin when ku = kv = k, full
	// when ku = m and kv = n. u and vh are both nil for the values alone.
	// Failures: NonFinite, NoConvergence.
	SVD(u *View[T], s any, vh *View[T], a *View[T]) error
	// Eigh sets w (n, batch...), a *View[R], to the eigenvalues of the
	// Hermitian a (n, n, batch...) in ascending order and v (n, n,
	// batch...) to orthonormal eigenvectors, a·v = v·diag(w); only a's
	// lower (upper false) or upper triangle is read, and the imaginary
	// parts of its diagonal are taken as zero. v nil: the values alone.
	// Failures: NonFinite in the read triangle, NoConvergence.
	Eigh(w any, v *View[T], a *View[T], upper bool) error
	// Lstsq sets x (n, k, batch...) to the minimum-norm least-squares
	// solution of a·x ≈ b, a (m, n, batch...), b (m, k, batch...), with
	// the singular values σᵢ ≤ rcond·σ₀ of a treated as zero (rcond < 0:
	// the machine precision); rank (batch...) to the number kept and s
	// (min(m, n), batch...), a *View[R], to a's singular values, each
	// when not nil. Failures: NonFinite in a or b, NoConvergence.
	Lstsq(x *View[T], rank *View[int64], s any, a, b *View[T], rcond float64) error
	// Pinv sets dst (n, m, batch...) to the pseudo-inverse of a (m, n,
	// batch...), the singular values σᵢ ≤ rcond·σ₀ dropped. Failures:
	// NonFinite, NoConvergence.
	Pinv(dst, a *View[T], rcond float64) error
	// MatrixNorm sets dst (batch...), a *View[R], to the norm ord of each
	// matrix of a (m, n, batch...); it fails only for NoConvergence of
	// the SVD the 2-norms and the nuclear norm need (NaN gives NaN).
	MatrixNorm(dst any, a *View[T], ord NormOrd) error
	// Cond sets dst (batch...), a *View[R], to the condition number of
	// each matrix of a in the norm ord: σ₀/σₖ₋₁ for NormTwo (its inverse
	// for NormNegTwo), any m×n; ‖a‖·‖a⁻¹‖ for the others, square a, +Inf
	// for a singular one. Failures: NoConvergence.
	Cond(dst any, a *View[T], ord NormOrd) error
	// MatrixRank sets dst (batch...) to the number of singular values of
	// each matrix of a greater than max(atol, rtol·σ₀). Failures:
	// NonFinite, NoConvergence.
	MatrixRank(dst *View[int64], a *View[T], atol, rtol float64) error
	// Expm sets dst (n, n, batch...) to the matrix exponential of a (n,
	// n, batch...). A result that overflows holds infinities (no
	// failure). Failures: NonFinite.
	Expm(dst, a *View[T]) error
}

// NormOrd is the order of a matrix norm (numpy.linalg.norm's ord).
type NormOrd int8

const (
	NormFro     NormOrd = iota // Frobenius, √Σ|aᵢⱼ|²
	NormNuclear                // Σ σᵢ
	NormOne                    // max over columns of Σᵢ|aᵢⱼ|
	NormNegOne                 // min over columns of Σᵢ|aᵢⱼ|
	NormTwo                    // σ₀, the largest singular value
	NormNegTwo                 // the smallest singular value
	NormInf                    // max over rows of Σⱼ|aᵢⱼ|
	NormNegInf                 // min over rows of Σⱼ|aᵢⱼ|
)

// LinalgReason is the kind of numerical failure in a [LinalgFailure].
type LinalgReason int8

const (
	// Singular: an exactly zero pivot (Solve, Inv) or diagonal entry of a
	// triangular factor; Index is its 0-based position on the diagonal.
	Singular LinalgReason = iota + 1
	// NotPositiveDefinite: the leading minor of order Index (1-based) is
	// not positive definite.
	NotPositiveDefinite
	// NonFinite: the entry (Index, Col) of the input matrix is NaN or
	// infinite.
	NonFinite
	// NoConvergence: an iterative eigenvalue or singular value solver
	// exhausted its iteration bound with Index values not converged.
	NoConvergence
)

// LinalgFailure is the numerical failure of a Linalg method on batch
// item Item of the input that failed (the matrix operand a or c, numbered
// as in [Linalg] over that view's own batch axes, so that a broadcast
// operand of extent 1 everywhere has the single item 0).
type LinalgFailure struct {
	Reason LinalgReason
	Item   int
	Index  int
	Col    int
}

func (f *LinalgFailure) Error() string {
	item := strconv.Itoa(f.Item)
	switch f.Reason {
	case Singular:
		return "batch item " + item + ": zero pivot U[" + strconv.Itoa(f.Index) + "," + strconv.Itoa(f.Index) + "]"
	case NotPositiveDefinite:
		return "batch item " + item + ": leading minor of order " + strconv.Itoa(f.Index) + " not positive definite"
	case NoConvergence:
		return "batch item " + item + ": " + strconv.Itoa(f.Index) + " values did not converge"
	}
	return "batch item " + item + ": non-finite entry (" + strconv.Itoa(f.Index) + "," + strconv.Itoa(f.Col) + ")"
}
