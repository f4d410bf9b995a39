package trace_test

import (
	"errors"
	"fmt"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/linalg"
	"github.com/tenferro-go/tenferro/program"
	"github.com/tenferro-go/tenferro/trace"
)

// TestLstsqMatchesLinalg: the traced Lstsq, compiled and run, gives
// linalg.Lstsq's least-norm solution on tall, wide, square and
// rank-deficient batches, in float64 and complex128.
func TestLstsqMatchesLinalg(t *testing.T) {
	e := cpu.Serial()
	defer e.Close()
	for _, c := range []struct {
		m, n, k, rank int
		rcond         float64
	}{{7, 3, 2, 3, -1}, {3, 7, 2, 3, -1}, {5, 5, 1, 5, -1}, {8, 6, 3, 2, 1e-10}, {1, 1, 1, 1, -1}, {6, 4, 2, 0, -1}} {
		for _, dt := range []tf.DType{tf.Float64, tf.Complex128} {
			name := fmt.Sprintf("%v %dx%d rank %d", dt, c.m, c.n, c.rank)
			switch dt {
			case tf.Float64:
				checkLstsq[float64](t, e, name, c.m, c.n, c.k, c.rank, c.rcond)
			case tf.Complex128:
				checkLstsq[complex128](t, e, name, c.m, c.n, c.k, c.rank, c.rcond)
			}
		}
	}
}

func checkLstsq[T complex128 | float64](t *testing.T, e tf.Engine, name string, m, n, k, rank int, rcond float64) {
	t.Helper()
	const batch = 2
	// A = L·R with L (m, rank) and R (rank, n): rank-deficient below min(m, n).
	l, _ := tf.RandN[T](1, m, rank, batch)
	r, _ := tf.RandN[T](2, rank, n, batch)
	a, err := tf.Matmul(e, l, r)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := tf.RandN[T](3, m, k, batch)
	want, _, _, err := linalg.Lstsq[float64](e, a, b, rcond)
	if err != nil {
		t.Fatal(err)
	}
	tr := trace.New()
	av, _ := tr.Input(a.DType(), a.Shape()...)
	bv, _ := tr.Input(b.DType(), b.Shape()...)
	xv, err := tr.Lstsq(av, bv, rcond)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := tr.Finish(xv)
	p, err := program.Compile(g)
	if err != nil {
		t.Fatal(err)
	}
	pp, _ := program.Prepare(p, e)
	out, err := pp.Run(tf.ValueOf(a), tf.ValueOf(b))
	if err != nil {
		t.Fatal(err)
	}
	got, _ := tf.As[T](out[0])
	if ok, err := tf.AllClose(got, want, 1e-9, 1e-10*float64(max(m, n))); err != nil || !ok {
		t.Errorf("%s: the traced solution differs from linalg.Lstsq's (%v)\n%v\n%v", name, err, got, want)
	}
}

// TestLstsqErrors: the traced Lstsq names itself and the argument.
func TestLstsqErrors(t *testing.T) {
	tr := trace.New()
	a, _ := tr.Input(tf.Float64, 5, 3, 2)
	cases := []struct {
		name string
		b    func() trace.Var
		want error
	}{
		{"dtype", func() trace.Var { v, _ := tr.Input(tf.Complex128, 5, 1, 2); return v }, tf.ErrDType},
		{"rows", func() trace.Var { v, _ := tr.Input(tf.Float64, 4, 1, 2); return v }, tf.ErrShape},
		{"batch", func() trace.Var { v, _ := tr.Input(tf.Float64, 5, 1, 3); return v }, tf.ErrShape},
		{"vector", func() trace.Var { v, _ := tr.Input(tf.Float64, 5); return v }, tf.ErrShape},
	}
	for _, c := range cases {
		_, err := tr.Lstsq(a, c.b(), -1)
		var te *tf.Error
		if !errors.Is(err, c.want) || !errors.As(err, &te) || te.Op != "Lstsq" {
			t.Errorf("%s: %v, want %v from Lstsq", c.name, err, c.want)
		}
	}
	v, _ := tr.Input(tf.Float64, 5)
	if _, err := tr.Lstsq(v, v, -1); !errors.Is(err, tf.ErrShape) {
		t.Errorf("vector a: %v, want ErrShape", err)
	}
}

// TestMatrixNormMatchesLinalg: every order of the traced MatrixNorm,
// compiled and run, gives linalg.MatrixNorm's values on a batch of tall,
// wide and empty matrices in float64 and complex128.
func TestMatrixNormMatchesLinalg(t *testing.T) {
	e := cpu.Serial()
	defer e.Close()
	for _, shape := range [][]int{{5, 3, 2}, {3, 6}, {1, 1}, {0, 3, 2}} {
		checkMatrixNorm[float64](t, e, shape)
		checkMatrixNorm[complex128](t, e, shape)
	}
}

func checkMatrixNorm[T complex128 | float64](t *testing.T, e tf.Engine, shape []int) {
	t.Helper()
	a, _ := tf.RandN[T](4, shape...)
	for ord := linalg.NormFro; ord <= linalg.NormNegInf; ord++ {
		name := fmt.Sprintf("%v %v ord %d", a.DType(), shape, ord)
		want, err := linalg.MatrixNorm[float64](e, a, ord)
		if err != nil {
			t.Fatal(err)
		}
		tr := trace.New()
		av, _ := tr.Input(a.DType(), shape...)
		nv, err := tr.MatrixNorm(av, ord)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		g, _ := tr.Finish(nv)
		p, err := program.Compile(g)
		if err != nil {
			t.Fatal(err)
		}
		pp, _ := program.Prepare(p, e)
		out, err := pp.Run(tf.ValueOf(a))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got, err := tf.As[float64](out[0])
		if err != nil {
			t.Fatal(err)
		}
		if ok, err := tf.AllClose(got, want, 1e-12, 1e-14); err != nil || !ok {
			t.Errorf("%s: %v, linalg.MatrixNorm %v (%v)", name, got, want, err)
		}
	}
	tr := trace.New()
	av, _ := tr.Input(a.DType(), shape...)
	if _, err := tr.MatrixNorm(av, linalg.NormNegInf+1); !errors.Is(err, tf.ErrArgument) {
		t.Errorf("bad order: %v, want ErrArgument", err)
	}
	v, _ := tr.Input(a.DType(), 4)
	if _, err := tr.MatrixNorm(v, linalg.NormFro); !errors.Is(err, tf.ErrShape) {
		t.Errorf("vector: %v, want ErrShape", err)
	}
	iv, _ := tr.Input(tf.Int64, 2, 2)
	if _, err := tr.MatrixNorm(iv, linalg.NormFro); !errors.Is(err, tf.ErrDType) {
		t.Errorf("int64: %v, want ErrDType", err)
	}
}
