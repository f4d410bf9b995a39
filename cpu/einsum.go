package cpu

import (
	"strconv"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/einsum"
	"github.com/tenferro-go/tenferro/internal/kernel/elementwise"
	"github.com/tenferro-go/tenferro/internal/kernel/permute"
	"github.com/tenferro-go/tenferro/internal/kernel/strided"
)

var _ tf.Contractor = (*Engine)(nil)

// einsumWS is the engine's einsum workspace: the argument scratch shared
// with the public operations and, per element type, the executor's
// bookkeeping (views of operands and intermediates, label-indexed strides,
// kernel shape and stride lists). Everything is reused across calls, so a
// warm engine evaluates a plan without allocating.
type einsumWS struct {
	scratch tf.Scratch
	f32     einsumState[float32]
	f64     einsumState[float64]
	c64     einsumState[complex64]
	c128    einsumState[complex128]
}

// tview is a strided view of an operand or an intermediate whose axes are
// the distinct labels of the plan's tensor (Problem.Unique for operands,
// Step.Out for step results), in that order.
type tview[T tf.Scalar] struct {
	data    []T
	off     int
	strides []int          // one per label, in the tensor's label order
	st      *tf.Storage[T] // pooled storage owned by the executor, or nil
}

// einsumState is the per-dtype executor scratch.
type einsumState[T tf.Scalar] struct {
	ops   []*tf.Tensor[T]
	views []tview[T]
	arena []int // backing store of views[*].strides
	pos   []int // label id -> axis position (scratch)
	// Label-indexed strides of the left, right and result tensors of the
	// step being executed, and of dst.
	sa, sb, sc, sd []int
	// Kernel arguments: an iteration shape and up to three stride lists.
	shape, s0, s1, s2 []int
	// Batch loop: fused batch extents, strides and the odometer.
	bext, bsa, bsb, bsc, bidx []int
}

// Einsum implements tenferro.Contractor: it evaluates plan into dst. The
// operands and dst are validated by the caller (package tenferro): one
// element type, the plan's shapes, dst of the output shape with distinct
// elements and no overlap with any operand. Operands are only read.
func (e *Engine) Einsum(dst any, plan *einsum.Plan, operands []any) error {
	if plan == nil {
		return tf.Errorf(tf.ErrArgument, "Einsum", "plan", "a plan", "nil")
	}
	switch d := dst.(type) {
	case *tf.Tensor[float32]:
		return execEinsum(e, &e.einsumWorkspace().f32, d, plan, operands)
	case *tf.Tensor[float64]:
		return execEinsum(e, &e.einsumWorkspace().f64, d, plan, operands)
	case *tf.Tensor[complex64]:
		return execEinsum(e, &e.einsumWorkspace().c64, d, plan, operands)
	case *tf.Tensor[complex128]:
		return execEinsum(e, &e.einsumWorkspace().c128, d, plan, operands)
	}
	return tf.Errorf(tf.ErrDType, "Einsum", "dst", "a tensor of f32, f64, c64 or c128", "%T", dst)
}

// Plans implements tenferro.Contractor: it returns the engine's plan cache.
func (e *Engine) Plans() tf.PlanStore { return e.plans }

// Scratch implements tenferro.Contractor: argument storage owned by the
// engine, for use by the goroutine holding it.
func (e *Engine) Scratch() *tf.Scratch { return &e.einsumWorkspace().scratch }

// grow returns s resized to n elements, reusing its capacity.
func grow(s []int, n int) []int {
	if cap(s) < n {
		return make([]int, n, n+n/4)
	}
	return s[:n]
}

// prepare sizes the scratch for plan pl and builds the views of the
// operands: the diagonal of a repeated label is read with the sum of its
// axes' strides, and a broadcast axis with stride 0.
func (s *einsumState[T]) prepare(pl *einsum.Plan, ops []*tf.Tensor[T]) {
	p := pl.Problem
	nIn := len(p.Inputs)
	nt := nIn + len(pl.Steps)
	total := 0
	for k := range nIn {
		total += len(p.Unique[k])
	}
	for i := range pl.Steps {
		total += len(pl.Steps[i].Out)
	}
	s.arena = grow(s.arena, total)
	if cap(s.views) < nt {
		s.views = make([]tview[T], nt)
	}
	s.views = s.views[:nt]
	nl := p.NumLabels
	s.pos = grow(s.pos, nl)
	s.sa, s.sb, s.sc, s.sd = grow(s.sa, nl), grow(s.sb, nl), grow(s.sc, nl), grow(s.sd, nl)
	s.shape, s.s0, s.s1, s.s2 = grow(s.shape, nl), grow(s.s0, nl), grow(s.s1, nl), grow(s.s2, nl)
	s.bext, s.bsa, s.bsb, s.bsc, s.bidx = grow(s.bext, nl), grow(s.bsa, nl), grow(s.bsb, nl), grow(s.bsc, nl), grow(s.bidx, nl)

	at := 0
	for k := range nIn {
		t := ops[k]
		u := p.Unique[k]
		str := s.arena[at : at+len(u) : at+len(u)]
		at += len(u)
		for i, l := range u {
			s.pos[l] = i
			str[i] = 0
		}
		ts := t.Strides()
		for a, l := range p.Inputs[k] {
			if !p.Broadcast[k][a] {
				str[s.pos[l]] += ts[a]
			}
		}
		s.views[k] = tview[T]{data: t.Storage(), off: t.Offset(), strides: str}
	}
	for i := range pl.Steps {
		out := pl.Steps[i].Out
		str := s.arena[at : at+len(out) : at+len(out)]
		at += len(out)
		st := 1
		for j, l := range out {
			str[j] = st
			st *= p.Extents[l]
		}
		s.views[nIn+i] = tview[T]{strides: str}
	}
}

