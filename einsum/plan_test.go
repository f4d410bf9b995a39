package einsum

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// randomProblem draws an expression over up to nLabels labels with n
// operands, repeated labels, scalars, broadcast 1s and an explicit or
// implicit output.
func randomProblem(rng *rand.Rand, n, nLabels, maxExt int) *Problem {
	ext := make([]int, nLabels)
	for i := range ext {
		ext[i] = 1 + rng.IntN(maxExt)
	}
	var b strings.Builder
	var shapes [][]int
	used := map[int]bool{}
	for k := range n {
		if k > 0 {
			b.WriteByte(',')
		}
		var shape []int
		for range rng.IntN(4) {
			l := rng.IntN(nLabels)
			used[l] = true
			b.WriteRune(rune('a' + l))
			d := ext[l]
			if rng.IntN(8) == 0 && !strings.ContainsRune(b.String()[strings.LastIndexByte(b.String(), ',')+1:len(b.String())-1], rune('a'+l)) {
				d = 1 // broadcast, unless the label repeats in this operand
			}
			shape = append(shape, d)
		}
		shapes = append(shapes, shape)
	}
	if rng.IntN(3) > 0 {
		b.WriteString("->")
		for l := range nLabels {
			if used[l] && rng.IntN(2) == 0 {
				b.WriteRune(rune('a' + l))
			}
		}
	}
	e, err := Parse(b.String())
	if err != nil {
		panic(err)
	}
	// Repeated labels in one operand must agree: make them so.
	for k, in := range e.Inputs {
		for a, v := range in {
			if i := slices.Index(in, v); i < a {
				shapes[k][a] = shapes[k][i]
			}
		}
	}
	p, err := e.Bind(shapes)
	if err != nil {
		panic(err)
	}
	return p
}

// bruteForce returns the fewest FLOPs over every pairwise order.
func bruteForce(nw *network) float64 {
	var rec func(ids []int, tensors [][]int, count []int) float64
	rec = func(ids []int, tensors [][]int, count []int) float64 {
		if len(ids) <= 1 {
			return 0
		}
		best := math.Inf(1)
		for i := range ids {
			for j := i + 1; j < len(ids); j++ {
				c := slices.Clone(count)
				a, b := tensors[ids[i]], tensors[ids[j]]
				_, f := nw.pairCost(a, b, c)
				out := nw.contract(a, b, c)
				rest := []int{}
				for k, id := range ids {
					if k != i && k != j {
						rest = append(rest, id)
					}
				}
				ts := append(slices.Clone(tensors), out)
				rest = append(rest, len(ts)-1)
				best = min(best, f+rec(rest, ts, c))
			}
		}
		return best
	}
	ids := make([]int, nw.n)
	for i := range ids {
		ids[i] = i
	}
	return rec(ids, slices.Clone(nw.inputs), slices.Clone(nw.count0))
}

func TestOptimalMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 300 {
		n := 2 + trial%5
		p := randomProblem(rng, n, 6, 5)
		pl, err := NewPlan(p, Options{Strategy: Optimal})
		if err != nil {
			t.Fatal(err)
		}
		if want := bruteForce(newNetwork(p, 0)); pl.Flops != want {
			t.Fatalf("%s: Optimal %g FLOPs, brute force %g", p, pl.Flops, want)
		}
	}
}

