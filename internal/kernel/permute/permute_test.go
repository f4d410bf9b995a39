package permute

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/tenferro-go/tenferro/internal/kernel/strided"
	st "github.com/tenferro-go/tenferro/internal/kernel/strided/stridedtest"
	"github.com/tenferro-go/tenferro/internal/par"
)

var extents = []int{1, 2, 3, 5, 7, 17, 33, 64, 67}

func testShapes(rng *rand.Rand) [][]int {
	shapes := [][]int{{}, {0}, {1}, {5, 0, 3}, {1, 1, 1}, {97}, {67, 71}, {64, 64}, {129, 3}, {3, 129},
		{33, 17, 5}, {2, 3, 5, 7}, {1000, 2}}
	big := make([]int, 32) // rank 32, 2^10 elements
	for i := range big {
		big[i] = 1 + (i%3+1)/3 // every third extent is 2
	}
	shapes = append(shapes, big)
	for range 40 {
		rank := rng.IntN(6)
		s := st.RandShape(rng, rank, extents)
		if strided.Size(s) > 1<<16 {
			continue
		}
		shapes = append(shapes, s)
	}
	return shapes
}

func checkCopy[T strided.Scalar](t *testing.T, r par.Runner) {
	rng := rand.New(rand.NewPCG(1, uint64(strided.Kind[T]())))
	for _, shape := range testShapes(rng) {
		for rep := range 3 {
			src := st.RandView[T](rng, shape, st.ViewOpts{Permute: true, Negative: rep > 0, Gaps: rep > 1, Zero: rep == 2})
			dst := st.RandView[T](rng, shape, st.ViewOpts{Permute: rep > 0, Negative: rep > 1, Gaps: rep > 0})
			Copy(r, shape, dst, src)
			bad := 0
			st.ForEach(shape, func(idx []int) {
				if dst.Data[st.At(dst, idx)] != src.Data[st.At(src, idx)] && bad == 0 {
					bad++
					t.Errorf("%T shape %v idx %v: dst %v want %v (dst strides %v, src strides %v)",
						*new(T), shape, idx, dst.Data[st.At(dst, idx)], src.Data[st.At(src, idx)], dst.Strides, src.Strides)
				}
			})
			if i := st.CheckGuards(dst, shape); i >= 0 {
				t.Errorf("%T shape %v: element %d outside dst was overwritten", *new(T), shape, i)
			}
		}
	}
}

func testCopyAll(t *testing.T, r par.Runner) {
	checkCopy[float32](t, r)
	checkCopy[float64](t, r)
	checkCopy[complex64](t, r)
	checkCopy[complex128](t, r)
}

func TestCopySerial(t *testing.T) { testCopyAll(t, nil) }

func TestCopyParallel(t *testing.T) {
	r := st.Parallel(t, 3, &ParallelBytes, 64)
	testCopyAll(t, r)
}

// TestCopyLarge exercises the blocked path on tiles with tails, in parallel.
func TestCopyLarge(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	r := st.Parallel(t, 2, &ParallelBytes, 1<<12)
	for _, shape := range [][]int{{301, 257}, {45, 37, 29}, {130, 3, 70}} {
		for rep := range 4 {
			src := st.RandView[float64](rng, shape, st.ViewOpts{Permute: true, Negative: rep == 3})
			dst := st.RandView[float64](rng, shape, st.ViewOpts{Permute: rep > 1})
			Copy(r, shape, dst, src)
			st.ForEach(shape, func(idx []int) {
				if dst.Data[st.At(dst, idx)] != src.Data[st.At(src, idx)] {
					t.Fatalf("shape %v idx %v mismatch", shape, idx)
				}
			})
			if i := st.CheckGuards(dst, shape); i >= 0 {
				t.Fatalf("shape %v: guard %d overwritten", shape, i)
			}
		}
	}
}

func TestCopyAllocs(t *testing.T) {
	r := st.NewRunner(2)
	defer r.Close()
	shape := []int{40, 50, 3}
	src := strided.Ref[float64]{Data: make([]float64, 6000), Strides: []int{150, 3, 1}}
	dst := strided.Ref[float64]{Data: make([]float64, 6000), Strides: []int{1, 40, 2000}}
	old := ParallelBytes
	ParallelBytes = 1024
	defer func() { ParallelBytes = old }()
	for _, run := range []par.Runner{nil, r} {
		Copy(run, shape, dst, src)
		if n := testing.AllocsPerRun(50, func() { Copy(run, shape, dst, src) }); n != 0 {
			t.Errorf("runner %v: %v allocations per Copy, want 0", run, n)
		}
	}
}

func ExampleCopy() {
	// Transpose a 2x3 column-major matrix into a 3x2 one.
	a := []float64{1, 2, 3, 4, 5, 6} // a = [1 3 5; 2 4 6]
	at := make([]float64, 6)
	shape := []int{3, 2} // the shape of at
	Copy(nil, shape,
		strided.Ref[float64]{Data: at, Strides: []int{1, 3}},
		strided.Ref[float64]{Data: a, Strides: []int{2, 1}}) // a viewed as its transpose
	fmt.Println(at)
	// Output: [1 3 5 2 4 6]
}

// TestCopyVariants runs the copy tests with the assembly strip kernel
// disabled too, so both variants are checked on machines that have it.
func TestCopyVariants(t *testing.T) {
	if !haveStrip8 {
		t.Skip("no assembly strip kernel on this machine or build")
	}
	if haveStrip8z {
		// The AVX kernel alone (it also finishes the AVX-512 kernel's
		// groups of four columns).
		haveStrip8z = false
		testCopyAll(t, nil)
		haveStrip8z = true
	}
	haveStrip8 = false
	defer func() { haveStrip8 = true }()
	testCopyAll(t, nil)
	checkCopy[float64](t, nil)
}
