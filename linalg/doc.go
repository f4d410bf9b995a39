// Package linalg is the dense linear algebra of tenferro: QR, LQ,
// Cholesky and LU factorizations, linear solves, inverses and
// determinants of batches of matrices, with the semantics of numpy.linalg
// and torch.linalg.
//
//	QR, LQ           A = Q·R, A = L·Q (reduced or complete, optional
//	                 positive diagonal)
//	Cholesky         A = L·Lᴴ (or Uᴴ·U with Upper)
//	CholeskySolve    A·X = B from A's Cholesky factor
//	LU               P·A = L·U, packed, with 0-based pivots
//	LUUnpack         A = P·L·U from the packed form
//	Solve            A·X = B
//	SolveTriangular  A·X = B or X·A = B, A triangular
//	Inv              A⁻¹
//	Det, SlogDet     det(A), and sign·exp(logabs) = det(A)
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
//     X. Det and SlogDet never fail on values: NaN entries give NaN.
//   - tenferro.ErrShape for non-square matrices where square ones are
//     needed, mismatched rows or batch extents, and destinations of
//     another shape, naming the argument; tenferro.ErrDType for a logabs
//     of another dtype than A's real dtype; tenferro.ErrReleased,
//     tenferro.ErrArgument (nil tensors or engine, options an operation
//     does not take) and tenferro.ErrUnsupported (an engine without the
//     Linalg capability) as everywhere in tenferro.
//
// SVD, eigh and the other decompositions come next (docs/linalg.md).
package linalg