func TestStrategiesValidAndOrdered(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	trials := 200
	if testing.Short() {
		trials = 50
	}
	for trial := range trials {
		n := 1 + trial%7
		p := randomProblem(rng, n, 7, 3)
		data := randomData(rng, p)
		flops := map[Strategy]float64{}
		for _, s := range []Strategy{Greedy, Optimal, RandomGreedy, Search, Auto} {
			pl, err := NewPlan(p, Options{Strategy: s, Restarts: 8, Seed: uint64(trial)})
			if err != nil {
				t.Fatalf("%s %s: %v", p, s, err)
			}
			if len(pl.Path) != max(n-1, 0) || len(pl.Steps) != len(pl.Path) {
				t.Fatalf("%s %s: %d steps for %d operands", p, s, len(pl.Path), n)
			}
			// The path is valid as a Given path and costs the same.
			pg, err := NewPlan(p, Options{Strategy: Given, Path: pl.Path})
			if err != nil || pg.Flops != pl.Flops || pg.Largest != pl.Largest {
				t.Fatalf("%s %s: path %v as Given: %v (flops %g vs %g)", p, s, pl.Path, err, pg.Flops, pl.Flops)
			}
			checkPlan(t, pl, data)
			flops[s] = pl.Flops
		}
		if flops[Optimal] > flops[Greedy] || flops[Optimal] > flops[RandomGreedy] || flops[RandomGreedy] > flops[Greedy] ||
			flops[Optimal] > flops[Search] || flops[Auto] != flops[Optimal] {
			t.Fatalf("%s: flops %v: want Optimal <= RandomGreedy <= Greedy, Optimal <= Search, Auto = Optimal", p, flops)
		}
	}
}

func TestOptimalBeatsGreedyOnLargerNetworks(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	worse := 0
	for range 40 {
		p := randomProblem(rng, 8, 10, 6)
		g, err1 := NewPlan(p, Options{Strategy: Greedy})
		o, err2 := NewPlan(p, Options{Strategy: Optimal})
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if o.Flops > g.Flops {
			t.Fatalf("%s: Optimal %g > Greedy %g", p, o.Flops, g.Flops)
		}
		if o.Flops < g.Flops {
			worse++
		}
	}
	if worse == 0 {
		t.Error("greedy was optimal on every random network; the test networks are too easy")
	}
}

func TestGivenPathErrors(t *testing.T) {
	p := mustBind(t, "ij,jk,kl->il", []int{2, 3}, []int{3, 4}, []int{4, 5})
	cases := []struct {
		path [][2]int
		msg  string
	}{
		{[][2]int{{0, 1}}, "path has 1 steps but 3 operands need 2"},
		{[][2]int{{0, 1}, {0, 1}, {0, 1}}, "path has 3 steps but 3 operands need 2"},
		{[][2]int{{0, 3}, {0, 1}}, "step 0: position 3 out of range [0, 3)"},
		{[][2]int{{0, 1}, {0, 2}}, "step 1: position 2 out of range [0, 2)"},
		{[][2]int{{-1, 1}, {0, 1}}, "step 0: position -1 out of range"},
		{[][2]int{{1, 1}, {0, 1}}, "names the same operand twice"},
	}
	for _, c := range cases {
		_, err := NewPlan(p, Options{Strategy: Given, Path: c.path})
		if !errors.Is(err, ErrPath) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("path %v: %v, want ErrPath containing %q", c.path, err, c.msg)
		}
	}
	// A valid path, with the pair written either way round.
	for _, path := range [][][2]int{{{0, 1}, {0, 1}}, {{1, 0}, {1, 0}}, {{1, 2}, {1, 0}}} {
		pl, err := NewPlan(p, Options{Strategy: Given, Path: path})
		if err != nil {
			t.Fatalf("path %v: %v", path, err)
		}
		checkPlan(t, pl, randomData(rand.New(rand.NewPCG(1, 1)), p))
	}
	// One operand: the empty path.
	p1 := mustBind(t, "ij->j", []int{2, 3})
	if _, err := NewPlan(p1, Options{Strategy: Given}); err != nil {
		t.Error(err)
	}
	if _, err := NewPlan(p1, Options{Strategy: Given, Path: [][2]int{{0, 0}}}); !errors.Is(err, ErrPath) {
		t.Errorf("one operand with a step: %v", err)
	}
}

