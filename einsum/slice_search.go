package einsum

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
)

// The effort of the slicing search (see NewSlicedPlan).
const (
	// sliceTrials is the number of slicing orders tried: one greedy, the
	// others with randomly perturbed choices.
	sliceTrials = 4
	// sliceTemp is the spread of the perturbation, in log units of the
	// score.
	sliceTemp = 0.5
	// stepFlops is the fixed cost of one step in the search's objective,
	// in FLOPs: a kernel call costs microseconds whatever its size, so
	// many tiny slices are not free.
	stepFlops = 1e4
	// quickMax is the largest network the search replans with
	// quickSearch; larger ones get the better of the greedy and
	// elimination paths.
	quickMax = 64
)

// NewSlicedPlan plans p so that the peak of one slice (Plan.Peak of the
// slice's plan) is at most opts.MemoryLimit elements, choosing the labels
// to slice so that the total cost, slices × FLOPs of one slice, stays
// small. opts.MemoryLimit 0 means no limit; the other options select the
// optimizer as for NewPlan. Output labels are sliced only with
// opts.SliceOutput (and then only those that appear once in the output).
//
// When the best unsliced plan without a limit fits, it is returned
// unsliced (Slices 1). Otherwise the search slices dynamically: on the
// current path it scores every label that may be sliced by how much
// slicing it lowers the peak per unit of added total cost (see choose),
// slices the best one, and re-optimizes the path of the sliced problem
// (the problem with that label's extent set to 1), until the peak fits.
// Each replanning keeps the better of the plan without a bound and plans
// whose intermediates are bounded by a multiple of the limit, and orders
// the steps of its tree for the lowest peak. Labels that the final path no
// longer needs are then unsliced again when that keeps the peak within
// the limit and lowers the total cost. Several orders are tried (one
// greedy, the others with perturbed scores, seeded by opts.Seed) and the
// cheapest slicing is kept; the search counts a fixed cost per step of
// every slice besides the FLOPs, so that it does not trade a few FLOPs for
// millions of tiny slices. During the search, networks of more than
// AutoOptimalMax operands are replanned with a quick search (exact
// search below), and the chosen slicing is planned again with the
// caller's strategy, keeping the cheaper plan; with Given the caller's
// path is kept throughout. The result is deterministic for a given
// opts.Seed.
//
// A limit below the smallest peak any slicing reaches (the fully sliced
// problem's among them) is an error wrapping ErrLimitTooSmall whose
// message names that minimum; its Extents hold the limit and the minimum,
// rounded up to ints. A limit that the search meets only with more than
// MaxSlices slices is an ErrMemoryLimit error.
//
// With opts.Workers w > 1 the slicing may instead be planned for w slices
// evaluated at once within the limit (see SlicedPlan.Workers). When the
// slicing for one slice at a time already fits w slices at once it is
// kept (with Workers w). Otherwise a second search aims at
// (limit - (w-1)·size(output))/w per slice, and its slicing is kept when
// its time per worker is lower than the first one's on a team working
// inside each slice, both costed as the search costs a slicing (FLOPs and
// a fixed cost per step of every slice). Concurrent slices are taken to run 0.9·w times as
// fast as one; a team inside a slice speeds up only the steps of at least
// teamStepFlops (the smaller ones run on the caller), by w, so a slice
// whose FLOPs are a share f in such steps runs 1/(1 - f + f/w) times as
// fast. Slices of small steps (the usual case: slicing makes them small)
// thus take the second slicing up to 1.8 times the first one's cost for
// w = 2.
func NewSlicedPlan(p *Problem, opts Options) (*SlicedPlan, error) {
	if opts.Workers < 0 {
		return nil, newErr("slice", ErrOption, -1, "", "workers %d is negative", opts.Workers)
	}
	w := opts.Workers
	opts.Workers = 0
	one, err := newSlicedPlan(p, opts)
	if err != nil || w < 2 || one.Slices == 1 {
		return one, err
	}
	if one.Concurrency(w, one.Limit) == w {
		one.Workers = w
		return one, nil
	}
	each := math.Floor((opts.MemoryLimit - float64(w-1)*p.OutputSize()) / float64(w))
	if each < 1 {
		return one, nil
	}
	o := opts
	o.MemoryLimit = each
	many, err := newSlicedPlan(p, o)
	if err != nil || many.Slices < w {
		return one, nil
	}
	big := 0.0
	for i := range one.Plan.Steps {
		if f := one.Plan.Steps[i].Flops; f >= teamStepFlops {
			big += f
		}
	}
	share := 0.0
	if one.Plan.Flops > 0 {
		share = big / one.Plan.Flops
	}
	if slicesCost(float64(many.Slices), many.Plan)/(0.9*float64(w)) >= slicesCost(float64(one.Slices), one.Plan)*(1-share+share/float64(w)) {
		return one, nil
	}
	many.Limit, many.Workers = opts.MemoryLimit, w
	return many, nil
}

