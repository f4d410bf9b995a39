package permute

import (
	"math/rand/v2"
	"testing"

	"github.com/tenferro-go/tenferro/internal/kernel/strided"
	st "github.com/tenferro-go/tenferro/internal/kernel/strided/stridedtest"
	"github.com/tenferro-go/tenferro/internal/par"
)

// tinyShapes are shapes of many short axes, which take the combined-block
// path for most axis orders.
func tinyShapes(rng *rand.Rand) [][]int {
	shapes := [][]int{
		repeat(2, 12), repeat(3, 7), {2, 3, 2, 5, 2, 3, 7, 2}, {5, 2, 2, 2, 2, 3, 3, 40},
		{2, 2, 2, 2, 300}, {300, 2, 2, 2, 2}, {17, 3, 3, 3, 3}, {16, 16, 8, 8}, {2, 1, 2, 1, 2, 2, 2, 2, 2, 2},
		{4, 4, 4, 4, 4}, {2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 0},
	}
	for range 20 {
		s := st.RandShape(rng, 4+rng.IntN(7), []int{1, 2, 2, 3, 3, 5, 7})
		if strided.Size(s) <= 1<<14 {
			shapes = append(shapes, s)
		}
	}
	return shapes
}

func checkTiny[T strided.Scalar](t *testing.T, r par.Runner) {
	rng := rand.New(rand.NewPCG(11, uint64(strided.Kind[T]())))
	blocked := 0
	for _, shape := range tinyShapes(rng) {
		for rep := range 4 {
			src := st.RandView[T](rng, shape, st.ViewOpts{Permute: true, Negative: rep&1 != 0, Gaps: rep > 1, Zero: rep == 3})
			dst := st.RandView[T](rng, shape, st.ViewOpts{Permute: rep > 0, Negative: rep > 1, Gaps: rep&1 != 0})
			var l strided.Layout
			if l.Init(shape) && !l.Empty {
				l.Add(dst.Off, dst.Strides)
				l.Add(src.Off, src.Strides)
				l.Normalize()
				if _, _, ok := blockPlan[T](&l); ok {
					blocked++
				}
			}
			Copy(r, shape, dst, src)
			bad := false
			st.ForEach(shape, func(idx []int) {
				if !bad && dst.Data[st.At(dst, idx)] != src.Data[st.At(src, idx)] {
					bad = true
					t.Errorf("%T shape %v idx %v: dst strides %v src strides %v: got %v want %v", *new(T), shape, idx,
						dst.Strides, src.Strides, dst.Data[st.At(dst, idx)], src.Data[st.At(src, idx)])
				}
			})
			if i := st.CheckGuards(dst, shape); i >= 0 {
				t.Errorf("%T shape %v: element %d outside dst was overwritten", *new(T), shape, i)
			}
		}
	}
	if blocked < 20 {
		t.Errorf("%T: only %d cases took the combined-block path", *new(T), blocked)
	}
}

func testTinyAll(t *testing.T, r par.Runner) {
	checkTiny[float32](t, r)
	checkTiny[float64](t, r)
	checkTiny[complex64](t, r)
	checkTiny[complex128](t, r)
}

// TestCopyTinyAxes compares the combined-block path with the naive loop on
// many short axes, reversed, padded and broadcast views.
func TestCopyTinyAxes(t *testing.T) { testTinyAll(t, nil) }

func TestCopyTinyAxesParallel(t *testing.T) {
	r := st.Parallel(t, 3, &ParallelBytes, 64)
	testTinyAll(t, r)
}

// TestBlockPlan checks the chosen blocks on a reversal of 2^14: dst's
// fastest axes until dstBlockBytes (64 float64) are spanned, then src's
// fastest remaining axes until srcBlockBytes (128 float64) are.
func TestBlockPlan(t *testing.T) {
	shape, sstr, err := Permuted(repeat(2, 14), reversed(14))
	if err != nil {
		t.Fatal(err)
	}
	var l strided.Layout
	l.Init(shape)
	l.Add(0, ColMajor(shape))
	l.Add(0, sstr)
	l.Normalize()
	a, b, ok := blockPlan[float64](&l)
	if !ok || a != 6 || b != 13 {
		t.Fatalf("blockPlan = %d, %d, %v; want 6, 13, true", a, b, ok)
	}
	for d := a; d < b; d++ {
		if want := 1 << (d - a); l.Strides[1][d] != want || l.Strides[0][d] != 1<<(13-d+a) {
			t.Errorf("src block dimension %d has strides %d, %d; want %d, %d", d, l.Strides[0][d], l.Strides[1][d], 1<<(13-d+a), want)
		}
	}
	// Long fastest axes keep the strip path.
	l.Init([]int{64, 64})
	l.Add(0, []int{1, 64})
	l.Add(0, []int{64, 1})
	l.Normalize()
	if _, _, ok := blockPlan[float64](&l); ok {
		t.Error("blockPlan took a 64x64 transpose")
	}
}