func TestOptionErrors(t *testing.T) {
	p := mustBind(t, "ij,jk", []int{2, 3}, []int{3, 4})
	if _, err := NewPlan(&Problem{}, Options{}); !errors.Is(err, ErrOption) {
		t.Errorf("zero Problem: %v", err)
	}
	if _, err := NewPlan(nil, Options{}); !errors.Is(err, ErrOption) {
		t.Errorf("nil Problem: %v", err)
	}
	for _, o := range []Options{
		{MemoryLimit: -1},
		{Restarts: -2},
		{Strategy: Strategy(42)},
		{Strategy: Greedy, Path: [][2]int{{0, 1}}},
	} {
		if _, err := NewPlan(p, o); !errors.Is(err, ErrOption) {
			t.Errorf("%+v: %v, want ErrOption", o, err)
		}
	}
	for _, name := range []string{"auto", "greedy", "optimal", "random-greedy", "search", "given"} {
		s, err := ParseStrategy(name)
		if err != nil || s.String() != name {
			t.Errorf("ParseStrategy(%q) = %v, %v", name, s, err)
		}
	}
	if _, err := ParseStrategy("branch"); !errors.Is(err, ErrOption) {
		t.Error(err)
	}
}

func TestMemoryLimit(t *testing.T) {
	// A matrix chain where the cheapest order builds a 100-element
	// intermediate and a costlier one keeps every intermediate at 10.
	//   A(10x1) B(1x10) C(10x1): (AB) is 10x10; A(BC) keeps 10x1... BC is 1x1.
	p := mustBind(t, "ij,jk,kl->il", []int{10, 1}, []int{1, 10}, []int{10, 10})
	free, _ := NewPlan(p, Options{Strategy: Optimal})
	for _, s := range []Strategy{Optimal, Greedy, RandomGreedy, Search} {
		pl, err := NewPlan(p, Options{Strategy: s, MemoryLimit: 10})
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		for _, st := range pl.Steps[:len(pl.Steps)-1] {
			if st.Size > 10 {
				t.Errorf("%s: intermediate of %g elements despite the limit", s, st.Size)
			}
		}
		if s == Optimal && pl.Flops < free.Flops {
			t.Errorf("limited optimum %g below the free optimum %g", pl.Flops, free.Flops)
		}
	}
	// A given path over the limit is rejected.
	_, err := NewPlan(p, Options{Strategy: Given, Path: [][2]int{{0, 1}, {0, 1}}, MemoryLimit: 10})
	if !errors.Is(err, ErrMemoryLimit) || !strings.Contains(err.Error(), "step 0 produces 100 elements") {
		t.Errorf("given path over the limit: %v", err)
	}
	// No path fits: every first step makes a 100-element intermediate.
	p2 := mustBind(t, "i,j,k->ijk", []int{10}, []int{10}, []int{10})
	for _, s := range []Strategy{Optimal, Greedy, RandomGreedy, Search} {
		if _, err := NewPlan(p2, Options{Strategy: s, MemoryLimit: 50}); !errors.Is(err, ErrMemoryLimit) {
			t.Errorf("%s: %v, want ErrMemoryLimit", s, err)
		}
	}
	// The output itself is exempt.
	if _, err := NewPlan(p2, Options{Strategy: Optimal, MemoryLimit: 100}); err != nil {
		t.Error(err)
	}
}

