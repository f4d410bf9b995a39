package tenferro_test

import (
	"fmt"

	tf "github.com/tenferro-go/tenferro"
)

// Sliced is the slicing of a plan made under a memory limit its best path
// exceeds (nil otherwise).
func ExampleEinsumPlan_Sliced() {
	shapes := [][]int{{2, 3}, {3, 4}, {4, 2}}
	p, _ := tf.PrepareEinsum(tf.Float64, "ij,jk,kl->il", shapes, tf.WithMemoryLimit(3))
	q, _ := tf.PrepareEinsum(tf.Float64, "ij,jk,kl->il", shapes)
	fmt.Println(p.Sliced().LabelNames(), q.Sliced() == nil)
	// Output: [j] true
}

// Slices is the number of slices a plan runs (1 when it is not sliced).
func ExampleEinsumPlan_Slices() {
	shapes := [][]int{{2, 3}, {3, 4}, {4, 2}}
	p, _ := tf.PrepareEinsum(tf.Float64, "ij,jk,kl->il", shapes, tf.WithMemoryLimit(3))
	q, _ := tf.PrepareEinsum(tf.Float64, "ij,jk,kl->il", shapes)
	fmt.Println(p.Slices(), q.Slices())
	// Output: 3 1
}
