package enginetest_test

import (
	"fmt"
	"math"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/backend/enginetest"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/internal/op"
)

// Each visits the multi-indices of a shape in column-major order.
func ExampleEach() {
	enginetest.Each([]int{2, 3}, func(idx []int) { fmt.Print(idx) })
	fmt.Println()
	// Output: [0 0][1 0][0 1][1 1][0 2][1 2]
}

// Dense reads any view through its strides, in logical column-major order.
func ExampleDense() {
	a, _ := tf.FromRowMajor([]float64{1, 2, 3, 4}, 2, 2)
	at, _ := a.Transpose()
	fmt.Println(enginetest.Dense(a), enginetest.Dense(at))
	// Output: [(1+0i) (3+0i) (2+0i) (4+0i)] [(1+0i) (2+0i) (3+0i) (4+0i)]
}

// The layouts the suite feeds to every operation, with the shape of the
// tensor that holds each view.
func ExampleLayoutBase() {
	for kind := range enginetest.NumLayouts {
		fmt.Println(enginetest.LayoutName(kind), enginetest.LayoutBase([]int{2, 3}, kind, 1))
	}
	// Output:
	// compact [2 3]
	// transposed [3 2]
	// reversed [2 3]
	// stepped [5 7]
}

func ExampleLayoutName() {
	fmt.Println(enginetest.LayoutName(enginetest.Reversed))
	// Output: reversed
}

// A stepped view of a 2×3 shape: every second element of a 5×7 tensor.
func ExampleLayoutView() {
	base := enginetest.LayoutBase([]int{2, 3}, enginetest.Stepped, 1)
	x, _ := tf.ArangeN[float64](tf.Numel(base))
	x, _ = x.Reshape(base...)
	v, _ := enginetest.LayoutView(x, enginetest.Stepped, 1)
	fmt.Println(v.Shape(), v.Strides())
	fmt.Println(v)
	// Output:
	// [2 3] [2 10]
	// Tensor[f64] (2, 3)
	// [[ 6 16 26]
	//  [ 8 18 28]]
}

// Near compares within an absolute tolerance and treats equal non-finite
// values as equal.
func ExampleNear() {
	fmt.Println(enginetest.Near(1+1e-13, 1, 1e-12), enginetest.Near(1.1, 1, 1e-12))
	nan := complex(math.NaN(), 0)
	fmt.Println(enginetest.Near(nan, nan, 0), enginetest.Near(complex(math.Inf(1), 0), complex(math.Inf(1), 0), 0))
	// Output:
	// true false
	// true true
}

// Ref is the catalog's reference of one elementwise operation, the value an
// engine's kernel is checked against.
func ExampleRef() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float64{2}, 1)
	y, _ := tf.Sqrt(e, x)
	defer y.Release()
	got, _ := y.At(0)
	want := enginetest.Ref[float64](op.Sqrt, 2, 0, 0, 0)
	tol := 4 * enginetest.UnitRoundoff[float64]() * real(want)
	fmt.Println(enginetest.Near(complex(got, 0), want, tol))
	// Output: true
}

func ExampleUnitRoundoff() {
	fmt.Println(enginetest.UnitRoundoff[float32]() == 0x1p-24, enginetest.UnitRoundoff[complex128]() == 0x1p-53)
	// Output: true true
}

// The naive evaluation of an einsum, here A·A, with Σ|term| per element:
// the scale of its rounding error where terms cancel.
func ExampleEinsumReference() {
	a := []complex128{1, 3, -2, 4} // [[1 -2] [3 4]], column-major
	ref := enginetest.EinsumReference("ij,jk->ik", [][]int{{2, 2}, {2, 2}}, [][]complex128{a, a})
	fmt.Println(ref.Shape, real(ref.Val[0]), real(ref.Val[1]), real(ref.Val[2]), real(ref.Val[3]))
	fmt.Println(ref.Abs)
	// Output:
	// [2 2] -5 15 -10 10
	// [7 15 10 22]
}
