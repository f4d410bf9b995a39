package tenferro_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/backend/enginetest"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/einsum"
	"github.com/tenferro-go/tenferro/internal/instances"
)

// concurrentCase is a sliced contraction whose slicing (labels and path)
// comes from a plan at a fraction of the unsliced peak, rebuilt without a
// limit so that an engine may evaluate its slices two at a time.
type concurrentCase struct {
	name string
	sub  string
	p    *tf.EinsumPlan
	ops  []*tf.Tensor[float64]
}

// unlimited rebuilds the slicing of p (its labels and path) without a
// memory limit, so that only the engine's budget bounds how many slices
// run at once.
func unlimited(tb testing.TB, p *tf.EinsumPlan) *tf.EinsumPlan {
	tb.Helper()
	sp := p.Sliced()
	free, err := einsum.SliceWith(sp.Problem, sp.Labels, einsum.Options{Strategy: einsum.Given, Path: sp.Plan.Path})
	if err != nil {
		tb.Fatal(err)
	}
	pf, err := tf.PrepareSlicedEinsum(p.DType(), free)
	if err != nil {
		tb.Fatal(err)
	}
	return pf
}

func concurrentCases(t *testing.T) []concurrentCase {
	t.Helper()
	rng := rand.New(rand.NewPCG(91, 92))
	var out []concurrentCase
	add := func(name, sub string, shapes [][]int, frac float64) {
		p, err := tf.PrepareEinsum(tf.Float64, sub, shapes, tf.WithMemoryLimit(math.Floor(unslicedPeak(t, tf.Float64, sub, shapes)*frac)))
		if errors.Is(err, einsum.ErrLimitTooSmall) || (err == nil && (p.Slices() < 2 || p.Slices() > 600 || p.Sliced().Flops > 1e8)) {
			return
		}
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out = append(out, concurrentCase{name, sub, unlimited(t, p), positiveOps(rng, shapes)})
	}
	for _, in := range instances.Builtin(1)[:5] {
		add(in.Name, in.Subscripts, in.Shapes, 1.0/8)
	}
	// The sliced cases (diagonals, broadcast axes, ellipses, batch labels)
	// with extents 4 times larger, so that the slices are worth spreading.
	for _, c := range slicedCases {
		add(c.sub, c.sub, scaledShapes(c.shapes, 4), 0.5)
	}
	return out
}

// scaledShapes multiplies every extent above 1 by f (broadcast axes stay).
func scaledShapes(shapes [][]int, f int) [][]int {
	out := make([][]int, len(shapes))
	for k, sh := range shapes {
		for _, x := range sh {
			if x > 1 {
				x *= f
			}
			out[k] = append(out[k], x)
		}
	}
	return out
}

