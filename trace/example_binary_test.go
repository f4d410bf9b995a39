package trace_test

import (
	"errors"
	"fmt"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/trace"
)

// Binary operations broadcast as in NumPy: a column against a row.
func ExampleTrace_Sub() {
	tr := trace.New()
	col, _ := tr.Input(tf.Float64, 3, 1)
	row, _ := tr.Input(tf.Float64, 1, 4)
	d, _ := tr.Sub(col, row)
	fmt.Println(d.Shape())
	// Output: [3 4]
}

// The operands must share one dtype: the trace never promotes.
func ExampleTrace_Mul() {
	tr := trace.New()
	a, _ := tr.Input(tf.Float64, 3)
	b, _ := tr.Input(tf.Complex128, 3)
	_, err := tr.Mul(a, b)
	fmt.Println(err)
	// Output: tenferro: Mul: b: dtype mismatch: expected f64 like a, got c128
}

// A 0-d operand broadcasts against any shape.
func ExampleTrace_Div() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float32, 2, 3)
	n, _ := tr.Full(tf.Float32, 3)
	y, _ := tr.Div(x, n)
	fmt.Println(y.DType(), y.Shape())
	// Output: f32 [2 3]
}

func ExampleTrace_Pow() {
	tr := trace.New()
	x, _ := tr.Input(tf.Complex64, 4)
	p, _ := tr.Full(tf.Complex64, 0.5)
	y, _ := tr.Pow(x, p)
	fmt.Println(y.DType(), y.Shape())
	// Output: c64 [4]
}

// Maximum and Minimum need a real dtype.
func ExampleTrace_Maximum() {
	tr := trace.New()
	a, _ := tr.Input(tf.Float64, 3)
	zero, _ := tr.Full(tf.Float64, 0)
	y, _ := tr.Maximum(a, zero)
	z, _ := tr.Input(tf.Complex64, 3)
	_, err := tr.Maximum(z, z)
	fmt.Println(y.Shape(), errors.Is(err, tf.ErrDType))
	// Output: [3] true
}

func ExampleTrace_Minimum() {
	tr := trace.New()
	a, _ := tr.Input(tf.Float32, 2, 1)
	b, _ := tr.Input(tf.Float32, 2)
	y, _ := tr.Minimum(a, b)
	fmt.Println(y.Shape())
	// Output: [2 2]
}

func ExampleTrace_Atan2() {
	tr := trace.New()
	y, _ := tr.Input(tf.Float64, 5)
	x, _ := tr.Input(tf.Float64, 5)
	a, _ := tr.Atan2(y, x)
	fmt.Println(a.DType(), a.Shape())
	// Output: f64 [5]
}

func ExampleTrace_Hypot() {
	tr := trace.New()
	a, _ := tr.Input(tf.Float32, 3)
	b, _ := tr.Input(tf.Float32, 1)
	h, _ := tr.Hypot(a, b)
	fmt.Println(h.DType(), h.Shape())
	// Output: f32 [3]
}

// Comparisons record bool variables; Equal and NotEqual accept complex
// operands.
func ExampleTrace_Equal() {
	tr := trace.New()
	a, _ := tr.Input(tf.Complex128, 3)
	b, _ := tr.Input(tf.Complex128, 3)
	m, _ := tr.Equal(a, b)
	fmt.Println(m.DType(), m.Shape())
	// Output: bool [3]
}

func ExampleTrace_NotEqual() {
	tr := trace.New()
	a, _ := tr.Input(tf.Float64, 2, 2)
	zero, _ := tr.Full(tf.Float64, 0)
	m, _ := tr.NotEqual(a, zero)
	fmt.Println(m.DType(), m.Shape())
	// Output: bool [2 2]
}

// Order comparisons need a real dtype.
func ExampleTrace_Greater() {
	tr := trace.New()
	a, _ := tr.Input(tf.Float64, 3)
	m, _ := tr.Greater(a, a)
	z, _ := tr.Input(tf.Complex64, 3)
	_, err := tr.Greater(z, z)
	fmt.Println(m.DType())
	fmt.Println(err)
	// Output:
	// bool
	// tenferro: Greater: a: dtype mismatch: expected f32 or f64, got c64
}

func ExampleTrace_GreaterEqual() {
	tr := trace.New()
	a, _ := tr.Input(tf.Float32, 4, 1)
	b, _ := tr.Input(tf.Float32, 1, 3)
	m, _ := tr.GreaterEqual(a, b)
	fmt.Println(m.DType(), m.Shape())
	// Output: bool [4 3]
}

func ExampleTrace_Less() {
	tr := trace.New()
	a, _ := tr.Input(tf.Float64, 3)
	one, _ := tr.Full(tf.Float64, 1)
	m, _ := tr.Less(a, one)
	fmt.Println(m.DType(), m.Shape())
	// Output: bool [3]
}

func ExampleTrace_LessEqual() {
	tr := trace.New()
	a, _ := tr.Input(tf.Float64, 2, 3)
	b, _ := tr.Input(tf.Float64, 3)
	m, _ := tr.LessEqual(a, b)
	fmt.Println(m.DType(), m.Shape())
	// Output: bool [2 3]
}

// Logical operations take bool variables only.
func ExampleTrace_LogicalAnd() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 3)
	zero, _ := tr.Full(tf.Float64, 0)
	one, _ := tr.Full(tf.Float64, 1)
	lo, _ := tr.GreaterEqual(x, zero)
	hi, _ := tr.Less(x, one)
	in, _ := tr.LogicalAnd(lo, hi)
	_, err := tr.LogicalAnd(x, x)
	fmt.Println(in.DType(), in.Shape(), errors.Is(err, tf.ErrDType))
	// Output: bool [3] true
}

func ExampleTrace_LogicalOr() {
	tr := trace.New()
	a, _ := tr.Input(tf.Bool, 2, 1)
	b, _ := tr.Input(tf.Bool, 3)
	m, _ := tr.LogicalOr(a, b)
	fmt.Println(m.DType(), m.Shape())
	// Output: bool [2 3]
}

func ExampleTrace_LogicalXor() {
	tr := trace.New()
	a, _ := tr.Input(tf.Bool, 4)
	t, _ := tr.Full(tf.Bool, 1) // true
	m, _ := tr.LogicalXor(a, t)
	fmt.Println(m.DType(), m.Shape())
	// Output: bool [4]
}

func ExampleTrace_LogicalNot() {
	tr := trace.New()
	a, _ := tr.Input(tf.Bool, 2, 2)
	m, _ := tr.LogicalNot(a)
	fmt.Println(m.DType(), m.Shape())
	// Output: bool [2 2]
}
