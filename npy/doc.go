// Package npy reads and writes arrays in NumPy's .npy format.
//
// A .npy file is the magic string "\x93NUMPY", a two-byte version, a
// little-endian header length (2 bytes in version 1.0, 4 bytes in 2.0 and
// 3.0), a header that is the text of a Python dict literal
//
//	{'descr': '<f8', 'fortran_order': False, 'shape': (3, 4), }
//
// and then product(shape) elements of the dtype in 'descr', in C order
// (row-major, last index fastest) or Fortran order (column-major, first
// index fastest) as 'fortran_order' says.
//
// # Element types
//
// The supported dtypes are little-endian float32, float64, complex64,
// complex128 and int64 ('<f4', '<f8', '<c8', '<c16', '<i8'; a descr with
// the '|' mark or no byte-order mark is read as little-endian) and bool
// ('|b1', one byte that must be 0 or 1). Big-endian, other integer,
// string, object and structured dtypes are rejected with [ErrUnsupported]
// and a message naming the dtype. Data comes back as a []float32,
// []float64, []complex64, []complex128, []int64 or []bool in [Array.Data].
//
// # Layout
//
// The rest of this module is column-major. [Write] therefore takes
// column-major data and writes it in Fortran order, which needs no
// transpose and which NumPy loads as the same array. [Read] returns data in
// the file's order; [Array.ColumnMajor] converts C-order data.
//
// # Tensors
//
// [ReadTensor] and [ReadTensorFile] load an array as a compact column-major
// tenferro.Tensor whose element (i, j, ...) is NumPy's a[i, j, ...],
// whatever the file's order; the file's dtype must be T's exactly (a
// mismatch is an [ErrArgument] that also matches tenferro.ErrDType).
// [ReadValue] and [ReadValueFile] load any supported dtype as a
// tenferro.Value. [WriteTensor], [WriteTensorFile], [WriteValue] and
// [WriteValueFile] write a tensor or any view of one (transposed, sliced,
// broadcast, ...) in Fortran order, gathering strided views through their
// strides, so that np.load returns an array with the same logical
// contents. The dtypes correspond one to one: float32, float64, complex64,
// complex128, int64 and bool.
//
// # Untrusted input
//
// [Read] validates every field before acting on it and never allocates from
// a size it has not checked: the header is capped ([MaxHeaderBytes],
// default 64 KiB), the data size is capped ([MaxBytes], default 1 GiB),
// shape products are checked for overflow, and the data size is compared
// with what remains in a seekable reader or collected in bounded chunks
// from a stream. All errors are [*Error] values that match one of the
// sentinel kinds [ErrFormat], [ErrUnsupported], [ErrTooLarge],
// [ErrTruncated] (and [ErrArgument] for writing, and for a ReadTensor
// whose T is not the file's dtype) under [errors.Is].
package npy
