package tenferro

import "fmt"

// Value is a tensor whose element type is known only at run time: the
// form the CLI, .npy files and traced programs use. It wraps a *Tensor[T]
// for one of the four element types; the zero Value is empty (DType
// Invalid).
type Value struct {
	dt DType
	t  any // *Tensor[T]
}

// ValueOf wraps t.
func ValueOf[T Scalar](t *Tensor[T]) Value { return Value{dt: DTypeOf[T](), t: t} }

// As returns the typed tensor inside v, or an ErrDType error when v holds
// another element type.
func As[T Scalar](v Value) (*Tensor[T], error) {
	t, ok := v.t.(*Tensor[T])
	if !ok {
		return nil, newError("As", "value", "a "+DTypeOf[T]().String()+" tensor", "a "+v.dt.String()+" tensor", ErrDType)
	}
	return t, nil
}

// DType returns the element type (Invalid for the zero Value).
func (v Value) DType() DType { return v.dt }

// Tensor returns the wrapped *Tensor[T] as an interface (nil when empty).
func (v Value) Tensor() any { return v.t }

// Shape returns the extents (nil when empty).
func (v Value) Shape() []int {
	switch t := v.t.(type) {
	case *Tensor[float32]:
		return t.Shape()
	case *Tensor[float64]:
		return t.Shape()
	case *Tensor[complex64]:
		return t.Shape()
	case *Tensor[complex128]:
		return t.Shape()
	}
	return nil
}

// Release releases the wrapped tensor (see Tensor.Release).
func (v Value) Release() error {
	switch t := v.t.(type) {
	case *Tensor[float32]:
		return t.Release()
	case *Tensor[float64]:
		return t.Release()
	case *Tensor[complex64]:
		return t.Release()
	case *Tensor[complex128]:
		return t.Release()
	}
	return newError("Release", "value", "a tensor", "an empty Value", ErrArgument)
}

// String formats the wrapped tensor.
func (v Value) String() string {
	if v.t == nil {
		return "Value(empty)"
	}
	return fmt.Sprint(v.t)
}

// NewValue returns a zero-filled compact tensor of dtype dt.
func NewValue(dt DType, shape ...int) (Value, error) {
	switch dt {
	case Float32:
		return wrapNew(Zeros[float32](shape...))
	case Float64:
		return wrapNew(Zeros[float64](shape...))
	case Complex64:
		return wrapNew(Zeros[complex64](shape...))
	case Complex128:
		return wrapNew(Zeros[complex128](shape...))
	}
	return Value{}, newError("NewValue", "dtype", "f32, f64, c64 or c128", dt.String(), ErrDType)
}

func wrapNew[T Scalar](t *Tensor[T], err error) (Value, error) {
	if err != nil {
		return Value{}, err
	}
	return ValueOf(t), nil
}

// Convert returns a new compact tensor holding v's elements as dtype to
// (v itself, not a copy, when the dtype already matches). Converting
// complex to real keeps the real part, as NumPy's astype does (with a
// warning there); use Promote to pick a lossless target.
func Convert(v Value, to DType) (Value, error) {
	if v.dt == to {
		return v, nil
	}
	switch to {
	case Float32:
		return convertTo[float32](v)
	case Float64:
		return convertTo[float64](v)
	case Complex64:
		return convertTo[complex64](v)
	case Complex128:
		return convertTo[complex128](v)
	}
	return Value{}, newError("Convert", "to", "f32, f64, c64 or c128", to.String(), ErrDType)
}

func convertTo[U Scalar](v Value) (Value, error) {
	switch t := v.t.(type) {
	case *Tensor[float32]:
		return convertTensor[U](t)
	case *Tensor[float64]:
		return convertTensor[U](t)
	case *Tensor[complex64]:
		return convertTensor[U](t)
	case *Tensor[complex128]:
		return convertTensor[U](t)
	}
	return Value{}, newError("Convert", "value", "a tensor", "an empty Value", ErrArgument)
}

func convertTensor[U, T Scalar](t *Tensor[T]) (Value, error) {
	if err := t.check("Convert", "value"); err != nil {
		return Value{}, err
	}
	c, err := t.Clone()
	if err != nil {
		return Value{}, err
	}
	out := WrapStorage(NewStorage(make([]U, c.Len()), nil), t.shape)
	for i, x := range c.st.buf {
		out.st.buf[i] = fromComplex128[U](toComplex128(x))
	}
	return ValueOf(out), nil
}
