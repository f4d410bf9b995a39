package elementwise

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/tenferro-go/tenferro/internal/kernel/strided"
	st "github.com/tenferro-go/tenferro/internal/kernel/strided/stridedtest"
	"github.com/tenferro-go/tenferro/internal/par"
)

// viewSpec describes a strided view: the axes in memory order (fastest
// first), the axes with stride 0, the reversed axes and a padding added
// before each axis's stride.
type viewSpec struct {
	order []int
	zero  []int
	neg   []int
	gap   int
}

// makeView returns a view of shape laid out as s over a fresh buffer whose
// addressed elements are random and whose other elements hold st.Sentinel.
func makeView[T strided.Scalar](rng *rand.Rand, shape []int, s viewSpec) strided.Ref[T] {
	strides := make([]int, len(shape))
	isZero := func(d int) bool {
		for _, z := range s.zero {
			if z == d {
				return true
			}
		}
		return false
	}
	n := 1
	for _, d := range s.order {
		if isZero(d) {
			continue
		}
		n += s.gap
		strides[d] = n
		n *= shape[d]
	}
	guard := 3
	off := guard
	for _, d := range s.neg {
		off += (shape[d] - 1) * strides[d]
		strides[d] = -strides[d]
	}
	r := strided.Ref[T]{Data: make([]T, n+2*guard), Off: off, Strides: strides}
	for i := range r.Data {
		r.Data[i] = T(st.Sentinel)
	}
	st.ForEach(shape, func(idx []int) { r.Data[st.At(r, idx)] = st.Rand[T](rng) })
	return r
}

// takesTile reports whether Binary over these operands runs binaryTiled
// (serially), by preparing the layout as Binary does.
func takesTile[T strided.Scalar](shape []int, dst, a, b strided.Ref[T]) bool {
	var l strided.Layout
	if !l.Init(shape) || l.Empty {
		return false
	}
	l.Add(dst.Off, dst.Strides)
	l.Add(a.Off, a.Strides)
	l.Add(b.Off, b.Strides)
	l.Normalize()
	m, _ := tileDims(&l)
	return m > 0 && !(flatOver(&l, 1, m) && flatOver(&l, 2, m))
}

type tileCase struct {
	shape     []int
	d, a, b   viewSpec
	inPlace   bool // dst is a
	wantTiled bool
}

func tileCases() []tileCase {
	id4 := []int{0, 1, 2, 3}
	return []tileCase{
		// The batched outer product kjt,ot->jkot and awkward relatives.
		{shape: []int{16, 16, 64, 8}, d: viewSpec{order: id4}, a: viewSpec{order: []int{1, 0, 3}, zero: []int{2}}, b: viewSpec{order: []int{2, 3}, zero: []int{0, 1}}, wantTiled: true},
		{shape: []int{5, 7, 3, 11}, d: viewSpec{order: id4}, a: viewSpec{order: []int{1, 0, 3}, zero: []int{2}}, b: viewSpec{order: []int{2, 3}, zero: []int{0, 1}}, wantTiled: true},
		{shape: []int{3, 13, 2, 5}, d: viewSpec{order: id4, neg: []int{1}}, a: viewSpec{order: []int{1, 0, 3}, zero: []int{2}, neg: []int{0}}, b: viewSpec{order: []int{3, 2}, zero: []int{0, 1}, neg: []int{3}}, wantTiled: true},
		// Both inputs transposed inside the tile, with gaps.
		{shape: []int{17, 3, 5, 2}, d: viewSpec{order: id4}, a: viewSpec{order: []int{1, 0, 2, 3}, gap: 1}, b: viewSpec{order: []int{2, 1, 0, 3}, neg: []int{0, 2}}, wantTiled: true},
		// The tile covers every dimension.
		{shape: []int{6, 7, 5}, d: viewSpec{order: []int{0, 1, 2}}, a: viewSpec{order: []int{2, 1, 0}}, b: viewSpec{order: []int{0, 1, 2}}, wantTiled: true},
		// An input broadcast along the tile's fastest dimension only.
		{shape: []int{16, 5, 7}, d: viewSpec{order: []int{0, 1, 2}}, a: viewSpec{order: []int{2, 1}, zero: []int{0}}, b: viewSpec{order: []int{0, 1, 2}}, wantTiled: true},
		// In place: dst is a, b is transposed.
		{shape: []int{9, 8, 3}, d: viewSpec{order: []int{0, 1, 2}}, b: viewSpec{order: []int{1, 0, 2}}, inPlace: true, wantTiled: true},
		// Not tiled: the destination has gaps, a tile would exceed
		// TileElems, or would be below minTile.
		{shape: []int{16, 16, 3}, d: viewSpec{order: []int{0, 1, 2}, gap: 1}, a: viewSpec{order: []int{1, 0, 2}}, b: viewSpec{order: []int{0, 1, 2}}},
		{shape: []int{200, 3, 4}, d: viewSpec{order: []int{0, 1, 2}}, a: viewSpec{order: []int{1, 0, 2}}, b: viewSpec{order: []int{0, 1, 2}}},
		{shape: []int{3, 5, 40}, d: viewSpec{order: []int{0, 1, 2}}, a: viewSpec{order: []int{1, 0, 2}}, b: viewSpec{order: []int{0, 1, 2}}},
	}
}

