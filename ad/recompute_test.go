package ad_test

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/ad"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/program"
	"github.com/tenferro-go/tenferro/trace"
)

// elementwiseChain records L = Σ f_k(…f_1(x)) for a chain of smooth
// elementwise operations (with x re-read along the way, as a layer reads
// its input), whose reverse mode reads every link again.
func elementwiseChain(t testing.TB, dt tf.DType, n, links int) *trace.Graph {
	t.Helper()
	tr := trace.New()
	x, _ := tr.Input(dt, n)
	y := x
	for k := range links {
		var err error
		switch k % 4 {
		case 0:
			y, err = tr.Tanh(y)
		case 1:
			y, err = tr.Sin(y)
		case 2:
			y, err = tr.Mul(y, x)
		case 3:
			y, err = tr.Exp(y)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	l, _ := tr.Sum(y)
	if dt.IsComplex() {
		l, _ = tr.Real(l)
	}
	g, err := tr.Finish(l)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestGradRecompute: the gradient program of an elementwise chain compiled
// with program.WithRecompute (checkpointing) plans at most half the memory
// of the one that stores every link, gives the same loss and gradient,
// and replays without allocating.
func TestGradRecompute(t *testing.T) {
	const n, links = 1 << 13, 16
	for _, dt := range []tf.DType{tf.Float64, tf.Complex128} {
		gg, err := ad.ValueAndGrad(elementwiseChain(t, dt, n, links), 0)
		if err != nil {
			t.Fatal(err)
		}
		stored, err := program.Compile(gg)
		if err != nil {
			t.Fatal(err)
		}
		re, err := program.Compile(gg, program.WithRecompute(6))
		if err != nil {
			t.Fatal(err)
		}
		if re.Stats().Recomputed == 0 || 2*re.PlannedPeakBytes() > stored.PlannedPeakBytes() {
			t.Errorf("%v: planned peak %d bytes recomputing %d results, %d storing: want at most half\n%v",
				dt, re.PlannedPeakBytes(), re.Stats().Recomputed, stored.PlannedPeakBytes(), re)
		}
		t.Logf("%v: planned peak %d bytes storing, %d recomputing (%d results recomputed)",
			dt, stored.PlannedPeakBytes(), re.PlannedPeakBytes(), re.Stats().Recomputed)

		x := randData(rand.New(rand.NewPCG(11, 12)), dt, []int{n}, -0.5, 0.5)
		want := run(t, gg, x)
		e := cpu.Serial()
		pp, err := program.Prepare(re, e)
		if err != nil {
			t.Fatal(err)
		}
		xv := x.value(t)
		outs, err := pp.Run(xv)
		if err != nil {
			t.Fatal(err)
		}
		if err := pp.RunInto(outs, xv); err != nil {
			t.Fatal(err)
		}
		for j, w := range want {
			got := fromValue(t, outs[j])
			for i := range w.data {
				if d := got.data[i] - w.data[i]; math.Hypot(real(d), imag(d)) > 1e-12*(1+math.Hypot(real(w.data[i]), imag(w.data[i]))) {
					t.Fatalf("%v output %d[%d]: %v recomputing, %v storing", dt, j, i, got.data[i], w.data[i])
				}
			}
		}
		if a := testing.AllocsPerRun(5, func() { _ = pp.RunInto(outs, xv) }); a != 0 {
			t.Errorf("%v: %v allocations per run", dt, a)
		}
	}
}

// BenchmarkGradRecompute times the gradient program of a 16-link
// elementwise chain over 2^20 float64 elements storing every link and
// recomputing them (program.WithRecompute with limits 2 and 6).
func BenchmarkGradRecompute(b *testing.B) {
	const n, links = 1 << 20, 16
	gg, err := ad.ValueAndGrad(elementwiseChain(b, tf.Float64, n, links), 0)
	if err != nil {
		b.Fatal(err)
	}
	xv := randData(rand.New(rand.NewPCG(13, 14)), tf.Float64, []int{n}, -0.5, 0.5).value(b)
	for _, c := range []struct {
		name string
		opts []program.Option
	}{{"stored", nil}, {"recompute2", []program.Option{program.WithRecompute(2)}}, {"recompute6", []program.Option{program.WithRecompute(6)}}} {
		b.Run(c.name, func(b *testing.B) {
			p, err := program.Compile(gg, c.opts...)
			if err != nil {
				b.Fatal(err)
			}
			pp, err := program.Prepare(p, cpu.Serial())
			if err != nil {
				b.Fatal(err)
			}
			outs, err := pp.Run(xv)
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if err := pp.RunInto(outs, xv); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(p.PlannedPeakBytes())/(1<<20), "peak-MiB")
		})
	}
}

// TestGradSumSeedNotTiled: the cotangent of a sum reaches the elementwise
// rules as the broadcast seed, so the gradient program of Σ x·x forms no
// tiled copy of it (no Tile command) and returns 2x.
func TestGradSumSeedNotTiled(t *testing.T) {
	const n = 1000
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, n)
	y, _ := tr.Mul(x, x)
	l, _ := tr.Sum(y)
	g, err := tr.Finish(l)
	if err != nil {
		t.Fatal(err)
	}
	gg, err := ad.ValueAndGrad(g, 0)
	if err != nil {
		t.Fatal(err)
	}
	p, err := program.Compile(gg)
	if err != nil {
		t.Fatal(err)
	}
	if s := p.String(); strings.Contains(s, "Tile") {
		t.Errorf("the gradient program tiles the seed:\n%s", s)
	}
	in := tensorData{dt: tf.Float64, shape: []int{n}}
	for i := range n {
		in.data = append(in.data, complex(float64(i%7)-3, 0))
	}
	out := run(t, gg, in)
	for i, v := range in.data {
		if got := out[1].data[i]; got != 2*v {
			t.Fatalf("gradient[%d] = %v, want %v", i, got, 2*v)
		}
	}
}
