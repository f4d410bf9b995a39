package cpu

import (
	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
	"github.com/tenferro-go/tenferro/internal/kernel/permute"
	"github.com/tenferro-go/tenferro/internal/kernel/strided"
)

// Matmul implements tenferro.Engine.
func (e *Engine) Matmul(dst, a, b any) error {
	switch c := dst.(type) {
	case *tf.Tensor[float32]:
		matmul(e, c, a.(*tf.Tensor[float32]), b.(*tf.Tensor[float32]))
	case *tf.Tensor[float64]:
		matmul(e, c, a.(*tf.Tensor[float64]), b.(*tf.Tensor[float64]))
	case *tf.Tensor[complex64]:
		matmul(e, c, a.(*tf.Tensor[complex64]), b.(*tf.Tensor[complex64]))
	case *tf.Tensor[complex128]:
		matmul(e, c, a.(*tf.Tensor[complex128]), b.(*tf.Tensor[complex128]))
	default:
		return tf.Errorf(tf.ErrDType, "Matmul", "dst", "a tensor of f32, f64, c64 or c128", "%T", dst)
	}
	return nil
}

// maxBatchAxes bounds the batch rank handled without allocation.
const maxBatchAxes = 30

// matmul runs c = a·b on validated operands: the 2-D case is one GEMM; batch
// axes are fused where all three operands allow it, the innermost remaining
// batch axis becomes a strided batched GEMM and the rest are looped over.
func matmul[T tf.Scalar](e *Engine, c, a, b *tf.Tensor[T]) {
	cs, as, bs := c.Strides(), a.Strides(), b.Strides()
	shape := c.Shape()
	m, n, k := shape[0], shape[1], a.Shape()[1]
	am := gemm.Mat[T]{Data: a.Storage(), Off: a.Offset(), RS: as[0], CS: as[1]}
	bm := gemm.Mat[T]{Data: b.Storage(), Off: b.Offset(), RS: bs[0], CS: bs[1]}
	cm := gemm.Mat[T]{Data: c.Storage(), Off: c.Offset(), RS: cs[0], CS: cs[1]}
	if len(shape) == 2 {
		gemm.Gemm(e.gemmWorkspace(), e.runner, m, n, k, T(1), am, bm, T(0), cm)
		return
	}
	// Collect batch axes with effective strides (0 where an input
	// broadcasts), dropping extent-1 axes and fusing contiguous runs.
	var ext, sa, sb, sc, idx [maxBatchAxes]int
	nb := 0
	ashape, bshape := a.Shape(), b.Shape()
	for d := 2; d < len(shape); d++ {
		x := shape[d]
		if x == 1 {
			continue
		}
		if x == 0 {
			return
		}
		xa, xb := as[d], bs[d]
		if ashape[d] == 1 {
			xa = 0
		}
		if bshape[d] == 1 {
			xb = 0
		}
		if nb > 0 && sa[nb-1]*ext[nb-1] == xa && sb[nb-1]*ext[nb-1] == xb && sc[nb-1]*ext[nb-1] == cs[d] {
			ext[nb-1] *= x
			continue
		}
		if nb == maxBatchAxes {
			// Out of room: fold the innermost axes by looping instead.
			gemmLoop(e, m, n, k, am, bm, cm, ext[:nb], sa[:nb], sb[:nb], sc[:nb], idx[:nb])
			return
		}
		ext[nb], sa[nb], sb[nb], sc[nb] = x, xa, xb, cs[d]
		nb++
	}
	gemmLoop(e, m, n, k, am, bm, cm, ext[:nb], sa[:nb], sb[:nb], sc[:nb], idx[:nb])
}

// gemmLoop runs C = A·B for every batch item: a batched GEMM over batch
// axis 0 for every index of the remaining batch axes (idx is scratch).
func gemmLoop[T tf.Scalar](e *Engine, m, n, k int, am, bm, cm gemm.Mat[T], ext, sa, sb, sc, idx []int) {
	if len(ext) == 0 {
		gemm.Gemm(e.gemmWorkspace(), e.runner, m, n, k, T(1), am, bm, T(0), cm)
		return
	}
	clear(idx)
	for {
		gemm.GemmBatched(e.gemmWorkspace(), e.runner, m, n, k, ext[0], T(1), am, sa[0], bm, sb[0], T(0), cm, sc[0])
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

// Copy implements tenferro.Engine.
func (e *Engine) Copy(dst, src any) error {
	switch d := dst.(type) {
	case *tf.Tensor[float32]:
		copyTensor(e, d, src.(*tf.Tensor[float32]))
	case *tf.Tensor[float64]:
		copyTensor(e, d, src.(*tf.Tensor[float64]))
	case *tf.Tensor[complex64]:
		copyTensor(e, d, src.(*tf.Tensor[complex64]))
	case *tf.Tensor[complex128]:
		copyTensor(e, d, src.(*tf.Tensor[complex128]))
	default:
		return tf.Errorf(tf.ErrDType, "Copy", "dst", "a tensor of f32, f64, c64 or c128", "%T", dst)
	}
	return nil
}

func copyTensor[T tf.Scalar](e *Engine, dst, src *tf.Tensor[T]) {
	permute.Copy(e.runner, dst.Shape(), ref(dst), ref(src))
}

// ref describes t for the strided kernels.
func ref[T tf.Scalar](t *tf.Tensor[T]) strided.Ref[T] {
	return strided.Ref[T]{Data: t.Storage(), Off: t.Offset(), Strides: t.Strides()}
}
