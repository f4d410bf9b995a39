package lapack

import (
	"fmt"
	"testing"

	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
)

// TestSVDWarmAllocs checks that warm Gebrd, Ungbr, Bdsqr and Gesvd calls
// allocate nothing, on sizes that run the blocked reduction, the QR path
// and the wide path.
func TestSVDWarmAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	t.Run("float64", testSVDWarmAllocs[float64])
	t.Run("complex128", testSVDWarmAllocs[complex128])
	t.Run("float32", testSVDWarmAllocs[float32])
	t.Run("complex64", testSVDWarmAllocs[complex64])
}

func testSVDWarmAllocs[T Scalar](t *testing.T) {
	const p = 300
	src := benchInput[T](p, false)
	mat := func(r, c int) gemm.Mat[T] { return gemm.Mat[T]{Data: make([]T, r*c), RS: 1, CS: r} }
	a, u, vt := mat(p, p), mat(p, p), mat(p, p)
	s := make([]float64, p)
	e := make([]float64, p)
	work := make([]float64, 4*p)
	tq, tp := make([]T, p), make([]T, p)
	var ws Workspace
	load := func(m, n int) gemm.Mat[T] {
		x := gemm.Mat[T]{Data: a.Data[:m*n], RS: 1, CS: m}
		copy(x.Data, src)
		return x
	}
	calls := map[string]func(){
		"Gebrd+Ungbr+Bdsqr": func() {
			const n = 150
			x := load(n, n)
			Gebrd(&ws, nil, n, n, x, s, e, tq, tp)
			q := gemm.Mat[T]{Data: u.Data[:n*n], RS: 1, CS: n}
			copy(q.Data, x.Data)
			Ungbr(&ws, nil, BrQ, n, n, n, q, tq)
			ph := gemm.Mat[T]{Data: vt.Data[:n*n], RS: 1, CS: n}
			copy(ph.Data, x.Data)
			Ungbr(&ws, nil, BrPH, n, n, n, ph, tp)
			Bdsqr(true, n, n, n, s, e, ph, q, work)
		},
	}
	for _, sh := range [][2]int{{150, 150}, {p, 100}, {100, p}, {16, 16}, {5, 3}} {
		for job := SVDValues; job <= SVDFull; job++ {
			m, n := sh[0], sh[1]
			calls[fmt.Sprintf("Gesvd %dx%d job %d", m, n, job)] = func() {
				uu := gemm.Mat[T]{Data: u.Data[:m*m], RS: 1, CS: m}
				vv := gemm.Mat[T]{Data: vt.Data[:n*n], RS: 1, CS: n}
				Gesvd(&ws, nil, job, m, n, load(m, n), s, uu, vv)
			}
		}
	}
	for name, f := range calls {
		f()
		if got := testing.AllocsPerRun(2, f); got != 0 {
			t.Errorf("%s: %v allocations per warm call", name, got)
		}
	}
}
