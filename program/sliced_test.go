package program_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/einsum"
	"github.com/tenferro-go/tenferro/internal/instances"
	"github.com/tenferro-go/tenferro/program"
	"github.com/tenferro-go/tenferro/team"
	"github.com/tenferro-go/tenferro/trace"
)

// TestCompileSlicesUnderLimit: an einsum that no path fits within the
// einsum memory limit compiles to a command that runs in slices. Its
// result equals the direct evaluation, the engine's pool stays within
// PlannedPeakBytes (serial and team engines), and a warm run allocates
// nothing.
func TestCompileSlicesUnderLimit(t *testing.T) {
	mera := instances.Builtin(1)[2]
	for _, c := range []struct {
		sub    string
		shapes [][]int
		frac   float64 // of the unsliced peak
	}{
		{"ij,jk,kl->il", [][]int{{4, 5}, {5, 6}, {6, 7}}, 0.25},
		{mera.Subscripts, mera.Shapes, 0.125},
	} {
		for _, dt := range []tf.DType{tf.Float64, tf.Complex128} {
			if dt == tf.Complex128 && len(c.shapes) > 3 {
				continue // the MERA in float64 only: its complex run adds seconds, not cases
			}
			tr := trace.New()
			vars := make([]trace.Var, len(c.shapes))
			for i, s := range c.shapes {
				vars[i] = must2(tr.Input(dt, s...))
			}
			y := must2(tr.Einsum(c.sub, vars...))
			g, err := tr.Finish(y)
			if err != nil {
				t.Fatal(err)
			}
			limit := math.Floor(unslicedPeak(t, c.sub, c.shapes) * c.frac)
			p, err := program.Compile(g, program.WithEinsumOptions(einsum.Options{MemoryLimit: limit}))
			if err != nil {
				t.Fatalf("%s %v: %v", c.sub, dt, err)
			}
			if !strings.Contains(p.String(), "slices over") {
				t.Fatalf("%s %v: not sliced:\n%s", c.sub, dt, p)
			}
			if hi := p.PlannedPeakBytes(); hi > int64(limit)*int64(dt.Size()) {
				t.Errorf("%s %v: planned %d bytes, above the limit of %g elements", c.sub, dt, hi, limit)
			}
			name := fmt.Sprintf("%.20s %v", c.sub, dt)
			for _, e := range []*cpu.Engine{newEngine(t), newTeamEngine(t)} {
				checkSlicedRun(t, name, g, p, e)
			}
		}
	}
}

func checkSlicedRun(t *testing.T, name string, g *trace.Graph, p *program.Program, e *cpu.Engine) {
	t.Helper()
	pp, err := program.Prepare(p, e)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(41, 42))
	ins := make([]tf.Value, p.NumInputs())
	for i := range ins {
		dt, shape := p.InputSignature(i)
		ins[i] = randValue(r, dt, shape...)
	}
	want := evalDirect(t, newEngine(t), g, ins)
	dt, shape := p.OutputSignature(0)
	outs := []tf.Value{randValue(r, dt, shape...)}
	e.ClearBufferPool()
	e.ResetAllocationPeak()
	if err := pp.RunInto(outs, ins...); err != nil {
		t.Fatal(err)
	}
	if peak := e.AllocationStats().PeakInUseBytes; peak > p.PlannedPeakBytes() {
		t.Errorf("%s: the pool held %d bytes, above the planned %d", name, peak, p.PlannedPeakBytes())
	}
	closeTo(t, name, outs[0], want[0], 1e4)
	if raceEnabled {
		return
	}
	run := func() {
		if err := pp.RunInto(outs, ins...); err != nil {
			t.Fatal(err)
		}
	}
	for range 20 { // two slices at once share the pool: let it settle
		if testing.AllocsPerRun(1, run) == 0 {
			break
		}
	}
	if n := testing.AllocsPerRun(10, run); n != 0 {
		t.Errorf("%s: a warm run allocates %v times", name, n)
	}
}

func unslicedPeak(t *testing.T, sub string, shapes [][]int) float64 {
	t.Helper()
	ex, err := einsum.Parse(sub)
	if err != nil {
		t.Fatal(err)
	}
	prob, err := ex.Bind(shapes)
	if err != nil {
		t.Fatal(err)
	}
	pl, err := einsum.NewPlan(prob, einsum.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return pl.Peak
}

func newTeamEngine(t *testing.T) *cpu.Engine {
	tm, err := team.New(team.Threads(2))
	if err != nil {
		t.Fatal(err)
	}
	e, err := cpu.New(tm)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close(); tm.Close() })
	return e
}

// TestCompileLimitTooSmall: a limit below the smallest slice peak is an
// argument error that says so.
func TestCompileLimitTooSmall(t *testing.T) {
	tr := trace.New()
	a := must2(tr.Input(tf.Float64, 4, 5))
	b := must2(tr.Input(tf.Float64, 5, 6))
	c := must2(tr.Input(tf.Float64, 6, 7))
	g, err := tr.Finish(must2(tr.Einsum("ij,jk,kl->il", a, b, c)))
	if err != nil {
		t.Fatal(err)
	}
	_, err = program.Compile(g, program.WithEinsumOptions(einsum.Options{MemoryLimit: 1}))
	if !errors.Is(err, tf.ErrArgument) || !errors.Is(err, einsum.ErrLimitTooSmall) {
		t.Errorf("limit 1: %v", err)
	}
}

// TestCompileSlicesOutputLabels: with einsum.Options.SliceOutput, a batch
// label that every intermediate carries is sliced (no slicing of summed
// labels fits the limit): each slice writes its part of the output, on a
// serial and a team engine, with the same checks as above.
func TestCompileSlicesOutputLabels(t *testing.T) {
	const sub = "ijb,jkb,klb->ilb"
	shapes := [][]int{{4, 6, 16}, {6, 5, 16}, {5, 3, 16}}
	for _, dt := range []tf.DType{tf.Float64, tf.Complex128} {
		tr := trace.New()
		vars := make([]trace.Var, len(shapes))
		for i, s := range shapes {
			vars[i] = must2(tr.Input(dt, s...))
		}
		g, err := tr.Finish(must2(tr.Einsum(sub, vars...)))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := program.Compile(g, program.WithEinsumOptions(einsum.Options{MemoryLimit: 40})); !errors.Is(err, einsum.ErrLimitTooSmall) {
			t.Fatalf("%v without SliceOutput: %v", dt, err)
		}
		p, err := program.Compile(g, program.WithEinsumOptions(einsum.Options{MemoryLimit: 40, SliceOutput: true}))
		if err != nil {
			t.Fatalf("%v: %v", dt, err)
		}
		if !strings.Contains(p.String(), "slices over b") {
			t.Fatalf("%v: not sliced over b:\n%s", dt, p)
		}
		for _, e := range []*cpu.Engine{newEngine(t), newTeamEngine(t)} {
			checkSlicedRun(t, fmt.Sprintf("%s %v", sub, dt), g, p, e)
		}
	}
}
