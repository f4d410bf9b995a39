package einsum

import (
	"container/heap"
	"math"
	"math/rand/v2"
	"slices"
)

// candidate is a pair of live tensors considered by the greedy search.
type candidate struct {
	cost  float64 // size(result) - costmod*(size(a)+size(b)), lower is better
	flops float64 // tie break
	a, b  int     // tensor ids, a < b
}

type candHeap []candidate

func (h candHeap) Len() int { return len(h) }
func (h candHeap) Less(i, j int) bool {
	x, y := h[i], h[j]
	if x.cost != y.cost {
		return x.cost < y.cost
	}
	if x.flops != y.flops {
		return x.flops < y.flops
	}
	if x.a != y.a {
		return x.a < y.a
	}
	return x.b < y.b
}
func (h candHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *candHeap) Push(x any)   { *h = append(*h, x.(candidate)) }
func (h *candHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// greedyParams tunes one greedy run. The zero value (with costmod 1) is
// the deterministic greedy; temp > 0 makes it a Boltzmann random choice
// among the best few candidates, as in random-greedy restarts.
type greedyParams struct {
	costmod float64
	temp    float64
	rng     *rand.Rand
}

// greedy builds a contraction sequence: repeatedly contract the pair of
// tensors sharing a label that minimises
//
//	size(result) - costmod*(size(a) + size(b))
//
// (ties by FLOPs, then ids); when no pair shares a label, contract the two
// smallest tensors (outer products). Pairs whose result exceeds the memory
// limit are skipped, except the final contraction whose result is the
// output.
func (nw *network) greedy(gp greedyParams) ([][2]int, error) {
	n := nw.n
	if n <= 1 {
		return nil, nil
	}
	count := slices.Clone(nw.count0)
	labels := make([][]int, n, 2*n)
	copy(labels, nw.inputs)
	sizes := make([]float64, n, 2*n)
	alive := make([]bool, n, 2*n)
	where := make([][]int, len(nw.ext))
	for t, ls := range labels {
		sizes[t] = nw.sizeOf(ls)
		alive[t] = true
		for _, l := range ls {
			where[l] = append(where[l], t)
		}
	}
	live := n
	h := &candHeap{}
	eval := func(a, b int) candidate {
		if a > b {
			a, b = b, a
		}
		size, flops := nw.pairCost(labels[a], labels[b], count)
		return candidate{cost: finiteOrder(size - gp.costmod*(sizes[a]+sizes[b])), flops: finiteOrder(flops), a: a, b: b}
	}
	// Candidate pairs share a label. A label on many tensors (a hyperedge)
	// would give a quadratic number of pairs: each of its tensors is paired
	// with the maxNeighbors smallest ones only, which keeps the candidates
	// (and the planning time) linear in the network's size.
	seen := map[[2]int]bool{}
	var near []int
	for _, ts := range where {
		near = smallest(ts, sizes, alive, near[:0])
		for _, x := range ts {
			for _, y := range near {
				k := [2]int{min(x, y), max(x, y)}
				if x != y && !seen[k] {
					seen[k] = true
					*h = append(*h, eval(x, y))
				}
			}
		}
	}
	heap.Init(h)
	mark := make([]int, n, 2*n) // mark[t] == id: t is already a neighbor of id
	var ssa [][2]int
	var pick []candidate
	contract := func(c candidate) {
		a, b := c.a, c.b
		id := len(labels)
		out := nw.contract(labels[a], labels[b], count)
		labels = append(labels, out)
		sizes = append(sizes, nw.sizeOf(out))
		alive = append(alive, true)
		alive[a], alive[b] = false, false
		live--
		ssa = append(ssa, [2]int{a, b})
		mark = append(mark, -1)
		for _, l := range out {
			ts := where[l][:0]
			for _, t := range where[l] {
				if alive[t] {
					ts = append(ts, t)
				}
			}
			where[l] = append(ts, id)
			near = smallest(ts, sizes, alive, near[:0])
			for _, t := range near {
				if mark[t] != id {
					mark[t] = id
					heap.Push(h, eval(t, id))
				}
			}
		}
	}
	for live > 1 {
		// Collect up to k fresh candidates (only the best one when
		// deterministic), refreshing stale costs lazily.
		k := 1
		if gp.temp > 0 {
			k = 8
		}
		pick = pick[:0]
		for h.Len() > 0 && len(pick) < k {
			c := heap.Pop(h).(candidate)
			if !alive[c.a] || !alive[c.b] {
				continue
			}
			if f := eval(c.a, c.b); f.cost != c.cost || f.flops != c.flops {
				heap.Push(h, f)
				continue
			}
			if nw.limit > 0 && live > 2 {
				if size, _ := nw.pairCost(labels[c.a], labels[c.b], count); size > nw.limit {
					continue
				}
			}
			pick = append(pick, c)
		}
		if len(pick) == 0 {
			c, err := nw.smallestPair(labels, sizes, alive, count, live)
			if err != nil {
				return nil, err
			}
			contract(c)
			continue
		}
		choice := 0
		if len(pick) > 1 {
			choice = boltzmann(pick, gp)
		}
		for i, c := range pick {
			if i != choice {
				heap.Push(h, c)
			}
		}
		contract(pick[choice])
	}
	return ssa, nil
}

// maxNeighbors bounds the tensors of one label that a tensor is paired
// with as a greedy candidate.
const maxNeighbors = 16

// smallest appends to out the alive tensors of ts, all of them when there
// are at most maxNeighbors, else the maxNeighbors smallest (ties by
// position).
func smallest(ts []int, sizes []float64, alive []bool, out []int) []int {
	if len(ts) <= maxNeighbors {
		for _, t := range ts {
			if alive[t] {
				out = append(out, t)
			}
		}
		return out
	}
	for _, t := range ts {
		if !alive[t] {
			continue
		}
		if len(out) == maxNeighbors && sizes[t] >= sizes[out[maxNeighbors-1]] {
			continue
		}
		if len(out) < maxNeighbors {
			out = append(out, t)
		} else {
			out[maxNeighbors-1] = t
		}
		for i := len(out) - 1; i > 0 && sizes[out[i]] < sizes[out[i-1]]; i-- {
			out[i], out[i-1] = out[i-1], out[i]
		}
	}
	return out
}

// finiteOrder maps NaN (from sizes that overflowed to +Inf on both sides of
// a difference) to +Inf, so that candidates stay totally ordered and a
// refreshed cost equals the stored one.
func finiteOrder(x float64) float64 {
	if x != x {
		return math.Inf(1)
	}
	return x
}

// boltzmann picks index i of the sorted candidates with probability
// proportional to exp(-(cost_i - cost_0) / (temp * |cost_0|)).
func boltzmann(pick []candidate, gp greedyParams) int {
	c0 := pick[0].cost
	scale := gp.temp * math.Abs(c0)
	if scale == 0 {
		scale = gp.temp
	}
	var w [8]float64
	total := 0.0
	for i, c := range pick {
		w[i] = math.Exp(-(c.cost - c0) / scale)
		total += w[i]
	}
	r := gp.rng.Float64() * total
	for i := range pick {
		r -= w[i]
		if r < 0 {
			return i
		}
	}
	return 0
}

// smallestPair returns the two smallest live tensors, for outer products
// once no live pair shares a label.
func (nw *network) smallestPair(labels [][]int, sizes []float64, alive []bool, count []int, live int) (candidate, error) {
	a, b := -1, -1
	for t := range labels {
		if !alive[t] {
			continue
		}
		switch {
		case a < 0 || sizes[t] < sizes[a]:
			a, b = t, a
		case b < 0 || sizes[t] < sizes[b]:
			b = t
		}
	}
	if a > b {
		a, b = b, a
	}
	size, flops := nw.pairCost(labels[a], labels[b], count)
	if nw.limit > 0 && live > 2 && size > nw.limit {
		err := newErr("plan", ErrMemoryLimit, -1, "",
			"every remaining contraction needs an intermediate larger than the memory limit (smallest: %g > %g elements)", size, nw.limit)
		return candidate{}, err
	}
	return candidate{flops: flops, a: a, b: b}, nil
}

// randomGreedy runs the deterministic greedy once and then restarts-1
// randomized greedy runs (Boltzmann choice among the best candidates,
// random cost modifier), keeping the sequence with the fewest FLOPs (ties:
// smaller largest intermediate). It is deterministic for a given seed.
func (nw *network) randomGreedy(restarts int, seed uint64) ([][2]int, error) {
	best, err := nw.greedy(greedyParams{costmod: 1})
	if err != nil && nw.limit == 0 {
		return nil, err
	}
	bestF, bestS := math.Inf(1), math.Inf(1)
	if err == nil {
		bestF, bestS = nw.evalSSA(best)
	}
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	for range restarts - 1 {
		gp := greedyParams{
			costmod: 0.5 + 1.5*rng.Float64(),
			temp:    math.Exp(math.Log(0.01) + rng.Float64()*math.Log(100)),
			rng:     rng,
		}
		ssa, e := nw.greedy(gp)
		if e != nil {
			continue
		}
		f, s := nw.evalSSA(ssa)
		if f < bestF || (f == bestF && s < bestS) {
			best, bestF, bestS, err = ssa, f, s, nil
		}
	}
	if best == nil && err != nil {
		return nil, err
	}
	return best, nil
}
