package tenferro_test

import (
	"fmt"
	"math"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
)

// Accumulating into the first operand: x += y, without a temporary.
func ExampleAddInto() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float64{1, 2, 3}, 3)
	y, _ := tf.FromSlice([]float64{10, 20, 30}, 3)
	for range 2 {
		_ = tf.AddInto(e, x, x, y)
	}
	d, _ := x.Data()
	fmt.Println(d)
	// Output: [21 42 63]
}

// A column (3×1) minus a row (1×2) broadcasts to a 3×2 table.
func ExampleSub() {
	e := cpu.Serial()
	defer e.Close()
	col, _ := tf.FromSlice([]float64{10, 20, 30}, 3, 1)
	row, _ := tf.FromSlice([]float64{1, 2}, 1, 2)
	d, _ := tf.Sub(e, col, row)
	defer d.Release()
	fmt.Println(d)
	// Output:
	// Tensor[f64] (3, 2)
	// [[ 9  8]
	//  [19 18]
	//  [29 28]]
}

// Centering the columns of a matrix: subtract the row of column means.
func ExampleSubInto() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromRowMajor([]float64{1, 10, 3, 30}, 2, 2)
	mean, _ := tf.Mean(e, a, 0) // shape [2]: the column means
	defer mean.Release()
	_ = tf.SubInto(e, a, a, mean)
	fmt.Println(a)
	// Output:
	// Tensor[f64] (2, 2)
	// [[ -1 -10]
	//  [  1  10]]
}

func ExampleMul() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromSlice([]float64{1, 2, 3}, 3)
	b, _ := tf.FromSlice([]float64{4, 5, 6}, 3)
	p, _ := tf.Mul(e, a, b) // elementwise, not a matrix product
	defer p.Release()
	d, _ := p.Data()
	fmt.Println(d)
	// Output: [4 10 18]
}

// Scaling every column of a matrix by its own factor.
func ExampleMulInto() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.Ones[complex128](2, 3)
	w, _ := tf.FromSlice([]complex128{1, 1i, -1}, 1, 3)
	_ = tf.MulInto(e, a, a, w)
	fmt.Println(a)
	// Output:
	// Tensor[c128] (2, 3)
	// [[ (1+0i)  (0+1i) (-1+0i)]
	//  [ (1+0i)  (0+1i) (-1+0i)]]
}

// IEEE division: x/0 is ±Inf and 0/0 is NaN, never an error.
func ExampleDiv() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromSlice([]float64{1, -1, 0, 6}, 4)
	b, _ := tf.FromSlice([]float64{0, 0, 0, 4}, 4)
	q, _ := tf.Div(e, a, b)
	defer q.Release()
	d, _ := q.Data()
	fmt.Println(d)
	// Output: [+Inf -Inf NaN 1.5]
}

func ExampleDivInto() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float32{1, 2, 4}, 3)
	_ = tf.DivInto(e, x, x, tf.Const(float32(4))) // x /= 4
	d, _ := x.Data()
	fmt.Println(d)
	// Output: [0.25 0.5 1]
}

// NaN wins, as in NumPy's maximum.
func ExampleMaximum() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromSlice([]float64{1, 5, math.NaN()}, 3)
	b, _ := tf.FromSlice([]float64{3, 2, 0}, 3)
	m, _ := tf.Maximum(e, a, b)
	defer m.Release()
	d, _ := m.Data()
	fmt.Println(d)
	// Output: [3 5 NaN]
}

func ExampleMaximumInto() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float64{-2, 0.5, 3}, 3)
	_ = tf.MaximumInto(e, x, x, tf.Const(0.0)) // the same as Relu
	d, _ := x.Data()
	fmt.Println(d)
	// Output: [0 0.5 3]
}

func ExampleMinimum() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromSlice([]float64{1, 5, math.NaN()}, 3)
	b, _ := tf.FromSlice([]float64{3, 2, 0}, 3)
	m, _ := tf.Minimum(e, a, b)
	defer m.Release()
	d, _ := m.Data()
	fmt.Println(d)
	// Output: [1 2 NaN]
}

func ExampleMinimumInto() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float32{-2, 0.5, 3}, 3)
	dst, _ := tf.Zeros[float32](3)
	_ = tf.MinimumInto(e, dst, x, tf.Const(float32(1)))
	d, _ := dst.Data()
	fmt.Println(d)
	// Output: [-2 0.5 1]
}

func ExampleScale() {
	e := cpu.Serial()
	defer e.Close()
	z, _ := tf.FromSlice([]complex128{1, 1i}, 2)
	r, _ := tf.Scale(e, 1i, z) // a rotation by 90°
	defer r.Release()
	d, _ := r.Data()
	fmt.Println(d)
	// Output: [(0+1i) (-1+0i)]
}
