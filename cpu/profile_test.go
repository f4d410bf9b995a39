package cpu_test

import (
	"bytes"
	"runtime/pprof"
	"runtime/trace"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/program"
	"github.com/tenferro-go/tenferro/team"
	ttrace "github.com/tenferro-go/tenferro/trace"
)

func TestProfileLabels(t *testing.T) {
	tm, err := team.New(team.Threads(2))
	if err != nil {
		t.Fatal(err)
	}
	e, err := cpu.New(tm, cpu.WithProfileLabels("solver"))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	a, _ := tf.Rand[float64](1, 8, 8)
	c, err := tf.Matmul(e, a, a)
	if err != nil {
		t.Fatal(err)
	}
	c.Release()
	check := func(op string) {
		t.Helper()
		ctx := tm.PartLabels()
		if ctx == nil {
			t.Fatalf("after %s: no part labels", op)
		}
		if v, _ := pprof.Label(ctx, cpu.LabelEngine); v != "solver" {
			t.Errorf("after %s: engine label %q", op, v)
		}
		if v, _ := pprof.Label(ctx, cpu.LabelOp); v != op {
			t.Errorf("after %s: op label %q", op, v)
		}
	}
	check("Matmul")
	// A prepared program labels each command.
	tr := ttrace.New()
	x, _ := tr.Input(tf.Float64, 8, 8)
	y, _ := tr.Exp(x)
	g, _ := tr.Finish(y)
	p, err := program.Compile(g)
	if err != nil {
		t.Fatal(err)
	}
	pp, err := program.Prepare(p, e)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := tf.Zeros[float64](8, 8)
	if err := pp.RunInto([]tf.Value{tf.ValueOf(out)}, tf.ValueOf(a)); err != nil {
		t.Fatal(err)
	}
	check("Exp")
	if !raceEnabled {
		if n := testing.AllocsPerRun(50, func() {
			pp.RunInto([]tf.Value{tf.ValueOf(out)}, tf.ValueOf(a))
			tf.MatmulInto(e, out, a, a)
		}); n != 0 {
			t.Errorf("labelled engine allocates %v per run", n)
		}
	}
	// Without the option the team is not labelled.
	tm2, _ := team.New(team.Threads(2))
	e2, _ := cpu.New(tm2)
	defer e2.Close()
	tf.MatmulInto(e2, out, a, a)
	if tm2.PartLabels() != nil {
		t.Error("an engine without WithProfileLabels labels its team")
	}
}

// TestTraceRegions runs operations while an execution trace records, and
// finds their region names, each a string of its own in the trace.
func TestTraceRegions(t *testing.T) {
	if trace.IsEnabled() {
		t.Skip("an execution trace is already running")
	}
	e := cpu.Serial()
	defer e.Close()
	tr := ttrace.New()
	x, _ := tr.Input(tf.Float64, 4)
	y, _ := tr.Tanh(x)
	g, _ := tr.Finish(y)
	p, err := program.Compile(g)
	if err != nil {
		t.Fatal(err)
	}
	pp, err := program.Prepare(p, e)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := tf.Rand[float64](1, 4)
	var buf bytes.Buffer
	if err := trace.Start(&buf); err != nil {
		t.Skip("cannot start an execution trace:", err)
	}
	s, err := tf.Sum(e, a)
	if err == nil {
		s.Release()
	}
	outs, err := pp.Run(tf.ValueOf(a))
	trace.Stop()
	if err != nil {
		t.Fatal(err)
	}
	_ = outs
	for _, name := range []string{"Sum", "Tanh"} {
		// A string of the trace is its length (a uvarint) and its bytes.
		if !bytes.Contains(buf.Bytes(), append([]byte{byte(len(name))}, name...)) {
			t.Errorf("no region %q in the trace", name)
		}
	}
}
