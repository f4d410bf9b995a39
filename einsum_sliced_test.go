package tenferro_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/backend/enginetest"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/einsum"
	"github.com/tenferro-go/tenferro/internal/instances"
)

// slicedCases have primes, batch labels (in the output and two operands),
// diagonals, broadcast axes and ellipses; each has intermediates to slice.
var slicedCases = []einsumCase{
	{"ijb,jkb,klb->ilb", [][]int{{5, 7, 3}, {7, 11, 3}, {11, 13, 3}}},
	{"iij,jk,kl->il", [][]int{{3, 3, 7}, {7, 11}, {11, 2}}},
	{"xay,ybz,zcx->abc", [][]int{{13, 2, 11}, {11, 3, 7}, {7, 2, 13}}},
	{"a...,a...b,bc->...c", [][]int{{5, 3, 1}, {5, 3, 4, 7}, {7, 2}}},
	{"ab,bc,cd,de,ea->", [][]int{{5, 7}, {7, 3}, {3, 11}, {11, 2}, {2, 5}}},
	{"pqr,qrs,s->p", [][]int{{2, 13, 1}, {13, 5, 17}, {17}}},
	// Composite extents, which the slicer cuts into chunks of several
	// values.
	{"ijb,jkb,klb->ilb", [][]int{{4, 12, 2}, {12, 8, 2}, {8, 6, 2}}},
	{"xay,ybz,zcx->abc", [][]int{{6, 2, 8}, {8, 3, 4}, {4, 2, 6}}},
	{"ab,bc,cd,de,ea->", [][]int{{4, 6}, {6, 4}, {4, 9}, {9, 2}, {2, 4}}},
}

// blockedCases end with a product whose result groups do not fuse in a
// column-major destination and are written in blocks of at least
// einsum.BlockMin rows or columns (einsum.GemmLayout).
var blockedCases = []einsumCase{
	{"iaj,akl->kilj", [][]int{{33, 4, 3}, {4, 34, 2}}},
	{"ija,ak->ikj", [][]int{{40, 3, 6}, {6, 5}}},
	{"iab,bc,cjd->jdi", [][]int{{40, 3, 4}, {4, 5}, {5, 36, 2}}},
}

// unslicedPeak is the peak of the best plan without a limit.
func unslicedPeak(t testing.TB, dt tf.DType, sub string, shapes [][]int) float64 {
	t.Helper()
	p, err := tf.PrepareEinsum(dt, sub, shapes)
	if err != nil {
		t.Fatalf("%s %v: %v", sub, shapes, err)
	}
	return p.Peak()
}