// teamStepFlops is the cost, in FLOPs, from which a step is taken to run
// on the whole team (a GEMM of order 64); smaller ones run on the caller.
const teamStepFlops = 1 << 18

// newSlicedPlan is NewSlicedPlan for slices evaluated one at a time.
func newSlicedPlan(p *Problem, opts Options) (*SlicedPlan, error) {
	limit := opts.MemoryLimit
	if !(limit >= 0) || math.IsInf(limit, 0) {
		return nil, newErr("slice", ErrOption, -1, "", "memory limit %g is not a finite number >= 0", limit)
	}
	opts.MemoryLimit = 0
	base, err := NewPlan(p, opts)
	if err != nil {
		return nil, err
	}
	none := make([]bool, p.NumLabels)
	if limit == 0 || base.Peak <= limit {
		return assemble(p, none, nil, base, nil, base.Flops, limit)
	}
	search := func(output bool) (*SlicedPlan, error) {
		s := &slicer{p: p, opts: opts, limit: limit, base: base, memo: map[string]*Plan{}, minPeak: base.Peak}
		for l, x := range p.Extents {
			if n := p.OutputAxes(l); x > 1 && (n == 0 || n == 1 && output) {
				s.cands = append(s.cands, l)
			}
		}
		return s.run()
	}
	sp, err := search(opts.SliceOutput)
	if !opts.SliceOutput {
		return sp, err
	}
	// More labels to choose from can lead the greedy search astray: keep
	// the slicing of summed labels alone when it costs less.
	if summed, e := search(false); e == nil && (err != nil || slicedCost(summed) < slicedCost(sp)) {
		return summed, nil
	}
	return sp, err
}

// slicedCost compares a slicing of summed labels with one that may slice
// output labels: the FLOPs, stepFlops per step of every slice, and
// outputElemFlops per element of output each slice writes (a slice of
// summed labels adds into the whole output, reading and writing all of
// it; one sliced on output labels writes its part only).
func slicedCost(sp *SlicedPlan) float64 {
	return sp.Flops + float64(sp.Slices)*(stepFlops*float64(len(sp.Plan.Steps))+outputElemFlops*sp.Plan.Problem.OutputSize())
}

// outputElemFlops is the cost, in FLOPs, of one output element a slice
// adds into the destination: reading and writing it from memory takes
// about as long as 16 FLOPs (the open MERA at 1/32 of its peak, whose
// output is 344 MB: 1200 slices of summed labels took 25 s, 360 slices
// that also cut output labels 7.5 s at 2.5 times the FLOPs).
const outputElemFlops = 16

// slicer holds the state of one NewSlicedPlan search.
type slicer struct {
	p       *Problem
	opts    Options // the caller's, without the limit
	limit   float64
	base    *Plan
	cands   []int            // labels that may be sliced
	width   []int            // chunk widths by label id (nil: 1), set by widen
	memo    map[string]*Plan // plans by slicing and options (nil: failed)
	minPeak float64          // smallest peak of any plan made
}

