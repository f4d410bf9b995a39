package npy

// ColumnMajor returns the elements of a in column-major order (first index
// fastest), the layout used throughout this module.
//
// When a is already column-major (a.Fortran, or rank 0 or 1, where both
// orders coincide) it returns a.Data itself, which the caller then shares
// with a. Otherwise it returns a new slice holding the C-order data
// transposed: element (i0, ..., ik) of the result is at offset
// i0 + d0*(i1 + d1*(i2 + ...)). The result has the dynamic type of a.Data.
func (a *Array) ColumnMajor() any {
	if a.Fortran || len(a.Shape) < 2 {
		return a.Data
	}
	switch d := a.Data.(type) {
	case []float32:
		return rowToColMajor(d, a.Shape)
	case []float64:
		return rowToColMajor(d, a.Shape)
	case []complex64:
		return rowToColMajor(d, a.Shape)
	case []complex128:
		return rowToColMajor(d, a.Shape)
	}
	return a.Data
}

// rowToColMajor transposes src, row-major with the given shape, into a new
// column-major slice. It assumes len(src) == product(shape).
//
// A row-major array of shape (d0, ..., dk) is a column-major array of shape
// (dk, ..., d0), so this is the axis-reversing permutation. The output is
// walked in order with an odometer over axes 1..k; the innermost loop runs
// over axis 0, whose input stride is product(d1..dk).
func rowToColMajor[T element](src []T, shape []int) []T {
	dst := make([]T, len(src))
	if len(src) == 0 {
		return dst
	}
	k := len(shape)
	// Row-major input strides.
	stride := make([]int, k)
	s := 1
	for i := k - 1; i >= 0; i-- {
		stride[i] = s
		s *= shape[i]
	}
	idx := make([]int, k)
	d0, s0 := shape[0], stride[0]
	off := 0 // input offset of (0, idx[1], ..., idx[k-1])
	for o := 0; o < len(dst); o += d0 {
		row := dst[o : o+d0]
		p := off
		for i := range row {
			row[i] = src[p]
			p += s0
		}
		for ax := 1; ax < k; ax++ {
			idx[ax]++
			off += stride[ax]
			if idx[ax] < shape[ax] {
				break
			}
			off -= idx[ax] * stride[ax]
			idx[ax] = 0
		}
	}
	return dst
}
