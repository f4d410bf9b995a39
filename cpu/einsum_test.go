package cpu_test

import (
	"math/rand/v2"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/einsum"
	"github.com/tenferro-go/tenferro/team"
)

// The numerical results of the executor are checked against a reference
// in the root package (einsum_test.go); this file checks what is specific
// to the engine: the plan cache, the pool and allocation-free evaluation.

// einsumRand returns a random tensor of shape, or with transposed set a
// transposed view of one of the reversed shape.
func einsumRand(t testing.TB, rng *rand.Rand, transposed bool, shape ...int) *tf.Tensor[float64] {
	t.Helper()
	base := append([]int(nil), shape...)
	if transposed {
		for i, j := 0, len(base)-1; i < j; i, j = i+1, j-1 {
			base[i], base[j] = base[j], base[i]
		}
	}
	buf := make([]float64, tf.Numel(base))
	tf.FillRand(rng, buf)
	x, err := tf.FromSlice(buf, base...)
	if err != nil {
		t.Fatal(err)
	}
	if transposed {
		if x, err = x.Transpose(); err != nil {
			t.Fatal(err)
		}
	}
	return x
}

func TestEinsumPlanCache(t *testing.T) {
	e := cpu.Serial()
	defer e.Close()
	rng := rand.New(rand.NewPCG(13, 14))
	a := einsumRand(t, rng, false, 4, 5)
	b := einsumRand(t, rng, false, 5, 6)
	c := einsumRand(t, rng, false, 6, 3)
	for range 3 {
		out, err := tf.Einsum(e, "ab,bc,cd->ad", a, b, c)
		if err != nil {
			t.Fatal(err)
		}
		out.Release()
	}
	st := e.PlanCache().Stats()
	if st.Entries != 1 || st.Misses != 1 || st.Hits != 2 {
		t.Fatalf("after 3 equal calls: %+v, want 1 entry, 1 miss, 2 hits", st)
	}
	// Other options, shapes or dtypes are other plans.
	out, err := tf.EinsumWith(e, "ab,bc,cd->ad", []*tf.Tensor[float64]{a, b, c}, tf.WithStrategy(einsum.Greedy))
	if err != nil {
		t.Fatal(err)
	}
	out.Release()
	a2 := einsumRand(t, rng, false, 7, 5)
	out, err = tf.Einsum(e, "ab,bc,cd->ad", a2, b, c)
	if err != nil {
		t.Fatal(err)
	}
	out.Release()
	if st := e.PlanCache().Stats(); st.Entries != 3 || st.Misses != 3 {
		t.Fatalf("after other options and shapes: %+v, want 3 entries and misses", st)
	}
	// Engines sharing a cache share plans.
	e2 := cpu.Serial(cpu.WithPlanCache(e.PlanCache()))
	defer e2.Close()
	out, err = tf.Einsum(e2, "ab,bc,cd->ad", a, b, c)
	if err != nil {
		t.Fatal(err)
	}
	out.Release()
	if st := e.PlanCache().Stats(); st.Hits != 3 {
		t.Fatalf("shared cache: %+v, want 3 hits", st)
	}
}

// TestEinsumPoolReuse checks that intermediates go back to the pool: a
// repeated evaluation finds its buffers there instead of allocating.
func TestEinsumPoolReuse(t *testing.T) {
	e := cpu.Serial()
	defer e.Close()
	rng := rand.New(rand.NewPCG(15, 16))
	ops := []*tf.Tensor[float64]{
		einsumRand(t, rng, false, 6, 7),
		einsumRand(t, rng, true, 7, 8, 2),
		einsumRand(t, rng, false, 8, 5),
	}
	p, err := tf.PrepareEinsum(tf.Float64, "ab,bcx,cd->adx", [][]int{{6, 7}, {7, 8, 2}, {8, 5}})
	if err != nil {
		t.Fatal(err)
	}
	dst, _ := tf.Zeros[float64](6, 5, 2)
	if err := tf.EinsumPlannedInto(e, dst, p, ops...); err != nil {
		t.Fatal(err)
	}
	first := e.BufferPoolStats()
	if first.Buffers == 0 {
		t.Fatalf("no intermediate returned to the pool: %+v", first)
	}
	for range 3 {
		if err := tf.EinsumPlannedInto(e, dst, p, ops...); err != nil {
			t.Fatal(err)
		}
	}
	if again := e.BufferPoolStats(); again != first {
		t.Fatalf("pool changed from %+v to %+v on repeated calls", first, again)
	}
}

// allocCase is a prepared contraction with its operands and destination.
type allocCase struct {
	name string
	p    *tf.EinsumPlan
	ops  []*tf.Tensor[float64]
	dst  *tf.Tensor[float64]
}

func newAllocCase(t testing.TB, rng *rand.Rand, name, sub string, shapes [][]int, transposed bool) allocCase {
	t.Helper()
	p, err := tf.PrepareEinsum(tf.Float64, sub, shapes)
	if err != nil {
		t.Fatal(err)
	}
	c := allocCase{name: name, p: p}
	for k, s := range shapes {
		c.ops = append(c.ops, einsumRand(t, rng, transposed && k == 1, s...))
	}
	if c.dst, err = tf.Zeros[float64](p.OutputShape()...); err != nil {
		t.Fatal(err)
	}
	return c
}

