package lapack

import (
	"fmt"
	"testing"

	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
)

// benchGesvd times Gesvd of an m×n random matrix for job and reports
// GFLOP/s against nominal counts: 4·M·k² − 4·k³/3 (M = max(m, n), k =
// min(m, n)), the bidiagonal reduction, for the values alone, and the
// round 22·k³ that LAPACK's notes give for the decomposition with vectors
// of a square matrix, whatever the job and shape (so only equal shapes
// compare).
func benchGesvd[T Scalar](b *testing.B, job SVDJob, m, n int) {
	src := benchInputRect[T](m, n)
	a := gemm.Mat[T]{Data: make([]T, m*n), RS: 1, CS: m}
	u := gemm.Mat[T]{Data: make([]T, m*m), RS: 1, CS: m}
	vt := gemm.Mat[T]{Data: make([]T, n*n), RS: 1, CS: n}
	s := make([]float64, min(m, n))
	var ws Workspace
	run := func() {
		copy(a.Data, src)
		if info := Gesvd(&ws, nil, job, m, n, a, s, u, vt); info != 0 {
			b.Fatalf("info %d", info)
		}
	}
	run()
	cpu0 := cpuSeconds()
	for b.Loop() {
		run()
	}
	k := float64(min(m, n))
	fl := 4*float64(max(m, n))*k*k - 4*k*k*k/3
	if job != SVDValues {
		fl = 22 * k * k * k
	}
	reportFlops[T](b, fl, cpu0)
}

// benchInputRect returns a column-major m×n random matrix.
func benchInputRect[T Scalar](m, n int) []T {
	p := max(m, n)
	full := benchInput[T](p, false)
	out := make([]T, m*n)
	for j := 0; j < n; j++ {
		copy(out[j*m:(j+1)*m], full[j*p:j*p+m])
	}
	return out
}

func BenchmarkGesvd(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("float64/thin/%d", n), func(b *testing.B) { benchGesvd[float64](b, SVDThin, n, n) })
		b.Run(fmt.Sprintf("complex128/thin/%d", n), func(b *testing.B) { benchGesvd[complex128](b, SVDThin, n, n) })
		b.Run(fmt.Sprintf("float64/values/%d", n), func(b *testing.B) { benchGesvd[float64](b, SVDValues, n, n) })
	}
	b.Run("float64/thin/2048x256", func(b *testing.B) { benchGesvd[float64](b, SVDThin, 2048, 256) })
	b.Run("float64/thin/256x2048", func(b *testing.B) { benchGesvd[float64](b, SVDThin, 256, 2048) })
	b.Run("float64/thin/400x512", func(b *testing.B) { benchGesvd[float64](b, SVDThin, 400, 512) })
}

func BenchmarkGesvdSmall(b *testing.B) {
	for _, n := range []int{4, 8, 16} {
		b.Run(fmt.Sprintf("float64/%d", n), func(b *testing.B) { benchGesvd[float64](b, SVDThin, n, n) })
		b.Run(fmt.Sprintf("complex128/%d", n), func(b *testing.B) { benchGesvd[complex128](b, SVDThin, n, n) })
	}
}

// BenchmarkGebrd times the bidiagonal reduction alone (8/3·n³ flops for
// square matrices).
func BenchmarkGebrd(b *testing.B) {
	for _, n := range []int{512} {
		b.Run(fmt.Sprintf("float64/%d", n), func(b *testing.B) { benchGebrd[float64](b, n) })
		b.Run(fmt.Sprintf("complex128/%d", n), func(b *testing.B) { benchGebrd[complex128](b, n) })
	}
}

func benchGebrd[T Scalar](b *testing.B, n int) {
	src := benchInput[T](n, false)
	a := gemm.Mat[T]{Data: make([]T, n*n), RS: 1, CS: n}
	d, e := make([]float64, n), make([]float64, n)
	tq, tp := make([]T, n), make([]T, n)
	var ws Workspace
	run := func() {
		copy(a.Data, src)
		Gebrd(&ws, nil, n, n, a, d, e, tq, tp)
	}
	run()
	cpu0 := cpuSeconds()
	for b.Loop() {
		run()
	}
	reportFlops[T](b, 8*float64(n)*float64(n)*float64(n)/3, cpu0)
}