// plan plans the problem sliced on set, with the caller's options (full)
// or the search's cheaper replanning seeded by seed (see quickPath); bound
// > 0 bounds every intermediate by bound elements. Except with Given, the
// path is reordered for a low peak (lowPeakOrder). It returns nil when
// planning fails.
func (s *slicer) plan(set []bool, full bool, seed uint64, bound float64) *Plan {
	tag := "q" + strconv.FormatUint(seed, 10)
	if full {
		tag = "f"
	}
	tag += "/" + strconv.FormatFloat(bound, 'g', -1, 64)
	for l, w := range s.width {
		if w > 0 {
			tag += "/" + strconv.Itoa(l) + "x" + strconv.Itoa(w)
		}
	}
	key := sliceKey(set, tag)
	if pl, ok := s.memo[key]; ok {
		return pl
	}
	pl := s.replan(set, full, seed, bound)
	s.memo[key] = pl
	if pl != nil {
		s.minPeak = min(s.minPeak, pl.Peak)
	}
	return pl
}

func (s *slicer) replan(set []bool, full bool, seed uint64, bound float64) *Plan {
	sub, err := slicedProblem(s.p, set, s.width, -1)
	if err != nil {
		return nil
	}
	o := s.opts
	o.MemoryLimit = bound
	var pl *Plan
	var ssa [][2]int
	nw := newNetwork(sub, o.MemoryLimit)
	switch {
	case o.Strategy == Given:
		return s.planned(NewPlan(sub, o))
	case full:
		if pl = s.planned(NewPlan(sub, o)); pl == nil {
			return nil
		}
		ssa, _ = linearToSSA(nw.n, pl.Path)
	default:
		if ssa, err = s.quickPath(nw, seed); err != nil {
			return nil
		}
	}
	low, _ := nw.lowPeakOrder(ssa)
	strategy := o.Strategy
	if pl != nil {
		strategy = pl.Strategy
	}
	// The reordering lowers the peak of the intermediates; the copies
	// Plan.Peak also counts may still favour the plan as it was.
	if c := nw.finish(o, strategy, low); pl == nil || c.Peak < pl.Peak {
		return c
	}
	return pl
}

func (s *slicer) planned(pl *Plan, err error) *Plan {
	if err != nil {
		return nil
	}
	return pl
}

// quickPath is the search's replanning: the caller's Greedy, else the
// exact optimizer for up to AutoOptimalMax operands, quickSearch up to
// quickMax operands and the better of the greedy and elimination paths
// beyond.
func (s *slicer) quickPath(nw *network, seed uint64) ([][2]int, error) {
	switch {
	case s.opts.Strategy == Greedy:
		return nw.greedy(greedyParams{costmod: 1})
	case nw.n <= AutoOptimalMax:
		return nw.optimal()
	case nw.n <= quickMax:
		return nw.quickSearch(seed)
	}
	g, err := nw.greedy(greedyParams{costmod: 1})
	el, e := nw.eliminate(0, nil)
	switch {
	case e != nil:
		return g, err
	case err != nil:
		return el, nil
	}
	if fe, _ := nw.evalSSA(el); fe < func() float64 { fg, _ := nw.evalSSA(g); return fg }() {
		return el, nil
	}
	return g, nil
}

// best returns the plan for slicing set: the unconstrained plan when its
// peak fits; else the plan under the tightest bound on every intermediate
// among the limit times 1, 4, 16, ... (below the unconstrained plan's
// largest intermediate) that planning meets, which keeps intermediates
// small even when it does not fit yet and so guides the next slicing
// step; else the unconstrained plan.
func (s *slicer) best(set []bool, full bool, seed uint64) *Plan {
	pl := s.plan(set, full, seed, 0)
	if pl == nil || s.fits(pl) {
		return pl
	}
	for f := 1.0; f*s.limit < pl.Largest; f *= 4 {
		if c := s.plan(set, full, seed, f*s.limit); c != nil && c.Peak < pl.Peak {
			return c
		}
	}
	return pl
}

