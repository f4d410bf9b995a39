package vmath_test

import (
	"fmt"
	"math"

	"github.com/tenferro-go/tenferro/internal/kernel/vmath"
)

func ExampleExp() {
	x := []float64{-1, 0, 1, 710}
	vmath.Exp(x, x) // in place
	fmt.Println(x)
	// Output: [0.36787944117144233 1 2.718281828459045 +Inf]
}

func ExampleExpm1() {
	x := []float64{1e-10, -0.5}
	y := make([]float64, len(x))
	vmath.Expm1(y, x)
	fmt.Println(y)
	// Output: [1.00000000005e-10 -0.3934693402873666]
}

func ExampleLog() {
	x := []float32{1, 2, 0, -1}
	y := make([]float32, len(x))
	vmath.Log(y, x)
	fmt.Println(y)
	// Output: [0 0.6931472 -Inf NaN]
}

func ExampleLog1p() {
	x := []float64{1e-10, -1}
	y := make([]float64, len(x))
	vmath.Log1p(y, x)
	fmt.Println(y)
	// Output: [9.999999999500001e-11 -Inf]
}

func ExampleTanh() {
	x := []float32{-30, -0.5, 0, 0.5}
	y := make([]float32, len(x))
	vmath.Tanh(y, x)
	fmt.Println(y)
	// Output: [-1 -0.46211717 0 0.46211717]
}

func ExampleSigmoid() {
	x := []float64{-800, 0, 2}
	y := make([]float64, len(x))
	vmath.Sigmoid(y, x)
	fmt.Println(y)
	// Output: [0 0.5 0.8807970779778824]
}

func ExampleSin() {
	x := []float64{0.5, 1e300} // the second beyond the fast path
	y := make([]float64, len(x))
	vmath.Sin(y, x)
	fmt.Println(y)
	// Output: [0.479425538604203 -0.8178819121159087]
}

func ExampleCos() {
	x := []float32{0, 3.1415927}
	y := make([]float32, len(x))
	vmath.Cos(y, x)
	fmt.Println(y)
	// Output: [1 -1]
}

func ExampleSqrt() {
	x := []float64{2, math.Copysign(0, -1), -1}
	y := make([]float64, len(x))
	vmath.Sqrt(y, x)
	fmt.Println(y)
	// Output: [1.4142135623730951 -0 NaN]
}

// The pure-Go variant exists everywhere and returns the same bits as the
// assembly.
func ExampleSetVariant() {
	prev, err := vmath.SetVariant("generic")
	if err != nil {
		panic(err)
	}
	defer vmath.SetVariant(prev)
	x := []float64{1}
	vmath.Exp(x, x)
	fmt.Println(vmath.ActiveVariant(), x[0])
	// Output: generic 2.718281828459045
}

func ExampleVariants() {
	vs := vmath.Variants()
	fmt.Println(vs[len(vs)-1])
	// Output: {generic true}
}

func ExampleActiveVariant() {
	_, err := vmath.SetVariant("sse9")
	fmt.Println(err != nil, vmath.ActiveVariant() != "")
	// Output: true true
}
