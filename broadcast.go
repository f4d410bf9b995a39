package tenferro

import (
	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/internal/op"
)

// Const returns a new 0-d tensor holding v: the way a Go scalar enters an
// operation, which broadcasts it against any shape (see Broadcasting in the
// package documentation):
//
//	y, err := tf.Div(e, x, tf.Const(2.0))          // x / 2
//	z, err := tf.Sub(e, x, tf.Const(float32(1)))   // x - 1 for a float32 x
//
// The element type is v's, so a float32 or complex operand needs a value
// of its type. Const allocates one element; keep the result for repeated
// use in a loop. It never fails.
func Const[T Elem](v T) *Tensor[T] {
	return wrap(backend.NewStorage([]T{v}, nil), nil)
}

// BroadcastShapes returns the shape that a and b broadcast to under NumPy's
// rule (see Broadcasting in the package documentation), or an ErrShape
// error naming both shapes.
func BroadcastShapes(a, b []int) ([]int, error) {
	s, f := op.BroadcastShape(a, b, nil)
	if f != nil {
		return nil, faultError("BroadcastShapes", f)
	}
	if s == nil {
		s = []int{}
	}
	return s, nil
}