func (s *slicer) fits(pl *Plan) bool { return pl != nil && pl.Peak <= s.limit }

// count is the number of slices of set, in chunks of s.width.
func (s *slicer) count(set []bool) float64 { return s.countWidth(set, s.width) }

// countWidth is the number of slices of set in chunks of width[l] (1
// where width is nil or 0), a shorter last chunk counted as one.
func (s *slicer) countWidth(set []bool, width []int) float64 {
	n := 1.0
	for l, in := range set {
		if in {
			w := 1
			if width != nil && width[l] > 0 {
				w = width[l]
			}
			n *= float64((s.p.Extents[l] + w - 1) / w)
		}
	}
	return n
}

// cost is the search's objective for slicing set with slice plan pl:
// slices × (FLOPs of one slice + stepFlops per step), the FLOPs plus the
// executor's fixed cost of every step of every slice.
func (s *slicer) cost(set []bool, pl *Plan) float64 { return slicesCost(s.count(set), pl) }

// slicesCost is the search's objective for n slices of plan pl.
func slicesCost(n float64, pl *Plan) float64 {
	return n * (pl.Flops + stepFlops*float64(len(pl.Steps)))
}

func (s *slicer) run() (*SlicedPlan, error) {
	var bestSet []bool
	var bestPl *Plan
	bestCost := math.Inf(1)
	consider := func(set []bool, pl *Plan) {
		if !s.fits(pl) || s.count(set) > MaxSlices {
			return
		}
		c := s.cost(set, pl)
		if c < bestCost || (c == bestCost && s.count(set) < s.count(bestSet)) {
			bestSet, bestPl, bestCost = slices.Clone(set), pl, c
		}
	}
	rng := rand.New(rand.NewPCG(s.opts.Seed, 0x6a09e667f3bcc909))
	for t := range sliceTrials {
		seed := s.opts.Seed + uint64(t)
		temp := 0.0
		if t > 0 {
			temp = sliceTemp
		}
		set, pl := s.grow(seed, rng, temp)
		if s.fits(pl) {
			set, pl = s.shrink(set, pl, seed)
			consider(set, pl)
		}
	}
	if bestPl == nil {
		set, pl := s.topDown(s.opts.Seed)
		if pl != nil {
			consider(set, pl)
		}
	}
	if bestPl == nil {
		return nil, s.fail()
	}
	if s.opts.Strategy != Given {
		consider(bestSet, s.best(bestSet, true, 0))
	}
	var tail int
	s.width, tail, bestPl, _, _ = s.widen(bestSet, bestPl)
	tp := s.tail(bestSet, tail, bestPl)
	// Replanning at the chosen widths may find a path of a lower peak,
	// which may in turn take wider chunks: alternate the two while the
	// cost falls (a few rounds).
	for round := 0; round < widenRounds && s.opts.Strategy != Given; round++ {
		q := s.best(bestSet, true, 0)
		if !s.fits(q) {
			break
		}
		if tq := s.tail(bestSet, tail, q); tail >= 0 && !s.fits(tq) {
			break
		}
		// The replanned path, widened anew if that helps, replaces the
		// current one when it costs less.
		w, t, p, c := s.width, tail, q, s.cost(bestSet, q)
		if ww, wt, wp, wc, better := s.widen(bestSet, q); better {
			w, t, p, c = ww, wt, wp, wc
		}
		if c >= s.cost(bestSet, bestPl) {
			break
		}
		s.width, tail, bestPl = w, t, p
		tp = s.tail(bestSet, tail, bestPl)
	}
	if s.opts.Strategy != Given {
		tail, bestPl, tp = s.trialWidths(bestSet, tail, bestPl, tp)
	}
	return assemble(s.p, bestSet, s.width, bestPl, tp, s.base.Flops, s.limit)
}

