package einsum

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
)

// tree is a contraction tree: leaves 0..n-1 are the operands, internal
// node n+k is the k-th contraction of the sequence it was built from.
// Each node holds its labels (sorted) and, for internal nodes, its FLOPs.
type tree struct {
	nw          *network
	left, right []int
	labels      [][]int
	flops       []float64
	root        int
	scratch     dpScratch
}

func newTree(nw *network, ssa [][2]int) *tree {
	n := nw.n
	m := n + len(ssa)
	t := &tree{nw: nw, left: make([]int, m), right: make([]int, m), labels: make([][]int, m), flops: make([]float64, m)}
	count := slices.Clone(nw.count0)
	for i := range n {
		t.left[i], t.right[i] = -1, -1
		t.labels[i] = nw.inputs[i]
	}
	for k, pr := range ssa {
		id := n + k
		t.left[id], t.right[id] = pr[0], pr[1]
		_, t.flops[id] = nw.pairCost(t.labels[pr[0]], t.labels[pr[1]], count)
		t.labels[id] = nw.contract(t.labels[pr[0]], t.labels[pr[1]], count)
	}
	t.root = m - 1
	return t
}

// ssa returns the tree as a contraction sequence (children before
// parents, left subtree first).
func (t *tree) ssa() [][2]int {
	n := t.nw.n
	out := make([][2]int, 0, len(t.left)-n)
	var walk func(v int) int
	walk = func(v int) int {
		if v < n {
			return v
		}
		a := walk(t.left[v])
		b := walk(t.right[v])
		out = append(out, [2]int{a, b})
		return n + len(out) - 1
	}
	if len(t.left) > n {
		walk(t.root)
	}
	return out
}

// reconfigure re-optimizes the part of the tree just below v: it grows a
// frontier of up to k subtrees under v (always splitting the most
// expensive one), finds the cheapest way to contract the frontier into v
// with the exact subset search, and rewires the tree if that is cheaper.
// v's labels, and so the rest of the tree, are unchanged.
func (t *tree) reconfigure(v, k int, rng *rand.Rand) bool {
	n := t.nw.n
	frontier := []int{t.left[v], t.right[v]}
	inner := []int{v}
	current := t.flops[v]
	for len(frontier) < k {
		j := -1
		for i, f := range frontier {
			if f >= n && (j < 0 || t.flops[f] > t.flops[frontier[j]]) {
				j = i
			}
		}
		if j < 0 {
			break
		}
		if rng != nil && rng.IntN(2) == 0 {
			// Split a random internal frontier node instead.
			for {
				i := rng.IntN(len(frontier))
				if frontier[i] >= n {
					j = i
					break
				}
			}
		}
		f := frontier[j]
		frontier[j] = t.left[f]
		frontier = append(frontier, t.right[f])
		inner = append(inner, f)
		current += t.flops[f]
	}
	if len(frontier) < 3 {
		return false
	}
	// A local network over the frontier whose output is v's labels, with
	// labels renumbered monotonically.
	var all []int
	for _, f := range frontier {
		all = append(all, t.labels[f]...)
	}
	slices.Sort(all)
	all = slices.Compact(all)
	local := func(l int) int { i, _ := slices.BinarySearch(all, l); return i }
	sub := &network{n: len(frontier), limit: t.nw.limit, ext: make([]float64, len(all)),
		inputs: make([][]int, len(frontier)), inOut: make([]bool, len(all)), count0: make([]int, len(all))}
	for i, l := range all {
		sub.ext[i] = t.nw.ext[l]
	}
	for _, l := range t.labels[v] {
		sub.inOut[local(l)] = true
		sub.count0[local(l)]++
	}
	for i, f := range frontier {
		ls := make([]int, len(t.labels[f]))
		for j, l := range t.labels[f] {
			ls[j] = local(l)
			sub.count0[ls[j]]++
		}
		sub.inputs[i] = ls
	}
	lssa, err := sub.dp(true, &t.scratch)
	if err != nil {
		return false
	}
	cost, _ := sub.evalSSA(lssa)
	if !(cost < current*(1-1e-12)) {
		return false
	}
	// Rewire: local step s becomes node inner[...], the last one v.
	ids := slices.Clone(frontier)
	count := slices.Clone(sub.count0)
	ltensors := slices.Clone(sub.inputs)
	free := inner[1:]
	for s, pr := range lssa {
		id := v
		if s < len(lssa)-1 {
			id, free = free[0], free[1:]
		}
		_, f := sub.pairCost(ltensors[pr[0]], ltensors[pr[1]], count)
		out := sub.contract(ltensors[pr[0]], ltensors[pr[1]], count)
		ltensors = append(ltensors, out)
		glob := make([]int, len(out))
		for j, l := range out {
			glob[j] = all[l]
		}
		t.left[id], t.right[id] = ids[pr[0]], ids[pr[1]]
		t.labels[id], t.flops[id] = glob, f
		ids = append(ids, id)
	}
	return true
}