// checkSlicedCase evaluates sub on random operands of random layouts
// under a limit of frac of the unsliced peak, with Einsum, a prepared plan
// and an accumulating Into form into a strided destination, and compares
// with the reference. It reports whether the plan was sliced.
func checkSlicedCase[T tf.Scalar](t *testing.T, e *cpu.Engine, rng *rand.Rand, sub string, shapes [][]int, frac float64, extra ...tf.Option) bool {
	t.Helper()
	dt := tf.DTypeOf[T]()
	limit := math.Floor(unslicedPeak(t, dt, sub, shapes) * frac)
	if limit < 1 {
		return false
	}
	opts := append([]tf.Option{tf.WithMemoryLimit(limit)}, extra...)
	p, err := tf.PrepareEinsum(dt, sub, shapes, opts...)
	if errors.Is(err, einsum.ErrLimitTooSmall) {
		if !errors.Is(err, tf.ErrMemory) {
			t.Fatalf("%s: %v is not an ErrMemory error", sub, err)
		}
		return false
	}
	if err != nil {
		t.Fatalf("%s %v limit %g: %v", sub, shapes, limit, err)
	}
	if p.Peak() > limit {
		t.Fatalf("%s: slice peak %g > limit %g", sub, p.Peak(), limit)
	}
	ops := make([]*tf.Tensor[T], len(shapes))
	data := make([][]complex128, len(shapes))
	for k, s := range shapes {
		ops[k] = enginetest.Operand[T](t, rng, s, rng.IntN(enginetest.NumLayouts))
		data[k] = enginetest.Dense(ops[k])
	}
	ref := enginetest.EinsumReference(sub, shapes, data)
	what := fmt.Sprintf("%s %v %v limit %g (%d slices)", sub, shapes, dt, limit, p.Slices())
	got, err := tf.EinsumWith(e, sub, ops, opts...)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	enginetest.Check(t, what, got, ref)
	got.Release()
	got, err = tf.EinsumPlanned(e, p, ops...)
	if err != nil {
		t.Fatalf("%s: planned: %v", what, err)
	}
	enginetest.Check(t, what+" planned", got, ref)
	got.Release()
	// dst = 2·result + 0.5·dst, through a strided destination.
	dst, whole := enginetest.Destination[T](t, ref.Shape, rng.IntN(enginetest.NumLayouts), 0)
	old := make([]complex128, len(ref.Val))
	enginetest.Each(ref.Shape, func(idx []int) {
		x := complex(rng.Float64(), 0)
		dst.Set(castTo[T](x), idx...)
	})
	copy(old, enginetest.Dense(dst))
	if err := tf.EinsumWithInto(e, dst, sub, ops, append(opts, tf.Accumulate(2, 0.5))...); err != nil {
		t.Fatalf("%s: accumulate: %v", what, err)
	}
	acc := enginetest.Reference{Shape: ref.Shape, Val: make([]complex128, len(ref.Val)), Abs: make([]float64, len(ref.Val)), Depth: ref.Depth + 2}
	for i := range ref.Val {
		acc.Val[i] = 2*ref.Val[i] + 0.5*old[i]
		acc.Abs[i] = 2*ref.Abs[i] + 0.5*cmplxAbs(old[i])
	}
	enginetest.Check(t, what+" accumulate", dst, acc)
	_ = whole
	return p.Slices() > 1
}

func cmplxAbs(z complex128) float64 { return math.Hypot(real(z), imag(z)) }

func castTo[T tf.Scalar](z complex128) T {
	var v T
	switch p := any(&v).(type) {
	case *float32:
		*p = float32(real(z))
	case *float64:
		*p = real(z)
	case *complex64:
		*p = complex64(z)
	case *complex128:
		*p = z
	}
	return v
}

// TestEinsumSlicedCases: the fixed cases in every dtype, at a half, a
// quarter, an eighth and a sixteenth of their unsliced peak; some of the
// plans cut a label into chunks of several values.
func TestEinsumSlicedCases(t *testing.T) {
	e := cpu.Serial()
	defer e.Close()
	rng := rand.New(rand.NewPCG(61, 62))
	sliced := 0
	fracs := []float64{0.5, 0.25, 1.0 / 8, 1.0 / 16}
	for _, c := range append(slicedCases, blockedCases...) {
		for _, frac := range fracs {
			for _, ok := range []bool{
				checkSlicedCase[float32](t, e, rng, c.sub, c.shapes, frac),
				checkSlicedCase[float64](t, e, rng, c.sub, c.shapes, frac),
				checkSlicedCase[complex64](t, e, rng, c.sub, c.shapes, frac),
				checkSlicedCase[complex128](t, e, rng, c.sub, c.shapes, frac),
			} {
				if ok {
					sliced++
				}
			}
		}
	}
	if sliced < 4*len(slicedCases) {
		t.Errorf("only %d of %d evaluations were sliced", sliced, 4*len(fracs)*len(slicedCases))
	}
	// With output labels allowed, the smaller limits slice some of them;
	// each slice then writes its own part of the destination.
	outSliced := 0
	for _, c := range append(slicedCases, blockedCases...) {
		for _, frac := range fracs[2:] {
			checkSlicedCase[float64](t, e, rng, c.sub, c.shapes, frac, tf.WithOutputSlicing())
			checkSlicedCase[complex64](t, e, rng, c.sub, c.shapes, frac, tf.WithOutputSlicing())
			lim := math.Floor(unslicedPeak(t, tf.Float64, c.sub, c.shapes) * frac)
			if p, err := tf.PrepareEinsum(tf.Float64, c.sub, c.shapes, tf.WithMemoryLimit(lim), tf.WithOutputSlicing()); err == nil && p.Sliced() != nil && p.Sliced().Summed < len(p.Sliced().Labels) {
				outSliced++
			}
		}
	}
	t.Logf("output-sliced plans: %d", outSliced)
	if outSliced < 3 {
		t.Errorf("only %d plans sliced an output label", outSliced)
	}
	widened := 0
	for _, c := range slicedCases {
		for _, frac := range fracs {
			p, err := tf.PrepareEinsum(tf.Float64, c.sub, c.shapes, tf.WithMemoryLimit(math.Floor(unslicedPeak(t, tf.Float64, c.sub, c.shapes)*frac)))
			if err == nil && p.Sliced() != nil && slices.Max(p.Sliced().Widths) > 1 {
				widened++
			}
		}
	}
	if widened < 3 {
		t.Errorf("only %d plans cut a label into chunks", widened)
	}
}

