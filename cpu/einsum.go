package cpu

import (
	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/einsum"
	"github.com/tenferro-go/tenferro/internal/kernel/permute"
	"github.com/tenferro-go/tenferro/internal/kernel/strided"
)

// tview is a strided view of an operand or an intermediate whose axes are
// the distinct labels of the plan's tensor (Problem.Unique for operands,
// Step.Out for step results), in that order.
type tview[T strided.Scalar] struct {
	data    []T
	off     int
	strides []int               // one per label, in the tensor's label order
	st      *backend.Storage[T] // pooled storage owned by the executor, or nil
}

// einsumState is the per-dtype executor scratch. Everything is reused
// across calls, so a warm engine evaluates a plan without allocating.
type einsumState[T strided.Scalar] struct {
	views []tview[T]
	arena []int // backing store of views[*].strides
	pos   []int // label id -> axis position (scratch)
	// Label-indexed strides of the left, right and result tensors of the
	// step being executed, of dst, and of a staging buffer.
	sa, sb, sc, sd, sg []int
	// Kernel arguments: an iteration shape and up to three stride lists.
	shape, s0, s1, s2 []int
	// Batch loop: fused batch extents, strides and the odometer.
	bext, bsa, bsb, bsc, bidx []int
	// gemm lays out the GEMM step being executed (its scratch is reused).
	gemm einsum.GemmLayout
}

// grow returns s resized to n elements, reusing its capacity.
func grow(s []int, n int) []int {
	if cap(s) < n {
		return make([]int, n, n+n/4)
	}
	return s[:n]
}

// prepare sizes the scratch for plan pl and builds the views of the
// operands: the diagonal of a repeated label is read with the sum of its
// axes' strides, and a broadcast axis is left out (the plan does not carry
// its label for this operand).
func (s *einsumState[T]) prepare(pl *einsum.Plan, ops []*backend.View[T]) {
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
	s.sa, s.sb, s.sc, s.sd, s.sg = grow(s.sa, nl), grow(s.sb, nl), grow(s.sc, nl), grow(s.sd, nl), grow(s.sg, nl)
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
		for a, l := range p.Inputs[k] {
			if !p.Broadcast[k][a] {
				str[s.pos[l]] += t.Strides[a]
			}
		}
		s.views[k] = tview[T]{data: t.Data, off: t.Off, strides: str}
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

// execEinsum evaluates pl into dst: dst = alpha·result + beta·dst. See the
// notes in einsum_step.go for the lowering of each step.
func execEinsum[T strided.Scalar](k *numeric[T], s *einsumState[T], dst *backend.View[T], pl *einsum.Plan, operands []*backend.View[T], alpha, beta T) error {
	e := k.e
	p := pl.Problem
	defer s.done(e)
	for _, x := range p.Extents {
		if x == 0 {
			// Every sum is empty: the result is zero.
			k.scale(dst, beta)
			return nil
		}
	}
	s.prepare(pl, operands)

	// Label strides of dst: a label repeated in the output walks the
	// diagonal, with the sum of its axes' strides.
	fin := &pl.Final
	for _, l := range p.OutputUnique {
		s.sd[l] = 0
	}
	for a, l := range fin.Output {
		s.sd[l] += dst.Strides[a]
	}
	if fin.Embed {
		// Off the diagonal the result is zero: scale dst by beta (zero it
		// for beta = 0), then accumulate the diagonal onto it.
		k.scale(dst, beta)
		if beta != 0 {
			beta = 1
		}
	}
	out := target[T]{data: dst.Data, off: dst.Off, strides: s.sd, alpha: alpha, beta: beta}

	for i := range pl.Steps {
		st := &pl.Steps[i]
		last := i == len(pl.Steps)-1
		var tgt target[T]
		if last && len(fin.Reduce) == 0 {
			// The last step writes straight into dst (through the
			// embedded diagonal when the output repeats a label).
			tgt = out
		} else {
			v := &s.views[st.Result]
			v.st = poolAlloc[T](e.pool, numel(p.Extents, st.Out))
			v.data, v.off = v.st.Buf(), 0
			for j, l := range st.Out {
				s.sc[l] = v.strides[j]
			}
			tgt = target[T]{data: v.data, off: 0, strides: s.sc, alpha: 1}
		}
		if err := execStep(k, s, p, st, tgt); err != nil {
			return err
		}
		s.release(e, st.LeftID)
		s.release(e, st.RightID)
		if last && len(fin.Reduce) == 0 {
			return nil
		}
	}
	return execFinal(k, s, p, fin, out)
}

// done drops the references to the caller's tensors and returns any
// intermediate still held (after an error) to the pool.
func (s *einsumState[T]) done(e *Engine) {
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
//	out[Output] = alpha·Σ_{Reduce} X[Labels] + beta·out[Output]
//
// where out's label strides already follow any embedded diagonal.
func execFinal[T strided.Scalar](k *numeric[T], s *einsumState[T], p *einsum.Problem, fin *einsum.Final, out target[T]) error {
	e := k.e
	x := &s.views[fin.From]
	defer s.release(e, fin.From)
	tgt, tmp := s.stage(e, p, fin.Kept, out)
	if len(fin.Reduce) == 0 {
		n := len(fin.Kept)
		shape, ds, xs := s.shape[:n], s.s0[:n], s.s1[:n]
		for i, l := range fin.Labels {
			s.pos[l] = i
		}
		for i, l := range fin.Kept {
			shape[i] = p.Extents[l]
			ds[i] = tgt.strides[l]
			xs[i] = x.strides[s.pos[l]]
		}
		if strided.Rank(shape) > strided.MaxRank {
			s.discard(e, tmp)
			return rankError()
		}
		permute.Copy(e.runner, shape, strided.Ref[T]{Data: tgt.data, Off: tgt.off, Strides: ds}, strided.Ref[T]{Data: x.data, Off: x.off, Strides: xs})
		k.unstage(s, p, fin.Kept, out, tmp)
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
				ds[i] = tgt.strides[l]
			}
		}
	}
	if !sumReduce(e, shape, strided.Ref[T]{Data: tgt.data, Off: tgt.off, Strides: ds}, strided.Ref[T]{Data: x.data, Off: x.off, Strides: xs}, strided.Ref[T]{}, false) {
		s.discard(e, tmp)
		return rankError()
	}
	k.unstage(s, p, fin.Kept, out, tmp)
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
