package program_test

import (
	"errors"
	"fmt"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/program"
	"github.com/tenferro-go/tenferro/team"
	"github.com/tenferro-go/tenferro/trace"
)

// structCase is one traced structural or indexing operation and its eager
// twin, on the inputs x (4, 6), y (4, 1), idx (5, int64), gidx (3, 6,
// int64), mask (6, bool) and src (3, 6).
type structCase[T tf.Elem] struct {
	name   string
	traced func(tr *trace.Trace, in []trace.Var) (trace.Var, error)
	eager  func(e tf.Engine, in []*tf.Tensor[T], idx, gidx *tf.Tensor[int64], mask *tf.Tensor[bool]) (*tf.Tensor[T], error)
}

func structCases[T tf.Elem]() []structCase[T] {
	type ins = []*tf.Tensor[T]
	type ix = *tf.Tensor[int64]
	type mk = *tf.Tensor[bool]
	one := func(name string, traced func(*trace.Trace, trace.Var) (trace.Var, error), eager func(tf.Engine, *tf.Tensor[T]) (*tf.Tensor[T], error)) structCase[T] {
		return structCase[T]{name,
			func(tr *trace.Trace, in []trace.Var) (trace.Var, error) { return traced(tr, in[0]) },
			func(e tf.Engine, in ins, _, _ ix, _ mk) (*tf.Tensor[T], error) { return eager(e, in[0]) }}
	}
	pad := [][2]int{{1, 2}, {0, 3}}
	return []structCase[T]{
		one("squeeze of unsqueeze", func(tr *trace.Trace, x trace.Var) (trace.Var, error) {
			u, _ := tr.Unsqueeze(x, 0, -1)
			return tr.Squeeze(u)
		}, func(e tf.Engine, x *tf.Tensor[T]) (*tf.Tensor[T], error) { return tf.Copy(e, x) }),
		one("flatten of a permute", func(tr *trace.Trace, x trace.Var) (trace.Var, error) {
			p, _ := tr.Permute(x, 1, 0)
			return tr.Flatten(p)
		}, func(e tf.Engine, x *tf.Tensor[T]) (*tf.Tensor[T], error) {
			xt, _ := x.Transpose()
			return tf.Flatten(e, xt)
		}),
		{"concatenate", func(tr *trace.Trace, in []trace.Var) (trace.Var, error) {
			return tr.Concatenate(-1, in[0], in[1], in[0])
		},
			func(e tf.Engine, in ins, _, _ ix, _ mk) (*tf.Tensor[T], error) {
				return tf.Concatenate(e, -1, in[0], in[1], in[0])
			}},
		{"stack", func(tr *trace.Trace, in []trace.Var) (trace.Var, error) { return tr.Stack(1, in[0], in[0]) },
			func(e tf.Engine, in ins, _, _ ix, _ mk) (*tf.Tensor[T], error) { return tf.Stack(e, 1, in[0], in[0]) }},
		one("split", func(tr *trace.Trace, x trace.Var) (trace.Var, error) {
			parts, err := tr.Split(x, 1, 3)
			if err != nil {
				return trace.Var{}, err
			}
			return parts[1], nil
		}, func(e tf.Engine, x *tf.Tensor[T]) (*tf.Tensor[T], error) {
			p, _ := x.Split(1, 3)
			return tf.Copy(e, p[1])
		}),
		one("split at", func(tr *trace.Trace, x trace.Var) (trace.Var, error) {
			parts, err := tr.SplitAt(x, 0, 1, -1)
			if err != nil {
				return trace.Var{}, err
			}
			return parts[1], nil
		}, func(e tf.Engine, x *tf.Tensor[T]) (*tf.Tensor[T], error) {
			p, _ := x.SplitAt(0, 1, -1)
			return tf.Copy(e, p[1])
		}),
		{"tile", func(tr *trace.Trace, in []trace.Var) (trace.Var, error) { return tr.Tile(in[1], 2, 2, 3) },
			func(e tf.Engine, in ins, _, _ ix, _ mk) (*tf.Tensor[T], error) { return tf.Tile(e, in[1], 2, 2, 3) }},
		one("repeat", func(tr *trace.Trace, x trace.Var) (trace.Var, error) { return tr.Repeat(x, 1, 2) },
			func(e tf.Engine, x *tf.Tensor[T]) (*tf.Tensor[T], error) { return tf.Repeat(e, x, 1, 2) }),
		one("repeat per element", func(tr *trace.Trace, x trace.Var) (trace.Var, error) { return tr.Repeat(x, 0, 1, 0, 3, 1) },
			func(e tf.Engine, x *tf.Tensor[T]) (*tf.Tensor[T], error) { return tf.Repeat(e, x, 0, 1, 0, 3, 1) }),
		one("pad reflect", func(tr *trace.Trace, x trace.Var) (trace.Var, error) { return tr.Pad(x, pad, tf.PadReflect, 0) },
			func(e tf.Engine, x *tf.Tensor[T]) (*tf.Tensor[T], error) {
				var z T
				return tf.Pad(e, x, pad, tf.PadReflect, z)
			}),
		one("pad constant", func(tr *trace.Trace, x trace.Var) (trace.Var, error) { return tr.Pad(x, pad, tf.PadConstant, 1) },
			func(e tf.Engine, x *tf.Tensor[T]) (*tf.Tensor[T], error) {
				o, _ := tf.Ones[T]()
				v, _ := o.At()
				return tf.Pad(e, x, pad, tf.PadConstant, v)
			}),
		one("roll", func(tr *trace.Trace, x trace.Var) (trace.Var, error) { return tr.Roll(x, []int{1, -2}, []int{0, 1}) },
			func(e tf.Engine, x *tf.Tensor[T]) (*tf.Tensor[T], error) {
				return tf.Roll(e, x, []int{1, -2}, []int{0, 1})
			}),
		one("tril", func(tr *trace.Trace, x trace.Var) (trace.Var, error) { return tr.Tril(x, 1) },
			func(e tf.Engine, x *tf.Tensor[T]) (*tf.Tensor[T], error) { return tf.Tril(e, x, 1) }),
		one("triu", func(tr *trace.Trace, x trace.Var) (trace.Var, error) { return tr.Triu(x, -1) },
			func(e tf.Engine, x *tf.Tensor[T]) (*tf.Tensor[T], error) { return tf.Triu(e, x, -1) }),
		one("diag of a diag", func(tr *trace.Trace, x trace.Var) (trace.Var, error) {
			d, _ := tr.Diag(x, 1)
			return tr.Diag(d, -2)
		}, func(e tf.Engine, x *tf.Tensor[T]) (*tf.Tensor[T], error) {
			d, _ := tf.Diag(e, x, 1)
			return tf.Diag(e, d, -2)
		}),
		one("contiguous", func(tr *trace.Trace, x trace.Var) (trace.Var, error) { return tr.Contiguous(x, tf.RowMajor) },
			func(e tf.Engine, x *tf.Tensor[T]) (*tf.Tensor[T], error) { return tf.Contiguous(e, x, tf.RowMajor) }),
		{"take", func(tr *trace.Trace, in []trace.Var) (trace.Var, error) { return tr.Take(in[0], 1, in[2]) },
			func(e tf.Engine, in ins, idx, _ ix, _ mk) (*tf.Tensor[T], error) { return tf.Take(e, in[0], 1, idx) }},
		{"gather", func(tr *trace.Trace, in []trace.Var) (trace.Var, error) { return tr.Gather(in[0], 0, in[3]) },
			func(e tf.Engine, in ins, _, gidx ix, _ mk) (*tf.Tensor[T], error) {
				return tf.Gather(e, in[0], 0, gidx)
			}},
		{"masked select", func(tr *trace.Trace, in []trace.Var) (trace.Var, error) { return tr.MaskedSelect(in[0], in[4], 24) },
			func(e tf.Engine, in ins, _, _ ix, mask mk) (*tf.Tensor[T], error) {
				dst, _ := tf.Zeros[T](24)
				_, err := tf.MaskedSelectInto(e, dst, in[0], mask)
				return dst, err
			}},
	}
}

