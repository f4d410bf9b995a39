package trace

import (
	"math"
	"slices"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/internal/op"
)

// Const records a constant: a tensor with v's dtype, shape and elements,
// which every run of the program reads. The elements are copied now (into
// a compact tensor the graph owns), so v may change or be released
// afterwards. A 0-d constant broadcasts against any shape:
//
//	one, _ := tr.Const(tf.ValueOf(tf.Const(1.0)))
//	y, _ := tr.Sub(x, one) // x - 1
func (t *Trace) Const(v tf.Value) (Var, error) {
	const name = "Const"
	if t.finished {
		return Var{}, argErr(name, "trace", "a trace that is not finished", "a finished trace")
	}
	if !v.Valid() {
		return Var{}, tf.Errorf(tf.ErrArgument, name, "v", "a live tensor", "a released or empty Value")
	}
	c, err := cloneValue(v)
	if err != nil {
		return Var{}, tf.WrapError(name, "v", err)
	}
	return t.add(Node{Op: op.None, DType: v.DType(), Shape: slices.Clone(v.Shape()), Input: -1, Value: c}), nil
}

// Full records a constant of dtype dt and the given shape (none: a 0-d
// scalar that broadcasts) with every element x: tr.Full(dt, 2) is the 2 of
// x - 2 and x / 2. x must be representable in dt: no imaginary part for a
// real dtype, an integer for Int64, 0 or 1 for Bool.
func (t *Trace) Full(dt tf.DType, x complex128, shape ...int) (Var, error) {
	const name = "Full"
	if !dt.Valid() {
		return Var{}, tf.Errorf(tf.ErrDType, name, "dt", "a valid dtype", "%v", dt)
	}
	re := real(x)
	switch {
	case !dt.IsComplex() && imag(x) != 0:
		return Var{}, tf.Errorf(tf.ErrArgument, name, "x", "a real value for "+dt.String(), "%v", x)
	case dt == tf.Int64 && (re != math.Trunc(re) || math.Abs(re) > 1<<63):
		return Var{}, tf.Errorf(tf.ErrArgument, name, "x", "an integer for int64", "%v", re)
	case dt == tf.Bool && re != 0 && re != 1:
		return Var{}, tf.Errorf(tf.ErrArgument, name, "x", "0 or 1 for bool", "%v", re)
	}
	var v tf.Value
	var err error
	switch dt {
	case tf.Float32:
		v, err = full(float32(re), shape)
	case tf.Float64:
		v, err = full(re, shape)
	case tf.Complex64:
		v, err = full(complex64(x), shape)
	case tf.Complex128:
		v, err = full(x, shape)
	case tf.Int64:
		v, err = full(int64(re), shape)
	default:
		v, err = full(re == 1, shape)
	}
	if err != nil {
		return Var{}, tf.WrapError(name, "shape", err)
	}
	return t.Const(v)
}

func full[T tf.Elem](x T, shape []int) (tf.Value, error) {
	c, err := tf.Full(x, shape...)
	if err != nil {
		return tf.Value{}, err
	}
	return tf.ValueOf(c), nil
}

// cloneValue returns a compact copy of v that no pool owns.
func cloneValue(v tf.Value) (tf.Value, error) {
	switch x := v.Tensor().(type) {
	case *tf.Tensor[float32]:
		return clone(x)
	case *tf.Tensor[float64]:
		return clone(x)
	case *tf.Tensor[complex64]:
		return clone(x)
	case *tf.Tensor[complex128]:
		return clone(x)
	case *tf.Tensor[int64]:
		return clone(x)
	default:
		return clone(x.(*tf.Tensor[bool]))
	}
}

func clone[T tf.Elem](x *tf.Tensor[T]) (tf.Value, error) {
	c, err := x.Clone()
	if err != nil {
		return tf.Value{}, err
	}
	return tf.ValueOf(c), nil
}
