package program

import (
	"unsafe"

	tf "github.com/tenferro-go/tenferro"
)

// The helpers below map a run-time dtype to the generic tensor API.

func newStorage(dt tf.DType, n int) any {
	switch dt {
	case tf.Float32:
		return tf.NewStorage(make([]float32, n), nil)
	case tf.Float64:
		return tf.NewStorage(make([]float64, n), nil)
	case tf.Complex64:
		return tf.NewStorage(make([]complex64, n), nil)
	case tf.Complex128:
		return tf.NewStorage(make([]complex128, n), nil)
	}
	return nil
}

// wrapStorage returns a compact *Tensor[T] of shape over st (a boxed
// *Storage[T]).
func wrapStorage(st any, shape []int) any {
	switch s := st.(type) {
	case *tf.Storage[float32]:
		return tf.WrapStorage(s, shape)
	case *tf.Storage[float64]:
		return tf.WrapStorage(s, shape)
	case *tf.Storage[complex64]:
		return tf.WrapStorage(s, shape)
	case *tf.Storage[complex128]:
		return tf.WrapStorage(s, shape)
	}
	return nil
}

func wrapValue(st any, shape []int) tf.Value {
	switch s := st.(type) {
	case *tf.Storage[float32]:
		return tf.ValueOf(tf.WrapStorage(s, shape))
	case *tf.Storage[float64]:
		return tf.ValueOf(tf.WrapStorage(s, shape))
	case *tf.Storage[complex64]:
		return tf.ValueOf(tf.WrapStorage(s, shape))
	case *tf.Storage[complex128]:
		return tf.ValueOf(tf.WrapStorage(s, shape))
	}
	return tf.Value{}
}

// viewOf returns parent permuted by perm, or reshaped to shape when perm is
// nil.
func viewOf(parent any, perm, shape []int) (any, error) {
	switch t := parent.(type) {
	case *tf.Tensor[float32]:
		return view(t, perm, shape)
	case *tf.Tensor[float64]:
		return view(t, perm, shape)
	case *tf.Tensor[complex64]:
		return view(t, perm, shape)
	case *tf.Tensor[complex128]:
		return view(t, perm, shape)
	}
	return nil, tf.Errorf(tf.ErrArgument, "Prepare", "view", "a tensor to view", "%T", parent)
}

func view[T tf.Scalar](t *tf.Tensor[T], perm, shape []int) (any, error) {
	if perm != nil {
		return t.Permute(perm...)
	}
	return t.Reshape(shape...)
}

type tensorInfo interface {
	Valid() bool
	Len() int
	Shape() []int
	Strides() []int
}

func tensorValid(t any) bool {
	ti, ok := t.(tensorInfo)
	return ok && ti.Valid()
}

// storageID identifies the backing array of v's tensor (0 when it has no
// elements).
func storageID(v tf.Value) uintptr {
	switch t := v.Tensor().(type) {
	case *tf.Tensor[float32]:
		return sliceID(t.Storage())
	case *tf.Tensor[float64]:
		return sliceID(t.Storage())
	case *tf.Tensor[complex64]:
		return sliceID(t.Storage())
	case *tf.Tensor[complex128]:
		return sliceID(t.Storage())
	}
	return 0
}

func sliceID[T any](s []T) uintptr {
	if cap(s) == 0 {
		return 0
	}
	return uintptr(unsafe.Pointer(unsafe.SliceData(s)))
}

// distinct reports whether v's view addresses every element once: with the
// axes of extent > 1 ordered by |stride|, each stride exceeds the span of
// the axes before it. This is sufficient, and exact for the views that
// Permute, Slice, Reverse and Reshape produce.
func distinct(v tf.Value) bool {
	ti, ok := v.Tensor().(tensorInfo)
	if !ok {
		return false
	}
	if ti.Len() == 0 {
		return true
	}
	shape, strides := ti.Shape(), ti.Strides()
	var ext, str [tf.MaxRank]int
	n := 0
	for d, x := range shape {
		if x <= 1 {
			continue
		}
		if n == tf.MaxRank {
			return false
		}
		s := strides[d]
		if s < 0 {
			s = -s
		}
		// Insertion sort by stride.
		i := n
		for i > 0 && str[i-1] > s {
			ext[i], str[i] = ext[i-1], str[i-1]
			i--
		}
		ext[i], str[i] = x, s
		n++
	}
	span := 0
	for i := range n {
		if str[i] <= span {
			return false
		}
		span += str[i] * (ext[i] - 1)
	}
	return true
}
