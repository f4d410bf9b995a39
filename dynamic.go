package tenferro

import (
	"fmt"

	"github.com/tenferro-go/tenferro/backend"
)

// Value is a tensor whose element type is known only at run time: the
// form the CLI, .npy files and compiled programs use. It wraps a
// *Tensor[T] of any element type; the zero Value is empty (DType Invalid).
type Value struct {
	t dynamic // a *Tensor[T], or nil
}

// dynamic is what every *Tensor[T] offers without its type parameter.
type dynamic interface {
	DType() DType
	Shape() []int
	Strides() []int
	Offset() int
	Valid() bool
	Release() error
	String() string
	convert(to DType) (Value, error)
	overlapsWith(o dynamic) bool
	dataAny() (any, error)
}

func (t *Tensor[T]) dataAny() (any, error) { return t.Data() }

func (t *Tensor[T]) overlapsWith(o dynamic) bool {
	u, ok := o.(*Tensor[T])
	return ok && overlaps(t, u)
}

// ValueOf wraps t.
func ValueOf[T Elem](t *Tensor[T]) Value {
	if t == nil {
		return Value{}
	}
	return Value{t: t}
}

// As returns the typed tensor inside v, or an ErrDType error when v holds
// another element type.
func As[T Elem](v Value) (*Tensor[T], error) {
	t, ok := v.t.(*Tensor[T])
	if !ok {
		return nil, newError("As", "value", "a "+DTypeOf[T]().String()+" tensor", "a "+v.DType().String()+" tensor", ErrDType)
	}
	return t, nil
}

// DType returns the element type (Invalid for the zero Value).
func (v Value) DType() DType {
	if v.t == nil {
		return Invalid
	}
	return v.t.DType()
}

// Tensor returns the wrapped *Tensor[T] as an interface (nil when empty).
func (v Value) Tensor() any {
	if v.t == nil {
		return nil
	}
	return v.t
}

// Shape returns the extents (nil when empty). Do not modify the slice.
func (v Value) Shape() []int {
	if v.t == nil {
		return nil
	}
	return v.t.Shape()
}

// Strides returns the element strides (nil when empty). Do not modify the
// slice.
func (v Value) Strides() []int {
	if v.t == nil {
		return nil
	}
	return v.t.Strides()
}

// Overlaps reports whether v and w are views of one storage whose ranges of
// storage indices intersect (the test of the destination rule, see
// Destinations in the package documentation).
func (v Value) Overlaps(w Value) bool { return v.t != nil && w.t != nil && v.t.overlapsWith(w.t) }

// Data returns the elements of a compact tensor in column-major order as a
// []T for v's element type (see Tensor.Data: ErrLayout for strided views).
func (v Value) Data() (any, error) {
	if v.t == nil {
		return nil, newError("Data", "value", "a tensor", "an empty Value", ErrArgument)
	}
	return v.t.dataAny()
}

// Valid reports whether v holds a live tensor.
func (v Value) Valid() bool { return v.t != nil && v.t.Valid() }

// Release releases the wrapped tensor (see Tensor.Release).
func (v Value) Release() error {
	if v.t == nil {
		return newError("Release", "value", "a tensor", "an empty Value", ErrArgument)
	}
	return v.t.Release()
}

// String formats the wrapped tensor.
func (v Value) String() string {
	if v.t == nil {
		return "Value(empty)"
	}
	return v.t.String()
}

// newValue makes a zero-filled tensor of one dtype.
var newValue = [...]func(shape []int) (Value, error){
	Float32:    zerosValue[float32],
	Float64:    zerosValue[float64],
	Complex64:  zerosValue[complex64],
	Complex128: zerosValue[complex128],
	Int64:      zerosValue[int64],
	Bool:       zerosValue[bool],
}

func zerosValue[T Elem](shape []int) (Value, error) {
	t, err := Zeros[T](shape...)
	if err != nil {
		return Value{}, err
	}
	return ValueOf(t), nil
}

// NewValue returns a zero-filled compact tensor of dtype dt.
func NewValue(dt DType, shape ...int) (Value, error) {
	if !dt.Valid() {
		return Value{}, newError("NewValue", "dtype", "a valid dtype", dt.String(), ErrDType)
	}
	return newValue[dt](shape)
}

// Convert returns a new compact tensor holding v's elements as dtype to
// (v itself, not a copy, when the dtype already matches). Conversions
// follow NumPy's astype: complex to real keeps the real part, floating to
// int64 truncates toward zero, anything to bool tests for non-zero, bool
// to a number gives 0 or 1. Use Promote to pick a lossless target.
func Convert(v Value, to DType) (Value, error) {
	if v.t == nil {
		return Value{}, newError("Convert", "value", "a tensor", "an empty Value", ErrArgument)
	}
	if !to.Valid() {
		return Value{}, newError("Convert", "to", "a valid dtype", to.String(), ErrDType)
	}
	if v.DType() == to {
		return v, nil
	}
	return v.t.convert(to)
}

// convert implements Convert for t.
func (t *Tensor[T]) convert(to DType) (Value, error) {
	if err := t.check("Convert", "value"); err != nil {
		return Value{}, err
	}
	return convertTo[to](t.Clone()) // element order is column-major in the clone
}

// convertTo converts a compact tensor of one dtype to each dtype.
var convertTo = [...]func(c any, err error) (Value, error){
	Float32:    convertTensor[float32],
	Float64:    convertTensor[float64],
	Complex64:  convertTensor[complex64],
	Complex128: convertTensor[complex128],
	Int64:      convertTensor[int64],
	Bool:       convertTensor[bool],
}

func convertTensor[U Elem](c any, err error) (Value, error) {
	if err != nil {
		return Value{}, err
	}
	src := c.(elements)
	if _, err := checkNew[U]("Convert", src.Shape()); err != nil {
		return Value{}, err
	}
	out := make([]U, src.Len())
	for i := range out {
		out[i] = castFrom[U](src.elem(i))
	}
	return ValueOf(wrap(backend.NewStorage(out, nil), src.Shape())), nil
}

// elements reads the i-th stored element of a compact tensor as a
// complex128 (bool as 0 or 1).
type elements interface {
	Len() int
	Shape() []int
	elem(i int) complex128
}

func (t *Tensor[T]) elem(i int) complex128 { return widen(t.st.Buf()[t.v.Off+i]) }

// widen returns v as a complex128 (bool as 0 or 1).
func widen[T Elem](v T) complex128 {
	switch x := any(v).(type) {
	case float32:
		return complex(float64(x), 0)
	case float64:
		return complex(x, 0)
	case complex64:
		return complex128(x)
	case complex128:
		return x
	case int64:
		return complex(float64(x), 0)
	case bool:
		if x {
			return 1
		}
	}
	return 0
}

// castFrom converts c to U as NumPy's astype does.
func castFrom[U Elem](c complex128) U {
	var z U
	switch any(z).(type) {
	case int64:
		return any(int64(real(c))).(U)
	case bool:
		return any(c != 0).(U)
	case float32:
		return any(float32(real(c))).(U)
	case float64:
		return any(real(c)).(U)
	case complex64:
		return any(complex64(c)).(U)
	case complex128:
		return any(c).(U)
	}
	panic(fmt.Sprintf("tenferro: no conversion to %T", z))
}
