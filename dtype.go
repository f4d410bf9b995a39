package tenferro

import (
	"fmt"
	"math/cmplx"
)

// Scalar is the set of element types a [Tensor] can hold.
type Scalar interface {
	float32 | float64 | complex64 | complex128
}

// DType names an element type at run time. Its zero value is [Invalid].
type DType uint8

// The element types.
const (
	Invalid DType = iota
	Float32
	Float64
	Complex64
	Complex128
)

// DTypes lists every valid dtype in promotion order.
var DTypes = []DType{Float32, Float64, Complex64, Complex128}

// String returns the short name used by the CLI and in errors: f32, f64, c64, c128.
func (d DType) String() string {
	switch d {
	case Float32:
		return "f32"
	case Float64:
		return "f64"
	case Complex64:
		return "c64"
	case Complex128:
		return "c128"
	}
	return fmt.Sprintf("dtype(%d)", uint8(d))
}

// Size is the number of bytes of one element (0 for Invalid).
func (d DType) Size() int {
	switch d {
	case Float32:
		return 4
	case Float64, Complex64:
		return 8
	case Complex128:
		return 16
	}
	return 0
}

// IsComplex reports whether d is a complex dtype.
func (d DType) IsComplex() bool { return d == Complex64 || d == Complex128 }

// Valid reports whether d names one of the four element types.
func (d DType) Valid() bool { return d >= Float32 && d <= Complex128 }

// ParseDType accepts the short names (f32, f64, c64, c128) and the long ones
// (float32, float64, complex64, complex128).
func ParseDType(s string) (DType, error) {
	switch s {
	case "f32", "float32":
		return Float32, nil
	case "f64", "float64":
		return Float64, nil
	case "c64", "complex64":
		return Complex64, nil
	case "c128", "complex128":
		return Complex128, nil
	}
	return Invalid, newError("ParseDType", "dtype", "one of f32, f64, c64, c128", fmt.Sprintf("%q", s), ErrDType)
}

// Promote returns the dtype that holds both a and b without loss, as NumPy
// promotes: the wider precision, complex if either is complex (so float64
// with complex64 gives complex128).
func Promote(a, b DType) DType {
	if !a.Valid() || !b.Valid() {
		return Invalid
	}
	wide := a == Float64 || a == Complex128 || b == Float64 || b == Complex128
	cplx := a.IsComplex() || b.IsComplex()
	switch {
	case cplx && wide:
		return Complex128
	case cplx:
		return Complex64
	case wide:
		return Float64
	}
	return Float32
}

// DTypeOf returns the dtype of the element type T.
func DTypeOf[T Scalar]() DType {
	var z T
	switch any(z).(type) {
	case float32:
		return Float32
	case float64:
		return Float64
	case complex64:
		return Complex64
	case complex128:
		return Complex128
	}
	return Invalid
}

// toComplex128 widens any scalar to complex128 (for references and printing).
func toComplex128[T Scalar](v T) complex128 {
	switch x := any(v).(type) {
	case float32:
		return complex(float64(x), 0)
	case float64:
		return complex(x, 0)
	case complex64:
		return complex128(x)
	case complex128:
		return x
	}
	return 0
}

// fromComplex128 narrows a complex128 to T, dropping the imaginary part for
// real T.
func fromComplex128[T Scalar](c complex128) T {
	var z T
	switch any(z).(type) {
	case float32:
		return any(float32(real(c))).(T)
	case float64:
		return any(real(c)).(T)
	case complex64:
		return any(complex64(c)).(T)
	case complex128:
		return any(c).(T)
	}
	return z
}

// absOf returns |v| as a float64 for any scalar.
func absOf[T Scalar](v T) float64 { return cmplx.Abs(toComplex128(v)) }
