package gonumx

import (
	"fmt"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/blas/cblas128"
	"gonum.org/v1/gonum/mat"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
)

// FromDense returns the r×c tensor that views m's memory: a row-major
// matrix with row stride s is the column-major tensor of shape (r, c) with
// strides (s, 1), sharing m's backing slice, so a write through either one
// is seen through the other. An empty m (the zero Dense) gives a 0×0
// tensor. It fails only for a nil m.
func FromDense(m *mat.Dense) (*tf.Tensor[float64], error) {
	if m == nil {
		return nil, tf.Errorf(tf.ErrArgument, "gonumx.FromDense", "m", "a matrix", "nil")
	}
	raw := m.RawMatrix()
	return matrixView("gonumx.FromDense", raw.Data, raw.Rows, raw.Cols, raw.Stride)
}

// FromCDense is [FromDense] for complex matrices: the tensor shares m's
// memory.
func FromCDense(m *mat.CDense) (*tf.Tensor[complex128], error) {
	if m == nil {
		return nil, tf.Errorf(tf.ErrArgument, "gonumx.FromCDense", "m", "a matrix", "nil")
	}
	raw := m.RawCMatrix()
	return matrixView("gonumx.FromCDense", raw.Data, raw.Rows, raw.Cols, raw.Stride)
}

// FromVecDense returns the 1-D tensor of length n that views v's memory:
// element i is Data[i·inc], shared with v. An empty v gives a tensor of
// shape (0). It fails only for a nil v.
func FromVecDense(v *mat.VecDense) (*tf.Tensor[float64], error) {
	const name = "gonumx.FromVecDense"
	if v == nil {
		return nil, tf.Errorf(tf.ErrArgument, name, "v", "a vector", "nil")
	}
	raw := v.RawVector()
	if raw.N == 0 {
		return tf.FromStrided(raw.Data, 0, []int{0}, []int{1})
	}
	x, err := tf.FromStrided(raw.Data, 0, []int{raw.N}, []int{raw.Inc})
	return x, tf.WrapError(name, "v", err)
}

// matrixView views the row-major rows×cols matrix data (row stride
// stride) as a tensor.
func matrixView[T tf.Scalar](name string, data []T, rows, cols, stride int) (*tf.Tensor[T], error) {
	if rows == 0 || cols == 0 {
		return tf.FromStrided(data[:0], 0, []int{rows, cols}, []int{max(cols, 1), 1})
	}
	x, err := tf.FromStrided(data, 0, []int{rows, cols}, []int{stride, 1})
	return x, tf.WrapError(name, "m", err)
}

// ToDense returns t, a float64 matrix (rank 2), as a gonum matrix: one
// that shares t's memory when t's layout is a row-major one (column
// stride 1, or a single column, and a row stride of at least the column
// count, or a single row), and otherwise a new matrix holding a copy.
// shared reports which. A shared matrix reads and writes t's storage; it
// must not outlive a Release of that storage. gonum matrices have no zero
// extents, so a tensor with one is an error (ErrShape), as are other ranks
// (ErrShape) and a released tensor (ErrReleased).
func ToDense(t *tf.Tensor[float64]) (m *mat.Dense, shared bool, err error) {
	data, stride, shared, err := matrixOf("gonumx.ToDense", t)
	if err != nil {
		return nil, false, err
	}
	shape := t.Shape()
	m = new(mat.Dense)
	m.SetRawMatrix(blas64.General{Rows: shape[0], Cols: shape[1], Stride: stride, Data: data})
	return m, shared, nil
}

// ToCDense is [ToDense] for complex128 tensors.
func ToCDense(t *tf.Tensor[complex128]) (m *mat.CDense, shared bool, err error) {
	data, stride, shared, err := matrixOf("gonumx.ToCDense", t)
	if err != nil {
		return nil, false, err
	}
	shape := t.Shape()
	m = new(mat.CDense)
	m.SetRawCMatrix(cblas128.General{Rows: shape[0], Cols: shape[1], Stride: stride, Data: data})
	return m, shared, nil
}

// ToVecDense returns the 1-D tensor t as a gonum vector: one that shares
// t's memory when t's stride is positive (or t has one element), and
// otherwise a new vector holding a copy (a reversed or broadcast view).
// shared reports which. Errors are as for [ToDense].
func ToVecDense(t *tf.Tensor[float64]) (v *mat.VecDense, shared bool, err error) {
	const name = "gonumx.ToVecDense"
	if err := checkTensor(name, t, 1); err != nil {
		return nil, false, err
	}
	n, inc := t.Shape()[0], t.Strides()[0]
	if n == 1 {
		inc = 1
	}
	if inc >= 1 {
		off := t.Offset()
		end := off + (n-1)*inc + 1
		v = new(mat.VecDense)
		v.SetRawVector(blas64.Vector{N: n, Inc: inc, Data: t.Storage()[off:end:end]})
		return v, true, nil
	}
	v = mat.NewVecDense(n, nil)
	dst, err := FromVecDense(v)
	if err == nil {
		err = copyInto(name, dst, t)
	}
	if err != nil {
		return nil, false, err
	}
	return v, false, nil
}

// matrixOf returns the row-major storage of the matrix t: a slice of t's
// storage when its layout allows (shared), else a compact copy.
func matrixOf[T tf.Scalar](name string, t *tf.Tensor[T]) (data []T, stride int, shared bool, err error) {
	if err := checkTensor(name, t, 2); err != nil {
		return nil, 0, false, err
	}
	shape, st := t.Shape(), t.Strides()
	r, c := shape[0], shape[1]
	stride = st[0]
	if r == 1 {
		stride = c
	}
	if (c == 1 || st[1] == 1) && stride >= c {
		off := t.Offset()
		end := off + (r-1)*stride + c
		return t.Storage()[off:end:end], stride, true, nil
	}
	data = make([]T, r*c)
	dst, err := tf.FromStrided(data, 0, shape, []int{c, 1})
	if err == nil {
		err = copyInto(name, dst, t)
	}
	if err != nil {
		return nil, 0, false, err
	}
	return data, c, false, nil
}

// checkTensor validates the tensor argument t of a ToX conversion: live,
// of the given rank, and without zero extents.
func checkTensor[T tf.Scalar](name string, t *tf.Tensor[T], rank int) error {
	if t == nil {
		return tf.Errorf(tf.ErrArgument, name, "t", "a tensor", "nil")
	}
	if !t.Valid() {
		return tf.Errorf(tf.ErrReleased, name, "t", "a live tensor", "a released or zero tensor")
	}
	if t.Rank() != rank {
		return tf.Errorf(tf.ErrShape, name, "t", fmt.Sprintf("a tensor of rank %d", rank), "shape %v", t.Shape())
	}
	if t.Len() == 0 {
		return tf.Errorf(tf.ErrShape, name, "t", "positive extents (gonum has no empty matrices or vectors)", "shape %v", t.Shape())
	}
	return nil
}

// copyInto copies src into dst on a serial engine (the blocked copy
// kernels), naming the conversion in errors.
func copyInto[T tf.Scalar](name string, dst, src *tf.Tensor[T]) error {
	return tf.WrapError(name, "t", tf.CopyInto(cpu.Serial(), dst, src))
}
