package program_test

import (
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/program"
	"github.com/tenferro-go/tenferro/trace"
)

// tileCase records a graph whose reductions and elementwise commands
// should run in row blocks.
type tileCase struct {
	name    string
	complex bool // also for complex dtypes (no Max, Min or LogSumExp)
	build   func(tr *trace.Trace, dt tf.DType) []trace.Var
}

func must(v trace.Var, err error) trace.Var {
	if err != nil {
		panic(err)
	}
	return v
}

var tileCases = []tileCase{
	{"softmax last axis", false, func(tr *trace.Trace, dt tf.DType) []trace.Var {
		return []trace.Var{softmaxVar(tr, must(tr.Input(dt, 37, 129)), 1)}
	}},
	{"softmax first axis", false, func(tr *trace.Trace, dt tf.DType) []trace.Var {
		return []trace.Var{softmaxVar(tr, must(tr.Input(dt, 129, 37)), 0)}
	}},
	{"3-d, two reduced axes, broadcast bias", false, func(tr *trace.Trace, dt tf.DType) []trace.Var {
		x := must(tr.Input(dt, 5, 7, 61))
		b := must(tr.Input(dt, 7, 61)) // right-aligned: spans the tile axis
		y := must(tr.Add(x, b))
		l := must(tr.LogSumExp(y, 0, 1))
		lk := must(tr.Reshape(l, 1, 1, 61))
		return []trace.Var{must(tr.Exp(must(tr.Sub(y, lk))))}
	}},
	{"fixed broadcast operand, intermediate outputs", true, func(tr *trace.Trace, dt tf.DType) []trace.Var {
		x := must(tr.Input(dt, 53, 19))
		b := must(tr.Input(dt, 19)) // aligned with the reduced axis: fixed
		y := must(tr.Mul(x, b))
		m := must(tr.Mean(y, 1))
		d := must(tr.Sub(y, must(tr.Reshape(m, 53, 1))))
		q := must(tr.Mul(d, d))
		v := must(tr.Sum(q, 1))
		z := must(tr.Scale(0.5, must(tr.Add(q, must(tr.Reshape(v, 53, 1))))))
		// y is read again after the run, by a command that does not tile.
		w := must(tr.Matmul(must(tr.Permute(y, 1, 0)), z))
		return []trace.Var{z, m, w}
	}},
	{"softmax first axis read by Complex, which does not tile", false, func(tr *trace.Trace, dt tf.DType) []trace.Var {
		x := must(tr.Input(dt, 129, 37))
		m := must(tr.Reshape(must(tr.Max(x, 0)), 1, 37))
		y := must(tr.Exp(must(tr.Sub(x, m))))
		s := must(tr.Reshape(must(tr.Sum(y, 0)), 1, 37))
		q := must(tr.Div(y, s))
		// y and q are read after the run, by a command of another dtype.
		return []trace.Var{must(tr.Complex(y, q)), must(tr.Complex(m, must(tr.Full(dt, 0.5))))}
	}},
	{"chain of reductions", false, func(tr *trace.Trace, dt tf.DType) []trace.Var {
		x := must(tr.Input(dt, 3, 41, 23))
		s := must(tr.Sum(x, 0))  // (41, 23)
		p := must(tr.Prod(s, 1)) // (41,)
		mx := must(tr.Max(s, 1)) // (41,)
		mn := must(tr.Min(s, 1)) // (41,)
		r := must(tr.Add(must(tr.Sub(mx, mn)), p))
		return []trace.Var{must(tr.Scale(2, r))}
	}},
}

// softmaxVar records exp(x - max) / sum over axis of a 2-d x.
func softmaxVar(tr *trace.Trace, x trace.Var, axis int) trace.Var {
	shape := x.Shape()
	keep := []int{shape[0], 1}
	if axis == 0 {
		keep = []int{1, shape[1]}
	}
	m := must(tr.Reshape(must(tr.Max(x, axis)), keep...))
	y := must(tr.Exp(must(tr.Sub(x, m))))
	s := must(tr.Reshape(must(tr.Sum(y, axis)), keep...))
	return must(tr.Div(y, s))
}

// TestTiling runs programs whose commands tile, with blocks small enough
// to give several blocks and a partial last one, against the same graphs
// compiled without fusion and tiling, on compact and strided inputs.
func TestTiling(t *testing.T) {
	for _, rows := range []int{1, 4, 7} {
		restore := program.SetTileRows(rows)
		for _, tc := range tileCases {
			dts := []tf.DType{tf.Float32, tf.Float64}
			if tc.complex {
				dts = append(dts, tf.Complex64, tf.Complex128)
			}
			for _, dt := range dts {
				t.Run(fmt.Sprintf("%s/%v/rows=%d", tc.name, dt, rows), func(t *testing.T) { checkTiled(t, tc, dt) })
			}
		}
		restore()
	}
}