func TestLoweringDetails(t *testing.T) {
	// Matrix product: a GEMM with both sides in order.
	pl, _ := NewPlan(mustBind(t, "ij,jk->ik", []int{2, 3}, []int{3, 4}), Options{})
	st := pl.Steps[0]
	if st.Kind != GEMM || st.M != 2 || st.N != 4 || st.K != 3 || st.BatchSize != 1 || !st.LeftInOrder || !st.RightInOrder || !pl.Final.Identity {
		t.Errorf("ij,jk->ik: %+v %+v", st, pl.Final)
	}
	// A stored transposed: no copy needed, LeftTransposed says so.
	pl, _ = NewPlan(mustBind(t, "ji,jk->ik", []int{3, 2}, []int{3, 4}), Options{})
	st = pl.Steps[0]
	if st.LeftInOrder || !st.LeftTransposed || !st.RightInOrder || st.RightTransposed || !pl.Final.Identity {
		t.Errorf("ji,jk->ik: %+v", st)
	}
	// The orientation follows the output: C = B·A when the output leads
	// with B's free label.
	pl, _ = NewPlan(mustBind(t, "ij,jk->ki", []int{2, 3}, []int{3, 4}), Options{})
	st = pl.Steps[0]
	if st.LeftID != 1 || pl.Path[0] != [2]int{1, 0} || !pl.Final.Identity || !st.LeftTransposed || !st.RightTransposed {
		t.Errorf("ij,jk->ki: %+v", st)
	}
	// Batched, batch label last in the result.
	pl, _ = NewPlan(mustBind(t, "bij,bjk->bik", []int{5, 2, 3}, []int{5, 3, 4}), Options{})
	st = pl.Steps[0]
	if st.Kind != BatchedGEMM || st.BatchSize != 5 || pl.Problem.Term(st.Out) != "ikb" || pl.Problem.Term(pl.Final.Labels) != "ikb" {
		t.Errorf("bij,bjk->bik: %+v", st)
	}
	// Pre-reduction: 'x' only in operand 0, 'y' only in operand 1.
	p := mustBind(t, "ixj,jky->ik", []int{2, 3, 4}, []int{4, 5, 6})
	pl, _ = NewPlan(p, Options{})
	st = pl.Steps[0]
	if p.Term(st.LeftReduce)+p.Term(st.RightReduce) != "xy" || p.Term(st.LeftKept) != "ij" || p.Term(st.RightKept) != "jk" {
		t.Errorf("pre-reduce: %+v", st)
	}
	// Kinds.
	for s, kind := range map[string]StepKind{"i,i->": Dot, "i,i->i": Hadamard, "i,j->ij": Outer, ",i->i": Outer,
		"ij,i->ij": BatchedOuter, "ij,j->i": GEMM, "ijb,jb->ib": BatchedGEMM} {
		e, _ := Parse(s)
		shapes := make([][]int, len(e.Inputs))
		for k, in := range e.Inputs {
			for range in {
				shapes[k] = append(shapes[k], 2)
			}
		}
		p, _ := e.Bind(shapes)
		pl, _ := NewPlan(p, Options{})
		if pl.Steps[0].Kind != kind {
			t.Errorf("%s: kind %s, want %s", s, pl.Steps[0].Kind, kind)
		}
	}
	// Single operand: no steps, a final unary step.
	for s, want := range map[string]string{"ii->i": "diag", "ij->ji": "perm", "ij->": "sum", "ij->ij": "id", "i->ii": "embed"} {
		e, _ := Parse(s)
		shape := []int{3, 3}[:len(e.Inputs[0])]
		p, _ := e.Bind([][]int{shape})
		pl, _ := NewPlan(p, Options{})
		f := pl.Final
		ok := len(pl.Steps) == 0 && f.From == 0
		switch want {
		case "diag":
			ok = ok && f.Diagonal && !f.Identity
		case "perm":
			ok = ok && !f.Identity && slices.Equal(f.Perm, []int{1, 0})
		case "sum":
			ok = ok && len(f.Reduce) == 2 && len(f.Kept) == 0
		case "id":
			ok = ok && f.Identity
		case "embed":
			ok = ok && f.Embed && !f.Identity
		}
		if !ok {
			t.Errorf("%s: %+v", s, f)
		}
	}
	// Each intermediate is laid out as its consumer wants it: in a chain,
	// no permutation at all.
	pl, _ = NewPlan(mustBind(t, "ij,jk,kl,lm->im", []int{2, 3}, []int{3, 4}, []int{4, 5}, []int{5, 6}), Options{Strategy: Greedy})
	for i, st := range pl.Steps {
		if !st.LeftInOrder || !st.RightInOrder {
			t.Errorf("chain step %d needs a permutation: %+v", i, st)
		}
	}
}

func TestReport(t *testing.T) {
	p := mustBind(t, "ea,fb,abcd,gc,hd->efgh", []int{10, 10}, []int{10, 10}, []int{10, 10, 10, 10}, []int{10, 10}, []int{10, 10})
	pl, err := NewPlan(p, Options{Strategy: Greedy})
	if err != nil {
		t.Fatal(err)
	}
	r := pl.Report()
	for _, want := range []string{"Complete contraction:  ea,fb,abcd,gc,hd->efgh", "Naive scaling:  8", "Optimized scaling:  5",
		"Naive FLOP count:  5.000e+08", "Optimized FLOP count:  8.000e+05", "Theoretical speedup:  625.000",
		"Largest intermediate:  1.000e+04 elements", "abcd,ea->bcde", "final: efgh->efgh (identity)"} {
		if !strings.Contains(r, want) {
			t.Errorf("report lacks %q:\n%s", want, r)
		}
	}
	s := pl.Summary()
	if len(s.Steps) != 4 || s.Steps[0].Flops != 2e5 || s.Steps[3].Remaining != p.Term(pl.Steps[3].Out)+"->efgh" {
		t.Errorf("summary: %+v", s)
	}
}

