package lapack

import (
	"sync"
	"testing"

	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
	"github.com/tenferro-go/tenferro/internal/par"
	"github.com/tenferro-go/tenferro/team"
)

// goRunner is a par.Runner that runs each part on its own goroutine.
type goRunner struct{ width int }

func (g goRunner) Width() int { return g.width }

func (g goRunner) Run(t par.Task, parts int) {
	parts = min(max(parts, 1), g.width)
	var wg sync.WaitGroup
	for p := 1; p < parts; p++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t.RunPart(p, parts)
		}()
	}
	t.RunPart(0, parts)
	wg.Wait()
}

// TestRunner runs the factorizations with a two-worker runner and gemm's
// parallel threshold lowered so that the updates split, and checks the
// factors against serial runs.
func TestRunner(t *testing.T) {
	prev, prevHerk := gemm.ParallelThreshold, herkMinFlops
	gemm.ParallelThreshold, herkMinFlops = 1000, 1
	defer func() { gemm.ParallelThreshold, herkMinFlops = prev, prevHerk }()
	const n = 200
	r := goRunner{2}
	var ws, ws1 Workspace
	for _, spd := range []bool{true, false} {
		src := benchInput[complex128](n, spd)
		a := gemm.Mat[complex128]{Data: append([]complex128(nil), src...), RS: 1, CS: n}
		b := gemm.Mat[complex128]{Data: append([]complex128(nil), src...), RS: 1, CS: n}
		p1, p2 := make([]int, n), make([]int, n)
		if spd {
			Potrf(&ws, r, Lower, n, a)
			Potrf(&ws1, nil, Lower, n, b)
		} else {
			Getrf(&ws, r, n, n, a, p1)
			Getrf(&ws1, nil, n, n, b, p2)
		}
		for i := range a.Data {
			if d := abs(a.Data[i] - b.Data[i]); d > 1e-12*(1+abs(b.Data[i])) {
				t.Fatalf("spd=%v: parallel and serial factors differ at %d: %v, %v", spd, i, a.Data[i], b.Data[i])
			}
		}
		for i := range p1 {
			if p1[i] != p2[i] {
				t.Fatalf("pivots differ at %d", i)
			}
		}
	}
}

// TestRunnerAllocs checks that the factorizations split over a warm team
// (the solves' right-hand sides and the products) allocate nothing.
func TestRunnerAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	prev, prevHerk := gemm.ParallelThreshold, herkMinFlops
	gemm.ParallelThreshold, herkMinFlops = 1000, 1
	defer func() { gemm.ParallelThreshold, herkMinFlops = prev, prevHerk }()
	tm, err := team.New(team.Threads(2))
	if err != nil {
		t.Fatal(err)
	}
	defer tm.Close()
	const n = 150
	src := benchInput[float64](n, true)
	a := gemm.Mat[float64]{Data: make([]float64, n*n), RS: 1, CS: n}
	var ws Workspace
	run := func() {
		copy(a.Data, src)
		Potrf(&ws, tm, Lower, n, a)
	}
	run()
	if got := testing.AllocsPerRun(10, run); got != 0 {
		t.Errorf("warm Potrf on a team: %v allocations, want 0", got)
	}
	// The LU and its solve split their row interchanges too.
	prevSwaps := laswpMinSwaps
	laswpMinSwaps = 1
	defer func() { laswpMinSwaps = prevSwaps }()
	x := gemm.Mat[float64]{Data: make([]float64, n*n), RS: 1, CS: n}
	var ipiv [n]int
	lu := func() {
		copy(a.Data, src)
		copy(x.Data, src)
		Getrf(&ws, tm, n, n, a, ipiv[:])
		Getrs(&ws, tm, NoTrans, n, n, a, ipiv[:], x)
	}
	lu()
	if got := testing.AllocsPerRun(10, lu); got != 0 {
		t.Errorf("warm Getrf and Getrs on a team: %v allocations, want 0", got)
	}
}
