package cpu

import (
	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/einsum"
	"github.com/tenferro-go/tenferro/internal/kernel/elementwise"
	"github.com/tenferro-go/tenferro/internal/kernel/permute"
	"github.com/tenferro-go/tenferro/internal/kernel/strided"
	"github.com/tenferro-go/tenferro/internal/op"
)

// Accumulating contractions (dst = alpha·result + beta·dst). GEMM
// accumulates natively; the other kernels overwrite their target, so an
// accumulating target receives their result through a pooled staging
// buffer that is then folded in.

// accumulator evaluates t = alpha·x + beta·t in one pass: the fused program
// (x·alpha) + (t·beta), with t an input and the destination at once.
type accumulator[T strided.Scalar] struct {
	prog    [5]elementwise.Instr[T]
	scratch elementwise.Scratch[T]
	in      [2]strided.Ref[T]
}

// accumulate sets dst = alpha·x + beta·dst over shape (dst and x disjoint).
func (k *numeric[T]) accumulate(shape []int, dst, x strided.Ref[T], alpha, beta T) {
	r := k.e.runner
	switch {
	case beta == 0 && alpha == 1:
		permute.Copy(r, shape, dst, x)
	case beta == 0:
		elementwise.Unary(r, op.Scale, elementwise.Params[T]{A: alpha}, shape, dst, x)
	case beta == 1 && alpha == 1:
		elementwise.Binary(r, op.Add, shape, dst, dst, x)
	default:
		a := &k.sc().acc
		a.prog = [5]elementwise.Instr[T]{
			{Op: elementwise.Load, Arg: 0},
			{Op: elementwise.Apply, Kind: op.Scale, Scalar: alpha},
			{Op: elementwise.Load, Arg: 1},
			{Op: elementwise.Apply, Kind: op.Scale, Scalar: beta},
			{Op: elementwise.Apply, Kind: op.Add},
		}
		a.in = [2]strided.Ref[T]{x, dst}
		if err := elementwise.Eval(r, &a.scratch, a.prog[:], shape, dst, a.in[:]); err != nil {
			panic("cpu: accumulate: " + err.Error()) // the program is fixed and valid
		}
		a.in = [2]strided.Ref[T]{}
	}
}

// scale sets dst = beta·dst (zero when beta is 0, without reading dst).
func (k *numeric[T]) scale(dst *backend.View[T], beta T) {
	switch beta {
	case 1:
	case 0:
		elementwise.Fill(k.e.runner, dst.Shape, ref(dst), 0)
	default:
		elementwise.Unary(k.e.runner, op.Scale, elementwise.Params[T]{A: beta}, dst.Shape, ref(dst), ref(dst))
	}
}

// stage returns where a kernel that overwrites should write the result
// over labels for target t: t itself when it takes the result as it is,
// else a pooled compact buffer (returned too) with label strides in s.sg.
func (s *einsumState[T]) stage(e *Engine, p *einsum.Problem, labels []int, t target[T]) (target[T], *backend.Storage[T]) {
	if t.overwrites() {
		return t, nil
	}
	st := 1
	for _, l := range labels {
		s.sg[l] = st
		st *= p.Extents[l]
	}
	tmp := poolAlloc[T](e.pool, st)
	return target[T]{data: tmp.Buf(), strides: s.sg, alpha: 1}, tmp
}

// unstage folds a staging buffer from stage into t (t = alpha·tmp +
// beta·t) and returns it to the pool; it does nothing for tmp == nil.
func (k *numeric[T]) unstage(s *einsumState[T], p *einsum.Problem, labels []int, t target[T], tmp *backend.Storage[T]) {
	if tmp == nil {
		return
	}
	n := len(labels)
	shape, ds, xs := s.shape[:n], s.s0[:n], s.s1[:n]
	for i, l := range labels {
		shape[i], ds[i], xs[i] = p.Extents[l], t.strides[l], s.sg[l]
	}
	k.accumulate(shape, strided.Ref[T]{Data: t.data, Off: t.off, Strides: ds}, strided.Ref[T]{Data: tmp.Buf(), Strides: xs}, t.alpha, t.beta)
	s.discard(k.e, tmp)
}

// discard returns a staging buffer to the pool (nil is fine).
func (s *einsumState[T]) discard(e *Engine, tmp *backend.Storage[T]) {
	if tmp != nil {
		e.pool.Recycle(tmp)
	}
}