// TestEinsumSlicesConcurrent: an engine with a team of two evaluates the
// slices of a plan two at a time when their combined peak fits: the
// result equals a serial engine's to rounding and is the same bits on
// every run, ranges of slices add up to the whole, the pool holds at
// least one slice's peak plus the second worker's partial result and at
// most the planned concurrent peak, and a warm engine allocates nothing.
func TestEinsumSlicesConcurrent(t *testing.T) {
	serial := cpu.Serial()
	defer serial.Close()
	e := teamEngine(t)
	cases := concurrentCases(t)
	concurrent := 0
	for _, c := range cases {
		p := c.p
		sp := p.Sliced()
		w := e.ConcurrentSlices(p)
		if w < 1 || w > 2 || serial.ConcurrentSlices(p) != 1 {
			t.Fatalf("%s: %d slices at once on the team, %d on the serial engine", c.name, w, serial.ConcurrentSlices(p))
		}
		if w == 1 {
			if float64(p.Slices())*p.Plan().Flops >= 1<<16 {
				t.Fatalf("%s: %d slices of %g FLOPs without a limit run one at a time", c.name, p.Slices(), p.Plan().Flops)
			}
			continue
		}
		concurrent++
		want, _ := tf.Zeros[float64](p.OutputShape()...)
		if err := tf.EinsumPlannedInto(serial, want, p, c.ops...); err != nil {
			t.Fatal(err)
		}
		got, _ := tf.Zeros[float64](p.OutputShape()...)
		e.ClearBufferPool()
		e.ResetAllocationPeak()
		if err := tf.EinsumPlannedInto(e, got, p, c.ops...); err != nil {
			t.Fatal(err)
		}
		measured := float64(e.AllocationStats().PeakInUseBytes)
		closeToRel(t, c.name, got, want, 1e-12)
		out := float64(tf.Numel(p.OutputShape()))
		if hi := sp.ConcurrentPeak(2) * 8; measured > hi {
			t.Errorf("%s: the pool held %g bytes, above the concurrent peak %g", c.name, measured, hi)
		}
		// The second worker's partial result is held throughout; with three
		// slices or more a worker adds a slice to its sum and so reaches
		// the slice's peak.
		least := out * 8
		if p.Slices() >= 3 {
			least += p.Peak() * 8
		}
		if measured < least {
			t.Errorf("%s: the pool held %g bytes, below a partial result and a slice (%g)", c.name, measured, least)
		}
		again, _ := tf.Zeros[float64](p.OutputShape()...)
		if err := tf.EinsumPlannedInto(e, again, p, c.ops...); err != nil {
			t.Fatal(err)
		}
		g, _ := got.Data()
		a, _ := again.Data()
		if !slices.Equal(g, a) {
			t.Errorf("%s: two evaluations on the same engine differ", c.name)
		}
		// Two ranges, each split over the team, add up to the whole.
		mid := p.Slices() / 3
		lo, _ := tf.Zeros[float64](p.OutputShape()...)
		hi, _ := tf.Zeros[float64](p.OutputShape()...)
		if err := tf.EinsumSlicesInto(e, lo, p, 0, mid+1, c.ops...); err != nil {
			t.Fatal(err)
		}
		if err := tf.EinsumSlicesInto(e, hi, p, mid+1, p.Slices(), c.ops...); err != nil {
			t.Fatal(err)
		}
		l, _ := lo.Data()
		h, _ := hi.Data()
		for i := range l {
			l[i] += h[i]
		}
		closeToRel(t, c.name+" in two ranges", lo, want, 1e-12)
		// Two workers share the pool, so which buffer each gets depends on
		// timing, and a new interleaving may still add a buffer. Every
		// buffer added stays in the pool, so the pool reaches a steady
		// state: run until an evaluation allocates nothing, then require
		// that of a run of evaluations.
		eval := func() {
			if err := tf.EinsumPlannedInto(e, got, p, c.ops...); err != nil {
				t.Fatal(err)
			}
		}
		for range 200 {
			if testing.AllocsPerRun(1, eval) == 0 {
				break
			}
		}
		// Under load (CI runs packages side by side) a team worker that
		// parks between evaluations may cost the runtime an allocation
		// (its wait record, when the scheduler's cache of them is empty).
		// That is rare: at most 10 in 100 evaluations, where one per
		// evaluation (or per slice) gives 100 or more.
		if n := mallocs(100, eval); n > 10 && !raceEnabled {
			t.Errorf("%s: %d allocations in 100 evaluations on a warm engine", c.name, n)
		}
	}
	if concurrent < 6 {
		t.Errorf("only %d of %d cases ran concurrently", concurrent, len(cases))
	}
}

// TestEinsumSlicesConcurrencyBounded: the plan's limit and the engine's
// budget both bound how many slices run at once.
func TestEinsumSlicesConcurrencyBounded(t *testing.T) {
	in := instances.Builtin(1)[2] // MERA
	full := unslicedPeak(t, tf.Float64, in.Subscripts, in.Shapes)
	p, err := tf.PrepareEinsum(tf.Float64, in.Subscripts, in.Shapes, tf.WithMemoryLimit(math.Floor(full/8)))
	if err != nil {
		t.Fatal(err)
	}
	sp := p.Sliced()
	e := teamEngine(t)
	if got, want := e.ConcurrentSlices(p), sp.Concurrency(2, sp.Limit); got != want || sp.ConcurrentPeak(want) > sp.Limit {
		t.Fatalf("%d slices at once, want %d within the limit %g (two need %g)", got, want, sp.Limit, sp.ConcurrentPeak(2))
	}
	pf := unlimited(t, p)
	free := pf.Sliced()
	out := float64(tf.Numel(pf.OutputShape()))
	for _, c := range []struct {
		budget float64 // elements
		want   int
	}{
		{free.ConcurrentPeak(2) + out, 2},
		{free.ConcurrentPeak(2) + out - 1, 1},
	} {
		eb := teamEngine(t, cpu.WithMemoryBudget(int64(c.budget)*8))
		if got := eb.ConcurrentSlices(pf); got != c.want {
			t.Errorf("budget of %g elements: %d slices at once, want %d", c.budget, got, c.want)
		}
	}
}

