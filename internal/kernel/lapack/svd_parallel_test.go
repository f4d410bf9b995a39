package lapack

import (
	"math"
	"testing"

	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
)

// TestGesvdRunner runs Gesvd with a two-worker runner and gemm's parallel
// threshold lowered, and checks it against a serial run (the same
// operations in the same order, so equal to rounding in the products).
func TestGesvdRunner(t *testing.T) {
	prev := gemm.ParallelThreshold
	gemm.ParallelThreshold = 1000
	defer func() { gemm.ParallelThreshold = prev }()
	r := goRunner{2}
	var ws, ws1 Workspace
	for _, sh := range [][2]int{{160, 150}, {300, 90}, {90, 200}} {
		m, n := sh[0], sh[1]
		k := min(m, n)
		src := benchInputRect[complex128](m, n)
		run := func(ws *Workspace, rr *goRunner) ([]float64, []complex128) {
			a := gemm.Mat[complex128]{Data: append([]complex128(nil), src...), RS: 1, CS: m}
			u := gemm.Mat[complex128]{Data: make([]complex128, m*k), RS: 1, CS: m}
			vt := gemm.Mat[complex128]{Data: make([]complex128, k*n), RS: 1, CS: k}
			s := make([]float64, k)
			var info int
			if rr == nil {
				info = Gesvd(ws, nil, SVDThin, m, n, a, s, u, vt)
			} else {
				info = Gesvd(ws, *rr, SVDThin, m, n, a, s, u, vt)
			}
			if info != 0 {
				t.Fatalf("%dx%d: info %d", m, n, info)
			}
			return s, u.Data
		}
		sp, up := run(&ws, &r)
		ss, us := run(&ws1, nil)
		for i := range sp {
			if d := math.Abs(sp[i] - ss[i]); d > 1e-12*ss[0] {
				t.Fatalf("%dx%d: σ%d parallel %v, serial %v", m, n, i, sp[i], ss[i])
			}
		}
		// The vectors agree up to a phase per column when the values are
		// simple; compare |U| elementwise instead of the gauge.
		for i := range up {
			if d := math.Abs(abs(up[i]) - abs(us[i])); d > 1e-8 {
				t.Fatalf("%dx%d: |U| parallel and serial differ at %d: %v, %v", m, n, i, up[i], us[i])
			}
		}
	}
}
