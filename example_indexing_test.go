package tenferro_test

import (
	"fmt"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
)

// Negative indices count from the end, as in NumPy's take.
func ExampleTake() {
	e := cpu.Serial()
	index, _ := tf.FromSlice([]int64{2, 0, -1}, 3)
	cols, _ := tf.Take(e, matrix(), 1, index)
	fmt.Println(cols)
	bad, _ := tf.FromSlice([]int64{3}, 1)
	_, err := tf.Take(e, matrix(), 1, bad)
	fmt.Println(err)
	// Output:
	// Tensor[f64] (2, 3)
	// [[3 1 3]
	//  [6 4 6]]
	// tenferro: Take: index: invalid argument: expected values in [-3, 3) (the extent of the indexed axis), got 3 at [0]
}

func ExampleTakeInto() {
	e := cpu.Serial()
	index, _ := tf.FromSlice([]int64{1, 1}, 2)
	dst, _ := tf.Zeros[float64](2, 3)
	_ = tf.TakeInto(e, dst, matrix(), 0, index)
	fmt.Println(dst)
	// Output:
	// Tensor[f64] (2, 3)
	// [[4 5 6]
	//  [4 5 6]]
}

// Gather picks one element per index entry: here one column per row.
func ExampleGather() {
	e := cpu.Serial()
	index, _ := tf.FromRowMajor([]int64{2, 0}, 2, 1)
	g, _ := tf.Gather(e, matrix(), 1, index)
	fmt.Println(g)
	// Output:
	// Tensor[f64] (2, 1)
	// [[3]
	//  [4]]
}

func ExampleGatherInto() {
	e := cpu.Serial()
	index, _ := tf.FromRowMajor([]int64{1, 0, 1}, 1, 3)
	dst, _ := tf.Zeros[float64](1, 3)
	_ = tf.GatherInto(e, dst, matrix(), 0, index)
	fmt.Println(dst)
	// Output:
	// Tensor[f64] (1, 3)
	// [[4 2 6]]
}

// Repeated places accumulate: a histogram.
func ExampleScatterAdd() {
	e := cpu.Serial()
	bins, _ := tf.Zeros[int64](4)
	index, _ := tf.FromSlice([]int64{1, 3, 1, 1, -1}, 5)
	ones, _ := tf.Ones[int64](5)
	h, _ := tf.ScatterAdd(e, bins, 0, index, ones)
	d, _ := h.Data()
	fmt.Println(d)
	// Output: [0 3 0 2]
}

// In place: the destination is a itself.
func ExampleScatterAddInto() {
	e := cpu.Serial()
	acc, _ := tf.Zeros[float64](2, 2)
	index, _ := tf.FromRowMajor([]int64{0, 0, 1, 0}, 2, 2)
	src, _ := tf.FromRowMajor([]float64{1, 2, 3, 4}, 2, 2)
	_ = tf.ScatterAddInto(e, acc, acc, 1, index, src)
	fmt.Println(acc)
	// Output:
	// Tensor[f64] (2, 2)
	// [[3 0]
	//  [4 3]]
}

// The elements come in column-major order; a (3) mask broadcasts along
// the matrix's last axis.
func ExampleMaskedSelect() {
	e := cpu.Serial()
	mask, _ := tf.FromSlice([]bool{true, false, true}, 3)
	s, _ := tf.MaskedSelect(e, matrix(), mask)
	fmt.Println(s)
	// Output:
	// Tensor[f64] (4,)
	// [1 4 3 6]
}

func ExampleMaskedSelectInto() {
	e := cpu.Serial()
	x, _ := tf.FromSlice([]int64{5, -2, 7, -1}, 4)
	pos, _ := tf.FromSlice([]bool{true, false, true, false}, 4)
	dst, _ := tf.Full[int64](9, 4)
	n, _ := tf.MaskedSelectInto(e, dst, x, pos)
	d, _ := dst.Data()
	fmt.Println(n, d)
	// Output: 2 [5 7 0 0]
}
