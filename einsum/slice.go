package einsum

import (
	"math"
	"slices"
	"strconv"
	"strings"
)

// MaxSlices bounds the number of slices a SlicedPlan may have: slicings
// that need more are not considered (even at a microsecond per slice,
// 2^40 slices take twelve days).
const MaxSlices = 1 << 40

// SlicedPlan evaluates a contraction as a sum of slices. Slicing fixes
// each sliced label to one of its values: the slice with index tuple
// (v_1, ..., v_m) is the contraction of the operands' sub-tensors with
// label L_j fixed to v_j, and the result is the sum over every tuple,
//
//	out = Σ_{v_1 < E_1, ..., v_m < E_m} contract(operands[L_1 = v_1, ..., L_m = v_m]).
//
// Every slice has the same shapes, so one Plan (of the problem with every
// sliced label's extent set to 1) serves all of them, and an executor
// needs only one slice's intermediates at a time: its peak is Plan.Peak
// instead of the unsliced plan's. A sliced summed label makes each slice a
// term added into the whole output. A sliced output label (only when
// asked: Options.SliceOutput, or SliceWith naming it) makes each slice
// compute the part of the output where that label takes the slice's
// values instead; for such labels the sum above is read with each term
// placed in its part of the output. A SlicedPlan is immutable and safe
// for concurrent use; its slices must not be modified.
//
// Slice s (0 <= s < Slices) fixes label Labels[j] to (s / Π_{i<j}
// Extents[i]) mod Extents[j]: the first sliced label varies fastest. The
// summed labels come first and the output labels last, so the slices that
// write one part of the output are consecutive (PartSlices of them).
type SlicedPlan struct {
	// Problem is the full (unsliced) problem.
	Problem *Problem
	// Plan is the plan of one slice. Its problem is Problem with every
	// sliced label's extent set to its width (1 unless chunked; the
	// operands' shapes have it on the axes of sliced labels); label ids
	// are Problem's.
	Plan *Plan
	// Labels holds the sliced label ids of Problem, the summed ones in
	// increasing order and then the output ones in increasing order, and
	// Extents their extents (every one > 1). Both are empty when the
	// contraction is not sliced.
	Labels, Extents []int
	// Summed is the number of summed labels in Labels: Labels[:Summed]
	// are summed, Labels[Summed:] are output labels.
	Summed int
	// Widths holds how many consecutive values of each sliced label one
	// slice takes, below its extent (1: one value per slice, the usual
	// slicing). Label j is cut into Chunks(j) = ⌈Extents[j] / Widths[j]⌉
	// chunks, and the slice plan's problem has extent Widths[j] on its
	// axes. Wider chunks keep the steps large (matrix-matrix products
	// instead of matrix-vector ones) and repeat the steps that do not
	// touch the label fewer times. At most one width does not divide its
	// extent (see Tail).
	Widths []int
	// Tail, when not nil, is the plan of the slices that take the last
	// chunk of sliced label TailLabel (an index into Labels), whose width
	// does not divide its extent: that chunk is shorter, Extents[j] -
	// (Chunks(j)-1)·Widths[j] values. Every other slice runs Plan; PlanOf
	// picks. Tail has Plan's path. TailLabel is -1 without a tail.
	Tail      *Plan
	TailLabel int
	// Slices is the number of slices, the product of Chunks(j) (1: not
	// sliced).
	Slices int
	// Limit is the memory limit the plan was made for, in elements (0:
	// none): the peak of one slice, or with Workers > 1 the peak of that
	// many slices evaluated at once (ConcurrentPeak(Workers)).
	Limit float64
	// Workers is the number of slices the plan was made to evaluate at
	// once within Limit: 1, or Options.Workers when NewSlicedPlan found
	// that slicing further for concurrent slices costs less per worker.
	Workers int
	// Flops is the total cost of all slices, Slices × Plan.Flops (the
	// slices that take a tail chunk at Tail.Flops).
	Flops float64
	// UnslicedFlops is the cost of evaluating the problem in one piece:
	// the cheaper of the best plan without a memory limit and the slice's
	// path applied to the unsliced problem (so FlopOverhead >= 1 even
	// when the search found a better path for the sliced problem).
	UnslicedFlops float64
	// FlopOverhead is Flops / UnslicedFlops, the price of slicing in
	// FLOPs (1 when not sliced; 1 when UnslicedFlops is 0).
	FlopOverhead float64
	// PeakPerSlice is Plan.Peak (or Tail.Peak when larger), the elements
	// an executor holds at once
	// besides the operands and the destination while it evaluates one
	// slice, the layout copies of its GEMM steps and the buffer in which
	// kernels that cannot accumulate in place stage a slice's result
	// before adding it to the destination included.
	PeakPerSlice float64
}

