package einsum

import (
	"math/rand/v2"
	"testing"
)

// chainProblem is a matrix chain A1·A2·…·An with random extents in
// [10, 100).
func chainProblem(tb testing.TB, n int) *Problem {
	rng := rand.New(rand.NewPCG(1, uint64(n)))
	dims := make([]int, n+1)
	for i := range dims {
		dims[i] = 10 + rng.IntN(90)
	}
	inputs := make([][]int, n)
	shapes := make([][]int, n)
	for i := range n {
		inputs[i] = []int{i, i + 1}
		shapes[i] = []int{dims[i], dims[i+1]}
	}
	e, err := FromLabels(inputs, []int{0, n}, false)
	if err != nil {
		tb.Fatal(err)
	}
	p, err := e.Bind(shapes)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// mpsProblem is the inner product of two matrix product states with
// sites/2 sites each (sites tensors in all): bond extents in [2, 32),
// physical extent 2.
func mpsProblem(tb testing.TB, sites int) *Problem {
	rng := rand.New(rand.NewPCG(2, uint64(sites)))
	half := sites / 2
	var inputs, shapes [][]int
	// Labels: physical 0..half-1, bra bonds half..2half, ket bonds 2half+1...
	bra := func(i int) int { return half + i }
	ket := func(i int) int { return 2*half + 1 + i }
	bd := make([]int, half+1)
	for i := range bd {
		bd[i] = 2 + rng.IntN(30)
	}
	bd[0], bd[half] = 1, 1
	for i := range half {
		inputs = append(inputs, []int{bra(i), i, bra(i + 1)}, []int{ket(i), i, ket(i + 1)})
		shapes = append(shapes, []int{bd[i], 2, bd[i+1]}, []int{bd[i], 2, bd[i+1]})
	}
	e, err := FromLabels(inputs, nil, false)
	if err != nil {
		tb.Fatal(err)
	}
	p, err := e.Bind(shapes)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

func TestSyntheticNetworks(t *testing.T) {
	for _, p := range []*Problem{chainProblem(t, 100), mpsProblem(t, 200)} {
		g, err := NewPlan(p, Options{Strategy: Greedy})
		if err != nil {
			t.Fatal(err)
		}
		a, err := NewPlan(p, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if a.Flops > g.Flops {
			t.Errorf("%d operands: Auto %g > Greedy %g", len(p.Inputs), a.Flops, g.Flops)
		}
		if _, err := NewPlan(p, Options{Strategy: Given, Path: a.Path}); err != nil {
			t.Error(err)
		}
	}
}

func benchPlan(b *testing.B, p *Problem, opts Options) {
	b.ReportAllocs()
	var pl *Plan
	for b.Loop() {
		var err error
		pl, err = NewPlan(p, opts)
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(pl.Flops, "flops")
}

func BenchmarkParse(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse("abij,bjk,kl...,l...->ai..."); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPlan(b *testing.B) {
	chain := chainProblem(b, 100)
	mps := mpsProblem(b, 200)
	small := mustBind(b, "ea,fb,abcd,gc,hd->efgh", []int{10, 10}, []int{10, 10}, []int{10, 10, 10, 10}, []int{10, 10}, []int{10, 10})
	b.Run("matmul", func(b *testing.B) {
		benchPlan(b, mustBind(b, "ij,jk->ik", []int{64, 64}, []int{64, 64}), Options{})
	})
	b.Run("5ops/optimal", func(b *testing.B) { benchPlan(b, small, Options{Strategy: Optimal}) })
	for _, s := range []Strategy{Greedy, RandomGreedy, Search} {
		b.Run("chain100/"+s.String(), func(b *testing.B) { benchPlan(b, chain, Options{Strategy: s}) })
		b.Run("mps200/"+s.String(), func(b *testing.B) { benchPlan(b, mps, Options{Strategy: s}) })
	}
}

func BenchmarkInstances(b *testing.B) {
	for _, in := range loadInstances(b) {
		p := in.problem(b)
		if len(p.Inputs) < 20 {
			continue
		}
		b.Run(in.Name, func(b *testing.B) { benchPlan(b, p, Options{}) })
	}
}
