package einsum_test

import (
	"fmt"

	"github.com/tenferro-go/tenferro/einsum"
)

// slicedChain slices the chain ij,jk,kl->il of a 2×3, 3×4 and 4×2 under a
// limit of 3 elements.
func slicedChain() *einsum.SlicedPlan {
	expr, _ := einsum.Parse("ij,jk,kl->il")
	prob, _ := expr.Bind([][]int{{2, 3}, {3, 4}, {4, 2}})
	sp, err := einsum.NewSlicedPlan(prob, einsum.Options{MemoryLimit: 3})
	if err != nil {
		panic(err)
	}
	return sp
}

// LabelNames names the sliced labels as the subscripts write them.
func ExampleSlicedPlan_LabelNames() {
	fmt.Println(slicedChain().LabelNames())
	// Output: [j]
}

// SliceIndex gives the values slice s fixes, one per sliced label.
func ExampleSlicedPlan_SliceIndex() {
	sp := slicedChain()
	idx := make([]int, len(sp.Labels))
	for s := range sp.Slices {
		fmt.Print(sp.SliceIndex(s, idx), " ")
	}
	fmt.Println()
	// Output: [0] [1] [2]
}

// Summary holds the report's numbers, for JSON.
func ExampleSlicedPlan_Summary() {
	r := slicedChain().Summary()
	fmt.Println(r.SlicedLabels, r.Slices, r.PeakPerSlice, r.TotalFlops >= r.UnslicedFlops)
	// Output: [j] 3 2 true
}

// Slices evaluated at once each hold a slice's peak, and every worker but
// the first its own partial result (here 10 × 5 elements).
func ExampleSlicedPlan_ConcurrentPeak() {
	e, _ := einsum.Parse("ij,jk,kl->il")
	p, _ := e.Bind([][]int{{10, 20}, {20, 30}, {30, 5}})
	sp, _ := einsum.NewSlicedPlan(p, einsum.Options{MemoryLimit: 5})
	fmt.Println(sp.ConcurrentPeak(1), sp.ConcurrentPeak(2), sp.ConcurrentPeak(4))
	// Output: 5 60 170
}

// Concurrency is how many workers fit a limit together.
func ExampleSlicedPlan_Concurrency() {
	e, _ := einsum.Parse("ij,jk,kl->il")
	p, _ := e.Bind([][]int{{10, 20}, {20, 30}, {30, 5}})
	sp, _ := einsum.NewSlicedPlan(p, einsum.Options{MemoryLimit: 5})
	fmt.Println(sp.Concurrency(4, 10), sp.Concurrency(4, 60), sp.Concurrency(4, 0), sp.Concurrency(64, 0))
	// Output: 1 2 4 20
}

// A slicing in chunks is rebuilt from its labels, widths and path: j cut
// into 4 chunks of 5 values, or into 7 chunks of 3 values, the last of
// which has 2 (its slices run the tail plan).
func ExampleSliceWithWidths() {
	e, _ := einsum.Parse("ij,jk,kl->il")
	p, _ := e.Bind([][]int{{10, 20}, {20, 30}, {30, 5}})
	j := p.Ellipsis + 1 // named labels are numbered by value: i, j, k, l
	path := einsum.Options{Strategy: einsum.Given, Path: [][2]int{{1, 2}, {0, 1}}}
	sp, err := einsum.SliceWithWidths(p, []int{j}, []int{5}, path)
	if err != nil {
		panic(err)
	}
	fmt.Println(sp.LabelNames(), sp.Widths, sp.Slices, sp.Flops, sp.PeakPerSlice, sp.Tail == nil)
	sp, _ = einsum.SliceWithWidths(p, []int{j}, []int{3}, path)
	fmt.Println(sp.Slices, sp.Plan.Problem.Shapes[0], sp.Tail.Problem.Shapes[0], sp.Flops)
	_, err = einsum.SliceWithWidths(p, []int{j}, []int{21}, path)
	fmt.Println(err)
	// Output:
	// [j] [5] 4 8000 25 true
	// 7 [10 3] [10 2] 8000
	// einsum: slice: width 21 of label 'j' is not between 1 and its extent 20
}

// Chunks is the number of chunks a sliced label is cut into; slice s
// takes chunk SliceIndex(s)[j] of label j.
func ExampleSlicedPlan_Chunks() {
	e, _ := einsum.Parse("ij,jk,kl->il")
	p, _ := e.Bind([][]int{{10, 20}, {20, 30}, {30, 5}})
	sp, _ := einsum.NewSlicedPlan(p, einsum.Options{MemoryLimit: 10})
	fmt.Println(sp.Extents[0], sp.Widths[0], sp.Chunks(0))
	// Output: 20 2 10
}

// PlanOf picks the plan of a slice from its chunks: the tail plan for the
// shorter last chunk of the tail label.
func ExampleSlicedPlan_PlanOf() {
	e, _ := einsum.Parse("ij,jk,kl->il")
	p, _ := e.Bind([][]int{{10, 20}, {20, 30}, {30, 5}})
	j := p.Ellipsis + 1
	sp, _ := einsum.SliceWithWidths(p, []int{j}, []int{6}, einsum.Options{})
	idx := make([]int, 1)
	for s := range sp.Slices {
		pl := sp.PlanOf(sp.SliceIndex(s, idx))
		fmt.Print(pl.Problem.Extents[j], " ")
	}
	fmt.Println()
	// Output: 6 6 6 2
}

// PartSlices counts the consecutive slices that write one part of the
// output. Slicing j (summed, 3 values) and i (output, 2 values) of
// ij,jk,kl->il gives 6 slices: slices 0-2 write row i = 0, slices 3-5 row
// i = 1.
func ExampleSlicedPlan_PartSlices() {
	expr, _ := einsum.Parse("ij,jk,kl->il")
	prob, _ := expr.Bind([][]int{{2, 3}, {3, 4}, {4, 2}})
	sp, _ := einsum.SliceWith(prob, []int{0, 1}, einsum.Options{})
	fmt.Println(sp.LabelNames(), sp.Summed, sp.Slices, sp.PartSlices())
	// Output: [j i] 1 6 3
}

// OutputAxes counts the output axes that carry a label: 0 for a summed
// label, 2 for one repeated in the output.
func ExampleProblem_OutputAxes() {
	expr, _ := einsum.Parse("ij,jk->iik")
	prob, _ := expr.Bind([][]int{{2, 3}, {3, 4}})
	for l, name := range prob.Names {
		fmt.Print(name, ":", prob.OutputAxes(l), " ")
	}
	fmt.Println()
	// Output: i:2 j:0 k:1
}
