package tenferro_test

import (
	"fmt"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/einsum"
)

// Under a memory limit below the best path's peak, Einsum slices the
// contraction and sums the slices: the chain's 3 × 2 intermediate (6
// elements) does not fit a limit of 3, one column of it per slice does.
func ExampleWithMemoryLimit() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromSlice([]float64{1, 2, 3, 4, 5, 6}, 2, 3)
	b, _ := tf.Ones[float64](3, 4)
	c, _ := tf.Ones[float64](4, 2)
	ops := []*tf.Tensor[float64]{a, b, c}
	out, err := tf.EinsumWith(e, "ij,jk,kl->il", ops, tf.WithMemoryLimit(3))
	if err != nil {
		panic(err)
	}
	fmt.Println(out)
	p, _ := tf.PrepareEinsum(tf.Float64, "ij,jk,kl->il", [][]int{{2, 3}, {3, 4}, {4, 2}}, tf.WithMemoryLimit(3))
	fmt.Println(p.Sliced().LabelNames(), p.Slices(), p.Peak())
	// Output:
	// Tensor[f64] (2, 2)
	// [[36 36]
	//  [48 48]]
	// [j] 3 2
}

// EinsumSlicesInto evaluates a range of slices: partial sums of disjoint
// ranges add up to the contraction.
func ExampleEinsumSlicesInto() {
	e := cpu.Serial()
	defer e.Close()
	p, _ := tf.PrepareEinsum(tf.Float64, "ij,jk,kl->il", [][]int{{2, 3}, {3, 4}, {4, 2}}, tf.WithMemoryLimit(3))
	a, _ := tf.FromSlice([]float64{1, 2, 3, 4, 5, 6}, 2, 3)
	b, _ := tf.Ones[float64](3, 4)
	c, _ := tf.Ones[float64](4, 2)
	first, _ := tf.Zeros[float64](2, 2)
	rest, _ := tf.Zeros[float64](2, 2)
	if err := tf.EinsumSlicesInto(e, first, p, 0, 1, a, b, c); err != nil {
		panic(err)
	}
	if err := tf.EinsumSlicesInto(e, rest, p, 1, p.Slices(), a, b, c); err != nil {
		panic(err)
	}
	x, _ := first.At(0, 0)
	y, _ := rest.At(0, 0)
	fmt.Println(x, y, x+y)
	// Output: 4 32 36
}

// PrepareSlicedEinsum executes a sliced plan made by package einsum, for
// example one rebuilt from its labels and its path.
func ExamplePrepareSlicedEinsum() {
	e := cpu.Serial()
	defer e.Close()
	ex, _ := einsum.Parse("ij,jk->ik")
	prob, _ := ex.Bind([][]int{{2, 3}, {3, 2}})
	sp, err := einsum.SliceWith(prob, []int{1}, einsum.Options{}) // label j
	if err != nil {
		panic(err)
	}
	p, err := tf.PrepareSlicedEinsum(tf.Float64, sp)
	if err != nil {
		panic(err)
	}
	a, _ := tf.FromSlice([]float64{1, 2, 3, 4, 5, 6}, 2, 3)
	b, _ := tf.Ones[float64](3, 2)
	out, _ := tf.EinsumPlanned(e, p, a, b)
	fmt.Println(p.Slices(), out)
	// Output:
	// 3 Tensor[f64] (2, 2)
	// [[ 9  9]
	//  [12 12]]
}
