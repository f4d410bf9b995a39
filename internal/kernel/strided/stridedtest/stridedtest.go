// Package stridedtest holds test helpers for the strided kernels: random
// strided views with guard elements, naive multi-index loops, a small
// goroutine runner implementing par.Runner, and per-type tolerances.
package stridedtest

import (
	"math"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/tenferro-go/tenferro/internal/kernel/strided"
	"github.com/tenferro-go/tenferro/internal/par"
)

// Sentinel is the value stored in every element of a view's buffer that the
// view does not address; tests check that it survives.
const Sentinel = -7777.25

// Runner is a fixed team of goroutines implementing par.Runner. The caller
// runs part 0; a nested Run runs inline.
type Runner struct {
	width int
	work  chan job
	busy  atomic.Bool
	wg    sync.WaitGroup
}

type job struct {
	t        par.Task
	p, parts int
}

// NewRunner starts width-1 workers. Close stops them.
func NewRunner(width int) *Runner {
	r := &Runner{width: width, work: make(chan job, width)}
	for i := 1; i < width; i++ {
		go func() {
			for j := range r.work {
				j.t.RunPart(j.p, j.parts)
				r.wg.Done()
			}
		}()
	}
	return r
}

// Width implements par.Runner.
func (r *Runner) Width() int { return r.width }

// Run implements par.Runner.
func (r *Runner) Run(t par.Task, parts int) {
	parts = max(1, min(parts, r.width))
	if parts == 1 || !r.busy.CompareAndSwap(false, true) {
		for p := 0; p < parts; p++ {
			t.RunPart(p, parts)
		}
		return
	}
	r.wg.Add(parts - 1)
	for p := 1; p < parts; p++ {
		r.work <- job{t, p, parts}
	}
	t.RunPart(0, parts)
	r.wg.Wait()
	r.busy.Store(false)
}

// Close stops the workers.
func (r *Runner) Close() { close(r.work) }

// ForEach calls fn for every multi-index of shape in column-major order (once
// with an empty index for rank 0; never for an empty shape). fn must not
// retain idx.
func ForEach(shape []int, fn func(idx []int)) {
	for _, e := range shape {
		if e == 0 {
			return
		}
	}
	idx := make([]int, len(shape))
	for {
		fn(idx)
		d := 0
		for ; d < len(shape); d++ {
			idx[d]++
			if idx[d] < shape[d] {
				break
			}
			idx[d] = 0
		}
		if d == len(shape) {
			return
		}
	}
}

// At returns the offset of multi-index idx in r.
func At[T strided.Scalar](r strided.Ref[T], idx []int) int {
	o := r.Off
	for d, i := range idx {
		o += i * r.Strides[d]
	}
	return o
}

// C128 converts x to complex128.
func C128[T strided.Scalar](x T) complex128 {
	switch v := any(x).(type) {
	case float32:
		return complex(float64(v), 0)
	case float64:
		return complex(v, 0)
	case complex64:
		return complex128(v)
	default:
		return v.(complex128)
	}
}

// From converts z to T, dropping the imaginary part for real T.
func From[T strided.Scalar](z complex128) T {
	var r T
	switch p := any(&r).(type) {
	case *float32:
		*p = float32(real(z))
	case *float64:
		*p = real(z)
	case *complex64:
		*p = complex64(z)
	case *complex128:
		*p = z
	}
	return r
}

// Rand returns a value with real (and imaginary) parts uniform in [-1, 1).
func Rand[T strided.Scalar](rng *rand.Rand) T {
	return From[T](complex(2*rng.Float64()-1, 2*rng.Float64()-1))
}

// Eps returns the unit roundoff of T's real type.
func Eps[T strided.Scalar]() float64 {
	if k := strided.Kind[T](); k == 0 || k == 2 {
		return 0x1p-24
	}
	return 0x1p-53
}

// IsComplex reports whether T is complex.
func IsComplex[T strided.Scalar]() bool { return strided.Kind[T]() >= 2 }

// ViewOpts selects the kinds of strides RandView may produce.
type ViewOpts struct {
	Permute  bool // random axis order in memory
	Negative bool // random axes reversed
	Gaps     bool // random padding between axes
	Zero     bool // random zero strides (broadcast; not for destinations)
}

// All enables every kind of stride except Zero.
var All = ViewOpts{Permute: true, Negative: true, Gaps: true}

// RandView returns a view of shape over a fresh buffer whose addressed
// elements are random and whose other elements (including guard regions
// before and after) hold Sentinel.
func RandView[T strided.Scalar](rng *rand.Rand, shape []int, o ViewOpts) strided.Ref[T] {
	k := len(shape)
	order := make([]int, k)
	for i := range order {
		order[i] = i
	}
	if o.Permute {
		rng.Shuffle(k, func(i, j int) { order[i], order[j] = order[j], order[i] })
	}
	strides := make([]int, k)
	s := 1
	for _, d := range order {
		if o.Zero && rng.IntN(4) == 0 {
			strides[d] = 0
			continue
		}
		if o.Gaps && rng.IntN(3) == 0 {
			s += rng.IntN(3)
		}
		strides[d] = s
		s *= max(shape[d], 1)
	}
	guard := 1 + rng.IntN(5)
	off := guard
	for d := range strides {
		if o.Negative && rng.IntN(2) == 0 && shape[d] > 0 {
			off += (shape[d] - 1) * strides[d]
			strides[d] = -strides[d]
		}
	}
	r := strided.Ref[T]{Data: make([]T, s+2*guard), Off: off, Strides: strides}
	for i := range r.Data {
		r.Data[i] = T(Sentinel)
	}
	ForEach(shape, func(idx []int) { r.Data[At(r, idx)] = Rand[T](rng) })
	return r
}

// CheckGuards returns the index of the first element of r.Data that the view
// does not address over shape and that no longer holds Sentinel, or -1.
func CheckGuards[T strided.Scalar](r strided.Ref[T], shape []int) int {
	hit := make([]bool, len(r.Data))
	ForEach(shape, func(idx []int) { hit[At(r, idx)] = true })
	for i, v := range r.Data {
		if !hit[i] && v != T(Sentinel) {
			return i
		}
	}
	return -1
}

// RandShape returns a random shape of the given rank with extents drawn from
// choices.
func RandShape(rng *rand.Rand, rank int, choices []int) []int {
	s := make([]int, rank)
	for i := range s {
		s[i] = choices[rng.IntN(len(choices))]
	}
	return s
}

// Close reports whether |got-want| <= tol.
func Close(got, want complex128, tol float64) bool {
	d := got - want
	return math.Hypot(real(d), imag(d)) <= tol
}

// Parallel returns a runner of the given width and lowers *threshold (a
// kernel's ParallelBytes) to lowered, so that small test cases fan out;
// the test's cleanup closes the runner and restores the threshold.
func Parallel(t testing.TB, width int, threshold *int, lowered int) *Runner {
	r := NewRunner(width)
	old := *threshold
	*threshold = lowered
	t.Cleanup(func() {
		*threshold = old
		r.Close()
	})
	return r
}
