// Package linalg is the dense linear algebra of tenferro on batches of
// matrices, in float32, float64, complex64 and complex128, with the
// semantics of numpy.linalg and torch.linalg, and the Krylov solvers that
// tensor-network algorithms run on linear maps they never form.
//
// Factorizations and solves:
//
//	QR, LQ           A = Q·R, A = L·Q (reduced or complete, optional
//	                 positive diagonal); QRPivoted: A[:, perm] = Q·R
//	Cholesky         A = L·Lᴴ (or Uᴴ·U with Upper)
//	CholeskySolve    A·X = B from A's Cholesky factor
//	LU               P·A = L·U, packed, with 0-based pivots
//	LUUnpack         A = P·L·U from the packed form
//	Solve            A·X = B
//	SolveTriangular  A·X = B or X·A = B, A triangular
//	Inv              A⁻¹
//	Det, SlogDet     det(A), and sign·exp(logabs) = det(A)
//	Lstsq, Pinv      min‖A·X − B‖ of least norm, A⁺ (rank-deficient A)
//
// Spectral decompositions and what is built on them:
//
//	SVD, SVDVals     A = U·diag(S)·Vᴴ (thin or full), S alone
//	TruncatedSVD     the leading singular triplets a [Truncation] keeps
//	Eigh, Eigvalsh   A·V = V·diag(W), A Hermitian, W ascending
//	MatrixNorm       Frobenius, nuclear, 1, 2, ∞ (and −1, −2, −∞)
//	Cond, MatrixRank condition numbers, numerical rank
//	Expm             exp(A), scaling and squaring with Padé approximants
//
// Tensor splits factor a tensor across a bipartition of its axes and give
// the factors its axes back with a new bond axis, the primitive of tensor
// networks: SVDSplit (truncated), QRSplit and LQSplit.
//
// Krylov methods take a Hermitian or general linear map as a function
// apply(dst, x) on tensors of any shape (an einsum network, a prepared
// program): Eigsh, a thick-restart Lanczos eigensolver for a few extreme
// eigenpairs (the local problem of DMRG), and ExpmV, exp(t·A)·v by
// Lanczos or Arnoldi projection with adaptive steps and an error estimate
// (TDVP, real-time evolution). Their reusable states (Lanczos,
// KrylovExp) allocate nothing when warm.
//
// # Layout
//
// Matrices are the first two axes of a tensor and batch axes come last,
// as for tenferro.Matmul: an A of shape (n, n, b1, b2) is a batch of b1·b2
// matrices, A[:, :, i, j], each contiguous when A is compact. Per-matrix
// results (Det, SlogDet) have the batch shape, (b1, b2), and are 0-d for a
// single matrix. Inputs may be any views (transposed, sliced, reversed);
// the engine reads them in place or copies them into its scratch.
//
// # Results and destinations
//
// Every operation has an allocating form, whose results come from the
// engine's buffer pool (Release them when done), and an Into form that
// writes caller-owned destinations: those have exactly the result's
// shape, distinct elements (no broadcast), and share no memory with an
// input or with each other, or the call fails with tenferro.ErrShape or
// tenferro.ErrAlias. An Into form validates everything, and factors every
// batch item in the engine's scratch, before it writes: on any error,
// numerical ones included, its destinations are untouched. On a warm
// engine the Into forms allocate nothing. The engine's scratch holds one
// batch's factors (for the solves and Cholesky) and is not counted
// against its memory budget.
//
// # Errors
//
//   - tenferro.ErrSingular: Solve, Inv, SolveTriangular and CholeskySolve
//     met an exactly zero pivot (or diagonal entry of a triangular
//     factor); the message names the batch item, as its index over the
//     batch axes (for example "batch item (1, 0)"), and the pivot U[k, k].
//     Det of a singular matrix is 0 and SlogDet gives sign 0 and logabs
//     −Inf, as in NumPy; LU of a singular matrix succeeds.
//   - tenferro.ErrNotPositiveDefinite: Cholesky met a leading minor that
//     is not positive definite; the message names the batch item and the
//     minor's order k (1-based, LAPACK's info).
//   - tenferro.ErrArgument for a NaN or Inf in the matrix that is
//     factored (the triangle that is read, for Cholesky and the triangular
//     solves), checked before any factorization and reported with the
//     batch item and the entry; NaN or Inf in a right side B propagate to
//     X (Lstsq checks B too). Det, SlogDet, MatrixNorm and Cond never
//     fail on values: NaN entries give NaN.
//   - tenferro.ErrNoConvergence: an iteration ended unconverged at its
//     documented bound, never a hang: Eigh (30·n QL/QR sweeps) and SVD
//     (6·k² bidiagonal QR steps), not met on finite input in practice;
//     Eigsh (MaxRestarts) and ExpmV (MaxSteps), met when the tolerance is
//     tighter than the bounds allow (they return what they found with it).
//   - tenferro.ErrShape for non-square matrices where square ones are
//     needed, mismatched rows or batch extents, and destinations of
//     another shape, naming the argument; tenferro.ErrDType for a real
//     result (logabs, singular values, eigenvalues, norms) of another
//     dtype than A's real dtype; tenferro.ErrReleased,
//     tenferro.ErrArgument (nil tensors or engine, options an operation
//     does not take) and tenferro.ErrUnsupported (an engine without the
//     Linalg capability) as everywhere in tenferro.
//
// Performance: see docs/linalg.md for the algorithms and timings against
// NumPy (OpenBLAS's LAPACK), PyTorch and gonum.
package linalg
