//go:build amd64 && !purego

package gemm

import (
	"fmt"
	"testing"
)

// BenchmarkKernelShapes times the AVX-512 float kernels that archVariants
// uses (f64 24x8, f32 32x14) on L1-resident panels, and sweeps their cache
// blocking on full products.
func BenchmarkKernelShapes(b *testing.B) {
	avx512 := avx512Variant(b)
	f64 := map[string]kernelInfo[float64]{
		fmt.Sprintf("%dx%d", avx512.f64.mr, avx512.f64.nr): avx512.f64,
	}
	f32 := map[string]kernelInfo[float32]{
		fmt.Sprintf("%dx%d", avx512.f32.mr, avx512.f32.nr): avx512.f32,
	}
	for name, kb := range f64 {
		b.Run("f64/"+name, func(b *testing.B) { kernelPeak(b, &kb) })
	}
	for name, kb := range f32 {
		b.Run("f32/"+name, func(b *testing.B) { kernelPeak(b, &kb) })
	}
	// Blocking sweep on full products (use -bench KernelShapes/sweep).
	for _, n := range []int{256, 512, 1024} {
		for name, kb := range f64 {
			for _, kc := range []int{192, 256, 384} {
				for _, mc := range []int{96, 144, 240} {
					kb := kb
					kb.kc, kb.mc = kc, mc-mc%kb.mr
					b.Run(fmt.Sprintf("sweep/f64/%s/n%d/kc%d/mc%d", name, n, kc, kb.mc), func(b *testing.B) {
						sweep(b, &kb, n)
					})
				}
			}
		}
		for name, kb := range f32 {
			for _, kc := range []int{256, 384, 512} {
				for _, mc := range []int{192, 288, 480} {
					kb := kb
					kb.kc, kb.mc = kc, mc-mc%kb.mr
					b.Run(fmt.Sprintf("sweep/f32/%s/n%d/kc%d/mc%d", name, n, kc, kb.mc), func(b *testing.B) {
						sweep(b, &kb, n)
					})
				}
			}
		}
	}
}

// sweep times an n×n×n product with the given kernel and blocking.
func sweep[T float32 | float64](b *testing.B, kb *kernelInfo[T], n int) {
	saved := activeVariant()
	defer active.Store(saved)
	v := *saved
	*kernelFor[T](&v) = *kb
	active.Store(&v)
	benchGemm[T](b, nil, n, n, n, false, false)
}

// BenchmarkInPlaceLimit compares packing with reading A and B in place.
func BenchmarkInPlaceLimit(b *testing.B) {
	for _, v := range variants {
		if !v.supported || v.name == "generic" {
			continue
		}
		for _, n := range []int{64, 128, 256, 512, 1024} {
			for _, lim := range []int{0, 1 << 30} {
				kb := v.f64
				kb.inPlace = lim
				b.Run(fmt.Sprintf("%s/f64/n%d/lim%d", v.name, n, lim), func(b *testing.B) { sweep(b, &kb, n) })
			}
		}
	}
}

// avx512Variant returns the AVX-512 kernel family, skipping tb when this
// CPU does not run it.
func avx512Variant(tb testing.TB) *variant {
	for _, v := range variants {
		if v.name == "avx512" && v.supported {
			return v
		}
	}
	tb.Skip("no AVX-512")
	return nil
}
