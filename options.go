package tenferro

import (
	"math"
	"strconv"

	"github.com/tenferro-go/tenferro/einsum"
)

// Option configures one call: how an einsum is planned (WithStrategy,
// WithPath, WithMemoryLimit, WithSeed, WithSliceWorkers, WithOutputSlicing) and how an Into form of a
// contraction combines its result with the destination (Accumulate).
// Options are plain values: passing them allocates nothing. An option that
// does not apply to the operation it is passed to is an ErrArgument error.
type Option struct {
	what     optionKind
	strategy einsum.Strategy
	path     [][2]int
	limit    float64
	seed     uint64
	workers  int
	alpha    complex128
	beta     complex128
}

type optionKind uint8

const (
	optStrategy optionKind = iota + 1
	optPath
	optLimit
	optSeed
	optAccumulate
	optWorkers
	optSliceOutput
)

// WithStrategy selects the einsum path optimizer (default einsum.Auto).
func WithStrategy(s einsum.Strategy) Option { return Option{what: optStrategy, strategy: s} }

// WithPath supplies a linear contraction path in NumPy/opt_einsum format
// (pairs of positions into the current operand list; the pair is removed
// and its result appended). It is validated against the operands.
func WithPath(path [][2]int) Option { return Option{what: optPath, path: path} }

// WithMemoryLimit bounds the peak of an einsum's intermediates (as
// einsum.Plan.Peak counts them: the results, layout copies and staging
// buffers the CPU engine holds at once besides the operands and the
// destination) to at most elements elements. When the
// best path exceeds it, the einsum is sliced (einsum.NewSlicedPlan): it
// is evaluated as a sum of slices, each with some summed labels fixed,
// whose peak fits; [EinsumPlan.Sliced] describes the slicing. A limit
// below the smallest peak any slicing reaches fails planning with an
// ErrMemory error wrapping einsum.ErrLimitTooSmall that names the
// minimum. The limit must be a finite number >= 0 (0 means no limit). The
// engine's memory budget, less the output, bounds the peak the same way.
func WithMemoryLimit(elements float64) Option { return Option{what: optLimit, limit: elements} }

// WithSliceWorkers plans a sliced einsum for n slices evaluated at once
// (n >= 1): when slicing is needed, the planner may slice further so that
// n slices fit the memory limit together, if that costs less per worker
// than one slice at a time with the team inside it (see
// einsum.NewSlicedPlan). Einsum and its variants plan for the engine's
// threads without it; PrepareEinsum, which has no engine, plans for one
// slice at a time unless given it. Whatever the plan, an engine with a
// team evaluates as many slices at once as fit the limit
// (einsum.SlicedPlan.Concurrency).
func WithSliceWorkers(n int) Option { return Option{what: optWorkers, workers: n} }

// WithOutputSlicing lets a sliced einsum (see WithMemoryLimit) slice output
// labels too: each slice then computes its own part of the output, which
// adds no FLOPs beyond the steps that lack the label. It is what fits a
// network whose every large intermediate carries a batch label under a
// small limit. Without it only summed labels are sliced
// (einsum.Options.SliceOutput).
func WithOutputSlicing() Option { return Option{what: optSliceOutput} }

// WithSeed seeds the randomized path search (default 0).
func WithSeed(seed uint64) Option { return Option{what: optSeed, seed: seed} }

// Accumulate makes an Into form of a contraction (MatmulInto,
// EinsumWithInto) compute dst = alpha·result + beta·dst instead of
// dst = result. With beta = 0, dst is never read (NaNs in it do not
// propagate). For real dtypes alpha and beta must be real.
func Accumulate(alpha, beta complex128) Option {
	return Option{what: optAccumulate, alpha: alpha, beta: beta}
}

// settings are the options of one call, checked.
type settings struct {
	einsum      einsum.Options
	planning    bool // some planning option was given
	alpha, beta complex128
}

// What an operation accepts.
const (
	acceptPlanning = 1 << iota
	acceptAccumulate
)

// gather checks opts for operation name (which accepts the option kinds in
// accept) and for element type dt.
func gather(name string, dt DType, accept int, opts []Option) (settings, error) {
	s := settings{alpha: 1}
	for i, o := range opts {
		arg := func() string { return "opts[" + strconv.Itoa(i) + "]" } // only on failure
		switch o.what {
		case optStrategy, optPath, optLimit, optSeed, optWorkers, optSliceOutput:
			if accept&acceptPlanning == 0 {
				return s, newError(name, arg(), "an option of "+name, "an einsum planning option", ErrArgument)
			}
			s.planning = true
		case optAccumulate:
			if accept&acceptAccumulate == 0 {
				return s, newError(name, arg(), "an option of "+name, "Accumulate (it applies to the Into forms of contractions)", ErrArgument)
			}
			if !dt.IsComplex() && (imag(o.alpha) != 0 || imag(o.beta) != 0) {
				return s, newError(name, arg(), "real alpha and beta for "+dt.String(), "Accumulate("+strconv.FormatComplex(o.alpha, 'g', -1, 128)+", "+strconv.FormatComplex(o.beta, 'g', -1, 128)+")", ErrArgument)
			}
			s.alpha, s.beta = o.alpha, o.beta
		default:
			return s, newError(name, arg(), "an option made by WithStrategy, WithPath, WithMemoryLimit, WithSeed, WithSliceWorkers, WithOutputSlicing or Accumulate", "the zero Option", ErrArgument)
		}
		switch o.what {
		case optStrategy:
			s.einsum.Strategy = o.strategy
		case optPath:
			s.einsum.Strategy, s.einsum.Path = einsum.Given, o.path
		case optLimit:
			if math.IsNaN(o.limit) || math.IsInf(o.limit, 0) || o.limit < 0 {
				return s, newError(name, arg(), "a memory limit that is a finite number of elements >= 0", strconv.FormatFloat(o.limit, 'g', -1, 64), ErrArgument)
			}
			s.einsum.MemoryLimit = o.limit
		case optSeed:
			s.einsum.Seed = o.seed
		case optWorkers:
			if o.workers < 1 {
				return s, newError(name, arg(), "a number of slice workers >= 1", strconv.Itoa(o.workers), ErrArgument)
			}
			s.einsum.Workers = o.workers
		case optSliceOutput:
			s.einsum.SliceOutput = true
		}
	}
	return s, nil
}

// scaling returns the alpha and beta that opts give an Into form that
// accepts only Accumulate.
func scaling[T Scalar](name string, accept int, opts []Option) (alpha, beta T, err error) {
	s, err := gather(name, DTypeOf[T](), accept, opts)
	return castFrom[T](s.alpha), castFrom[T](s.beta), err
}
