package einsum_test

import (
	"fmt"
	"strings"

	"github.com/tenferro-go/tenferro/einsum"
)

// The chain's best path holds a 20 × 5 intermediate (100 elements);
// under a limit of 10, slicing j in chunks of 2 leaves two rows of it per
// slice, at no extra FLOPs (every step touches j).
func ExampleNewSlicedPlan() {
	e, _ := einsum.Parse("ij,jk,kl->il")
	p, _ := e.Bind([][]int{{10, 20}, {20, 30}, {30, 5}})
	sp, err := einsum.NewSlicedPlan(p, einsum.Options{MemoryLimit: 10})
	if err != nil {
		panic(err)
	}
	fmt.Println(sp.LabelNames(), sp.Extents, sp.Widths, sp.Slices, sp.PeakPerSlice, sp.FlopOverhead)
	fmt.Println(sp.Plan.Problem.Shapes, sp.SliceIndex(7, make([]int, 1)))
	_, err = einsum.NewSlicedPlan(p, einsum.Options{MemoryLimit: 2})
	fmt.Println(err)
	// Output:
	// [j] [20] [2] 10 10 1
	// [[10 2] [2 30] [30 5]] [7]
	// einsum: slice: memory limit of 2 elements is below the smallest peak one slice reaches, 5 elements (with every summed label sliced)
}

// A slicing is rebuilt from its labels and the path of one slice.
func ExampleSliceWith() {
	e, _ := einsum.Parse("ij,jk,kl->il")
	p, _ := e.Bind([][]int{{10, 20}, {20, 30}, {30, 5}})
	j := p.Ellipsis + 1 // named labels are numbered by value: i, j, k, l
	sp, err := einsum.SliceWith(p, []int{j}, einsum.Options{Strategy: einsum.Given, Path: [][2]int{{1, 2}, {0, 1}}})
	if err != nil {
		panic(err)
	}
	fmt.Println(sp.LabelNames(), sp.Slices, sp.Flops, sp.UnslicedFlops, sp.PeakPerSlice)
	// Output: [j] 20 8000 8000 5
}

func ExampleSlicedPlan_Report() {
	e, _ := einsum.Parse("ij,jk,kl->il")
	p, _ := e.Bind([][]int{{10, 20}, {20, 30}, {30, 5}})
	sp, _ := einsum.NewSlicedPlan(p, einsum.Options{MemoryLimit: 10})
	r := sp.Summary()
	fmt.Println(r.SlicedLabels, r.Slices, r.TotalFlops, r.FlopOverhead)
	rep := sp.Report()
	fmt.Print(rep[:strings.Index(rep, "One slice:")]) // then the report of one slice's plan
	// Output:
	// [j] 10 8000 1
	//   Complete contraction:  ij,jk,kl->il
	//          Sliced labels:  j (20, in 10 chunks of 2)
	//                 Slices:  10
	//         Peak per slice:  1.000e+01 elements (limit 1.000e+01)
	//      Total FLOP count:  8.000e+03 (1x the unsliced 8.000e+03)
}
