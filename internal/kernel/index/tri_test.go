package index

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tenferro-go/tenferro/internal/kernel/strided"
	st "github.com/tenferro-go/tenferro/internal/kernel/strided/stridedtest"
	"github.com/tenferro-go/tenferro/internal/par"
)

// triKeep reports whether Tri keeps element (i, j).
func triKeep(i, j, k int, upper bool) bool {
	if upper {
		return j-i >= k
	}
	return j-i <= k
}

func checkTri[T strided.Elem](t *testing.T, r par.Runner) {
	rng := rand.New(rand.NewPCG(12, uint64(strided.Kind[T]())))
	var zero T
	for c := range 200 {
		shape := randShape(rng, 2, 4)
		k := rng.IntN(17) - 8
		switch c % 10 {
		case 0:
			k = math.MaxInt
		case 1:
			k = math.MinInt
		}
		upper := c%2 == 0
		src := view[T](rng, shape, srcOpts(c%4))
		want := func(i []int) T {
			if triKeep(i[0], i[1], k, upper) {
				return src.Data[at(src, i)]
			}
			return zero
		}
		dst := view[T](rng, shape, dstOpts(c%4))
		Tri(r, shape, dst, src, k, upper)
		checkView(t, name(r, "Tri shape %v k %d upper %v", shape, k, upper), dst, shape, want)

		// In place, on a destination-like view of the same values.
		v := view[T](rng, shape, dstOpts((c+1)%4))
		orig := slices.Clone(v.Data)
		Tri(r, shape, v, v, k, upper)
		checkView(t, name(r, "Tri in place shape %v k %d upper %v", shape, k, upper), v, shape, func(i []int) T {
			if triKeep(i[0], i[1], k, upper) {
				return orig[at(v, i)]
			}
			return zero
		})
	}
}

func TestTri(t *testing.T) {
	for _, r := range runners(t) {
		checkTri[float32](t, r)
		checkTri[float64](t, r)
		checkTri[complex64](t, r)
		checkTri[complex128](t, r)
		checkTri[int64](t, r)
		checkTri[bool](t, r)
	}
}

// TestTriLayouts walks rows along each matrix axis and along a batch axis:
// column-major, row-major and batch-fastest matrices.
func TestTriLayouts(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 13))
	shape := []int{19, 23, 3}
	for _, strides := range [][]int{{1, 19, 19 * 23}, {23, 1, 19 * 23}, {3, 57, 1}, {-1, 19, 19 * 23}} {
		for _, r := range runners(t) {
			for k := -20; k <= 24; k += 4 {
				for _, upper := range []bool{false, true} {
					f := st.RandView[float64](rng, shape, st.ViewOpts{})
					off := 0
					if strides[0] < 0 {
						off = 18
					}
					dst := strided.Ref[float64]{Data: make([]float64, len(f.Data)+18), Off: off, Strides: strides}
					Tri(r, shape, dst, f, k, upper)
					st.ForEach(shape, func(i []int) {
						want := 0.0
						if triKeep(i[0], i[1], k, upper) {
							want = f.Data[at(f, i)]
						}
						if g := dst.Data[at(dst, i)]; g != want {
							t.Fatalf("strides %v k %d upper %v: dst%v = %v, want %v", strides, k, upper, i, g, want)
						}
					})
				}
			}
		}
	}
	mustPanic(t, "Tri of a vector", "fewer than two axes", func() {
		Tri(nil, []int{3}, compact([]int{3}, make([]float64, 3)), compact([]int{3}, make([]float64, 3)), 0, false)
	})
}

func TestTriAllocs(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 14))
	shape := []int{30, 30, 4}
	src := view[float64](rng, shape, st.ViewOpts{})
	dst := view[float64](rng, shape, st.ViewOpts{Permute: true})
	for _, r := range runners(t) {
		fn := func() { Tri(r, shape, dst, src, 1, true) }
		fn()
		if n := testing.AllocsPerRun(20, fn); n != 0 {
			t.Errorf("Tri on width %d: %v allocations per call, want 0", par.Width(r), n)
		}
	}
}
