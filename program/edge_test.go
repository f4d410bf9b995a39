package program_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/einsum"
	"github.com/tenferro-go/tenferro/program"
	"github.com/tenferro-go/tenferro/trace"
)

// checkGraph compiles g with and without the optimizing passes and
// compares both against direct evaluation, on compact and strided inputs.
func checkGraph(t *testing.T, g *trace.Graph, ops float64) []*program.Program {
	t.Helper()
	r := rand.New(rand.NewPCG(17, 18))
	var progs []*program.Program
	for _, opts := range [][]program.Option{nil, {program.WithoutFusion(), program.WithoutCSE()}} {
		p, err := program.Compile(g, opts...)
		if err != nil {
			t.Fatal(err)
		}
		progs = append(progs, p)
		pp, err := program.Prepare(p, newEngine(t))
		if err != nil {
			t.Fatal(err)
		}
		for _, mk := range []func(*rand.Rand, tf.DType, ...int) tf.Value{randValue, stridedValue} {
			ins := make([]tf.Value, p.NumInputs())
			for i := range ins {
				dt, shape := p.InputSignature(i)
				ins[i] = mk(r, dt, shape...)
			}
			want := evalDirect(t, newEngine(t), g, ins)
			got, err := pp.Run(ins...)
			if err != nil {
				t.Fatalf("%v\n%s", err, p)
			}
			for j := range want {
				closeTo(t, fmt.Sprintf("output %d", j), got[j], want[j], ops)
			}
		}
	}
	return progs
}

func TestEdgeShapes(t *testing.T) {
	for _, dt := range tf.ScalarDTypes {
		// Zero extents, rank 0, extent 1 everywhere.
		tr := trace.New()
		a, _ := tr.Input(dt, 0, 3)
		b, _ := tr.Input(dt, 3, 4)
		s, _ := tr.Input(dt)
		one, _ := tr.Input(dt, 1, 1)
		m, _ := tr.Matmul(a, b)
		k, _ := tr.Matmul(b, must2(tr.Input(dt, 4, 0)))
		ks, _ := tr.Sum(k, 0)
		x, _ := tr.Add(must2(tr.Scale(2, s)), must2(tr.Negate(s)))
		y, _ := tr.Mul(one, one)
		tot, _ := tr.Sum(b)
		e, _ := tr.Einsum(",ij->ji", s, b)
		g, err := tr.Finish(m, ks, x, y, tot, e, must2(tr.Reshape(x, 1, 1)))
		if err != nil {
			t.Fatal(err)
		}
		checkGraph(t, g, 64)
	}
}

func TestFusionBroadcastAndLimits(t *testing.T) {
	for _, dt := range tf.ScalarDTypes {
		tr := trace.New()
		a, _ := tr.Input(dt, 5, 1, 3)
		b, _ := tr.Input(dt, 1, 4, 3)
		c, _ := tr.Input(dt, 5, 4, 1)
		// Inner node ab is broadcast (5,4,3) and its consumers broadcast
		// further; a long sum of distinct leaves exceeds the fused kernel's
		// input limit and must be cut.
		ab, _ := tr.Sub(a, b)
		v, _ := tr.Mul(must2(tr.Conj(ab)), c)
		leaves := []trace.Var{v}
		for i := range 10 {
			l, _ := tr.Input(dt, 5, 4, 3)
			sc, _ := tr.Scale(complex(float64(i+1), 0), l)
			leaves = append(leaves, sc)
		}
		acc := leaves[0]
		for _, l := range leaves[1:] {
			acc, _ = tr.Add(l, acc) // deep on the right: stack depth grows
		}
		g, err := tr.Finish(acc)
		if err != nil {
			t.Fatal(err)
		}
		progs := checkGraph(t, g, 128)
		st := progs[0].Stats()
		if st.Fused != 23 || progs[0].NumCommands() < 2 || progs[0].NumCommands() > 3 {
			t.Errorf("%v: %d commands, %d fused ops, want 2-3 commands folding all 23 ops\n%s", dt, progs[0].NumCommands(), st.Fused, progs[0])
		}
	}
}

