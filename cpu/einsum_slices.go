package cpu

import (
	"math"

	tf "github.com/tenferro-go/tenferro"

	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/einsum"
	"github.com/tenferro-go/tenferro/internal/hugepage"
	"github.com/tenferro-go/tenferro/internal/kernel/strided"
	"github.com/tenferro-go/tenferro/internal/par"
)

// Slices of a sliced contraction are independent, and each is usually too
// small for a team to speed it up much: an engine with a team evaluates w
// of them at once instead, one contiguous share of the slices per worker.
// Each worker runs the serial kernels on an engine of its own (its scratch
// and GEMM packing buffers) that shares this engine's buffer pool, and
// sums its share into a partial result of its own; the first worker sums
// into the destination, and the partials are added to it at the end, in
// worker order (so the result depends only on w). When output labels are
// sliced, the shares are whole parts of the output instead (runs of
// einsum.SlicedPlan.PartSlices slices), which the workers write into the
// destination directly, without partial results. w is the most workers
// whose combined peak, einsum.SlicedPlan.ConcurrentPeak, fits the plan's
// limit and the engine's memory budget; with w = 1 the slices run one
// after another with the team inside each.

// minConcurrentSliceFlops is the least total cost (FLOPs of the slices to
// evaluate) that is spread over the team: a fork costs microseconds, which
// 2¹⁶ FLOPs of small steps outweigh.
const minConcurrentSliceFlops = 1 << 16

// sliceTask evaluates a range of slices split over the team; it lives in
// the engine's scratch so that a fork allocates nothing.
type sliceTask[T strided.Scalar] struct {
	sp          *einsum.SlicedPlan
	operands    []*backend.View[T]
	dst         *backend.View[T]
	partials    []backend.View[T] // the results of workers 1..w-1
	storage     []*backend.Storage[T]
	workers     []*Engine
	lo, n       int
	alpha, beta T
	errs        []error
	direct      bool // output labels are sliced: shares are whole parts
}

// SliceWorkers implements backend.SlicedContraction: the team's width.
func (k *numeric[T]) SliceWorkers() int { return par.Width(k.e.runner) }

// EinsumSlices implements backend.SlicedContraction.
func (k *numeric[T]) EinsumSlices(dst *backend.View[T], sp *einsum.SlicedPlan, operands []*backend.View[T], lo, hi int, alpha, beta T) error {
	e := k.e
	w := e.sliceConcurrency(sp, hi-lo, backend.DTypeOf[T]().Size())
	direct := sp.Summed < len(sp.Labels)
	if direct {
		w = min(w, partsOf(sp, lo, hi))
	}
	if w == 1 {
		return k.runSlices(&k.sc().cursor, dst, sp, operands, lo, hi, alpha, beta)
	}
	s := k.sc()
	t := &s.slices
	t.sp, t.operands, t.dst, t.lo, t.n, t.alpha, t.beta, t.direct = sp, operands, dst, lo, hi-lo, alpha, beta, direct
	t.workers = e.sliceWorkers(w)
	t.errs = resized(t.errs, w)
	if direct {
		e.runner.Run(t, w)
		t.sp, t.operands, t.dst, t.workers = nil, nil, nil, nil
		return firstErr(t.errs)
	}
	t.partials = resized(t.partials, w-1)
	t.storage = resized(t.storage, w-1)
	s.partialStrides = grow(s.partialStrides, len(dst.Shape))
	n := 1
	for d, x := range dst.Shape {
		s.partialStrides[d] = n
		n *= x
	}
	for j := range t.partials {
		st := poolAlloc[T](e.pool, n)
		t.storage[j] = st
		t.partials[j] = backend.View[T]{Data: st.Buf(), Shape: dst.Shape, Strides: s.partialStrides}
	}
	e.runner.Run(t, w)
	err := firstErr(t.errs)
	for j := range t.partials {
		if err == nil {
			k.accumulate(dst.Shape, ref(dst), ref(&t.partials[j]), 1, 1)
		}
		e.pool.Recycle(t.storage[j])
		t.storage[j], t.partials[j] = nil, backend.View[T]{}
	}
	t.sp, t.operands, t.dst, t.workers = nil, nil, nil, nil
	return err
}

// firstErr returns the first non-nil error of errs and clears errs.
func firstErr(errs []error) error {
	var err error
	for j := range errs {
		if err == nil {
			err = errs[j]
		}
		errs[j] = nil
	}
	return err
}

