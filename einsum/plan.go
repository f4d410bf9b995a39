package einsum

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Strategy selects the path optimizer.
type Strategy int

const (
	// Auto uses Optimal for up to AutoOptimalMax operands, Search above
	// (a lighter Search when the greedy path costs less than
	// AutoSearchFlops) and Greedy above AutoSearchMax operands.
	Auto Strategy = iota
	// Greedy repeatedly contracts the pair that minimises
	// size(result) - size(a) - size(b), ties by FLOPs.
	Greedy
	// Optimal finds a path of minimal FLOPs by dynamic programming over
	// subsets of operands (outer products included). Above OptimalMax
	// operands it falls back to Search.
	Optimal
	// RandomGreedy keeps the best of the deterministic greedy path and
	// Options.Restarts-1 randomized greedy runs (Boltzmann choice among
	// the best candidates, seeded by Options.Seed).
	RandomGreedy
	// Search is the optimizer for large networks: candidates from greedy
	// and variable-elimination heuristics with seeded random restarts,
	// polished by subtree reconfiguration (every subtree of up to 8-9
	// leaves re-optimized exactly). A few hundred tensors take well under
	// a second.
	Search
	// Given uses Options.Path, a caller-given linear path.
	Given
)

const (
	// OptimalMax is the largest operand count Optimal searches exactly
	// (the search visits 3^n subset pairs).
	OptimalMax = 14
	// AutoOptimalMax is the largest operand count for which Auto uses
	// Optimal.
	AutoOptimalMax = 10
	// DefaultRestarts is the number of randomized runs of RandomGreedy
	// and Search when Options.Restarts is 0.
	DefaultRestarts = 32
	// AutoSearchFlops is the greedy-path cost below which Auto runs a
	// lighter Search on a large network. Search spends tens to hundreds of
	// milliseconds; a network whose greedy path costs under 1e8 flops
	// executes in a few milliseconds or less, so Auto keeps planning small
	// against execution: a few randomized greedy runs, the elimination
	// heuristic, and reconfiguration of subtrees of up to 8 leaves of the
	// best one (a few milliseconds). The plan reports Search as its strategy.
	AutoSearchFlops = 1e8
	// AutoSearchMax is the largest operand count for which Auto runs
	// Search. Search's time grows faster than the network (about 1 s at
	// 1000 operands and 20 s at 5000); above it Auto takes the greedy path,
	// whose time and memory grow linearly (about 0.3 s and 80 MB for 10,000
	// operands).
	AutoSearchMax = 1000
)

var strategyNames = [...]string{"auto", "greedy", "optimal", "random-greedy", "search", "given"}

func (s Strategy) String() string {
	if s >= 0 && int(s) < len(strategyNames) {
		return strategyNames[s]
	}
	return "Strategy(" + strconv.Itoa(int(s)) + ")"
}

// ParseStrategy maps "auto", "greedy", "optimal", "random-greedy" (or
// "random"), "search" and "given" to a Strategy.
func ParseStrategy(s string) (Strategy, error) {
	for i, name := range strategyNames {
		if s == name {
			return Strategy(i), nil
		}
	}
	if s == "random" {
		return RandomGreedy, nil
	}
	return 0, newErr("plan", ErrOption, -1, "", "unknown strategy %q (want auto, greedy, optimal, random-greedy, search or given)", s)
}

