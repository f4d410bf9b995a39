package ad_test

import (
	"errors"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/ad"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/program"
	"github.com/tenferro-go/tenferro/trace"
)

// The complex convention: L = Σ |z|² has gradient 2z (2+4i at 1+2i).
func TestGradComplexConvention(t *testing.T) {
	tr := trace.New()
	z, _ := tr.Input(tf.Complex128, 2)
	a, _ := tr.Abs(z)
	sq, _ := tr.Square(a)
	l, _ := tr.Sum(sq)
	g, err := tr.Finish(l)
	if err != nil {
		t.Fatal(err)
	}
	gg, err := ad.ValueAndGrad(g, 0)
	if err != nil {
		t.Fatal(err)
	}
	x := tensorData{dt: tf.Complex128, shape: []int{2}, data: []complex128{1 + 2i, -3 + 0.5i}}
	out := run(t, gg, x)
	if v := real(out[0].data[0]); math.Abs(v-(5+9.25)) > 1e-12 {
		t.Errorf("value %v, want 14.25", v)
	}
	for i, want := range []complex128{2 + 4i, -6 + 1i} {
		if got := out[1].data[i]; cmplx.Abs(got-want) > 1e-12 {
			t.Errorf("grad[%d] = %v, want %v", i, got, want)
		}
	}
}

// Gradient descent on a least-squares fit converges to the normal-equation
// solution, through a prepared gradient program that allocates nothing.
func TestGradLeastSquares(t *testing.T) {
	const m, n = 20, 3
	tr := trace.New()
	A, _ := tr.Input(tf.Float64, m, n)
	yv, _ := tr.Input(tf.Float64, m)
	w, _ := tr.Input(tf.Float64, n)
	pred, _ := tr.Einsum("ij,j->i", A, w)
	r, _ := tr.Sub(pred, yv)
	sq, _ := tr.Square(r)
	loss, _ := tr.Mean(sq)
	g, _ := tr.Finish(loss)
	gg, err := ad.ValueAndGrad(g, 2)
	if err != nil {
		t.Fatal(err)
	}
	p, err := program.Compile(gg)
	if err != nil {
		t.Fatal(err)
	}
	pp, err := program.Prepare(p, engine)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	Ad := randData(rng, tf.Float64, []int{m, n}, -1, 1)
	truth := []float64{0.5, -2, 1}
	yd := tensorData{dt: tf.Float64, shape: []int{m}, data: make([]complex128, m)}
	for i := range m {
		for j := range n {
			yd.data[i] += Ad.data[i+m*j] * complex(truth[j], 0)
		}
	}
	wt, _ := tf.Zeros[float64](n)
	lv, _ := tf.Zeros[float64]()
	gv, _ := tf.Zeros[float64](n)
	ins := []tf.Value{Ad.value(t), yd.value(t), tf.ValueOf(wt)}
	outs := []tf.Value{tf.ValueOf(lv), tf.ValueOf(gv)}
	wd, _ := wt.Data()
	gd, _ := gv.Data()
	step := func() {
		if err := pp.RunInto(outs, ins...); err != nil {
			t.Fatal(err)
		}
		for j := range wd {
			wd[j] -= 0.5 * gd[j]
		}
	}
	for range 2000 {
		step()
	}
	for j, want := range truth {
		if math.Abs(wd[j]-want) > 1e-8 {
			t.Errorf("w[%d] = %v, want %v", j, wd[j], want)
		}
	}
	if !raceEnabled {
		if a := testing.AllocsPerRun(50, step); a != 0 {
			t.Errorf("gradient step: %v allocations, want 0", a)
		}
	}
}

