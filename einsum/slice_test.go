package einsum

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// sliceData extracts the operands of one slice: for each operand a compact
// column-major copy of the sub-tensor with the sliced labels' axes fixed
// to idx (broadcast axes stay at 0), of the slice problem's shapes.
func sliceData(sp *SlicedPlan, data [][]float64, idx []int) [][]float64 {
	p := sp.Problem
	at := map[int]int{}
	for j, l := range sp.Labels {
		at[l] = idx[j] * sp.Widths[j] // the chunk's first value
	}
	out := make([][]float64, len(data))
	for k, shape := range sp.PlanOf(idx).Problem.Shapes {
		src := &lt{dims: p.Shapes[k]}
		dst := &lt{dims: shape}
		out[k] = make([]float64, prodDims(shape))
		full := make([]int, len(shape))
		each(shape, func(sidx []int) {
			copy(full, sidx)
			for a, l := range p.Inputs[k] {
				if v, ok := at[l]; ok && !p.Broadcast[k][a] {
					full[a] = v + sidx[a]
				}
			}
			out[k][dst.offset(sidx)] = data[k][src.offset(full)]
		})
	}
	return out
}

// runSliced evaluates every slice with the slice plan and sums them.
func runSliced(t testing.TB, sp *SlicedPlan, data [][]float64) []float64 {
	var sum []float64
	idx := make([]int, len(sp.Labels))
	for s := range sp.Slices {
		sp.SliceIndex(s, idx)
		got := runPlan(t, sp.PlanOf(idx), sliceData(sp, data, idx))
		if sum == nil {
			sum = make([]float64, len(got.data))
		}
		for i, v := range got.data {
			sum[i] += v
		}
	}
	return sum
}

// checkSliced checks a sliced plan's invariants and its sum of slices
// against the naive loop.
func checkSliced(t *testing.T, sp *SlicedPlan, data [][]float64) {
	t.Helper()
	p := sp.Problem
	if sp.Limit > 0 && sp.PeakPerSlice > sp.Limit {
		t.Fatalf("%s: peak per slice %g > limit %g", p, sp.PeakPerSlice, sp.Limit)
	}
	n := 1
	for j, l := range sp.Labels {
		if slices.Contains(p.OutputUnique, l) || sp.Extents[j] != p.Extents[l] || sp.Extents[j] < 2 {
			t.Fatalf("%s: bad sliced label %s (extent %d)", p, p.Names[l], sp.Extents[j])
		}
		w := sp.Widths[j]
		if w < 1 || w >= sp.Extents[j] || (sp.Extents[j]%w != 0) != (j == sp.TailLabel) || sp.Plan.Problem.Extents[l] != w {
			t.Fatalf("%s: slice problem has extent %d for sliced label %s of width %d (tail label %d)", p, sp.Plan.Problem.Extents[l], p.Names[l], w, sp.TailLabel)
		}
		if j == sp.TailLabel && sp.Tail.Problem.Extents[l] != sp.Extents[j]-(sp.Chunks(j)-1)*w {
			t.Fatalf("%s: tail problem has extent %d for sliced label %s of extent %d and width %d", p, sp.Tail.Problem.Extents[l], p.Names[l], sp.Extents[j], w)
		}
		n *= sp.Chunks(j)
	}
	flops, peak := float64(n)*sp.Plan.Flops, sp.Plan.Peak
	if sp.Tail != nil {
		tails := float64(n / sp.Chunks(sp.TailLabel))
		flops += tails * (sp.Tail.Flops - sp.Plan.Flops)
		peak = max(peak, sp.Tail.Peak)
	}
	if n != sp.Slices || sp.Flops != flops || sp.PeakPerSlice != peak {
		t.Fatalf("%s: slices %d (want %d), flops %g (want %g), peak %g (want %g)", p, sp.Slices, n, sp.Flops, flops, sp.PeakPerSlice, peak)
	}
	if !(sp.FlopOverhead >= 1) || math.IsInf(sp.FlopOverhead, 0) {
		t.Fatalf("%s: flop overhead %g", p, sp.FlopOverhead)
	}
	got := runSliced(t, sp, data)
	want, mag := naive(p, data)
	terms := float64(prodDims(p.Extents) + len(p.Inputs))
	for i := range want {
		if d := math.Abs(got[i] - want[i]); d > terms*0x1p-52*mag[i] {
			t.Fatalf("%s sliced on %s: element %d = %g, want %g", p, p.Term(sp.Labels), i, got[i], want[i])
		}
	}
}

