package tenferro_test

import (
	"fmt"
	"math"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
)

// NaN equals nothing, not even itself.
func ExampleEqual() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromSlice([]float64{1, 2, math.NaN()}, 3)
	b, _ := tf.FromSlice([]float64{1, 0, math.NaN()}, 3)
	m, _ := tf.Equal(e, a, b)
	defer m.Release()
	d, _ := m.Data()
	fmt.Println(d)
	// Output: [true false false]
}

// Comparisons write bool destinations; a Const compares with a scalar.
func ExampleEqualInto() {
	e := cpu.Serial()
	defer e.Close()
	z, _ := tf.FromSlice([]complex128{1i, 1, 0}, 3)
	m, _ := tf.Zeros[bool](3)
	_ = tf.EqualInto(e, m, z, tf.Const(complex128(1i)))
	d, _ := m.Data()
	fmt.Println(d)
	// Output: [true false false]
}

func ExampleNotEqual() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromSlice([]float64{1, 2, math.NaN()}, 3)
	m, _ := tf.NotEqual(e, a, a) // true only where a is NaN
	defer m.Release()
	d, _ := m.Data()
	fmt.Println(d)
	// Output: [false false true]
}

func ExampleNotEqualInto() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromSlice([]float32{0, 1, 0}, 3)
	m, _ := tf.Zeros[bool](3)
	_ = tf.NotEqualInto(e, m, a, tf.Const(float32(0)))
	d, _ := m.Data()
	fmt.Println(d)
	// Output: [false true false]
}

// Order comparisons need real operands; NaN compares false.
func ExampleGreater() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromSlice([]float64{1, 2, 3, math.NaN()}, 4)
	m, _ := tf.Greater(e, a, tf.Const(2.0))
	defer m.Release()
	d, _ := m.Data()
	fmt.Println(d)
	// Output: [false false true false]
}

// A row against a column gives the table of all pairs.
func ExampleGreaterInto() {
	e := cpu.Serial()
	defer e.Close()
	col, _ := tf.FromSlice([]float64{1, 2, 3}, 3, 1)
	row, _ := tf.FromSlice([]float64{1, 2, 3}, 1, 3)
	m, _ := tf.Zeros[bool](3, 3)
	_ = tf.GreaterInto(e, m, col, row) // strictly below the diagonal
	fmt.Println(m)
	// Output:
	// Tensor[bool] (3, 3)
	// [[false false false]
	//  [ true false false]
	//  [ true  true false]]
}

func ExampleGreaterEqual() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromSlice([]float64{1, 2, 3}, 3)
	m, _ := tf.GreaterEqual(e, a, tf.Const(2.0))
	defer m.Release()
	d, _ := m.Data()
	fmt.Println(d)
	// Output: [false true true]
}

func ExampleGreaterEqualInto() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromSlice([]float32{-1, 0, 1}, 3)
	m, _ := tf.Zeros[bool](3)
	_ = tf.GreaterEqualInto(e, m, a, tf.Const(float32(0)))
	d, _ := m.Data()
	fmt.Println(d)
	// Output: [false true true]
}

func ExampleLess() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromSlice([]float64{1, 2, 3, math.NaN()}, 4)
	m, _ := tf.Less(e, a, tf.Const(2.0))
	defer m.Release()
	d, _ := m.Data()
	fmt.Println(d)
	// Output: [true false false false]
}

func ExampleLessInto() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromSlice([]float64{3, 1}, 2)
	b, _ := tf.FromSlice([]float64{2, 2}, 2)
	m, _ := tf.Zeros[bool](2)
	_ = tf.LessInto(e, m, a, b)
	d, _ := m.Data()
	fmt.Println(d)
	// Output: [false true]
}

func ExampleLessEqual() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromSlice([]float64{1, 2, 3}, 3)
	m, _ := tf.LessEqual(e, a, tf.Const(2.0))
	defer m.Release()
	d, _ := m.Data()
	fmt.Println(d)
	// Output: [true true false]
}

// An upper-triangular mask: true where row index <= column index.
func ExampleLessEqualInto() {
	e := cpu.Serial()
	defer e.Close()
	col, _ := tf.FromSlice([]float64{0, 1}, 2, 1)
	row, _ := tf.FromSlice([]float64{0, 1}, 1, 2)
	m, _ := tf.Zeros[bool](2, 2)
	_ = tf.LessEqualInto(e, m, col, row)
	fmt.Println(m)
	// Output:
	// Tensor[bool] (2, 2)
	// [[ true  true]
	//  [false  true]]
}

func ExampleIsFinite() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromSlice([]float64{1, math.Inf(-1), math.NaN()}, 3)
	m, _ := tf.IsFinite(e, a)
	defer m.Release()
	d, _ := m.Data()
	fmt.Println(d)
	// Output: [true false false]
}

// A complex number is finite when both parts are.
func ExampleIsFiniteInto() {
	e := cpu.Serial()
	defer e.Close()
	z, _ := tf.FromSlice([]complex128{1 + 1i, complex(1, math.Inf(1))}, 2)
	m, _ := tf.Zeros[bool](2)
	_ = tf.IsFiniteInto(e, m, z)
	d, _ := m.Data()
	fmt.Println(d)
	// Output: [true false]
}

func ExampleIsInf() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromSlice([]float64{1, math.Inf(-1), math.NaN()}, 3)
	m, _ := tf.IsInf(e, a)
	defer m.Release()
	d, _ := m.Data()
	fmt.Println(d)
	// Output: [false true false]
}

func ExampleIsInfInto() {
	e := cpu.Serial()
	defer e.Close()
	z, _ := tf.FromSlice([]complex64{1, complex(float32(math.Inf(1)), 0)}, 2)
	m, _ := tf.Zeros[bool](2)
	_ = tf.IsInfInto(e, m, z)
	d, _ := m.Data()
	fmt.Println(d)
	// Output: [false true]
}

func ExampleIsNaN() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromSlice([]float64{1, math.Inf(-1), math.NaN()}, 3)
	m, _ := tf.IsNaN(e, a)
	defer m.Release()
	d, _ := m.Data()
	fmt.Println(d)
	// Output: [false false true]
}

// Counting the NaNs of a result: IsNaN into a reused mask, then a sum of
// the mask taken as numbers.
func ExampleIsNaNInto() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float64{0, 1, -1}, 3)
	q, _ := tf.Div(e, x, tf.Const(0.0)) // NaN +Inf -Inf
	defer q.Release()
	m, _ := tf.Zeros[bool](3)
	_ = tf.IsNaNInto(e, m, q)
	n, _ := tf.Where(e, m, tf.Const(1.0), tf.Const(0.0))
	defer n.Release()
	s, _ := tf.Sum(e, n)
	defer s.Release()
	v, _ := s.At()
	fmt.Println(v)
	// Output: 1
}
