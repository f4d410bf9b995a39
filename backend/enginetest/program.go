package enginetest

import (
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/program"
	"github.com/tenferro-go/tenferro/trace"
)

// program compiles a trace that uses every generated elementwise
// operation (fused into one pass), an einsum, a matmul, a reduction and a
// reduction of an elementwise tree (a fused reduction, Fusion's Reduce),
// runs it on the engine and compares with the same operations run eagerly;
// a warm RunInto allocates nothing.
func (suite[T]) program(t *testing.T, e tf.Engine) {
	r := rng(7)
	dt := tf.DTypeOf[T]()
	tr := trace.New()
	x, _ := tr.Input(dt, 6, 5)
	y, _ := tr.Input(dt, 6, 1)
	w, _ := tr.Input(dt, 5, 4)
	s1, _ := tr.Sub(x, y)
	s2, _ := tr.Scale(2, s1)
	s3, _ := tr.Mul(s2, x)
	s4, _ := tr.Negate(s3)
	s5, _ := tr.Conj(s4)
	s6, _ := tr.Add(s5, y)
	m, _ := tr.Matmul(s6, w)
	k, _ := tr.Einsum("ij,jk->ik", s6, w)
	d, _ := tr.Sub(m, k) // zero up to rounding
	sum, _ := tr.Sum(m, -1)
	sq, _ := tr.Mul(x, x)
	fsum, _ := tr.Sum(sq, 0) // fused: the product is never stored
	g, err := tr.Finish(m, d, sum, fsum)
	mustNil(t, "Finish", err)
	p, err := program.Compile(g)
	mustNil(t, "Compile", err)
	if p.Stats().Fused < 5 {
		t.Errorf("only %d operations fused:\n%v", p.Stats().Fused, p)
	}
	pp, err := program.Prepare(p, e)
	mustNil(t, "Prepare", err)
	xa := Operand[T](t, r, []int{6, 5}, Transposed)
	ya := Operand[T](t, r, []int{6, 1}, Compact)
	wa := Operand[T](t, r, []int{5, 4}, Stepped)
	outs := make([]tf.Value, p.NumOutputs())
	for j := range outs {
		_, shape := p.OutputSignature(j)
		o, err := tf.Zeros[T](shape...)
		mustNil(t, "Zeros", err)
		outs[j] = tf.ValueOf(o)
	}
	ins := []tf.Value{tf.ValueOf(xa), tf.ValueOf(ya), tf.ValueOf(wa)}
	mustNil(t, "RunInto", pp.RunInto(outs, ins...))
	// The same by eager operations.
	e1, _ := tf.Sub(e, xa, ya)
	e2, _ := tf.Scale(e, castC[T](2), e1)
	e3, _ := tf.Mul(e, e2, xa)
	e4, _ := tf.Negate(e, e3)
	e5, _ := tf.Conj(e, e4)
	e6, _ := tf.Add(e, e5, ya)
	em, err := tf.Matmul(e, e6, wa)
	mustNil(t, "eager", err)
	es, err := tf.Sum(e, em, -1)
	mustNil(t, "eager", err)
	exx, _ := tf.Mul(e, xa, xa)
	efs, err := tf.Sum(e, exx, 0)
	mustNil(t, "eager", err)
	u := UnitRoundoff[T]()
	for j, want := range []*tf.Tensor[T]{em, nil, es, efs} {
		got, _ := tf.As[T](outs[j])
		g := Dense(got)
		if want == nil {
			for i, v := range g {
				if abs(v) > 64*u*(1+abs(Dense(em)[i])) {
					t.Fatalf("program output 1 element %d = %v, want about 0", i, v)
				}
			}
			continue
		}
		wd := Dense(want)
		for i := range g {
			if !Near(g[i], wd[i], 64*u*(1+abs(wd[i]))) {
				t.Fatalf("program output %d element %d = %v, want %v", j, i, g[i], wd[i])
			}
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