// LabelNames renders the sliced labels as the problem names them.
func (sp *SlicedPlan) LabelNames() []string {
	out := make([]string, len(sp.Labels))
	for j, l := range sp.Labels {
		out[j] = sp.Problem.Names[l]
	}
	return out
}

// PartSlices is the number of consecutive slices that write the same part
// of the output: the product of the summed labels' numbers of chunks
// (Slices when no output label is sliced). Slice s writes part
// s / PartSlices.
func (sp *SlicedPlan) PartSlices() int {
	n := 1
	for j := range sp.Summed {
		n *= sp.Chunks(j)
	}
	return n
}

// ConcurrentPeak is the peak, in elements besides the operands and the
// destination, of evaluating slices on w workers at once, each summing its
// share of the slices into a result of its own that is added to the
// destination at the end (the first worker sums into the destination):
//
//	w·PeakPerSlice + (w-1)·size(output).
//
// It is an upper bound: the workers need not reach their peaks at the same
// moment. ConcurrentPeak(1) is PeakPerSlice. When output labels are
// sliced, the workers take whole parts of the output and write them into
// the destination, and the peak is w·PeakPerSlice.
func (sp *SlicedPlan) ConcurrentPeak(w int) float64 {
	return float64(w)*sp.PeakPerSlice + float64(max(w-1, 0))*sp.partialSize()
}

// partialSize is the size of a worker's partial result: the output's, or 0
// when output labels are sliced (workers write their parts in place).
func (sp *SlicedPlan) partialSize() float64 {
	if sp.Summed < len(sp.Labels) {
		return 0
	}
	return sp.Problem.OutputSize()
}

// Concurrency returns the number of workers, between 1 and workers, that
// evaluate slices at once within limit elements (see ConcurrentPeak; limit
// 0 means none): the most for which ConcurrentPeak fits, never more than
// the slices.
func (sp *SlicedPlan) Concurrency(workers int, limit float64) int {
	w := max(min(workers, sp.Slices), 1)
	if limit <= 0 || w == 1 {
		return w
	}
	// ConcurrentPeak(k) <= limit for k <= (limit + out)/(peak + out); the
	// loops correct the quotient's rounding.
	out := sp.partialSize()
	if q := math.Floor((limit + out) / (sp.PeakPerSlice + out)); q < float64(w) {
		w = max(int(q), 1)
	}
	for w > 1 && sp.ConcurrentPeak(w) > limit {
		w--
	}
	for w < min(workers, sp.Slices) && sp.ConcurrentPeak(w+1) <= limit {
		w++
	}
	return w
}

// SliceIndex writes into idx (one entry per sliced label) the chunks that
// slice s takes, and returns idx: slice s fixes sliced label j to the
// values Widths[j]·idx[j], ..., Widths[j]·(idx[j]+1) - 1, idx being the
// digits of s in the mixed radix Extents[j] / Widths[j], the first label
// fastest. It panics if idx is too short or s is out of range, as an
// index expression would.
func (sp *SlicedPlan) SliceIndex(s int, idx []int) []int {
	if s < 0 || s >= sp.Slices {
		panic("einsum: slice " + strconv.Itoa(s) + " out of range [0, " + strconv.Itoa(sp.Slices) + ")")
	}
	idx = idx[:len(sp.Extents)]
	for j := range sp.Extents {
		x := sp.Chunks(j)
		idx[j] = s % x
		s /= x
	}
	return idx
}

// Chunks returns the number of chunks sliced label j is cut into,
// ⌈Extents[j] / Widths[j]⌉.
func (sp *SlicedPlan) Chunks(j int) int { return (sp.Extents[j] + sp.Widths[j] - 1) / sp.Widths[j] }

// PlanOf returns the plan of the slice whose chunks are idx (as
// SliceIndex gives them): Tail for the last chunk of the tail label, else
// Plan.
func (sp *SlicedPlan) PlanOf(idx []int) *Plan {
	if sp.Tail != nil && idx[sp.TailLabel] == sp.Chunks(sp.TailLabel)-1 {
		return sp.Tail
	}
	return sp.Plan
}

// slicedProblem binds p's expression to p's shapes with the axes of the
// labels in set (indexed by label id) set to extent width[l] (1 where
// width is nil or 0), and those of label tail (-1: none) to the length of
// its last chunk. Label ids are unchanged: binding numbers labels by the
// expression alone.
func slicedProblem(p *Problem, set []bool, width []int, tail int) (*Problem, error) {
	shapes := make([][]int, len(p.Shapes))
	sliced := false
	for k, s := range p.Shapes {
		shapes[k] = slices.Clone(s)
		for a, l := range p.Inputs[k] {
			if set[l] && shapes[k][a] > 1 {
				w := 1
				if width != nil && width[l] > 0 {
					w = width[l]
				}
				if l == tail {
					w = lastChunk(shapes[k][a], w)
				}
				sliced = sliced || w < shapes[k][a]
				shapes[k][a] = w
			}
		}
	}
	sub, err := p.Expr.Bind(shapes)
	if err == nil && sliced {
		sub.layout = p.Shapes
		if p.layout != nil {
			sub.layout = p.layout
		}
	}
	return sub, err
}

