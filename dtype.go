package tenferro

import (
	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/internal/op"
)

// Scalar is the set of arithmetic element types: the types every numeric
// operation accepts.
type Scalar interface {
	float32 | float64 | complex64 | complex128
}

// Float is the set of real floating-point element types: the types of
// operations defined for real numbers only (Maximum, Sigmoid, Floor, ...).
type Float interface {
	float32 | float64
}

// Elem is the set of element types a [Tensor] can hold: the [Scalar] types,
// int64 (the index type: indices, counts, ArgMax results) and bool (masks
// and comparison results). int64 and bool tensors can be built, viewed,
// copied and released like any other, but arithmetic needs a Scalar.
type Elem interface {
	Scalar | int64 | bool
}

// DType names an element type at run time. Its zero value is [Invalid].
type DType uint8

// The element types.
const (
	Invalid    = DType(op.InvalidDType)
	Float32    = DType(op.Float32)
	Float64    = DType(op.Float64)
	Complex64  = DType(op.Complex64)
	Complex128 = DType(op.Complex128)
	Int64      = DType(op.Int64)
	Bool       = DType(op.Bool)
)

// DTypes lists every valid dtype: the arithmetic ones in promotion order,
// then int64 and bool.
var DTypes = []DType{Float32, Float64, Complex64, Complex128, Int64, Bool}

// ScalarDTypes lists the arithmetic dtypes (those of [Scalar]) in promotion
// order.
var ScalarDTypes = []DType{Float32, Float64, Complex64, Complex128}

// String returns the short name used by the CLI and in errors: f32, f64,
// c64, c128, i64 or bool.
func (d DType) String() string { return op.DType(d).String() }

// Size is the number of bytes of one element (0 for Invalid).
func (d DType) Size() int { return op.DType(d).Size() }

// IsComplex reports whether d is complex64 or complex128.
func (d DType) IsComplex() bool { return op.DType(d).IsComplex() }

// IsNumber reports whether d is one of the four arithmetic dtypes.
func (d DType) IsNumber() bool { return op.DType(d).IsNumber() }

// Valid reports whether d names an element type.
func (d DType) Valid() bool { return op.DType(d).Valid() }

// Real returns the real dtype of the same precision (Float32 for Complex64,
// Float64 for Complex128) and d itself for every other dtype. Operations
// whose results are real (absolute values, norms, singular values,
// Hermitian eigenvalues) return it.
func (d DType) Real() DType { return DType(op.DType(d).Real()) }

// Complex returns the complex dtype of the same precision (Complex64 for
// Float32, Complex128 for Float64 and Int64), d itself for a complex d,
// and Invalid for Bool and Invalid. [Complex] returns it for real parts of
// dtype d.
func (d DType) Complex() DType { return DType(op.DType(d).Complex()) }

// ParseDType accepts the short names (f32, f64, c64, c128, i64, bool) and
// the long ones (float32, float64, complex64, complex128, int64).
func ParseDType(s string) (DType, error) {
	if d, ok := op.ParseDType(s); ok {
		return DType(d), nil
	}
	return Invalid, newError("ParseDType", "dtype", "one of f32, f64, c64, c128, i64, bool", `"`+s+`"`, ErrDType)
}

// Promote returns the dtype that holds values of both a and b, as NumPy
// promotes: bool < int64 < floating < complex, at the wider precision (so
// float64 with complex64 gives complex128, and int64 with float32 gives
// float64). See the table in the package documentation.
func Promote(a, b DType) DType { return DType(op.Promote(op.DType(a), op.DType(b))) }

// DTypeOf returns the dtype of the element type T.
func DTypeOf[T Elem]() DType { return DType(backend.DTypeOf[T]()) }

// code returns the catalog's dtype code of T.
func code[T Elem]() op.DType { return backend.DTypeOf[T]() }

// one returns the value 1 of T (true for bool).
func one[T Elem]() T {
	var z T
	switch any(z).(type) {
	case bool:
		return any(true).(T)
	case int64:
		return any(int64(1)).(T)
	case float32:
		return any(float32(1)).(T)
	case float64:
		return any(float64(1)).(T)
	case complex64:
		return any(complex64(1)).(T)
	case complex128:
		return any(complex128(1)).(T)
	}
	return z
}
