package trace_test

import (
	"errors"
	"fmt"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/trace"
)

// Elementwise operations record a result of the operand's shape; the
// dtype is the operand's except where the eager operation's is real or
// bool.

// The absolute value of a complex variable is real.
func ExampleTrace_Abs() {
	tr := trace.New()
	z, _ := tr.Input(tf.Complex64, 2, 3)
	a, _ := tr.Abs(z)
	fmt.Println(a.DType(), a.Shape())
	// Output: f32 [2 3]
}

func ExampleTrace_Acos() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float32, 4)
	y, _ := tr.Acos(x)
	fmt.Println(y.DType(), y.Shape())
	// Output: f32 [4]
}

// The argument of a complex variable is real.
func ExampleTrace_Angle() {
	tr := trace.New()
	z, _ := tr.Input(tf.Complex128, 3)
	a, _ := tr.Angle(z)
	fmt.Println(a.DType(), a.Shape())
	// Output: f64 [3]
}

// Complex variables take the principal value.
func ExampleTrace_Asin() {
	tr := trace.New()
	z, _ := tr.Input(tf.Complex128, 2)
	y, _ := tr.Asin(z)
	fmt.Println(y.DType(), y.Shape())
	// Output: c128 [2]
}

// Arithmetic needs a number dtype: int64 is refused.
func ExampleTrace_Atan() {
	tr := trace.New()
	i, _ := tr.Input(tf.Int64, 3)
	_, err := tr.Atan(i)
	fmt.Println(err)
	// Output: tenferro: Atan: a: dtype mismatch: expected f32, f64, c64 or c128, got i64
}

// Rounding needs a real dtype.
func ExampleTrace_Ceil() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 3)
	y, _ := tr.Ceil(x)
	z, _ := tr.Input(tf.Complex64, 3)
	_, err := tr.Ceil(z)
	fmt.Println(y.Shape())
	fmt.Println(err)
	// Output:
	// [3]
	// tenferro: Ceil: a: dtype mismatch: expected f32 or f64, got c64
}

// The conjugate of a real variable is a copy of it.
func ExampleTrace_Conj() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 2)
	z, _ := tr.Input(tf.Complex64, 2)
	cx, _ := tr.Conj(x)
	cz, _ := tr.Conj(z)
	fmt.Println(cx.DType(), cz.DType())
	// Output: f64 c64
}

func ExampleTrace_Cos() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64) // 0-d
	y, _ := tr.Cos(x)
	fmt.Println(y.DType(), y.Shape())
	// Output: f64 []
}

func ExampleTrace_Cosh() {
	tr := trace.New()
	x, _ := tr.Input(tf.Complex64, 5)
	y, _ := tr.Cosh(x)
	fmt.Println(y.DType(), y.Shape())
	// Output: c64 [5]
}

// Erfc needs a real dtype.
func ExampleTrace_Erfc() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float32, 3)
	y, _ := tr.Erfc(x)
	z, _ := tr.Input(tf.Complex128, 3)
	_, err := tr.Erfc(z)
	fmt.Println(y.DType(), errors.Is(err, tf.ErrDType))
	// Output: f32 true
}

// Bool variables are refused by arithmetic.
func ExampleTrace_Exp() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 2, 2)
	y, _ := tr.Exp(x)
	m, _ := tr.Input(tf.Bool, 2)
	_, err := tr.Exp(m)
	fmt.Println(y.Shape(), errors.Is(err, tf.ErrDType))
	// Output: [2 2] true
}

func ExampleTrace_Expm1() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 3)
	y, _ := tr.Expm1(x)
	fmt.Println(y.DType(), y.Shape())
	// Output: f64 [3]
}

func ExampleTrace_Floor() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float32, 2, 3)
	y, _ := tr.Floor(x)
	fmt.Println(y.DType(), y.Shape())
	// Output: f32 [2 3]
}

func ExampleTrace_Gelu() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float32, 8, 4)
	y, _ := tr.Gelu(x)
	fmt.Println(y.DType(), y.Shape())
	// Output: f32 [8 4]
}

// The imaginary part is real: zeros for a real variable.
func ExampleTrace_Imag() {
	tr := trace.New()
	z, _ := tr.Input(tf.Complex64, 3)
	x, _ := tr.Input(tf.Float64, 3)
	iz, _ := tr.Imag(z)
	ix, _ := tr.Imag(x)
	fmt.Println(iz.DType(), ix.DType())
	// Output: f32 f64
}

// Tests of values give bool variables.
func ExampleTrace_IsFinite() {
	tr := trace.New()
	z, _ := tr.Input(tf.Complex128, 4)
	m, _ := tr.IsFinite(z)
	fmt.Println(m.DType(), m.Shape())
	// Output: bool [4]
}

func ExampleTrace_IsInf() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float32, 2, 2)
	m, _ := tr.IsInf(x)
	fmt.Println(m.DType(), m.Shape())
	// Output: bool [2 2]
}

