package tenferro_test

import (
	"fmt"
	"math"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
)

// The result's element type, the real type of the input's, is the first
// type argument.
func ExampleAbs() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float64{-1, 2, -3}, 3)
	ax, _ := tf.Abs[float64](e, x)
	defer ax.Release()
	z, _ := tf.FromSlice([]complex128{3 + 4i, -5i}, 2)
	az, _ := tf.Abs[float64](e, z) // the modulus
	defer az.Release()
	d1, _ := ax.Data()
	d2, _ := az.Data()
	fmt.Println(d1, d2)
	// Output: [1 2 3] [5 5]
}

// The modulus avoids overflow where re² + im² would not fit.
func ExampleAbsInto() {
	e := cpu.Serial()
	defer e.Close()
	z, _ := tf.FromSlice([]complex64{3e30 + 4e30i}, 1)
	dst, _ := tf.Zeros[float32](1)
	_ = tf.AbsInto(e, dst, z)
	v, _ := dst.At(0)
	fmt.Println(v)
	// Output: 5e+30
}

func ExampleAngle() {
	e := cpu.Serial()
	defer e.Close()
	z, _ := tf.FromSlice([]complex128{1, 1i, -1, -1i}, 4)
	a, _ := tf.Angle[float64](e, z)
	defer a.Release()
	d, _ := a.Data()
	fmt.Printf("%.4f\n", d)
	// Output: [0.0000 1.5708 3.1416 -1.5708]
}

// For real inputs the angle is 0, or π for negative numbers.
func ExampleAngleInto() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float64{2, -2}, 2)
	dst, _ := tf.Zeros[float64](2)
	_ = tf.AngleInto(e, dst, x)
	d, _ := dst.Data()
	fmt.Println(d[0], d[1] == math.Pi)
	// Output: 0 true
}

func ExampleConj() {
	e := cpu.Serial()
	defer e.Close()
	z, _ := tf.FromSlice([]complex128{1 + 2i, 3 - 4i}, 2)
	c, _ := tf.Conj(e, z)
	defer c.Release()
	d, _ := c.Data()
	fmt.Println(d)
	// Output: [(1-2i) (3+4i)]
}

// The conjugate transpose Aᴴ: Conj of a transposed view.
func ExampleConjInto() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromRowMajor([]complex128{1i, 2, 3, 4i}, 2, 2)
	at, _ := a.Transpose()
	ah, _ := tf.Zeros[complex128](2, 2)
	_ = tf.ConjInto(e, ah, at)
	fmt.Println(ah)
	// Output:
	// Tensor[c128] (2, 2)
	// [[(0-1i) (3-0i)]
	//  [(2-0i) (0-4i)]]
}

func ExampleReal() {
	e := cpu.Serial()
	defer e.Close()
	z, _ := tf.FromSlice([]complex128{1 + 2i, 3 - 4i}, 2)
	r, _ := tf.Real[float64](e, z)
	defer r.Release()
	d, _ := r.Data()
	fmt.Println(d)
	// Output: [1 3]
}

func ExampleRealInto() {
	e := cpu.Serial()
	defer e.Close()
	z, _ := tf.FromSlice([]complex64{1.5 + 2i}, 1)
	dst, _ := tf.Zeros[float32](1)
	_ = tf.RealInto(e, dst, z)
	v, _ := dst.At(0)
	fmt.Println(v)
	// Output: 1.5
}

func ExampleImag() {
	e := cpu.Serial()
	defer e.Close()
	z, _ := tf.FromSlice([]complex128{1 + 2i, 3 - 4i}, 2)
	im, _ := tf.Imag[float64](e, z)
	defer im.Release()
	d, _ := im.Data()
	fmt.Println(d)
	// Output: [2 -4]
}

// The imaginary part of a real tensor is zero, whatever its values.
func ExampleImagInto() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float64{1, math.NaN()}, 2)
	dst, _ := tf.Full(7.0, 2)
	_ = tf.ImagInto(e, dst, x)
	d, _ := dst.Data()
	fmt.Println(d)
	// Output: [0 0]
}
