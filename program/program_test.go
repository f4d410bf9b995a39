package program_test

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/program"
	"github.com/tenferro-go/tenferro/trace"
)

// mixedGraph records a program that uses every operation: matmul with a
// strided operand, a three-operand einsum, broadcasting elementwise chains
// (fusable), a sum, views of intermediates and of inputs, and outputs that
// are computed, viewed and repeated.
func mixedGraph(t testing.TB, dt tf.DType) *trace.Graph {
	t.Helper()
	tr := trace.New()
	must := func(v trace.Var, err error) trace.Var {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	alpha := complex(0.75, 0)
	if dt.IsComplex() {
		alpha = complex(0.5, -1.25)
	}
	a := must(tr.Input(dt, 3, 5))
	b := must(tr.Input(dt, 5, 7))
	c := must(tr.Input(dt, 3, 7))
	d := must(tr.Input(dt, 7, 1))
	x := must(tr.Matmul(a, b))                  // 3x7
	y := must(tr.Add(x, c))                     // fused tree root below
	z := must(tr.Scale(alpha, y))               //
	w := must(tr.Sub(z, must(tr.Negate(c))))    // 3x7
	s := must(tr.Sum(w, 1))                     // 3
	p := must(tr.Permute(w, 1, 0))              // 7x3 view
	q := must(tr.Mul(p, d))                     // broadcast d over axis 1
	r := must(tr.Reshape(must(tr.Conj(q)), 21)) // view of a compact result
	e := must(tr.Einsum("ij,jk,kl->il", a, b, must(tr.Permute(c, 1, 0))))
	f := must(tr.Reshape(a, 5, 3))                     // view of an input
	h := must(tr.Matmul(f, must(tr.Permute(f, 1, 0)))) // 5x5
	_ = must(tr.Matmul(a, b))                          // dead
	g, err := tr.Finish(s, r, e, w, h, w, a)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestProgramMatchesDirect(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, dt := range tf.ScalarDTypes {
		for _, opts := range [][]program.Option{nil, {program.WithoutFusion(), program.WithoutCSE()}} {
			for _, strided := range []bool{false, true} {
				g := mixedGraph(t, dt)
				p, err := program.Compile(g, opts...)
				if err != nil {
					t.Fatal(err)
				}
				e := newEngine(t)
				pp, err := program.Prepare(p, e)
				if err != nil {
					t.Fatal(err)
				}
				mk := randValue
				if strided {
					mk = stridedValue
				}
				ins := []tf.Value{mk(r, dt, 3, 5), mk(r, dt, 5, 7), mk(r, dt, 3, 7), mk(r, dt, 7, 1)}
				want := evalDirect(t, newEngine(t), g, ins)
				for rep := range 2 {
					got, err := pp.Run(ins...)
					if err != nil {
						t.Fatal(err)
					}
					for j := range want {
						closeTo(t, dt.String()+" output "+string(rune('0'+j)), got[j], want[j], 64)
					}
					_ = rep
				}
			}
		}
	}
}

func TestRunIntoStridedOutputs(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	dt := tf.Float64
	g := mixedGraph(t, dt)
	p, err := program.Compile(g)
	if err != nil {
		t.Fatal(err)
	}
	pp, err := program.Prepare(p, newEngine(t))
	if err != nil {
		t.Fatal(err)
	}
	ins := []tf.Value{randValue(r, dt, 3, 5), randValue(r, dt, 5, 7), randValue(r, dt, 3, 7), randValue(r, dt, 7, 1)}
	want := evalDirect(t, newEngine(t), g, ins)
	outs := make([]tf.Value, p.NumOutputs())
	for j := range outs {
		_, shape := p.OutputSignature(j)
		outs[j] = stridedValue(r, dt, shape...)
	}
	if err := pp.RunInto(outs, ins...); err != nil {
		t.Fatal(err)
	}
	for j := range want {
		closeTo(t, "output", outs[j], want[j], 64)
	}
}

func TestCompilePasses(t *testing.T) {
	tr := trace.New()
	a, _ := tr.Input(tf.Float64, 4, 4)
	b, _ := tr.Input(tf.Float64, 4, 4)
	m1, _ := tr.Matmul(a, b)
	m2, _ := tr.Matmul(a, b) // CSE with m1
	s1, _ := tr.Add(m1, b)
	s2, _ := tr.Add(b, m2) // CSE with s1 (Add is commutative)
	_, _ = tr.Einsum("ij,jk->ik", s1, s2)
	_, _ = tr.Negate(a) // dead
	n1, _ := tr.Negate(s2)
	n2, _ := tr.Scale(2, n1)
	n3, _ := tr.Sub(n2, a)
	n4, _ := tr.Mul(n3, s1) // s1 used twice: not folded
	g, err := tr.Finish(n4)
	if err != nil {
		t.Fatal(err)
	}
	p, err := program.Compile(g)
	if err != nil {
		t.Fatal(err)
	}
	st := p.Stats()
	if st.CSE != 2 {
		t.Errorf("CSE merged %d nodes, want 2\n%s", st.CSE, p)
	}
	if st.Dead != 2 { // the einsum and the negate of a
		t.Errorf("dead nodes %d, want 2\n%s", st.Dead, p)
	}
	// Commands: matmul, add (s1), one fused command for n1..n4.
	if p.NumCommands() != 3 || st.Fused != 4 {
		t.Errorf("%d commands with %d fused ops, want 3 and 4\n%s", p.NumCommands(), st.Fused, p)
	}
	if !strings.Contains(p.String(), "fused") {
		t.Errorf("no fused command listed:\n%s", p)
	}
	p2, _ := program.Compile(g, program.WithoutCSE(), program.WithoutFusion())
	if p2.NumCommands() != 8 { // m1, m2, s1, s2, n1..n4
		t.Errorf("without CSE and fusion: %d commands, want 8\n%s", p2.NumCommands(), p2)
	}
}

func TestViewsCostNoCommand(t *testing.T) {
	tr := trace.New()
	a, _ := tr.Input(tf.Float32, 2, 3, 4)
	b, _ := tr.Scale(2, a)
	pb, _ := tr.Permute(b, 2, 0, 1)
	rb, _ := tr.Reshape(b, 6, 4)
	out, _ := tr.Matmul(pb, must2(tr.Reshape(rb, 2, 12)))
	_ = out
	out2, _ := tr.Matmul(rb, must2(tr.Permute(rb, 1, 0)))
	g, _ := tr.Finish(out2)
	p, err := program.Compile(g)
	if err != nil {
		t.Fatal(err)
	}
	if p.NumCommands() != 2 || p.Stats().Views != 2 {
		t.Errorf("%d commands, %d views, want 2 and 2\n%s", p.NumCommands(), p.Stats().Views, p)
	}
}

func must2(v trace.Var, err error) trace.Var {
	if err != nil {
		panic(err)
	}
	return v
}

func TestLivenessSharesSlots(t *testing.T) {
	const n, steps = 16, 40
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, n, n)
	w, _ := tr.Input(tf.Float64, n, n)
	v := x
	for range steps {
		v, _ = tr.Matmul(v, w)
	}
	g, _ := tr.Finish(v)
	p, err := program.Compile(g)
	if err != nil {
		t.Fatal(err)
	}
	st := p.Stats()
	if st.Slots != 2 {
		t.Errorf("%d slots for a chain, want 2\n%s", st.Slots, p)
	}
	if st.SlotBytes*10 > st.ValueBytes {
		t.Errorf("slots %d bytes, all intermediates %d: not shared", st.SlotBytes, st.ValueBytes)
	}
	e := newEngine(t)
	pp, _ := program.Prepare(p, e)
	r := rand.New(rand.NewPCG(5, 6))
	ins := []tf.Value{randValue(r, tf.Float64, n, n), randValue(r, tf.Float64, n, n)}
	got, err := pp.Run(ins...)
	if err != nil {
		t.Fatal(err)
	}
	want := evalDirect(t, newEngine(t), g, ins)
	closeTo(t, "chain", got[0], want[0], 64*steps)
}

func TestPlannedPeakMatchesMeasured(t *testing.T) {
	cases := []struct {
		name string
		sub  string
		dims [][]int
	}{
		{"chain", "ab,bc,cd,de->ae", [][]int{{30, 40}, {40, 50}, {50, 20}, {20, 30}}},
		{"star", "ai,bi,ci,i->abc", [][]int{{8, 24}, {9, 24}, {10, 24}, {24}}},
		{"reduce", "abc,cd->ad", [][]int{{20, 30, 10}, {10, 25}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dt := tf.Complex128
			tr := trace.New()
			var ins []trace.Var
			for _, s := range c.dims {
				v, _ := tr.Input(dt, s...)
				ins = append(ins, v)
			}
			e1, err := tr.Einsum(c.sub, ins...)
			if err != nil {
				t.Fatal(err)
			}
			e2, _ := tr.Scale(2, e1)
			e3, _ := tr.Einsum(c.sub, ins...) // CSE
			o, _ := tr.Add(e2, e3)
			g, _ := tr.Finish(o)
			p, err := program.Compile(g)
			if err != nil {
				t.Fatal(err)
			}
			e := newEngine(t)
			pp, _ := program.Prepare(p, e)
			r := rand.New(rand.NewPCG(7, 8))
			var vals []tf.Value
			for _, s := range c.dims {
				vals = append(vals, randValue(r, dt, s...))
			}
			_, oshape := p.OutputSignature(0)
			outs := []tf.Value{randValue(r, dt, oshape...)}
			e.ClearBufferPool()
			if err := pp.RunInto(outs, vals...); err != nil {
				t.Fatal(err)
			}
			measured := pp.SlotBytes() + e.BufferPoolStats().CapacityBytes
			planned := p.PlannedPeakBytes()
			if d := float64(planned-measured) / float64(measured); d > 0.1 || d < -0.1 {
				t.Errorf("planned %d bytes, measured %d (slots %d + pool %d)\n%s", planned, measured, pp.SlotBytes(), e.BufferPoolStats().CapacityBytes, p)
			}
			t.Logf("planned %d, measured %d", planned, measured)
		})
	}
}

func TestSignatureErrors(t *testing.T) {
	g := mixedGraph(t, tf.Float64)
	p, _ := program.Compile(g)
	pp, _ := program.Prepare(p, newEngine(t))
	r := rand.New(rand.NewPCG(9, 10))
	good := []tf.Value{randValue(r, tf.Float64, 3, 5), randValue(r, tf.Float64, 5, 7), randValue(r, tf.Float64, 3, 7), randValue(r, tf.Float64, 7, 1)}
	check := func(name string, err, kind error, mention ...string) {
		t.Helper()
		if !errors.Is(err, kind) {
			t.Fatalf("%s: err %v, want kind %v", name, err, kind)
		}
		for _, m := range mention {
			if !strings.Contains(err.Error(), m) {
				t.Errorf("%s: %q does not mention %q", name, err, m)
			}
		}
	}
	_, err := pp.Run(good[:3]...)
	check("count", err, tf.ErrArgument, "4 inputs")
	bad := append([]tf.Value(nil), good...)
	bad[2] = randValue(r, tf.Float64, 7, 3)
	_, err = pp.Run(bad...)
	check("shape", err, tf.ErrShape, "inputs[2]", "[3 7]", "[7 3]")
	bad[2] = randValue(r, tf.Float32, 3, 7)
	_, err = pp.Run(bad...)
	check("dtype", err, tf.ErrDType, "inputs[2]", "f64", "f32")
	bad[2] = randValue(r, tf.Float64, 3, 7)
	bad[2].Release()
	_, err = pp.Run(bad...)
	check("released", err, tf.ErrReleased, "inputs[2]")

	outs := make([]tf.Value, p.NumOutputs())
	for j := range outs {
		_, shape := p.OutputSignature(j)
		outs[j] = randValue(r, tf.Float64, shape...)
	}
	before := elems(outs[0])
	wrong := append([]tf.Value(nil), outs...)
	wrong[1] = randValue(r, tf.Float64, 20)
	check("output shape", pp.RunInto(wrong, good...), tf.ErrShape, "outputs[1]")
	wrong[1] = outs[1]
	wrong[5] = outs[3]
	check("output alias", pp.RunInto(wrong, good...), tf.ErrAlias, "outputs[5]", "outputs[3]")
	wrong[5] = outs[5]
	wrong[6] = good[0]
	check("output aliases input", pp.RunInto(wrong, good...), tf.ErrAlias, "outputs[6]", "inputs[0]")
	if after := elems(outs[0]); !equalC(before, after) {
		t.Error("a failed RunInto wrote into outputs[0]")
	}
	check("output count", pp.RunInto(outs[:2], good...), tf.ErrArgument)
}

func equalC(a, b []complex128) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestPlannedPeakMixed checks the planned peak of the mixed program
// (matmuls, an einsum over a viewed input, fused chains, views) against the
// measured one on compact inputs.
func TestPlannedPeakMixed(t *testing.T) {
	for _, dt := range tf.ScalarDTypes {
		g := mixedGraph(t, dt)
		p, err := program.Compile(g)
		if err != nil {
			t.Fatal(err)
		}
		e := newEngine(t)
		pp, _ := program.Prepare(p, e)
		r := rand.New(rand.NewPCG(23, 24))
		ins := []tf.Value{randValue(r, dt, 3, 5), randValue(r, dt, 5, 7), randValue(r, dt, 3, 7), randValue(r, dt, 7, 1)}
		outs := make([]tf.Value, p.NumOutputs())
		for j := range outs {
			_, shape := p.OutputSignature(j)
			outs[j] = randValue(r, dt, shape...)
		}
		e.ClearBufferPool()
		if err := pp.RunInto(outs, ins...); err != nil {
			t.Fatal(err)
		}
		measured := pp.SlotBytes() + e.BufferPoolStats().CapacityBytes
		planned := p.PlannedPeakBytes()
		if d := float64(planned-measured) / float64(measured); d > 0.1 || d < -0.1 {
			t.Errorf("%v: planned %d bytes, measured %d (slots %d + pool %d)\n%s", dt, planned, measured, pp.SlotBytes(), e.BufferPoolStats().CapacityBytes, p)
		}
		t.Logf("%v: planned %d, measured %d", dt, planned, measured)
	}
}
