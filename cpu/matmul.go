package cpu

import (
	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
	"github.com/tenferro-go/tenferro/internal/kernel/strided"
)

// Matmul implements backend.Contraction: dst = alpha·a·b + beta·dst. The
// 2-D case is one GEMM; batch axes are fused where all three operands allow
// it, the innermost remaining batch axis becomes a strided batched GEMM and
// the rest are looped over.
func (k *numeric[T]) Matmul(dst, a, b *backend.View[T], alpha, beta T) error {
	e := k.e
	cs, as, bs := dst.Strides, a.Strides, b.Strides
	shape := dst.Shape
	m, n, kk := shape[0], shape[1], a.Shape[1]
	am := gemm.Mat[T]{Data: a.Data, Off: a.Off, RS: as[0], CS: as[1]}
	bm := gemm.Mat[T]{Data: b.Data, Off: b.Off, RS: bs[0], CS: bs[1]}
	cm := gemm.Mat[T]{Data: dst.Data, Off: dst.Off, RS: cs[0], CS: cs[1]}
	if len(shape) == 2 {
		gemm.Gemm(e.gemmWorkspace(), e.runner, m, n, kk, alpha, am, bm, beta, cm)
		return nil
	}
	// Collect batch axes with effective strides (0 where an input
	// broadcasts), dropping extent-1 axes and fusing contiguous runs. The
	// catalog bounds the rank, so the batch axes fit the engine's arrays.
	bt := &k.sc().batch
	ext, sa, sb, sc, idx := &bt[0], &bt[1], &bt[2], &bt[3], &bt[4]
	nb := 0
	for d := 2; d < len(shape); d++ {
		x := shape[d]
		if x == 1 {
			continue
		}
		if x == 0 {
			return nil
		}
		xa, xb := as[d], bs[d]
		if a.Shape[d] == 1 {
			xa = 0
		}
		if b.Shape[d] == 1 {
			xb = 0
		}
		if nb > 0 && sa[nb-1]*ext[nb-1] == xa && sb[nb-1]*ext[nb-1] == xb && sc[nb-1]*ext[nb-1] == cs[d] {
			ext[nb-1] *= x
			continue
		}
		ext[nb], sa[nb], sb[nb], sc[nb] = x, xa, xb, cs[d]
		nb++
	}
	gemmLoop(e, m, n, kk, alpha, am, bm, beta, cm, ext[:nb], sa[:nb], sb[:nb], sc[:nb], idx[:nb])
	return nil
}

// gemmLoop runs C = alpha·A·B + beta·C for every batch item: a batched
// GEMM over batch axis 0 for every index of the remaining batch axes (idx
// is scratch).
func gemmLoop[T strided.Scalar](e *Engine, m, n, k int, alpha T, am, bm gemm.Mat[T], beta T, cm gemm.Mat[T], ext, sa, sb, sc, idx []int) {
	if len(ext) == 0 {
		gemm.Gemm(e.gemmWorkspace(), e.runner, m, n, k, alpha, am, bm, beta, cm)
		return
	}
	clear(idx)
	for {
		gemm.GemmBatched(e.gemmWorkspace(), e.runner, m, n, k, ext[0], alpha, am, sa[0], bm, sb[0], beta, cm, sc[0])
		d := 1
		for ; d < len(ext); d++ {
			idx[d]++
			am.Off += sa[d]
			bm.Off += sb[d]
			cm.Off += sc[d]
			if idx[d] < ext[d] {
				break
			}
			am.Off -= sa[d] * idx[d]
			bm.Off -= sb[d] * idx[d]
			cm.Off -= sc[d] * idx[d]
			idx[d] = 0
		}
		if d == len(ext) {
			return
		}
	}
}
