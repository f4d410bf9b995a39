package tenferro_test

import (
	"fmt"
	"math"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
)

func ExampleCeil() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float64{-1.5, 0.2, 2}, 3)
	y, _ := tf.Ceil(e, x)
	defer y.Release()
	d, _ := y.Data()
	fmt.Println(d)
	// Output: [-1 1 2]
}

func ExampleCeilInto() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float32{0.5, 1.5}, 2)
	_ = tf.CeilInto(e, x, x) // in place
	d, _ := x.Data()
	fmt.Println(d)
	// Output: [1 2]
}

func ExampleFloor() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float64{-1.5, 0.2, 2}, 3)
	y, _ := tf.Floor(e, x)
	defer y.Release()
	d, _ := y.Data()
	fmt.Println(d)
	// Output: [-2 0 2]
}

func ExampleFloorInto() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float64{-0.5, 3.99}, 2)
	dst, _ := tf.Zeros[float64](2)
	_ = tf.FloorInto(e, dst, x)
	d, _ := dst.Data()
	fmt.Println(d)
	// Output: [-1 3]
}

// Halves round to the even neighbour, as NumPy's round; the sign of a
// zero result is kept.
func ExampleRound() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float64{0.5, 1.5, 2.5, -0.5, 2.6}, 5)
	y, _ := tf.Round(e, x)
	defer y.Release()
	d, _ := y.Data()
	fmt.Println(d)
	// Output: [0 2 2 -0 3]
}

func ExampleRoundInto() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float32{-1.4, -1.6}, 2)
	dst, _ := tf.Zeros[float32](2)
	_ = tf.RoundInto(e, dst, x)
	d, _ := dst.Data()
	fmt.Println(d)
	// Output: [-1 -2]
}

func ExampleTrunc() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float64{-1.7, 1.7, 3}, 3)
	y, _ := tf.Trunc(e, x)
	defer y.Release()
	d, _ := y.Data()
	fmt.Println(d)
	// Output: [-1 1 3]
}

func ExampleTruncInto() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float64{2.5, -2.5}, 2)
	dst, _ := tf.Zeros[float64](2)
	_ = tf.TruncInto(e, dst, x)
	d, _ := dst.Data()
	fmt.Println(d)
	// Output: [2 -2]
}

// NaN stays NaN, as in NumPy's clip.
func ExampleClip() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float64{-2, 0.5, 3, math.NaN()}, 4)
	y, _ := tf.Clip(e, x, 0, 1)
	defer y.Release()
	d, _ := y.Data()
	fmt.Println(d)
	// Output: [0 0.5 1 NaN]
}

func ExampleClipInto() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float32{-5, 5, 50}, 3)
	_ = tf.ClipInto(e, x, x, -10, 10) // in place
	d, _ := x.Data()
	fmt.Println(d)
	// Output: [-5 5 10]
}

func ExampleSign() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float64{-3, 0, 2}, 3)
	y, _ := tf.Sign(e, x)
	defer y.Release()
	d, _ := y.Data()
	fmt.Println(d)
	// Output: [-1 0 1]
}

// The sign of a complex number is z/|z|, on the unit circle.
func ExampleSignInto() {
	e := cpu.Serial()
	defer e.Close()
	z, _ := tf.FromSlice([]complex128{3 + 4i, -2i}, 2)
	dst, _ := tf.Zeros[complex128](2)
	_ = tf.SignInto(e, dst, z)
	d, _ := dst.Data()
	fmt.Printf("%.4g\n", d)
	// Output: [(0.6+0.8i) (0-1i)]
}

func ExampleNegate() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float64{1, -2, 0}, 3)
	y, _ := tf.Negate(e, x)
	defer y.Release()
	d, _ := y.Data()
	fmt.Println(d)
	// Output: [-1 2 -0]
}

func ExampleNegateInto() {
	e := cpu.Serial()
	defer e.Close()
	z, _ := tf.FromSlice([]complex64{1 + 2i}, 1)
	_ = tf.NegateInto(e, z, z) // in place
	v, _ := z.At(0)
	fmt.Println(v)
	// Output: (-1-2i)
}

func ExampleRelu() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float64{-1, 0, 2, math.NaN()}, 4)
	y, _ := tf.Relu(e, x)
	defer y.Release()
	d, _ := y.Data()
	fmt.Println(d)
	// Output: [0 0 2 NaN]
}

func ExampleReluInto() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromRowMajor([]float32{-1, 2, 3, -4}, 2, 2)
	_ = tf.ReluInto(e, x, x) // in place
	fmt.Println(x)
	// Output:
	// Tensor[f32] (2, 2)
	// [[0 2]
	//  [3 0]]
}

func ExampleSigmoid() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float64{0, 2, -2, -1000}, 4)
	y, _ := tf.Sigmoid(e, x) // no overflow for large |x|
	defer y.Release()
	d, _ := y.Data()
	fmt.Printf("%.4f\n", d)
	// Output: [0.5000 0.8808 0.1192 0.0000]
}

func ExampleSigmoidInto() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float32{float32(math.Inf(1))}, 1)
	dst, _ := tf.Zeros[float32](1)
	_ = tf.SigmoidInto(e, dst, x)
	v, _ := dst.At(0)
	fmt.Println(v)
	// Output: 1
}

// Gelu(x) = x·Φ(x), with Φ the standard normal distribution function.
func ExampleGelu() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float64{-1, 0, 1, 3}, 4)
	y, _ := tf.Gelu(e, x)
	defer y.Release()
	d, _ := y.Data()
	fmt.Printf("%.4f\n", d)
	// Output: [-0.1587 0.0000 0.8413 2.9960]
}

func ExampleGeluInto() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float32{2}, 1)
	dst, _ := tf.Zeros[float32](1)
	_ = tf.GeluInto(e, dst, x)
	v, _ := dst.At(0)
	fmt.Printf("%.4f\n", v)
	// Output: 1.9545
}
