package reduce

import (
	"fmt"
	"math/cmplx"
	"math/rand/v2"
	"testing"

	"github.com/tenferro-go/tenferro/internal/kernel/strided"
	st "github.com/tenferro-go/tenferro/internal/kernel/strided/stridedtest"
	"github.com/tenferro-go/tenferro/internal/par"
)

var extents = []int{0, 1, 2, 3, 5, 7, 17, 33, 67, 300}

// dstView returns a view for the reduction of shape over the axes marked in
// red: a random view of the kept shape whose reduced axes get stride 0.
func dstView[T strided.Scalar](rng *rand.Rand, shape []int, red []bool) strided.Ref[T] {
	ks := make([]int, len(shape))
	for d, e := range shape {
		ks[d] = e
		if red[d] {
			ks[d] = 1
		}
	}
	v := st.RandView[T](rng, ks, st.All)
	for d := range shape {
		if red[d] {
			v.Strides[d] = 0
		}
	}
	return v
}

func checkReduce[T strided.Scalar](t *testing.T, r par.Runner, shape []int, red []bool, a, b strided.Ref[T], prod bool, rng *rand.Rand) {
	t.Helper()
	dst := dstView[T](rng, shape, red)
	if prod {
		SumProduct(r, shape, dst, a, b)
	} else {
		Sum(r, shape, dst, a)
	}
	want := map[int]complex128{}
	mag := map[int]float64{}
	nred := 1
	for d, e := range shape {
		if red[d] {
			nred *= e
		}
	}
	st.ForEach(shape, func(idx []int) {
		x := st.C128(a.Data[st.At(a, idx)])
		if prod {
			x *= st.C128(b.Data[st.At(b, idx)])
		}
		o := st.At(dst, idx)
		want[o] += x
		mag[o] += cmplx.Abs(x)
	})
	eps := st.Eps[T]()
	for o, w := range want {
		got := st.C128(dst.Data[o])
		// Any summation order: |error| <= (n-1)*eps*sum|terms| plus the
		// rounding of each product (2*eps relative for complex).
		tol := float64(nred+2) * eps * mag[o]
		if !st.Close(got, w, tol) {
			t.Fatalf("%T shape %v red %v prod %v: dst[%d] = %v, want %v (tol %g)", *new(T), shape, red, prod, o, got, w, tol)
		}
	}
	// Empty reductions write zeros.
	if strided.Size(shape) == 0 {
		ks := make([]int, len(shape))
		empty := false
		for d, e := range shape {
			ks[d] = e
			if red[d] {
				ks[d] = 1
			} else if e == 0 {
				empty = true
			}
		}
		if !empty {
			st.ForEach(ks, func(idx []int) {
				if v := dst.Data[st.At(dst, idx)]; v != 0 {
					t.Fatalf("%T shape %v red %v: empty reduction wrote %v", *new(T), shape, red, v)
				}
			})
		}
	}
	ks := make([]int, len(shape))
	for d, e := range shape {
		ks[d] = e
		if red[d] {
			ks[d] = 1
		}
	}
	if i := st.CheckGuards(dst, ks); i >= 0 {
		t.Fatalf("%T shape %v red %v: guard %d overwritten", *new(T), shape, red, i)
	}
}

func testType[T strided.Scalar](t *testing.T, r par.Runner) {
	rng := rand.New(rand.NewPCG(5, uint64(strided.Kind[T]())))
	cases := [][]int{{}, {0}, {1}, {7}, {1000}, {3, 0}, {0, 3}, {64, 64}, {67, 5}, {5, 67}, {300, 2, 3}, {2, 300, 3}}
	count, limit := 60, 1<<13
	if testing.Short() {
		count, limit = 20, 1<<11
	}
	for range count {
		s := st.RandShape(rng, 1+rng.IntN(5), extents)
		if strided.Size(s) <= limit {
			cases = append(cases, s)
		}
	}
	for _, shape := range cases {
		for rep := range 4 {
			red := make([]bool, len(shape))
			for d := range red {
				red[d] = rng.IntN(2) == 0
			}
			if rep == 0 {
				for d := range red {
					red[d] = true // full reduction
				}
			}
			in := st.ViewOpts{Permute: rep > 0, Negative: rep > 1, Gaps: rep > 1, Zero: rep == 3}
			a := st.RandView[T](rng, shape, in)
			b := st.RandView[T](rng, shape, in)
			checkReduce(t, r, shape, red, a, b, false, rng)
			checkReduce(t, r, shape, red, a, b, true, rng)
		}
	}
	// Traces through diagonal views: sum_i a[i,i] and sum_i a[i,i]*b[i,i].
	for _, n := range []int{1, 2, 5, 130} {
		a := st.RandView[T](rng, []int{n, n}, st.All)
		b := st.RandView[T](rng, []int{n, n}, st.All)
		diag := func(v strided.Ref[T]) strided.Ref[T] {
			return strided.Ref[T]{Data: v.Data, Off: v.Off, Strides: []int{v.Strides[0] + v.Strides[1]}}
		}
		checkReduce(t, r, []int{n}, []bool{true}, diag(a), diag(b), false, rng)
		checkReduce(t, r, []int{n}, []bool{true}, diag(a), diag(b), true, rng)
	}
}

