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
	src := benchInput[T](n, false)
	a := gemm.Mat[T]{Data: make([]T, n*n), RS: 1, CS: n}
	tau := make([]T, n)
	var ws Workspace
	copy(a.Data, src)
	Geqrf(&ws, nil, n, n, a, tau)
	cpu0 := cpuSeconds()
	for b.Loop() {
		copy(a.Data, src)
		Geqrf(&ws, nil, n, n, a, tau)
	}
	reportFlops[T](b, qrFlops(n), cpu0)
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
	src := benchInput[T](n, false)
	a := gemm.Mat[T]{Data: make([]T, n*n), RS: 1, CS: n}
	tau := make([]T, n)
	var ws Workspace
	copy(a.Data, src)
	Gelqf(&ws, nil, n, n, a, tau)
	cpu0 := cpuSeconds()
	for b.Loop() {
		copy(a.Data, src)
		Gelqf(&ws, nil, n, n, a, tau)
	}
	reportFlops[T](b, qrFlops(n), cpu0)
}

func BenchmarkGeqrf(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("f64/%d", n), func(b *testing.B) { benchGeqrf[float64](b, n) })
		b.Run(fmt.Sprintf("c128/%d", n), func(b *testing.B) { benchGeqrf[complex128](b, n) })
	}
}

func BenchmarkOrgqr(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("f64/%d", n), func(b *testing.B) { benchOrgqr[float64](b, n) })
		b.Run(fmt.Sprintf("c128/%d", n), func(b *testing.B) { benchOrgqr[complex128](b, n) })
	}
}

func BenchmarkGelqf(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("f64/%d", n), func(b *testing.B) { benchGelqf[float64](b, n) })
		b.Run(fmt.Sprintf("c128/%d", n), func(b *testing.B) { benchGelqf[complex128](b, n) })
	}
}

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
