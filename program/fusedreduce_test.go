package program_test

import (
	"fmt"
	"math"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/program"
	"github.com/tenferro-go/tenferro/trace"
)

// fusedReduceCases record reductions of elementwise trees that have no
// other reader, which compile into one fused reduction, and of elementwise
// results that are also read elsewhere, which the reduction stores as it
// reduces them.
var fusedReduceCases = []struct {
	name    string
	complex bool
	build   func(tr *trace.Trace, dt tf.DType) trace.Var
}{
	{"sum of squares, last axis", true, func(tr *trace.Trace, dt tf.DType) trace.Var {
		x := must(tr.Input(dt, 13, 29))
		return must(tr.Sum(must(tr.Mul(x, x)), 1))
	}},
	{"mean of squared deviations, first axis", true, func(tr *trace.Trace, dt tf.DType) trace.Var {
		x := must(tr.Input(dt, 13, 29))
		b := must(tr.Input(dt, 29)) // broadcast along the reduced axis
		d := must(tr.Sub(x, b))
		return must(tr.Mean(must(tr.Mul(d, d)), 0))
	}},
	{"max of a 3-d tree over two axes", false, func(tr *trace.Trace, dt tf.DType) trace.Var {
		x := must(tr.Input(dt, 3, 17, 11))
		c := must(tr.Full(dt, 0.5))
		return must(tr.Max(must(tr.Tanh(must(tr.Add(x, c)))), 0, 2))
	}},
	{"min over all axes", false, func(tr *trace.Trace, dt tf.DType) trace.Var {
		x := must(tr.Input(dt, 9, 1, 31))
		return must(tr.Min(must(tr.Negate(x)), 0, 1, 2))
	}},
	{"stored and reduced (last axis reduced)", true, func(tr *trace.Trace, dt tf.DType) trace.Var {
		x := must(tr.Input(dt, 13, 29))
		y := must(tr.Exp(must(tr.Scale(0.25, x)))) // read twice: stored
		s := must(tr.Reshape(must(tr.Sum(y, 1)), 13, 1))
		return must(tr.Div(y, s))
	}},
	{"stored and reduced (last axis kept)", false, func(tr *trace.Trace, dt tf.DType) trace.Var {
		x := must(tr.Input(dt, 13, 29))
		y := must(tr.Sub(x, must(tr.Full(dt, 1))))
		m := must(tr.Reshape(must(tr.Max(y, 0)), 1, 29))
		return must(tr.Mul(y, m))
	}},
	{"prod with keepdims", true, func(tr *trace.Trace, dt tf.DType) trace.Var {
		x := must(tr.Input(dt, 7, 6))
		y := must(tr.Scale(0.5, must(tr.Add(x, x))))
		return must(tr.Reshape(must(tr.Prod(y, 1)), 7, 1))
	}},
}

// TestFusedReductions compares fused reductions, evaluated in blocks of
// several sizes (one block, blocks along a kept last axis, blocks along a
// reduced one combined pairwise), with the same graphs compiled without
// fusion, on compact and strided inputs.
func TestFusedReductions(t *testing.T) {
	defer func(b int) { cpu.FusedReduceBlock = b }(cpu.FusedReduceBlock)
	for _, block := range []int{1 << 15, 40, 7, 1} {
		cpu.FusedReduceBlock = block
		for _, tc := range fusedReduceCases {
			dts := []tf.DType{tf.Float32, tf.Float64}
			if tc.complex {
				dts = append(dts, tf.Complex128)
			}
			for _, dt := range dts {
				t.Run(fmt.Sprintf("%s/%v/block=%d", tc.name, dt, block), func(t *testing.T) {
					tr := trace.New()
					g, err := tr.Finish(tc.build(tr, dt))
					if err != nil {
						t.Fatal(err)
					}
					fused, _ := program.Compile(g)
					plain, _ := program.Compile(g, program.WithoutFusion())
					if fused.NumCommands() >= plain.NumCommands() {
						t.Fatalf("not fused:\n%s", fused)
					}
					compareWithPlain(t, fused, plain, dt, false)
				})
			}
		}
	}
}

// TestFusedReductionSpecialValues checks that a NaN reaches a fused Max
// from any block, and that an empty reduced set gives the identity.
func TestFusedReductionSpecialValues(t *testing.T) {
	defer func(b int) { cpu.FusedReduceBlock = b }(cpu.FusedReduceBlock)
	cpu.FusedReduceBlock = 5
	tr := trace.New()
	x := must(tr.Input(tf.Float64, 4, 9))
	m := must(tr.Max(must(tr.Abs(x)), 1))
	g, _ := tr.Finish(m)
	p, _ := program.Compile(g)
	pp, _ := program.Prepare(p, newEngine(t))
	for pos := range 36 {
		data := make([]float64, 36)
		data[pos] = math.NaN()
		in, _ := tf.FromSlice(data, 4, 9)
		out, err := pp.Run(tf.ValueOf(in))
		if err != nil {
			t.Fatal(err)
		}
		got, _ := tf.As[float64](out[0])
		v, _ := got.At(pos % 4)
		if !math.IsNaN(v) {
			t.Fatalf("NaN at %d: row %d gives %v", pos, pos%4, v)
		}
	}
	tr = trace.New()
	e := must(tr.Input(tf.Float64, 3, 0))
	s := must(tr.Sum(must(tr.Mul(e, e)), 1))
	g, _ = tr.Finish(s)
	p, _ = program.Compile(g)
	pp, _ = program.Prepare(p, newEngine(t))
	in, _ := tf.Zeros[float64](3, 0)
	out, err := pp.Run(tf.ValueOf(in))
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(out[0]); got != "Tensor[f64] (3,)\n[0 0 0]" {
		t.Errorf("sum over an empty axis: %s", got)
	}
}

// TestFusedReductionAllocationFree replays a fused reduction over several
// blocks with RunInto and counts allocations.
func TestFusedReductionAllocationFree(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's sync.Pool drops pooled kernel state")
	}
	defer func(b int) { cpu.FusedReduceBlock = b }(cpu.FusedReduceBlock)
	cpu.FusedReduceBlock = 64
	tr := trace.New()
	x := must(tr.Input(tf.Float32, 33, 65))
	g, _ := tr.Finish(must(tr.Sum(must(tr.Mul(x, x)), 1)))
	p, _ := program.Compile(g)
	pp, _ := program.Prepare(p, newEngine(t))
	in, _ := tf.RandN[float32](2, 33, 65)
	out, _ := tf.Zeros[float32](33)
	outs := []tf.Value{tf.ValueOf(out)}
	if n := testing.AllocsPerRun(20, func() {
		if err := pp.RunInto(outs, tf.ValueOf(in)); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("RunInto allocates %v times", n)
	}
}
