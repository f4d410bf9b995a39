package backend_test

import (
	"fmt"

	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/einsum"
)

// slicedChain slices label j of "ij,jk->ik" on a 2×3 and a 3×2 operand:
// three slices, slice s fixing j = s.
func slicedChain() (*einsum.SlicedPlan, []*backend.View[float64]) {
	expr, _ := einsum.Parse("ij,jk->ik")
	p, _ := expr.Bind([][]int{{2, 3}, {3, 2}})
	sp, _ := einsum.SliceWith(p, []int{1}, einsum.Options{})
	a := &backend.View[float64]{Data: []float64{1, 2, 3, 4, 5, 6}, Shape: []int{2, 3}, Strides: []int{1, 2}}
	b := &backend.View[float64]{Data: []float64{10, 20, 30, 40, 50, 60}, Shape: []int{3, 2}, Strides: []int{1, 3}}
	return sp, []*backend.View[float64]{a, b}
}

// Reset points a cursor at the whole operands; its views have the slice
// plan's shapes (extent 1 on j) and the operands' strides.
func ExampleSliceCursor_Reset() {
	sp, ops := slicedChain()
	var c backend.SliceCursor[float64]
	c.Reset(sp, ops)
	for _, v := range c.Views() {
		fmt.Println(v.Shape, v.Strides, v.Off)
	}
	// Output:
	// [2 1] [1 2] 0
	// [1 2] [1 3] 0
}

// Seek places the views on one slice: j = 2 starts at column 2 of a (offset
// 2·2) and row 2 of b (offset 2·1).
func ExampleSliceCursor_Seek() {
	sp, ops := slicedChain()
	var c backend.SliceCursor[float64]
	c.Reset(sp, ops)
	c.Seek(2)
	fmt.Println(c.Views()[0].Off, c.Views()[1].Off)
	// Output: 4 2
}

// Next walks the slices in order and wraps around after the last.
func ExampleSliceCursor_Next() {
	sp, ops := slicedChain()
	var c backend.SliceCursor[float64]
	c.Reset(sp, ops)
	for range sp.Slices {
		c.Next()
		fmt.Print(c.Views()[0].Off, " ")
	}
	fmt.Println()
	// Output: 2 4 0
}

// Views are what an engine contracts with the slice plan: here the
// elements a[i, j] b[j, k] of slice j = 1, summed by hand.
func ExampleSliceCursor_Views() {
	sp, ops := slicedChain()
	var c backend.SliceCursor[float64]
	c.Reset(sp, ops)
	c.Seek(1)
	v := c.Views()
	a0 := v[0].Data[v[0].Off] // a[0, 1]
	b0 := v[1].Data[v[1].Off] // b[1, 0]
	fmt.Println(a0, b0, a0*b0)
	// Output: 3 20 60
}

// Release drops the references to the operands' storage once the slices
// are done (the cursor keeps its memory for the next Reset).
func ExampleSliceCursor_Release() {
	sp, ops := slicedChain()
	var c backend.SliceCursor[float64]
	c.Reset(sp, ops)
	c.Release()
	fmt.Println(c.Views()[0] == nil)
	// Output: true
}

// Plan is the plan of the current slice: a slicing whose width does not
// divide the extent (j, of extent 3, cut into chunks of 2 and 1 value) runs its
// shorter last chunk with the tail plan, on views of that chunk's shape.
func ExampleSliceCursor_Plan() {
	sp, ops := slicedChain()
	tail, _ := einsum.SliceWithWidths(sp.Problem, sp.Labels, []int{2}, einsum.Options{})
	var c backend.SliceCursor[float64]
	c.Reset(tail, ops)
	for range tail.Slices {
		fmt.Println(c.Plan() == tail.Tail, c.Views()[0].Shape, c.Views()[0].Off)
		c.Next()
	}
	// Output:
	// false [2 2] 0
	// true [2 1] 4
}

// EinsumSliced sums the three slices of the chain into dst with the
// engine's contraction kernels: the product a·b, 2×2.
func ExampleEinsumSliced() {
	sp, ops := slicedChain()
	e := cpu.Serial()
	defer e.Close()
	k := backend.KernelsOf[float64](e.Backend()).Contraction
	dst := &backend.View[float64]{Data: make([]float64, 4), Shape: []int{2, 2}, Strides: []int{1, 2}}
	var c backend.SliceCursor[float64]
	if err := backend.EinsumSliced(k, &c, dst, sp, ops, 0, sp.Slices, 1, 0); err != nil {
		fmt.Println(err)
	}
	fmt.Println(dst.Data)
	// Output:
	// [220 280 490 640]
}

// EachSlice runs any contraction per slice: here it counts the slices and
// hands each to the engine's kernels, which sum them into dst.
func ExampleEachSlice() {
	sp, ops := slicedChain()
	e := cpu.Serial()
	defer e.Close()
	k := backend.KernelsOf[float64](e.Backend()).Contraction
	dst := &backend.View[float64]{Data: make([]float64, 4), Shape: []int{2, 2}, Strides: []int{1, 2}}
	n := 0
	contract := func(dst *backend.View[float64], plan *einsum.Plan, operands []*backend.View[float64], alpha, beta float64) error {
		n++
		return k.Einsum(dst, plan, operands, alpha, beta)
	}
	var c backend.SliceCursor[float64]
	if err := backend.EachSlice(contract, &c, dst, sp, ops, 0, sp.Slices, 1, 0); err != nil {
		fmt.Println(err)
	}
	fmt.Println(n, dst.Data)
	// Output:
	// 3 [220 280 490 640]
}

// Dst is the part of the destination a slice writes. Slicing the output
// label i of "ij,jk->ik" (a 2×2 result, column-major) makes each slice a
// 1×2 row: slice 1 starts at element (1, 0), offset 1, with dst's strides.
func ExampleSliceCursor_Dst() {
	_, ops := slicedChain()
	expr, _ := einsum.Parse("ij,jk->ik")
	p, _ := expr.Bind([][]int{{2, 3}, {3, 2}})
	sp, _ := einsum.SliceWith(p, []int{0}, einsum.Options{})
	dst := &backend.View[float64]{Data: make([]float64, 4), Shape: []int{2, 2}, Strides: []int{1, 2}}
	var c backend.SliceCursor[float64]
	c.Reset(sp, ops)
	c.Seek(1)
	part := c.Dst(dst)
	fmt.Println(part.Shape, part.Strides, part.Off)
	// Output: [1 2] [1 2] 1
}