// TestEinsumSlicedRandomNetworks: random networks (repeated labels,
// broadcast axes, extents 1 to 4, every dtype) sliced at a quarter of
// their peak, or at half of it when a quarter is below what any slice
// needs (a slice that adds into the destination through a staging buffer
// needs room for the output), agree with the reference.
func TestEinsumSlicedRandomNetworks(t *testing.T) {
	count := 120
	if testing.Short() {
		count = 30
	}
	e := cpu.Serial()
	defer e.Close()
	rng := rand.New(rand.NewPCG(63, 64))
	sliced := 0
	for i := range count {
		sub, shapes := randomNetwork(rng, 3+rng.IntN(4))
		fixBroadcast(sub, shapes)
		for _, frac := range []float64{0.25, 0.5} {
			var ok bool
			var extra []tf.Option
			if i%3 == 0 {
				extra = append(extra, tf.WithOutputSlicing())
			}
			switch i % 4 {
			case 0:
				ok = checkSlicedCase[float32](t, e, rng, sub, shapes, frac, extra...)
			case 1:
				ok = checkSlicedCase[float64](t, e, rng, sub, shapes, frac, extra...)
			case 2:
				ok = checkSlicedCase[complex64](t, e, rng, sub, shapes, frac, extra...)
			default:
				ok = checkSlicedCase[complex128](t, e, rng, sub, shapes, frac, extra...)
			}
			if ok {
				sliced++
				break
			}
		}
	}
	if sliced < count/10 {
		t.Errorf("only %d of %d networks were sliced", sliced, count)
	}
}

