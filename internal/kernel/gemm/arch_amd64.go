//go:build amd64 && !purego

package gemm

import "golang.org/x/sys/cpu"

//go:generate go run ./_gen -out kern_amd64.s

// Assembly micro-kernels (kern_amd64.s, generated). Each follows the
// microKernel contract with raw pointers; loadC is 0 or 1.

//go:noescape
func kernF64Avx512x16x14(kc int, a, b, c *float64, ldc int, alpha, beta float64, loadC int)

//go:noescape
func kernF64Avx512x24x8(kc int, a, b, c *float64, ldc int, alpha, beta float64, loadC int)

//go:noescape
func kernF32Avx512x32x14(kc int, a, b, c *float32, ldc int, alpha, beta float32, loadC int)

//go:noescape
func kernF32Avx512x48x8(kc int, a, b, c *float32, ldc int, alpha, beta float32, loadC int)

//go:noescape
func kernF64Avx2x8x6(kc int, a, b, c *float64, ldc int, alpha, beta float64, loadC int)

//go:noescape
func kernF32Avx2x16x6(kc int, a, b, c *float32, ldc int, alpha, beta float32, loadC int)

type asmKernel[T float32 | float64] func(kc int, a, b, c *T, ldc int, alpha, beta T, loadC int)

// wrap adapts an assembly kernel to the slice-based microKernel contract,
// checking the slice lengths the assembly relies on.
func wrap[T float32 | float64](k asmKernel[T], mr, nr int) microKernel[T] {
	return func(kc int, a, b, c []T, ldc int, alpha, beta T, loadC bool) {
		_ = a[kc*mr-1]
		_ = b[kc*nr-1]
		_ = c[(nr-1)*ldc+mr-1]
		l := 0
		if loadC {
			l = 1
		}
		k(kc, &a[0], &b[0], &c[0], ldc, alpha, beta, l)
	}
}

func asmInfo[T float32 | float64](k asmKernel[T], mr, nr, kc, mc, nc int) kernelInfo[T] {
	return kernelInfo[T]{mr: mr, nr: nr, kc: kc, mc: mc, nc: nc, kern: wrap(k, mr, nr)}
}

// archVariants lists the assembly families for amd64, best first.
func archVariants() []*variant {
	avx512 := &variant{
		name:      "avx512",
		supported: cpu.X86.HasAVX512F && cpu.X86.HasAVX512DQ,
		f64:       asmInfo(kernF64Avx512x24x8, 24, 8, 256, 144, 4096),
		f32:       asmInfo(kernF32Avx512x32x14, 32, 14, 384, 288, 3752),
	}
	avx2 := &variant{
		name:      "avx2",
		supported: cpu.X86.HasAVX2 && cpu.X86.HasFMA,
		f64:       asmInfo(kernF64Avx2x8x6, 8, 6, 256, 144, 4080),
		f32:       asmInfo(kernF32Avx2x16x6, 16, 6, 384, 288, 4080),
	}
	for _, v := range []*variant{avx512, avx2} {
		v.c64 = complex1M[complex64](v.f32)
		v.c128 = complex1M[complex128](v.f64)
	}
	return []*variant{avx512, avx2}
}
