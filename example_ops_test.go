package tenferro_test

import (
	"errors"
	"fmt"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
)

// Axes may be negative (from the end) and come in any order.
func ExampleSumInto() {
	e := cpu.Serial()
	a, _ := tf.FromRowMajor([]float64{1, 2, 3, 4, 5, 6}, 2, 3)
	rows, _ := tf.Zeros[float64](2)
	_ = tf.SumInto(e, rows, a, -1)
	d, _ := rows.Data()
	fmt.Println(d)
	// Output: [6 15]
}

// Elementwise Into forms may update their input in place; other overlaps
// are refused.
func ExampleScaleInto() {
	e := cpu.Serial()
	x, _ := tf.FromSlice([]float64{1, 2, 3, 4}, 4)
	_ = tf.ScaleInto(e, x, 10, x) // in place
	d, _ := x.Data()
	head, _ := x.Slice(0, 0, 3, 1)
	tail, _ := x.Slice(0, 1, 4, 1)
	err := tf.ScaleInto(e, tail, 2, head) // partly overlapping
	fmt.Println(d, errors.Is(err, tf.ErrAlias))
	// Output: [10 20 30 40] true
}

// Accumulate sums into a destination without a temporary:
// dst = alpha·A·B + beta·dst.
func ExampleAccumulate() {
	e := cpu.Serial()
	a, _ := tf.FromRowMajor([]float64{1, 2, 3, 4}, 2, 2)
	id, _ := tf.FromRowMajor([]float64{1, 0, 0, 1}, 2, 2)
	acc, _ := tf.Ones[float64](2, 2)
	_ = tf.MatmulInto(e, acc, a, id, tf.Accumulate(2, 1)) // acc = 2·a + acc
	_ = tf.EinsumWithInto(e, acc, "ij,jk->ik", []*tf.Tensor[float64]{a, id}, tf.Accumulate(-1, 1))
	v, _ := acc.At(1, 0)
	fmt.Println(v) // 1 + 2·3 - 3
	// Output: 4
}

// Int64 and bool tensors can be built, viewed and copied; arithmetic needs
// a number type.
func ExampleCopy_bool() {
	e := cpu.Serial()
	m, _ := tf.FromRowMajor([]bool{true, false, false, true}, 2, 2)
	mt, _ := m.Transpose()
	c, _ := tf.Copy(e, mt)
	d, _ := c.Data()
	fmt.Println(d, tf.Promote(tf.Bool, tf.Int64), tf.Complex128.Real())
	// Output: [true false false true] i64 f64
}

// A Value holds a tensor of any dtype; Data returns its elements as a
// slice of that type.
func ExampleValue_Data() {
	x, _ := tf.FromSlice([]int64{3, 1, 4, 1, 5, 9}, 2, 3)
	v := tf.ValueOf(x)
	d, _ := v.Data()
	fmt.Println(v.DType(), v.Shape(), d.([]int64))
	// Output: i64 [2 3] [3 1 4 1 5 9]
}

// Complex builds complex numbers from their real and imaginary parts,
// which broadcast like the operands of any binary operation: here one
// imaginary part per column.
func ExampleComplex() {
	e := cpu.Serial()
	re, _ := tf.FromRowMajor([]float64{1, 2, 3, 4}, 2, 2)
	im, _ := tf.FromSlice([]float64{10, 20}, 1, 2)
	z, _ := tf.Complex[complex128](e, re, im)
	d, _ := z.Data() // column-major
	fmt.Println(z.DType(), d)
	// Output: c128 [(1+10i) (3+10i) (2+20i) (4+20i)]
}

// The result type is the complex type of the parts' precision: float32
// parts make complex64, and asking for another type is an ErrDType error.
func ExampleComplexInto() {
	e := cpu.Serial()
	re, _ := tf.FromSlice([]float32{1, 2, 3}, 3)
	z, _ := tf.Zeros[complex64](3)
	_ = tf.ComplexInto(e, z, re, tf.Const(float32(-1)))
	d, _ := z.Data()
	_, err := tf.Complex[complex128](e, re, re)
	fmt.Println(d, errors.Is(err, tf.ErrDType))
	// Output: [(1-1i) (2-1i) (3-1i)] true
}

func ExampleDType_Complex() {
	fmt.Println(tf.Float32.Complex(), tf.Float64.Complex(), tf.Complex64.Complex(), tf.Bool.Complex() == tf.Invalid)
	// Output: c64 c128 c64 true
}

func ExampleErf() {
	e := cpu.Serial()
	x, _ := tf.FromSlice([]float64{-1, 0, 0.5, 2}, 4)
	y, _ := tf.Erf(e, x)
	d, _ := y.Data()
	fmt.Printf("%.6f\n", d)
	// Output: [-0.842701 0.000000 0.520500 0.995322]
}

// Erfc keeps its relative accuracy in the tail, where 1 - Erf is 0.
func ExampleErfc() {
	e := cpu.Serial()
	x, _ := tf.FromSlice([]float64{0, 1, 10}, 3)
	y, _ := tf.Erfc(e, x)
	z, _ := tf.Erf(e, x)
	d, _ := y.Data()
	w, _ := z.Data()
	fmt.Printf("%.6g %v\n", d, 1-w[2])
	// Output: [1 0.157299 2.08849e-45] 0
}
