package lapack

import (
	"testing"

	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
)

// TestQRWarmAllocs checks that warm QR and LQ calls allocate nothing.
func TestQRWarmAllocs(t *testing.T) {
	t.Run("float64", testQRWarmAllocs[float64])
	t.Run("complex128", testQRWarmAllocs[complex128])
	t.Run("float32", testQRWarmAllocs[float32])
	t.Run("complex64", testQRWarmAllocs[complex64])
}

func testQRWarmAllocs[T Scalar](t *testing.T) {
	const n = 150
	gen := benchInput[T](n, false)
	a := gemm.Mat[T]{Data: make([]T, n*n), RS: 1, CS: n}
	q := gemm.Mat[T]{Data: make([]T, n*n), RS: 1, CS: n}
	c := gemm.Mat[T]{Data: make([]T, n*n), RS: 1, CS: n}
	tm := gemm.Mat[T]{Data: make([]T, n*n), RS: 1, CS: n}
	tau := make([]T, n)
	var ws Workspace
	calls := map[string]func(){
		"QR": func() {
			copy(a.Data, gen)
			Geqrf(&ws, nil, n, n, a, tau)
			copy(q.Data, a.Data)
			Orgqr(&ws, nil, n, n, n, q, tau)
			copy(c.Data, gen)
			Ormqr(&ws, nil, Right, ConjTrans, n, n, n, a, tau, c)
			Ormqr(&ws, nil, Left, NoTrans, n, 7, n, a, tau, c)
			PositiveDiag(n, n, n, q, a)
		},
		"LQ": func() {
			copy(a.Data, gen)
			Gelqf(&ws, nil, n, n, a, tau)
			copy(q.Data, a.Data)
			Orglq(&ws, nil, n, n, n, q, tau)
			copy(c.Data, gen)
			Ormlq(&ws, nil, Left, ConjTrans, n, n, n, a, tau, c)
		},
		"Larfb": func() {
			copy(a.Data, gen)
			Geqr2(n, 40, a, tau)
			Larft(&ws, nil, n, 40, a, tau, tm)
			Larfb(&ws, nil, Left, ConjTrans, n, n-40, 40, a, tm, c)
			Larf(Right, n, n, a.Data, 0, 1, tau[0], c)
		},
	}
	for name, f := range calls {
		f()
		if got := testing.AllocsPerRun(3, f); got != 0 {
			t.Errorf("%s: %v allocations per warm call", name, got)
		}
	}
}
