package tenferro_test

import (
	"errors"
	"math"
	"slices"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/program"
	"github.com/tenferro-go/tenferro/trace"
)

// TestMixedProgram runs predicates, comparisons, logical operations, Where
// and the complex parts through a trace and a compiled program, against
// the same operations run eagerly, and checks that a warm RunInto
// allocates nothing.
func TestMixedProgram(t *testing.T) {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.RandN[float64](1, 4, 3)
	x.Set(math.NaN(), 1, 2)
	x.Set(math.Inf(1), 0, 1)
	y, _ := tf.RandN[float64](2, 3)
	z, _ := tf.RandN[complex128](3, 4, 3)
	// Eagerly.
	lt, _ := tf.Less(e, x, y)
	nan, _ := tf.IsNaN(e, x)
	ok, _ := tf.LogicalNot(e, nan)
	both, _ := tf.LogicalAnd(e, lt, ok)
	ex, _ := tf.Exp(e, x)
	w, _ := tf.Where(e, both, ex, y)
	a, _ := tf.Abs[float64](e, z)
	s, _ := tf.Add(e, w, a)
	ang, _ := tf.Angle[float64](e, z)
	re, _ := tf.Real[float64](e, z)
	im, _ := tf.Imag[float64](e, z)
	// Traced.
	tr := trace.New()
	vx, _ := tr.Input(tf.Float64, 4, 3)
	vy, _ := tr.Input(tf.Float64, 3)
	vz, _ := tr.Input(tf.Complex128, 4, 3)
	vlt, _ := tr.Less(vx, vy)
	vnan, _ := tr.IsNaN(vx)
	vok, _ := tr.LogicalNot(vnan)
	vboth, _ := tr.LogicalAnd(vlt, vok)
	vex, _ := tr.Exp(vx)
	vw, err := tr.Where(vboth, vex, vy)
	if err != nil {
		t.Fatal(err)
	}
	va, _ := tr.Abs(vz)
	vs, _ := tr.Add(vw, va)
	vang, _ := tr.Angle(vz)
	vre, _ := tr.Real(vz)
	vim, _ := tr.Imag(vz)
	for i, c := range []struct {
		v  trace.Var
		dt tf.DType
	}{{vboth, tf.Bool}, {va, tf.Float64}, {vs, tf.Float64}, {vim, tf.Float64}} {
		if c.v.DType() != c.dt {
			t.Errorf("traced value %d: dtype %v, want %v", i, c.v.DType(), c.dt)
		}
	}
	g, err := tr.Finish(vs, vboth, vang, vre, vim)
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
	ins := []tf.Value{tf.ValueOf(x), tf.ValueOf(y), tf.ValueOf(z)}
	outs, err := pp.Run(ins...)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []tf.Value{tf.ValueOf(s), tf.ValueOf(both), tf.ValueOf(ang), tf.ValueOf(re), tf.ValueOf(im)} {
		if !sameValues(t, outs[i], want) {
			t.Errorf("output %d: program %v, eager %v", i, outs[i], want)
		}
	}
	if n := testing.AllocsPerRun(20, func() {
		if err := pp.RunInto(outs, ins...); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("RunInto: %v allocations, want 0", n)
	}
}

// sameValues reports whether a and b have one dtype and shape and equal
// elements, NaN equal to NaN: the program runs the eager operations'
// kernels, so the results agree exactly.
func sameValues(t *testing.T, a, b tf.Value) bool {
	t.Helper()
	if a.DType() != b.DType() || !slices.Equal(a.Shape(), b.Shape()) {
		return false
	}
	same := true
	each(a.Shape(), func(idx []int) {
		switch x := a.Tensor().(type) {
		case *tf.Tensor[float64]:
			u, _ := x.At(idx...)
			v, _ := b.Tensor().(*tf.Tensor[float64]).At(idx...)
			same = same && (u == v || u != u && v != v)
		case *tf.Tensor[complex128]:
			u, _ := x.At(idx...)
			v, _ := b.Tensor().(*tf.Tensor[complex128]).At(idx...)
			same = same && (u == v || u != u && v != v)
		case *tf.Tensor[int64]:
			u, _ := x.At(idx...)
			v, _ := b.Tensor().(*tf.Tensor[int64]).At(idx...)
			same = same && u == v
		case *tf.Tensor[bool]:
			u, _ := x.At(idx...)
			v, _ := b.Tensor().(*tf.Tensor[bool]).At(idx...)
			same = same && u == v
		default:
			t.Fatalf("dtype %v", a.DType())
		}
	})
	return same
}

// TestMixedErrors: a wrong real type, a mask that does not broadcast and
// nil operands are errors naming the argument.
func TestMixedErrors(t *testing.T) {
	e := cpu.Serial()
	defer e.Close()
	z, _ := tf.Zeros[complex64](3)
	if _, err := tf.Abs[float64](e, z); !errors.Is(err, tf.ErrDType) {
		t.Errorf("Abs[float64] of complex64: %v, want ErrDType", err)
	}
	x, _ := tf.Zeros[float64](2, 3)
	m, _ := tf.Zeros[bool](2)
	if _, err := tf.Where(e, m, x, x); !errors.Is(err, tf.ErrShape) {
		t.Errorf("Where with a (2) mask for (2, 3): %v, want ErrShape", err)
	}
	if _, err := tf.Less(e, x, nil); !errors.Is(err, tf.ErrArgument) {
		t.Errorf("Less with a nil b: %v, want ErrArgument", err)
	}
	d, _ := tf.Zeros[bool](3, 2)
	if err := tf.IsNaNInto(e, d, x); !errors.Is(err, tf.ErrShape) {
		t.Errorf("IsNaNInto a (3, 2) destination: %v, want ErrShape", err)
	}
	tr := trace.New()
	f, _ := tr.Input(tf.Float64, 3)
	if _, err := tr.Where(f, f, f); !errors.Is(err, tf.ErrDType) {
		t.Errorf("traced Where with a float64 mask: %v, want ErrDType", err)
	}
	b, _ := tr.Input(tf.Bool, 3)
	if _, err := tr.Add(b, b); !errors.Is(err, tf.ErrDType) {
		t.Errorf("traced Add of bools: %v, want ErrDType", err)
	}
	c, _ := tr.Input(tf.Complex128, 3)
	if _, err := tr.Less(c, c); !errors.Is(err, tf.ErrDType) {
		t.Errorf("traced Less of complex: %v, want ErrDType", err)
	}
}
