package program_test

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/internal/op"
	"github.com/tenferro-go/tenferro/program"
	"github.com/tenferro-go/tenferro/team"
	"github.com/tenferro-go/tenferro/trace"
)

func TestRunIntoAllocatesNothing(t *testing.T) {
	tm, err := team.New(team.Threads(2))
	if err != nil {
		t.Fatal(err)
	}
	te, err := cpu.New(tm)
	if err != nil {
		t.Fatal(err)
	}
	defer te.Close()
	engines := map[string]tf.Engine{"serial": newEngine(t), "team": te}
	compiles := map[string][]program.Option{"": nil, " unfused": {program.WithoutFusion()}}
	for name, e := range engines {
		for cname, opts := range compiles {
			for _, dt := range tf.ScalarDTypes {
				g := mixedGraph(t, dt)
				p, err := program.Compile(g, opts...)
				if err != nil {
					t.Fatal(err)
				}
				pp, err := program.Prepare(p, e)
				if err != nil {
					t.Fatal(err)
				}
				r := rand.New(rand.NewPCG(11, 12))
				ins := []tf.Value{stridedValue(r, dt, 3, 5), randValue(r, dt, 5, 7), randValue(r, dt, 3, 7), randValue(r, dt, 7, 1)}
				outs := make([]tf.Value, p.NumOutputs())
				for j := range outs {
					_, shape := p.OutputSignature(j)
					outs[j] = randValue(r, dt, shape...)
				}
				allocs := testing.AllocsPerRun(20, func() {
					if err := pp.RunInto(outs, ins...); err != nil {
						t.Fatal(err)
					}
				})
				if allocs != 0 {
					t.Errorf("%s%s %v: RunInto allocates %v times per run", name, cname, dt, allocs)
				}
				want := evalDirect(t, newEngine(t), g, ins)
				for j := range want {
					closeTo(t, name+cname+" "+dt.String(), outs[j], want[j], 64)
				}
			}
		}
	}
}

// TestConcurrentPrepared runs one program on several engines at once (one
// Prepared per goroutine); run with -race.
func TestConcurrentPrepared(t *testing.T) {
	dt := tf.Complex128
	g := mixedGraph(t, dt)
	p, err := program.Compile(g)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(13, 14))
	ins := []tf.Value{randValue(r, dt, 3, 5), randValue(r, dt, 5, 7), randValue(r, dt, 3, 7), randValue(r, dt, 7, 1)}
	want := evalDirect(t, newEngine(t), g, ins)
	cache := cpu.NewPlanCache(0)
	var wg sync.WaitGroup
	errs := make([]error, 4)
	results := make([][]tf.Value, 4)
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e := cpu.Serial(cpu.WithPlanCache(cache))
			defer e.Close()
			pp, err := program.Prepare(p, e)
			if err != nil {
				errs[w] = err
				return
			}
			for range 20 {
				if results[w], err = pp.Run(ins...); err != nil {
					errs[w] = err
					return
				}
			}
		}()
	}
	wg.Wait()
	for w := range 4 {
		if errs[w] != nil {
			t.Fatal(errs[w])
		}
		for j := range want {
			closeTo(t, "concurrent", results[w][j], want[j], 64)
		}
	}
}

// TestEngineBusy checks that a Prepared reports a busy engine instead of
// racing.
func TestEngineBusy(t *testing.T) {
	e := newEngine(t)
	g := mixedGraph(t, tf.Float64)
	p, _ := program.Compile(g)
	pp, _ := program.Prepare(p, e)
	r := rand.New(rand.NewPCG(15, 16))
	ins := []tf.Value{randValue(r, tf.Float64, 3, 5), randValue(r, tf.Float64, 5, 7), randValue(r, tf.Float64, 3, 7), randValue(r, tf.Float64, 7, 1)}
	be := e.Backend()
	if err := be.Begin("held"); err != nil {
		t.Fatal(err)
	}
	_, err := pp.Run(ins...)
	outs := make([]tf.Value, p.NumOutputs())
	for j := range outs {
		_, shape := p.OutputSignature(j)
		outs[j] = randValue(r, tf.Float64, shape...)
	}
	errInto := pp.RunInto(outs, ins...)
	be.End()
	if err == nil {
		t.Fatal("Run on a busy engine succeeded")
	}
	if !errors.Is(err, tf.ErrEngineBusy) {
		t.Errorf("Run on a busy engine: %v, want ErrEngineBusy", err)
	}
	if !errors.Is(errInto, tf.ErrEngineBusy) {
		t.Errorf("RunInto on a busy engine: %v, want ErrEngineBusy", errInto)
	}
	// Released, the engine runs the program again.
	got, err := pp.Run(ins...)
	if err != nil {
		t.Fatal(err)
	}
	want := evalDirect(t, newEngine(t), g, ins)
	for j := range want {
		closeTo(t, "after busy", got[j], want[j], 64)
	}
}

