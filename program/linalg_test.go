package program_test

import (
	"errors"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"strings"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/linalg"
	"github.com/tenferro-go/tenferro/program"
	"github.com/tenferro-go/tenferro/trace"
)

// The linear-algebra operations of programs run the engine's kernels of
// package linalg: a program's factors equal the eager ones, a
// decomposition whose factors are all live is one command, and a
// numerical failure is the typed error of the eager operation.

func randMatrix[T tf.Scalar](t *testing.T, rng *rand.Rand, shape ...int) *tf.Tensor[T] {
	t.Helper()
	n := tf.Numel(shape)
	data := make([]T, n)
	for i := range data {
		var z T
		switch p := any(&z).(type) {
		case *float64:
			*p = rng.Float64()*2 - 1
		case *complex128:
			*p = complex(rng.Float64()*2-1, rng.Float64()*2-1)
		}
		data[i] = z
	}
	x, err := tf.FromSlice(data, shape...)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

func sameData[T tf.Scalar](t *testing.T, what string, got tf.Value, want *tf.Tensor[T]) {
	t.Helper()
	g, err := got.Data()
	if err != nil {
		t.Fatal(err)
	}
	w, err := want.Clone()
	if err != nil {
		t.Fatal(err)
	}
	wd, _ := w.Data()
	gd := g.([]T)
	if len(gd) != len(wd) {
		t.Fatalf("%s: %d elements, want %d", what, len(gd), len(wd))
	}
	for i := range gd {
		if cmplx.Abs(toC(gd[i])-toC(wd[i])) > 1e-12*(1+cmplx.Abs(toC(wd[i]))) {
			t.Fatalf("%s[%d] = %v, want %v", what, i, gd[i], wd[i])
		}
	}
}

func toC[T tf.Scalar](x T) complex128 {
	switch v := any(x).(type) {
	case float64:
		return complex(v, 0)
	case complex128:
		return v
	case float32:
		return complex(float64(v), 0)
	case complex64:
		return complex128(v)
	}
	return 0
}

func testLinalgParity[T tf.Scalar, R tf.Float](t *testing.T) {
	e := cpu.Serial()
	defer e.Close()
	rng := rand.New(rand.NewPCG(5, 6))
	dt := tf.DTypeOf[T]()
	a := randMatrix[T](t, rng, 5, 3, 2)
	sq := randMatrix[T](t, rng, 4, 4, 2)
	rhs := randMatrix[T](t, rng, 4, 3, 2)

	tr := trace.New()
	av, _ := tr.Input(dt, 5, 3, 2)
	sv, _ := tr.Input(dt, 4, 4, 2)
	bv, _ := tr.Input(dt, 4, 3, 2)
	u, s, vh, err := tr.SVD(av)
	if err != nil {
		t.Fatal(err)
	}
	q, r, _ := tr.QR(av, true)
	w, v, _ := tr.Eigh(sv, false)
	x, _ := tr.Solve(sv, bv)
	inv, _ := tr.Inv(sv)
	det, _ := tr.Det(sv)
	sign, logabs, _ := tr.SlogDet(sv)
	ex, _ := tr.Expm(sv)
	pinv, _ := tr.Pinv(av, 0)
	tri, _ := tr.SolveTriangular(sv, bv, true, true, false)
	g, err := tr.Finish(u, s, vh, q, r, w, v, x, inv, det, sign, logabs, ex, pinv, tri)
	if err != nil {
		t.Fatal(err)
	}
	p, err := program.Compile(g)
	if err != nil {
		t.Fatal(err)
	}
	// SVD, QR, Eigh, SlogDet one command each; Solve, Inv, Det, Expm,
	// Pinv and SolveTriangular one each.
	if n := p.NumCommands(); n != 10 {
		t.Errorf("%d commands, want 10 (the factors of one decomposition share a command)", n)
	}
	pp, err := program.Prepare(p, e)
	if err != nil {
		t.Fatal(err)
	}
	out, err := pp.Run(tf.ValueOf(a), tf.ValueOf(sq), tf.ValueOf(rhs))
	if err != nil {
		t.Fatal(err)
	}
	eu, es, evh, _ := linalg.SVD[R](e, a)
	sameData(t, "U", out[0], eu)
	sameData(t, "S", out[1], es)
	sameData(t, "Vh", out[2], evh)
	eq, er, _ := linalg.QR(e, a, linalg.PositiveDiagonal)
	sameData(t, "Q", out[3], eq)
	sameData(t, "R", out[4], er)
	ew, ev, _ := linalg.Eigh[R](e, sq)
	sameData(t, "w", out[5], ew)
	sameData(t, "V", out[6], ev)
	ex2, _ := linalg.Solve(e, sq, rhs)
	sameData(t, "Solve", out[7], ex2)
	einv, _ := linalg.Inv(e, sq)
	sameData(t, "Inv", out[8], einv)
	edet, _ := linalg.Det(e, sq)
	sameData(t, "Det", out[9], edet)
	esign, elog, _ := linalg.SlogDet[R](e, sq)
	sameData(t, "sign", out[10], esign)
	sameData(t, "logabs", out[11], elog)
	eexp, _ := linalg.Expm(e, sq)
	sameData(t, "Expm", out[12], eexp)
	epinv, _ := linalg.Pinv(e, a, 0)
	sameData(t, "Pinv", out[13], epinv)
	etri, _ := linalg.SolveTriangular(e, sq, rhs, true)
	sameData(t, "SolveTriangular", out[14], etri)
}

func TestLinalgParity(t *testing.T) {
	t.Run("f64", testLinalgParity[float64, float64])
	t.Run("c128", testLinalgParity[complex128, float64])
}

// Factors computed alone: values without vectors, R without Q.
func TestLinalgPartialFactors(t *testing.T) {
	e := cpu.Serial()
	defer e.Close()
	rng := rand.New(rand.NewPCG(7, 8))
	a := randMatrix[float64](t, rng, 6, 4)
	tr := trace.New()
	av, _ := tr.Input(tf.Float64, 6, 4)
	s, _ := tr.SVDVals(av)
	_, r, _ := tr.QR(av, false)
	_, vh, _ := func() (trace.Var, trace.Var, error) { _, _, vh, err := tr.SVD(av); return trace.Var{}, vh, err }()
	g, _ := tr.Finish(s, r, vh)
	p, err := program.Compile(g)
	if err != nil {
		t.Fatal(err)
	}
	pp, err := program.Prepare(p, e)
	if err != nil {
		t.Fatal(err)
	}
	out, err := pp.Run(tf.ValueOf(a))
	if err != nil {
		t.Fatal(err)
	}
	es, _ := linalg.SVDVals[float64](e, a)
	sameData(t, "S", out[0], es)
	_, er, _ := linalg.QR(e, a)
	sameData(t, "R", out[1], er)
	_, _, evh, _ := linalg.SVD[float64](e, a)
	sameData(t, "Vh", out[2], evh)
}

// A singular matrix fails the run with ErrSingular naming the batch item;
// shapes are checked when recording.
func TestLinalgErrors(t *testing.T) {
	e := cpu.Serial()
	defer e.Close()
	tr := trace.New()
	av, _ := tr.Input(tf.Float64, 2, 2, 2)
	inv, _ := tr.Inv(av)
	g, _ := tr.Finish(inv)
	p, _ := program.Compile(g)
	pp, _ := program.Prepare(p, e)
	a, _ := tf.FromSlice([]float64{1, 0, 0, 1, 1, 2, 2, 4}, 2, 2, 2)
	_, err := pp.Run(tf.ValueOf(a))
	if !errors.Is(err, tf.ErrSingular) {
		t.Fatalf("singular matrix: %v, want ErrSingular", err)
	}
	if !strings.Contains(err.Error(), "Inv: a:") || !strings.Contains(err.Error(), "batch item (1)") {
		t.Errorf("error %v: want the error of Inv naming batch item (1)", err)
	}

	tr = trace.New()
	x, _ := tr.Input(tf.Float64, 3, 2)
	y, _ := tr.Input(tf.Float64, 4, 1)
	z, _ := tr.Input(tf.Int64, 2, 2)
	for name, f := range map[string]func() error{
		"Inv of a non-square matrix": func() error { _, err := tr.Inv(x); return err },
		"Solve rows":                 func() error { _, err := tr.Solve(x, y); return err },
		"Det of int64":               func() error { _, err := tr.Det(z); return err },
		"Pinv with a NaN rcond":      func() error { _, err := tr.Pinv(x, math.NaN()); return err },
	} {
		if err := f(); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if _, err := tr.Inv(x); !errors.Is(err, tf.ErrShape) {
		t.Errorf("Inv of a non-square matrix: %v, want ErrShape", err)
	}
	if _, err := tr.Det(z); !errors.Is(err, tf.ErrDType) {
		t.Errorf("Det of int64: %v, want ErrDType", err)
	}

}
