package cpu

import (
	"strconv"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/einsum"
	"github.com/tenferro-go/tenferro/internal/kernel/elementwise"
	"github.com/tenferro-go/tenferro/internal/kernel/permute"
	"github.com/tenferro-go/tenferro/internal/kernel/reduce"
	"github.com/tenferro-go/tenferro/internal/kernel/strided"
	"github.com/tenferro-go/tenferro/internal/op"
)

// data holds the kernels every dtype has: storage and copies.
type data[T backend.Elem] struct {
	e *Engine
}

// numeric holds the kernels of an arithmetic dtype: every capability of
// the contract. Its scratch is made on first use, so that building an
// engine stays cheap.
type numeric[T strided.Scalar] struct {
	data[T]
	ein      *einsumState[T] // einsum executor scratch
	operands []backend.View[T]
	acc      *accumulator[T] // dst = alpha·x + beta·dst
}

// The capabilities of the CPU engine, per dtype class.
var (
	_ tf.Engine                    = (*Engine)(nil)
	_ backend.Core[bool]           = (*data[bool])(nil)
	_ backend.Elementwise[float64] = (*numeric[float64])(nil)
	_ backend.Reduction[float64]   = (*numeric[float64])(nil)
	_ backend.Contraction[float64] = (*numeric[float64])(nil)
	_ backend.Fusion[float64]      = (*numeric[float64])(nil)
)

// ref describes a view for the strided kernels.
func ref[T backend.Elem](v backend.View[T]) strided.Ref[T] {
	return strided.Ref[T]{Data: v.Data, Off: v.Off, Strides: v.Strides}
}

// Alloc implements backend.Core.
func (k *data[T]) Alloc(n int) *backend.Storage[T] { return poolAlloc[T](&k.e.pool, n) }

// Copy implements backend.Core.
func (k *data[T]) Copy(dst, src backend.View[T]) error {
	permute.Copy(k.e.runner, dst.Shape, ref(dst), ref(src))
	return nil
}

func unsupported(name string, kind op.Kind) error {
	return tf.Errorf(tf.ErrUnsupported, name, "op", "an operation the CPU engine implements", "%v", kind)
}

// Unary implements backend.Elementwise.
func (k *numeric[T]) Unary(kind op.Kind, alpha T, dst, x backend.View[T]) error {
	if kind.Category() != op.Unary || !elementwise.Supports(kind) {
		return unsupported("Unary", kind)
	}
	elementwise.Unary(k.e.runner, kind, alpha, dst.Shape, ref(dst), ref(x))
	return nil
}

// Binary implements backend.Elementwise.
func (k *numeric[T]) Binary(kind op.Kind, dst, x, y backend.View[T]) error {
	if kind.Category() != op.Binary || !elementwise.Supports(kind) {
		return unsupported("Binary", kind)
	}
	shape := dst.Shape
	e := k.e
	sx, sy := e.strides[0][:len(shape)], e.strides[1][:len(shape)]
	elementwise.Binary(e.runner, kind, shape, ref(dst), broadcastRef(x, shape, sx), broadcastRef(y, shape, sy))
	return nil
}

// broadcastRef describes v read at shape: axes where v has extent 1 and
// shape does not get stride 0. strides is caller-provided room.
func broadcastRef[T strided.Scalar](v backend.View[T], shape, strides []int) strided.Ref[T] {
	for d := range shape {
		strides[d] = v.Strides[d]
		if v.Shape[d] == 1 && shape[d] != 1 {
			strides[d] = 0
		}
	}
	return strided.Ref[T]{Data: v.Data, Off: v.Off, Strides: strides}
}

// Reduce implements backend.Reduction: it reads dst at src's shape with
// stride 0 on the reduced axes, which is how the reduction kernel marks
// them.
func (k *numeric[T]) Reduce(kind op.Kind, dst, src backend.View[T], axes uint64) error {
	if kind != op.Sum {
		return unsupported("Reduce", kind)
	}
	shape := src.Shape
	ds := &k.e.strides[0]
	j := 0
	for d := range shape {
		if axes&(1<<uint(d)) != 0 {
			ds[d] = 0
			continue
		}
		ds[d] = dst.Strides[j]
		j++
	}
	reduce.Sum(k.e.runner, shape, strided.Ref[T]{Data: dst.Data, Off: dst.Off, Strides: ds[:len(shape)]}, ref(src))
	return nil
}

// Operands implements backend.Contraction.
func (k *numeric[T]) Operands(n int) []backend.View[T] {
	if cap(k.operands) < n {
		k.operands = make([]backend.View[T], n)
	}
	return k.operands[:n]
}

// Plans implements backend.Contraction.
func (k *numeric[T]) Plans() backend.PlanStore { return (*planStore)(k.e.plans) }

// Einsum implements backend.Contraction.
func (k *numeric[T]) Einsum(dst backend.View[T], plan *einsum.Plan, operands []backend.View[T], alpha, beta T) error {
	if plan == nil {
		return tf.Errorf(tf.ErrArgument, "Einsum", "plan", "a plan", "nil")
	}
	if len(operands) != len(plan.Problem.Inputs) {
		return tf.Errorf(tf.ErrShape, "Einsum", "operands", strconv.Itoa(len(plan.Problem.Inputs))+" operands", "%d", len(operands))
	}
	if k.ein == nil {
		k.ein = new(einsumState[T])
	}
	return execEinsum(k, k.ein, dst, plan, operands, alpha, beta)
}