// trialWidths plans the slicing set again with the largest sliced label at
// trial widths, divisors of its extent from twice its current width on,
// each at least twice the last, while the replanned slice fits: a path
// planned for one value of a label may hold a peak that grows fast with
// the chunk width, where a path planned for wider chunks holds less per
// value. Each replanned path is also widened anew. The cheapest fitting
// configuration (the current one, tail, pl and tp, included) is kept in
// s.width and returned.
func (s *slicer) trialWidths(set []bool, tail int, pl, tp *Plan) (int, *Plan, *Plan) {
	labels := s.largestFirst(set)
	if len(labels) == 0 {
		return tail, pl, tp
	}
	l := labels[0]
	best := slices.Clone(s.width)
	if best == nil {
		best = make([]int, s.p.NumLabels)
	}
	bestCost := s.cost(set, pl)
	cur := max(best[l], 1)
	last := cur
	for _, w := range slices.Backward(divisorsDown(s.p.Extents[l])) {
		if w < 2*last {
			continue
		}
		last = w
		s.width = slices.Clone(best)
		s.width[l] = w
		q := s.best(set, false, 0)
		if !s.fits(q) {
			break
		}
		qt := s.tail(set, tail, q)
		if tail >= 0 && !s.fits(qt) {
			break
		}
		if c := s.cost(set, q); c < bestCost {
			best, bestCost, pl, tp = slices.Clone(s.width), c, q, qt
		}
		if ww, wt, wp, wc, better := s.widen(set, q); better && wc < bestCost {
			s.width = ww
			best, bestCost, tail, pl, tp = ww, wc, wt, wp, s.tail(set, wt, wp)
		}
	}
	s.width = best
	return tail, pl, tp
}

// widenRounds bounds the alternations of replanning and widening.
const widenRounds = 3

// tail plans, on pl's path, the slices that take the shorter last chunk
// of label tail under s.width (nil for tail -1 or when planning fails).
func (s *slicer) tail(set []bool, tail int, pl *Plan) *Plan {
	return s.planned(tailPlan(s.p, set, s.width, tail, pl))
}

// widen lets the sliced labels of set take chunks of several consecutive
// values: label by label, largest extent first, the widest chunk whose
// slicing still fits the limit on pl's path (the full chunks and, for a
// width that does not divide the extent, the shorter last one) and lowers
// the cost. On a fixed path a wider chunk never adds FLOPs (a step that
// touches the label does the same work in fewer slices; one that does not
// is repeated fewer times), takes fewer steps in all, and keeps the
// steps' matrices wide. The first label may take any width (one per
// number of chunks); once a label has a shorter last chunk, the others
// take divisors of their extents. Since the peak grows with the width on
// a fixed path, the widest fitting width is found by bisection. It
// returns the widths by label id (0: not widened), the label with a
// shorter last chunk (-1: none), the plan of one full slice, its cost and
// whether any width lowered the cost of pl at the current widths s.width
// (if not, the widths are all 0 and the plan is pl).
func (s *slicer) widen(set []bool, pl *Plan) ([]int, int, *Plan, float64, bool) {
	width := make([]int, s.p.NumLabels)
	tail := -1
	cost := s.cost(set, pl)
	better := false
	// plan returns the slice plan with label l at width w, the cost of
	// all slices (those of a shorter last chunk at their own plan's) and
	// whether the plans fit.
	plan := func(l, w int) (*Plan, float64, bool) {
		width[l] = w
		defer func() { width[l] = 0 }()
		sub, err := slicedProblem(s.p, set, width, -1)
		if err != nil {
			return nil, 0, false
		}
		q := s.planned(NewPlan(sub, Options{Strategy: Given, Path: pl.Path}))
		if !s.fits(q) {
			return q, 0, false
		}
		n := s.countWidth(set, width)
		if e := s.p.Extents[l]; e%w != 0 {
			tq := s.planned(tailPlan(s.p, set, width, l, q))
			if !s.fits(tq) {
				return q, 0, false
			}
			tails := n / float64((e+w-1)/w)
			return q, slicesCost(n-tails, q) + slicesCost(tails, tq), true
		}
		return q, slicesCost(n, q), true
	}
	for _, l := range s.largestFirst(set) {
		e := s.p.Extents[l]
		cands := divisorsDown(e)
		if tail < 0 {
			cands = widthsDown(e)
		}
		// cands is decreasing; find the first that fits, keeping the
		// plan of the last probe that did.
		var q *Plan
		var c float64
		i := sort.Search(len(cands), func(i int) bool {
			pq, pc, ok := plan(l, cands[i])
			if ok {
				q, c = pq, pc
			}
			return ok
		})
		if i == len(cands) {
			continue
		}
		if c < cost {
			pl, cost, better = q, c, true
			width[l] = cands[i]
			if e%cands[i] != 0 {
				tail = l
			}
		}
	}
	return width, tail, pl, cost, better
}

