package linalg_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/linalg"
)

// TestEigshWarmStart: a second solve started from the first one's
// eigenvector (one of the result's own vectors) converges at once.
func TestEigshWarmStart(t *testing.T) {
	e := engine(t)
	r := rand.New(rand.NewPCG(17, 18))
	const n = 200
	w := make([]float64, n)
	for i := range w {
		w[i] = r.Float64()
	}
	a := withSpectrum[float64](r, w)
	op := denseOp[float64](a)
	var l linalg.Lanczos[float64]
	var res linalg.EigshResult[float64]
	if err := l.Solve(e, op, randVec[float64](t, r, 10, 20), linalg.EigshOptions{}, &res); err != nil {
		t.Fatal(err)
	}
	first := res.Matvecs
	if err := l.Solve(e, op, res.Vectors[0], linalg.EigshOptions{}, &res); err != nil {
		t.Fatal(err)
	}
	if res.Matvecs >= first || res.Matvecs > 5 {
		t.Errorf("warm start: %d matrix-vector products, cold %d", res.Matvecs, first)
	}
	checkPairs(t, a, &res, wanted(w, 1, linalg.Smallest), 1e-10*1.01)
}

// TestEigshAllocs: a warm Lanczos solving into the same result allocates
// nothing, whatever the number of iterations (two tolerances).
func TestEigshAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's sync.Pool drops pooled arguments")
	}
	e := engine(t)
	r := rand.New(rand.NewPCG(15, 16))
	const n = 300
	w := make([]float64, n)
	for i := range w {
		w[i] = r.Float64()
	}
	a := withSpectrum[complex128](r, w)
	op := denseOp[complex128](a)
	x0 := randVec[complex128](t, r, 10, 30)
	var l linalg.Lanczos[complex128]
	var res linalg.EigshResult[complex128]
	for _, tol := range []float64{1e-4, 1e-11} {
		opts := linalg.EigshOptions{K: 3, MaxDim: 12, Tol: tol}
		run := func() {
			if err := l.Solve(e, op, x0, opts, &res); err != nil {
				t.Fatal(err)
			}
		}
		run()
		if got := testing.AllocsPerRun(3, run); got != 0 {
			t.Errorf("tol %g: %v allocations per warm solve (%d restarts)", tol, got, res.Restarts)
		}
	}

	// A DMRG-like local problem: a prepared einsum network over a
	// four-index vector, solved and evolved allocation-free.
	const chi, d = 6, 2
	toT := func(m mat, shape ...int) *tf.Tensor[complex128] {
		x, err := tf.FromSlice(slices.Clone(m.v), shape...)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	L := toT(withSpectrum[complex128](r, []float64{1, 2, 3, 1.5, 2.5, 4}), chi, chi)
	R := toT(withSpectrum[complex128](r, []float64{0.7, 1.1, 1.3, 0.9, 1.2, 2}), chi, chi)
	W := toT(withSpectrum[complex128](r, []float64{-1, 0.25, 0.5, 0.8}), d, d, d, d)
	plan, err := tf.PrepareEinsum(tf.Complex128, "ai,bj,stuv,iuvj->astb", [][]int{{chi, chi}, {chi, chi}, {d, d, d, d}, {chi, d, d, chi}})
	if err != nil {
		t.Fatal(err)
	}
	net := func(dst, x *tf.Tensor[complex128]) error { return tf.EinsumPlannedInto(e, dst, plan, L, R, W, x) }
	psi := randVec[complex128](t, r, chi, d, d, chi)
	out, _ := tf.Zeros[complex128](chi, d, d, chi)
	var kx linalg.KrylovExp[complex128]
	for name, f := range map[string]func(){
		"Eigsh": func() {
			if err := l.Solve(e, net, psi, linalg.EigshOptions{K: 2}, &res); err != nil {
				t.Fatal(err)
			}
		},
		"ExpmV": func() {
			if _, err := kx.ExpmVInto(e, out, net, complex(0, -0.1), psi, linalg.ExpmVOptions{Hermitian: true, MaxDim: 12}); err != nil {
				t.Fatal(err)
			}
		},
	} {
		f()
		if got := testing.AllocsPerRun(3, f); got != 0 {
			t.Errorf("einsum network, %s: %v allocations per warm call", name, got)
		}
	}
}