// TestEinsumSlicesEachOnce: every slice alone equals the contraction of
// the operands' sub-tensors with the sliced labels fixed to its values,
// and the partial sums of random disjoint ranges add up to the whole.
func TestEinsumSlicesEachOnce(t *testing.T) {
	e := cpu.Serial()
	defer e.Close()
	rng := rand.New(rand.NewPCG(65, 66))
	sub := "ijb,jkb,klb->ilb"
	shapes := [][]int{{5, 7, 3}, {7, 11, 3}, {11, 13, 3}}
	p, err := tf.PrepareEinsum(tf.Float64, sub, shapes, tf.WithMemoryLimit(20))
	if err != nil {
		t.Fatal(err)
	}
	sp := p.Sliced()
	if sp == nil || sp.Slices < 2 {
		t.Fatalf("not sliced: %s", p.Report())
	}
	ops := make([]*tf.Tensor[float64], len(shapes))
	for k, s := range shapes {
		ops[k] = enginetest.Operand[float64](t, rng, s, k%enginetest.NumLayouts)
	}
	terms := strings.Split(strings.Split(sub, "->")[0], ",")
	names := sp.LabelNames()
	dst, _ := tf.Zeros[float64](p.OutputShape()...)
	idx := make([]int, len(names))
	for s := range sp.Slices {
		sp.SliceIndex(s, idx)
		views := make([]*tf.Tensor[float64], len(ops))
		data := make([][]complex128, len(ops))
		vshapes := make([][]int, len(ops))
		for k, x := range ops {
			v := x
			for a, r := range terms[k] {
				if j := slices.Index(names, string(r)); j >= 0 {
					if v, err = v.Slice(a, idx[j], idx[j]+1, 1); err != nil {
						t.Fatal(err)
					}
				}
			}
			views[k], data[k], vshapes[k] = v, enginetest.Dense(v), v.Shape()
		}
		if err := tf.EinsumSlicesInto(e, dst, p, s, s+1, ops...); err != nil {
			t.Fatal(err)
		}
		enginetest.Check(t, fmt.Sprintf("slice %d %v", s, idx), dst, enginetest.EinsumReference(sub, vshapes, data))
	}
	// Random disjoint ranges covering every slice.
	data := make([][]complex128, len(ops))
	for k := range ops {
		data[k] = enginetest.Dense(ops[k])
	}
	ref := enginetest.EinsumReference(sub, shapes, data)
	sum := make([]complex128, len(ref.Val))
	for lo := 0; lo < sp.Slices; {
		hi := min(lo+1+rng.IntN(4), sp.Slices)
		if err := tf.EinsumSlicesInto(e, dst, p, lo, hi, ops...); err != nil {
			t.Fatal(err)
		}
		for i, v := range enginetest.Dense(dst) {
			sum[i] += v
		}
		lo = hi
	}
	got, _ := tf.FromSlice(realParts(sum), ref.Shape...)
	enginetest.Check(t, "sum of ranges", got, enginetest.Reference{Shape: ref.Shape, Val: ref.Val, Abs: ref.Abs, Depth: ref.Depth + sp.Slices})
	// Bad ranges are refused before anything is written.
	for _, r := range [][2]int{{-1, 1}, {0, 0}, {2, 1}, {0, sp.Slices + 1}} {
		if err := tf.EinsumSlicesInto(e, dst, p, r[0], r[1], ops...); !errors.Is(err, tf.ErrArgument) {
			t.Errorf("range %v: %v", r, err)
		}
	}
}

func realParts(z []complex128) []float64 {
	out := make([]float64, len(z))
	for i, v := range z {
		out[i] = real(v)
	}
	return out
}

// positiveOps returns float64 operands of the shapes with values in
// [0.5, 1.5), so that sums of different orders agree to rounding relative
// to the value.
func positiveOps(rng *rand.Rand, shapes [][]int) []*tf.Tensor[float64] {
	ops := make([]*tf.Tensor[float64], len(shapes))
	for k, s := range shapes {
		buf := make([]float64, tf.Numel(s))
		for i := range buf {
			buf[i] = 0.5 + rng.Float64()
		}
		ops[k], _ = tf.FromSlice(buf, s...)
	}
	return ops
}

// closeToRel compares two results of positive terms to a relative tolerance.
func closeToRel(t *testing.T, what string, got, want *tf.Tensor[float64], tol float64) {
	t.Helper()
	g, w := enginetest.Dense(got), enginetest.Dense(want)
	for i := range w {
		if d := math.Abs(real(g[i]) - real(w[i])); !(d <= tol*math.Abs(real(w[i]))) {
			t.Fatalf("%s: element %d = %v, want %v", what, i, g[i], w[i])
		}
	}
}