// widthsDown returns the widths between 2 and n-1 that cut n into
// different numbers of chunks (⌈n/c⌉ for c = 2, 3, ...), largest first.
func widthsDown(n int) []int {
	var out []int
	for c := 2; c < n; c++ {
		if w := (n + c - 1) / c; w >= 2 && (len(out) == 0 || w < out[len(out)-1]) {
			out = append(out, w)
		}
	}
	return out
}

// largestFirst returns the labels in set, largest extent first (ties in
// label order).
func (s *slicer) largestFirst(set []bool) []int {
	var in []int
	for l, v := range set {
		if v {
			in = append(in, l)
		}
	}
	slices.SortStableFunc(in, func(a, b int) int { return cmp.Compare(s.p.Extents[b], s.p.Extents[a]) })
	return in
}

// divisorsDown returns the divisors of n between 2 and n-1, largest first.
func divisorsDown(n int) []int {
	var lo, hi []int
	for d := 2; d*d <= n; d++ {
		if n%d == 0 {
			lo = append(lo, d)
			if d*d != n {
				hi = append(hi, n/d)
			}
		}
	}
	slices.Reverse(lo)
	return append(hi, lo...)
}

// grow slices one label at a time (see choose) until the peak fits or no
// label lowers it.
func (s *slicer) grow(seed uint64, rng *rand.Rand, temp float64) ([]bool, *Plan) {
	set := make([]bool, s.p.NumLabels)
	pl := s.best(set, false, seed)
	for pl != nil && !s.fits(pl) {
		l := s.choose(set, pl, rng, temp)
		if l < 0 {
			break
		}
		set[l] = true
		pl = s.best(set, false, seed)
	}
	return set, pl
}

// choose scores the labels that may still be sliced on pl's path (fixed)
// and returns the best one, or -1 when none lowers the memory above the
// limit within MaxSlices. A label's gain is how much slicing it lowers the
// peak P, plus a little for lowering the excess E (the sum over steps of
// the memory they hold beyond the limit), which credits a label that
// lowers one of several steps of equal memory:
//
//	gain = log(P / P') + 10⁻³ · log((E + limit) / (E' + limit)).
//
// Its price is the growth of the total cost (see cost). It returns the
// label of the lowest
//
//	score = (log(total after / total before) + 10⁻³) / gain,
//
// with temp > 0 the logarithm of each score perturbed by normal noise of
// that spread.
func (s *slicer) choose(set []bool, pl *Plan, rng *rand.Rand, temp float64) int {
	nw := newNetwork(pl.Problem, 0)
	ssa, err := linearToSSA(nw.n, pl.Path)
	if err != nil {
		return -1
	}
	// The effects count results and pre-reduced sides; the executor's
	// copies, which Plan.Peak adds, grow and shrink with them, so the
	// limit is scaled by the share of the peak they leave.
	limit := s.limit
	if pl.Peak > 0 {
		limit *= pl.peakOf(false) / pl.Peak
	}
	fx := nw.sliceEffects(ssa, limit)
	if !(fx.excess > 0) {
		return -1
	}
	n := s.count(set)
	fixed := stepFlops * float64(len(ssa))
	best, bestKey := -1, math.Inf(1)
	for _, l := range s.cands {
		x := nw.ext[l]
		if set[l] || n*x > MaxSlices || !(fx.after[l] < fx.excess) {
			continue
		}
		ratio := (x*fx.flops - (x-1)*fx.touching[l] + x*fixed) / (fx.flops + fixed)
		gain := math.Log(fx.peak/fx.peakAfter[l]) + 1e-3*math.Log((fx.excess+limit)/(fx.after[l]+limit))
		key := math.Log((math.Log(max(ratio, 1)) + 1e-3) / gain)
		if temp > 0 {
			key += temp * rng.NormFloat64()
		}
		if key < bestKey {
			best, bestKey = l, key
		}
	}
	return best
}

