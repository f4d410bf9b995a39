// Package tenferro provides typed dense tensors and the operations on them:
// matmul, n-ary einsum with contraction-path optimization, elementwise
// arithmetic and reductions, all executed by a caller-held [Engine].
//
// # Tensors
//
// [Tensor] is generic over float32, float64, complex64 and complex128. Data
// is column-major (first index fastest), like Fortran, Julia and LAPACK;
// use [FromRowMajor] for C-ordered data. Views (Permute, Transpose, Slice,
// Reverse, Diagonal, Broadcast, Reshape) change metadata only.
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
// # Errors
//
// Every error is an *[Error] naming the operation, the argument and the
// expected and actual values; errors.Is matches its kind ([ErrShape],
// [ErrDType], [ErrReleased], [ErrEngineBusy], ...). Operations validate all
// arguments before writing anything: a failed Into call leaves its
// destination untouched.
package tenferro
