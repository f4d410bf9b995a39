package reduce

import (
	"fmt"
	"testing"

	"github.com/tenferro-go/tenferro/internal/kernel/strided"
	st "github.com/tenferro-go/tenferro/internal/kernel/strided/stridedtest"
	"github.com/tenferro-go/tenferro/internal/par"
)

// TestKernelAllocs checks that warm calls of every kernel allocate nothing,
// serially and fanned out, with the input fast along a kept axis, a reduced
// one and every axis reduced.
func TestKernelAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops pooled tasks at random under the race detector")
	}
	r := st.Parallel(t, 2, &ParallelBytes, 1024)
	testKernelAllocs[float64](t, r)
	testKernelAllocs[complex64](t, r)
	testKernelAllocs[float32](t, r)
	testKernelAllocs[complex128](t, r)
}

func testKernelAllocs[T strided.Scalar](t *testing.T, r par.Runner) {
	shape := []int{40, 50, 3}
	a := strided.Ref[T]{Data: make([]T, 6000), Strides: []int{1, 40, 2000}}
	for i := range a.Data {
		a.Data[i] = st.From[T](complex(float64(i%7)-3, 0))
	}
	full := strided.Ref[T]{Data: make([]T, 6000), Strides: []int{150, 3, 1}}
	ab := strided.Ref[bool]{Data: make([]bool, 6000), Strides: a.Strides}
	check := func(what string, fn func()) {
		t.Helper()
		fn()
		if n := testing.AllocsPerRun(20, fn); n != 0 {
			t.Errorf("%s %T: %v allocations, want 0", what, *new(T), n)
		}
	}
	for _, ds := range [][]int{{1, 0, 40}, {0, 1, 0}, {0, 0, 0}, {1, 40, 0}} {
		d := strided.Ref[T]{Data: make([]T, 2000), Strides: ds}
		db := strided.Ref[bool]{Data: make([]bool, 2000), Strides: ds}
		for ri, run := range []par.Runner{nil, r} {
			tag := fmt.Sprintf("dst strides %v runner %d", ds, ri)
			for _, k := range []FoldKind{SumFold, ProdFold, MaxAbsFold} {
				check("Fold "+k.String()+" "+tag, func() { Fold(run, k, shape, d, a) })
			}
			check("SumSquares "+tag, func() { SumSquares(run, shape, d, a) })
			check("Norm2 "+tag, func() { Norm2(run, shape, d, a) })
			check("SumAbsPow "+tag, func() { SumAbsPow(run, 1, shape, d, a) })
			check("SumAbsPow 3 "+tag, func() { SumAbsPow(run, 3, shape, d, a) })
			check("SumSquaredDeviations "+tag, func() { SumSquaredDeviations(run, shape, d, a, d) })
			check("Bools "+tag, func() { Bools(run, true, shape, db, ab) })
			if d, ok := asFloat[float64](d); ok {
				a, _ := asFloat[float64](a)
				for _, k := range []FoldKind{MaxFold, MinFold} {
					check("Fold "+k.String()+" "+tag, func() { Fold(run, k, shape, d, a) })
				}
				check("LogSumExp "+tag, func() { LogSumExp(run, shape, d, a) })
			}
		}
	}
	for axis := range shape {
		ds := []int{1, 40, 2000}
		ds[axis] = 0
		di := strided.Ref[int64]{Data: make([]int64, 6000), Strides: ds}
		for ri, run := range []par.Runner{nil, r} {
			tag := fmt.Sprintf("axis %d runner %d", axis, ri)
			if a, ok := asFloat[float64](a); ok {
				check("Arg "+tag, func() { Arg(run, false, shape, axis, di, a) })
			}
			check("Scan "+tag, func() { Scan(run, false, shape, axis, full, a) })
			check("Scan in place "+tag, func() { Scan(run, true, shape, axis, full, full) })
		}
	}
}