func TestViewMaterialization(t *testing.T) {
	tr := trace.New()
	a, _ := tr.Input(tf.Float64, 2, 3, 4)
	b, _ := tr.Negate(a)
	pb, _ := tr.Permute(b, 1, 2, 0)                    // (3, 4, 2) strided view
	rb, _ := tr.Reshape(pb, 12, 2)                     // needs a copy
	ra, _ := tr.Reshape(a, 6, 4)                       // view of an input: copy
	pa, _ := tr.Permute(ra, 1, 0)                      // view of that copy
	m, _ := tr.Matmul(pa, must2(tr.Reshape(rb, 6, 4))) // (4,6)x(6,4)
	g, _ := tr.Finish(m, pb, rb)
	progs := checkGraph(t, g, 64)
	if c := progs[0].Stats().Copies; c != 4 { // rb source, ra source, outputs pb and rb
		t.Errorf("%d copies, want 4\n%s", c, progs[0])
	}
}

func TestEinsumAbsorbsPermutes(t *testing.T) {
	for _, dt := range tf.ScalarDTypes {
		tr := trace.New()
		a, _ := tr.Input(dt, 3, 4, 5)
		b, _ := tr.Input(dt, 5, 6)
		c, _ := tr.Input(dt, 6, 2, 3)
		pa := must2(tr.Permute(must2(tr.Permute(a, 2, 0, 1)), 0, 2, 1)) // (5, 4, 3)
		nb, _ := tr.Negate(b)
		pb, _ := tr.Permute(nb, 1, 0) // (6, 5), view of an intermediate
		e1, _ := tr.Einsum("kji,lk->ijl", pa, pb)
		pc, _ := tr.Permute(c, 2, 0, 1)                                  // (3, 6, 2), used with "...": kept
		e2, _ := tr.Einsum("i...,ijl->...", pc, e1)                      // (6, 2)
		e3, _ := tr.Einsum("ab,bc->ac", must2(tr.Permute(e2, 1, 0)), e2) // (2, 2)
		g, err := tr.Finish(e3)
		if err != nil {
			t.Fatal(err)
		}
		progs := checkGraph(t, g, 256)
		st := progs[0].Stats()
		// pa (two permutes), pb and the transpose of e2 are absorbed; pc
		// is an operand with "..." and is copied and viewed.
		if st.Absorbed != 4 || st.Copies != 1 || progs[0].NumCommands() != 5 {
			t.Errorf("%v: absorbed %d, copies %d, commands %d; want 4, 1, 5\n%s", dt, st.Absorbed, st.Copies, progs[0].NumCommands(), progs[0])
		}
	}
}

