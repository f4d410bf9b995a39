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

// TestReductionProgramZeroAllocs compiles a program of the reductions and
// scans (means, variances, norms of complex input, arg-extrema,
// log-sum-exp, cumulative sums, All) and checks that RunInto allocates
// nothing once warm, and that the results equal the eager operations'.
func TestReductionProgramZeroAllocs(t *testing.T) {
	e := cpu.Serial()
	defer e.Close()
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 6, 5)
	z, _ := tr.Input(tf.Complex128, 4, 3)
	b, _ := tr.Input(tf.Bool, 3, 2)
	mean, _ := tr.Mean(x, -1)
	v, _ := tr.Var(x, 1, 0)
	n, _ := tr.Norm(z, 2, 0, 1)
	n3, _ := tr.Norm(z, 3, 0)
	am, _ := tr.ArgMax(x, 1)
	lse, _ := tr.LogSumExp(x, 0)
	cs, _ := tr.CumSum(z, 1)
	all, _ := tr.All(b, 0)
	std, _ := tr.Std(z, 0, 1)
	g, err := tr.Finish(mean, v, n, n3, am, lse, cs, all, std)
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
	xa, _ := tf.RandN[float64](1, 6, 5)
	za, _ := tf.RandN[complex128](2, 4, 3)
	ba, _ := tf.Zeros[bool](3, 2)
	ba.Set(true, 1, 1)
	ins := []tf.Value{tf.ValueOf(xa), tf.ValueOf(za), tf.ValueOf(ba)}
	outs, err := pp.Run(ins...)
	if err != nil {
		t.Fatal(err)
	}
	eager := []tf.Value{
		must(valueOf(tf.Mean(e, xa, -1))), must(valueOf(tf.Var[float64](e, xa, 1, 0))),
		must(valueOf(tf.Norm[float64](e, za, 2, 0, 1))), must(valueOf(tf.Norm[float64](e, za, 3, 0))),
		must(valueOf(tf.ArgMax(e, xa, 1))), must(valueOf(tf.LogSumExp(e, xa, 0))),
		must(valueOf(tf.CumSum(e, za, 1))), must(valueOf(tf.All(e, ba, 0))), must(valueOf(tf.Std[float64](e, za, 0, 1))),
	}
	for i := range outs {
		if !sameValues(t, outs[i], eager[i]) {
			t.Errorf("output %d: program %v, eager %v", i, outs[i], eager[i])
		}
	}
	if raceEnabled {
		t.Skip("allocation counts need a build without the race detector")
	}
	if n := testing.AllocsPerRun(20, func() {
		if err := pp.RunInto(outs, ins...); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("RunInto: %v allocations, want 0", n)
	}
	// The Into forms, keepdims destinations included.
	m1, _ := tf.Zeros[float64](6, 1)
	nr, _ := tf.Zeros[float64](1, 3)
	ai, _ := tf.Zeros[int64](6)
	c2, _ := tf.Zeros[complex128](4, 3)
	if n := testing.AllocsPerRun(20, func() {
		if err := tf.MeanInto(e, m1, xa, 1); err != nil {
			t.Fatal(err)
		}
		if err := tf.NormInto(e, nr, za, 2, 0); err != nil {
			t.Fatal(err)
		}
		if err := tf.ArgMinInto(e, ai, xa, -1); err != nil {
			t.Fatal(err)
		}
		if err := tf.CumProdInto(e, c2, za, 0); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("reduction Into forms: %v allocations, want 0", n)
	}
}

// TestReductionErrors checks that bad axes, attributes, destinations and
// empty sets give typed errors naming the argument, and that a failed
// Into leaves its destination untouched.
func TestReductionErrors(t *testing.T) {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.RandN[float64](3, 2, 3)
	empty, _ := tf.Zeros[float64](0, 3)
	z, _ := tf.RandN[complex128](4, 2, 3)
	dst, _ := tf.Full[float64](7, 3)
	cases := []struct {
		name string
		err  error
		kind error
	}{
		{"axis out of range", second(tf.Sum(e, x, 2)), tf.ErrArgument},
		{"repeated axis", second(tf.Mean(e, x, 1, -1)), tf.ErrArgument},
		{"Max of an empty set", second(tf.Max(e, empty, 0)), tf.ErrShape},
		{"ArgMax of an empty axis", second(tf.ArgMax(e, empty, 0)), tf.ErrShape},
		{"negative ddof", second(tf.Var[float64](e, x, -1)), tf.ErrArgument},
		{"order -Inf of an empty set", second(tf.Norm[float64](e, empty, math.Inf(-1), 0)), tf.ErrShape},
		{"NaN order", second(tf.Norm[float64](e, x, math.NaN())), tf.ErrArgument},
		{"wrong real type", second(tf.Norm[float32](e, z, 2)), tf.ErrDType},
		{"scan axis", second(tf.CumSum(e, x, 5)), tf.ErrArgument},
		{"Into shape", tf.SumInto(e, dst, x, 1), tf.ErrShape},
		{"Into keepdims shape", tf.SumInto(e, must(tf.Full[float64](7, 2, 3)), x, 1), tf.ErrShape},
		{"Into overlap", tf.CumSumInto(e, must(x.Reverse(0)), x, 1), tf.ErrAlias},
		{"Into wrong real type", tf.VarInto(e, must(tf.Zeros[float32](3)), z, 0, 0), tf.ErrDType},
	}
	for _, c := range cases {
		if !errors.Is(c.err, c.kind) {
			t.Errorf("%s: %v, want %v", c.name, c.err, c.kind)
		}
		var te *tf.Error
		if c.err != nil && (!errors.As(c.err, &te) || te.Op == "" || te.Arg == "") {
			t.Errorf("%s: %v does not name the operation and argument", c.name, c.err)
		}
	}
	if got, _ := dst.Data(); !slices.Equal(got, []float64{7, 7, 7}) {
		t.Errorf("failed SumInto wrote its destination: %v", got)
	}
}

func second[T any](_ T, err error) error { return err }