// TestRunIntoAliasing checks RunInto's span-based destination rule: an
// output whose storage range intersects an input's or another output's is
// ErrAlias (interleaved views count as overlapping), an output that repeats
// elements (zero strides) is ErrAlias, and outputs carved from one buffer
// with disjoint ranges, even the buffer of an input, are fine. A refused
// RunInto writes nothing.
func TestRunIntoAliasing(t *testing.T) {
	tr := trace.New()
	a, _ := tr.Input(tf.Float64, 4, 3)
	b, _ := tr.Input(tf.Float64, 4, 3)
	g, err := tr.Finish(must2(tr.Add(must2(tr.Scale(2, a)), b)), must2(tr.Sum(a, 0)))
	if err != nil {
		t.Fatal(err)
	}
	p, err := program.Compile(g)
	if err != nil {
		t.Fatal(err)
	}
	pp, err := program.Prepare(p, newEngine(t))
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(29, 30))
	buf := make([]float64, 48)
	tf.FillRand(r, buf)
	whole, _ := tf.FromSlice(buf, 48)
	// span returns elements [lo, lo+n) of the shared buffer viewed as shape.
	span := func(lo, n int, shape ...int) tf.Value {
		t.Helper()
		s, err := whole.Slice(0, lo, lo+n, 1)
		if err != nil {
			t.Fatal(err)
		}
		v, err := s.Reshape(shape...)
		if err != nil {
			t.Fatal(err)
		}
		return tf.ValueOf(v)
	}
	cols := func(t0 *tf.Tensor[float64], start, step int) tf.Value {
		t.Helper()
		v, err := t0.Slice(1, start, 6, step)
		if err != nil {
			t.Fatal(err)
		}
		return tf.ValueOf(v)
	}
	// wide is elements 0..23 as a 4x6 matrix; input a is its even columns
	// (elements 0-3, 8-11, 16-19: storage range [0, 19]).
	wide, _ := whole.Slice(0, 0, 24, 1)
	wide, _ = wide.Reshape(4, 6)
	inA, inB := cols(wide, 0, 2), randValue(r, tf.Float64, 4, 3)
	ins := []tf.Value{inA, inB}
	want := evalDirect(t, newEngine(t), g, ins)

	rep, _ := tf.Zeros[float64](4, 1)
	repv, _ := rep.Broadcast(4, 3)
	for _, c := range []struct {
		name    string
		outs    []tf.Value
		mention []string
	}{
		{"output is an input", []tf.Value{inA, span(40, 3, 3)}, []string{"outputs[0]", "inputs[0]"}},
		{"output overlaps an input", []tf.Value{span(8, 12, 4, 3), span(40, 3, 3)}, []string{"outputs[0]", "inputs[0]"}},
		{"output starts in an input", []tf.Value{span(24, 12, 4, 3), span(19, 3, 3)}, []string{"outputs[1]", "inputs[0]"}},
		// The odd columns share no element with the even ones, but the
		// storage ranges intersect: the rule is span-based.
		{"interleaved with an input", []tf.Value{cols(wide, 1, 2), span(40, 3, 3)}, []string{"outputs[0]", "inputs[0]"}},
		{"outputs overlap", []tf.Value{span(24, 12, 4, 3), span(35, 3, 3)}, []string{"outputs[1]", "outputs[0]"}},
		{"repeated elements", []tf.Value{tf.ValueOf(repv), span(40, 3, 3)}, []string{"outputs[0]"}},
	} {
		before := slices.Clone(buf)
		repBefore := elems(tf.ValueOf(rep))
		err := pp.RunInto(c.outs, ins...)
		if !errors.Is(err, tf.ErrAlias) {
			t.Errorf("%s: %v, want ErrAlias", c.name, err)
			continue
		}
		for _, m := range c.mention {
			if !strings.Contains(err.Error(), m) {
				t.Errorf("%s: %q does not mention %q", c.name, err, m)
			}
		}
		if !slices.Equal(buf, before) {
			t.Fatalf("%s: a refused RunInto wrote into the buffer", c.name)
		}
		if !equalC(repBefore, elems(tf.ValueOf(rep))) {
			t.Fatalf("%s: a refused RunInto wrote the broadcast output", c.name)
		}
	}

	// Outputs in ranges of the input's buffer disjoint from the input and
	// from each other (one reversed, one strided) are accepted and
	// computed, and nothing else of the buffer is written.
	rev, _ := whole.Slice(0, 35, 23, -1) // elements 35 down to 24
	rv, err := rev.Reshape(4, 3)
	if err != nil {
		t.Fatal(err)
	}
	strided, _ := whole.Slice(0, 40, 46, 2) // elements 40, 42, 44
	outs := []tf.Value{tf.ValueOf(rv), tf.ValueOf(strided)}
	before := slices.Clone(buf)
	if err := pp.RunInto(outs, ins...); err != nil {
		t.Fatal(err)
	}
	for j := range want {
		closeTo(t, "disjoint ranges", outs[j], want[j], 8)
	}
	for i := range buf {
		if written := i >= 24 && i <= 35 || i == 40 || i == 42 || i == 44; !written && buf[i] != before[i] {
			t.Errorf("element %d of the buffer, in no output, was written", i)
		}
	}
}