func TestCopyTinyAllocs(t *testing.T) {
	r := st.NewRunner(2)
	defer r.Close()
	shape, sstr, err := Permuted(repeat(2, 12), reversed(12))
	if err != nil {
		t.Fatal(err)
	}
	src := strided.Ref[float64]{Data: make([]float64, 1<<12), Strides: sstr}
	dst := strided.Ref[float64]{Data: make([]float64, 1<<12), Strides: ColMajor(shape)}
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

// TestCopyNarrow covers transposes whose src-contiguous dimension has only
// two or three elements (cyclic shifts of short axes), with padded rows.
func TestCopyNarrow(t *testing.T) {
	for _, n0 := range []int{4, 5, 17, 100, 1000} {
		for _, n1 := range []int{2, 3} {
			for _, n2 := range []int{1, 3} {
				for _, pad := range []int{0, 1} {
					shape := []int{n0, n1, n2}
					s0 := n1 + pad
					src := strided.Ref[complex64]{Data: make([]complex64, s0*n0*n2), Strides: []int{s0, 1, s0 * n0}}
					for i := range src.Data {
						src.Data[i] = complex(float32(i), -float32(i))
					}
					dst := strided.Ref[complex64]{Data: make([]complex64, (n0+pad)*n1*n2+1), Off: 1, Strides: []int{1, n0 + pad, (n0 + pad) * n1}}
					dst.Data[0] = 7
					Copy(nil, shape, dst, src)
					st.ForEach(shape, func(idx []int) {
						if dst.Data[st.At(dst, idx)] != src.Data[st.At(src, idx)] {
							t.Fatalf("shape %v pad %d idx %v: got %v want %v", shape, pad, idx, dst.Data[st.At(dst, idx)], src.Data[st.At(src, idx)])
						}
					})
					if dst.Data[0] != 7 {
						t.Fatalf("shape %v: element before dst overwritten", shape)
					}
				}
			}
		}
	}
}

// TestCopyShortRows covers rows that are contiguous in both views but short,
// copied in tabulated groups (and one by one when the next dimension alone
// exceeds the table).
func TestCopyShortRows(t *testing.T) {
	for _, c := range []struct{ n0, n1, n2 int }{{5, 300, 3}, {16, 2, 2}, {3, 7, 40}, {63, 5, 2}, {2, 257, 2}} {
		shape := []int{c.n0, c.n1, c.n2}
		n := c.n0 * c.n1 * c.n2
		src := strided.Ref[float32]{Data: make([]float32, n+3), Off: 3, Strides: []int{1, c.n0 * c.n2, c.n0}}
		for i := range src.Data {
			src.Data[i] = float32(i) + 0.5
		}
		dst := strided.Ref[float32]{Data: make([]float32, n+2), Off: 1, Strides: []int{1, c.n0, c.n0 * c.n1}}
		Copy(nil, shape, dst, src)
		st.ForEach(shape, func(idx []int) {
			if dst.Data[st.At(dst, idx)] != src.Data[st.At(src, idx)] {
				t.Fatalf("shape %v idx %v: got %v want %v", shape, idx, dst.Data[st.At(dst, idx)], src.Data[st.At(src, idx)])
			}
		})
		if dst.Data[0] != 0 || dst.Data[n+1] != 0 {
			t.Fatalf("shape %v: element outside dst overwritten", shape)
		}
		if a := testing.AllocsPerRun(20, func() { Copy(nil, shape, dst, src) }); a != 0 {
			t.Errorf("shape %v: %v allocations per Copy, want 0", shape, a)
		}
	}
}