// effects describes what slicing each label would do to a fixed sequence:
// flops is the sequence's cost and touching[l] the cost of its steps that
// touch label l (slicing l turns the total x·flops into x·flops - (x-1)·
// touching[l], x the extent); peak is its peak (as Plan.Peak counts it)
// and peakAfter[l] the peak with l sliced; excess is the sum over steps of
// the memory they hold beyond the limit, and after[l] that sum with l
// sliced.
type effects struct {
	flops, peak, excess        float64
	touching, peakAfter, after []float64
}

// sliceEffects computes the effects of slicing every label on ssa, in one
// pass: a step's memory shrinks, with l sliced, by (1 - 1/ext(l)) of the
// size of every tensor it holds that carries l.
func (nw *network) sliceEffects(ssa [][2]int, limit float64) effects {
	n, L := nw.n, len(nw.ext)
	fx := effects{touching: make([]float64, L), peakAfter: make([]float64, L), after: make([]float64, L)}
	count := slices.Clone(nw.count0)
	tensors := slices.Clone(nw.inputs)
	size := make([]float64, n, n+len(ssa))
	for k := range n {
		size[k] = nw.sizeOf(tensors[k])
	}
	red := make([]float64, L)
	var touched, live []int // labels with red != 0; intermediates held
	var liveSum float64
	var kept [2][]int
	// Steps over the limit, and for each label the steps (increasing)
	// where it lowers the memory.
	var overMem []float64
	lowers := make([][]int32, L)
	hold := func(labels []int, sz float64) {
		for _, l := range labels {
			if red[l] == 0 {
				touched = append(touched, l)
			}
			red[l] += sz * (1 - 1/nw.ext[l])
		}
	}
	for k, pr := range ssa {
		a, b := tensors[pr[0]], tensors[pr[1]]
		_, f := nw.pairCost(a, b, count)
		fx.flops += f
		for i, j := 0, 0; i < len(a) || j < len(b); {
			var l int
			l, _, i, j = nextLabel(a, b, i, j)
			fx.touching[l] += f
		}
		// Pre-reduced operands (labels only they hold) are copied.
		var tmp float64
		for i, id := range pr {
			kept[i] = kept[i][:0]
			if id >= n {
				continue
			}
			reduced := false
			for _, l := range tensors[id] {
				if count[l] == 1 {
					reduced = true
				} else {
					kept[i] = append(kept[i], l)
				}
			}
			if !reduced {
				kept[i] = kept[i][:0]
				continue
			}
			tmp += nw.sizeOf(kept[i])
		}
		out := nw.contract(a, b, count)
		tensors = append(tensors, out)
		var res float64
		if k < len(ssa)-1 {
			res = nw.sizeOf(out)
		}
		size = append(size, res)
		mem := liveSum + res + tmp
		fx.peak = max(fx.peak, mem)
		if mem > limit {
			over := mem - limit
			fx.excess += over
			for _, t := range live {
				hold(tensors[t], size[t])
			}
			hold(out, res)
			for i := range kept {
				if len(kept[i]) > 0 {
					hold(kept[i], nw.sizeOf(kept[i]))
				}
			}
			step := int32(len(overMem))
			overMem = append(overMem, mem)
			for _, l := range touched {
				if red[l] > 0 {
					fx.after[l] += max(over-red[l], 0) - over
					fx.peakAfter[l] = max(fx.peakAfter[l], mem-red[l])
					lowers[l] = append(lowers[l], step)
				}
				red[l] = 0
			}
			touched = touched[:0]
		}
		live = slices.DeleteFunc(live, func(t int) bool { return t == pr[0] || t == pr[1] })
		for _, id := range pr {
			if id >= n {
				liveSum -= size[id]
			}
		}
		if res > 0 {
			live = append(live, n+k)
			liveSum += res
		}
	}
	// A label keeps the largest memory of the over-limit steps it does
	// not lower; the steps at or below the limit stay there.
	order := make([]int32, len(overMem))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return cmp.Compare(overMem[b], overMem[a]) })
	under := 0.0
	if len(overMem) > 0 {
		under = min(fx.peak, limit)
	}
	for l := range fx.after {
		fx.after[l] += fx.excess
		pa := max(fx.peakAfter[l], under)
		for _, st := range order {
			if _, ok := slices.BinarySearch(lowers[l], st); !ok {
				pa = max(pa, overMem[st])
				break
			}
		}
		fx.peakAfter[l] = pa
	}
	return fx
}

