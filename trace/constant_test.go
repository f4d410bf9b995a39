package trace_test

import (
	"errors"
	"strings"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/trace"
)

func TestConstNodes(t *testing.T) {
	tr := trace.New()
	x, _ := tr.Input(tf.Float32, 2, 3)
	c, err := tr.Full(tf.Float32, 1.5, 3)
	if err != nil {
		t.Fatal(err)
	}
	s, err := tr.Full(tf.Int64, -4)
	if err != nil {
		t.Fatal(err)
	}
	y, _ := tr.Add(x, c)
	g, err := tr.Finish(y, s)
	if err != nil {
		t.Fatal(err)
	}
	n := g.Node(c.ID())
	if !n.IsConst() || n.IsInput() || n.Input != -1 {
		t.Errorf("Full node: IsConst %v, IsInput %v, Input %d", n.IsConst(), n.IsInput(), n.Input)
	}
	if in := g.Node(x.ID()); in.IsConst() || !in.IsInput() {
		t.Errorf("Input node: IsConst %v, IsInput %v", in.IsConst(), in.IsInput())
	}
	v, _ := tf.As[float32](n.Value)
	if d, _ := v.Data(); len(d) != 3 || d[0] != 1.5 || d[2] != 1.5 {
		t.Errorf("Full elements %v", d)
	}
	if k := g.Node(s.ID()); len(k.Shape) != 0 || k.DType != tf.Int64 {
		t.Errorf("0-d int64 constant: %v %v", k.DType, k.Shape)
	}
	if len(g.Inputs()) != 1 {
		t.Errorf("constants counted as inputs: %v", g.Inputs())
	}
	if str := g.String(); !strings.Contains(str, "Const f32[3]") {
		t.Errorf("graph listing lacks the constant:\n%s", str)
	}
}

func TestConstErrors(t *testing.T) {
	tr := trace.New()
	released, _ := tf.Zeros[float64](2)
	released.Release()
	for _, tc := range []struct {
		name string
		f    func() (trace.Var, error)
		kind error
	}{
		{"imaginary part for a real dtype", func() (trace.Var, error) { return tr.Full(tf.Float64, 1i) }, tf.ErrArgument},
		{"fraction for int64", func() (trace.Var, error) { return tr.Full(tf.Int64, 1.5) }, tf.ErrArgument},
		{"2 for bool", func() (trace.Var, error) { return tr.Full(tf.Bool, 2) }, tf.ErrArgument},
		{"invalid dtype", func() (trace.Var, error) { return tr.Full(tf.DType(99), 0) }, tf.ErrDType},
		{"negative extent", func() (trace.Var, error) { return tr.Full(tf.Float32, 0, -1) }, tf.ErrShape},
		{"released tensor", func() (trace.Var, error) { return tr.Const(tf.ValueOf(released)) }, tf.ErrArgument},
		{"empty value", func() (trace.Var, error) { return tr.Const(tf.Value{}) }, tf.ErrArgument},
	} {
		_, err := tc.f()
		if !errors.Is(err, tc.kind) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.kind)
		}
	}
	x, _ := tr.Input(tf.Float64)
	_, _ = tr.Finish(x)
	if _, err := tr.Full(tf.Float64, 1); !errors.Is(err, tf.ErrArgument) {
		t.Errorf("Full on a finished trace: %v", err)
	}
}
