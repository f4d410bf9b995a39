package ad_test

import (
	"fmt"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/ad"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/program"
	"github.com/tenferro-go/tenferro/trace"
)

// The gradient of L(x) = Σ sin(x)·x, compiled and run.
func ExampleGrad() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 3)
	s, _ := tr.Sin(x)
	m, _ := tr.Mul(s, x)
	l, _ := tr.Sum(m)
	g, _ := tr.Finish(l)

	gg, err := ad.Grad(g, 0) // dL/dx = cos(x)·x + sin(x)
	if err != nil {
		panic(err)
	}
	p, _ := program.Compile(gg)
	e := cpu.Serial()
	defer e.Close()
	pp, _ := program.Prepare(p, e)
	xv, _ := tf.FromSlice([]float64{0, 1, 2}, 3)
	out, _ := pp.Run(tf.ValueOf(xv))
	fmt.Printf("%.4f\n", data(out[0]))
	// Output:
	// [0.0000 1.3818 0.0770]
}

// Forward mode: the directional derivative of y = A·x along a tangent of
// x is A·v.
func ExampleJVP() {
	tr := trace.New()
	a, _ := tr.Input(tf.Float64, 2, 2)
	x, _ := tr.Input(tf.Float64, 2)
	y, _ := tr.Einsum("ij,j->i", a, x)
	g, _ := tr.Finish(y)

	jg, _ := ad.JVP(g, 1) // inputs: a, x, then the tangent of x
	p, _ := program.Compile(jg)
	e := cpu.Serial()
	defer e.Close()
	pp, _ := program.Prepare(p, e)
	A, _ := tf.FromSlice([]float64{1, 3, 2, 4}, 2, 2) // [[1 2] [3 4]], column-major
	X, _ := tf.FromSlice([]float64{1, 1}, 2)
	V, _ := tf.FromSlice([]float64{1, 0}, 2)
	out, _ := pp.Run(tf.ValueOf(A), tf.ValueOf(X), tf.ValueOf(V))
	fmt.Println(data(out[0]))
	fmt.Println(data(out[1]))
	// Output:
	// [3 7]
	// [1 3]
}

// Reverse mode: the cotangent of x for y = A·x and a cotangent ȳ is Aᵀ·ȳ.
func ExampleVJP() {
	tr := trace.New()
	a, _ := tr.Input(tf.Float64, 2, 2)
	x, _ := tr.Input(tf.Float64, 2)
	y, _ := tr.Einsum("ij,j->i", a, x)
	g, _ := tr.Finish(y)

	vg, _ := ad.VJP(g, 1) // inputs: a, x, then the cotangent of y
	p, _ := program.Compile(vg)
	e := cpu.Serial()
	defer e.Close()
	pp, _ := program.Prepare(p, e)
	A, _ := tf.FromSlice([]float64{1, 3, 2, 4}, 2, 2)
	X, _ := tf.FromSlice([]float64{1, 1}, 2)
	Ybar, _ := tf.FromSlice([]float64{1, 0}, 2)
	out, _ := pp.Run(tf.ValueOf(A), tf.ValueOf(X), tf.ValueOf(Ybar))
	fmt.Println(data(out[1]))
	// Output:
	// [1 2]
}

// Gradient descent without managing traces: the function is traced and
// compiled on the first call, and every later call replays the prepared
// program.
func ExampleValueAndGradFunc() {
	// L(w) = Σ (w - t)² for a target t = (1, 2).
	loss := ad.ValueAndGradFunc(func(tr *trace.Trace, xs []trace.Var) (trace.Var, error) {
		t, _ := tr.Const(tf.ValueOf(must(tf.FromSlice([]float64{1, 2}, 2))))
		d, _ := tr.Sub(xs[0], t)
		sq, _ := tr.Square(d)
		return tr.Sum(sq)
	}, nil)

	e := cpu.Serial()
	defer e.Close()
	w, _ := tf.Zeros[float64](2)
	l, _ := tf.Zeros[float64]()
	gw, _ := tf.Zeros[float64](2)
	wd, _ := w.Data()
	gd, _ := gw.Data()
	for range 50 {
		if err := loss.RunInto(e, []tf.Value{tf.ValueOf(l), tf.ValueOf(gw)}, tf.ValueOf(w)); err != nil {
			panic(err)
		}
		for i := range wd {
			wd[i] -= 0.25 * gd[i]
		}
	}
	fmt.Printf("%.6f\n", wd)
	// Output:
	// [1.000000 2.000000]
}

func must[T any](x T, err error) T {
	if err != nil {
		panic(err)
	}
	return x
}

// data returns the elements of a float64 value.
func data(v tf.Value) []float64 {
	d, err := v.Data()
	if err != nil {
		panic(err)
	}
	return d.([]float64)
}