// Options controls NewPlan. The zero value plans with Auto, no memory
// limit and seed 0.
type Options struct {
	// Strategy selects the optimizer.
	Strategy Strategy
	// Path is the linear path used by Given, in NumPy/opt_einsum format:
	// each pair holds two distinct positions into the current operand
	// list; both are removed and their result is appended at the end. It
	// must contract everything: n-1 pairs for n operands. The first
	// position of a pair is the left operand of the step.
	Path [][2]int
	// MemoryLimit bounds the size, in elements, of every intermediate
	// (the final pairwise result, whose labels are the output's, is
	// exempt). 0 means no limit. Optimizers avoid paths that exceed it;
	// when none exists, or a given path exceeds it, NewPlan returns an
	// error wrapping ErrMemoryLimit.
	MemoryLimit float64
	// Seed seeds the random search; equal seeds give equal plans.
	Seed uint64
	// Restarts is the number of candidate paths RandomGreedy and Search
	// draw (0: DefaultRestarts).
	Restarts int
	// Workers is the number of slices an executor can evaluate at once
	// (0 or 1: one). Only NewSlicedPlan reads it: it may slice further so
	// that that many slices fit the memory limit together.
	Workers int
	// SliceOutput lets NewSlicedPlan slice output labels too (those that
	// appear once in the output). Each slice then computes its own part of
	// the output instead of a term added into all of it, which costs no
	// FLOPs beyond the steps that lack the label: the way to slice a batch
	// label that every intermediate carries. Only NewSlicedPlan reads it.
	SliceOutput bool
}

// Key renders the options that influence the plan, for cache keys.
func (o Options) Key() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s/m%g/s%d/r%d", o.Strategy, o.MemoryLimit, o.Seed, o.Restarts)
	if o.Workers > 1 {
		fmt.Fprintf(&b, "/w%d", o.Workers)
	}
	if o.SliceOutput {
		b.WriteString("/so")
	}
	if o.Strategy == Given {
		b.WriteByte('/')
		for _, pr := range o.Path {
			fmt.Fprintf(&b, "%d.%d,", pr[0], pr[1])
		}
	}
	return b.String()
}

// Plan is a complete, immutable contraction plan: the bound problem, the
// pairwise path, the lowering of each step and the final unary step.
// Its slices must not be modified; a Plan is safe for concurrent use.
//
// Tensor ids: operand k has id k; the result of Steps[s] has id
// len(Problem.Inputs)+s. The last step's result (or operand 0 when there
// are no steps) feeds Final, which produces the requested output.
type Plan struct {
	// Problem is the bound expression.
	Problem *Problem
	// Options are the options the plan was made with.
	Options Options
	// Strategy is the optimizer that produced the path (Auto resolved).
	Strategy Strategy
	// Path is the linear path (NumPy format), one pair per step, left
	// operand first. With Given it is Options.Path, except that a pair may
	// be swapped to choose the better left operand.
	Path [][2]int
	// Steps holds the lowering of each pairwise contraction, in order.
	Steps []Step
	// Final maps the last tensor to the output.
	Final Final
	// Flops is the path's cost and NaiveFlops the cost of one nested loop
	// over all labels (see # Costs in the package documentation).
	Flops, NaiveFlops float64
	// Largest is the size in elements of the largest pairwise result (the
	// output size when there are no steps).
	Largest float64
	// Peak is the largest number of elements an executor holds at once
	// besides the operands and the destination: the step results still
	// waiting for their consumer, the result being computed (the last step
	// writes into the destination unless the final map still reduces), the
	// pre-reduced operands of the current step, the copies the CPU engine
	// makes to lay out a GEMM side or result whose label groups do not
	// fuse, and, in the plan of one slice of a sliced contraction, the
	// buffer that stages a slice's result before it is added to the
	// destination (an unsliced plan is taken to overwrite its
	// destination). Operands and destination are taken as dense
	// column-major arrays (see peak.go for the whole model); operands of
	// other layouts may need other copies.
	Peak float64
}

// Key returns a string identifying the plan's inputs: the problem key and
// the options key.
func (pl *Plan) Key() string { return pl.Problem.Key() + "|" + pl.Options.Key() }