// TestPeakSSAMatchesPlan: the planner's peak estimate on a sequence is
// exactly the peak of the lowered plan's results and pre-reduced sides,
// for every strategy, and at most Plan.Peak, which adds the executor's
// copies.
func TestPeakSSAMatchesPlan(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 400 {
		p := randomProblem(rng, 2+rng.IntN(6), 3+rng.IntN(5), 5)
		for _, s := range []Strategy{Greedy, Optimal, Search} {
			pl, err := NewPlan(p, Options{Strategy: s})
			if err != nil {
				t.Fatal(err)
			}
			nw := newNetwork(p, 0)
			ssa, _ := linearToSSA(nw.n, pl.Path)
			if got := nw.peakSSA(ssa); got != pl.peakOf(false) || got > pl.Peak {
				t.Fatalf("%s (%s): peakSSA %g, without copies %g, Plan.Peak %g", p, s, got, pl.peakOf(false), pl.Peak)
			}
		}
	}
}

// TestSlicedRandomNetworks slices random networks (repeated labels,
// broadcast axes, scalars, awkward extents) at a fraction of their peak
// and checks that the sum of slices equals the naive loop.
func TestSlicedRandomNetworks(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	sliced := 0
	for range 300 {
		p := randomProblem(rng, 3+rng.IntN(4), 4+rng.IntN(4), 6)
		base, err := NewPlan(p, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if base.Peak < 4 {
			continue
		}
		data := randomData(rng, p)
		for _, frac := range []float64{0.5, 0.125} {
			opts := Options{MemoryLimit: math.Floor(base.Peak * frac), Strategy: []Strategy{Auto, Greedy, Optimal}[rng.IntN(3)]}
			sp, err := NewSlicedPlan(p, opts)
			if errors.Is(err, ErrLimitTooSmall) {
				var e *Error
				if !errors.As(err, &e) || len(e.Extents) != 2 || float64(e.Extents[1]) <= opts.MemoryLimit {
					t.Fatalf("%s: %v (extents %v)", p, err, e.Extents)
				}
				continue
			}
			if err != nil {
				t.Fatalf("%s limit %g: %v", p, opts.MemoryLimit, err)
			}
			if sp.Slices > 1 {
				sliced++
			}
			checkSliced(t, sp, data)
		}
	}
	if sliced < 50 {
		t.Errorf("only %d sliced plans", sliced)
	}
}

// TestSlicedUnslicedWhenItFits: no limit, or a limit the unsliced plan
// meets, gives one slice with overhead 1; zero-size extents need no
// memory at all.
func TestSlicedUnslicedWhenItFits(t *testing.T) {
	p := mustBind(t, "ij,jk,kl->il", []int{10, 20}, []int{20, 30}, []int{30, 5})
	for _, lim := range []float64{0, 1e9} {
		sp, err := NewSlicedPlan(p, Options{MemoryLimit: lim})
		if err != nil {
			t.Fatal(err)
		}
		if sp.Slices != 1 || len(sp.Labels) != 0 || sp.FlopOverhead != 1 || sp.Plan.Problem != p {
			t.Errorf("limit %g: %+v", lim, sp)
		}
	}
	z := mustBind(t, "ij,jk,kl->il", []int{10, 0}, []int{0, 30}, []int{30, 5})
	sp, err := NewSlicedPlan(z, Options{MemoryLimit: 1})
	if err != nil || sp.Slices != 1 || sp.PeakPerSlice != 0 {
		t.Errorf("zero-size: %v %+v", err, sp)
	}
}

// TestSlicedLimitErrors: a limit below the smallest slice peak names the
// minimum; bad limits and bad label lists are option errors.
func TestSlicedLimitErrors(t *testing.T) {
	// Every intermediate keeps an output label of extent 10 or 5: with j
	// and k sliced, ij,jk->ik leaves 10 elements (and kl the 5 of l).
	p := mustBind(t, "ij,jk,kl->il", []int{10, 20}, []int{20, 30}, []int{30, 5})
	_, err := NewSlicedPlan(p, Options{MemoryLimit: 2})
	var e *Error
	if !errors.Is(err, ErrLimitTooSmall) || !errors.Is(err, ErrMemoryLimit) || !errors.As(err, &e) {
		t.Fatalf("limit 2: %v", err)
	}
	if e.Extents[0] != 2 || e.Extents[1] != 5 {
		t.Errorf("limit 2: extents %v, want [2 5]", e.Extents)
	}
	sp, err := NewSlicedPlan(p, Options{MemoryLimit: float64(e.Extents[1])})
	if err != nil || sp.PeakPerSlice > 5 {
		t.Fatalf("limit at the minimum: %v", err)
	}
	for _, lim := range []float64{-1, math.NaN(), math.Inf(1)} {
		if _, err := NewSlicedPlan(p, Options{MemoryLimit: lim}); !errors.Is(err, ErrOption) {
			t.Errorf("limit %g: %v", lim, err)
		}
	}
	for _, labels := range [][]int{{9}, {-1}, {1, 1}} {
		if _, err := SliceWith(p, labels, Options{}); !errors.Is(err, ErrOption) {
			t.Errorf("SliceWith %v: %v", labels, err)
		}
	}
	if _, err := NewSlicedPlan(p, Options{MemoryLimit: 10, Workers: -1}); !errors.Is(err, ErrOption) {
		t.Errorf("workers -1: %v", err)
	}
	// j (20) and k (30) are summed: widths must be between 1 and the
	// extent, one per label, and at most one may leave a shorter chunk.
	for _, c := range []struct{ labels, widths []int }{
		{[]int{1}, []int{0}},
		{[]int{1}, []int{21}},
		{[]int{1, 2}, []int{2}},
		{[]int{1, 2}, []int{3, 7}},
	} {
		if _, err := SliceWithWidths(p, c.labels, c.widths, Options{}); !errors.Is(err, ErrOption) {
			t.Errorf("SliceWithWidths %v %v: %v", c.labels, c.widths, err)
		}
	}
	sp, err = SliceWithWidths(p, []int{1, 2}, []int{3, 6}, Options{})
	if err != nil || sp.TailLabel != 0 || sp.Slices != 7*5 {
		t.Fatalf("one shorter chunk: %v (tail %d, %d slices)", err, sp.TailLabel, sp.Slices)
	}
}

// TestSliceWithRoundTrip: a sliced plan rebuilt from its labels, widths
// and slice path has the same steps and costs.
func TestSliceWithRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for range 100 {
		p := randomProblem(rng, 3+rng.IntN(5), 4+rng.IntN(4), 6)
		base, _ := NewPlan(p, Options{})
		if base.Peak < 4 {
			continue
		}
		sp, err := NewSlicedPlan(p, Options{MemoryLimit: base.Peak / 4})
		if err != nil {
			continue
		}
		re, err := SliceWithWidths(p, sp.Labels, sp.Widths, Options{Strategy: Given, Path: sp.Plan.Path})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(re.Plan.Path, sp.Plan.Path) || re.Slices != sp.Slices || re.Flops != sp.Flops || re.PeakPerSlice != sp.PeakPerSlice {
			t.Fatalf("%s: rebuilt %v %d %g %g, want %v %d %g %g", p, re.Plan.Path, re.Slices, re.Flops, re.PeakPerSlice, sp.Plan.Path, sp.Slices, sp.Flops, sp.PeakPerSlice)
		}
	}
}

