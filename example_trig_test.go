package tenferro_test

import (
	"fmt"
	"math"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
)

func ExampleSin() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float64{0, math.Pi / 6, math.Pi / 2}, 3)
	y, _ := tf.Sin(e, x)
	defer y.Release()
	d, _ := y.Data()
	fmt.Printf("%.4f\n", d)
	// Output: [0.0000 0.5000 1.0000]
}

// An Into form writes a caller-owned destination; an elementwise one may
// also write its input in place.
func ExampleSinInto() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float32{0, math.Pi / 2, -math.Pi / 2}, 3)
	_ = tf.SinInto(e, x, x)
	d, _ := x.Data()
	fmt.Printf("%.4f\n", d)
	// Output: [0.0000 1.0000 -1.0000]
}

func ExampleCos() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float64{0, math.Pi / 3, math.Pi}, 3)
	y, _ := tf.Cos(e, x)
	defer y.Release()
	d, _ := y.Data()
	fmt.Printf("%.4f\n", d)
	// Output: [1.0000 0.5000 -1.0000]
}

// Complex arguments: cos(iy) = cosh(y).
func ExampleCosInto() {
	e := cpu.Serial()
	defer e.Close()
	z, _ := tf.FromSlice([]complex128{0, 1i}, 2)
	dst, _ := tf.Zeros[complex128](2)
	_ = tf.CosInto(e, dst, z)
	v, _ := dst.At(1)
	fmt.Printf("%.4f %.4f\n", real(v), math.Cosh(1))
	// Output: 1.5431 1.5431
}

func ExampleTan() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float64{0, math.Pi / 4, -math.Pi / 4}, 3)
	y, _ := tf.Tan(e, x)
	defer y.Release()
	d, _ := y.Data()
	fmt.Printf("%.4f\n", d)
	// Output: [0.0000 1.0000 -1.0000]
}

func ExampleTanInto() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float64{math.Pi / 3}, 1)
	dst, _ := tf.Zeros[float64](1)
	_ = tf.TanInto(e, dst, x)
	v, _ := dst.At(0)
	fmt.Printf("%.4f %.4f\n", v, math.Sqrt(3))
	// Output: 1.7321 1.7321
}

func ExampleAsin() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float64{0, 0.5, 1, 2}, 4)
	y, _ := tf.Asin(e, x) // NaN outside [-1, 1]
	defer y.Release()
	d, _ := y.Data()
	fmt.Printf("%.4f\n", d)
	// Output: [0.0000 0.5236 1.5708 NaN]
}

// The principal value for a complex argument, also outside [-1, 1].
func ExampleAsinInto() {
	e := cpu.Serial()
	defer e.Close()
	z, _ := tf.FromSlice([]complex128{2}, 1)
	dst, _ := tf.Zeros[complex128](1)
	_ = tf.AsinInto(e, dst, z)
	v, _ := dst.At(0)
	fmt.Printf("%.4f\n", v)
	// Output: (1.5708+1.3170i)
}

func ExampleAcos() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float64{1, 0, -1}, 3)
	y, _ := tf.Acos(e, x)
	defer y.Release()
	d, _ := y.Data()
	fmt.Printf("%.4f\n", d)
	// Output: [0.0000 1.5708 3.1416]
}

func ExampleAcosInto() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float32{0.5, -0.5}, 2)
	dst, _ := tf.Zeros[float32](2)
	_ = tf.AcosInto(e, dst, x)
	d, _ := dst.Data()
	fmt.Printf("%.4f\n", d)
	// Output: [1.0472 2.0944]
}

func ExampleAtan() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float64{0, 1, -1, math.Inf(1)}, 4)
	y, _ := tf.Atan(e, x)
	defer y.Release()
	d, _ := y.Data()
	fmt.Printf("%.4f\n", d)
	// Output: [0.0000 0.7854 -0.7854 1.5708]
}