// execEinsum evaluates pl into dst. See the package notes in einsum_step.go
// for the lowering of each step.
func execEinsum[T tf.Scalar](e *Engine, s *einsumState[T], dst *tf.Tensor[T], pl *einsum.Plan, operands []any) error {
	p := pl.Problem
	nIn := len(p.Inputs)
	if len(operands) != nIn {
		return tf.Errorf(tf.ErrShape, "Einsum", "operands", strconv.Itoa(nIn)+" operands", "%d", len(operands))
	}
	s.ops = s.ops[:0]
	for k, o := range operands {
		t, ok := o.(*tf.Tensor[T])
		if !ok || t == nil {
			clear(s.ops)
			return tf.Errorf(tf.ErrDType, "Einsum", "operand "+strconv.Itoa(k), "a *Tensor["+tf.DTypeOf[T]().String()+"]", "%T", o)
		}
		s.ops = append(s.ops, t)
	}
	defer s.done(e)
	dref := ref(dst)
	for _, x := range p.Extents {
		if x == 0 {
			// Every sum is empty: the result is zero (or empty).
			elementwise.Fill(e.runner, dst.Shape(), dref, T(0))
			return nil
		}
	}
	s.prepare(pl, s.ops)

	// Label strides of dst: a label repeated in the output walks the
	// diagonal, with the sum of its axes' strides.
	fin := &pl.Final
	for _, l := range p.OutputUnique {
		s.sd[l] = 0
	}
	for a, l := range fin.Output {
		s.sd[l] += dst.Strides()[a]
	}
	if fin.Embed {
		elementwise.Fill(e.runner, dst.Shape(), dref, T(0))
	}
	dd, doff := dst.Storage(), dst.Offset()

	for i := range pl.Steps {
		st := &pl.Steps[i]
		last := i == len(pl.Steps)-1
		var tgt target[T]
		if last && len(fin.Reduce) == 0 {
			// The last step writes straight into dst (through the
			// embedded diagonal when the output repeats a label).
			tgt = target[T]{data: dd, off: doff, strides: s.sd}
		} else {
			v := &s.views[st.Result]
			v.st = e.pool.alloc(tf.DTypeOf[T](), numel(p.Extents, st.Out)).(*tf.Storage[T])
			v.data, v.off = v.st.Buf(), 0
			for j, l := range st.Out {
				s.sc[l] = v.strides[j]
			}
			tgt = target[T]{data: v.data, off: 0, strides: s.sc}
		}
		if err := execStep(e, s, p, st, tgt); err != nil {
			return err
		}
		s.release(e, st.LeftID)
		s.release(e, st.RightID)
		if last && len(fin.Reduce) == 0 {
			return nil
		}
	}
	return execFinal(e, s, p, fin, dd, doff)
}

// done drops the references to the caller's tensors and returns any
// intermediate still held (after an error) to the pool.
func (s *einsumState[T]) done(e *Engine) {
	clear(s.ops)
	s.ops = s.ops[:0]
	for i := range s.views {
		s.release(e, i)
		s.views[i].data = nil
	}
}

// release returns the storage of tensor id to the pool if the executor owns
// it.
func (s *einsumState[T]) release(e *Engine, id int) {
	v := &s.views[id]
	if v.st != nil {
		e.pool.Recycle(v.st)
		v.st, v.data = nil, nil
	}
}

// execFinal maps the last tensor to the output:
//
//	dst[Output] = Σ_{Reduce} X[Labels]
//
// where dst's label strides (s.sd) already follow any embedded diagonal
// (zero-filled beforehand).
func execFinal[T tf.Scalar](e *Engine, s *einsumState[T], p *einsum.Problem, fin *einsum.Final, dd []T, doff int) error {
	x := &s.views[fin.From]
	defer s.release(e, fin.From)
	if len(fin.Reduce) == 0 {
		n := len(fin.Kept)
		shape, ds, xs := s.shape[:n], s.s0[:n], s.s1[:n]
		for i, l := range fin.Labels {
			s.pos[l] = i
		}
		for i, l := range fin.Kept {
			shape[i] = p.Extents[l]
			ds[i] = s.sd[l]
			xs[i] = x.strides[s.pos[l]]
		}
		if strided.Rank(shape) > strided.MaxRank {
			return rankError()
		}
		permute.Copy(e.runner, shape, strided.Ref[T]{Data: dd, Off: doff, Strides: ds}, strided.Ref[T]{Data: x.data, Off: x.off, Strides: xs})
		return nil
	}
	n := len(fin.Labels)
	shape, ds, xs := s.shape[:n], s.s0[:n], s.s1[:n]
	for i := range n {
		shape[i], ds[i], xs[i] = p.Extents[fin.Labels[i]], 0, x.strides[i]
	}
	for _, l := range fin.Kept {
		for i, m := range fin.Labels {
			if m == l {
				ds[i] = s.sd[l]
			}
		}
	}
	if !sumReduce(e, shape, strided.Ref[T]{Data: dd, Off: doff, Strides: ds}, strided.Ref[T]{Data: x.data, Off: x.off, Strides: xs}, strided.Ref[T]{}, false) {
		return rankError()
	}
	return nil
}

func rankError() error {
	return tf.Errorf(tf.ErrShape, "Einsum", "operands", "at most 32 axes of extent > 1 per kernel", "more")
}

func numel(ext []int, labels []int) int {
	n := 1
	for _, l := range labels {
		n *= ext[l]
	}
	return n
}