// TestRunIntoNopEngineAllocatesNothing replays programs on the nop engine
// of the executor benchmarks, whose kernels do nothing: what allocates
// here is the executor's alone.
func TestRunIntoNopEngineAllocatesNothing(t *testing.T) {
	for _, opts := range [][]program.Option{nil, {program.WithoutFusion()}} {
		for _, dt := range tf.ScalarDTypes {
			p, err := program.Compile(mixedGraph(t, dt), opts...)
			if err != nil {
				t.Fatal(err)
			}
			pp, err := program.Prepare(p, nopEngine{})
			if err != nil {
				t.Fatal(err)
			}
			r := rand.New(rand.NewPCG(31, 32))
			ins := []tf.Value{stridedValue(r, dt, 3, 5), randValue(r, dt, 5, 7), randValue(r, dt, 3, 7), randValue(r, dt, 7, 1)}
			outs := make([]tf.Value, p.NumOutputs())
			for j := range outs {
				_, shape := p.OutputSignature(j)
				outs[j] = randValue(r, dt, shape...)
			}
			allocs := testing.AllocsPerRun(20, func() {
				if err := pp.RunInto(outs, ins...); err != nil {
					t.Fatal(err)
				}
			})
			if allocs != 0 {
				t.Errorf("%v (%d options): RunInto on the nop engine allocates %v times per run", dt, len(opts), allocs)
			}
		}
	}
}

// TestBenchmarkKernels checks what the Kernels halves of the benchmarks
// call: the engine's kernels on views of tensors compute what the
// operations of package tenferro do, and the programs the executor
// benchmarks replay run on the CPU engine and on the nop engine.
func TestBenchmarkKernels(t *testing.T) {
	e := newEngine(t)
	x, w := chainInputs(3)
	dst, _ := tf.Zeros[float64](3, 3)
	if err := contraction[float64](e).Matmul(viewOf(dst), viewOf(x), viewOf(w), 1, 0); err != nil {
		t.Fatal(err)
	}
	want, _ := tf.Matmul(e, x, w)
	closeTo(t, "Matmul kernel", tf.ValueOf(dst), tf.ValueOf(want), 8)
	if err := elementwise[float64](e).Unary(op.Scale, 1.0001, 0, viewOf(dst), viewOf(x)); err != nil {
		t.Fatal(err)
	}
	want, _ = tf.Scale(e, 1.0001, x)
	closeTo(t, "Scale kernel", tf.ValueOf(dst), tf.ValueOf(want), 1)

	p, xt := tinyScaleChain(t)
	for _, eng := range []tf.Engine{e, nopEngine{}} {
		pp, err := program.Prepare(p, eng)
		if err != nil {
			t.Fatal(err)
		}
		if pp.NumCommands() != chainLen {
			t.Errorf("tiny chain: %d commands, want %d", pp.NumCommands(), chainLen)
		}
		out, _ := tf.Zeros[float64](1)
		if err := pp.RunInto([]tf.Value{tf.ValueOf(out)}, tf.ValueOf(xt)); err != nil {
			t.Fatal(err)
		}
	}
	pc, err := program.Prepare(chainProgram(t, 2), e)
	if err != nil {
		t.Fatal(err)
	}
	if pc.NumCommands() != chainLen {
		t.Errorf("matmul chain: %d commands, want %d", pc.NumCommands(), chainLen)
	}
}