// TestEinsumSlicedUnderBudget: a contraction whose unsliced peak is four
// times the engine's memory budget runs sliced to the right answer, with
// a planned peak per slice within the budget (less the output), and the
// engine holds no more than the budget at once (intermediates, layout
// copies, staging and the result).
func TestEinsumSlicedUnderBudget(t *testing.T) {
	sub := "xay,ybz,zcx->abc"
	shapes := [][]int{{40, 3, 40}, {40, 3, 40}, {40, 3, 40}}
	peak := unslicedPeak(t, tf.Float64, sub, shapes)
	budget := int64(peak * 8 / 4)
	ops := positiveOps(rand.New(rand.NewPCG(67, 68)), shapes)
	free := cpu.Serial(cpu.WithMemoryBudget(0))
	defer free.Close()
	want, err := tf.Einsum(free, sub, ops...)
	if err != nil {
		t.Fatal(err)
	}
	e := cpu.Serial(cpu.WithMemoryBudget(budget))
	defer e.Close()
	got, err := tf.Einsum(e, sub, ops...)
	if err != nil {
		t.Fatalf("budget %d bytes, unsliced peak %g bytes: %v", budget, peak*8, err)
	}
	closeToRel(t, "sliced under the budget", got, want, 1e-12)
	// The plan the call used: planned by the budget less the output.
	p, err := tf.PrepareEinsum(tf.Float64, sub, shapes, tf.WithMemoryLimit(float64(budget/8-27)))
	if err != nil || p.Slices() < 2 || p.Peak()*8 > float64(budget) {
		t.Fatalf("plan under the budget: %v, %d slices, peak %g elements", err, p.Slices(), p.Peak())
	}
	held := e.AllocationStats().PeakInUseBytes
	t.Logf("unsliced peak %g bytes, budget %d, %d slices of %g bytes; the engine held at most %d bytes at once",
		peak*8, budget, p.Slices(), p.Peak()*8, held)
	if held > budget {
		t.Errorf("the engine held %d bytes at once, over the budget of %d", held, budget)
	}
	// Without room for intermediates (the output alone exceeds the
	// budget) the budget still refuses the contraction.
	tiny := cpu.Serial(cpu.WithMemoryBudget(64))
	defer tiny.Close()
	if _, err := tf.Einsum(tiny, sub, ops...); !errors.Is(err, tf.ErrMemory) {
		t.Errorf("budget of 64 bytes: %v, want ErrMemory", err)
	}
}

// TestEinsumSlicedMeasuredPeak: while a sliced contraction of dense
// operands runs, the buffers the engine hands out at once (intermediates,
// layout copies for GEMM and staging of the accumulated result) stay
// within 10% of the planned peak of one slice, at 1/8 and 1/32 of the
// unsliced peak, and an unsliced evaluation holds what its plan says.
func TestEinsumSlicedMeasuredPeak(t *testing.T) {
	e := cpu.Serial()
	defer e.Close()
	rng := rand.New(rand.NewPCG(69, 70))
	maxSlices := 20000
	if testing.Short() {
		maxSlices = 600
	}
	for _, in := range instances.Builtin(1)[:5] {
		ops := positiveOps(rng, in.Shapes)
		for _, frac := range []float64{1, 1.0 / 8, 1.0 / 32} {
			var opts []tf.Option
			if frac < 1 {
				opts = append(opts, tf.WithMemoryLimit(math.Floor(unslicedPeak(t, tf.Float64, in.Subscripts, in.Shapes)*frac)))
			}
			p, err := tf.PrepareEinsum(tf.Float64, in.Subscripts, in.Shapes, opts...)
			if errors.Is(err, einsum.ErrLimitTooSmall) {
				t.Logf("%-32s at %.4f of the peak: %v", in.Name, frac, err)
				continue
			}
			if err != nil {
				t.Fatalf("%s: %v", in.Name, err)
			}
			if frac < 1 && p.Slices() < 2 {
				t.Fatalf("%s: not sliced", in.Name)
			}
			if p.Slices() > maxSlices {
				// A matrix chain at 1/32 of its peak: its intermediates only
				// fit as outer products of vectors, billions of them (and
				// with -short, thousands of slices take too long).
				t.Logf("%-32s at %.4f of the peak: %d slices, not evaluated", in.Name, frac, p.Slices())
				continue
			}
			dst, _ := tf.Zeros[float64](p.OutputShape()...)
			e.ClearBufferPool()
			e.ResetAllocationPeak()
			if err := tf.EinsumPlannedInto(e, dst, p, ops...); err != nil {
				t.Fatal(err)
			}
			planned := p.Peak() * 8
			measured := e.AllocationStats().PeakInUseBytes
			ratio := float64(measured) / planned
			t.Logf("%-32s %6d slices: planned %9.0f bytes per slice, measured %9d (ratio %.3f)", in.Name, p.Slices(), planned, measured, ratio)
			if math.Abs(ratio-1) > 0.1 {
				t.Errorf("%s at %.4f of the peak: measured %.3f times the planned peak", in.Name, frac, ratio)
			}
			want, err := tf.Einsum(e, in.Subscripts, ops...)
			if err != nil {
				t.Fatal(err)
			}
			closeToRel(t, in.Name, dst, want, 1e-10)
			want.Release()
		}
	}
}