// A NaN mask feeds Where, for example to zero the NaNs.
func ExampleTrace_IsNaN() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 3)
	nan, _ := tr.IsNaN(x)
	zero, _ := tr.Full(tf.Float64, 0)
	y, _ := tr.Where(nan, zero, x)
	fmt.Println(nan.DType(), y.DType(), y.Shape())
	// Output: bool f64 [3]
}

func ExampleTrace_Log() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 3)
	y, _ := tr.Log(x)
	fmt.Println(y.DType(), y.Shape())
	// Output: f64 [3]
}

func ExampleTrace_Log1p() {
	tr := trace.New()
	x, _ := tr.Input(tf.Complex64, 3)
	y, _ := tr.Log1p(x)
	fmt.Println(y.DType(), y.Shape())
	// Output: c64 [3]
}

func ExampleTrace_Negate() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 2)
	y, _ := tr.Negate(x)
	fmt.Println(y.DType(), y.Shape())
	// Output: f64 [2]
}

// The real part of a complex variable is real.
func ExampleTrace_Real() {
	tr := trace.New()
	z, _ := tr.Input(tf.Complex64, 2, 2)
	r, _ := tr.Real(z)
	fmt.Println(r.DType(), r.Shape())
	// Output: f32 [2 2]
}

func ExampleTrace_Reciprocal() {
	tr := trace.New()
	x, _ := tr.Input(tf.Complex128, 3)
	y, _ := tr.Reciprocal(x)
	fmt.Println(y.DType(), y.Shape())
	// Output: c128 [3]
}

// Relu needs a real dtype.
func ExampleTrace_Relu() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float32, 16)
	y, _ := tr.Relu(x)
	z, _ := tr.Input(tf.Complex64, 16)
	_, err := tr.Relu(z)
	fmt.Println(y.Shape(), errors.Is(err, tf.ErrDType))
	// Output: [16] true
}

func ExampleTrace_Round() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 3)
	y, _ := tr.Round(x)
	fmt.Println(y.DType(), y.Shape())
	// Output: f64 [3]
}

func ExampleTrace_Rsqrt() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float32, 3)
	y, _ := tr.Rsqrt(x)
	fmt.Println(y.DType(), y.Shape())
	// Output: f32 [3]
}

func ExampleTrace_Sigmoid() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 2, 5)
	y, _ := tr.Sigmoid(x)
	fmt.Println(y.DType(), y.Shape())
	// Output: f64 [2 5]
}

func ExampleTrace_Sign() {
	tr := trace.New()
	z, _ := tr.Input(tf.Complex128, 3) // z/|z|, complex
	y, _ := tr.Sign(z)
	fmt.Println(y.DType(), y.Shape())
	// Output: c128 [3]
}

func ExampleTrace_Sin() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 3)
	y, _ := tr.Sin(x)
	fmt.Println(y.DType(), y.Shape())
	// Output: f64 [3]
}

func ExampleTrace_Sinh() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float32, 3)
	y, _ := tr.Sinh(x)
	fmt.Println(y.DType(), y.Shape())
	// Output: f32 [3]
}

func ExampleTrace_Sqrt() {
	tr := trace.New()
	x, _ := tr.Input(tf.Complex64, 3)
	y, _ := tr.Sqrt(x)
	fmt.Println(y.DType(), y.Shape())
	// Output: c64 [3]
}

func ExampleTrace_Square() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 2, 3)
	y, _ := tr.Square(x)
	fmt.Println(y.DType(), y.Shape())
	// Output: f64 [2 3]
}

func ExampleTrace_Tan() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 3)
	y, _ := tr.Tan(x)
	fmt.Println(y.DType(), y.Shape())
	// Output: f64 [3]
}

func ExampleTrace_Tanh() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float32, 4, 4)
	y, _ := tr.Tanh(x)
	fmt.Println(y.DType(), y.Shape())
	// Output: f32 [4 4]
}

func ExampleTrace_Trunc() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 3)
	y, _ := tr.Trunc(x)
	fmt.Println(y.DType(), y.Shape())
	// Output: f64 [3]
}

// The bounds are attributes of the node, not variables.
func ExampleTrace_Clip() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 3)
	y, _ := tr.Clip(x, 0, 1)
	g, _ := tr.Finish(y)
	fmt.Print(g)
	// Output:
	// %0 = Input f64[3]
	// %1 = Clip f64[3] args=[0] (0+0i),(1+0i)
	// outputs [1]
}

// The factor is complex128, converted to the variable's dtype; a real
// variable takes only a real factor.
func ExampleTrace_Scale() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 3)
	y, _ := tr.Scale(0.5, x)
	_, err := tr.Scale(1i, x)
	fmt.Println(y.DType(), y.Shape())
	fmt.Println(err)
	// Output:
	// f64 [3]
	// tenferro: Scale: alpha: dtype mismatch: expected a real factor for f64, got (0+1i)
}
