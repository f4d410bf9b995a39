// Package reduce folds strided views over axes:
//
//	Sum:                  dst[i] = sum_j src[i, j]
//	SumProduct:           dst[i] = sum_j a[i, j] * b[i, j]
//	Fold:                 dst[i] = sum, prod, max, min or max |.| over j of src[i, j]
//	SumSquares:           dst[i] = sum_j |src[i, j]|^2
//	Norm2:                dst[i] = sqrt(sum_j |src[i, j]|^2)
//	SumAbsPow:            dst[i] = sum_j |src[i, j]|^p
//	SumSquaredDeviations: dst[i] = sum_j |src[i, j] - center[i]|^2
//	LogSumExp:            dst[i] = log sum_j exp(src[i, j])
//	Bools:                dst[i] = and (or) over j of src[i, j]
//	Arg:                  dst[i] = first j of the maximum (minimum) of src[i, j], j one axis
//	Scan:                 dst[i, k] = sum (prod) over j <= k of src[i, j], j one axis
//
// where j runs over the axes along which dst has stride 0 (the reduced axes)
// and i over the others. One shape describes the whole iteration space; dst
// repeats its element along reduced axes, which is how the caller marks them
// (Scan alone writes a full-size dst). SumProduct covers dot products (every
// axis reduced), Hadamard products followed by a reduction, outer products
// (no axis reduced) and traces (diagonal views with strides that add up).
//
// Inputs may have any strides: negative (reversed views) or zero
// (broadcasts). Above ParallelBytes of input (scaled up for kernels that
// evaluate exp or pow per element) the kernels split the kept index points,
// or the reduced ones when nothing is kept, over the runner; a warm call
// allocates nothing (task state is pooled).
//
// # Accuracy
//
// Sum and SumProduct accumulate in T; the other sums (SumSquares, Norm2,
// SumAbsPow, SumSquaredDeviations, LogSumExp) in float64, so that a
// float32 or complex64 result is rounded once. Along the reduced axis that
// is fastest in the input, rows are summed pairwise in blocks of 128 (error
// growing like log n); contiguous real rows are summed in SIMD lanes
// instead (32 lanes of float64 or 64 of float32 adding 32 terms each per
// block, lanes and blocks combined pairwise: the same bound, and the same
// bits from the assembly and its pure-Go twin, see lanes.go); across the
// remaining reduced index points partial
// sums are flushed into a second accumulator every block (blocked
// summation). The error of a sum of n terms is bounded by the usual
// (n-1)*eps*sum|terms| and in practice much smaller; the sums of
// nonnegative terms (squares, |x|^p, exponentials) are thus accurate to
// about n*eps relative (eps of float64), plus one rounding to T.
//
// SumSquares and Norm2 scale tiny and huge elements (Blue's scheme, as in
// LAPACK's nrm2), so no square overflows or underflows on the way; Norm2
// overflows only when the norm itself does. LogSumExp shifts by the maximum
// m: its absolute error is about eps*|m| plus n*eps. Contiguous float32
// rows evaluate x - m and the exponentials in float32 and sum blocks of 512
// of them in float32 (the blocks in float64): a few float32 ulps. Scan accumulates each
// fibre sequentially: the k-th cumulative sum has an error of at most about
// k*eps*sum_{j<=k}|x_j|, the k-th cumulative product a relative error of
// about k*eps. Products (Fold with ProdFold) have a relative error of about
// n*eps in any order. Max, Min, MaxAbs of real types, Arg and Bools are
// exact.
//
// # Special values
//
// Max, Min and MaxAbs return NaN when the reduced set holds a NaN (NumPy's
// max); Arg returns the index of the first NaN (NumPy's argmax). The sums
// propagate NaN and Inf as IEEE arithmetic does (Inf - Inf is NaN).
// LogSumExp returns NaN for a set holding NaN, +Inf for one holding +Inf,
// -Inf for a set of -Inf only.
//
// # Empty reductions
//
// An empty reduced set gives the identity: 0 for the sums, 1 for Prod, 0
// for MaxAbs, -Inf for LogSumExp, true for All and false for Any. Max, Min
// and Arg of an empty set are the caller's error: the kernels panic.
//
// # Preconditions
//
// Callers validate: every Ref has len(shape) strides and stays inside its
// Data (strided.Ref.Validate); at most strided.MaxRank extents differ from 1
// (the kernels panic otherwise); dst has no repeated elements along the
// non-reduced axes and does not overlap the inputs (Scan's dst may be its
// src exactly, SumSquaredDeviations' center may be dst). dst is
// overwritten. Kernels restricted to real types (Max, Min, Arg, LogSumExp)
// panic for complex ones.
package reduce
