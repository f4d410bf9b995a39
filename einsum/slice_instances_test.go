package einsum

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/tenferro-go/tenferro/internal/instances"
)

// sliceInstance plans in at 1/8 and 1/32 of its unsliced peak and checks
// the result: the peak fits, the overhead is finite and >= 1, or the limit
// is below the smallest slice peak (an ErrLimitTooSmall error naming a
// minimum above the limit). It logs the overheads.
func sliceInstance(t *testing.T, in instances.Instance) {
	t.Helper()
	e, err := ParseSymbols(in.Subscripts)
	if err != nil {
		t.Fatalf("%s: %v", in.Name, err)
	}
	p, err := e.Bind(in.Shapes)
	if err != nil {
		t.Fatalf("%s: %v", in.Name, err)
	}
	base, err := NewPlan(p, Options{})
	if err != nil {
		t.Fatalf("%s: %v", in.Name, err)
	}
	if base.Peak < 64 {
		t.Logf("%-56s n=%4d peak %.3g: nothing to slice", in.Name, len(p.Inputs), base.Peak)
		return
	}
	for _, div := range []float64{8, 32} {
		limit := math.Floor(base.Peak / div)
		start := time.Now()
		sp, err := NewSlicedPlan(p, Options{MemoryLimit: limit})
		took := time.Since(start)
		if errors.Is(err, ErrLimitTooSmall) {
			var ee *Error
			if !errors.As(err, &ee) || !(float64(ee.Extents[1]) > limit) {
				t.Errorf("%s at 1/%g: %v", in.Name, div, err)
			}
			t.Logf("%-56s n=%4d 1/%-2g: limit below the smallest slice peak (%v)", in.Name, len(p.Inputs), div, err)
			continue
		}
		if errors.Is(err, ErrMemoryLimit) {
			// Every slicing the search found that fits needs more than
			// MaxSlices slices (chains of large bonds at a small limit).
			t.Logf("%-56s n=%4d 1/%-2g: more than MaxSlices slices (%v)", in.Name, len(p.Inputs), div, err)
			continue
		}
		if err != nil {
			t.Errorf("%s at 1/%g: %v", in.Name, div, err)
			continue
		}
		if sp.PeakPerSlice > limit || !(sp.FlopOverhead >= 1) || math.IsInf(sp.FlopOverhead, 0) || sp.Slices < 2 {
			t.Errorf("%s at 1/%g: peak %g (limit %g), overhead %g, %d slices", in.Name, div, sp.PeakPerSlice, limit, sp.FlopOverhead, sp.Slices)
		}
		t.Logf("%-56s n=%4d 1/%-2g: %3d labels, %8d slices, FLOP overhead %.4f (%v)", in.Name, len(p.Inputs), div, len(sp.Labels), sp.Slices, sp.FlopOverhead, took.Round(time.Millisecond))
	}
}

// TestSlicedBuiltinSuite slices the project's own workloads.
func TestSlicedBuiltinSuite(t *testing.T) {
	for _, in := range instances.Builtin(1) {
		sliceInstance(t, in)
	}
}

// publicInstances loads the public workloads, skipping the test when they
// are absent (see instances.FindDir).
func publicInstances(t *testing.T) []instances.Instance {
	t.Helper()
	dir, ok := instances.FindDir()
	if !ok {
		t.Skip("no public einsum instances (set " + instances.EnvDir + ")")
	}
	ins, err := instances.LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return ins
}

// TestSlicedPublicInstances slices the public workloads when they are
// present (see instances.FindDir); with -short only those of up to 100
// operands.
func TestSlicedPublicInstances(t *testing.T) {
	for _, in := range publicInstances(t) {
		if testing.Short() && len(in.Shapes) > 100 {
			continue
		}
		sliceInstance(t, in)
	}
}

// TestSliceOutputPublicBatches: the language-model batches, whose every
// large intermediate carries the batch label, slice within a small FLOP
// overhead at 1/8 and 1/32 of their peak once output labels may be sliced
// (summed labels alone: 31x at 1/8, or no slicing at all), and the search
// with output labels never costs more than the one without.
func TestSliceOutputPublicBatches(t *testing.T) {
	seen := 0
	for _, in := range publicInstances(t) {
		if !strings.HasPrefix(in.Name, "lm_batch_likelihood") || (testing.Short() && len(in.Shapes) > 40) {
			continue
		}
		seen++
		e, _ := ParseSymbols(in.Subscripts)
		p, err := e.Bind(in.Shapes)
		if err != nil {
			t.Fatal(err)
		}
		base, err := NewPlan(p, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct{ div, most float64 }{{8, 1.3}, {32, 2}} {
			limit := math.Floor(base.Peak / c.div)
			sp, err := NewSlicedPlan(p, Options{MemoryLimit: limit, SliceOutput: true})
			if err != nil {
				t.Fatalf("%s at 1/%g: %v", in.Name, c.div, err)
			}
			if sp.PeakPerSlice > limit || sp.FlopOverhead > c.most || sp.Summed == len(sp.Labels) {
				t.Errorf("%s at 1/%g: labels %v (%d summed), peak %g (limit %g), FLOP overhead %.3g (at most %g)", in.Name, c.div, sp.LabelNames(), sp.Summed, sp.PeakPerSlice, limit, sp.FlopOverhead, c.most)
			}
			if only, err := NewSlicedPlan(p, Options{MemoryLimit: limit}); err == nil && slicedCost(only) < slicedCost(sp) {
				t.Errorf("%s at 1/%g: the search with output labels costs %g, without %g", in.Name, c.div, slicedCost(sp), slicedCost(only))
			}
		}
	}
	if seen == 0 {
		t.Skip("no language-model batch among the public instances")
	}
}
