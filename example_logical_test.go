package tenferro_test

import (
	"fmt"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
)

func ExampleLogicalAnd() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromSlice([]bool{true, true, false, false}, 4)
	b, _ := tf.FromSlice([]bool{true, false, true, false}, 4)
	m, _ := tf.LogicalAnd(e, a, b)
	defer m.Release()
	d, _ := m.Data()
	fmt.Println(d)
	// Output: [true false false false]
}

// Combining two comparisons: 0 <= x < 1.
func ExampleLogicalAndInto() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float64{-0.5, 0, 0.5, 1}, 4)
	lo, _ := tf.Zeros[bool](4)
	hi, _ := tf.Zeros[bool](4)
	_ = tf.GreaterEqualInto(e, lo, x, tf.Const(0.0))
	_ = tf.LessInto(e, hi, x, tf.Const(1.0))
	_ = tf.LogicalAndInto(e, lo, lo, hi) // in place
	d, _ := lo.Data()
	fmt.Println(d)
	// Output: [false true true false]
}

func ExampleLogicalOr() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromSlice([]bool{true, true, false, false}, 4)
	b, _ := tf.FromSlice([]bool{true, false, true, false}, 4)
	m, _ := tf.LogicalOr(e, a, b)
	defer m.Release()
	d, _ := m.Data()
	fmt.Println(d)
	// Output: [true true true false]
}

// A row mask or a column mask: the two broadcast to a matrix.
func ExampleLogicalOrInto() {
	e := cpu.Serial()
	defer e.Close()
	rows, _ := tf.FromSlice([]bool{true, false}, 2, 1)
	cols, _ := tf.FromSlice([]bool{false, false, true}, 1, 3)
	m, _ := tf.Zeros[bool](2, 3)
	_ = tf.LogicalOrInto(e, m, rows, cols)
	fmt.Println(m)
	// Output:
	// Tensor[bool] (2, 3)
	// [[ true  true  true]
	//  [false false  true]]
}

func ExampleLogicalXor() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromSlice([]bool{true, true, false, false}, 4)
	b, _ := tf.FromSlice([]bool{true, false, true, false}, 4)
	m, _ := tf.LogicalXor(e, a, b)
	defer m.Release()
	d, _ := m.Data()
	fmt.Println(d)
	// Output: [false true true false]
}

// Xor with a true scalar negates.
func ExampleLogicalXorInto() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromSlice([]bool{true, false}, 2)
	_ = tf.LogicalXorInto(e, a, a, tf.Const(true))
	d, _ := a.Data()
	fmt.Println(d)
	// Output: [false true]
}

func ExampleLogicalNot() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromSlice([]bool{true, false}, 2)
	m, _ := tf.LogicalNot(e, a)
	defer m.Release()
	d, _ := m.Data()
	fmt.Println(d)
	// Output: [false true]
}

func ExampleLogicalNotInto() {
	e := cpu.Serial()
	defer e.Close()
	id, _ := tf.Eye[bool](2, 2)
	_ = tf.LogicalNotInto(e, id, id) // in place: the off-diagonal mask
	d, _ := id.Data()
	fmt.Println(d)
	// Output: [false true true false]
}

// All reduces over the given axes, or over every axis when none is given.
func ExampleAll() {
	e := cpu.Serial()
	defer e.Close()
	m, _ := tf.FromRowMajor([]bool{true, true, false, true}, 2, 2)
	cols, _ := tf.All(e, m, 0)
	defer cols.Release()
	all, _ := tf.All(e, m)
	defer all.Release()
	d, _ := cols.Data()
	v, _ := all.At()
	fmt.Println(d, v)
	// Output: [false true] false
}

// A destination with extent 1 on the reduced axis keeps the rank
// (NumPy's keepdims).
func ExampleAllInto() {
	e := cpu.Serial()
	defer e.Close()
	m, _ := tf.FromRowMajor([]bool{true, true, false, true}, 2, 2)
	dst, _ := tf.Zeros[bool](2, 1)
	_ = tf.AllInto(e, dst, m, 1) // every element of each row
	fmt.Println(dst)
	// Output:
	// Tensor[bool] (2, 1)
	// [[ true]
	//  [false]]
}

func ExampleAny() {
	e := cpu.Serial()
	defer e.Close()
	m, _ := tf.FromRowMajor([]bool{false, false, false, true}, 2, 2)
	rows, _ := tf.Any(e, m, 1)
	defer rows.Release()
	empty, _ := tf.Zeros[bool](0)
	none, _ := tf.Any(e, empty) // false for an empty set
	defer none.Release()
	d, _ := rows.Data()
	v, _ := none.At()
	fmt.Println(d, v)
	// Output: [false true] false
}

// Whether any element of a vector exceeds a bound, in a reused 0-d
// destination.
func ExampleAnyInto() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float64{0.1, 0.7, 0.3}, 3)
	mask, _ := tf.Zeros[bool](3)
	found := tf.Const(false)
	for _, bound := range []float64{0.5, 0.9} {
		_ = tf.GreaterInto(e, mask, x, tf.Const(bound))
		_ = tf.AnyInto(e, found, mask)
		v, _ := found.At()
		fmt.Println(bound, v)
	}
	// Output:
	// 0.5 true
	// 0.9 false
}

// Where picks per element; a Const branch broadcasts.
func ExampleWhere() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float64{-2, 3, -1, 4}, 4)
	pos, _ := tf.Greater(e, x, tf.Const(0.0))
	defer pos.Release()
	y, _ := tf.Where(e, pos, x, tf.Const(0.0))
	defer y.Release()
	d, _ := y.Data()
	fmt.Println(d)
	// Output: [0 3 0 4]
}

// In place: replace the NaNs of x by zeros.
func ExampleWhereInto() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float64{1, 0, 2}, 3)
	_ = tf.DivInto(e, x, x, x) // 1 NaN 1
	nan, _ := tf.IsNaN(e, x)
	defer nan.Release()
	_ = tf.WhereInto(e, x, nan, tf.Const(0.0), x)
	d, _ := x.Data()
	fmt.Println(d)
	// Output: [1 0 1]
}
