package ad_test

import (
	"errors"
	"fmt"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/ad"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/program"
	"github.com/tenferro-go/tenferro/trace"
)

// The loss comes first, then the gradients: L = Σ x² and dL/dx = 2x.
func ExampleValueAndGrad() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 3)
	sq, _ := tr.Square(x)
	l, _ := tr.Sum(sq)
	g, _ := tr.Finish(l)

	vg, err := ad.ValueAndGrad(g, 0)
	if err != nil {
		panic(err)
	}
	p, _ := program.Compile(vg)
	e := cpu.Serial()
	defer e.Close()
	pp, _ := program.Prepare(p, e)
	xv, _ := tf.FromSlice([]float64{1, 2, 3}, 3)
	out, _ := pp.Run(tf.ValueOf(xv))
	fmt.Println(data(out[0]), data(out[1]))
	// Output: [14] [2 4 6]
}

// The nuclear norm L = Σ s of A = diag(3, -2) has the gradient U·Vᴴ,
// here diag(1, -1); Broadening regularizes the SVD's derivative where
// singular values coincide.
func ExampleOptions_ValueAndGrad() {
	tr := trace.New()
	a, _ := tr.Input(tf.Float64, 2, 2)
	s, _ := tr.SVDVals(a)
	l, _ := tr.Sum(s)
	g, _ := tr.Finish(l)

	vg, _ := ad.Options{Broadening: 1e-10}.ValueAndGrad(g, 0)
	p, _ := program.Compile(vg)
	e := cpu.Serial()
	defer e.Close()
	pp, _ := program.Prepare(p, e)
	A, _ := tf.FromSlice([]float64{3, 0, 0, -2}, 2, 2)
	out, _ := pp.Run(tf.ValueOf(A))
	fmt.Printf("%.4f %.4f\n", data(out[0]), data(out[1]))
	// Output: [5.0000] [1.0000 0.0000 0.0000 -1.0000]
}

// gaugeLoss records Re Σ U of the SVD of a complex matrix: a loss that
// changes when a singular pair is rotated by a phase, so it has no
// derivative.
func gaugeLoss(tr *trace.Trace, xs []trace.Var) (trace.Var, error) {
	u, _, _, err := tr.SVD(xs[0])
	if err != nil {
		return trace.Var{}, err
	}
	re, _ := tr.Real(u)
	return tr.Sum(re)
}

// Grad refuses a phase-dependent loss at run time with ErrGauge; a
// negative GaugeTolerance turns the check off.
func ExampleOptions_Grad() {
	tr := trace.New()
	a, _ := tr.Input(tf.Complex128, 2, 2)
	l, _ := gaugeLoss(tr, []trace.Var{a})
	g, _ := tr.Finish(l)
	A, _ := tf.FromRowMajor([]complex128{1, 1i, 0, 2}, 2, 2)
	e := cpu.Serial()
	defer e.Close()
	for _, o := range []ad.Options{{}, {GaugeTolerance: -1}} {
		gg, _ := o.Grad(g, 0)
		p, _ := program.Compile(gg)
		pp, _ := program.Prepare(p, e)
		_, err := pp.Run(tf.ValueOf(A))
		fmt.Println(errors.Is(err, tf.ErrGauge))
	}
	// Output:
	// true
	// false
}

// Forward mode with options: the tangent of y = exp(x) along v is
// exp(x)·v.
func ExampleOptions_JVP() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 2)
	y, _ := tr.Exp(x)
	g, _ := tr.Finish(y)

	jg, _ := ad.Options{}.JVP(g, 0) // inputs: x, then its tangent
	p, _ := program.Compile(jg)
	e := cpu.Serial()
	defer e.Close()
	pp, _ := program.Prepare(p, e)
	X, _ := tf.Zeros[float64](2)
	V, _ := tf.FromSlice([]float64{1, 2}, 2)
	out, _ := pp.Run(tf.ValueOf(X), tf.ValueOf(V))
	fmt.Println(data(out[0]), data(out[1]))
	// Output: [1 1] [1 2]
}

// Reverse mode with options: for y = x·x (elementwise) the cotangent of x
// is 2x·ȳ.
func ExampleOptions_VJP() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 2)
	y, _ := tr.Mul(x, x)
	g, _ := tr.Finish(y)

	vg, _ := ad.Options{}.VJP(g, 0) // inputs: x, then the cotangent of y
	p, _ := program.Compile(vg)
	e := cpu.Serial()
	defer e.Close()
	pp, _ := program.Prepare(p, e)
	X, _ := tf.FromSlice([]float64{3, 4}, 2)
	Ybar, _ := tf.FromSlice([]float64{1, 10}, 2)
	out, _ := pp.Run(tf.ValueOf(X), tf.ValueOf(Ybar))
	fmt.Println(data(out[0]), data(out[1]))
	// Output: [9 16] [6 80]
}

// The options apply to every signature the function is compiled for.
func ExampleOptions_ValueAndGradFunc() {
	strict := ad.ValueAndGradFunc(gaugeLoss, nil)
	lax := ad.Options{GaugeTolerance: -1}.ValueAndGradFunc(gaugeLoss, nil)
	A, _ := tf.FromRowMajor([]complex128{1, 1i, 0, 2}, 2, 2)
	e := cpu.Serial()
	defer e.Close()
	_, err1 := strict.Run(e, tf.ValueOf(A))
	_, err2 := lax.Run(e, tf.ValueOf(A))
	fmt.Println(errors.Is(err1, tf.ErrGauge), err2)
	// Output: true <nil>
}

// Run returns the loss and one gradient per wrt input, here only y's:
// L = Σ x·y, dL/dy = x.
func ExampleCompiled_Run() {
	f := ad.ValueAndGradFunc(func(tr *trace.Trace, xs []trace.Var) (trace.Var, error) {
		p, _ := tr.Mul(xs[0], xs[1])
		return tr.Sum(p)
	}, []int{1})
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float64{1, 2, 3}, 3)
	y, _ := tf.FromSlice([]float64{4, 5, 6}, 3)
	out, err := f.Run(e, tf.ValueOf(x), tf.ValueOf(y))
	if err != nil {
		panic(err)
	}
	fmt.Println(len(out), data(out[0]), data(out[1]))
	// Output: 2 [32] [1 2 3]
}

// Each input signature is compiled once, on first use: the same function
// serves vectors of any length.
func ExampleCompiled_RunInto() {
	norm2 := ad.ValueAndGradFunc(func(tr *trace.Trace, xs []trace.Var) (trace.Var, error) {
		sq, _ := tr.Square(xs[0])
		return tr.Sum(sq)
	}, nil)
	e := cpu.Serial()
	defer e.Close()
	for _, n := range []int{2, 3} {
		x, _ := tf.Ones[float64](n)
		l, _ := tf.Zeros[float64]()
		g, _ := tf.Zeros[float64](n)
		if err := norm2.RunInto(e, []tf.Value{tf.ValueOf(l), tf.ValueOf(g)}, tf.ValueOf(x)); err != nil {
			panic(err)
		}
		v, _ := l.At()
		d, _ := g.Data()
		fmt.Println(v, d)
	}
	// Output:
	// 2 [2 2]
	// 3 [2 2 2]
}
