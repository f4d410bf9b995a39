package trace_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/internal/op"
	"github.com/tenferro-go/tenferro/trace"
)

func wantErr(t *testing.T, name string, err, kind error, mention ...string) {
	t.Helper()
	if !errors.Is(err, kind) {
		t.Fatalf("%s: err %v, want kind %v", name, err, kind)
	}
	var te *tf.Error
	if !errors.As(err, &te) {
		t.Fatalf("%s: %T is not a *tenferro.Error", name, err)
	}
	for _, m := range mention {
		if !strings.Contains(err.Error(), m) {
			t.Errorf("%s: %q does not mention %q", name, err, m)
		}
	}
}

func TestShapes(t *testing.T) {
	tr := trace.New()
	a, _ := tr.Input(tf.Complex64, 2, 3, 5)
	b, _ := tr.Input(tf.Complex64, 3, 4, 1)
	c, _ := tr.Input(tf.Complex64, 2, 1, 5)
	cases := []struct {
		name string
		v    trace.Var
		err  error
		want []int
	}{
		{"matmul broadcast batch", must(tr.Matmul(a, b)), nil, []int{2, 4, 5}},
		{"einsum", must(tr.Einsum("ijb,jkc->ikb", a, b)), nil, []int{2, 4, 5}},
		{"einsum implicit", must(tr.Einsum("ijb,jk", a, must(tr.Input(tf.Complex64, 3, 4)))), nil, []int{5, 2, 4}}, // labels b, i, k sorted
		{"add broadcast", must(tr.Add(a, c)), nil, []int{2, 3, 5}},
		{"sub broadcast", must(tr.Sub(c, a)), nil, []int{2, 3, 5}},
		{"sum axes", must(tr.Sum(a, 0, 2)), nil, []int{3}},
		{"sum all", must(tr.Sum(a)), nil, []int{}},
		{"sum any order, negative", must(tr.Sum(a, -1, 0)), nil, []int{3}},
		{"permute negative", must(tr.Permute(a, -1, 0, 1)), nil, []int{5, 2, 3}},
		{"permute", must(tr.Permute(a, 2, 0, 1)), nil, []int{5, 2, 3}},
		{"reshape infer", must(tr.Reshape(a, 6, -1)), nil, []int{6, 5}},
		{"scale", must(tr.Scale(1i, a)), nil, []int{2, 3, 5}},
		{"conj", must(tr.Conj(a)), nil, []int{2, 3, 5}},
	}
	for _, c := range cases {
		if !slices.Equal(c.v.Shape(), c.want) || c.v.DType() != tf.Complex64 {
			t.Errorf("%s: %v %v, want c64 %v", c.name, c.v.DType(), c.v.Shape(), c.want)
		}
	}
}

func must(v trace.Var, err error) trace.Var {
	if err != nil {
		panic(err)
	}
	return v
}

// TestBroadcastRanks: a lower rank broadcasts along the last axes, as
// NumPy does.
func TestBroadcastRanks(t *testing.T) {
	tr := trace.New()
	a := must(tr.Input(tf.Float64, 2, 3))
	for _, c := range []struct{ b, want []int }{{[]int{3}, []int{2, 3}}, {[]int{}, []int{2, 3}}, {[]int{4, 1, 3}, []int{4, 2, 3}}} {
		v, err := tr.Mul(a, must(tr.Input(tf.Float64, c.b...)))
		if err != nil || !slices.Equal(v.Shape(), c.want) {
			t.Errorf("Mul of [2 3] and %v: %v, %v; want shape %v", c.b, v.Shape(), err, c.want)
		}
	}
}