// someElems returns n values of T from i -> (i*7 mod 11) - 5.
func someElems[T tf.Elem](n int) []T {
	out := make([]T, n)
	for i := range out {
		v := float64(i*7%11) - 5
		switch p := any(&out[i]).(type) {
		case *float32:
			*p = float32(v)
		case *float64:
			*p = v
		case *complex64:
			*p = complex(float32(v), 1)
		case *complex128:
			*p = complex(v, -1)
		case *int64:
			*p = int64(v)
		case *bool:
			*p = v > 0
		}
	}
	return out
}

// checkStructural compiles every case of structCases for T into one
// program (the graph's nodes depend on each other through the inputs
// only), runs it on strided inputs, compares with the eager operations and
// checks that RunInto allocates nothing.
func checkStructural[T tf.Elem](t *testing.T, e tf.Engine) {
	dt := tf.DTypeOf[T]()
	base, _ := tf.FromSlice(someElems[T](24), 6, 4)
	x, _ := base.Transpose() // (4, 6), strided
	y, _ := tf.FromSlice(someElems[T](4), 4, 1)
	idx, _ := tf.FromSlice([]int64{5, -1, 0, 2, 2}, 5)
	gidx, _ := tf.FromSlice([]int64{0, 3, -4, 1, 1, 2, 3, 0, 0, -1, 2, 1, 0, 0, 3, 2, 1, 0}, 3, 6)
	mask, _ := tf.FromSlice([]bool{true, false, true, true, false, true}, 6)
	src, _ := tf.FromSlice(someElems[T](18), 3, 6)
	tr := trace.New()
	vx, _ := tr.Input(dt, 4, 6)
	vy, _ := tr.Input(dt, 4, 1)
	vi, _ := tr.Input(tf.Int64, 5)
	vg, _ := tr.Input(tf.Int64, 3, 6)
	vm, _ := tr.Input(tf.Bool, 6)
	vs, _ := tr.Input(dt, 3, 6)
	in := []trace.Var{vx, vy, vi, vg, vm, vs}
	cases := structCases[T]()
	var outs []trace.Var
	var wants []*tf.Tensor[T]
	for _, c := range cases {
		v, err := c.traced(tr, in)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		w, err := c.eager(e, []*tf.Tensor[T]{x, y}, idx, gidx, mask)
		if err != nil {
			t.Fatalf("%s eager: %v", c.name, err)
		}
		outs, wants = append(outs, v), append(wants, w)
	}
	if dt != tf.Bool {
		v, err := tr.ScatterAdd(vx, 0, vg, vs)
		if err != nil {
			t.Fatal(err)
		}
		outs = append(outs, v)
		wants = append(wants, eagerScatter(t, e, x, gidx, src))
		cases = append(cases, structCase[T]{name: "scatter add"})
	}
	g, err := tr.Finish(outs...)
	if err != nil {
		t.Fatal(err)
	}
	p, err := program.Compile(g)
	if err != nil {
		t.Fatal(err)
	}
	pp, err := program.Prepare(p, e)
	if err != nil {
		t.Fatal(err)
	}
	vals := make([]tf.Value, len(outs))
	for j := range vals {
		_, shape := p.OutputSignature(j)
		o, _ := tf.Zeros[T](shape...)
		vals[j] = tf.ValueOf(o)
	}
	inputs := []tf.Value{tf.ValueOf(x), tf.ValueOf(y), tf.ValueOf(idx), tf.ValueOf(gidx), tf.ValueOf(mask), tf.ValueOf(src)}
	if err := pp.RunInto(vals, inputs...); err != nil {
		t.Fatalf("RunInto: %v\n%v", err, p)
	}
	for j, w := range wants {
		got, _ := tf.As[T](vals[j])
		if eq, err := tf.ArrayEqual(got, w); err != nil || !eq {
			t.Errorf("%v %s: program %v, eager %v (%v)", dt, cases[j].name, got, w, err)
		}
	}
	if n := testing.AllocsPerRun(10, func() {
		if err := pp.RunInto(vals, inputs...); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("%v: RunInto allocates %v times per run", dt, n)
	}
	runs, err := pp.Run(inputs...)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	for j, w := range wants {
		got, _ := tf.As[T](runs[j])
		if eq, _ := tf.ArrayEqual(got, w); !eq {
			t.Errorf("%v %s: Run %v, eager %v", dt, cases[j].name, got, w)
		}
	}
}

// eagerScatter is tf.ScatterAdd for the dtypes that add.
func eagerScatter[T tf.Elem](t *testing.T, e tf.Engine, x *tf.Tensor[T], index *tf.Tensor[int64], src *tf.Tensor[T]) *tf.Tensor[T] {
	var out any
	var err error
	switch a := any(x).(type) {
	case *tf.Tensor[float32]:
		out, err = tf.ScatterAdd(e, a, 0, index, any(src).(*tf.Tensor[float32]))
	case *tf.Tensor[float64]:
		out, err = tf.ScatterAdd(e, a, 0, index, any(src).(*tf.Tensor[float64]))
	case *tf.Tensor[complex64]:
		out, err = tf.ScatterAdd(e, a, 0, index, any(src).(*tf.Tensor[complex64]))
	case *tf.Tensor[complex128]:
		out, err = tf.ScatterAdd(e, a, 0, index, any(src).(*tf.Tensor[complex128]))
	case *tf.Tensor[int64]:
		out, err = tf.ScatterAdd(e, a, 0, index, any(src).(*tf.Tensor[int64]))
	}
	if err != nil {
		t.Fatal(err)
	}
	return out.(*tf.Tensor[T])
}

func TestStructuralPrograms(t *testing.T) {
	tm, err := team.New(team.Threads(2))
	if err != nil {
		t.Fatal(err)
	}
	te, err := cpu.New(tm)
	if err != nil {
		t.Fatal(err)
	}
	defer te.Close()
	for name, e := range map[string]tf.Engine{"serial": newEngine(t), "team": te} {
		t.Run(name, func(t *testing.T) {
			checkStructural[float32](t, e)
			checkStructural[float64](t, e)
			checkStructural[complex64](t, e)
			checkStructural[complex128](t, e)
			checkStructural[int64](t, e)
			checkStructural[bool](t, e)
		})
	}
}

// TestStructuralRunErrors checks the errors only a run can find: index
// values out of range and a mask selecting more than the traced size.
// They are reported before the command writes anything.
func TestStructuralRunErrors(t *testing.T) {
	e := newEngine(t)
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 3)
	i, _ := tr.Input(tf.Int64, 2)
	m, _ := tr.Input(tf.Bool, 3)
	take, _ := tr.Take(x, 0, i)
	sel, _ := tr.MaskedSelect(x, m, 1)
	g, _ := tr.Finish(take, sel)
	p, err := program.Compile(g)
	if err != nil {
		t.Fatal(err)
	}
	pp, err := program.Prepare(p, e)
	if err != nil {
		t.Fatal(err)
	}
	xv, _ := tf.FromSlice([]float64{1, 2, 3}, 3)
	good, _ := tf.FromSlice([]int64{-1, 0}, 2)
	bad, _ := tf.FromSlice([]int64{0, 3}, 2)
	one, _ := tf.FromSlice([]bool{false, true, false}, 3)
	two, _ := tf.FromSlice([]bool{true, true, false}, 3)
	o1, _ := tf.Full(-1.0, 2)
	o2, _ := tf.Full(-1.0, 1)
	outs := []tf.Value{tf.ValueOf(o1), tf.ValueOf(o2)}
	if err := pp.RunInto(outs, tf.ValueOf(xv), tf.ValueOf(good), tf.ValueOf(one)); err != nil {
		t.Fatal(err)
	}
	if d, _ := o1.Data(); fmt.Sprint(d) != "[3 1]" {
		t.Errorf("Take by [-1 0]: %v", d)
	}
	if err := pp.RunInto(outs, tf.ValueOf(xv), tf.ValueOf(bad), tf.ValueOf(one)); !errors.Is(err, tf.ErrArgument) {
		t.Errorf("Take by index 3 of 3: %v, want ErrArgument", err)
	}
	if err := pp.RunInto(outs, tf.ValueOf(xv), tf.ValueOf(good), tf.ValueOf(two)); !errors.Is(err, tf.ErrShape) {
		t.Errorf("MaskedSelect of 2 elements into 1: %v, want ErrShape", err)
	}
	if d, _ := o2.Data(); d[0] != 2 {
		t.Errorf("a refused MaskedSelect wrote its output: %v", d)
	}
}

// TestStructuralViews checks that Squeeze, Unsqueeze and Flatten of
// intermediates cost no command.
func TestStructuralViews(t *testing.T) {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 3, 1, 4)
	a, _ := tr.Negate(x)
	s, _ := tr.Squeeze(a)
	u, _ := tr.Unsqueeze(s, 0)
	p, _ := tr.Permute(u, 2, 1, 0)
	f, _ := tr.Flatten(s)
	b, _ := tr.Add(f, f)
	g, _ := tr.Finish(p, b)
	prog, err := program.Compile(g)
	if err != nil {
		t.Fatal(err)
	}
	if st := prog.Stats(); st.Views != 4 || prog.NumCommands() != 3 {
		t.Errorf("views %d, commands %d (want 4 views; Negate, Add and the output copy of the view):\n%v", st.Views, prog.NumCommands(), prog)
	}
}
