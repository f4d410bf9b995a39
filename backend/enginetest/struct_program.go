package enginetest

import (
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/program"
	"github.com/tenferro-go/tenferro/trace"
)

// testStructuralProgram compiles a trace of structural and indexing
// operations (views, copies of views, index kernels), runs it on the
// engine with strided inputs, compares with the eager operations and
// checks that a warm RunInto allocates nothing.
func testStructuralProgram(t *testing.T, e tf.Engine) {
	r := rng(15)
	x := Operand[float64](t, r, []int{5, 4}, Transposed)
	idx := indexOperand(t, r, []int{6}, Reversed, -4, 4)
	gidx := indexOperand(t, r, []int{3, 4}, Stepped, -5, 5)
	mask := elemOperand[bool](t, r, []int{4}, Compact)
	tr := trace.New()
	vx, _ := tr.Input(tf.Float64, 5, 4)
	vi, _ := tr.Input(tf.Int64, 6)
	vg, _ := tr.Input(tf.Int64, 3, 4)
	vm, _ := tr.Input(tf.Bool, 4)
	take, _ := tr.Take(vx, 1, vi)
	pad, _ := tr.Pad(take, [][2]int{{1, 0}, {2, 2}}, tf.PadSymmetric, 0)
	parts, _ := tr.Split(pad, 0, 2)
	cat, _ := tr.Concatenate(1, parts[1], parts[0])
	low, _ := tr.Tril(cat, -1)
	flat, _ := tr.Flatten(low)
	sc, _ := tr.ScatterAdd(vx, 0, vg, vx)
	sel, _ := tr.MaskedSelect(vx, vm, 20)
	rep, _ := tr.Repeat(sel, 0, 2)
	g, err := tr.Finish(flat, sc, rep)
	mustNil(t, "Finish", err)
	p, err := program.Compile(g)
	mustNil(t, "Compile", err)
	pp, err := program.Prepare(p, e)
	mustNil(t, "Prepare", err)
	outs := make([]tf.Value, p.NumOutputs())
	for j := range outs {
		_, shape := p.OutputSignature(j)
		o, _ := tf.Zeros[float64](shape...)
		outs[j] = tf.ValueOf(o)
	}
	ins := []tf.Value{tf.ValueOf(x), tf.ValueOf(idx), tf.ValueOf(gidx), tf.ValueOf(mask)}
	mustNil(t, "RunInto", pp.RunInto(outs, ins...))
	// The same by eager operations.
	et, _ := tf.Take(e, x, 1, idx)
	ep, _ := tf.Pad(e, et, [][2]int{{1, 0}, {2, 2}}, tf.PadSymmetric, 0)
	eparts, _ := ep.Split(0, 2)
	ec, _ := tf.Concatenate(e, 1, eparts[1], eparts[0])
	el, _ := tf.Tril(e, ec, -1)
	ef, _ := tf.Flatten(e, el)
	es, _ := tf.ScatterAdd(e, x, 0, gidx, x)
	esel, _ := tf.Zeros[float64](20)
	_, err = tf.MaskedSelectInto(e, esel, x, mask)
	mustNil(t, "eager", err)
	er, err := tf.Repeat(e, esel, 0, 2)
	mustNil(t, "eager", err)
	for j, want := range []*tf.Tensor[float64]{ef, es, er} {
		got, _ := tf.As[float64](outs[j])
		if eq, err := tf.ArrayEqual(got, want); err != nil || !eq {
			t.Fatalf("program output %d = %v, want %v", j, got, want)
		}
	}
	if n := testing.AllocsPerRun(10, func() {
		if err := pp.RunInto(outs, ins...); err != nil {
			t.Fatal(err)
		}
	}); n != 0 && !raceEnabled {
		t.Errorf("RunInto allocates %v times per run", n)
	}
}