func ExampleAtanInto() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float64{math.Sqrt(3)}, 1)
	dst, _ := tf.Zeros[float64](1)
	_ = tf.AtanInto(e, dst, x)
	v, _ := dst.At(0)
	fmt.Printf("%.4f %.4f\n", v, math.Pi/3)
	// Output: 1.0472 1.0472
}

// Atan2(a, b) is the angle of the point (b, a): the quadrant comes from
// both signs.
func ExampleAtan2() {
	e := cpu.Serial()
	defer e.Close()
	y, _ := tf.FromSlice([]float64{1, 1, -1, -1}, 4)
	x, _ := tf.FromSlice([]float64{1, -1, -1, 0}, 4)
	a, _ := tf.Atan2(e, y, x)
	defer a.Release()
	d, _ := a.Data()
	fmt.Printf("%.4f\n", d)
	// Output: [0.7854 2.3562 -2.3562 -1.5708]
}

// The operands broadcast: one x for every y.
func ExampleAtan2Into() {
	e := cpu.Serial()
	defer e.Close()
	y, _ := tf.FromSlice([]float64{0, 1, -1}, 3)
	dst, _ := tf.Zeros[float64](3)
	_ = tf.Atan2Into(e, dst, y, tf.Const(1.0))
	d, _ := dst.Data()
	fmt.Printf("%.4f\n", d)
	// Output: [0.0000 0.7854 -0.7854]
}

func ExampleHypot() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromSlice([]float64{3, 5, 1e300}, 3)
	b, _ := tf.FromSlice([]float64{4, 12, 1e300}, 3)
	h, _ := tf.Hypot(e, a, b) // no overflow for 1e300
	defer h.Release()
	d, _ := h.Data()
	fmt.Printf("%.6g\n", d)
	// Output: [5 13 1.41421e+300]
}

func ExampleHypotInto() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromSlice([]float32{6, 8}, 2)
	dst, _ := tf.Zeros[float32](2)
	_ = tf.HypotInto(e, dst, a, tf.Const(float32(8)))
	d, _ := dst.Data()
	fmt.Printf("%.4g\n", d)
	// Output: [10 11.31]
}

func ExampleSinh() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float64{-1, 0, 1}, 3)
	y, _ := tf.Sinh(e, x)
	defer y.Release()
	d, _ := y.Data()
	fmt.Printf("%.4f\n", d)
	// Output: [-1.1752 0.0000 1.1752]
}

func ExampleSinhInto() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float64{math.Log(2)}, 1)
	dst, _ := tf.Zeros[float64](1)
	_ = tf.SinhInto(e, dst, x) // (2 - 1/2) / 2
	v, _ := dst.At(0)
	fmt.Printf("%.4f\n", v)
	// Output: 0.7500
}

func ExampleCosh() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float64{-1, 0, 1}, 3)
	y, _ := tf.Cosh(e, x)
	defer y.Release()
	d, _ := y.Data()
	fmt.Printf("%.4f\n", d)
	// Output: [1.5431 1.0000 1.5431]
}

func ExampleCoshInto() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float64{math.Log(2)}, 1)
	dst, _ := tf.Zeros[float64](1)
	_ = tf.CoshInto(e, dst, x) // (2 + 1/2) / 2
	v, _ := dst.At(0)
	fmt.Printf("%.4f\n", v)
	// Output: 1.2500
}

func ExampleTanh() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float64{-1, 0, 1, 1000}, 4)
	y, _ := tf.Tanh(e, x) // saturates at 1 without overflow
	defer y.Release()
	d, _ := y.Data()
	fmt.Printf("%.4f\n", d)
	// Output: [-0.7616 0.0000 0.7616 1.0000]
}

func ExampleTanhInto() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float32{0.5, -0.5}, 2)
	_ = tf.TanhInto(e, x, x) // in place
	d, _ := x.Data()
	fmt.Printf("%.4f\n", d)
	// Output: [0.4621 -0.4621]
}