// TestLargerNetworksExecute runs every strategy on random networks of 9
// to 20 operands (Optimal falls back to Search above OptimalMax) and
// executes the plans against the naive loop.
func TestLargerNetworksExecute(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	trials := 12
	if testing.Short() {
		trials = 4
	}
	for trial := range trials {
		n := 9 + trial
		p := randomProblem(rng, n, 9, 2)
		data := randomData(rng, p)
		flops := map[Strategy]float64{}
		for _, s := range []Strategy{Greedy, Optimal, RandomGreedy, Search, Auto} {
			pl, err := NewPlan(p, Options{Strategy: s, Seed: uint64(trial)})
			if err != nil {
				t.Fatalf("%s %s: %v", p, s, err)
			}
			checkPlan(t, pl, data)
			flops[s] = pl.Flops
		}
		if flops[Search] > flops[Greedy] || (n <= OptimalMax && flops[Optimal] > flops[Search]) {
			t.Errorf("%s: flops %v", p, flops)
		}
	}
}

// TestConcurrentPlanning plans one Problem from several goroutines and
// reads the plans concurrently (run with -race): planning never writes to
// the Problem.
func TestConcurrentPlanning(t *testing.T) {
	p := mpsProblem(t, 40)
	opts := Options{Strategy: RandomGreedy, Restarts: 4}
	want, err := NewPlan(p, opts)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan *Plan)
	for range 4 {
		go func() {
			pl, err := NewPlan(p, opts)
			if err != nil {
				t.Error(err)
			}
			_ = pl.Report()
			_ = want.Report()
			done <- pl
		}()
	}
	for range 4 {
		if pl := <-done; pl != nil && (pl.Flops != want.Flops || !slices.Equal(pl.Path, want.Path)) {
			t.Error("concurrent plans differ")
		}
	}
}

// TestAutoKeepsPlanningCheap pins the rule that Auto does not run Search
// on a large network whose greedy path is cheap, and does on an expensive
// one.
func TestAutoKeepsPlanningCheap(t *testing.T) {
	chain := func(n, d int) *Plan {
		t.Helper()
		var subs []string
		var shapes [][]int
		for i := 0; i < n; i++ {
			subs = append(subs, string([]rune{rune('A' + i), rune('A' + i + 1)}))
			shapes = append(shapes, []int{d, d})
		}
		e, err := Parse(strings.Join(subs, ","))
		if err != nil {
			t.Fatal(err)
		}
		p, err := e.Bind(shapes)
		if err != nil {
			t.Fatal(err)
		}
		pl, err := NewPlan(p, Options{})
		if err != nil {
			t.Fatal(err)
		}
		return pl
	}
	cheap := chain(16, 4)
	if cheap.Strategy != Search {
		t.Errorf("cheap 16-matrix chain planned with %v, want %v", cheap.Strategy, Search)
	}
	// The lighter search still finds the optimum of a uniform chain, which
	// Optimal confirms.
	exact, err := NewPlan(cheap.Problem, Options{Strategy: Optimal})
	if err != nil {
		t.Fatal(err)
	}
	if cheap.Flops > exact.Flops*1.0001 {
		t.Errorf("cheap chain: Auto %g flops, Optimal %g", cheap.Flops, exact.Flops)
	}
	if pl := chain(16, 400); pl.Strategy != Search {
		t.Errorf("expensive 16-matrix chain planned with %v, want %v", pl.Strategy, Search)
	}
	if pl := chain(5, 4); pl.Strategy != Optimal {
		t.Errorf("5-matrix chain planned with %v, want %v", pl.Strategy, Optimal)
	}
}
