package tenferro_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/backend/enginetest"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/program"
	"github.com/tenferro-go/tenferro/trace"
)

// erfInputs are the special values and tails Erf and Erfc are checked on,
// besides random ones: signed zeros, infinities, NaN, subnormals, the
// points where erfc underflows in float32 and float64, and the largest
// finite values.
var erfInputs = []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 5e-324, -1e-310,
	1e-30, 0.5, -0.5, 0.84375, 1.25, -2.857, 6, -6, 9.1, 10.05, 26.5, 27.3, -27.3, math.MaxFloat32, -math.MaxFloat64}

// TestErf checks Erf and Erfc of float32 and float64 tensors, eagerly, in
// place and in compiled programs with and without fusion, against
// math.Erf and math.Erfc (float32 through float64, rounded once), on the
// special values above and random ones of awkward sizes in every layout:
// special values exactly, the others within the kernels' bounds (1 and
// 2.5 ulps in float64, 1.1 and 3.1 in float32) plus an ulp for package
// math's own error (and float32's rounding of it).
func TestErf(t *testing.T) {
	e := cpu.Serial()
	defer e.Close()
	testErf[float32](t, e)
	testErf[float64](t, e)
}

func testErf[T tf.Float](t *testing.T, e tf.Engine) {
	r := rand.New(rand.NewPCG(3, uint64(tf.DTypeOf[T]())))
	ops := []struct {
		name   string
		eager  func(tf.Engine, *tf.Tensor[T]) (*tf.Tensor[T], error)
		into   func(tf.Engine, *tf.Tensor[T], *tf.Tensor[T]) error
		traced func(*trace.Trace, trace.Var) (trace.Var, error)
		ref    func(float64) float64
		ulps   float64
	}{
		{"Erf", tf.Erf[T], tf.ErfInto[T], (*trace.Trace).Erf, math.Erf, 2},
		{"Erfc", tf.Erfc[T], tf.ErfcInto[T], (*trace.Trace).Erfc, math.Erfc, 4},
	}
	want := func(f func(float64) float64, x T) T { return T(f(float64(x))) }
	same := func(a, b T) bool {
		return a == b && math.Signbit(float64(a)) == math.Signbit(float64(b)) || a != a && b != b
	}
	// near: a and b agree within n ulps of b, or exactly where b is 0 or
	// not finite.
	near := func(a, b T, n float64) bool {
		w := float64(b)
		if same(a, b) {
			return true
		}
		if w == 0 || math.IsInf(w, 0) || w != w {
			return false
		}
		var ulp float64
		if tf.DTypeOf[T]() == tf.Float32 {
			ulp = float64(math.Nextafter32(float32(math.Abs(w)), float32(math.Inf(1)))) - math.Abs(w)
		} else {
			ulp = math.Nextafter(math.Abs(w), math.Inf(1)) - math.Abs(w)
		}
		return math.Abs(float64(a)-w) <= n*ulp
	}
	for _, o := range ops {
		specials := make([]T, len(erfInputs))
		for i, v := range erfInputs {
			specials[i] = T(v)
		}
		sp, _ := tf.FromSlice(specials, len(specials))
		inputs := []*tf.Tensor[T]{sp}
		for _, shape := range [][]int{{}, {0}, {1}, {13}, {1031}, {7, 0}, {17, 5}, {3, 1, 11}} {
			for kind := range enginetest.NumLayouts {
				x := enginetest.Operand[T](t, r, shape, kind)
				enginetest.Each(shape, func(idx []int) {
					v, _ := x.At(idx...)
					x.Set(v*T(3), idx...) // into the tails: erfc(-6) is 2, erf(6) is 1
				})
				inputs = append(inputs, x)
			}
		}
		for _, x := range inputs {
			what := fmt.Sprintf("%s %v %v strides %v", o.name, tf.DTypeOf[T](), x.Shape(), x.Strides())
			check := func(how string, got *tf.Tensor[T], in *tf.Tensor[T]) {
				t.Helper()
				enginetest.Each(in.Shape(), func(idx []int) {
					v, _ := in.At(idx...)
					g, _ := got.At(idx...)
					if w := want(o.ref, v); !near(g, w, o.ulps) {
						t.Fatalf("%s %s: %s(%v) = %v, want %v", what, how, o.name, v, g, w)
					}
				})
			}
			y, err := o.eager(e, x)
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			check("eager", y, x)
			// In place, on a copy of x.
			xc, _ := tf.Copy(e, x)
			if err := o.into(e, xc, xc); err != nil {
				t.Fatalf("%s in place: %v", what, err)
			}
			check("in place", xc, x)
			// Traced, fused with a scaling before and a product after:
			// o(1·x)·1 is o(x) exactly, signed zeros included.
			tr := trace.New()
			vx, _ := tr.Input(tf.DTypeOf[T](), x.Shape()...)
			v := must(o.traced(tr, must(tr.Scale(1, vx))))
			v = must(tr.Mul(v, must(tr.Full(tf.DTypeOf[T](), 1))))
			g, err := tr.Finish(v)
			if err != nil {
				t.Fatal(err)
			}
			for _, opts := range [][]program.Option{nil, {program.WithoutFusion()}} {
				p, err := program.Compile(g, opts...)
				if err != nil {
					t.Fatal(err)
				}
				if opts == nil && p.NumCommands() != 1 {
					t.Errorf("%s: %d commands, want one fused command:\n%v", what, p.NumCommands(), p)
				}
				pp, err := program.Prepare(p, e)
				if err != nil {
					t.Fatal(err)
				}
				outs, err := pp.Run(tf.ValueOf(x))
				if err != nil {
					t.Fatalf("%s program: %v", what, err)
				}
				got, _ := tf.As[T](outs[0])
				check(fmt.Sprintf("program (%d options)", len(opts)), got, x)
			}
		}
	}
}