// TestEinsumPeakModel: on random networks of dense operands (repeated
// labels, broadcast axes, extents 1 to 4), unsliced and sliced at half of
// their peak, the most the engine's pool hands out at once is exactly the
// planned peak: the plan counts every intermediate, layout copy and
// staging buffer the executor takes, on a serial and on a team engine
// (where slices that run at once stay within their concurrent peak).
func TestEinsumPeakModel(t *testing.T) {
	t.Run("serial", func(t *testing.T) {
		e := cpu.Serial()
		defer e.Close()
		checkPeakModel(t, e)
	})
	t.Run("team", func(t *testing.T) { checkPeakModel(t, teamEngine(t)) })
}

func checkPeakModel(t *testing.T, e *cpu.Engine) {
	rng := rand.New(rand.NewPCG(73, 74))
	sliced := 0
	for i := range 200 + len(blockedCases) {
		var sub string
		var shapes [][]int
		if i < len(blockedCases) {
			sub, shapes = blockedCases[i].sub, blockedCases[i].shapes
		} else {
			sub, shapes = randomNetwork(rng, 2+rng.IntN(5))
			fixBroadcast(sub, shapes)
		}
		ops := positiveOps(rng, shapes)
		for _, frac := range []float64{1, 0.5} {
			var opts []tf.Option
			if frac < 1 {
				opts = append(opts, tf.WithMemoryLimit(math.Floor(unslicedPeak(t, tf.Float64, sub, shapes)*frac)))
			}
			p, err := tf.PrepareEinsum(tf.Float64, sub, shapes, opts...)
			if errors.Is(err, einsum.ErrLimitTooSmall) {
				continue
			}
			if err != nil {
				t.Fatalf("%s %v: %v", sub, shapes, err)
			}
			if p.Slices() > 1 {
				sliced++
			}
			dst, _ := tf.Zeros[float64](p.OutputShape()...)
			e.ClearBufferPool()
			e.ResetAllocationPeak()
			if err := tf.EinsumPlannedInto(e, dst, p, ops...); err != nil {
				t.Fatal(err)
			}
			got, want := e.AllocationStats().PeakInUseBytes, int64(p.Peak())*8
			if w := e.ConcurrentSlices(p); w > 1 {
				// Slices at once reach their peaks at moments of their own:
				// the planned concurrent peak bounds what they hold.
				if hi := int64(p.Sliced().ConcurrentPeak(w)) * 8; got > hi {
					t.Fatalf("%s %v (%d slices, %d at once): measured peak %d bytes, above the planned %d", sub, shapes, p.Slices(), w, got, hi)
				}
			} else if got != want {
				t.Fatalf("%s %v (%d slices): measured peak %d bytes, planned %d\n%s", sub, shapes, p.Slices(), got, want, p.Report())
			}
		}
	}
	if sliced < 20 {
		t.Errorf("only %d sliced evaluations", sliced)
	}
}
