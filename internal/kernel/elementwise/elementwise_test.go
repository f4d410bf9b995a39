package elementwise

import (
	"fmt"
	"math/cmplx"
	"math/rand/v2"
	"testing"

	"github.com/tenferro-go/tenferro/internal/kernel/strided"
	st "github.com/tenferro-go/tenferro/internal/kernel/strided/stridedtest"
	"github.com/tenferro-go/tenferro/internal/par"
)

var extents = []int{1, 2, 3, 5, 7, 17, 33, 67}

func testShapes(rng *rand.Rand) [][]int {
	shapes := [][]int{{}, {0}, {1}, {4, 0}, {97}, {67, 71}, {129, 3}, {3, 129}, {2, 3, 5, 7}}
	big := make([]int, 32) // rank 32, 2^10 elements
	for i := range big {
		big[i] = 1 + (i%3+1)/3 // every third extent is 2
	}
	shapes = append(shapes, big)
	for range 20 {
		s := st.RandShape(rng, rng.IntN(6), extents)
		if strided.Size(s) <= 1<<12 {
			shapes = append(shapes, s)
		}
	}
	return shapes
}

func c(x complex128) float64 { return cmplx.Abs(x) }

func checkUnaryBinary[T strided.Scalar](t *testing.T, r par.Runner) {
	rng := rand.New(rand.NewPCG(3, uint64(strided.Kind[T]())))
	eps := st.Eps[T]()
	name := fmt.Sprintf("%T", *new(T))
	for _, shape := range testShapes(rng) {
		for rep := range 3 {
			in := st.ViewOpts{Permute: true, Negative: rep > 0, Gaps: rep > 1, Zero: rep > 0}
			out := st.ViewOpts{Permute: rep > 0, Negative: rep > 1, Gaps: rep > 0}
			a := st.RandView[T](rng, shape, in)
			b := st.RandView[T](rng, shape, in)
			alpha := st.Rand[T](rng)
			for op := Copy; op <= Conj; op++ {
				dst := st.RandView[T](rng, shape, out)
				Unary(r, op, alpha, shape, dst, a)
				st.ForEach(shape, func(idx []int) {
					x := st.C128(a.Data[st.At(a, idx)])
					want := [...]complex128{x, st.C128(alpha) * x, -x, cmplx.Conj(x)}[op]
					got := st.C128(dst.Data[st.At(dst, idx)])
					if !st.Close(got, want, 4*eps*c(want)) {
						t.Fatalf("%s Unary op %d shape %v idx %v: got %v want %v", name, op, shape, idx, got, want)
					}
				})
				if i := st.CheckGuards(dst, shape); i >= 0 {
					t.Fatalf("%s Unary op %d shape %v: guard %d overwritten", name, op, shape, i)
				}
			}
			for op := Add; op <= Mul; op++ {
				dst := st.RandView[T](rng, shape, out)
				Binary(r, op, shape, dst, a, b)
				st.ForEach(shape, func(idx []int) {
					x, y := st.C128(a.Data[st.At(a, idx)]), st.C128(b.Data[st.At(b, idx)])
					want := [...]complex128{x + y, x - y, x * y}[op]
					tol := [...]float64{2 * eps * (c(x) + c(y)), 2 * eps * (c(x) + c(y)), 4 * eps * c(x) * c(y)}[op]
					got := st.C128(dst.Data[st.At(dst, idx)])
					if !st.Close(got, want, tol) {
						t.Fatalf("%s Binary op %d shape %v idx %v: got %v want %v", name, op, shape, idx, got, want)
					}
				})
				if i := st.CheckGuards(dst, shape); i >= 0 {
					t.Fatalf("%s Binary op %d shape %v: guard %d overwritten", name, op, shape, i)
				}
			}
			dst := st.RandView[T](rng, shape, out)
			Fill(r, shape, dst, alpha)
			st.ForEach(shape, func(idx []int) {
				if dst.Data[st.At(dst, idx)] != alpha {
					t.Fatalf("%s Fill shape %v idx %v", name, shape, idx)
				}
			})
			if i := st.CheckGuards(dst, shape); i >= 0 {
				t.Fatalf("%s Fill shape %v: guard %d overwritten", name, shape, i)
			}
			// In place: dst coincides with a.
			ac := strided.Ref[T]{Data: append([]T(nil), a.Data...), Off: a.Off, Strides: a.Strides}
			if !in.Zero || !hasZero(a.Strides, shape) {
				Binary(r, Sub, shape, ac, ac, b)
				st.ForEach(shape, func(idx []int) {
					x, y := st.C128(a.Data[st.At(a, idx)]), st.C128(b.Data[st.At(b, idx)])
					if !st.Close(st.C128(ac.Data[st.At(ac, idx)]), x-y, 2*eps*(c(x)+c(y))) {
						t.Fatalf("%s in-place Sub shape %v idx %v", name, shape, idx)
					}
				})
			}
		}
	}
}

func hasZero(strides, shape []int) bool {
	for d, s := range strides {
		if s == 0 && shape[d] > 1 {
			return true
		}
	}
	return false
}

func testAll(t *testing.T, r par.Runner) {
	checkUnaryBinary[float32](t, r)
	checkUnaryBinary[float64](t, r)
	checkUnaryBinary[complex64](t, r)
	checkUnaryBinary[complex128](t, r)
}

func TestSerial(t *testing.T) { testAll(t, nil) }

func TestParallel(t *testing.T) {
	r := st.Parallel(t, 3, &ParallelBytes, 64)
	testAll(t, r)
}

func TestAllocs(t *testing.T) {
	r := st.Parallel(t, 2, &ParallelBytes, 1024)
	shape := []int{40, 50, 3}
	a := strided.Ref[complex128]{Data: make([]complex128, 6000), Strides: []int{150, 3, 1}}
	b := strided.Ref[complex128]{Data: make([]complex128, 40), Strides: []int{1, 0, 0}}
	d := strided.Ref[complex128]{Data: make([]complex128, 6000), Strides: []int{1, 40, 2000}}
	for _, run := range []par.Runner{nil, r} {
		if n := testing.AllocsPerRun(20, func() { Binary(run, Mul, shape, d, a, b) }); n != 0 {
			t.Errorf("Binary: %v allocations, want 0", n)
		}
		if n := testing.AllocsPerRun(20, func() { Unary(run, Conj, 0, shape, d, a) }); n != 0 {
			t.Errorf("Unary: %v allocations, want 0", n)
		}
	}
}

func ExampleBinary() {
	// c = a + b where b is a row vector broadcast over the rows of a 2x3 a.
	a := []float64{1, 2, 3, 4, 5, 6}
	b := []float64{10, 20, 30}
	out := make([]float64, 6)
	Binary(nil, Add, []int{2, 3},
		strided.Ref[float64]{Data: out, Strides: []int{1, 2}},
		strided.Ref[float64]{Data: a, Strides: []int{1, 2}},
		strided.Ref[float64]{Data: b, Strides: []int{0, 1}})
	fmt.Println(out)
	// Output: [11 12 23 24 35 36]
}
