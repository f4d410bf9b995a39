package einsum

import "slices"

// lowPeakOrder reorders a contraction sequence, keeping its tree (every
// step's operands and result), so that the peak Plan.Peak counts is the
// smallest over the orders that finish one subtree before starting its
// sibling. For a step v with children A and B evaluated A first,
//
//	peak(v) = max(peak(A), res(A) + peak(B), res(A) + res(B) + res(v) + tmp(v))
//
// where res is a result's size (0 for operands and for the last step,
// which writes to the destination) and tmp the pre-reduced copies of
// operands; the order of the children is the one with the smaller peak.
// It also returns that peak. Each pair keeps its left and right operand.
func (nw *network) lowPeakOrder(ssa [][2]int) ([][2]int, float64) {
	n, m := nw.n, len(ssa)
	if m < 2 {
		return ssa, nw.peakSSA(ssa)
	}
	for _, x := range nw.ext {
		if x == 0 {
			return ssa, 0
		}
	}
	count := slices.Clone(nw.count0)
	labels := slices.Clone(nw.inputs)
	res := make([]float64, n+m)
	tmp := make([]float64, n+m)
	for k, pr := range ssa {
		// Labels only an operand holds are summed before the product; a
		// label's holders never change that, so this is order-free.
		for _, id := range pr {
			if id >= n {
				continue
			}
			kept, reduced := 1.0, false
			for _, l := range labels[id] {
				if count[l] == 1 {
					reduced = true
				} else {
					kept *= nw.ext[l]
				}
			}
			if reduced {
				tmp[n+k] += kept
			}
		}
		out := nw.contract(labels[pr[0]], labels[pr[1]], count)
		labels = append(labels, out)
		if k < m-1 {
			res[n+k] = nw.sizeOf(out)
		}
	}
	peak := make([]float64, n+m)
	first := make([]bool, m) // evaluate the right child first
	for k, pr := range ssa {
		v, a, b := n+k, pr[0], pr[1]
		top := res[a] + res[b] + res[v] + tmp[v]
		ab := max(peak[a], res[a]+peak[b], top)
		ba := max(peak[b], res[b]+peak[a], top)
		peak[v] = min(ab, ba)
		first[k] = ba < ab
	}
	out := make([][2]int, 0, m)
	var walk func(v int) int
	walk = func(v int) int {
		if v < n {
			return v
		}
		pr := ssa[v-n]
		var a, b int
		if first[v-n] {
			b = walk(pr[1])
			a = walk(pr[0])
		} else {
			a = walk(pr[0])
			b = walk(pr[1])
		}
		out = append(out, [2]int{a, b})
		return n + len(out) - 1
	}
	walk(n + m - 1)
	return out, peak[n+m-1]
}
