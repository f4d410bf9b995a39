package tenferro_test

import (
	"errors"
	"fmt"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/einsum"
)

// EinsumWith passes planning options: here a chain of products planned
// greedily.
func ExampleEinsumWith() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.Ones[float64](2, 3)
	b, _ := tf.Ones[float64](3, 4)
	c, _ := tf.Ones[float64](4, 2)
	r, err := tf.EinsumWith(e, "ij,jk,kl->il", []*tf.Tensor[float64]{a, b, c}, tf.WithStrategy(einsum.Greedy))
	if err != nil {
		panic(err)
	}
	defer r.Release()
	d, _ := r.Data()
	fmt.Println(r.Shape(), d)
	// Output: [2 2] [12 12 12 12]
}

// EinsumWithInto writes a caller-owned destination; with Accumulate it
// adds to it: dst = 1·(x·y) + 1·dst.
func ExampleEinsumWithInto() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float64{1, 2, 3}, 3)
	dot := tf.Const(100.0)
	ops := []*tf.Tensor[float64]{x, x}
	_ = tf.EinsumWithInto(e, dot, "i,i->", ops, tf.Accumulate(1, 1))
	v, _ := dot.At()
	fmt.Println(v)
	// Output: 114
}

// A prepared plan is evaluated without parsing or planning; it may be
// shared by many engines.
func ExampleEinsumPlanned() {
	e := cpu.Serial()
	defer e.Close()
	p, _ := tf.PrepareEinsum(tf.Float64, "ij->ji", [][]int{{2, 3}})
	a, _ := tf.FromRowMajor([]float64{1, 2, 3, 4, 5, 6}, 2, 3)
	at, _ := tf.EinsumPlanned(e, p, a)
	defer at.Release()
	fmt.Println(at)
	b, _ := tf.Zeros[float64](3, 3)
	_, err := tf.EinsumPlanned(e, p, b) // not the shape the plan was made for
	fmt.Println(errors.Is(err, tf.ErrShape))
	// Output:
	// Tensor[f64] (3, 2)
	// [[1 4]
	//  [2 5]
	//  [3 6]]
	// true
}

// The Into form runs a plan in a loop without allocating.
func ExampleEinsumPlannedInto() {
	e := cpu.Serial()
	defer e.Close()
	p, _ := tf.PrepareEinsum(tf.Float64, "ij,j->i", [][]int{{2, 2}, {2}})
	m, _ := tf.FromRowMajor([]float64{0, 1, 1, 1}, 2, 2) // Fibonacci step
	v, _ := tf.FromSlice([]float64{0, 1}, 2)
	next, _ := tf.Zeros[float64](2)
	for range 5 {
		_ = tf.EinsumPlannedInto(e, next, p, m, v)
		_ = tf.CopyInto(e, v, next)
	}
	d, _ := v.Data()
	fmt.Println(d)
	// Output: [5 8]
}

func ExampleEinsumPlan_DType() {
	p, _ := tf.PrepareEinsum(tf.Complex64, "ij,jk", [][]int{{2, 3}, {3, 4}})
	fmt.Println(p.DType())
	// Output: c64
}

// The output shape follows the subscripts, broadcasting included: the
// ellipsis axis of extent 1 stretches to 2.
func ExampleEinsumPlan_OutputShape() {
	p, err := tf.PrepareEinsum(tf.Float64, "...ij,...jk", [][]int{{1, 3, 4}, {2, 4, 5}})
	if err != nil {
		panic(err)
	}
	fmt.Println(p.OutputShape())
	// Output: [2 3 5]
}

// Plan exposes the contraction path and its costs.
func ExampleEinsumPlan_Plan() {
	p, _ := tf.PrepareEinsum(tf.Float64, "ij,jk,kl->il", [][]int{{10, 100}, {100, 5}, {5, 50}})
	pl := p.Plan()
	fmt.Println(pl.Strategy, pl.Path, pl.Flops, pl.Largest)
	// Output: optimal [[0 1] [1 0]] 15000 500
}

