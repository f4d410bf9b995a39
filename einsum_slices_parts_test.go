package tenferro_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/einsum"
)

// TestEinsumSlicesOutputParts: plans that slice output labels
// (WithOutputSlicing), on a team of two, write their parts of the output
// on both workers: the result equals a serial engine's to rounding and is
// the same bits on every run, ranges that end inside a part add up to the
// whole (each range zero outside its parts), an accumulating Into form
// gives alpha·result + beta·dst, and a warm engine allocates nothing.
func TestEinsumSlicesOutputParts(t *testing.T) {
	serial := cpu.Serial()
	defer serial.Close()
	e := teamEngine(t)
	rng := rand.New(rand.NewPCG(95, 96))
	checked, mixedChecked, accChecked := 0, 0, 0
	for _, c := range slicedCases {
		shapes := scaledShapes(c.shapes, 4)
		// Slice the output label of largest extent (whatever the search
		// would choose under a limit).
		whole, err := tf.PrepareEinsum(tf.Float64, c.sub, shapes)
		if err != nil {
			t.Fatal(err)
		}
		prob, out := whole.Plan().Problem, -1
		for l := range prob.NumLabels {
			if prob.OutputAxes(l) == 1 && prob.Extents[l] > 1 && (out < 0 || prob.Extents[l] > prob.Extents[out]) {
				out = l
			}
		}
		if out < 0 {
			continue
		}
		sliced, err := einsum.SliceWith(prob, []int{out}, einsum.Options{})
		if err != nil {
			t.Fatal(err)
		}
		p, err := tf.PrepareSlicedEinsum(tf.Float64, sliced)
		if err != nil {
			t.Fatal(err)
		}
		sp := p.Sliced()
		if e.ConcurrentSlices(p) < 2 {
			continue
		}
		checked++
		ops := positiveOps(rng, shapes)
		checkOutputParts(t, e, serial, c.sub, p, ops)
		// The same with a summed label sliced too (its first), so that
		// each part takes several consecutive slices and the ranges
		// below end inside parts.
		for l := range prob.NumLabels {
			if prob.OutputAxes(l) > 0 || prob.Extents[l] < 2 || slices.Contains(sp.Labels, l) {
				continue
			}
			mixed, err := einsum.SliceWith(prob, append([]int{l}, sp.Labels...), einsum.Options{})
			if err != nil {
				t.Fatal(err)
			}
			pm, err := tf.PrepareSlicedEinsum(tf.Float64, mixed)
			if err != nil {
				t.Fatal(err)
			}
			checkOutputParts(t, e, serial, c.sub+" with "+prob.Names[l], pm, ops)
			mixedChecked++
			break
		}
		// An accumulating Into form under a limit that the search meets
		// by slicing an output label: dst = 2·result + 0.5·dst.
		limit := math.Floor(unslicedPeak(t, tf.Float64, c.sub, shapes) / 8)
		if q, err := tf.PrepareEinsum(tf.Float64, c.sub, shapes, tf.WithMemoryLimit(limit), tf.WithOutputSlicing()); err != nil || q.Sliced() == nil || q.Sliced().Summed == len(q.Sliced().Labels) {
			continue
		}
		accChecked++
		want, _ := tf.EinsumWith(serial, c.sub, ops)
		wantAcc, _ := tf.Full(1.5, p.OutputShape()...)
		wa, _ := wantAcc.Data()
		wd, _ := want.Data()
		for j, v := range wd {
			wa[j] += 2 * v
		}
		acc, _ := tf.Full(3.0, p.OutputShape()...)
		if err := tf.EinsumWithInto(e, acc, c.sub, ops, tf.WithMemoryLimit(limit), tf.WithOutputSlicing(), tf.Accumulate(2, 0.5)); err != nil {
			t.Fatal(err)
		}
		closeToRel(t, c.sub+" accumulate", acc, wantAcc, 1e-12)
	}
	if checked < 4 || mixedChecked < 4 || accChecked < 1 {
		t.Errorf("only %d cases sliced an output label and ran on two workers (%d with a summed label, %d accumulating)", checked, mixedChecked, accChecked)
	}
}

// checkOutputParts evaluates the sliced plan p on the team engine e and
// compares with serial (see TestEinsumSlicesOutputParts).
func checkOutputParts(t *testing.T, e, serial *cpu.Engine, name string, p *tf.EinsumPlan, ops []*tf.Tensor[float64]) {
	t.Helper()
	sp := p.Sliced()
	t.Logf("%s: %d slices, labels %v (%d summed), %d per part, %d at once", name, sp.Slices, sp.LabelNames(), sp.Summed, sp.PartSlices(), e.ConcurrentSlices(p))
	want, _ := tf.Zeros[float64](p.OutputShape()...)
	if err := tf.EinsumPlannedInto(serial, want, p, ops...); err != nil {
		t.Fatal(err)
	}
	got, _ := tf.Zeros[float64](p.OutputShape()...)
	e.ClearBufferPool()
	e.ResetAllocationPeak()
	if err := tf.EinsumPlannedInto(e, got, p, ops...); err != nil {
		t.Fatal(err)
	}
	closeToRel(t, name, got, want, 1e-12)
	// The workers write their parts in place: no partial results, and
	// the pool stays within the slices' peaks together.
	w := e.ConcurrentSlices(p)
	if measured, hi := float64(e.AllocationStats().PeakInUseBytes), sp.ConcurrentPeak(w)*8; measured > hi || hi != float64(w)*sp.PeakPerSlice*8 {
		t.Errorf("%s: the pool held %g bytes, the plan allows %g for %d slices at once", name, measured, hi, w)
	}
	again, _ := tf.Zeros[float64](p.OutputShape()...)
	if err := tf.EinsumPlannedInto(e, again, p, ops...); err != nil {
		t.Fatal(err)
	}
	g, _ := got.Data()
	a, _ := again.Data()
	if !slices.Equal(g, a) {
		t.Errorf("%s: two evaluations on the same engine differ", name)
	}
	// Three ranges, cut inside parts where parts have several slices; a
	// range's result is zero outside its parts, whatever dst held.
	cuts := []int{0, sp.PartSlices()/2 + 1, sp.Slices*2/3 + 1, sp.Slices}
	sum, _ := tf.Zeros[float64](p.OutputShape()...)
	part, _ := tf.Full(math.NaN(), p.OutputShape()...)
	for i := range 3 {
		if cuts[i] >= cuts[i+1] {
			continue
		}
		if err := tf.EinsumSlicesInto(e, part, p, cuts[i], cuts[i+1], ops...); err != nil {
			t.Fatal(err)
		}
		s, _ := sum.Data()
		pd, _ := part.Data()
		for j := range s {
			s[j] += pd[j]
		}
	}
	closeToRel(t, name+" in three ranges", sum, want, 1e-12)
	eval := func() {
		if err := tf.EinsumPlannedInto(e, got, p, ops...); err != nil {
			t.Fatal(err)
		}
	}
	for range 200 {
		if testing.AllocsPerRun(1, eval) == 0 {
			break
		}
	}
	if n := mallocs(100, eval); n > 10 && !raceEnabled {
		t.Errorf("%s: %d allocations in 100 evaluations on a warm engine", name, n)
	}
}
