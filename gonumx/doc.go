// Package gonumx connects this module to gonum: it converts between
// tensors and gonum matrices, and it provides a gonum BLAS whose level-3
// routines run on this module's packed GEMM kernels, so that gonum's own
// mat and lapack64 code (products, Cholesky, LU, QR, eigensolvers) runs
// faster without any change to the code that calls it.
//
// # A faster BLAS for gonum
//
// [Use] installs the BLAS for all four element types at once:
//
//	impl, err := gonumx.Use() // serial; gonumx.Use(gonumx.Threads(2)): two goroutines per call
//	if err != nil { ... }
//	defer impl.Close()
//	var c mat.Dense
//	c.Mul(a, b) // runs on the packed kernels
//
// [New] builds an [Implementation] without installing it, for callers that
// pass a BLAS explicitly. An Implementation embeds gonum's own
// gonum.Implementation and overrides GEMM (every call), TRSM, TRMM, SYRK
// and SYR2K (calls above a size, see [Crossover]); everything else is
// gonum's code, and arguments are validated exactly as gonum validates
// them: an invalid call panics with gonum's own message, which is the BLAS
// contract. Results agree with gonum's to rounding, not bit for bit (the
// summation order differs).
//
// An Implementation is safe for concurrent use. With [Threads] or
// [WithTeam] a call fans out on a worker team when the product is large
// enough; of several calls made at the same moment, one fans out and the
// others run serially on their callers (see [Implementation]).
//
// # Conversions
//
// Tensors are column-major and gonum matrices row-major, and a row-major
// r×c matrix with row stride s is exactly the column-major tensor of shape
// (r, c) with strides (s, 1), a transposed view. So every conversion from
// gonum shares memory, and conversions to gonum share it whenever the
// tensor's layout is a row-major one:
//
//	function       from → to                          memory
//	FromDense      *mat.Dense → *Tensor[float64]       shared, always
//	FromCDense     *mat.CDense → *Tensor[complex128]   shared, always
//	FromVecDense   *mat.VecDense → *Tensor[float64]    shared, always (stride = Inc)
//	ToDense        *Tensor[float64] → *mat.Dense       shared when t has strides (s, 1)
//	                                                   with s ≥ cols, else a copy
//	ToCDense       *Tensor[complex128] → *mat.CDense   as ToDense
//	ToVecDense     *Tensor[float64] → *mat.VecDense    shared when the stride is
//	                                                   positive, else a copy
//
// The To functions report whether they shared. A compact tensor from
// tenferro's constructors is column-major, so ToDense copies it; its
// Transpose view, or a tensor made by FromDense, is shared. For an
// independent tensor, Clone the view that FromDense returns.
package gonumx