func TestCompileAndPrepareErrors(t *testing.T) {
	if _, err := program.Compile(nil); !errors.Is(err, tf.ErrArgument) {
		t.Errorf("Compile(nil): %v", err)
	}
	tr := trace.New()
	a, _ := tr.Input(tf.Float64, 4, 5)
	b, _ := tr.Input(tf.Float64, 5, 6)
	c, _ := tr.Input(tf.Float64, 6, 7)
	abc, _ := tr.Einsum("ij,jk,kl->il", a, b, c)
	y, _ := tr.Add(must2(tr.Negate(abc)), must2(tr.Input(tf.Float64, 4, 7)))
	g, _ := tr.Finish(y)
	// No slice of this chain fits in one element.
	_, err := program.Compile(g, program.WithEinsumOptions(einsum.Options{MemoryLimit: 1}))
	if !errors.Is(err, tf.ErrArgument) || !errors.Is(err, einsum.ErrMemoryLimit) {
		t.Errorf("memory limit: %v", err)
	}
	p, err := program.Compile(g, program.WithEinsumOptions(einsum.Options{Strategy: einsum.Given, Path: [][2]int{{1, 2}, {0, 1}}}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := program.Prepare(nil, newEngine(t)); !errors.Is(err, tf.ErrArgument) {
		t.Errorf("Prepare(nil, e): %v", err)
	}
	if _, err := program.Prepare(p, nil); !errors.Is(err, tf.ErrArgument) {
		t.Errorf("Prepare(p, nil): %v", err)
	}
	// The fused negate-add needs Fusion; the einsum needs Contraction.
	if _, err := program.Prepare(p, nopEngine{caps: nopNoFusion}); !errors.Is(err, tf.ErrUnsupported) {
		t.Errorf("Prepare on an engine without Fusion: %v, want ErrUnsupported", err)
	}
	if _, err := program.Prepare(p, nopEngine{caps: nopCoreOnly}); !errors.Is(err, tf.ErrUnsupported) {
		t.Errorf("Prepare on an engine without Contraction: %v, want ErrUnsupported", err)
	}
	if _, err := program.Prepare(p, nopEngine{}); err != nil {
		t.Errorf("Prepare on an engine with every capability: %v", err)
	}
	e := newEngine(t)
	pp, err := program.Prepare(p, e)
	if err != nil {
		t.Fatal(err)
	}
	e.Close()
	r := rand.New(rand.NewPCG(25, 26))
	_, err = pp.Run(randValue(r, tf.Float64, 4, 5), randValue(r, tf.Float64, 5, 6), randValue(r, tf.Float64, 6, 7), randValue(r, tf.Float64, 4, 7))
	if !errors.Is(err, tf.ErrClosed) {
		t.Errorf("Run on a closed engine: %v", err)
	}
}

// TestPrepareNeedsCapabilities checks that Prepare refuses, with
// ErrUnsupported, an engine whose kernels lack the capability a command
// needs, and accepts one that has it.
func TestPrepareNeedsCapabilities(t *testing.T) {
	type build func(tr *trace.Trace, a, b trace.Var) trace.Var
	cases := []struct {
		name  string
		opts  []program.Option
		build build
		needs nopCaps // the most restricted engine that runs it
	}{
		{"unary", nil, func(tr *trace.Trace, a, _ trace.Var) trace.Var { return must2(tr.Negate(a)) }, nopNoFusion},
		{"binary", nil, func(tr *trace.Trace, a, b trace.Var) trace.Var { return must2(tr.Add(a, b)) }, nopNoFusion},
		{"sum", nil, func(tr *trace.Trace, a, _ trace.Var) trace.Var { return must2(tr.Sum(a, 0)) }, nopNoFusion},
		{"matmul", nil, func(tr *trace.Trace, a, b trace.Var) trace.Var { return must2(tr.Matmul(a, b)) }, nopNoFusion},
		{"einsum", nil, func(tr *trace.Trace, a, b trace.Var) trace.Var { return must2(tr.Einsum("ij,jk->ki", a, b)) }, nopNoFusion},
		{"fused", nil, func(tr *trace.Trace, a, b trace.Var) trace.Var { return must2(tr.Add(must2(tr.Negate(a)), b)) }, nopAll},
		{"unfused", []program.Option{program.WithoutFusion()}, func(tr *trace.Trace, a, b trace.Var) trace.Var {
			return must2(tr.Add(must2(tr.Negate(a)), b))
		}, nopNoFusion},
		{"copy", nil, func(tr *trace.Trace, a, _ trace.Var) trace.Var { return must2(tr.Permute(a, 1, 0)) }, nopCoreOnly},
	}
	for _, dt := range tf.ScalarDTypes {
		for _, c := range cases {
			tr := trace.New()
			a, _ := tr.Input(dt, 3, 3)
			b, _ := tr.Input(dt, 3, 3)
			g, err := tr.Finish(c.build(tr, a, b))
			if err != nil {
				t.Fatal(err)
			}
			p, err := program.Compile(g, c.opts...)
			if err != nil {
				t.Fatal(err)
			}
			for caps := nopAll; caps <= nopNothing; caps++ {
				_, err := program.Prepare(p, nopEngine{caps: caps})
				switch {
				case caps <= c.needs && err != nil:
					t.Errorf("%v %s on nop engine %d: %v", dt, c.name, caps, err)
				case caps > c.needs && !errors.Is(err, tf.ErrUnsupported):
					t.Errorf("%v %s on nop engine %d: %v, want ErrUnsupported\n%s", dt, c.name, caps, err, p)
				}
			}
			// The CPU engine has every capability, and computes it.
			pp, err := program.Prepare(p, newEngine(t))
			if err != nil {
				t.Fatal(err)
			}
			r := rand.New(rand.NewPCG(27, 28))
			ins := []tf.Value{randValue(r, dt, 3, 3), randValue(r, dt, 3, 3)}
			got, err := pp.Run(ins...)
			if err != nil {
				t.Fatal(err)
			}
			closeTo(t, dt.String()+" "+c.name, got[0], evalDirect(t, newEngine(t), g, ins)[0], 8)
		}
	}
}

// TestDataDTypes runs programs of the dtypes without arithmetic (int64,
// bool): views and copies only, which need no more than an engine's core.
// Arithmetic on them is refused when it is recorded.
func TestDataDTypes(t *testing.T) {
	testDataDType(t, func(i int) int64 { return int64(i*7 - 30) })
	testDataDType(t, func(i int) bool { return i%3 == 1 })
}

func testDataDType[T int64 | bool](t *testing.T, gen func(int) T) {
	dt := tf.DTypeOf[T]()
	tr := trace.New()
	x, _ := tr.Input(dt, 2, 3, 4)
	px, err := tr.Permute(x, 2, 0, 1) // (4, 2, 3), a view of an input
	if err != nil {
		t.Fatal(err)
	}
	rx, err := tr.Reshape(px, 8, 3) // of a strided view: copied
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tr.Negate(x); !errors.Is(err, tf.ErrDType) {
		t.Errorf("%v: Negate recorded: %v, want ErrDType", dt, err)
	}
	g, err := tr.Finish(px, rx, x, must2(tr.Reshape(x, 6, 4)))
	if err != nil {
		t.Fatal(err)
	}
	data := make([]T, 24)
	for i := range data {
		data[i] = gen(i)
	}
	xt, _ := tf.FromSlice(data, 2, 3, 4)
	in, err := xt.Reverse(1) // read through a strided view
	if err != nil {
		t.Fatal(err)
	}
	pt, _ := in.Permute(2, 0, 1)
	pc, _ := tf.Copy(newEngine(t), pt)
	rt, _ := pc.Reshape(8, 3)
	ic, _ := tf.Copy(newEngine(t), in)
	it, _ := ic.Reshape(6, 4)
	want := []*tf.Tensor[T]{pt, rt, in, it}
	for _, opts := range [][]program.Option{nil, {program.WithoutCSE(), program.WithoutFusion()}} {
		p, err := program.Compile(g, opts...)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range []tf.Engine{newEngine(t), nopEngine{caps: nopCoreOnly}} {
			pp, err := program.Prepare(p, e)
			if err != nil {
				t.Fatalf("%v on %T: %v\n%s", dt, e, err, p)
			}
			if _, ok := e.(nopEngine); ok {
				continue // prepares; its copies do nothing
			}
			got, err := pp.Run(tf.ValueOf(in))
			if err != nil {
				t.Fatal(err)
			}
			for j, w := range want {
				g, err := tf.As[T](got[j])
				if err != nil {
					t.Fatal(err)
				}
				if gs, ws := fmt.Sprint(g.Shape()), fmt.Sprint(w.Shape()); gs != ws {
					t.Fatalf("%v output %d: shape %s, want %s", dt, j, gs, ws)
				}
				gd, _ := g.Data()
				wc, _ := tf.Copy(newEngine(t), w)
				wd, _ := wc.Data()
				if !slices.Equal(gd, wd) {
					t.Errorf("%v output %d: %v, want %v\n%s", dt, j, gd, wd, p)
				}
			}
		}
	}
}
