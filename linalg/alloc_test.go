package linalg_test

import (
	"math/rand/v2"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/linalg"
)

// TestIntoAllocs proves that every Into form allocates nothing on a warm
// engine, on batched strided inputs and destinations.
func TestIntoAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's sync.Pool drops pooled arguments")
	}
	testIntoAllocs[float64](t)
	testIntoAllocs[complex64](t)
}

func testIntoAllocs[T tf.Scalar](t *testing.T) {
	e := engine(t)
	r := rand.New(rand.NewPCG(15, 16))
	const n = 40
	batch := []int{2, 1}
	as := many(2, func() mat { return hpd[T](r, n) })
	a := place[T](t, as, n, n, batch, "transposed")
	b := place[T](t, many(2, func() mat { return randMat[T](r, n, 3) }), n, 3, batch, "strided")
	sq := func() *tf.Tensor[T] {
		return place[T](t, many(2, func() mat { return newMat(n, n) }), n, n, batch, "strided")
	}
	l, inv, lu, pm, lm, um := sq(), sq(), sq(), sq(), sq(), sq()
	x := place[T](t, many(2, func() mat { return newMat(n, 3) }), n, 3, batch, "reversed")
	piv, _ := tf.Zeros[int64](n, 2, 1)
	det, _ := tf.Zeros[T](2, 1)
	sign, _ := tf.Zeros[T](2, 1)
	if err := linalg.CholeskyInto(e, l, a); err != nil {
		t.Fatal(err)
	}
	if err := linalg.LUInto(e, lu, piv, a); err != nil { // valid pivots for LUUnpackInto
		t.Fatal(err)
	}
	cases := map[string]func() error{
		"CholeskyInto":        func() error { return linalg.CholeskyInto(e, l, a, linalg.Upper) },
		"CholeskySolveInto":   func() error { return linalg.CholeskySolveInto(e, x, l, b, linalg.Upper) },
		"LUInto":              func() error { return linalg.LUInto(e, lu, piv, a) },
		"SolveInto":           func() error { return linalg.SolveInto(e, x, a, b) },
		"SolveTriangularInto": func() error { return linalg.SolveTriangularInto(e, x, l, b, true, linalg.UnitDiagonal) },
		"InvInto":             func() error { return linalg.InvInto(e, inv, a) },
		"LUUnpackInto":        func() error { return linalg.LUUnpackInto(e, pm, lm, um, lu, piv) },
		"DetInto":             func() error { return linalg.DetInto(e, det, a) },
		"QRInto":              func() error { return linalg.QRInto(e, inv, lm, a, linalg.PositiveDiagonal) },
		"LQInto":              func() error { return linalg.LQInto(e, lm, inv, a) },
	}
	rank, _ := tf.Zeros[int64](2, 1)
	cases["MatrixRankInto"] = func() error { return linalg.MatrixRankInto(e, rank, a, 0, -1) }
	cases["PinvInto"] = func() error { return linalg.PinvInto(e, inv, a, -1) }
	perm, _ := tf.Zeros[int64](n, 2, 1)
	cases["QRPivotedInto"] = func() error { return linalg.QRPivotedInto(e, inv, lm, perm, a) }
	cases["ExpmInto"] = func() error { return linalg.ExpmInto(e, inv, a) }
	if tf.DTypeOf[T]().Real() == tf.Float64 {
		realCases[float64, T](cases, e, sign, a, b, x, inv, lm, rank)
	} else {
		realCases[float32, T](cases, e, sign, a, b, x, inv, lm, rank)
	}
	for name, f := range cases {
		if err := f(); err != nil { // warm up
			t.Fatalf("%s: %v", name, err)
		}
		if got := testing.AllocsPerRun(10, func() { _ = f() }); got != 0 {
			t.Errorf("%s %s: %v allocations per call on a warm engine, want 0", tf.DTypeOf[T](), name, got)
		}
	}
}

// realCases adds the Into forms with real results of type R to cases.
func realCases[R tf.Float, T tf.Scalar](cases map[string]func() error, e tf.Engine, sign, a, b, x, sq1, sq2 *tf.Tensor[T], rank *tf.Tensor[int64]) {
	la, _ := tf.Zeros[R](2, 1)
	n := a.Shape()[0]
	w, _ := tf.Zeros[R](n, 2, 1)
	cases["SlogDetInto"] = func() error { return linalg.SlogDetInto(e, sign, la, a) }
	cases["SVDInto"] = func() error { return linalg.SVDInto(e, sq1, w, sq2, a) }
	cases["SVDInto values"] = func() error { return linalg.SVDInto(e, nil, w, nil, a) }
	cases["EighInto"] = func() error { return linalg.EighInto(e, w, sq1, a, linalg.Upper) }
	cases["MatrixNormInto"] = func() error { return linalg.MatrixNormInto(e, la, a, linalg.Norm2) }
	cases["CondInto"] = func() error { return linalg.CondInto(e, la, a, linalg.Norm1) }
	cases["LstsqInto"] = func() error { return linalg.LstsqInto(e, x, rank, w, a, b, -1) }
}