func ExampleEinsumPlan_Report() {
	p, _ := tf.PrepareEinsum(tf.Float64, "ij,jk->ik", [][]int{{4, 5}, {5, 6}})
	fmt.Print(p.Report())
	// Output:
	//   Complete contraction:  ij,jk->ik
	//               Strategy:  optimal
	//          Naive scaling:  3
	//      Optimized scaling:  3
	//       Naive FLOP count:  2.400e+02
	//   Optimized FLOP count:  2.400e+02
	//    Theoretical speedup:  1.000
	//   Largest intermediate:  2.400e+01 elements
	// ------------------------------------------------------------------------------
	// pair      scaling flops      size       kind          current -> remaining
	// ------------------------------------------------------------------------------
	// (0,1)     3       2.400e+02  2.400e+01  gemm          ij,jk->ik   ik->ik
	// final: ik->ik (identity)
}

// WithPath gives the contraction order in NumPy's linear format; the plan
// reports the cost of that order.
func ExampleWithPath() {
	shapes := [][]int{{10, 100}, {100, 5}, {5, 50}}
	good, _ := tf.PrepareEinsum(tf.Float64, "ij,jk,kl->il", shapes, tf.WithPath([][2]int{{0, 1}, {0, 1}}))
	bad, _ := tf.PrepareEinsum(tf.Float64, "ij,jk,kl->il", shapes, tf.WithPath([][2]int{{1, 2}, {0, 1}}))
	_, err := tf.PrepareEinsum(tf.Float64, "ij,jk,kl->il", shapes, tf.WithPath([][2]int{{0, 3}, {0, 1}}))
	fmt.Println(good.Plan().Flops, bad.Plan().Flops, errors.Is(err, einsum.ErrPath))
	// Output: 15000 150000 true
}

// WithMemoryLimit bounds every intermediate, in elements (the result is
// exempt). The cheapest path for v·B·C forms v·B, of 5 elements; a limit
// of 4 takes the path through B·C instead, and since no path fits in 3
// the plan slices a label and reports the flops of one slice.
func ExampleWithMemoryLimit_path() {
	shapes := [][]int{{1, 2}, {2, 5}, {5, 2}}
	for _, limit := range []float64{0, 4, 3} {
		p, err := tf.PrepareEinsum(tf.Float64, "ij,jk,kl->il", shapes, tf.WithMemoryLimit(limit))
		if err != nil {
			fmt.Println(limit, err)
			continue
		}
		fmt.Println(limit, p.Plan().Path, p.Plan().Flops, p.Slices())
	}
	// Output:
	// 0 [[0 1] [1 0]] 40 1
	// 4 [[1 2] [0 1]] 48 1
	// 3 [[0 1] [1 0]] 8 5
}

// The randomized searches are deterministic for a given seed.
func ExampleWithSeed() {
	shapes := [][]int{{3, 4}, {4, 5}, {5, 6}, {6, 3}}
	opts := []tf.Option{tf.WithStrategy(einsum.RandomGreedy), tf.WithSeed(42)}
	p1, _ := tf.PrepareEinsum(tf.Float64, "ab,bc,cd,da->", shapes, opts...)
	p2, _ := tf.PrepareEinsum(tf.Float64, "ab,bc,cd,da->", shapes, opts...)
	fmt.Println(p1.Plan().Strategy, fmt.Sprint(p1.Plan().Path) == fmt.Sprint(p2.Plan().Path))
	// Output: random-greedy true
}

// The greedy optimizer is fast but may miss the cheapest path, which the
// exact search finds.
func ExampleWithStrategy() {
	shapes := [][]int{{10, 10}, {10, 5}, {5, 2}, {2, 2}}
	for _, s := range []einsum.Strategy{einsum.Greedy, einsum.Optimal} {
		p, _ := tf.PrepareEinsum(tf.Float64, "ij,jk,kl,lm->im", shapes, tf.WithStrategy(s))
		fmt.Println(p.Plan().Strategy, p.Plan().Path, p.Plan().Flops)
	}
	// Output:
	// greedy [[0 1] [2 0] [1 0]] 1280
	// optimal [[2 3] [1 2] [0 1]] 640
}
