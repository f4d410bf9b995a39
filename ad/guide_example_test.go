package ad_test

// The examples of docs/guide/autodiff.md and of the autodiff rows of
// docs/guide/numpy-cheatsheet.md (TestGuideSnippets in the module root
// checks that the guide shows them verbatim).

import (
	"fmt"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/ad"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/program"
	"github.com/tenferro-go/tenferro/trace"
)

// A gradient in ten lines: L(w) = Σ (X·w − y)² and dL/dw = 2·Xᵀ·(X·w − y).
func Example_guideGradient() {
	f := func(tr *trace.Trace, xs []trace.Var) (trace.Var, error) {
		w, x, y := xs[0], xs[1], xs[2]
		xw, _ := tr.Einsum("ij,j->i", x, w)
		r, _ := tr.Sub(xw, y)
		sq, _ := tr.Square(r)
		return tr.Sum(sq)
	}
	loss := ad.ValueAndGradFunc(f, []int{0}) // with respect to w only
	e := cpu.Serial()
	defer e.Close()

	X, _ := tf.FromRowMajor([]float64{1, 0, 0, 1, 1, 1}, 3, 2)
	Y, _ := tf.FromSlice([]float64{1, 2, 3}, 3)
	W, _ := tf.Zeros[float64](2)
	out, err := loss.Run(e, tf.ValueOf(W), tf.ValueOf(X), tf.ValueOf(Y)) // L, then dL/dw
	if err != nil {
		panic(err)
	}
	fmt.Println(out[0], out[1])
	// Output:
	// Tensor[f64] ()
	// 14 Tensor[f64] (2,)
	// [ -8 -10]
}

// Gradient descent on a prepared gradient: after the first call RunInto
// replays a compiled program and allocates nothing.
func Example_guideDescent() {
	f := func(tr *trace.Trace, xs []trace.Var) (trace.Var, error) {
		w, x, y := xs[0], xs[1], xs[2]
		xw, _ := tr.Einsum("ij,j->i", x, w)
		r, _ := tr.Sub(xw, y)
		sq, _ := tr.Square(r)
		return tr.Sum(sq)
	}
	loss := ad.ValueAndGradFunc(f, []int{0})
	e := cpu.Serial()
	defer e.Close()
	X, _ := tf.FromRowMajor([]float64{1, 0, 0, 1, 1, 1}, 3, 2)
	Y, _ := tf.FromSlice([]float64{1, 2, 3}, 3)

	W, _ := tf.Zeros[float64](2)
	L, _ := tf.Zeros[float64]()
	G, _ := tf.Zeros[float64](2)
	w, _ := W.Data() // W's storage, updated in place
	g, _ := G.Data()
	for range 100 {
		if err := loss.RunInto(e, []tf.Value{tf.ValueOf(L), tf.ValueOf(G)}, tf.ValueOf(W), tf.ValueOf(X), tf.ValueOf(Y)); err != nil {
			panic(err)
		}
		for i := range w {
			w[i] -= 0.1 * g[i]
		}
	}
	fmt.Printf("w = %.4f, L = %.4f\n", w, L.Storage()[0]) // the least-squares fit (1, 2)
	// Output:
	// w = [1.0000 2.0000], L = 0.0000
}

// The transforms of a traced graph: Grad, JVP and VJP return new graphs,
// which program.Compile compiles like any other.
func Example_guideTransforms() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 3)
	s, _ := tr.Sin(x)
	m, _ := tr.Mul(s, x)
	l, _ := tr.Sum(m) // L = Σ sin(x)·x
	g, _ := tr.Finish(l)

	gg, err := ad.Grad(g, 0) // inputs: x; outputs: dL/dx = cos(x)·x + sin(x)
	if err != nil {
		panic(err)
	}
	jg, _ := ad.JVP(g, 0) // inputs: x and a tangent; outputs: L and dL along it
	vg, _ := ad.VJP(g, 0) // inputs: x and a cotangent of L; outputs: L and the cotangent of x
	fmt.Println(len(gg.Inputs()), len(gg.Outputs()), len(jg.Inputs()), len(jg.Outputs()), len(vg.Inputs()), len(vg.Outputs()))

	p, _ := program.Compile(gg)
	e := cpu.Serial()
	defer e.Close()
	pp, _ := program.Prepare(p, e)
	xv, _ := tf.FromSlice([]float64{0, 1, 2}, 3)
	out, _ := pp.Run(tf.ValueOf(xv))
	fmt.Printf("%.4f\n", out[0])
	// Output:
	// 1 1 2 2 2 2
	// Tensor[f64] (3,)
	// [0.0000 1.3818 0.0770]
}

// Complex inputs follow PyTorch: for L = Σ |z|² the gradient is 2z.
func Example_guideComplex() {
	f := func(tr *trace.Trace, xs []trace.Var) (trace.Var, error) {
		a, _ := tr.Abs(xs[0])
		sq, _ := tr.Square(a)
		return tr.Sum(sq)
	}
	loss := ad.ValueAndGradFunc(f, nil) // nil: every floating or complex input
	e := cpu.Serial()
	defer e.Close()
	z, _ := tf.FromSlice([]complex128{1 + 2i}, 1)
	out, _ := loss.Run(e, tf.ValueOf(z))
	fmt.Printf("%.4g %.4g\n", out[0], out[1])
	// Output:
	// Tensor[f64] ()
	// 5 Tensor[c128] (1,)
	// [(2+4i)]
}