func testAll(t *testing.T, r par.Runner) {
	testType[float32](t, r)
	testType[float64](t, r)
	testType[complex64](t, r)
	testType[complex128](t, r)
}

func TestSerial(t *testing.T) { testAll(t, nil) }

func TestParallel(t *testing.T) {
	r := st.Parallel(t, 3, &ParallelBytes, 64)
	testAll(t, r)
}

// TestAccuracy checks that a long float32 sum of 2^22 equal values stays
// within 1e-5 relative error, where a naive running sum loses several digits
// (its partial sums reach 2^22 and each addition rounds at 2^-2).
func TestAccuracy(t *testing.T) {
	n := 1 << 22
	x := make([]float32, n)
	for i := range x {
		x[i] = 1 + 1.0/(1<<10)
	}
	for _, shape := range [][]int{{n}, {1 << 11, 1 << 11}, {3, n / 4}} {
		red := make([]int, len(shape))
		d := []float32{0}
		Sum(nil, shape[:len(red)], strided.Ref[float32]{Data: d, Strides: red},
			strided.Ref[float32]{Data: x, Strides: colMajor(shape)})
		want := float64(strided.Size(shape)) * (1 + 1.0/(1<<10))
		if rel := (float64(d[0]) - want) / want; rel > 1e-5 || rel < -1e-5 {
			t.Errorf("shape %v: sum %v, want %v (relative error %g)", shape, d[0], want, rel)
		}
	}
}

func colMajor(shape []int) []int {
	s := make([]int, len(shape))
	k := 1
	for d, e := range shape {
		s[d] = k
		k *= e
	}
	return s
}

func TestAllocs(t *testing.T) {
	r := st.Parallel(t, 2, &ParallelBytes, 1024)
	shape := []int{40, 50, 3}
	a := strided.Ref[float64]{Data: make([]float64, 6000), Strides: []int{1, 40, 2000}}
	b := strided.Ref[float64]{Data: make([]float64, 6000), Strides: []int{150, 3, 1}}
	for _, ds := range [][]int{{1, 0, 40}, {0, 1, 0}, {0, 0, 0}} {
		d := strided.Ref[float64]{Data: make([]float64, 200), Strides: ds}
		for _, run := range []par.Runner{nil, r} {
			if n := testing.AllocsPerRun(20, func() { Sum(run, shape, d, a) }); n != 0 {
				t.Errorf("Sum dst strides %v: %v allocations, want 0", ds, n)
			}
			if n := testing.AllocsPerRun(20, func() { SumProduct(run, shape, d, a, b) }); n != 0 {
				t.Errorf("SumProduct dst strides %v: %v allocations, want 0", ds, n)
			}
		}
	}
}

func ExampleSumProduct() {
	// The dot product of two vectors: dst has stride 0 along the only axis.
	a := []float64{1, 2, 3}
	b := []float64{4, 5, 6}
	d := []float64{0}
	SumProduct(nil, []int{3},
		strided.Ref[float64]{Data: d, Strides: []int{0}},
		strided.Ref[float64]{Data: a, Strides: []int{1}},
		strided.Ref[float64]{Data: b, Strides: []int{1}})
	fmt.Println(d[0])
	// Output: 32
}

func ExampleSum() {
	// Column sums of a 2x3 column-major matrix.
	m := []float64{1, 2, 3, 4, 5, 6}
	d := make([]float64, 3)
	Sum(nil, []int{2, 3},
		strided.Ref[float64]{Data: d, Strides: []int{0, 1}},
		strided.Ref[float64]{Data: m, Strides: []int{1, 2}})
	fmt.Println(d)
	// Output: [3 7 11]
}
