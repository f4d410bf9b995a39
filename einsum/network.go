package einsum

import (
	"math"
	"slices"
)

// network is the planner's view of a Problem: each operand as a sorted set
// of label ids, label extents as float64 (costs may exceed int range), and
// which labels the output keeps.
type network struct {
	p      *Problem
	n      int       // number of operands
	ext    []float64 // extent per label id
	inputs [][]int   // sorted distinct label ids per operand
	inOut  []bool    // label is in the output
	count0 []int     // operands holding the label, plus one if in the output
	limit  float64   // memory limit in elements, 0 for none
}

func newNetwork(p *Problem, limit float64) *network {
	nw := &network{p: p, n: len(p.Inputs), limit: limit}
	nw.ext = make([]float64, p.NumLabels)
	for l, x := range p.Extents {
		nw.ext[l] = float64(x)
	}
	nw.inOut = make([]bool, p.NumLabels)
	nw.count0 = make([]int, p.NumLabels)
	for _, l := range p.OutputUnique {
		nw.inOut[l] = true
		nw.count0[l]++
	}
	nw.inputs = make([][]int, nw.n)
	for k, u := range p.Unique {
		s := slices.Clone(u)
		slices.Sort(s)
		nw.inputs[k] = s
		for _, l := range s {
			nw.count0[l]++
		}
	}
	return nw
}

// sizeOf is the number of elements of a tensor with the given labels.
func (nw *network) sizeOf(labels []int) float64 {
	s := 1.0
	for _, l := range labels {
		s *= nw.ext[l]
	}
	return s
}

// pairCost computes, for contracting sorted label sets a and b given the
// current label counts, the result size and the step's FLOPs (see the
// package documentation, # Costs), without allocating.
func (nw *network) pairCost(a, b []int, count []int) (size, flops float64) {
	size, all := 1.0, 1.0
	removed := false
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		var l, uses int
		l, uses, i, j = nextLabel(a, b, i, j)
		x := nw.ext[l]
		all *= x
		if count[l] > uses {
			size *= x
		} else {
			removed = true
		}
	}
	if removed {
		return size, 2 * all
	}
	return size, all
}

// nextLabel steps the merge of the sorted label lists a and b at
// positions i and j (at least one not exhausted): it returns the next
// label, whether it occurs in one of them (uses 1) or both (2), and the
// advanced positions.
func nextLabel(a, b []int, i, j int) (l, uses, ni, nj int) {
	if j == len(b) || (i < len(a) && a[i] < b[j]) {
		return a[i], 1, i + 1, j
	}
	if i == len(a) || b[j] < a[i] {
		return b[j], 1, i, j + 1
	}
	return a[i], 2, i + 1, j + 1
}

// contract computes the sorted labels kept when contracting a and b and
// updates count in place.
func (nw *network) contract(a, b []int, count []int) []int {
	out := make([]int, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		var l, uses int
		l, uses, i, j = nextLabel(a, b, i, j)
		count[l] -= uses
		if count[l] > 0 {
			out = append(out, l)
			count[l]++
		}
	}
	return out
}

// evalSSA computes the total FLOPs and the largest result of a
// contraction sequence given as pairs of tensor ids (operands 0..n-1, the
// result of pair k has id n+k). It assumes a valid sequence.
func (nw *network) evalSSA(ssa [][2]int) (flops, largest float64) {
	count := slices.Clone(nw.count0)
	tensors := slices.Clone(nw.inputs)
	for _, pr := range ssa {
		a, b := tensors[pr[0]], tensors[pr[1]]
		size, f := nw.pairCost(a, b, count)
		flops += f
		largest = max(largest, size)
		tensors = append(tensors, nw.contract(a, b, count))
	}
	if len(ssa) == 0 {
		largest = nw.sizeOf(nw.p.OutputUnique)
	}
	return flops, largest
}

// naiveFlops is the cost of evaluating the expression as one nested loop,
// with NumPy's convention: the product of all extents times (n-1 multiply
// operations, at least 1) plus one add when some label appears in more
// than one operand.
func (nw *network) naiveFlops() float64 {
	all, sum := 1.0, 0
	for l := range nw.ext {
		all *= nw.ext[l]
	}
	for _, s := range nw.inputs {
		sum += len(s)
	}
	f := float64(max(1, nw.n-1))
	if sum > nw.p.NumLabels {
		f++
	}
	return all * f
}

// ssaToLinear converts an id-based sequence into NumPy's linear format:
// positions into the current operand list, the pair removed and the result
// appended. Each pair keeps the order of ssa (left operand first).
func ssaToLinear(n int, ssa [][2]int) [][2]int {
	cur := make([]int, n)
	for i := range cur {
		cur[i] = i
	}
	lin := make([][2]int, len(ssa))
	for k, pr := range ssa {
		i, j := slices.Index(cur, pr[0]), slices.Index(cur, pr[1])
		lin[k] = [2]int{i, j}
		lo, hi := min(i, j), max(i, j)
		cur = slices.Delete(cur, hi, hi+1)
		cur = slices.Delete(cur, lo, lo+1)
		cur = append(cur, n+k)
	}
	return lin
}

// linearToSSA validates a linear path and converts it to tensor ids. The
// pair order is kept: the first position is the left operand.
func linearToSSA(n int, path [][2]int) ([][2]int, error) {
	if want := max(n-1, 0); len(path) != want {
		err := newErr("path", ErrPath, -1, "", "path has %d steps but %d operands need %d", len(path), n, want)
		err.Extents = []int{len(path), want}
		return nil, err
	}
	cur := make([]int, n)
	for i := range cur {
		cur[i] = i
	}
	ssa := make([][2]int, len(path))
	for k, pr := range path {
		i, j := pr[0], pr[1]
		for _, x := range pr {
			if x < 0 || x >= len(cur) {
				err := newErr("path", ErrPath, -1, "", "step %d: position %d out of range [0, %d)", k, x, len(cur))
				err.Extents = []int{x, len(cur)}
				return nil, err
			}
		}
		if i == j {
			return nil, newErr("path", ErrPath, -1, "", "step %d: pair (%d, %d) names the same operand twice", k, i, j)
		}
		ssa[k] = [2]int{cur[i], cur[j]}
		lo, hi := min(i, j), max(i, j)
		cur = slices.Delete(cur, hi, hi+1)
		cur = slices.Delete(cur, lo, lo+1)
		cur = append(cur, n+k)
	}
	return ssa, nil
}

// satMul multiplies non-negative ints, saturating at math.MaxInt.
func satMul(a, b int) int {
	if a == 0 || b == 0 {
		return 0
	}
	if a > math.MaxInt/b {
		return math.MaxInt
	}
	return a * b
}