// TestSlicedGivenPath keeps a caller's path and slices around it.
func TestSlicedGivenPath(t *testing.T) {
	p := mustBind(t, "ab,bc,cd,de->ae", []int{3, 40}, []int{40, 50}, []int{50, 60}, []int{60, 2})
	path := [][2]int{{1, 2}, {0, 2}, {0, 1}}
	base, err := NewPlan(p, Options{Strategy: Given, Path: path})
	if err != nil {
		t.Fatal(err)
	}
	sp, err := NewSlicedPlan(p, Options{Strategy: Given, Path: path, MemoryLimit: base.Peak / 10})
	if err != nil {
		t.Fatal(err)
	}
	if sp.Slices < 2 || sp.PeakPerSlice > base.Peak/10 {
		t.Fatalf("%+v", sp)
	}
	checkSliced(t, sp, randomData(rand.New(rand.NewPCG(1, 2)), p))
}

// TestLowPeakOrder: reordering keeps the tree and the FLOPs, never
// raises the peak, and reports the reordered sequence's peak.
func TestLowPeakOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	lower := 0
	for range 300 {
		p := randomProblem(rng, 3+rng.IntN(8), 4+rng.IntN(6), 5)
		nw := newNetwork(p, 0)
		ssa, err := nw.greedy(greedyParams{costmod: 1})
		if err != nil {
			t.Fatal(err)
		}
		re, peak := nw.lowPeakOrder(ssa)
		f0, _ := nw.evalSSA(ssa)
		f1, _ := nw.evalSSA(re)
		p0, p1 := nw.peakSSA(ssa), nw.peakSSA(re)
		if f0 != f1 || p1 != peak || p1 > p0 || len(re) != len(ssa) {
			t.Fatalf("%s: flops %g -> %g, peak %g -> %g (reported %g)", p, f0, f1, p0, p1, peak)
		}
		if p1 < p0 {
			lower++
		}
	}
	if lower == 0 {
		t.Error("reordering never lowered a peak")
	}
}