// improve applies reconfigure to every internal node, sweeping until a
// sweep changes nothing or maxSweeps is reached. With rng non-nil the
// frontiers are grown partly at random.
func (nw *network) improve(ssa [][2]int, k, maxSweeps int, rng *rand.Rand) [][2]int {
	if len(ssa) < 2 {
		return ssa
	}
	t := newTree(nw, ssa)
	for range maxSweeps {
		changed := false
		for v := nw.n; v < len(t.left); v++ {
			if t.reconfigure(v, k, rng) {
				changed = true
			}
		}
		if !changed {
			break
		}
	}
	return t.ssa()
}

// search is the optimizer for large networks: the best of 1 to 4
// independent runs (see searchWork) of searchOnce. A run draws candidate paths
// from the deterministic greedy and elimination heuristics and from
// restarts-2 randomized runs (one greedy for three eliminations), polishes
// the best few (max(4, 1000/n)) by subtree reconfiguration (exact
// re-optimization of every subtree of up to 8 leaves, repeated until
// nothing changes), and then runs 2 to 8 sweeps (400/n) of reconfiguration
// with larger (9-leaf), partly randomly grown subtrees on the winner.
// Deterministic for a given seed.
func (nw *network) search(restarts int, seed uint64) ([][2]int, error) {
	// Small networks are cheap: keep the best of a few independent runs.
	runs := min(max(searchWork/max(nw.n, 1), 1), 4)
	var best [][2]int
	bestF := math.Inf(1)
	for r := range runs {
		ssa, err := nw.searchOnce(restarts, seed+uint64(r)*0x9e3779b97f4a7c15)
		if err != nil {
			return nil, err
		}
		if f, _ := nw.evalSSA(ssa); f < bestF {
			best, bestF = ssa, f
		}
	}
	return best, nil
}

// searchWork sets how many independent search runs a network gets:
// 250/n, between 1 and 4 (four runs up to 62 tensors, one from 125).
const searchWork = 250

// searchOnce is one run of search with its own random stream.
func (nw *network) searchOnce(restarts int, seed uint64) ([][2]int, error) {
	rng := rand.New(rand.NewPCG(seed, 0x5851f42d4c957f2d))
	type cand struct {
		ssa   [][2]int
		flops float64
	}
	var cands []cand
	var firstErr error
	add := func(ssa [][2]int, err error) {
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			return
		}
		f, _ := nw.evalSSA(ssa)
		cands = append(cands, cand{ssa, f})
	}
	add(nw.greedy(greedyParams{costmod: 1}))
	add(nw.eliminate(0, nil))
	for i := range max(restarts-2, 0) {
		if i%4 == 0 {
			add(nw.greedy(greedyParams{
				costmod: 0.5 + 1.5*rng.Float64(),
				temp:    math.Exp(math.Log(0.01) + rng.Float64()*math.Log(100)),
				rng:     rng,
			}))
		} else {
			add(nw.eliminate(0.5*rng.Float64(), rng))
		}
	}
	if len(cands) == 0 {
		return nil, firstErr
	}
	slices.SortStableFunc(cands, func(a, b cand) int { return cmp.Compare(a.flops, b.flops) })
	var best [][2]int
	bestF := math.Inf(1)
	// Polishing costs about n reconfigurations per sweep: spend more on
	// small networks, where it is cheap.
	polish := min(max(1000/nw.n, 4), len(cands))
	rounds := min(max(400/nw.n, 2), 8)
	for _, c := range cands[:polish] {
		ssa := nw.improve(c.ssa, 8, 16, nil)
		if f, _ := nw.evalSSA(ssa); f < bestF {
			best, bestF = ssa, f
		}
	}
	for range rounds {
		best = nw.improve(best, 9, 1, rng)
	}
	return best, nil
}

// quickSearch is Auto's optimizer for large networks that are cheap to
// execute: the best of the greedy path, the elimination path and a few
// randomized greedy runs, polished by reconfiguration of subtrees of up to
// quickLeaves leaves. It costs a few milliseconds where search costs tens
// to hundreds, and keeps most of search's gain on chains and ladders.
func (nw *network) quickSearch(seed uint64) ([][2]int, error) {
	rng := rand.New(rand.NewPCG(seed, 0x2545f4914f6cdd1d))
	best, err := nw.greedy(greedyParams{costmod: 1})
	if err != nil {
		return nil, err
	}
	bestF, _ := nw.evalSSA(best)
	try := func(ssa [][2]int, err error) {
		if err != nil {
			return
		}
		if f, _ := nw.evalSSA(ssa); f < bestF {
			best, bestF = ssa, f
		}
	}
	try(nw.eliminate(0, nil))
	for range quickRestarts {
		try(nw.greedy(greedyParams{costmod: 0.5 + 1.5*rng.Float64(), temp: math.Exp(math.Log(0.01) + rng.Float64()*math.Log(100)), rng: rng}))
	}
	return nw.improve(best, quickLeaves, 8, nil), nil
}

// The effort of quickSearch.
const (
	quickRestarts = 6
	quickLeaves   = 8
)
