package trace_test

import (
	"errors"
	"fmt"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/trace"
)

// Reductions drop the reduced axes; no axes reduce everything.
func ExampleTrace_Sum() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 2, 3, 4)
	a, _ := tr.Sum(x, 1)
	b, _ := tr.Sum(x, 0, -1)
	c, _ := tr.Sum(x)
	fmt.Println(a.Shape(), b.Shape(), c.Shape())
	// Output: [2 4] [3] []
}

// An axis out of range gives the eager operation's error.
func ExampleTrace_Mean() {
	tr := trace.New()
	x, _ := tr.Input(tf.Complex64, 2, 3)
	m, _ := tr.Mean(x, 0)
	_, err := tr.Mean(x, 2)
	fmt.Println(m.DType(), m.Shape())
	fmt.Println(err)
	// Output:
	// c64 [3]
	// tenferro: Mean: axes: invalid argument: expected an axis in [-2, 2), got 2
}

func ExampleTrace_Prod() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 4, 5)
	p, _ := tr.Prod(x, 1)
	fmt.Println(p.DType(), p.Shape())
	// Output: f64 [4]
}

// Max and Min need a real dtype.
func ExampleTrace_Max() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float32, 3, 4)
	m, _ := tr.Max(x, 0)
	z, _ := tr.Input(tf.Complex64, 3)
	_, err := tr.Max(z)
	fmt.Println(m.Shape(), errors.Is(err, tf.ErrDType))
	// Output: [4] true
}

func ExampleTrace_Min() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 3, 4)
	m, _ := tr.Min(x, -1)
	fmt.Println(m.DType(), m.Shape())
	// Output: f64 [3]
}

// ArgMax and ArgMin reduce one axis to int64 indices.
func ExampleTrace_ArgMax() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 3, 4)
	i, _ := tr.ArgMax(x, 1)
	fmt.Println(i.DType(), i.Shape())
	// Output: i64 [3]
}

func ExampleTrace_ArgMin() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float32, 5, 2)
	i, _ := tr.ArgMin(x, 0)
	fmt.Println(i.DType(), i.Shape())
	// Output: i64 [2]
}

// All and Any reduce bool variables.
func ExampleTrace_All() {
	tr := trace.New()
	m, _ := tr.Input(tf.Bool, 2, 3)
	rows, _ := tr.All(m, 1)
	fmt.Println(rows.DType(), rows.Shape())
	// Output: bool [2]
}

func ExampleTrace_Any() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 4)
	nan, _ := tr.IsNaN(x)
	some, _ := tr.Any(nan)
	fmt.Println(some.DType(), some.Shape())
	// Output: bool []
}

// Cumulative operations keep the shape.
func ExampleTrace_CumSum() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 3, 4)
	c, _ := tr.CumSum(x, 1)
	fmt.Println(c.DType(), c.Shape())
	// Output: f64 [3 4]
}

func ExampleTrace_CumProd() {
	tr := trace.New()
	x, _ := tr.Input(tf.Complex128, 5)
	c, _ := tr.CumProd(x, -1)
	fmt.Println(c.DType(), c.Shape())
	// Output: c128 [5]
}

func ExampleTrace_LogSumExp() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float32, 10, 3)
	l, _ := tr.LogSumExp(x, 0)
	fmt.Println(l.DType(), l.Shape())
	// Output: f32 [3]
}

// Norms, variances and standard deviations are real, also for complex
// variables.
func ExampleTrace_Norm() {
	tr := trace.New()
	z, _ := tr.Input(tf.Complex64, 3, 4)
	n, _ := tr.Norm(z, 2, 0)
	fmt.Println(n.DType(), n.Shape())
	// Output: f32 [4]
}

func ExampleTrace_Var() {
	tr := trace.New()
	z, _ := tr.Input(tf.Complex128, 6)
	v, _ := tr.Var(z, 1)
	fmt.Println(v.DType(), v.Shape())
	// Output: f64 []
}

func ExampleTrace_Std() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 2, 8)
	s, _ := tr.Std(x, 0, 1)
	fmt.Println(s.DType(), s.Shape())
	// Output: f64 [2]
}