// NewPlan optimizes a contraction path for the problem (made by Bind) and
// lowers every step. See Options for the strategies and the memory limit.
func NewPlan(p *Problem, opts Options) (*Plan, error) {
	if p == nil || p.Expr == nil || len(p.Inputs) == 0 || len(p.Unique) != len(p.Inputs) || len(p.Extents) != p.NumLabels {
		return nil, newErr("plan", ErrOption, -1, "", "the problem was not made by Bind")
	}
	if !(opts.MemoryLimit >= 0) || math.IsInf(opts.MemoryLimit, 0) {
		return nil, newErr("plan", ErrOption, -1, "", "memory limit %g is not a finite number >= 0", opts.MemoryLimit)
	}
	if opts.Restarts < 0 {
		return nil, newErr("plan", ErrOption, -1, "", "restarts %d is negative", opts.Restarts)
	}
	if opts.Strategy < Auto || opts.Strategy > Given {
		return nil, newErr("plan", ErrOption, -1, "", "unknown strategy %d", int(opts.Strategy))
	}
	if opts.Path != nil && opts.Strategy != Given {
		return nil, newErr("plan", ErrOption, -1, "", "a path was given with strategy %s (use Given)", opts.Strategy)
	}
	nw := newNetwork(p, opts.MemoryLimit)
	strategy := opts.Strategy
	restarts := opts.Restarts
	if restarts == 0 {
		restarts = DefaultRestarts
	}
	quick := false
	if strategy == Auto {
		strategy = Search
		if nw.n <= AutoOptimalMax {
			strategy = Optimal
		} else if nw.n > AutoSearchMax {
			strategy = Greedy
		} else if g, err := nw.greedy(greedyParams{costmod: 1}); err == nil {
			f, _ := nw.evalSSA(g)
			quick = f < AutoSearchFlops
		}
	}
	if strategy == Optimal && nw.n > OptimalMax {
		strategy = Search
	}
	var ssa [][2]int
	var err error
	switch strategy {
	case Greedy:
		ssa, err = nw.greedy(greedyParams{costmod: 1})
	case Optimal:
		ssa, err = nw.optimal()
	case RandomGreedy:
		ssa, err = nw.randomGreedy(restarts, opts.Seed)
	case Search:
		if quick {
			ssa, err = nw.quickSearch(opts.Seed)
		} else {
			ssa, err = nw.search(restarts, opts.Seed)
		}
	case Given:
		ssa, err = linearToSSA(nw.n, opts.Path)
		if err == nil && nw.limit > 0 {
			err = nw.checkLimit(ssa)
		}
	}
	if err != nil {
		return nil, err
	}
	return nw.finish(opts, strategy, ssa), nil
}

// finish costs and lowers the sequence ssa into a Plan made with opts by
// strategy.
func (nw *network) finish(opts Options, strategy Strategy, ssa [][2]int) *Plan {
	p := nw.p
	pl := &Plan{Problem: p, Options: opts, Strategy: strategy, Path: ssaToLinear(nw.n, ssa)}
	if strategy == Given {
		pl.Options.Path = append([][2]int{}, opts.Path...)
	}
	pl.Flops, pl.Largest = nw.evalSSA(ssa)
	if len(ssa) == 0 {
		pl.Flops = nw.sizeOf(p.Unique[0])
	}
	pl.NaiveFlops = nw.naiveFlops()
	nw.lower(pl, ssa)
	pl.Peak = pl.peak()
	return pl
}

// checkLimit reports the first step of a sequence whose result exceeds
// the memory limit (the final pairwise result is exempt).
func (nw *network) checkLimit(ssa [][2]int) error {
	count := append([]int{}, nw.count0...)
	tensors := append([][]int{}, nw.inputs...)
	for k, pr := range ssa {
		out := nw.contract(tensors[pr[0]], tensors[pr[1]], count)
		if s := nw.sizeOf(out); s > nw.limit && k < len(ssa)-1 {
			err := newErr("path", ErrMemoryLimit, -1, "",
				"step %d produces %g elements, more than the memory limit of %g", k, s, nw.limit)
			return err
		}
		tensors = append(tensors, out)
	}
	return nil
}
