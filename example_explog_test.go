package tenferro_test

import (
	"fmt"
	"math"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
)

func ExampleExp() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float64{0, 1, 2}, 3)
	y, _ := tf.Exp(e, x)
	defer y.Release()
	d, _ := y.Data()
	fmt.Printf("%.4f\n", d)
	// Output: [1.0000 2.7183 7.3891]
}

// Euler's formula: e^(iπ) = -1.
func ExampleExpInto() {
	e := cpu.Serial()
	defer e.Close()
	z, _ := tf.FromSlice([]complex128{complex(0, math.Pi)}, 1)
	dst, _ := tf.Zeros[complex128](1)
	_ = tf.ExpInto(e, dst, z)
	v, _ := dst.At(0)
	fmt.Printf("%.4f %t\n", real(v), math.Abs(imag(v)) < 1e-15)
	// Output: -1.0000 true
}

// Expm1 keeps the digits that e^x - 1 loses to cancellation.
func ExampleExpm1() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float64{1e-10}, 1)
	y, _ := tf.Expm1(e, x)
	defer y.Release()
	v, _ := y.At(0)
	fmt.Printf("%.12g %.12g\n", v, math.Exp(1e-10)-1)
	// Output: 1.00000000005e-10 1.00000008274e-10
}

func ExampleExpm1Into() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float32{0, 1}, 2)
	dst, _ := tf.Zeros[float32](2)
	_ = tf.Expm1Into(e, dst, x)
	d, _ := dst.Data()
	fmt.Printf("%.4f\n", d)
	// Output: [0.0000 1.7183]
}

// The natural logarithm: -Inf at 0 and NaN for negative reals.
func ExampleLog() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float64{1, math.E, 100, 0, -1}, 5)
	y, _ := tf.Log(e, x)
	defer y.Release()
	d, _ := y.Data()
	fmt.Printf("%.4f\n", d)
	// Output: [0.0000 1.0000 4.6052 -Inf NaN]
}

// The principal logarithm of a negative number is complex: log(-1) = iπ.
func ExampleLogInto() {
	e := cpu.Serial()
	defer e.Close()
	z, _ := tf.FromSlice([]complex128{-1}, 1)
	dst, _ := tf.Zeros[complex128](1)
	_ = tf.LogInto(e, dst, z)
	v, _ := dst.At(0)
	fmt.Printf("%.4f\n", v)
	// Output: (0.0000+3.1416i)
}

// Log1p(x) = log(1 + x), accurate where 1 + x rounds to 1.
func ExampleLog1p() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float64{1e-10, 1e-20}, 2)
	y, _ := tf.Log1p(e, x)
	defer y.Release()
	d, _ := y.Data()
	fmt.Printf("%.11g %g\n", d, math.Log(1+1e-20))
	// Output: [9.9999999995e-11 1e-20] 0
}

func ExampleLog1pInto() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float64{0, math.E - 1}, 2)
	dst, _ := tf.Zeros[float64](2)
	_ = tf.Log1pInto(e, dst, x)
	d, _ := dst.Data()
	fmt.Printf("%.4f\n", d)
	// Output: [0.0000 1.0000]
}

func ExampleSqrt() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float64{1, 4, 9, 2}, 4)
	y, _ := tf.Sqrt(e, x)
	defer y.Release()
	d, _ := y.Data()
	fmt.Printf("%.4g\n", d)
	// Output: [1 2 3 1.414]
}

// The principal square root of a complex number: sqrt(-4) = 2i.
func ExampleSqrtInto() {
	e := cpu.Serial()
	defer e.Close()
	z, _ := tf.FromSlice([]complex128{-4, 2i}, 2)
	dst, _ := tf.Zeros[complex128](2)
	_ = tf.SqrtInto(e, dst, z)
	d, _ := dst.Data()
	fmt.Printf("%.4g\n", d)
	// Output: [(0+2i) (1+1i)]
}

func ExampleRsqrt() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float64{1, 4, 16}, 3)
	y, _ := tf.Rsqrt(e, x)
	defer y.Release()
	d, _ := y.Data()
	fmt.Printf("%.4g\n", d)
	// Output: [1 0.5 0.25]
}

func ExampleRsqrtInto() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float32{2, 0}, 2)
	dst, _ := tf.Zeros[float32](2)
	_ = tf.RsqrtInto(e, dst, x) // 1/sqrt(0) is +Inf
	d, _ := dst.Data()
	fmt.Printf("%.4f\n", d)
	// Output: [0.7071 +Inf]
}

func ExampleSquare() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float64{1, -2, 3}, 3)
	y, _ := tf.Square(e, x)
	defer y.Release()
	d, _ := y.Data()
	fmt.Println(d)
	// Output: [1 4 9]
}

// Square is z·z, not |z|²: (1+i)² = 2i.
func ExampleSquareInto() {
	e := cpu.Serial()
	defer e.Close()
	z, _ := tf.FromSlice([]complex128{1 + 1i, 2}, 2)
	_ = tf.SquareInto(e, z, z) // in place
	d, _ := z.Data()
	fmt.Println(d)
	// Output: [(0+2i) (4+0i)]
}

func ExampleReciprocal() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float64{1, 2, 4, 0}, 4)
	y, _ := tf.Reciprocal(e, x)
	defer y.Release()
	d, _ := y.Data()
	fmt.Println(d)
	// Output: [1 0.5 0.25 +Inf]
}

func ExampleReciprocalInto() {
	e := cpu.Serial()
	defer e.Close()
	z, _ := tf.FromSlice([]complex128{1i, 2}, 2)
	dst, _ := tf.Zeros[complex128](2)
	_ = tf.ReciprocalInto(e, dst, z)
	d, _ := dst.Data()
	fmt.Printf("%.4g\n", d)
	// Output: [(0-1i) (0.5+0i)]
}

// Pow broadcasts: a Const exponent applies to every element.
func ExamplePow() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float64{2, 3, 4, -8}, 4)
	y, _ := tf.Pow(e, x, tf.Const(2.0))
	defer y.Release()
	r, _ := tf.Pow(e, x, tf.Const(1.0/3)) // NaN for a negative base
	defer r.Release()
	d, _ := y.Data()
	dr, _ := r.Data()
	fmt.Printf("%v %.4f\n", d, dr)
	// Output: [4 9 16 64] [1.2599 1.4422 1.5874 NaN]
}

// Exponents per element, and a complex power: i^2 = -1.
func ExamplePowInto() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromSlice([]float64{2, 2, 2}, 3)
	b, _ := tf.FromSlice([]float64{0, -1, 10}, 3)
	dst, _ := tf.Zeros[float64](3)
	_ = tf.PowInto(e, dst, a, b)
	d, _ := dst.Data()
	z, _ := tf.FromSlice([]complex128{1i}, 1)
	_ = tf.PowInto(e, z, z, tf.Const(complex128(2)))
	v, _ := z.At(0)
	fmt.Printf("%v %.4f\n", d, real(v))
	// Output: [1 0.5 1024] -1.0000
}

func ExampleErfInto() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float32{0, 1, float32(math.Inf(-1))}, 3)
	dst, _ := tf.Zeros[float32](3)
	_ = tf.ErfInto(e, dst, x)
	d, _ := dst.Data()
	fmt.Printf("%.4f\n", d)
	// Output: [0.0000 0.8427 -1.0000]
}

func ExampleErfcInto() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float64{-1, 1, 5}, 3)
	_ = tf.ErfcInto(e, x, x) // in place
	d, _ := x.Data()
	fmt.Printf("%.6g\n", d)
	// Output: [1.8427 0.157299 1.53746e-12]
}
