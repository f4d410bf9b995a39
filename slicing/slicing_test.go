package slicing_test

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/slicing"
	"github.com/tenferro-go/tenferro/team"
)

// A batch label (b, in the output and two operands), a diagonal (ii),
// primes and an ellipsis.
var cases = []struct {
	sub    string
	shapes [][]int
}{
	{"ijb,jkb,klb->ilb", [][]int{{5, 7, 3}, {7, 11, 3}, {11, 13, 3}}},
	{"iij,jk,kl->il", [][]int{{3, 3, 7}, {7, 11}, {11, 2}}},
	{"xay,ybz,zcx->abc", [][]int{{13, 2, 11}, {11, 3, 7}, {7, 2, 13}}},
	{"a...,a...b,bc->...c", [][]int{{5, 3, 1}, {5, 3, 4, 7}, {7, 2}}},
}

var dtypes = []tf.DType{tf.Float32, tf.Float64, tf.Complex64, tf.Complex128}

// randomValue returns a compact tensor of dt with entries in [0.5, 1.5)
// (both parts for complex), so that results of different summation orders
// agree to a relative tolerance.
func randomValue(rng *rand.Rand, dt tf.DType, shape []int) tf.Value {
	v, _ := tf.NewValue(dt, shape...)
	switch dt {
	case tf.Float32:
		fill[float32](v, rng)
	case tf.Float64:
		fill[float64](v, rng)
	case tf.Complex64:
		fill[complex64](v, rng)
	default:
		fill[complex128](v, rng)
	}
	return v
}

func fill[T tf.Scalar](v tf.Value, rng *rand.Rand) {
	t, _ := tf.As[T](v)
	d, _ := t.Data()
	for i := range d {
		var x T
		switch p := any(&x).(type) {
		case *float32:
			*p = float32(0.5 + rng.Float64())
		case *float64:
			*p = 0.5 + rng.Float64()
		case *complex64:
			*p = complex(float32(0.5+rng.Float64()), float32(0.5+rng.Float64()))
		case *complex128:
			*p = complex(0.5+rng.Float64(), 0.5+rng.Float64())
		}
		d[i] = x
	}
}

