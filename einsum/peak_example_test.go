package einsum_test

import (
	"fmt"

	"github.com/tenferro-go/tenferro/einsum"
)

// A 2×3×4 column-major tensor over labels 0, 1, 2 has label strides 1, 2
// and 6: labels 0 and 1 fuse into one axis of 6 elements, labels 0 and 2
// do not.
func ExampleFuseGroup() {
	ext := []int{2, 3, 4}
	strides := []int{1, 2, 6}
	n, stride, ok := einsum.FuseGroup(ext, []int{0, 1}, strides)
	fmt.Println(n, stride, ok)
	_, _, ok = einsum.FuseGroup(ext, []int{0, 2}, strides)
	fmt.Println(ok)
	// Output:
	// 6 1 true
	// false
}

// A 6×4 matrix with row stride 1 is read along cache lines; one whose
// rows and columns are both strided (a batch axis fastest) is not.
func ExampleUnitStride() {
	fmt.Println(einsum.UnitStride(6, 4, 1, 6))
	fmt.Println(einsum.UnitStride(6, 4, 5, 30))
	// Output:
	// true
	// false
}

// The product C[i,k,j] = Σ_a A[i,j,a]·B[a,k] into a column-major C: its
// rows (i, j) do not fuse in C, where k sits between them. GemmLayout
// writes C in place in two blocks, one GEMM of 33×5 per value of j,
// instead of computing C in a compact buffer and copying it.
func ExampleGemmLayout_Decide() {
	ex, _ := einsum.Parse("ija,ak->ikj")
	p, _ := ex.Bind([][]int{{33, 2, 4}, {4, 5}})
	pl, _ := einsum.NewPlan(p, einsum.Options{})
	st := &pl.Steps[0]
	// Column-major label strides of A, B and C, indexed by label id.
	strides := func(labels []int) []int {
		ls := make([]int, p.NumLabels)
		n := 1
		for _, l := range labels {
			ls[l] = n
			n *= p.Extents[l]
		}
		return ls
	}
	var g einsum.GemmLayout
	g.Decide(p.Extents, st, strides(p.Inputs[0]), strides(p.Inputs[1]), strides(p.Output))
	fmt.Println("rows", p.Term(g.Left[:g.InnerLeft]), "looped", p.Term(g.Left[g.InnerLeft:]), "columns", p.Term(g.Right[:g.InnerRight]))
	fmt.Println("copies", g.PackLeft, g.PackRight, g.CompactResult)
	// Output:
	// rows i looped j columns k
	// copies false false false
}
