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
	case []int64:
		return rowToColMajor(d, a.Shape)
	case []bool:
		return rowToColMajor(d, a.Shape)
	}
	return a.Data
}

// rowToColMajor transposes src, row-major with the given shape, into a new
// column-major slice. It assumes len(src) == product(shape) and rank >= 2.
//
// A row-major array of shape (d0, ..., dk) is a column-major array of shape
// (dk, ..., d0), so this is the axis-reversing permutation. Element
// (i0, ..., ik) moves from offset ((i0*d1 + i1)*d2 + ...)*dk + ik to
// i0 + d0*(i1 + d1*(... + d(k-1)*ik)). The first and last axes are the
// fastest ones of the output and the input: for every index of the middle
// axes (an odometer) the (i0, ik) plane is transposed in square tiles, so
// both sides are walked in cache-sized pieces.
func rowToColMajor[T element](src []T, shape []int) []T {
	dst := make([]T, len(src))
	if len(src) == 0 {
		return dst
	}
	k := len(shape) - 1
	d0, dk := shape[0], shape[k]
	inS0 := len(src) / d0  // input stride of axis 0: d1*...*dk
	outSk := len(src) / dk // output stride of axis k: d0*...*d(k-1)
	mid := shape[1:k]
	inStride := make([]int, len(mid))
	outStride := make([]int, len(mid))
	for m := range mid {
		inStride[m], outStride[m] = 1, d0
		for _, d := range shape[m+2:] {
			inStride[m] *= d
		}
		for _, d := range mid[:m] {
			outStride[m] *= d
		}
	}
	idx := make([]int, len(mid))
	inBase, outBase := 0, 0
	for {
		transposeTiles(dst[outBase:], src[inBase:], d0, dk, inS0, outSk)
		m := 0
		for ; m < len(mid); m++ {
			idx[m]++
			inBase += inStride[m]
			outBase += outStride[m]
			if idx[m] < mid[m] {
				break
			}
			inBase -= idx[m] * inStride[m]
			outBase -= idx[m] * outStride[m]
			idx[m] = 0
		}
		if m == len(mid) {
			return dst
		}
	}
}

// tile is the side of the square tiles of transposeTiles.
const tile = 32

// transposeTiles sets dst[i + j*dstStride] = src[i*srcStride + j] for
// i < rows, j < cols, tile by tile.
func transposeTiles[T element](dst, src []T, rows, cols, srcStride, dstStride int) {
	for i0 := 0; i0 < rows; i0 += tile {
		i1 := min(i0+tile, rows)
		for j0 := 0; j0 < cols; j0 += tile {
			j1 := min(j0+tile, cols)
			for j := j0; j < j1; j++ {
				d := dst[j*dstStride:]
				for i := i0; i < i1; i++ {
					d[i] = src[i*srcStride+j]
				}
			}
		}
	}
}