// Hessian-vector products: the JVP of the VJP graph against finite
// differences of the gradient.
func TestHessianVectorProduct(t *testing.T) {
	build := map[string]builder{
		"einsum": func(tr *trace.Trace, xs []trace.Var) (trace.Var, error) {
			y, err := tr.Einsum("ij,jk,ki->", xs[0], xs[0], xs[0])
			if err != nil {
				return y, err
			}
			return tr.Real(y)
		},
		"elementwise": func(tr *trace.Trace, xs []trace.Var) (trace.Var, error) {
			s, _ := tr.Sin(xs[0])
			e, _ := tr.Exp(s)
			m, _ := tr.Mul(e, xs[0])
			l, _ := tr.Sum(m)
			return tr.Real(l)
		},
	}
	for name, f := range build {
		for _, dt := range []tf.DType{tf.Float64, tf.Complex128} {
			t.Run(name+"/"+dt.String(), func(t *testing.T) {
				c := adCase{shapes: [][]int{{3, 3}}, build: f}
				g, _ := c.record(t, dt)
				gg, err := ad.Grad(g, 0)
				if err != nil {
					t.Fatal(err)
				}
				hg, err := ad.JVP(gg, 0)
				if err != nil {
					t.Fatal(err)
				}
				rng := rand.New(rand.NewPCG(3, 4))
				x := randData(rng, dt, []int{3, 3}, -1, 1)
				v := randData(rng, dt, []int{3, 3}, -1, 1)
				hv := run(t, hg, x, v)[1]
				const h = 1e-5
				shift := func(s float64) tensorData {
					d := tensorData{dt: dt, shape: x.shape, data: make([]complex128, len(x.data))}
					for i := range d.data {
						d.data[i] = x.data[i] + complex(s*h, 0)*v.data[i]
					}
					return run(t, gg, d)[0]
				}
				gp, gm := shift(1), shift(-1)
				var e, s float64
				for i := range hv.data {
					fd := (gp.data[i] - gm.data[i]) / (2 * h)
					e += cmplx.Abs(fd-hv.data[i]) * cmplx.Abs(fd-hv.data[i])
					s += cmplx.Abs(fd) * cmplx.Abs(fd)
				}
				if math.Sqrt(e) > 1e-6*math.Max(math.Sqrt(s), 1) {
					t.Errorf("|Hv - fd| = %.3g (|fd| = %.3g)", math.Sqrt(e), math.Sqrt(s))
				}
			})
		}
	}
}

// Sizes at the edges: zero-size and one-element inputs.
func TestEdgeSizes(t *testing.T) {
	cases := []adCase{
		{name: "emptyExp", shapes: [][]int{{0, 3}}, build: unary((*trace.Trace).Exp)},
		{name: "emptySum", shapes: [][]int{{0, 3}}, build: reduce((*trace.Trace).Sum, 0)},
		{name: "emptyEinsum", shapes: [][]int{{3, 0}, {0, 2}}, build: func(tr *trace.Trace, xs []trace.Var) (trace.Var, error) {
			return tr.Einsum("ij,jk->ik", xs...)
		}},
		{name: "emptyProd", shapes: [][]int{{0, 2}}, build: reduce((*trace.Trace).Prod, 0)},
		{name: "oneElement", shapes: [][]int{{1, 1}}, build: reduce((*trace.Trace).Prod)},
		{name: "scalar", shapes: [][]int{{}}, build: unary((*trace.Trace).Tanh)},
	}
	runCases(t, cases)
}

func TestErrors(t *testing.T) {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 3)
	i, _ := tr.Input(tf.Int64, 3)
	y, _ := tr.Exp(x)
	g, _ := tr.Finish(y, i)

	check := func(name string, err error, kind error) {
		t.Helper()
		var e *tf.Error
		if !errors.Is(err, kind) || !errors.As(err, &e) {
			t.Errorf("%s: %v, want a *tenferro.Error matching %v", name, err, kind)
		}
	}
	_, err := ad.VJP(g, 2)
	check("input out of range", err, tf.ErrArgument)
	_, err = ad.JVP(g, 0, 0)
	check("repeated input", err, tf.ErrArgument)
	_, err = ad.VJP(g, 1)
	check("integer input", err, tf.ErrDType)
	_, err = ad.Grad(g, 0)
	check("two outputs", err, tf.ErrArgument)
	_, err = ad.VJP(nil, 0)
	check("nil graph", err, tf.ErrArgument)

	tr = trace.New()
	x, _ = tr.Input(tf.Float64, 3)
	g, _ = tr.Finish(x)
	_, err = ad.Grad(g, 0)
	check("non-scalar loss", err, tf.ErrShape)

	tr = trace.New()
	z, _ := tr.Input(tf.Complex128)
	g, _ = tr.Finish(z)
	_, err = ad.Grad(g, 0)
	check("complex loss", err, tf.ErrDType)

	tr = trace.New()
	x, _ = tr.Input(tf.Float64, 3)
	m, _ := tr.Input(tf.Bool, 3)
	s, _ := tr.MaskedSelect(x, m, 2)
	g, _ = tr.Finish(s)
	if _, err := ad.VJP(g, 0); err != nil {
		t.Errorf("MaskedSelect VJP: %v", err)
	}
}

// Outputs that do not depend on the wrt inputs get zero tangents and
// cotangents; integer outputs get none.
func TestIndependentOutputs(t *testing.T) {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 2)
	w, _ := tr.Input(tf.Float64, 2)
	y, _ := tr.Exp(w)
	am, _ := tr.ArgMax(x, 0)
	g, _ := tr.Finish(y, am, x)
	jg, err := ad.JVP(g, 0)
	if err != nil {
		t.Fatal(err)
	}
	xd := tensorData{dt: tf.Float64, shape: []int{2}, data: []complex128{1, 2}}
	vd := tensorData{dt: tf.Float64, shape: []int{2}, data: []complex128{3, 4}}
	out := run(t, jg, xd, xd, vd)
	if len(out) != 5 {
		t.Fatalf("%d outputs, want 5 (three primal, two tangents)", len(out))
	}
	if out[3].data[0] != 0 || out[3].data[1] != 0 || out[4].data[1] != 4 {
		t.Errorf("tangents %v %v", out[3].data, out[4].data)
	}
}

