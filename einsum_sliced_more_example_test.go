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

// Planned for two slices at once, the slicer picks a label whose slices
// hold half the peak at the same FLOPs, so that two of them fit the limit
// together; an engine with a team of two then evaluates them in pairs.
func ExampleWithSliceWorkers() {
	shapes := [][]int{{16, 16, 16}, {16, 16, 16}, {16, 16, 16}, {16, 16, 16}}
	const sub, limit = "abc,cde,efa,bdf->", 16896
	one, _ := tf.PrepareEinsum(tf.Float64, sub, shapes, tf.WithMemoryLimit(limit))
	two, _ := tf.PrepareEinsum(tf.Float64, sub, shapes, tf.WithMemoryLimit(limit), tf.WithSliceWorkers(2))
	for _, p := range []*tf.EinsumPlan{one, two} {
		sp := p.Sliced()
		fmt.Println(sp.LabelNames(), sp.Slices, sp.PeakPerSlice, sp.Flops, sp.Workers, sp.ConcurrentPeak(sp.Workers) <= limit)
	}
	// Output:
	// [c] 16 8448 4.202496e+06 1 true
	// [a] 16 4352 4.202496e+06 2 true
}
