package ad_test

import (
	"fmt"
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

// The test harness: every case is a function recorded on a trace, checked
// at random points against central finite differences (JVP) and by the
// dot-product test between its JVP and VJP graphs.

type builder func(tr *trace.Trace, xs []trace.Var) (trace.Var, error)

type adCase struct {
	name    string
	shapes  [][]int
	build   builder
	lo, hi  float64 // range of the real (and imaginary) parts of the inputs
	real    bool    // real dtypes only
	fdTol   float64 // relative tolerance of the finite-difference check (default 1e-6)
	noFD    bool    // skip finite differences (a function with kinks near the samples)
	intArgs map[int][]int64
}

var engine = cpu.Serial()

// tensorData is a dense column-major tensor as complex128 values.
type tensorData struct {
	dt    tf.DType
	shape []int
	data  []complex128
}

func numel(shape []int) int {
	n := 1
	for _, e := range shape {
		n *= e
	}
	return n
}

func randData(rng *rand.Rand, dt tf.DType, shape []int, lo, hi float64) tensorData {
	d := tensorData{dt: dt, shape: shape, data: make([]complex128, numel(shape))}
	for i := range d.data {
		re := lo + (hi-lo)*rng.Float64()
		im := 0.0
		if dt.IsComplex() {
			im = lo + (hi-lo)*rng.Float64()
		}
		d.data[i] = complex(re, im)
	}
	return d
}

func (d tensorData) value(t testing.TB) tf.Value {
	t.Helper()
	var v tf.Value
	var err error
	switch d.dt {
	case tf.Float64:
		xs := make([]float64, len(d.data))
		for i, z := range d.data {
			xs[i] = real(z)
		}
		var x *tf.Tensor[float64]
		x, err = tf.FromSlice(xs, d.shape...)
		v = tf.ValueOf(x)
	case tf.Complex128:
		var x *tf.Tensor[complex128]
		x, err = tf.FromSlice(append([]complex128(nil), d.data...), d.shape...)
		v = tf.ValueOf(x)
	case tf.Int64:
		xs := make([]int64, len(d.data))
		for i, z := range d.data {
			xs[i] = int64(real(z))
		}
		var x *tf.Tensor[int64]
		x, err = tf.FromSlice(xs, d.shape...)
		v = tf.ValueOf(x)
	default:
		t.Fatalf("dtype %v", d.dt)
	}
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func fromValue(t testing.TB, v tf.Value) tensorData {
	t.Helper()
	raw, err := v.Data()
	if err != nil {
		t.Fatal(err)
	}
	d := tensorData{dt: v.DType(), shape: v.Shape()}
	switch xs := raw.(type) {
	case []float64:
		for _, x := range xs {
			d.data = append(d.data, complex(x, 0))
		}
	case []float32:
		for _, x := range xs {
			d.data = append(d.data, complex(float64(x), 0))
		}
	case []complex128:
		d.data = append(d.data, xs...)
	case []complex64:
		for _, x := range xs {
			d.data = append(d.data, complex128(x))
		}
	case []int64:
		for _, x := range xs {
			d.data = append(d.data, complex(float64(x), 0))
		}
	default:
		t.Fatalf("output data %T", raw)
	}
	return d
}

// run compiles g and runs it on the inputs.
func run(t testing.TB, g *trace.Graph, in ...tensorData) []tensorData {
	t.Helper()
	res, err := runErr(t, g, in...)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return res
}

// runErr is run returning the run's error.
func runErr(t testing.TB, g *trace.Graph, in ...tensorData) ([]tensorData, error) {
	t.Helper()
	p, err := program.Compile(g)
	if err != nil {
		t.Fatalf("Compile: %v\n%v", err, g)
	}
	pp, err := program.Prepare(p, engine)
	if err != nil {
		t.Fatal(err)
	}
	vals := make([]tf.Value, len(in))
	for i, d := range in {
		vals[i] = d.value(t)
	}
	outs, err := pp.Run(vals...)
	if err != nil {
		return nil, err
	}
	res := make([]tensorData, len(outs))
	for i, o := range outs {
		res[i] = fromValue(t, o)
	}
	return res, nil
}

// inner is Re Σ conj(a)·b.
func inner(a, b tensorData) float64 {
	s := 0.0
	for i := range a.data {
		s += real(cmplx.Conj(a.data[i]) * b.data[i])
	}
	return s
}

func norm(a tensorData) float64 { return math.Sqrt(inner(a, a)) }

// record traces c on inputs of dtype dt (integer arguments stay int64).
func (c *adCase) record(t *testing.T, dt tf.DType) (*trace.Graph, []tf.DType) {
	t.Helper()
	tr := trace.New()
	xs := make([]trace.Var, len(c.shapes))
	dts := make([]tf.DType, len(c.shapes))
	for i, s := range c.shapes {
		dts[i] = dt
		if _, ok := c.intArgs[i]; ok {
			dts[i] = tf.Int64
		}
		v, err := tr.Input(dts[i], s...)
		if err != nil {
			t.Fatal(err)
		}
		xs[i] = v
	}
	y, err := c.build(tr, xs)
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	g, err := tr.Finish(y)
	if err != nil {
		t.Fatal(err)
	}
	return g, dts
}

func (c *adCase) inputs(rng *rand.Rand, dts []tf.DType) []tensorData {
	lo, hi := c.lo, c.hi
	if lo == 0 && hi == 0 {
		lo, hi = -1, 1
	}
	in := make([]tensorData, len(c.shapes))
	for i, s := range c.shapes {
		if idx, ok := c.intArgs[i]; ok {
			d := tensorData{dt: tf.Int64, shape: s}
			for _, v := range idx {
				d.data = append(d.data, complex(float64(v), 0))
			}
			in[i] = d
			continue
		}
		in[i] = randData(rng, dts[i], s, lo, hi)
	}
	return in
}

func (c *adCase) wrt() []int {
	var w []int
	for i := range c.shapes {
		if _, ok := c.intArgs[i]; !ok {
			w = append(w, i)
		}
	}
	return w
}

// check runs the finite-difference and dot-product tests of c in dtype dt.
func (c *adCase) check(t *testing.T, dt tf.DType) {
	g, dts := c.record(t, dt)
	wrt := c.wrt()
	rng := rand.New(rand.NewPCG(7, uint64(len(c.name))))
	x := c.inputs(rng, dts)
	v := make([]tensorData, len(wrt))
	for k, i := range wrt {
		v[k] = randData(rng, dts[i], c.shapes[i], -1, 1)
	}
	y := run(t, g, x...)[0]
	ybar := randData(rng, y.dt, y.shape, -1, 1)

	jg, err := ad.JVP(g, wrt...)
	if err != nil {
		t.Fatalf("JVP: %v", err)
	}
	jout := run(t, jg, append(append([]tensorData{}, x...), v...)...)
	jv := jout[1]

	if !c.noFD {
		const h = 1e-6
		shift := func(s float64) []tensorData {
			xs := append([]tensorData{}, x...)
			for k, i := range wrt {
				d := tensorData{dt: x[i].dt, shape: x[i].shape, data: make([]complex128, len(x[i].data))}
				for j := range d.data {
					d.data[j] = x[i].data[j] + complex(s*h, 0)*v[k].data[j]
				}
				xs[i] = d
			}
			return xs
		}
		yp, ym := run(t, g, shift(1)...)[0], run(t, g, shift(-1)...)[0]
		fd := tensorData{dt: y.dt, shape: y.shape, data: make([]complex128, len(y.data))}
		for j := range fd.data {
			fd.data[j] = (yp.data[j] - ym.data[j]) / (2 * h)
		}
		tol := c.fdTol
		if tol == 0 {
			tol = 1e-6
		}
		diff := tensorData{data: make([]complex128, len(fd.data))}
		for j := range diff.data {
			diff.data[j] = fd.data[j] - jv.data[j]
		}
		if e, s := norm(diff), norm(fd)+norm(jv); e > tol*math.Max(s, 1) {
			t.Errorf("JVP vs finite differences: |fd - jvp| = %.3g (|fd| %.3g, |jvp| %.3g)\nfd  %v\njvp %v", e, norm(fd), norm(jv), fd.data, jv.data)
		}
	}

	vg, err := ad.VJP(g, wrt...)
	if err != nil {
		t.Fatalf("VJP: %v", err)
	}
	vout := run(t, vg, append(append([]tensorData{}, x...), ybar)...)
	lhs := inner(ybar, jv)
	rhs := 0.0
	scale := math.Abs(lhs)
	for k := range wrt {
		xb := vout[1+k]
		rhs += inner(xb, v[k])
		scale += norm(xb) * norm(v[k])
	}
	if math.Abs(lhs-rhs) > 1e-10*math.Max(scale, 1e-300) {
		t.Errorf("dot-product test: <ybar, J v> = %.15g, <J* ybar, v> = %.15g", lhs, rhs)
	}
}

func runCases(t *testing.T, cases []adCase) {
	for i := range cases {
		c := &cases[i]
		for _, dt := range []tf.DType{tf.Float64, tf.Complex128} {
			if c.real && dt.IsComplex() {
				continue
			}
			t.Run(fmt.Sprintf("%s/%v", c.name, dt), func(t *testing.T) { c.check(t, dt) })
		}
	}
}
