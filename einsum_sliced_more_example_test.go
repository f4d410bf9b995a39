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

// Planned for one slice at a time, the slicer cuts c into 4 chunks of 2
// values whose peak fills the limit; planned for two slices at once, it
// cuts a into 8 single values at the same FLOPs, whose peak is a quarter
// of the limit, so that two of them fit together; an engine with a team of
// two then evaluates them in pairs.
func ExampleWithSliceWorkers() {
	shapes := [][]int{{8, 8, 8}, {8, 8, 8}, {8, 8, 8}, {8, 8, 8}}
	const sub, limit = "abc,cde,efa,bdf->", 2176
	one, _ := tf.PrepareEinsum(tf.Float64, sub, shapes, tf.WithMemoryLimit(limit))
	two, _ := tf.PrepareEinsum(tf.Float64, sub, shapes, tf.WithMemoryLimit(limit), tf.WithSliceWorkers(2))
	for _, p := range []*tf.EinsumPlan{one, two} {
		sp := p.Sliced()
		fmt.Println(sp.LabelNames(), sp.Widths, sp.Slices, sp.PeakPerSlice, sp.Flops, sp.Workers, sp.ConcurrentPeak(sp.Workers) <= limit)
	}
	// Output:
	// [c] [2] 4 2176 132096 1 true
	// [a] [1] 8 576 132096 2 true
}

// Peak is what a plan's intermediates hold at once: for a sliced plan, one
// slice's.
func ExampleEinsumPlan_Peak() {
	shapes := [][]int{{2, 3}, {3, 4}, {4, 2}}
	whole, _ := tf.PrepareEinsum(tf.Float64, "ij,jk,kl->il", shapes)
	sliced, _ := tf.PrepareEinsum(tf.Float64, "ij,jk,kl->il", shapes, tf.WithMemoryLimit(3))
	fmt.Println(whole.Peak(), sliced.Peak(), sliced.Slices())
	// Output: 6 2 3
}

// A batch label that every intermediate carries cannot be summed away:
// under a limit below one batch item's worth, only slicing it helps.
// WithOutputSlicing allows that; each slice then computes its own part of
// the output, at no extra FLOPs.
func ExampleWithOutputSlicing() {
	shapes := [][]int{{4, 6, 16}, {6, 5, 16}, {5, 3, 16}}
	const sub = "ijb,jkb,klb->ilb"
	_, err := tf.PrepareEinsum(tf.Float64, sub, shapes, tf.WithMemoryLimit(40))
	fmt.Println(err != nil)
	p, _ := tf.PrepareEinsum(tf.Float64, sub, shapes, tf.WithMemoryLimit(40), tf.WithOutputSlicing())
	sp := p.Sliced()
	fmt.Println(sp.LabelNames(), sp.Summed, sp.Slices, sp.PeakPerSlice <= 40, sp.FlopOverhead)
	// Output:
	// true
	// [b] 0 8 true 1
}
