package einsum

// The peak of a plan models the reference executor (the CPU engine's):
// besides the step results waiting for their consumer and the result
// being computed, a step holds
//
//   - each side's pre-reduced copy (a compact buffer over LeftKept or
//     RightKept) when the side sums labels before the product;
//   - for a GEMM step, the copies its GemmLayout makes: a compact copy of
//     each side that cannot be read as a strided matrix, and a compact
//     buffer for the result when it can neither be written in place nor
//     in blocks;
//   - for the kernels that overwrite (element-wise products, dot and
//     matrix-vector products) and for the final map, a staging buffer of
//     the result when the target accumulates (a slice after the first of a
//     sliced contraction adds into the destination).
//
// Original operands are taken as dense column-major arrays of their
// problem's shapes (for the plan of one slice, the unsliced shapes, since
// a slice is a view of the whole operand), and the destination as a dense
// column-major array of the output.

// stridedMaxRank is the largest number of axes of extent > 1 the
// executor's strided kernels walk; a step with more falls back to GEMM.
const stridedMaxRank = 32

// peak computes Plan.Peak from the lowered steps (see above).
func (pl *Plan) peak() float64 { return pl.peakOf(true) }

// peakOf computes the peak of the lowered steps, with the executor's
// copies and staging buffers or (copies false) without them: then it
// counts the results and pre-reduced sides alone, as peakSSA does.
func (pl *Plan) peakOf(copies bool) float64 {
	p := pl.Problem
	for _, x := range p.Extents {
		if x == 0 {
			return 0
		}
	}
	nIn := len(p.Inputs)
	m := peakModel{p: p, steps: pl.Steps, layout: p.layout, copies: copies}
	if m.layout == nil {
		m.layout = p.Shapes
	}
	accumulate := p.layout != nil && copies
	if copies {
		nl := p.NumLabels
		m.a, m.b, m.c, m.dst = make([]int, nl), make([]int, nl), make([]int, nl), make([]int, nl)
		st := 1
		for _, l := range p.Output {
			m.dst[l] += st
			st *= p.Extents[l]
		}
	}
	held := make([]float64, nIn+len(pl.Steps)) // result sizes by tensor id
	var live, peak float64
	fin := &pl.Final
	for i := range pl.Steps {
		s := &pl.Steps[i]
		var res float64
		tgt, overwrite := m.dst, !accumulate
		if i < len(pl.Steps)-1 || len(fin.Reduce) > 0 {
			// Not written into the destination: a compact result.
			res = m.size(s.Out)
			tgt, overwrite = m.c, true
			if copies {
				m.compact(s.Out, tgt)
			}
		}
		peak = max(peak, live+res+m.step(s, tgt, overwrite))
		live += res - held[s.LeftID] - held[s.RightID]
		held[s.Result] = res
	}
	if (len(pl.Steps) == 0 || len(fin.Reduce) > 0) && accumulate {
		peak = max(peak, live+m.size(fin.Kept))
	}
	return peak
}

// peakModel lays out the tensors of a plan as the executor does. Every
// tensor is read by exactly one step, so the label strides (indexed by
// label id) of a step's sides and target are formed when the step comes,
// in scratch that only the labels of that tensor are read from.
type peakModel struct {
	p       *Problem
	steps   []Step
	layout  [][]int // operand shapes the strides come from
	copies  bool    // count layout copies and staging
	a, b, c []int   // scratch: left side, right side, compact target
	dst     []int   // the destination's label strides
	gemm    GemmLayout
}

func (m *peakModel) size(labels []int) float64 {
	n := 1.0
	for _, l := range labels {
		n *= float64(m.p.Extents[l])
	}
	return n
}

// compact writes into ls the label strides of a dense column-major
// buffer over labels and returns ls.
func (m *peakModel) compact(labels, ls []int) []int {
	st := 1
	for _, l := range labels {
		ls[l] = st
		st *= m.p.Extents[l]
	}
	return ls
}

// strides writes into ls the label strides of tensor id as the executor
// reads it (see Step.LeftLabels) and returns ls: an operand is dense over
// its layout shape, a step's result dense over the step's Out.
func (m *peakModel) strides(id int, ls []int) []int {
	nIn := len(m.p.Inputs)
	if id >= nIn {
		return m.compact(m.steps[id-nIn].Out, ls)
	}
	for _, l := range m.p.Inputs[id] {
		ls[l] = 0
	}
	st := 1
	for a, l := range m.p.Inputs[id] {
		if !m.p.Broadcast[id][a] {
			ls[l] += st
		}
		st *= m.layout[id][a]
	}
	return ls
}

// step returns the elements step s holds besides the results: its
// pre-reduced sides and the copies and staging its kernel makes, writing
// into a target with label strides tgt that overwrites or accumulates.
func (m *peakModel) step(s *Step, tgt []int, overwrite bool) float64 {
	var tmp float64
	if len(s.LeftReduce) > 0 {
		tmp += m.size(s.LeftKept)
	}
	if len(s.RightReduce) > 0 {
		tmp += m.size(s.RightKept)
	}
	if !m.copies {
		return tmp
	}
	switch {
	case len(s.Contracted) == 0 && m.rank(s.Out) <= stridedMaxRank,
		(s.M == 1 || s.N == 1) && m.rank(s.LeftFree, s.RightFree, s.Contracted, s.Batch) <= stridedMaxRank:
		if !overwrite {
			tmp += m.size(s.Out)
		}
		return tmp
	}
	a := m.side(s.LeftID, s.LeftReduce, s.LeftKept, m.a)
	b := m.side(s.RightID, s.RightReduce, s.RightKept, m.b)
	m.gemm.Decide(m.p.Extents, s, a, b, tgt)
	if m.gemm.PackLeft {
		tmp += m.size(s.LeftFree) * m.size(s.Contracted) * m.size(s.Batch)
	}
	if m.gemm.PackRight {
		tmp += m.size(s.Contracted) * m.size(s.RightFree) * m.size(s.Batch)
	}
	if m.gemm.CompactResult {
		tmp += m.size(s.Out)
	}
	return tmp
}

// side writes into ls the label strides a GEMM reads side id with: the
// tensor's own, or a compact buffer over kept when it pre-reduces.
func (m *peakModel) side(id int, reduce, kept, ls []int) []int {
	if len(reduce) > 0 {
		return m.compact(kept, ls)
	}
	return m.strides(id, ls)
}

// rank is the number of labels of extent > 1 in the groups.
func (m *peakModel) rank(groups ...[]int) int {
	n := 0
	for _, labels := range groups {
		for _, l := range labels {
			if m.p.Extents[l] != 1 {
				n++
			}
		}
	}
	return n
}

// fuseLabels reads the labels of a group as one axis through the label
// strides ls: it returns the product of their extents and the stride of
// the fused axis, and false when the labels (in group order, extent-1
// labels skipped) are not contiguous relative to each other.
func FuseGroup(ext, labels, ls []int) (n, stride int, ok bool) {
	n, next := 1, 0
	first := true
	for _, l := range labels {
		x := ext[l]
		if x == 1 {
			continue
		}
		if first {
			stride, first = ls[l], false
		} else if ls[l] != next {
			return 0, 0, false
		}
		next = ls[l] * x
		n *= x
	}
	return n, stride, true
}

// unitStride reports whether an r×c matrix with strides rs, cs has a
// unit-stride direction (or is a single row or column).
func UnitStride(r, c, rs, cs int) bool {
	return r <= 1 || c <= 1 || rs == 1 || rs == -1 || cs == 1 || cs == -1
}