// TestEinsumSlicesConcurrentAccumulate: EinsumWithInto with Accumulate on
// a team engine, sliced under a limit that fits two slices at once, on
// operands and destinations of every layout (transposed, strided, offset),
// real and complex, gives alpha·result + beta·dst as a serial unsliced
// evaluation does.
func TestEinsumSlicesConcurrentAccumulate(t *testing.T) {
	t.Run("f64", func(t *testing.T) { checkConcurrentAccumulate[float64](t) })
	t.Run("c128", func(t *testing.T) { checkConcurrentAccumulate[complex128](t) })
}

func checkConcurrentAccumulate[T tf.Scalar](t *testing.T) {
	in := instances.Builtin(1)[4] // a random 3-regular graph of 30 tensors
	dt := tf.DTypeOf[T]()
	limit := math.Floor(unslicedPeak(t, dt, in.Subscripts, in.Shapes) / 8)
	e := teamEngine(t)
	p, err := tf.PrepareEinsum(dt, in.Subscripts, in.Shapes, tf.WithMemoryLimit(limit), tf.WithSliceWorkers(2))
	if err != nil {
		t.Fatal(err)
	}
	if e.ConcurrentSlices(p) != 2 {
		t.Fatalf("%s at 1/8 of its peak: %d slices at once, want 2 (%d slices)", in.Name, e.ConcurrentSlices(p), p.Slices())
	}
	serial := cpu.Serial()
	defer serial.Close()
	rng := rand.New(rand.NewPCG(93, 94))
	for layout := range enginetest.NumLayouts {
		ops := make([]*tf.Tensor[T], len(in.Shapes))
		for k, s := range in.Shapes {
			ops[k] = enginetest.Operand[T](t, rng, s, (layout+k)%enginetest.NumLayouts)
		}
		ref, err := tf.Einsum(serial, in.Subscripts, ops...)
		if err != nil {
			t.Fatal(err)
		}
		dst, _ := enginetest.Destination[T](t, p.OutputShape(), layout, 0)
		enginetest.Each(p.OutputShape(), func(idx []int) {
			dst.Set(castTo[T](complex(rng.Float64(), rng.Float64())), idx...)
		})
		old := enginetest.Dense(dst)
		if err := tf.EinsumWithInto(e, dst, in.Subscripts, ops, tf.WithMemoryLimit(limit), tf.Accumulate(2, 0.5)); err != nil {
			t.Fatal(err)
		}
		got, want := enginetest.Dense(dst), enginetest.Dense(ref)
		scale := 0.0
		for _, w := range want {
			scale = max(scale, cmplxAbs(w))
		}
		for i := range want {
			if d := cmplxAbs(got[i] - (2*want[i] + 0.5*old[i])); !(d <= 1e-10*(scale+1)) {
				t.Fatalf("layout %d: element %d = %v, want %v", layout, i, got[i], 2*want[i]+0.5*old[i])
			}
		}
		ref.Release()
	}
}

// mallocs runs f once, then n times, and returns the heap allocations
// the n runs made: testing.AllocsPerRun's measurement (GOMAXPROCS 1
// meanwhile) without its average, which rounds down.
func mallocs(n int, f func()) uint64 {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	f()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range n {
		f()
	}
	runtime.ReadMemStats(&after)
	return after.Mallocs - before.Mallocs
}
