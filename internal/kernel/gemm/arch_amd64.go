//go:build amd64 && !purego

package gemm

import "golang.org/x/sys/cpu"

//go:generate go run ./_gen -out kern_amd64.s

// Assembly micro-kernels (kern_amd64.s, generated). Each follows the
// microKernel contract with raw pointers; loadC is 0 or 1.

//go:noescape
func kernF64Avx512x24x8(kc int, a *float64, lda int, b *float64, ldbp, ldbj int, c *float64, ldc int, alpha, beta float64, loadC int)

//go:noescape
func kernF32Avx512x32x14(kc int, a *float32, lda int, b *float32, ldbp, ldbj int, c *float32, ldc int, alpha, beta float32, loadC int)

//go:noescape
func kernF64Avx2x8x6(kc int, a *float64, lda int, b *float64, ldbp, ldbj int, c *float64, ldc int, alpha, beta float64, loadC int)

//go:noescape
func kernF32Avx2x16x6(kc int, a *float32, lda int, b *float32, ldbp, ldbj int, c *float32, ldc int, alpha, beta float32, loadC int)

//go:noescape
func kernF64Avx512x8x8(kc int, a *float64, lda int, b *float64, ldbp, ldbj int, c *float64, ldc int, alpha, beta float64, loadC int)

//go:noescape
func kernF64Avx512x16x8(kc int, a *float64, lda int, b *float64, ldbp, ldbj int, c *float64, ldc int, alpha, beta float64, loadC int)

//go:noescape
func kernF32Avx512x16x14(kc int, a *float32, lda int, b *float32, ldbp, ldbj int, c *float32, ldc int, alpha, beta float32, loadC int)

//go:noescape
func kernF64Avx2x4x6(kc int, a *float64, lda int, b *float64, ldbp, ldbj int, c *float64, ldc int, alpha, beta float64, loadC int)

//go:noescape
func kernF32Avx2x8x6(kc int, a *float32, lda int, b *float32, ldbp, ldbj int, c *float32, ldc int, alpha, beta float32, loadC int)

//go:noescape
func kernF64Avx512x24x4(kc int, a *float64, lda int, b *float64, ldbp, ldbj int, c *float64, ldc int, alpha, beta float64, loadC int)

//go:noescape
func kernF32Avx512x32x4(kc int, a *float32, lda int, b *float32, ldbp, ldbj int, c *float32, ldc int, alpha, beta float32, loadC int)

//go:noescape
func kernF32Avx512x32x8(kc int, a *float32, lda int, b *float32, ldbp, ldbj int, c *float32, ldc int, alpha, beta float32, loadC int)

//go:noescape
func kernF64Avx2x8x3(kc int, a *float64, lda int, b *float64, ldbp, ldbj int, c *float64, ldc int, alpha, beta float64, loadC int)

//go:noescape
func kernF32Avx2x16x3(kc int, a *float32, lda int, b *float32, ldbp, ldbj int, c *float32, ldc int, alpha, beta float32, loadC int)

// The masked twins of the AVX-512 kernels: they store only the top-left
// rows×cols corner of the tile.

//go:noescape
func kernF64Avx512x24x8M(kc int, a *float64, lda int, b *float64, ldbp, ldbj int, c *float64, ldc int, alpha, beta float64, loadC, rows, cols int)

//go:noescape
func kernF32Avx512x32x14M(kc int, a *float32, lda int, b *float32, ldbp, ldbj int, c *float32, ldc int, alpha, beta float32, loadC, rows, cols int)

//go:noescape
func kernF64Avx512x8x8M(kc int, a *float64, lda int, b *float64, ldbp, ldbj int, c *float64, ldc int, alpha, beta float64, loadC, rows, cols int)

//go:noescape
func kernF64Avx512x16x8M(kc int, a *float64, lda int, b *float64, ldbp, ldbj int, c *float64, ldc int, alpha, beta float64, loadC, rows, cols int)

//go:noescape
func kernF32Avx512x16x14M(kc int, a *float32, lda int, b *float32, ldbp, ldbj int, c *float32, ldc int, alpha, beta float32, loadC, rows, cols int)

//go:noescape
func kernF64Avx512x24x4M(kc int, a *float64, lda int, b *float64, ldbp, ldbj int, c *float64, ldc int, alpha, beta float64, loadC, rows, cols int)

//go:noescape
func kernF32Avx512x32x4M(kc int, a *float32, lda int, b *float32, ldbp, ldbj int, c *float32, ldc int, alpha, beta float32, loadC, rows, cols int)

//go:noescape
func kernF32Avx512x32x8M(kc int, a *float32, lda int, b *float32, ldbp, ldbj int, c *float32, ldc int, alpha, beta float32, loadC, rows, cols int)

type asmKernel[T float32 | float64] func(kc int, a *T, lda int, b *T, ldbp, ldbj int, c *T, ldc int, alpha, beta T, loadC int)

