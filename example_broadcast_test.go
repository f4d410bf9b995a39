package tenferro_test

import (
	"fmt"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
)

// A (3) vector broadcasts along the last axis of a (2, 3) matrix, as in
// NumPy, and a Go scalar enters as a 0-d Const.
func ExampleConst() {
	e := cpu.Serial()
	defer e.Close()
	m, _ := tf.FromRowMajor([]float64{1, 2, 3, 4, 5, 6}, 2, 3)
	v, _ := tf.FromRowMajor([]float64{10, 20, 30}, 3)
	s, _ := tf.Add(e, m, v)
	h, _ := tf.Div(e, s, tf.Const(2.0))
	for i := range 2 {
		row := make([]float64, 3)
		for j := range row {
			row[j], _ = h.At(i, j)
		}
		fmt.Println(row)
	}
	// Output:
	// [5.5 11 16.5]
	// [7 12.5 18]
}

func ExampleBroadcastShapes() {
	s, _ := tf.BroadcastShapes([]int{4, 1, 3}, []int{2, 1})
	fmt.Println(s)
	_, err := tf.BroadcastShapes([]int{2, 3}, []int{2})
	fmt.Println(err)
	// Output:
	// [4 2 3]
	// tenferro: BroadcastShapes: b: shape mismatch: expected a shape that broadcasts with a's [2 3] (extents equal or 1, aligned on the last axis), got [2] (2 against 3 at axis -1)
}