func checkTiled[T strided.Scalar](t *testing.T, r par.Runner) {
	rng := rand.New(rand.NewPCG(11, uint64(strided.Kind[T]())))
	name := fmt.Sprintf("%T", *new(T))
	for ci, tc := range tileCases() {
		for _, k := range binaryKinds[T](t) {
			dst := makeView[T](rng, tc.shape, tc.d)
			a := dst
			if !tc.inPlace {
				a = makeView[T](rng, tc.shape, tc.a)
			}
			b := makeView[T](rng, tc.shape, tc.b)
			if got := takesTile(tc.shape, dst, a, b); got != tc.wantTiled {
				t.Fatalf("case %d: tiled path %v, want %v", ci, got, tc.wantTiled)
			}
			a0 := clone(a)
			Binary(r, k, tc.shape, dst, a, b)
			checkBinary(t, fmt.Sprintf("%s case %d Binary %v", name, ci, k), k, tc.shape, dst, a0, b)
		}
	}
}

func testTiled(t *testing.T, r par.Runner) {
	checkTiled[float32](t, r)
	checkTiled[float64](t, r)
	checkTiled[complex64](t, r)
	checkTiled[complex128](t, r)
}

func TestTiledSerial(t *testing.T) { testTiled(t, nil) }

func TestTiledParallel(t *testing.T) {
	r := st.Parallel(t, 3, &ParallelBytes, 64)
	testTiled(t, r)
}

// TestTiledRandom runs every binary operation on random compact
// destinations and random input views (permuted, reversed, broadcast) of
// shapes whose leading extents form tiles, and checks that the tiled path
// was taken often.
func TestTiledRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	ext := []int{2, 3, 5, 7, 16, 17}
	kinds := binaryKinds[float64](t)
	tiled, n := 0, 0
	for range 200 {
		shape := st.RandShape(rng, 2+rng.IntN(4), ext)
		if strided.Size(shape) > 1<<13 {
			continue
		}
		in := st.ViewOpts{Permute: true, Negative: true, Gaps: rng.IntN(2) == 0, Zero: true}
		dst := st.RandView[float64](rng, shape, st.ViewOpts{Negative: true})
		a := st.RandView[float64](rng, shape, in)
		b := st.RandView[float64](rng, shape, in)
		n++
		if takesTile(shape, dst, a, b) {
			tiled++
		}
		for _, k := range kinds {
			Binary(nil, k, shape, dst, a, b)
			checkBinary(t, fmt.Sprintf("Binary %v shape %v a %v b %v", k, shape, a.Strides, b.Strides), k, shape, dst, a, b)
		}
	}
	if tiled < n/4 {
		t.Fatalf("tiled path taken in %d of %d cases, want at least a quarter", tiled, n)
	}
}

func TestTiledAllocs(t *testing.T) {
	r := st.Parallel(t, 2, &ParallelBytes, 1024)
	shape := []int{16, 16, 8, 8}
	d := strided.Ref[complex128]{Data: make([]complex128, strided.Size(shape)), Strides: []int{1, 16, 256, 2048}}
	a := strided.Ref[complex128]{Data: make([]complex128, 16*16*8), Strides: []int{16, 1, 0, 256}}
	b := strided.Ref[complex128]{Data: make([]complex128, 64), Strides: []int{0, 0, 1, 8}}
	if !takesTile(shape, d, a, b) {
		t.Fatal("layout does not take the tiled path")
	}
	for _, run := range []par.Runner{nil, r} {
		for _, k := range binaryKinds[complex128](t) {
			if n := testing.AllocsPerRun(20, func() { Binary(run, k, shape, d, a, b) }); n != 0 {
				t.Errorf("Binary tiled %v (runner %v): %v allocations, want 0", k, run != nil, n)
			}
		}
	}
}

func TestSplitDim(t *testing.T) {
	for _, c := range []struct {
		shape, dst []int
		w, want    int
	}{
		{[]int{256, 64, 64}, []int{1, 256, 16384}, 2, 2}, // outermost
		{[]int{256, 64, 3}, []int{1, 256, 16384}, 2, 1},  // 3 splits unevenly in 2
		{[]int{256, 64, 3}, []int{1, 256, 16384}, 3, 2},  // 3 splits evenly in 3
		{[]int{100000, 3}, []int{1, 100000}, 2, 0},       // no outer candidate: largest
		{[]int{16, 16, 64}, []int{1, 16, 256}, 8, 2},     // multiple of w
		{[]int{16, 9}, []int{1, 16}, 8, 0},               // 9 < 4w and not a multiple
		{[]int{5, 7}, []int{1, 5}, 1, 1},                 // serial: any outer extent
	} {
		var l strided.Layout
		l.Init(c.shape)
		l.Add(0, c.dst)
		if got := splitDim(&l, c.w); got != c.want {
			t.Errorf("shape %v w %d: split %d, want %d", c.shape, c.w, got, c.want)
		}
	}
}