// shrink unslices, one at a time, the labels whose slicing the current
// path no longer needs: those without which the replanned peak still fits
// and the total cost drops.
func (s *slicer) shrink(set []bool, pl *Plan, seed uint64) ([]bool, *Plan) {
	cost := s.cost(set, pl)
	// Large extents first: unslicing one saves the most slices.
	for _, l := range s.largestFirst(set) {
		set[l] = false
		if q := s.best(set, false, seed); s.fits(q) && s.cost(set, q) < cost {
			pl, cost = q, s.cost(set, q)
			continue
		}
		set[l] = true
	}
	return set, pl
}

// topDown is the fallback when slicing label by label gets stuck: slice
// every label that may be sliced, then, keeping that path, unslice the
// labels (largest extent first) whose return keeps the peak within the
// limit, and replan. It returns a nil plan when even the full slicing does
// not fit or the result needs more than MaxSlices slices.
func (s *slicer) topDown(seed uint64) ([]bool, *Plan) {
	set := make([]bool, s.p.NumLabels)
	for _, l := range s.cands {
		set[l] = true
	}
	pl := s.best(set, false, seed)
	if !s.fits(pl) {
		return nil, nil
	}
	keep := pl // the fully sliced path, with the labels unsliced so far
	order := slices.Clone(s.cands)
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(s.p.Extents[b], s.p.Extents[a]) })
	for _, l := range order {
		set[l] = false
		if sub, err := slicedProblem(s.p, set, nil, -1); err == nil {
			if q := s.planned(NewPlan(sub, Options{Strategy: Given, Path: pl.Path})); s.fits(q) {
				keep = q
				continue
			}
		}
		set[l] = true
	}
	if s.count(set) > MaxSlices {
		return nil, nil
	}
	if q := s.best(set, false, seed); s.fits(q) {
		return set, q
	}
	return set, keep
}

// fail reports why no slicing fits: the limit is below the smallest peak
// of every plan made (the fully sliced problem's among them), or the
// slicings that fit need more than MaxSlices slices.
func (s *slicer) fail() error {
	if s.limit < s.minPeak {
		err := newErr("slice", ErrLimitTooSmall, -1, "",
			"memory limit of %g elements is below the smallest peak one slice reaches, %g elements (with every summed label sliced)", s.limit, s.minPeak)
		err.Extents = []int{ceilInt(s.limit), ceilInt(s.minPeak)}
		return err
	}
	return newErr("slice", ErrMemoryLimit, -1, "",
		"no slicing into at most %d slices keeps one slice's peak within the memory limit of %g elements", MaxSlices, s.limit)
}

// ceilInt rounds x up to an int, saturating at math.MaxInt.
func ceilInt(x float64) int {
	if x >= math.MaxInt {
		return math.MaxInt
	}
	return int(math.Ceil(x))
}