// ValueAndGradFunc traces once per signature and engine, and a warm call
// allocates nothing.
func TestValueAndGradFunc(t *testing.T) {
	traces := 0
	f := ad.ValueAndGradFunc(func(tr *trace.Trace, xs []trace.Var) (trace.Var, error) {
		traces++
		p, err := tr.Mul(xs[0], xs[1])
		if err != nil {
			return p, err
		}
		return tr.Sum(p)
	}, []int{0})
	x, _ := tf.FromSlice([]float64{1, 2, 3}, 3)
	y, _ := tf.FromSlice([]float64{4, 5, 6}, 3)
	out, err := f.Run(engine, tf.ValueOf(x), tf.ValueOf(y))
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 2 {
		t.Fatalf("%d outputs, want 2", len(out))
	}
	if d := fromValue(t, out[0]).data[0]; d != 32 {
		t.Errorf("value %v, want 32", d)
	}
	if g := fromValue(t, out[1]).data; g[0] != 4 || g[2] != 6 {
		t.Errorf("gradient %v, want y", g)
	}
	l, _ := tf.Zeros[float64]()
	gx, _ := tf.Zeros[float64](3)
	outs := []tf.Value{tf.ValueOf(l), tf.ValueOf(gx)}
	in := []tf.Value{tf.ValueOf(x), tf.ValueOf(y)}
	call := func() {
		if err := f.RunInto(engine, outs, in...); err != nil {
			t.Fatal(err)
		}
	}
	call()
	if !raceEnabled {
		if a := testing.AllocsPerRun(20, call); a != 0 {
			t.Errorf("warm call: %v allocations, want 0", a)
		}
	}
	x2, _ := tf.FromSlice([]float64{1, 2}, 2)
	if _, err := f.Run(engine, tf.ValueOf(x2), tf.ValueOf(x2)); err != nil {
		t.Fatal(err)
	}
	other := cpu.Serial()
	defer other.Close()
	if _, err := f.Run(other, tf.ValueOf(x), tf.ValueOf(y)); err != nil {
		t.Fatal(err)
	}
	call()
	if traces != 3 {
		t.Errorf("%d traces, want 3 (two signatures, two engines)", traces)
	}
	if _, err := f.Run(nil, tf.ValueOf(x), tf.ValueOf(y)); !errors.Is(err, tf.ErrArgument) {
		t.Errorf("nil engine: %v", err)
	}
}

// Prod with zeros in the set: the gradient and the Hessian-vector product
// are the exact ones (Π over the other elements, and over the other two).
func TestProdZeros(t *testing.T) {
	for _, c := range []struct {
		x, grad, hv []float64
	}{
		{[]float64{2, 3, 0}, []float64{0, 0, 6}, []float64{3, 2, 5}},
		{[]float64{2, 3, 0, 0}, []float64{0, 0, 0, 0}, []float64{0, 0, 6, 6}},
		{[]float64{0, 0, 0, 2}, []float64{0, 0, 0, 0}, []float64{0, 0, 0, 0}},
		{[]float64{2, 3, 4}, []float64{12, 8, 6}, []float64{7, 6, 5}},
	} {
		n := len(c.x)
		tr := trace.New()
		x, _ := tr.Input(tf.Float64, n)
		p, _ := tr.Prod(x)
		g, _ := tr.Finish(p)
		gg, err := ad.Grad(g, 0)
		if err != nil {
			t.Fatal(err)
		}
		hg, err := ad.JVP(gg, 0)
		if err != nil {
			t.Fatal(err)
		}
		xd := tensorData{dt: tf.Float64, shape: []int{n}}
		vd := tensorData{dt: tf.Float64, shape: []int{n}}
		for _, v := range c.x {
			xd.data = append(xd.data, complex(v, 0))
			vd.data = append(vd.data, 1)
		}
		out := run(t, hg, xd, vd)
		for i := range n {
			if out[0].data[i] != complex(c.grad[i], 0) || out[1].data[i] != complex(c.hv[i], 0) {
				t.Errorf("x = %v: gradient %v, H·1 %v; want %v, %v", c.x, out[0].data, out[1].data, c.grad, c.hv)
				break
			}
		}
	}
}