func TestRecordErrors(t *testing.T) {
	tr := trace.New()
	a, _ := tr.Input(tf.Float64, 2, 3)
	b, _ := tr.Input(tf.Float64, 4, 5)
	f, _ := tr.Input(tf.Float32, 2, 3)
	other := trace.New()
	x, _ := other.Input(tf.Float64, 2, 3)
	_, err := tr.Matmul(a, b)
	wantErr(t, "matmul rows", err, tf.ErrShape, "Matmul", "b", "3 rows")
	_, err = tr.Matmul(a, x)
	wantErr(t, "cross trace", err, tf.ErrArgument, "another trace")
	_, err = tr.Add(a, trace.Var{})
	wantErr(t, "zero value", err, tf.ErrArgument, "zero Var")
	_, err = tr.Add(a, f)
	wantErr(t, "mixed dtypes", err, tf.ErrDType, "Add", "f32", "f64")
	_, err = tr.Add(a, b)
	wantErr(t, "add shapes", err, tf.ErrShape, "Add", "[4 5]", "axis -2")
	_, err = tr.Mul(a, must(tr.Input(tf.Float64, 2)))
	wantErr(t, "broadcast across ranks", err, tf.ErrShape, "[2 3]", "[2]", "axis -1")

	_, err = tr.Einsum("ij,jk->ik", a)
	wantErr(t, "einsum arity", err, tf.ErrShape, "2 operands")
	_, err = tr.Einsum("ij,jk->ik", a, b)
	wantErr(t, "einsum extents", err, tf.ErrShape, "Einsum")
	_, err = tr.Einsum("i$j", a)
	wantErr(t, "einsum syntax", err, tf.ErrArgument, "subscripts")
	_, err = tr.Einsum("ij->ij")
	wantErr(t, "einsum no operands", err, tf.ErrArgument)
	_, err = tr.Sum(a, 1, 1)
	wantErr(t, "sum repeated axis", err, tf.ErrArgument, "axes")
	_, err = tr.Sum(a, 2)
	wantErr(t, "sum range", err, tf.ErrArgument, "axes")
	_, err = tr.Permute(a, 0, 0)
	wantErr(t, "permute", err, tf.ErrArgument, "perm")
	_, err = tr.Permute(a, 0)
	wantErr(t, "permute rank", err, tf.ErrShape, "perm")
	_, err = tr.Reshape(a, 4, 2)
	wantErr(t, "reshape count", err, tf.ErrShape, "6 elements")
	_, err = tr.Reshape(a, -1, -1)
	wantErr(t, "reshape two -1", err, tf.ErrShape)
	_, err = tr.Scale(1i, a)
	wantErr(t, "complex factor", err, tf.ErrDType, "alpha")
	_, err = tr.Input(tf.Invalid, 2)
	wantErr(t, "input dtype", err, tf.ErrDType)
	_, err = tr.Input(tf.Float64, -1)
	wantErr(t, "input extent", err, tf.ErrShape)
	_, err = tr.Finish()
	wantErr(t, "no outputs", err, tf.ErrArgument)
	_, err = tr.Finish(x)
	wantErr(t, "foreign output", err, tf.ErrArgument, "another trace")

	// Failed operations recorded nothing.
	g, err := tr.Finish(a)
	if err != nil {
		t.Fatal(err)
	}
	if g.NumNodes() != 4 { // a, b, f and the rank-1 input
		t.Errorf("graph has %d nodes, want 4:\n%s", g.NumNodes(), g)
	}
	_, err = tr.Add(a, a)
	wantErr(t, "after finish", err, tf.ErrArgument, "finished")
	_, err = tr.Input(tf.Float64, 1)
	wantErr(t, "input after finish", err, tf.ErrArgument, "finished")
	_, err = tr.Finish(a)
	wantErr(t, "finish twice", err, tf.ErrArgument, "finished")
}

func TestGraph(t *testing.T) {
	tr := trace.New()
	a, _ := tr.Input(tf.Float64, 2, 2)
	b, _ := tr.Input(tf.Float64, 2, 2)
	c, _ := tr.Matmul(a, b)
	d, _ := tr.Scale(3, c)
	g, err := tr.Finish(d, a)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(g.Inputs(), []int{a.ID(), b.ID()}) || !slices.Equal(g.Outputs(), []int{d.ID(), a.ID()}) {
		t.Errorf("inputs %v outputs %v", g.Inputs(), g.Outputs())
	}
	n := g.Node(d.ID())
	if n.Op != op.Scale || n.Attrs.Alpha != 3 || !slices.Equal(n.Args, []int{c.ID()}) {
		t.Errorf("node %+v", n)
	}
	if g.Node(b.ID()).Input != 1 {
		t.Errorf("input position %d, want 1", g.Node(b.ID()).Input)
	}
	if !strings.Contains(g.String(), "Matmul") {
		t.Errorf("String: %s", g)
	}
}

func ExampleTrace() {
	tr := trace.New()
	a, _ := tr.Input(tf.Float64, 3, 4)
	b, _ := tr.Input(tf.Float64, 4, 5)
	c, _ := tr.Matmul(a, b)
	d, _ := tr.Sum(c, 1)
	g, _ := tr.Finish(d)
	fmt.Println(d.Shape(), g.NumNodes())
	_, err := tr.Add(a, a)
	fmt.Println(errors.Is(err, tf.ErrArgument))
	// Output:
	// [3] 4
	// true
}

// A bad shape gives the error the eager operation gives.
func ExampleTrace_Add() {
	tr := trace.New()
	a, _ := tr.Input(tf.Float64, 2, 3)
	b, _ := tr.Input(tf.Float64, 3, 3)
	_, err := tr.Add(a, b)
	fmt.Println(err)
	// Output: tenferro: Add: b: shape mismatch: expected a shape that broadcasts with a's [2 3] (extents equal or 1, aligned on the last axis), got [3 3] (3 against 2 at axis -2)
}

// Complex takes two real variables of one dtype and records a complex
// one of their precision; other dtypes are refused.
func ExampleTrace_Complex() {
	tr := trace.New()
	re, _ := tr.Input(tf.Float32, 2, 3)
	im, _ := tr.Input(tf.Float32, 3)
	z, _ := tr.Complex(re, im)
	fmt.Println(z.DType(), z.Shape())
	_, err := tr.Complex(z, z)
	fmt.Println(err)
	// Output:
	// c64 [2 3]
	// tenferro: Complex: re: dtype mismatch: expected f32 or f64, got c64
}

func ExampleTrace_Erf() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 4)
	y, _ := tr.Erf(x)
	fmt.Println(y.DType(), y.Shape())
	_, err := tr.Erfc(must(tr.Input(tf.Complex128, 4)))
	fmt.Println(errors.Is(err, tf.ErrDType))
	// Output:
	// f64 [4]
	// true
}