// partsOf is the number of parts of the output that slices lo..hi-1 of sp
// write (see einsum.SlicedPlan.PartSlices).
func partsOf(sp *einsum.SlicedPlan, lo, hi int) int {
	per := sp.PartSlices()
	return (hi-1)/per - lo/per + 1
}

// RunPart implements par.Task: worker part sums its share of the slices.
func (t *sliceTask[T]) RunPart(part, parts int) {
	k := t.workers[part].kernels[backend.DTypeOf[T]()].(*backend.Kernels[T]).Contraction.(*numeric[T])
	if t.direct {
		// Whole parts of the output, written where they lie.
		lo, hi := t.lo, t.lo+t.n
		per := t.sp.PartSlices()
		a, b := par.Split(partsOf(t.sp, lo, hi), part, parts)
		first := lo / per
		t.errs[part] = k.runSlices(&k.sc().cursor, t.dst, t.sp, t.operands, max(lo, (first+a)*per), min(hi, (first+b)*per), t.alpha, t.beta)
		return
	}
	a, b := par.Split(t.n, part, parts)
	dst, beta := t.dst, t.beta
	if part > 0 {
		dst, beta = &t.partials[part-1], 0
	}
	t.errs[part] = k.runSlices(&k.sc().cursor, dst, t.sp, t.operands, t.lo+a, t.lo+b, t.alpha, beta)
}

// runSlices evaluates slices lo..hi-1 one after another on k's engine:
// dst = alpha·Σ slices + beta·dst (the first slice scales dst by beta, the
// others add with beta 1).
func (k *numeric[T]) runSlices(c *backend.SliceCursor[T], dst *backend.View[T], sp *einsum.SlicedPlan, operands []*backend.View[T], lo, hi int, alpha, beta T) error {
	return backend.EachSlice(k.einsumSerial, c, dst, sp, operands, lo, hi, alpha, beta)
}

// einsumSerial evaluates plan on the calling goroutine with k's scratch.
func (k *numeric[T]) einsumSerial(dst *backend.View[T], plan *einsum.Plan, operands []*backend.View[T], alpha, beta T) error {
	return execEinsum(k, &k.sc().ein, dst, plan, operands, alpha, beta)
}

// sliceConcurrency returns how many of n slices of sp (elements of size
// bytes) the engine evaluates at once: 1 without a team or below
// minConcurrentSliceFlops, else the most workers whose combined peak fits
// both the plan's limit and the memory budget (less the destination).
func (e *Engine) sliceConcurrency(sp *einsum.SlicedPlan, n, size int) int {
	w := min(par.Width(e.runner), n)
	if w < 2 || float64(n)*sp.Plan.Flops < minConcurrentSliceFlops {
		return 1
	}
	limit := sp.Limit
	if e.budget != math.MaxInt64 {
		room := math.Max(float64(e.budget)/float64(size)-sp.Problem.OutputSize(), 1)
		if limit == 0 || room < limit {
			limit = room
		}
	}
	return sp.Concurrency(w, limit)
}

// sliceWorkers returns w serial engines that share e's buffer pool, plan
// cache and budget: the workers of concurrent slices, made on first use
// and kept until Close.
func (e *Engine) sliceWorkers(w int) []*Engine {
	for len(e.slicers) < w {
		c := &Engine{budget: e.budget, plans: e.plans, pool: e.pool}
		c.initKernels()
		e.slicers = append(e.slicers, c)
	}
	return e.slicers[:w]
}

// resized returns s with n elements, reusing its capacity.
func resized[E any](s []E, n int) []E {
	if cap(s) < n {
		return hugepage.Make[E](n)
	}
	return s[:n]
}

// ConcurrentSlices returns how many slices of p the engine evaluates at
// once when it evaluates all of them: 1 for a plan that is not sliced, for
// a serial engine and for slices too small to spread, else the most of the
// team's workers whose combined peak (einsum.SlicedPlan.ConcurrentPeak)
// fits the plan's memory limit and the engine's budget less the output.
// The sum then depends on this number (each worker sums its own share), so
// two engines that give the same number give bit-identical results.
func (e *Engine) ConcurrentSlices(p *tf.EinsumPlan) int {
	sp := p.Sliced()
	if sp == nil {
		return 1
	}
	return e.sliceConcurrency(sp, sp.Slices, p.DType().Size())
}
