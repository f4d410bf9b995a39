package program_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/program"
	"github.com/tenferro-go/tenferro/trace"
)

// sharedChainGraph records an elementwise chain whose links are read
// twice, as a gradient program reads the forward values: y_{k+1} =
// sin(y_k)·x, and each y_k also feeds the sum Σ_k (y_k + k·x), which
// broadcasts the column x over a matrix for the odd k. One link is also
// read by an einsum, which cannot fold it: it must stay stored.
func sharedChainGraph(t testing.TB, dt tf.DType, links int) *trace.Graph {
	t.Helper()
	must := func(v trace.Var, err error) trace.Var {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	tr := trace.New()
	x := must(tr.Input(dt, 6, 5))
	col := must(tr.Input(dt, 6, 1))
	y := x
	var acc, stored trace.Var
	for k := range links {
		y = must(tr.Mul(must(tr.Sin(y)), x))
		term := must(tr.Add(y, must(tr.Scale(complex(float64(k), 0), x))))
		if k%2 == 1 {
			term = must(tr.Mul(term, col))
		}
		if k == 0 {
			acc = term
		} else {
			acc = must(tr.Add(acc, term))
		}
		if k == links/2 {
			stored = must(tr.Einsum("ij,ij->j", y, x))
		}
	}
	total := must(tr.Sum(acc))
	g, err := tr.Finish(y, total, stored)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestRecomputeMatchesStored compiles graphs whose elementwise results are
// shared with and without WithRecompute at several limits: every result
// agrees with the unfused program's, links are recomputed once the limit
// admits one, and recomputing never needs more slot memory than storing.
func TestRecomputeMatchesStored(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, dt := range tf.ScalarDTypes {
		g := sharedChainGraph(t, dt, 9)
		ins := []tf.Value{randValue(r, dt, 6, 5), randValue(r, dt, 6, 1)}
		want := runUnfused(t, g, ins)
		base, err := program.Compile(g)
		if err != nil {
			t.Fatal(err)
		}
		if base.Stats().Recomputed != 0 {
			t.Errorf("%v: %d results recomputed without WithRecompute", dt, base.Stats().Recomputed)
		}
		for _, limit := range []int{0, 1, 2, 3, 5, 8, 64} {
			name := fmt.Sprintf("%v limit %d", dt, limit)
			p, err := program.Compile(g, program.WithRecompute(limit))
			if err != nil {
				t.Fatal(err)
			}
			st := p.Stats()
			switch {
			case limit == 0 && st.Recomputed != 0:
				t.Errorf("%s: %d results recomputed", name, st.Recomputed)
			case limit >= 2 && st.Recomputed == 0: // a link is two operations
				t.Errorf("%s: nothing recomputed\n%v", name, p)
			case st.SlotBytes > base.Stats().SlotBytes:
				t.Errorf("%s: slots of %d bytes, more than the %d of storing", name, st.SlotBytes, base.Stats().SlotBytes)
			}
			pp, err := program.Prepare(p, newEngine(t))
			if err != nil {
				t.Fatal(err)
			}
			got, err := pp.Run(ins...)
			if err != nil {
				t.Fatal(err)
			}
			for j := range want {
				closeTo(t, fmt.Sprintf("%s output %d", name, j), got[j], want[j], 256)
			}
		}
	}
}

// TestRecomputeKeepsEinsumOperands checks that a shared result an einsum
// reads stays stored, and that an output is never recomputed.
func TestRecomputeKeepsEinsumOperands(t *testing.T) {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 8, 8)
	s, _ := tr.Sin(x)
	a, _ := tr.Exp(s)                    // read by the einsum and by b: stored
	b, _ := tr.Mul(a, x)                 // an output: stored
	c, _ := tr.Einsum("ij,jk->ik", a, x) // cannot fold a
	d, _ := tr.Add(b, c)
	g, _ := tr.Finish(b, d)
	p, err := program.Compile(g, program.WithRecompute(8))
	if err != nil {
		t.Fatal(err)
	}
	if n := p.Stats().Recomputed; n != 0 {
		t.Errorf("%d results recomputed, want 0\n%v", n, p)
	}
}

// TestRecomputeLowersPeak records the pattern of a gradient program: a
// long elementwise chain whose every link the backward pass reads again.
// Storing keeps all links alive until the backward pass; recomputing keeps
// only the chain's input and the segment ends.
func TestRecomputeLowersPeak(t *testing.T) {
	const links, n = 12, 1 << 14
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, n)
	ys := []trace.Var{x}
	for range links {
		y, _ := tr.Tanh(ys[len(ys)-1])
		ys = append(ys, y)
	}
	// backward: g_k = g_{k+1}·(1 - y_{k+1}²), seeded with ones.
	gk, _ := tr.Full(tf.Float64, 1, n)
	for k := links; k >= 1; k-- {
		sq, _ := tr.Square(ys[k])
		one, _ := tr.Full(tf.Float64, 1)
		d, _ := tr.Sub(one, sq)
		gk, _ = tr.Mul(gk, d)
	}
	loss, _ := tr.Sum(ys[links])
	g, err := tr.Finish(loss, gk)
	if err != nil {
		t.Fatal(err)
	}
	stored, _ := program.Compile(g)
	re, err := program.Compile(g, program.WithRecompute(4))
	if err != nil {
		t.Fatal(err)
	}
	if 2*re.PlannedPeakBytes() > stored.PlannedPeakBytes() {
		t.Errorf("planned peak %d bytes with recomputation, %d without: want at most half\n%v", re.PlannedPeakBytes(), stored.PlannedPeakBytes(), re)
	}
	r := rand.New(rand.NewPCG(9, 10))
	in := randValue(r, tf.Float64, n)
	want := runUnfused(t, g, []tf.Value{in})
	pp, _ := program.Prepare(re, newEngine(t))
	got, err := pp.Run(in)
	if err != nil {
		t.Fatal(err)
	}
	for j := range want {
		closeTo(t, fmt.Sprintf("output %d", j), got[j], want[j], 256)
	}
	t.Logf("planned peak: %d bytes stored, %d recomputed (%d results recomputed)", stored.PlannedPeakBytes(), re.PlannedPeakBytes(), re.Stats().Recomputed)
}

// runUnfused runs g with one command per operation (WithoutFusion): the
// reference of the fused and recomputing programs.
func runUnfused(t testing.TB, g *trace.Graph, ins []tf.Value) []tf.Value {
	t.Helper()
	p, err := program.Compile(g, program.WithoutFusion())
	if err != nil {
		t.Fatal(err)
	}
	pp, err := program.Prepare(p, newEngine(t))
	if err != nil {
		t.Fatal(err)
	}
	out, err := pp.Run(ins...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
