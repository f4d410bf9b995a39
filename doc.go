// Package tenferro provides typed dense tensors and the operations on them:
// matmul, n-ary einsum with contraction-path optimization, elementwise
// arithmetic and reductions, all executed by a caller-held [Engine].
//
// # Tensors
//
// [Tensor] is generic over its element type: float32, float64, complex64
// and complex128 for arithmetic ([Scalar]), int64 for indices and bool for
// masks ([Elem]). Data is column-major (first index fastest), like Fortran,
// Julia and LAPACK; use [FromRowMajor] for C-ordered data and
// [FromStrided] to view memory laid out by another library. Views (Permute,
// Transpose, Slice, Reverse, Diagonal, Broadcast, Reshape) change metadata
// only. Axes may be negative wherever an axis is given (-1 is the last
// axis), and so may indices in At and Set, as in NumPy.
//
// # Broadcasting
//
// Binary elementwise operations (Add, Mul, Div, Maximum, comparisons, ...)
// and Where broadcast as NumPy does, on the logical shapes: the shapes are
// aligned on their last axes, a missing leading axis counts as extent 1,
// and an extent of 1 repeats along the other operand's extent (1 against 0
// gives 0). A (3) vector thus combines with a (2, 3) matrix along the
// matrix's last axis, exactly as in NumPy, even though the last axis is
// the slowest one in this column-major layout; a 0-d tensor ([Const])
// combines with anything, which is how a Go scalar enters an operation:
// Div(e, x, Const(2.0)). Shapes that do not broadcast are an [ErrShape]
// naming both shapes and the axis where they clash.
//
// # Reductions
//
// Reductions ([Sum], [Prod], [Mean], [Var], [Std], [Max], [Min], [Norm],
// [LogSumExp], [All], [Any]) take any set of axes in any order, negative
// ones counting from the end; no axes means every axis (a 0-d result).
// [ArgMax] and [ArgMin] take one axis and return int64 indices; [CumSum]
// and [CumProd] scan along one axis and keep the shape. The result drops
// the reduced axes. For NumPy's keepdims, pass an Into form a destination
// of the input's rank with extent 1 on the reduced axes, or restore the
// axes of a result with Unsqueeze. For x of shape (rows, cols):
//
//	m, _ := tenferro.Zeros[float32](rows, 1)
//	err := tenferro.MaxInto(e, m, x, -1) // m (rows, 1) broadcasts against x
//	y, _ := tenferro.Sub(e, x, m)        // x - x.max(-1, keepdims=True)
//
// Sums are pairwise along the fastest reduced axis (blocks of 128) and
// blocked across the others, so the error of a sum of n terms stays far
// below the worst-case bound (n-1)·eps·Σ|x| and grows like log n in
// practice; sums of squares, |x|^p, deviations and exponentials (Norm, Var,
// LogSumExp) accumulate in float64, so float32 results are rounded once.
// Norm of order 2 scales as LAPACK's nrm2 does, so that no square
// overflows or underflows. Max, Min, ArgMax and ArgMin propagate NaN as
// NumPy does (the first NaN wins); reducing an empty set with them is an
// [ErrShape] error, while the others return their identity (0, 1, -Inf
// for LogSumExp, true for All) or NaN (Mean). Var, Std and Norm of complex
// tensors are real, with the real dtype as the first type argument:
// Norm[float64](e, z, 2) for a complex128 z.
//
// # Dtypes
//
// [DType] names an element type at run time (for [Value], files and
// traces). [Promote] follows NumPy: bool < int64 < floating < complex, at
// the wider precision:
//
//	       bool  i64   f32   f64   c64   c128
//	bool   bool  i64   f32   f64   c64   c128
//	i64    i64   i64   f64   f64   c128  c128
//	f32    f32   f64   f32   f64   c64   c128
//	f64    f64   f64   f64   f64   c128  c128
//	c64    c64   c128  c64   c128  c64   c128
//	c128   c128  c128  c128  c128  c128  c128
//
// Arithmetic needs a Scalar dtype; int64 and bool tensors can be built,
// viewed, copied and converted. [DType.Real] is the dtype of real results
// of complex inputs (absolute values, norms, singular values), and
// [DType.Complex] the dtype of complex numbers built from real parts
// ([Complex]).
//
// # Structural and indexing operations
//
// Views share storage and need no engine: Permute, Transpose, Slice,
// Reverse, Diagonal, Broadcast, Reshape (ErrLayout when the strides cannot
// express the shape), Squeeze, Unsqueeze, Split and SplitAt. The copies
// take an engine and accept every dtype: [ReshapeCopy] and [Flatten]
// (always a new tensor, whatever the strides), [Contiguous] (column- or
// row-major storage), [Concatenate], [Stack], [Tile], [Repeat], [Pad],
// [Roll], [Tril], [Triu], [Diag], [Take], [Gather] and [MaskedSelect];
// [ScatterAdd] adds, so it takes numbers and int64. They follow NumPy on
// logical shapes (Tile aligns reps on the last axes as broadcasting does),
// with three differences of layout: Tril and Triu take the matrices from
// the first two axes with batch axes after, as Matmul; Flatten and
// MaskedSelect list elements in column-major order. Index tensors are
// int64; a negative index counts from the end (NumPy's take), and an
// index outside its axis is an ErrArgument error naming its position,
// found before anything is written.
//
// # Engines
//
// Every operation takes an [Engine] as its first argument, like a
// context.Context. Build one once, with cpu.Serial() or cpu.New(team), and
// pass it down:
//
//   - build once: an engine owns a worker team, a buffer pool and a plan
//     cache; building one per call throws all three away;
//   - one per goroutine: an engine used by two goroutines at once returns
//     ErrEngineBusy; engines may share a plan cache;
//   - Release results or use the Into forms: results borrow storage from
//     the engine's pool, and Release gives it back for the next result.
//
// An engine that lacks a capability an operation needs (for example
// contraction kernels for a dtype) makes the operation fail with
// [ErrUnsupported] before anything is written.
//
// # Destinations
//
// Every operation that returns a tensor has an Into twin that writes into
// a destination the caller owns: XxxInto(e, dst, inputs..., options). One
// rule holds for every destination:
//
//   - dst has exactly the result's shape (it is never broadcast) and its
//     elements are distinct: no zero strides along an axis of extent > 1,
//     no other self-overlap (else ErrAlias). Any other strides are fine
//     (transposed, sliced, reversed parts of larger tensors);
//   - for elementwise operations (Copy, Add, Scale, ...: each output
//     element depends only on the input elements at the same index) dst
//     may be the very same view as an input, which updates it in place;
//   - otherwise dst must not overlap any input (ErrAlias). Two views of one
//     storage overlap when their ranges of storage indices intersect, even
//     if their elements interleave;
//   - everything is validated before anything is written: a failed Into
//     leaves dst untouched;
//   - with a warm engine an Into form allocates nothing.
//
// The creation routines (Full, Eye, Arange, Linspace, Rand, ...) take no
// engine and return fresh memory; their Into forms ([FillInto],
// [EyeInto], [ArangeInto], [LinspaceInto], [LogspaceInto], [RandInto],
// [RandNInto], [RandUniformInto]) are engine operations under the same
// rule, so a destination from [NewTensor] can be refilled in a loop.
//
// Compiled programs (package program) follow the non-elementwise rule for
// their outputs: no output overlaps an input or another output.
//
// # Errors
//
// Every error is an *[Error] naming the operation, the argument and the
// expected and actual values; errors.Is matches its kind ([ErrShape],
// [ErrDType], [ErrReleased], [ErrEngineBusy], ...). The same bad input
// gives the same error whether the operation runs eagerly or is recorded
// by package trace.
package tenferro