// lastChunk is the length of the last of the chunks of width w that cut
// extent e.
func lastChunk(e, w int) int { return e - (e-1)/w*w }

// SliceWith slices the given labels of p (label ids, any order, no
// repeats, each of extent >= 1; an output label may be sliced unless it is
// repeated in the output) and plans
// one slice with opts; opts.MemoryLimit, if set, bounds every intermediate
// of the slice as it does for NewPlan. With Given, opts.Path is the path
// of one slice. UnslicedFlops is the cost of the slice's path applied to
// the unsliced problem, and Limit is 0 (no bound on the peak was asked). It is how a serialized sliced plan is rebuilt:
// SliceWith(p, sp.Labels, Options{Strategy: Given, Path: sp.Plan.Path})
// gives back sp's slicing and steps.
func SliceWith(p *Problem, labels []int, opts Options) (*SlicedPlan, error) {
	return SliceWithWidths(p, labels, nil, opts)
}

// SliceWithWidths is SliceWith with chunks: widths[j] consecutive values
// of labels[j] per slice (between 1 and its extent; widths nil: 1 for
// every label). At most one width may leave a shorter last chunk (not
// divide its extent): that label's last chunk is planned with the path
// of the others (SlicedPlan.Tail). SliceWithWidths(p, sp.Labels,
// sp.Widths, Options{Strategy: Given, Path: sp.Plan.Path}) rebuilds any
// sliced plan sp.
func SliceWithWidths(p *Problem, labels, widths []int, opts Options) (*SlicedPlan, error) {
	if p == nil || p.Expr == nil || len(p.Extents) != p.NumLabels {
		return nil, newErr("slice", ErrOption, -1, "", "the problem was not made by Bind")
	}
	if widths != nil && len(widths) != len(labels) {
		return nil, newErr("slice", ErrOption, -1, "", "%d widths for %d sliced labels", len(widths), len(labels))
	}
	set := make([]bool, p.NumLabels)
	var width []int
	if widths != nil {
		width = make([]int, p.NumLabels)
	}
	tail := -1
	for j, l := range labels {
		switch {
		case l < 0 || l >= p.NumLabels:
			return nil, newErr("slice", ErrOption, -1, "", "sliced label id %d out of range [0, %d)", l, p.NumLabels)
		case set[l]:
			return nil, newErr("slice", ErrOption, -1, p.Names[l], "label '%s' is sliced twice", p.Names[l])
		case p.OutputAxes(l) > 1:
			return nil, newErr("slice", ErrOption, -1, p.Names[l], "label '%s' is repeated in the output, which is never sliced", p.Names[l])
		case p.Extents[l] < 1:
			return nil, newErr("slice", ErrOption, -1, p.Names[l], "label '%s' has extent %d: there is nothing to slice", p.Names[l], p.Extents[l])
		case widths != nil && (widths[j] < 1 || widths[j] > p.Extents[l]):
			return nil, newErr("slice", ErrOption, -1, p.Names[l], "width %d of label '%s' is not between 1 and its extent %d", widths[j], p.Names[l], p.Extents[l])
		case widths != nil && p.Extents[l]%widths[j] != 0 && tail >= 0:
			return nil, newErr("slice", ErrOption, -1, p.Names[l], "widths of labels '%s' and '%s' both leave a shorter last chunk (at most one may)", p.Names[tail], p.Names[l])
		}
		set[l] = true
		if width != nil {
			width[l] = widths[j]
			if p.Extents[l]%widths[j] != 0 {
				tail = l
			}
		}
	}
	sub, err := slicedProblem(p, set, width, -1)
	if err != nil {
		return nil, err
	}
	pl, err := NewPlan(sub, opts)
	if err != nil {
		return nil, err
	}
	tp, err := tailPlan(p, set, width, tail, pl)
	if err != nil {
		return nil, err
	}
	return assemble(p, set, width, pl, tp, math.Inf(1), 0)
}

// tailPlan plans, on pl's path, the slices that take the shorter last
// chunk of label tail (-1: none, and a nil plan).
func tailPlan(p *Problem, set []bool, width []int, tail int, pl *Plan) (*Plan, error) {
	if tail < 0 {
		return nil, nil
	}
	sub, err := slicedProblem(p, set, width, tail)
	if err != nil {
		return nil, err
	}
	return NewPlan(sub, Options{Strategy: Given, Path: pl.Path})
}

