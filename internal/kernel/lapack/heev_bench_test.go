package lapack

import (
	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
	"testing"
)

// benchHeev times Heev (eigenvalues and vectors when vectors) of an n×n
// Hermitian matrix, reporting time per call; the flop figure is the
// nominal 4n³/3 of the reduction plus, with vectors, 4n³/3 for Q and 2n³
// for the back transformation of the tridiagonal eigenvectors (the count
// of a divide-and-conquer solver), so that GFLOP/s compares solvers.
func benchHeev[T Scalar](b *testing.B, n int, vectors bool) {
	nf := float64(n)
	fl := 4 * nf * nf * nf / 3
	if vectors {
		fl += 4*nf*nf*nf/3 + 2*nf*nf*nf
	}
	var ws Workspace
	w := make([]float64, n)
	benchFactor(b, n, false, fl, func(a gemm.Mat[T]) {
		// benchInput is not Hermitian; Heev reads the lower triangle.
		if info := Heev(&ws, nil, vectors, Lower, n, a, w); info != 0 {
			b.Fatalf("info %d", info)
		}
	})
}

func BenchmarkHeev(b *testing.B) {
	bySize(b, func(b *testing.B, n int) { benchHeev[float64](b, n, true) }, func(b *testing.B, n int) { benchHeev[complex128](b, n, true) })
}

func BenchmarkHeevValues(b *testing.B) {
	bySize(b, func(b *testing.B, n int) { benchHeev[float64](b, n, false) }, func(b *testing.B, n int) { benchHeev[complex128](b, n, false) })
}

// BenchmarkHetrd times the tridiagonal reduction alone (4n³/3 flops).
func BenchmarkHetrd(b *testing.B) {
	f := func(b *testing.B, n int) {
		var ws Workspace
		d, e := make([]float64, n), make([]float64, n)
		tau := make([]float64, n)
		nf := float64(n)
		benchFactor(b, n, false, 4*nf*nf*nf/3, func(a gemm.Mat[float64]) { Hetrd(&ws, nil, Lower, n, a, d, e, tau) })
	}
	g := func(b *testing.B, n int) {
		var ws Workspace
		d, e := make([]float64, n), make([]float64, n)
		tau := make([]complex128, n)
		nf := float64(n)
		benchFactor(b, n, false, 4*nf*nf*nf/3, func(a gemm.Mat[complex128]) { Hetrd(&ws, nil, Lower, n, a, d, e, tau) })
	}
	bySize(b, f, g)
}