// allocCases are a matrix chain, an MPS-like contraction (a boundary
// tensor against a site tensor and its copy), a batched contraction and a
// trace plus Hadamard mix that exercise every kernel of the executor.
func allocCases(t testing.TB, n int) []allocCase {
	rng := rand.New(rand.NewPCG(21, 22))
	d := 3
	return []allocCase{
		newAllocCase(t, rng, "chain", "ab,bc,cd,de->ae", [][]int{{n, n + 1}, {n + 1, n}, {n, n + 2}, {n + 2, n}}, true),
		newAllocCase(t, rng, "mps", "ab,apc,bpd->cd", [][]int{{n, n}, {n, d, n}, {n, d, n}}, false),
		newAllocCase(t, rng, "batched", "bij,bjk->ikb", [][]int{{5, n, n + 1}, {5, n + 1, n}}, true),
		newAllocCase(t, rng, "mixed", "iij,jk,k,k->ik", [][]int{{n, n, n}, {n, n}, {n}, {n}}, false),
		newAllocCase(t, rng, "embed", "ij,ij->iij", [][]int{{n, n}, {n, n}}, true),
	}
}

func checkAllocs(t *testing.T, e *cpu.Engine, cases []allocCase) {
	for _, c := range cases {
		run := func() {
			if err := tf.EinsumPlannedInto(e, c.dst, c.p, c.ops...); err != nil {
				t.Fatal(err)
			}
		}
		run() // warm the pool and the scratch
		run()
		if n := testing.AllocsPerRun(20, run); n != 0 {
			t.Errorf("%s: EinsumPlannedInto allocates %v times per call on a warm %v", c.name, n, e)
		}
	}
}

func TestEinsumPlannedIntoAllocs(t *testing.T) {
	e := cpu.Serial()
	defer e.Close()
	checkAllocs(t, e, allocCases(t, 12))

	tm, err := team.New(team.Threads(2))
	if err != nil {
		t.Fatal(err)
	}
	e2, err := cpu.New(tm)
	if err != nil {
		t.Fatal(err)
	}
	defer e2.Close()
	// Large enough that GEMM and the permutations fan out to the team.
	n := 160
	if testing.Short() {
		n = 96
	}
	checkAllocs(t, e2, allocCases(t, 12))
	checkAllocs(t, e2, allocCases(t, n))
}

// TestEinsumLoweringCopies checks when the executor copies: a single step
// whose operands can be read as matrices through their strides writes
// straight into dst and takes nothing from the pool, while operands
// without a unit-stride direction (batch axis fastest) are packed first.
func TestEinsumLoweringCopies(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	for _, c := range []struct {
		sub        string
		shapes     [][]int
		transposed bool // second operand is a transposed view
		copies     bool
	}{
		{"ij,jk->ik", [][]int{{5, 6}, {6, 7}}, false, false},
		{"ij,jk->ik", [][]int{{5, 6}, {6, 7}}, true, false},
		{"ij,jk->ki", [][]int{{5, 6}, {6, 7}}, false, false},
		{"ijk,kl->ijl", [][]int{{3, 4, 5}, {5, 6}}, false, false},
		{"ijb,jkb->ikb", [][]int{{3, 4, 5}, {4, 6, 5}}, false, false},
		{"ijb,jkb->kib", [][]int{{3, 4, 5}, {4, 6, 5}}, false, false},
		{"ija,ak->ikj", [][]int{{33, 2, 4}, {4, 5}}, false, false},       // written in two blocks
		{"iaj,akl->kilj", [][]int{{33, 4, 3}, {4, 34, 2}}, false, false}, // in six blocks
		{"iaj,akl->kilj", [][]int{{5, 4, 3}, {4, 6, 2}}, false, true},    // blocks too small
		{"iij,jk->ik", [][]int{{3, 3, 4}, {4, 5}}, false, true},          // diagonal has no unit stride
		{"bij,bjk->bik", [][]int{{5, 3, 4}, {5, 4, 6}}, false, true},
	} {
		e := cpu.Serial()
		var ops []*tf.Tensor[float64]
		for k, s := range c.shapes {
			ops = append(ops, einsumRand(t, rng, c.transposed && k == 1, s...))
		}
		p, err := tf.PrepareEinsum(tf.Float64, c.sub, c.shapes)
		if err != nil {
			t.Fatal(err)
		}
		dst, _ := tf.Zeros[float64](p.OutputShape()...)
		if err := tf.EinsumPlannedInto(e, dst, p, ops...); err != nil {
			t.Fatal(err)
		}
		if got := e.BufferPoolStats().Buffers > 0; got != c.copies {
			t.Errorf("%s (transposed %v): copies %v, want %v", c.sub, c.transposed, got, c.copies)
		}
		e.Close()
	}
}
