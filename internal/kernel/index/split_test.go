package index

import (
	"testing"

	"github.com/tenferro-go/tenferro/internal/kernel/strided"
	"github.com/tenferro-go/tenferro/internal/par"
)

// lastPart is a runner of width 2 that runs only the last part of a task,
// so that a test sees exactly what that part writes.
type lastPart struct{}

func (lastPart) Width() int                { return 2 }
func (lastPart) Run(t par.Task, parts int) { t.RunPart(parts-1, parts) }

// TestGridShares checks that a worker of a mapped copy writes its share
// only: when the split dimension is not the outermost, a carry into an
// outer dimension restarts the split dimension at the share's start, not
// at 0. Shape (3, 8, 2) walks rows along its second axis and splits the
// first.
func TestGridShares(t *testing.T) {
	old := ParallelBytes
	ParallelBytes = 1
	defer func() { ParallelBytes = old }()
	shape := []int{3, 8, 2}
	n := strided.Size(shape)
	src := make([]float64, n)
	for i := range src {
		src[i] = float64(i)
	}
	strides := []int{1, 3, 24}
	for _, run := range []func(dst []float64){
		func(dst []float64) {
			Roll(lastPart{}, shape, strided.Ref[float64]{Data: dst, Strides: strides}, strided.Ref[float64]{Data: src, Strides: strides}, []int{1, 1, 1})
		},
		func(dst []float64) {
			Tri(lastPart{}, shape, strided.Ref[float64]{Data: dst, Strides: strides}, strided.Ref[float64]{Data: src, Strides: strides}, 0, false)
		},
	} {
		dst := make([]float64, n)
		for i := range dst {
			dst[i] = -1
		}
		run(dst)
		lo, _ := par.Split(3, 1, 2) // the last part's rows of axis 0
		for i, v := range dst {
			if mine := i%3 >= lo; mine == (v == -1) {
				t.Fatalf("element %d (axis-0 index %d, share from %d): %v", i, i%3, lo, v)
			}
		}
	}
}
