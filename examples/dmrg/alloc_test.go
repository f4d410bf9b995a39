package main

import (
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/linalg"
)

// TestWarmLocalSolveAllocations checks that the inner loop of a sweep, the
// prepared H_eff network and the reused Lanczos solve on it, allocates
// nothing once warm.
func TestWarmLocalSolveAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's sync.Pool drops items")
	}
	testWarm[float64](t)
	testWarm[complex128](t)
}

func testWarm[T number](t *testing.T) {
	e := cpu.Serial()
	defer e.Close()
	o := Options{L: 10, Chi: 16, Weight: 1e-12, Tol: 1e-10, MaxSweeps: 30, Seed: 5}
	_, d, err := Run[T](e, o)
	if err != nil {
		t.Fatal(err)
	}
	const i = 4 // the bond (4, 5), reached by a partial right sweep
	var maxErr float64
	for j := range i {
		if _, err := d.optimize(j, true, &maxErr); err != nil {
			t.Fatal(err)
		}
	}
	theta, err := tf.Einsum(e, "apb,bqc->apqc", d.A[i], d.A[i+1])
	if err != nil {
		t.Fatal(err)
	}
	p, err := d.plan(theta.Dim(0), theta.Dim(3))
	if err != nil {
		t.Fatal(err)
	}
	l, r := d.left[i], d.right[i+2]
	apply := func(dst, x *tf.Tensor[T]) error { return tf.EinsumPlannedInto(e, dst, p, l, d.W, d.W, r, x) }
	dst, _ := tf.NewTensor[T](e, theta.Shape()...)
	var lz linalg.Lanczos[T]
	var res linalg.EigshResult[T]
	solve := func() {
		if err := lz.Solve(e, apply, theta, linalg.EigshOptions{}, &res); err != nil {
			t.Fatal(err)
		}
	}
	solve()
	if a := testing.AllocsPerRun(10, func() { apply(dst, theta) }); a != 0 {
		t.Errorf("%v: EinsumPlannedInto of H_eff: %v allocations", tf.DTypeOf[T](), a)
	}
	if a := testing.AllocsPerRun(5, solve); a != 0 {
		t.Errorf("%v: warm Lanczos.Solve: %v allocations", tf.DTypeOf[T](), a)
	}
}
