package cpu

import (
	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/internal/kernel/elementwise"
	"github.com/tenferro-go/tenferro/internal/kernel/reduce"
	"github.com/tenferro-go/tenferro/internal/kernel/strided"
)

var _ tf.Elementwise = (*Engine)(nil)

var unaryKernel = [...]elementwise.UnaryOp{
	tf.OpCopy:   elementwise.Copy,
	tf.OpScale:  elementwise.Scale,
	tf.OpNegate: elementwise.Negate,
	tf.OpConj:   elementwise.Conj,
}

var binaryKernel = [...]elementwise.BinaryOp{
	tf.OpAdd: elementwise.Add,
	tf.OpSub: elementwise.Sub,
	tf.OpMul: elementwise.Mul,
}

// Unary implements tenferro.Elementwise.
func (e *Engine) Unary(op tf.UnaryOp, alpha complex128, dst, a any) error {
	if int(op) >= len(unaryKernel) {
		return tf.Errorf(tf.ErrArgument, "Unary", "op", "a unary operation", "%v", op)
	}
	k := unaryKernel[op]
	switch d := dst.(type) {
	case *tf.Tensor[float32]:
		unaryT(e, k, float32(real(alpha)), d, a.(*tf.Tensor[float32]))
	case *tf.Tensor[float64]:
		unaryT(e, k, real(alpha), d, a.(*tf.Tensor[float64]))
	case *tf.Tensor[complex64]:
		unaryT(e, k, complex64(alpha), d, a.(*tf.Tensor[complex64]))
	case *tf.Tensor[complex128]:
		unaryT(e, k, alpha, d, a.(*tf.Tensor[complex128]))
	default:
		return tf.Errorf(tf.ErrDType, "Unary", "dst", "a tensor of f32, f64, c64 or c128", "%T", dst)
	}
	return nil
}

func unaryT[T tf.Scalar](e *Engine, op elementwise.UnaryOp, alpha T, dst, a *tf.Tensor[T]) {
	elementwise.Unary(e.runner, op, alpha, dst.Shape(), ref(dst), ref(a))
}

// Binary implements tenferro.Elementwise.
func (e *Engine) Binary(op tf.BinaryOp, dst, a, b any) error {
	if int(op) >= len(binaryKernel) {
		return tf.Errorf(tf.ErrArgument, "Binary", "op", "a binary operation", "%v", op)
	}
	k := binaryKernel[op]
	switch d := dst.(type) {
	case *tf.Tensor[float32]:
		binaryT(e, k, d, a.(*tf.Tensor[float32]), b.(*tf.Tensor[float32]))
	case *tf.Tensor[float64]:
		binaryT(e, k, d, a.(*tf.Tensor[float64]), b.(*tf.Tensor[float64]))
	case *tf.Tensor[complex64]:
		binaryT(e, k, d, a.(*tf.Tensor[complex64]), b.(*tf.Tensor[complex64]))
	case *tf.Tensor[complex128]:
		binaryT(e, k, d, a.(*tf.Tensor[complex128]), b.(*tf.Tensor[complex128]))
	default:
		return tf.Errorf(tf.ErrDType, "Binary", "dst", "a tensor of f32, f64, c64 or c128", "%T", dst)
	}
	return nil
}

func binaryT[T tf.Scalar](e *Engine, op elementwise.BinaryOp, dst, a, b *tf.Tensor[T]) {
	shape := dst.Shape()
	sa, sb := e.strides[0][:len(shape)], e.strides[1][:len(shape)]
	elementwise.Binary(e.runner, op, shape, ref(dst), broadcastRef(a, shape, sa), broadcastRef(b, shape, sb))
}

// broadcastRef describes t read at shape: axes where t has extent 1 and
// shape does not get stride 0. strides is caller-provided room.
func broadcastRef[T tf.Scalar](t *tf.Tensor[T], shape, strides []int) strided.Ref[T] {
	ts, tshape := t.Strides(), t.Shape()
	for d := range shape {
		strides[d] = ts[d]
		if tshape[d] == 1 && shape[d] != 1 {
			strides[d] = 0
		}
	}
	return strided.Ref[T]{Data: t.Storage(), Off: t.Offset(), Strides: strides}
}

// Sum implements tenferro.Elementwise.
func (e *Engine) Sum(dst, src any, axes uint64) error {
	switch d := dst.(type) {
	case *tf.Tensor[float32]:
		sumT(e, d, src.(*tf.Tensor[float32]), axes)
	case *tf.Tensor[float64]:
		sumT(e, d, src.(*tf.Tensor[float64]), axes)
	case *tf.Tensor[complex64]:
		sumT(e, d, src.(*tf.Tensor[complex64]), axes)
	case *tf.Tensor[complex128]:
		sumT(e, d, src.(*tf.Tensor[complex128]), axes)
	default:
		return tf.Errorf(tf.ErrDType, "Sum", "dst", "a tensor of f32, f64, c64 or c128", "%T", dst)
	}
	return nil
}

// sumT reads dst at src's shape with stride 0 on the summed axes, which is
// how the reduction kernel marks them.
func sumT[T tf.Scalar](e *Engine, dst, src *tf.Tensor[T], axes uint64) {
	shape := src.Shape()
	ds := &e.strides[0]
	dstStrides := dst.Strides()
	j := 0
	for d := range shape {
		if axes&(1<<uint(d)) != 0 {
			ds[d] = 0
			continue
		}
		ds[d] = dstStrides[j]
		j++
	}
	reduce.Sum(e.runner, shape, strided.Ref[T]{Data: dst.Storage(), Off: dst.Offset(), Strides: ds[:len(shape)]}, ref(src))
}