// elems reads a value's elements in column-major order as complex128.
func elems(t *testing.T, v tf.Value) []complex128 {
	t.Helper()
	c, err := tf.Convert(v, tf.Complex128)
	if err != nil {
		t.Fatal(err)
	}
	x, _ := tf.As[complex128](c)
	if !x.IsCompact() {
		x, _ = x.Clone()
	}
	d, err := x.Data()
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func near(t *testing.T, what string, got, want tf.Value, tol float64) {
	t.Helper()
	g, w := elems(t, got), elems(t, want)
	if len(g) != len(w) {
		t.Fatalf("%s: %d elements, want %d", what, len(g), len(w))
	}
	for i := range w {
		if d := cmplx.Abs(g[i] - w[i]); !(d <= tol*cmplx.Abs(w[i])) {
			t.Fatalf("%s: element %d = %v, want %v", what, i, g[i], w[i])
		}
	}
}

func tolOf(dt tf.DType) float64 {
	if dt == tf.Float32 || dt == tf.Complex64 {
		return 1e-4
	}
	return 1e-12
}

// unsliced evaluates the contraction in one piece.
func unsliced(t *testing.T, e tf.Engine, dt tf.DType, sub string, ops []tf.Value) tf.Value {
	t.Helper()
	switch dt {
	case tf.Float32:
		return einsumTyped[float32](t, e, sub, ops)
	case tf.Float64:
		return einsumTyped[float64](t, e, sub, ops)
	case tf.Complex64:
		return einsumTyped[complex64](t, e, sub, ops)
	}
	return einsumTyped[complex128](t, e, sub, ops)
}

func einsumTyped[T tf.Scalar](t *testing.T, e tf.Engine, sub string, vals []tf.Value) tf.Value {
	ops := make([]*tf.Tensor[T], len(vals))
	for k, v := range vals {
		ops[k], _ = tf.As[T](v)
	}
	r, err := tf.Einsum(e, sub, ops...)
	if err != nil {
		t.Fatal(err)
	}
	return tf.ValueOf(r)
}

// plan makes a sliced plan at a quarter of the unsliced peak.
func plan(t *testing.T, dt tf.DType, sub string, shapes [][]int) *slicing.Plan {
	t.Helper()
	full, err := slicing.New(dt, sub, shapes, 0)
	if err != nil {
		t.Fatal(err)
	}
	if full.Slices != 1 || len(full.SlicedLabels) != 0 || full.FlopOverhead != 1 {
		t.Fatalf("%s without a limit: %+v", sub, full)
	}
	p, err := slicing.New(dt, sub, shapes, full.SlicePeakBytes/4)
	if err != nil {
		t.Fatal(err)
	}
	if p.Slices < 2 || p.SlicePeakBytes > full.SlicePeakBytes/4 {
		t.Fatalf("%s at a quarter of %d bytes: %+v", sub, full.SlicePeakBytes, p)
	}
	return p
}

// TestContractRangesReduce: for every case and dtype, a plan written and
// read back, its slices split into random ranges evaluated with
// ContractRange (some twice) and summed by a Reducer, equals the unsliced
// contraction.
func TestContractRangesReduce(t *testing.T) {
	e := cpu.Serial()
	defer e.Close()
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range cases {
		for _, dt := range dtypes {
			checkRanges(t, e, rng, c.sub, c.shapes, dt, roundTrip(t, plan(t, dt, c.sub, c.shapes)))
		}
	}
}

// roundTrip writes p as JSON and reads it back.
func roundTrip(t *testing.T, p *slicing.Plan) *slicing.Plan {
	t.Helper()
	var buf bytes.Buffer
	if err := p.Write(&buf); err != nil {
		t.Fatal(err)
	}
	q, err := slicing.Read(&buf)
	if err != nil {
		t.Fatalf("%s: Read(Write): %v", p.Subscripts, err)
	}
	return q
}

// checkRanges evaluates the slices of q in random ranges with
// ContractRange (some sent twice), sums them with a Reducer and compares
// with the unsliced contraction of random operands.
func checkRanges(t *testing.T, e *cpu.Engine, rng *rand.Rand, sub string, shapes [][]int, dt tf.DType, q *slicing.Plan) {
	t.Helper()
	ops := make([]tf.Value, len(shapes))
	for k, s := range shapes {
		ops[k] = randomValue(rng, dt, s)
	}
	if err := q.Check(ops); err != nil {
		t.Fatal(err)
	}
	r, err := slicing.NewReducer(q)
	if err != nil {
		t.Fatal(err)
	}
	for lo := 0; lo < q.Slices; {
		hi := min(lo+1+rng.IntN(5), q.Slices)
		partial, _ := tf.NewValue(dt, q.OutputShape...)
		if err := slicing.ContractRange(e, q, lo, hi, ops, partial); err != nil {
			t.Fatalf("%s [%d, %d): %v", sub, lo, hi, err)
		}
		for range 1 + rng.IntN(2) { // sometimes sent twice
			if _, err := r.Add(lo, hi, partial); err != nil {
				t.Fatal(err)
			}
		}
		if done, total := r.Progress(); done != hi || total != q.Slices {
			t.Fatalf("progress %d/%d after [%d, %d)", done, total, lo, hi)
		}
		lo = hi
	}
	if !r.Done() {
		t.Fatal("not done")
	}
	got, err := r.Result()
	if err != nil {
		t.Fatal(err)
	}
	near(t, fmt.Sprintf("%s %v %v (%d slices)", sub, dt, q.SlicedLabels, q.Slices), got, unsliced(t, e, dt, sub, ops), tolOf(dt))
}

// TestReducerRanges: duplicates are not added twice, overlapping unequal
// ranges and bad partials are refused, and the result waits for every
// slice.
func TestReducerRanges(t *testing.T) {
	p := plan(t, tf.Float64, cases[0].sub, cases[0].shapes)
	r, err := slicing.NewReducer(p)
	if err != nil {
		t.Fatal(err)
	}
	one, _ := tf.NewValue(tf.Float64, p.OutputShape...)
	if added, err := r.Add(1, 3, one); !added || err != nil {
		t.Fatalf("Add(1, 3): %v %v", added, err)
	}
	if added, err := r.Add(1, 3, one); added || err != nil {
		t.Fatalf("duplicate Add(1, 3): %v %v", added, err)
	}
	for _, bad := range [][2]int{{0, 2}, {2, 4}, {0, 4}, {2, 3}, {-1, 1}, {3, 3}, {4, 2}, {0, p.Slices + 1}} {
		if added, err := r.Add(bad[0], bad[1], one); added || !errors.Is(err, tf.ErrArgument) {
			t.Errorf("Add(%d, %d): %v %v", bad[0], bad[1], added, err)
		}
	}
	if _, err := r.Result(); !errors.Is(err, tf.ErrArgument) {
		t.Errorf("Result before done: %v", err)
	}
	wrongShape, _ := tf.NewValue(tf.Float64, 2)
	wrongType, _ := tf.NewValue(tf.Float32, p.OutputShape...)
	released, _ := tf.NewValue(tf.Float64, p.OutputShape...)
	released.Release()
	for what, v := range map[string]tf.Value{"shape": wrongShape, "dtype": wrongType, "released": released, "empty": {}} {
		if added, err := r.Add(0, 1, v); added || err == nil {
			t.Errorf("Add with a bad partial (%s): %v %v", what, added, err)
		}
	}
	if done, _ := r.Progress(); done != 2 {
		t.Errorf("done %d after the failures, want 2", done)
	}
	if _, err := slicing.NewReducer(nil); !errors.Is(err, tf.ErrArgument) {
		t.Errorf("NewReducer(nil): %v", err)
	}
}

// TestReducerConcurrent adds single slices from many goroutines, each
// twice.
func TestReducerConcurrent(t *testing.T) {
	p := plan(t, tf.Float64, cases[2].sub, cases[2].shapes)
	r, _ := slicing.NewReducer(p)
	ones, _ := tf.Ones[float64](p.OutputShape...)
	var wg sync.WaitGroup
	var mu sync.Mutex
	added := 0
	for g := range 4 {
		wg.Go(func() {
			for s := range p.Slices {
				ok, err := r.Add((s+g)%p.Slices, (s+g)%p.Slices+1, tf.ValueOf(ones))
				if err != nil {
					t.Error(err)
				}
				if ok {
					mu.Lock()
					added++
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	got, err := r.Result()
	if added != p.Slices || err != nil {
		t.Fatalf("%d ranges added of %d: %v", added, p.Slices, err)
	}
	want, _ := tf.Full(float64(p.Slices), p.OutputShape...)
	near(t, "concurrent sum", got, tf.ValueOf(want), 0)
}

// TestContractRangeErrors: everything is checked before any work.
func TestContractRangeErrors(t *testing.T) {
	e := cpu.Serial()
	defer e.Close()
	c := cases[0]
	p := plan(t, tf.Float64, c.sub, c.shapes)
	rng := rand.New(rand.NewPCG(3, 4))
	ops := make([]tf.Value, len(c.shapes))
	for k, s := range c.shapes {
		ops[k] = randomValue(rng, tf.Float64, s)
	}
	dst, _ := tf.NewValue(tf.Float64, p.OutputShape...)
	guard := elems(t, dst)
	f32 := randomValue(rng, tf.Float32, c.shapes[1])
	other := randomValue(rng, tf.Float64, []int{7, 11, 4})
	for _, bad := range []struct {
		what    string
		lo, hi  int
		ops     []tf.Value
		dst     tf.Value
		kind    error
		argPart string
	}{
		{"lo < 0", -1, 1, ops, dst, tf.ErrArgument, "lo"},
		{"empty range", 2, 2, ops, dst, tf.ErrArgument, "lo"},
		{"hi past the end", 0, p.Slices + 1, ops, dst, tf.ErrArgument, "hi"},
		{"operand count", 0, 1, ops[:2], dst, tf.ErrShape, "operands"},
		{"operand dtype", 0, 1, []tf.Value{ops[0], f32, ops[2]}, dst, tf.ErrDType, "operands[1]"},
		{"operand shape", 0, 1, []tf.Value{ops[0], other, ops[2]}, dst, tf.ErrShape, "operands[1]"},
		{"dst shape", 0, 1, ops, ops[0], tf.ErrShape, "dst"},
		{"dst empty", 0, 1, ops, tf.Value{}, tf.ErrArgument, "dst"},
	} {
		err := slicing.ContractRange(e, p, bad.lo, bad.hi, bad.ops, bad.dst)
		if !errors.Is(err, bad.kind) || !strings.Contains(err.Error(), bad.argPart) || !strings.Contains(err.Error(), "slicing.ContractRange") {
			t.Errorf("%s: %v", bad.what, err)
		}
	}
	if err := p.Check([]tf.Value{ops[0], other, ops[2]}); !errors.Is(err, tf.ErrShape) {
		t.Errorf("Check with a wrong shape: %v", err)
	}
	var nilPlan *slicing.Plan
	if err := slicing.ContractRange(e, nilPlan, 0, 1, ops, dst); !errors.Is(err, tf.ErrArgument) {
		t.Errorf("nil plan: %v", err)
	}
	for i, v := range elems(t, dst) {
		if v != guard[i] {
			t.Fatalf("dst element %d written by a failed call", i)
		}
	}
	// After the failures the plan and the engine still work.
	if err := slicing.ContractRange(e, p, 0, 1, ops, dst); err != nil {
		t.Fatal(err)
	}
}

// TestNewErrors: a limit below the smallest slice peak names the minimum
// in bytes; bad dtypes and subscripts are refused.
func TestNewErrors(t *testing.T) {
	_, err := slicing.New(tf.Float64, "ij,jk,kl->il", [][]int{{10, 20}, {20, 30}, {30, 5}}, 16)
	if !errors.Is(err, slicing.ErrLimitTooSmall) || !errors.Is(err, tf.ErrMemory) || !strings.Contains(err.Error(), "at least 40 bytes") {
		t.Errorf("limit of 16 bytes: %v", err)
	}
	if p, err := slicing.New(tf.Float64, "ij,jk,kl->il", [][]int{{10, 20}, {20, 30}, {30, 5}}, 40); err != nil || p.SlicePeakBytes > 40 {
		t.Errorf("limit at the minimum: %v", err)
	}
	if _, err := slicing.New(tf.Int64, "ij->", [][]int{{2, 2}}, 0); !errors.Is(err, tf.ErrDType) {
		t.Errorf("int64: %v", err)
	}
	if _, err := slicing.New(tf.Float64, "ij,jk->ik", [][]int{{2, 3}, {4, 5}}, 0); !errors.Is(err, tf.ErrShape) {
		t.Errorf("bad shapes: %v", err)
	}
	if _, err := slicing.New(tf.Float64, "ij,j?->i", [][]int{{2, 3}, {3, 3}}, 0); !errors.Is(err, tf.ErrArgument) {
		t.Errorf("bad subscripts: %v", err)
	}
}

// TestReadRejectsInconsistentPlans: every field is checked against the
// others.
func TestReadRejectsInconsistentPlans(t *testing.T) {
	p := plan(t, tf.Float64, cases[0].sub, cases[0].shapes)
	var buf bytes.Buffer
	p.Write(&buf)
	good := buf.String()
	if len(p.SlicedLabels) == 0 {
		t.Fatal("not sliced")
	}
	edits := map[string]func(q *slicing.Plan){
		"dtype":        func(q *slicing.Plan) { q.DType = "i64" },
		"shape":        func(q *slicing.Plan) { q.Shapes[0][0]++ },
		"subscripts":   func(q *slicing.Plan) { q.Subscripts = "ijb,jkb,klb->ib" },
		"path":         func(q *slicing.Plan) { q.Path = q.Path[:1] },
		"label":        func(q *slicing.Plan) { q.SlicedLabels[0] = "i" },
		"unknown":      func(q *slicing.Plan) { q.SlicedLabels[0] = "Q" },
		"extent":       func(q *slicing.Plan) { q.SlicedExtents[0]++ },
		"extents":      func(q *slicing.Plan) { q.SlicedExtents = append(q.SlicedExtents, 2) },
		"slices":       func(q *slicing.Plan) { q.Slices++ },
		"overhead":     func(q *slicing.Plan) { q.FlopOverhead = 0.5 },
		"peak":         func(q *slicing.Plan) { q.SlicePeakBytes += 8 },
		"output shape": func(q *slicing.Plan) { q.OutputShape[0]++ },
		"widths":       func(q *slicing.Plan) { q.SlicedWidths = []int{1, 1, 1, 1, 1} },
		"width":        func(q *slicing.Plan) { q.SlicedWidths = make([]int, len(q.SlicedLabels)) },
		"wide":         func(q *slicing.Plan) { q.SlicedWidths = slices.Clone(q.SlicedExtents) },
	}
	for what, edit := range edits {
		q, err := slicing.Read(strings.NewReader(good))
		if err != nil {
			t.Fatal(err)
		}
		edit(q)
		var b bytes.Buffer
		if err := q.Write(&b); err != nil {
			t.Fatal(err)
		}
		if _, err := slicing.Read(&b); !errors.Is(err, tf.ErrArgument) && !errors.Is(err, tf.ErrShape) {
			t.Errorf("%s: Read accepted the edited plan (%v)", what, err)
		}
		// A hand-edited plan is checked again on use.
		if err := q.Check(nil); err == nil {
			t.Errorf("%s: Check accepted the edited plan", what)
		}
	}
	for _, bad := range []string{"", "{", "[]", good + "{}", `{"slices": "many"}`} {
		if _, err := slicing.Read(strings.NewReader(bad)); !errors.Is(err, tf.ErrArgument) {
			t.Errorf("Read(%.20q): %v", bad, err)
		}
	}
}

// TestContractRangeOnTeam runs the slices on an engine with a team.
func TestContractRangeOnTeam(t *testing.T) {
	tm, err := team.New(team.Threads(2))
	if err != nil {
		t.Fatal(err)
	}
	defer tm.Close()
	e, err := cpu.New(tm)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	c := cases[2]
	p := plan(t, tf.Complex128, c.sub, c.shapes)
	rng := rand.New(rand.NewPCG(5, 6))
	ops := make([]tf.Value, len(c.shapes))
	for k, s := range c.shapes {
		ops[k] = randomValue(rng, tf.Complex128, s)
	}
	dst, _ := tf.NewValue(tf.Complex128, p.OutputShape...)
	if err := slicing.ContractRange(e, p, 0, p.Slices, ops, dst); err != nil {
		t.Fatal(err)
	}
	near(t, "team", dst, unsliced(t, e, tf.Complex128, c.sub, ops), 1e-12)
	if math.IsNaN(p.FlopOverhead) {
		t.Fatal("NaN overhead")
	}
}
