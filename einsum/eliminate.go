package einsum

import (
	"math"
	"math/rand/v2"
	"slices"
)

// eliminate builds a contraction sequence from a variable elimination
// order, the classic heuristic for graphical models: repeatedly pick a
// summed label held by at least two tensors whose elimination creates the
// smallest tensor (min-weight; with temp > 0 the choice is perturbed by
// Gumbel noise of that relative scale), and contract every tensor holding
// it, two smallest first. The tensors left (holding only output labels,
// or disconnected) are then combined two smallest first.
func (nw *network) eliminate(temp float64, rng *rand.Rand) ([][2]int, error) {
	n := nw.n
	if n <= 1 {
		return nil, nil
	}
	L := len(nw.ext)
	count := slices.Clone(nw.count0)
	labels := make([][]int, n, 2*n)
	copy(labels, nw.inputs)
	alive := make([]bool, n, 2*n)
	holders := make([][]int, L)
	for t, ls := range labels {
		alive[t] = true
		for _, l := range ls {
			holders[l] = append(holders[l], t)
		}
	}
	logExt := make([]float64, L)
	for l, x := range nw.ext {
		logExt[l] = math.Log(max(x, 1))
	}
	mark := make([]int, L)
	stamp := 0
	var ssa [][2]int
	bySize := func(x, y int) int {
		sx, sy := nw.sizeOf(labels[x]), nw.sizeOf(labels[y])
		switch {
		case sx < sy:
			return -1
		case sx > sy:
			return 1
		}
		return x - y
	}
	contract := func(a, b int) int {
		id := len(labels)
		out := nw.contract(labels[a], labels[b], count)
		labels = append(labels, out)
		alive = append(alive, true)
		alive[a], alive[b] = false, false
		ssa = append(ssa, [2]int{a, b})
		for _, l := range out {
			holders[l] = append(holders[l], id)
		}
		return id
	}
	live := func(l int) []int {
		hs := holders[l][:0]
		for _, t := range holders[l] {
			if alive[t] {
				hs = append(hs, t)
			}
		}
		holders[l] = hs
		return hs
	}
	// score[l] is the log-size of the tensor that eliminating l creates;
	// it changes only for labels of tensors that were just merged.
	score := make([]float64, L)
	dirty := make([]bool, L)
	for l := range L {
		dirty[l] = true
	}
	rescore := func(l int) {
		dirty[l] = false
		score[l] = math.Inf(1)
		if nw.inOut[l] || count[l] < 2 {
			return
		}
		hs := live(l)
		if len(hs) < 2 {
			return
		}
		stamp++
		s := 0.0
		for _, t := range hs {
			for _, m := range labels[t] {
				if mark[m] != stamp {
					mark[m] = stamp
					if m != l {
						s += logExt[m]
					}
				}
			}
		}
		score[l] = s
	}
	for {
		best, bestScore := -1, math.Inf(1)
		for l := range L {
			if dirty[l] {
				rescore(l)
			}
			s := score[l]
			if math.IsInf(s, 1) {
				continue
			}
			if temp > 0 {
				s -= temp * math.Log(-math.Log(rng.Float64()))
			}
			if s < bestScore {
				best, bestScore = l, s
			}
		}
		if best < 0 {
			break
		}
		bucket := slices.Clone(live(best))
		for _, t := range bucket {
			for _, m := range labels[t] {
				dirty[m] = true
			}
		}
		for len(bucket) > 1 {
			slices.SortFunc(bucket, bySize)
			id := contract(bucket[0], bucket[1])
			bucket = append(bucket[2:], id)
		}
	}
	// What is left holds only output labels or is disconnected: combine
	// the pair that shares a label and minimises size(out) - size(a) -
	// size(b), else the two smallest.
	for {
		var rest []int
		for t := range labels {
			if alive[t] {
				rest = append(rest, t)
			}
		}
		if len(rest) < 2 {
			break
		}
		slices.SortFunc(rest, bySize)
		a, b := rest[0], rest[1]
		if len(rest) <= 64 {
			bestC := math.Inf(1)
			for i, x := range rest {
				for _, y := range rest[i+1:] {
					if !sharesLabel(labels[x], labels[y]) {
						continue
					}
					size, _ := nw.pairCost(labels[x], labels[y], count)
					if c := size - nw.sizeOf(labels[x]) - nw.sizeOf(labels[y]); c < bestC {
						a, b, bestC = x, y, c
					}
				}
			}
		}
		contract(a, b)
	}
	if nw.limit > 0 {
		if err := nw.checkLimit(ssa); err != nil {
			return nil, err
		}
	}
	return ssa, nil
}

func sharesLabel(a, b []int) bool {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			return true
		}
	}
	return false
}
