package lapack

import (
	"testing"

	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
)

// TestQRRunner runs Geqrf, Orgqr and Gelqf with a two-worker runner and
// gemm's parallel threshold lowered, and checks them against serial runs.
func TestQRRunner(t *testing.T) {
	prev := gemm.ParallelThreshold
	gemm.ParallelThreshold = 1000
	defer func() { gemm.ParallelThreshold = prev }()
	const n = 200
	r := goRunner{2}
	var ws, ws1 Workspace
	src := benchInput[complex128](n, false)
	for _, lq := range []bool{false, true} {
		a := gemm.Mat[complex128]{Data: append([]complex128(nil), src...), RS: 1, CS: n}
		b := gemm.Mat[complex128]{Data: append([]complex128(nil), src...), RS: 1, CS: n}
		ta, tb := make([]complex128, n), make([]complex128, n)
		if lq {
			Gelqf(&ws, r, n, n, a, ta)
			Gelqf(&ws1, nil, n, n, b, tb)
			Orglq(&ws, r, n, n, n, a, ta)
			Orglq(&ws1, nil, n, n, n, b, tb)
		} else {
			Geqrf(&ws, r, n, n, a, ta)
			Geqrf(&ws1, nil, n, n, b, tb)
			Orgqr(&ws, r, n, n, n, a, ta)
			Orgqr(&ws1, nil, n, n, n, b, tb)
		}
		for i := range a.Data {
			if d := abs(a.Data[i] - b.Data[i]); d > 1e-12 {
				t.Fatalf("lq=%v: parallel and serial Q differ at %d: %v, %v", lq, i, a.Data[i], b.Data[i])
			}
		}
	}
}
