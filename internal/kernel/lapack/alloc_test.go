package lapack

import (
	"testing"

	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
)

// TestWarmAllocs checks that warm calls allocate nothing, for sizes that
// run the recursive drivers and gemm.
func TestWarmAllocs(t *testing.T) {
	t.Run("float64", testWarmAllocs[float64])
	t.Run("complex128", testWarmAllocs[complex128])
	t.Run("float32", testWarmAllocs[float32])
	t.Run("complex64", testWarmAllocs[complex64])
}

func testWarmAllocs[T Scalar](t *testing.T) {
	const n = 150
	spd, gen := benchInput[T](n, true), benchInput[T](n, false)
	a := gemm.Mat[T]{Data: make([]T, n*n), RS: 1, CS: n}
	b := gemm.Mat[T]{Data: make([]T, n*n), RS: 1, CS: n}
	ipiv := make([]int, n)
	var ws Workspace
	calls := map[string]func(){
		"Potrf": func() {
			copy(a.Data, spd)
			Potrf(&ws, nil, Lower, n, a)
			Potrs(&ws, nil, Lower, n, 7, a, b)
			copy(a.Data, spd)
			Potrf(&ws, nil, Upper, n, transpose(a))
		},
		"Getrf": func() {
			copy(a.Data, gen)
			Getrf(&ws, nil, n, n, a, ipiv)
			Getrs(&ws, nil, ConjTrans, n, 5, a, ipiv, b)
			Getri(&ws, nil, n, a, ipiv, b)
			Slogdet(n, a, ipiv)
		},
		"Trsm": func() {
			copy(a.Data, spd)
			Trsm(&ws, nil, Right, Upper, ConjTrans, NonUnit, n, n, 2, a, b)
		},
	}
	for name, f := range calls {
		f()
		if got := testing.AllocsPerRun(3, f); got != 0 {
			t.Errorf("%s: %v allocations per warm call", name, got)
		}
	}
}