// assemble builds the SlicedPlan of slicing set (chunks of width[l], 1
// where width is nil or 0) with slice plan pl and the plan tp of the
// slices that take a shorter last chunk (nil: none); unsliced is the cost
// of the best unsliced plan known (+Inf: none).
func assemble(p *Problem, set []bool, width []int, pl, tp *Plan, unsliced, limit float64) (*SlicedPlan, error) {
	sp := &SlicedPlan{Problem: p, Plan: pl, Labels: []int{}, Extents: []int{}, Widths: []int{}, TailLabel: -1, Slices: 1, Limit: limit, Workers: 1, PeakPerSlice: pl.Peak}
	n := 1.0
	for _, out := range [2]bool{false, true} {
		for l, s := range set {
			w := 1
			if width != nil && width[l] > 0 {
				w = width[l]
			}
			if !s || p.Extents[l] <= w || (p.OutputAxes(l) > 0) != out {
				continue
			}
			if p.Extents[l]%w != 0 {
				sp.TailLabel, sp.Tail = len(sp.Labels), tp
			}
			sp.Labels = append(sp.Labels, l)
			sp.Extents = append(sp.Extents, p.Extents[l])
			sp.Widths = append(sp.Widths, w)
			n *= float64((p.Extents[l] + w - 1) / w)
		}
		if !out {
			sp.Summed = len(sp.Labels)
		}
	}
	if n > MaxSlices {
		return nil, newErr("slice", ErrMemoryLimit, -1, "", "slicing %s needs %g slices, more than MaxSlices (%d)", p.Term(sp.Labels), n, MaxSlices)
	}
	for j := range sp.Extents {
		sp.Slices *= sp.Chunks(j)
	}
	sp.Flops = float64(sp.Slices) * pl.Flops
	if sp.Tail != nil {
		tails := float64(sp.Slices / sp.Chunks(sp.TailLabel))
		sp.Flops += tails * (sp.Tail.Flops - pl.Flops)
		sp.PeakPerSlice = max(pl.Peak, sp.Tail.Peak)
	}
	// The slice's path on the unsliced problem costs no more than all
	// slices together (each step repeats for the sliced labels it lacks).
	whole := pl.Flops
	if len(sp.Labels) > 0 {
		nw := newNetwork(p, 0)
		ssa, err := linearToSSA(nw.n, pl.Path)
		if err != nil {
			return nil, err
		}
		whole, _ = nw.evalSSA(ssa)
		if len(ssa) == 0 {
			whole = nw.sizeOf(p.Unique[0])
		}
	}
	sp.UnslicedFlops = min(unsliced, whole)
	sp.FlopOverhead = 1
	if sp.UnslicedFlops > 0 && len(sp.Labels) > 0 {
		// Rounding of the two sums may put the ratio a hair below 1.
		sp.FlopOverhead = max(sp.Flops/sp.UnslicedFlops, 1)
	}
	return sp, nil
}

// peakSSA computes what Plan.Peak reports for the sequence ssa without
// lowering it: at each step the results still waiting for their consumer,
// the step's result (except the last step's, which goes to the
// destination) and the pre-reduced copies of operands that hold labels
// found nowhere else.
func (nw *network) peakSSA(ssa [][2]int) float64 {
	for _, x := range nw.ext {
		if x == 0 {
			return 0
		}
	}
	n := nw.n
	count := slices.Clone(nw.count0)
	tensors := slices.Clone(nw.inputs)
	held := make([]float64, n+len(ssa))
	var live, peak float64
	for k, pr := range ssa {
		var tmp float64
		for _, id := range pr {
			if id >= n {
				continue
			}
			// A label only this operand holds (count 1: neither the other
			// side nor the output has it) is summed before the product.
			kept, reduced := 1.0, false
			for _, l := range tensors[id] {
				if count[l] == 1 {
					reduced = true
				} else {
					kept *= nw.ext[l]
				}
			}
			if reduced {
				tmp += kept
			}
		}
		out := nw.contract(tensors[pr[0]], tensors[pr[1]], count)
		tensors = append(tensors, out)
		var res float64
		if k < len(ssa)-1 {
			res = nw.sizeOf(out)
		}
		peak = max(peak, live+res+tmp)
		live += res
		held[n+k] = res
		for _, id := range pr {
			if id >= n {
				live -= held[id]
			}
		}
	}
	return peak
}

// sliceKey renders a slicing set for memoization.
func sliceKey(set []bool, tag string) string {
	var b strings.Builder
	b.WriteString(tag)
	for l, s := range set {
		if s {
			b.WriteByte(',')
			b.WriteString(strconv.Itoa(l))
		}
	}
	return b.String()
}