// TestConcurrencyDirect: Concurrency equals the most workers, counted
// down from min(workers, slices), whose ConcurrentPeak fits the limit,
// also for a worker count far beyond the slices.
func TestConcurrencyDirect(t *testing.T) {
	e, _ := Parse("ij,jk,kl->il")
	p, _ := e.Bind([][]int{{10, 20}, {20, 30}, {30, 5}})
	sp, err := NewSlicedPlan(p, Options{MemoryLimit: 5})
	if err != nil {
		t.Fatal(err)
	}
	for _, workers := range []int{1, 2, 3, 7, 19, 20, 21, 1 << 40} {
		for limit := 0.0; limit <= 1200; limit += 5 {
			want := max(min(workers, sp.Slices), 1)
			for want > 1 && limit > 0 && sp.ConcurrentPeak(want) > limit {
				want--
			}
			if got := sp.Concurrency(workers, limit); got != want {
				t.Fatalf("Concurrency(%d, %g) = %d, want %d", workers, limit, got, want)
			}
		}
	}
}

// TestSliceOutputLabels: output labels are sliced when asked (SliceWith
// naming them, or Options.SliceOutput), ordered after the summed labels so
// that each part's slices are consecutive; a label repeated in the output
// is never sliced.
func TestSliceOutputLabels(t *testing.T) {
	// Label ids: i 0, j 1, k 2, l 3; i and l are output labels.
	p := mustBind(t, "ij,jk,kl->il", []int{10, 20}, []int{20, 30}, []int{30, 5})
	sp, err := SliceWith(p, []int{3, 1, 0}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(sp.Labels, []int{1, 0, 3}) || sp.Summed != 1 || sp.Slices != 20*10*5 || sp.PartSlices() != 20 {
		t.Errorf("labels %v summed %d slices %d part %d, want [1 0 3] 1 1000 20", sp.Labels, sp.Summed, sp.Slices, sp.PartSlices())
	}
	// Slice s writes part s / 20: i and l vary only every 20 slices.
	idx := make([]int, 3)
	for _, s := range []int{0, 19, 20, 999} {
		sp.SliceIndex(s, idx)
		if idx[0] != s%20 || idx[1] != s/20%10 || idx[2] != s/200 {
			t.Errorf("slice %d: chunks %v", s, idx)
		}
	}
	// Slicing only output labels adds no FLOPs on the same path.
	if sp, err = SliceWith(p, []int{0}, Options{}); err != nil || sp.Summed != 0 || sp.PartSlices() != 1 || sp.FlopOverhead > 1.5 {
		t.Errorf("output label alone: %v %+v", err, sp)
	}
	// Without the option a limit of 2 is below the minimum (5); with it,
	// i and l are sliced too.
	if _, err := NewSlicedPlan(p, Options{MemoryLimit: 2}); !errors.Is(err, ErrLimitTooSmall) {
		t.Errorf("limit 2 without SliceOutput: %v", err)
	}
	sp, err = NewSlicedPlan(p, Options{MemoryLimit: 2, SliceOutput: true})
	if err != nil || sp.PeakPerSlice > 2 || sp.Summed == len(sp.Labels) {
		t.Fatalf("limit 2 with SliceOutput: %v %+v", err, sp)
	}
	// Rebuilt from its labels, widths and path, the plan is the same.
	re, err := SliceWithWidths(p, sp.Labels, sp.Widths, Options{Strategy: Given, Path: sp.Plan.Path})
	if err != nil || !slices.Equal(re.Labels, sp.Labels) || re.Summed != sp.Summed || re.Slices != sp.Slices || re.Plan.Flops != sp.Plan.Flops {
		t.Errorf("rebuilt: %v %+v", err, re)
	}
	rep := mustBind(t, "ij,jk->iik", []int{4, 5}, []int{5, 6})
	if _, err := SliceWith(rep, []int{0}, Options{}); !errors.Is(err, ErrOption) {
		t.Errorf("repeated output label: %v", err)
	}
	for _, l := range []int{1, 2} {
		if _, err := SliceWith(rep, []int{l}, Options{}); err != nil {
			t.Errorf("label %d of ij,jk->iik: %v", l, err)
		}
	}
	if sp, err := NewSlicedPlan(rep, Options{MemoryLimit: 1, SliceOutput: true}); err == nil && slices.Contains(sp.Labels, 0) {
		t.Errorf("the search sliced the repeated output label: %v", sp.Labels)
	}
}
