package lapack

import (
	"fmt"
	"testing"

	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
)

// qrFlops is the real operation count of Geqrf (and of Orgqr forming the
// full Q) for an n×n matrix: 4/3·n³.
func qrFlops(n int) float64 {
	f := float64(n)
	return 4 * f * f * f / 3
}

func benchGeqrf[T Scalar](b *testing.B, n int) {
	var ws Workspace
	tau := make([]T, n)
	benchFactor(b, n, false, qrFlops(n), func(a gemm.Mat[T]) { Geqrf(&ws, nil, n, n, a, tau) })
}

// benchOrgqr times forming the n×n Q from Geqrf's reflectors.
func benchOrgqr[T Scalar](b *testing.B, n int) {
	src := benchInput[T](n, false)
	f := gemm.Mat[T]{Data: make([]T, n*n), RS: 1, CS: n}
	a := gemm.Mat[T]{Data: make([]T, n*n), RS: 1, CS: n}
	tau := make([]T, n)
	var ws Workspace
	copy(f.Data, src)
	Geqrf(&ws, nil, n, n, f, tau)
	copy(a.Data, f.Data)
	Orgqr(&ws, nil, n, n, n, a, tau)
	cpu0 := cpuSeconds()
	for b.Loop() {
		copy(a.Data, f.Data)
		Orgqr(&ws, nil, n, n, n, a, tau)
	}
	reportFlops[T](b, qrFlops(n), cpu0)
}

// benchGelqf times the LQ factorization, which runs Geqrf on the
// transposed view.
func benchGelqf[T Scalar](b *testing.B, n int) {
	var ws Workspace
	tau := make([]T, n)
	benchFactor(b, n, false, qrFlops(n), func(a gemm.Mat[T]) { Gelqf(&ws, nil, n, n, a, tau) })
}

func BenchmarkGeqrf(b *testing.B) { bySize(b, benchGeqrf[float64], benchGeqrf[complex128]) }

func BenchmarkOrgqr(b *testing.B) { bySize(b, benchOrgqr[float64], benchOrgqr[complex128]) }

func BenchmarkGelqf(b *testing.B) { bySize(b, benchGelqf[float64], benchGelqf[complex128]) }

// BenchmarkQRBlock times float64 Geqrf and Orgqr over a grid of block and
// leaf sizes: the calibration behind qrBlock and QRLeaf. Compare
// GFLOP/cpu-s on a shared machine.
func BenchmarkQRBlock(b *testing.B) {
	for _, n := range benchSizes {
		for _, nb := range []int{16, 32, 48, 64, 96, 128} {
			for _, leaf := range []int{4, 8, 16} {
				withQRBlock(nb, leaf, func() {
					b.Run(fmt.Sprintf("geqrf/%d/nb=%d/leaf=%d", n, nb, leaf), func(b *testing.B) { benchGeqrf[float64](b, n) })
				})
			}
			withQRBlock(nb, QRLeaf, func() {
				b.Run(fmt.Sprintf("orgqr/%d/nb=%d", n, nb), func(b *testing.B) { benchOrgqr[float64](b, n) })
			})
		}
	}
}