func checkTiled(t *testing.T, tc tileCase, dt tf.DType) {
	tr := trace.New()
	g, err := tr.Finish(tc.build(tr, dt)...)
	if err != nil {
		t.Fatal(err)
	}
	tiled, err := program.Compile(g)
	if err != nil {
		t.Fatal(err)
	}
	if tiled.Stats().Tiled == 0 {
		t.Fatalf("no command runs in blocks:\n%s", tiled)
	}
	plain, err := program.Compile(g, program.WithoutFusion())
	if err != nil {
		t.Fatal(err)
	}
	if plain.Stats().Tiled != 0 {
		t.Fatalf("WithoutFusion tiles:\n%s", plain)
	}
	compareWithPlain(t, tiled, plain, dt, true)
}

// compareWithPlain runs an optimized program and the same graph compiled
// plainly on compact and strided inputs and compares every output within
// a few eps; twice when again, which must give the same bits.
func compareWithPlain(t *testing.T, opt, plain *program.Program, dt tf.DType, again bool) {
	t.Helper()
	e := newEngine(t)
	po, err := program.Prepare(opt, e)
	if err != nil {
		t.Fatal(err)
	}
	pu, _ := program.Prepare(plain, e)
	r := rand.New(rand.NewPCG(5, 6))
	for _, mk := range []func(*rand.Rand, tf.DType, ...int) tf.Value{randValue, stridedValue} {
		ins := make([]tf.Value, opt.NumInputs())
		for i := range ins {
			d, shape := opt.InputSignature(i)
			ins[i] = mk(r, d, shape...)
		}
		got, err := po.Run(ins...)
		if err != nil {
			t.Fatalf("%v\n%s", err, opt)
		}
		want, err := pu.Run(ins...)
		if err != nil {
			t.Fatal(err)
		}
		for j := range want {
			g, w := elems(got[j]), elems(want[j])
			for k := range w {
				if d := cmplx.Abs(g[k] - w[k]); d > 64*eps(dt)*(cmplx.Abs(w[k])+1) || math.IsNaN(d) {
					t.Fatalf("output %d element %d: %v, want %v\n%s", j, k, g[k], w[k], opt)
				}
			}
		}
		if !again {
			continue
		}
		// A second run over the same registers gives the same result.
		rerun, err := po.Run(ins...)
		if err != nil {
			t.Fatal(err)
		}
		for j := range rerun {
			if a, b := elems(rerun[j]), elems(got[j]); fmt.Sprint(a) != fmt.Sprint(b) {
				t.Fatalf("output %d differs between runs", j)
			}
		}
	}
}

// TestTilingKeepsRunIntoAllocationFree replays a tiled softmax with
// RunInto and counts allocations.
func TestTilingKeepsRunIntoAllocationFree(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's sync.Pool drops pooled kernel state")
	}
	defer program.SetTileRows(5)()
	defer func(b int) { cpu.FusedReduceBlock = b }(cpu.FusedReduceBlock)
	cpu.FusedReduceBlock = 64 // several blocks per fused reduction
	// Over the first axis, and over the last one, where the fused sum
	// reduces its last axis and its partial results shrink for the last,
	// shorter block of 64 rows.
	for axis := range 2 {
		p, err := softmaxAxis(tf.Float32, 64, 96, axis)
		if err != nil {
			t.Fatal(err)
		}
		if p.Stats().Tiled == 0 {
			t.Fatalf("axis %d: not tiled:\n%s", axis, p)
		}
		e := newEngine(t)
		pp, _ := program.Prepare(p, e)
		x, _ := tf.RandN[float32](1, 64, 96)
		out, _ := tf.Zeros[float32](64, 96)
		outs := []tf.Value{tf.ValueOf(out)}
		if n := testing.AllocsPerRun(20, func() {
			if err := pp.RunInto(outs, tf.ValueOf(x)); err != nil {
				t.Fatal(err)
			}
		}); n != 0 {
			t.Errorf("axis %d: RunInto allocates %v times", axis, n)
		}
	}
}

// TestTilingChoosesLongRuns checks that the default tiling leaves a
// softmax over the last axis of a column-major matrix alone (its blocks
// would be short runs of memory) and tiles the one over the first axis.
func TestTilingChoosesLongRuns(t *testing.T) {
	last, _ := softmaxAxis(tf.Float32, 4096, 4096, 1)
	first, _ := softmaxAxis(tf.Float32, 4096, 4096, 0)
	if last.Stats().Tiled != 0 || first.Stats().Tiled != 3 {
		t.Errorf("tiled commands: last axis %d, first axis %d; want 0 and 3\n%s\n%s", last.Stats().Tiled, first.Stats().Tiled, last, first)
	}
}
