package lapack

import (
	"fmt"
	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
	"math/rand/v2"
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

// BenchmarkStedc times divide and conquer on a random tridiagonal with
// eigenvectors, against Steqr's rotations, and Steqr's values alone,
// reporting time per call.
func BenchmarkStedc(b *testing.B) {
	for _, n := range benchSizes {
		rng := rand.New(rand.NewPCG(1, uint64(n)))
		d0, e0 := make([]float64, n), make([]float64, n-1)
		for i := range d0 {
			d0[i] = rng.Float64()*2 - 1
		}
		for i := range e0 {
			e0[i] = rng.Float64()*2 - 1
		}
		d, e := make([]float64, n), make([]float64, n-1)
		z := gemm.Mat[float64]{Data: make([]float64, n*n), RS: 1, CS: n}
		var ws Workspace
		b.Run(fmt.Sprintf("stedc/%d", n), func(b *testing.B) {
			for b.Loop() {
				copy(d, d0)
				copy(e, e0)
				if Stedc(&ws, nil, n, d, e, z) != 0 {
					b.Fatal("Stedc failed")
				}
			}
		})
		b.Run(fmt.Sprintf("values/%d", n), func(b *testing.B) {
			for b.Loop() {
				copy(d, d0)
				copy(e, e0)
				if Steqr(n, d, e, gemm.Mat[float64]{}, nil) != 0 {
					b.Fatal("Steqr failed")
				}
			}
		})
		if n > 512 {
			continue
		}
		work := make([]float64, 2*n)
		b.Run(fmt.Sprintf("steqr/%d", n), func(b *testing.B) {
			for b.Loop() {
				copy(d, d0)
				copy(e, e0)
				setIdentityCols(n, 0, n, z)
				if Steqr(n, d, e, z, work) != 0 {
					b.Fatal("Steqr failed")
				}
			}
		})
	}
}

// BenchmarkHeevDCMin times Heev with eigenvectors around HeevDCMin, with
// Steqr ("qr") and with Stedc ("dc"): the calibration of the threshold.
func BenchmarkHeevDCMin(b *testing.B) {
	for _, n := range []int{16, 32, 64, 96, 128, 192} {
		for _, dc := range []bool{false, true} {
			name := fmt.Sprintf("qr/%d", n)
			th := 1 << 30
			if dc {
				name, th = fmt.Sprintf("dc/%d", n), 2
			}
			b.Run("f64/"+name, func(b *testing.B) { withHeevDC(th, func() { benchHeev[float64](b, n, true) }) })
			b.Run("c128/"+name, func(b *testing.B) { withHeevDC(th, func() { benchHeev[complex128](b, n, true) }) })
		}
	}
}

// BenchmarkHetrdBlock times Hetrd over a grid of HetrdBlock and
// HetrdCross: the calibration behind their defaults.
func BenchmarkHetrdBlock(b *testing.B) {
	for _, n := range []int{256, 1024} {
		for _, nb := range []int{16, 32, 64} {
			for _, nx := range []int{32, 128} {
				b.Run(fmt.Sprintf("f64/%d/nb=%d/nx=%d", n, nb, nx), func(b *testing.B) {
					withHetrdBlock(nb, max(nx, nb), func() {
						var ws Workspace
						d, e, tau := make([]float64, n), make([]float64, n), make([]float64, n)
						nf := float64(n)
						benchFactor(b, n, false, 4*nf*nf*nf/3, func(a gemm.Mat[float64]) { Hetrd(&ws, nil, Lower, n, a, d, e, tau) })
					})
				})
			}
		}
	}
}