// wrap adapts an assembly kernel to the slice-based microKernel contract,
// checking the slice lengths the assembly relies on.
func wrap[T float32 | float64](k asmKernel[T], mr, nr int) microKernel[T] {
	return func(kc int, a []T, lda int, b []T, ldbp, ldbj int, c []T, ldc int, alpha, beta T, loadC bool) {
		if lda < 0 || ldbp < 0 || ldbj < 0 {
			panic("gemm: negative kernel stride")
		}
		_ = a[(kc-1)*lda+mr-1]
		_ = b[(kc-1)*ldbp+(nr-1)*ldbj]
		_ = c[(nr-1)*ldc+mr-1]
		l := 0
		if loadC {
			l = 1
		}
		k(kc, &a[0], lda, &b[0], ldbp, ldbj, &c[0], ldc, alpha, beta, l)
	}
}

type asmMaskedKernel[T float32 | float64] func(kc int, a *T, lda int, b *T, ldbp, ldbj int, c *T, ldc int, alpha, beta T, loadC, rows, cols int)

// wrapMasked adapts a masked assembly kernel to the maskedKernel contract,
// checking the bounds the assembly relies on: the whole A and B panels and
// the rows×cols corner of C.
func wrapMasked[T float32 | float64](k asmMaskedKernel[T], mr, nr int) maskedKernel[T] {
	return func(kc int, a []T, lda int, b []T, ldbp, ldbj int, c []T, ldc int, alpha, beta T, loadC bool, rows, cols int) {
		if lda < 0 || ldbp < 0 || ldbj < 0 || rows < 1 || rows > mr || cols < 1 || cols > nr {
			panic("gemm: bad masked kernel arguments")
		}
		_ = a[(kc-1)*lda+mr-1]
		_ = b[(kc-1)*ldbp+(nr-1)*ldbj]
		_ = c[(cols-1)*ldc+rows-1]
		l := 0
		if loadC {
			l = 1
		}
		k(kc, &a[0], lda, &b[0], ldbp, ldbj, &c[0], ldc, alpha, beta, l, rows, cols)
	}
}

// asmInfo describes an assembly kernel of mr×nr with blocking kc, mc, nc
// and edge kernels edge[v-1] of v*lanes rows (v < mr/lanes).
func asmInfo[T float32 | float64](k asmKernel[T], mr, nr, kc, mc, nc, lanes int, edge ...asmKernel[T]) kernelInfo[T] {
	kb := kernelInfo[T]{mr: mr, nr: nr, kc: kc, mc: mc, nc: nc, kern: wrap(k, mr, nr), inPlace: 1 << 17, lanes: lanes}
	for v, e := range edge {
		kb.edge = append(kb.edge, wrap(e, (v+1)*lanes, nr))
	}
	return kb
}

// archVariants lists the assembly families for amd64, best first.
func archVariants() []*variant {
	avx512 := &variant{
		name:      "avx512",
		supported: cpu.X86.HasAVX512F && cpu.X86.HasAVX512DQ,
		f64:       asmInfo(kernF64Avx512x24x8, 24, 8, 256, 144, 4096, 8, kernF64Avx512x8x8, kernF64Avx512x16x8),
		f32:       asmInfo(kernF32Avx512x32x14, 32, 14, 384, 288, 3752, 16, kernF32Avx512x16x14),
	}
	avx2 := &variant{
		name:      "avx2",
		supported: cpu.X86.HasAVX2 && cpu.X86.HasFMA,
		f64:       asmInfo(kernF64Avx2x8x6, 8, 6, 256, 144, 4080, 4, kernF64Avx2x4x6),
		f32:       asmInfo(kernF32Avx2x16x6, 16, 6, 384, 288, 4080, 8, kernF32Avx2x8x6),
	}
	avx512.f64.colEdge = []colEdge[float64]{{4, wrap(kernF64Avx512x24x4, 24, 4), wrapMasked(kernF64Avx512x24x4M, 24, 4)}}
	avx512.f32.colEdge = []colEdge[float32]{{4, wrap(kernF32Avx512x32x4, 32, 4), wrapMasked(kernF32Avx512x32x4M, 32, 4)},
		{8, wrap(kernF32Avx512x32x8, 32, 8), wrapMasked(kernF32Avx512x32x8M, 32, 8)}}
	avx512.f64.kernM = wrapMasked(kernF64Avx512x24x8M, 24, 8)
	avx512.f64.edgeM = []maskedKernel[float64]{wrapMasked(kernF64Avx512x8x8M, 8, 8), wrapMasked(kernF64Avx512x16x8M, 16, 8)}
	avx512.f32.kernM = wrapMasked(kernF32Avx512x32x14M, 32, 14)
	avx512.f32.edgeM = []maskedKernel[float32]{wrapMasked(kernF32Avx512x16x14M, 16, 14)}
	avx2.f64.colEdge = []colEdge[float64]{{3, wrap(kernF64Avx2x8x3, 8, 3), nil}}
	avx2.f32.colEdge = []colEdge[float32]{{3, wrap(kernF32Avx2x16x3, 16, 3), nil}}
	for _, v := range []*variant{avx512, avx2} {
		v.c64 = complex1M[complex64](v.f32)
		v.c128 = complex1M[complex128](v.f64)
	}
	return []*variant{avx512, avx2}
}
