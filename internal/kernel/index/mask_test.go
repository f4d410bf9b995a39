package index

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tenferro-go/tenferro/internal/kernel/strided"
	st "github.com/tenferro-go/tenferro/internal/kernel/strided/stridedtest"
	"github.com/tenferro-go/tenferro/internal/par"
)

// randMask returns a mask view of shape whose addressed elements are true
// with probability p.
func randMask(rng *rand.Rand, shape []int, o st.ViewOpts, p float64) strided.Ref[bool] {
	m := view[bool](rng, shape, o)
	st.ForEach(shape, func(i []int) { m.Data[at(m, i)] = rng.Float64() < p })
	return m
}

func checkMaskedSelect[T strided.Elem](t *testing.T, r par.Runner) {
	rng := rand.New(rand.NewPCG(6, uint64(strided.Kind[T]())))
	for c := range 150 {
		shape := randShape(rng, 0, 4)
		if c < 3 {
			shape = [][]int{{}, {1, 1}, {0, 4}}[c]
		}
		src := view[T](rng, shape, srcOpts(c%4))
		mask := randMask(rng, shape, srcOpts((c+1)%4), []float64{0, 0.3, 0.9, 1}[c%4])
		var want []T
		st.ForEach(shape, func(i []int) {
			if mask.Data[at(mask, i)] {
				want = append(want, src.Data[at(src, i)])
			}
		})
		if n := CountTrue(r, shape, mask); n != len(want) {
			t.Errorf("%s: CountTrue = %d, want %d", name(r, "shape %v", shape), n, len(want))
		}
		s := sentinel[T]()
		dst := make([]T, len(want)+3)
		for i := range dst {
			dst[i] = s
		}
		n := MaskedSelect(r, shape, dst, src, mask)
		if n != len(want) || !slices.Equal(dst[:n], want) {
			t.Errorf("%s: MaskedSelect = %d %v, want %d %v", name(r, "%T shape %v", s, shape), n, dst[:n], len(want), want)
		}
		for i := len(want); i < len(dst); i++ {
			if dst[i] != s {
				t.Errorf("%s: dst[%d] past the selection was overwritten", name(r, "shape %v", shape), i)
			}
		}
	}
}

func TestMaskedSelect(t *testing.T) {
	for _, r := range runners(t) {
		checkMaskedSelect[float32](t, r)
		checkMaskedSelect[float64](t, r)
		checkMaskedSelect[complex64](t, r)
		checkMaskedSelect[complex128](t, r)
		checkMaskedSelect[int64](t, r)
		checkMaskedSelect[bool](t, r)
	}
}

// TestMaskedSelectOrder pins the column-major order on a matrix: column by
// column.
func TestMaskedSelectOrder(t *testing.T) {
	// a = [1 3 5; 2 4 6] (2x3 column-major), mask true off the (0,0) and
	// (1,2) elements.
	a := compact([]int{2, 3}, []float64{1, 2, 3, 4, 5, 6})
	m := compact([]int{2, 3}, []bool{false, true, true, true, true, false})
	dst := make([]float64, 4)
	for _, r := range runners(t) {
		if n := MaskedSelect(r, []int{2, 3}, dst, a, m); n != 4 || !slices.Equal(dst, []float64{2, 3, 4, 5}) {
			t.Errorf("width %d: %d %v, want 4 [2 3 4 5]", par.Width(r), n, dst)
		}
	}
	// The transposed view of a (3x2, strides 2, 1) lists rows of a.
	tr := strided.Ref[float64]{Data: a.Data, Strides: []int{2, 1}}
	all := compact([]int{3, 2}, []bool{true, true, true, true, true, true})
	got := make([]float64, 6)
	MaskedSelect(nil, []int{3, 2}, got, tr, all)
	if !slices.Equal(got, []float64{1, 3, 5, 2, 4, 6}) {
		t.Errorf("transposed view: %v, want [1 3 5 2 4 6]", got)
	}
}

// TestMaskedSelectLarge splits long masks across workers.
func TestMaskedSelectLarge(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	r := st.Parallel(t, 4, &ParallelBytes, 256)
	shape := []int{37, 29, 11}
	src := view[float64](rng, shape, st.ViewOpts{Permute: true, Negative: true})
	mask := randMask(rng, shape, st.ViewOpts{}, 0.4)
	var want []float64
	st.ForEach(shape, func(i []int) {
		if mask.Data[at(mask, i)] {
			want = append(want, src.Data[at(src, i)])
		}
	})
	dst := make([]float64, len(want))
	if n := MaskedSelect(r, shape, dst, src, mask); n != len(want) || !slices.Equal(dst, want) {
		t.Fatalf("MaskedSelect = %d elements, want %d (or values differ)", n, len(want))
	}
	if n := CountTrue(r, shape, mask); n != len(want) {
		t.Fatalf("CountTrue = %d, want %d", n, len(want))
	}
	short := make([]float64, len(want)-1)
	mustPanic(t, "MaskedSelect into a short dst", "out of range", func() { MaskedSelect(nil, shape, short, src, mask) })
	mustPanic(t, "split MaskedSelect into a short dst", "index.MaskedSelect: dst is shorter", func() { MaskedSelect(r, shape, short, src, mask) })
}

func TestMaskAllocs(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	shape := []int{40, 9, 3}
	src := view[complex128](rng, shape, st.ViewOpts{Permute: true})
	mask := randMask(rng, shape, st.ViewOpts{}, 0.5)
	dst := make([]complex128, strided.Size(shape))
	for _, r := range runners(t) {
		fn := func() { MaskedSelect(r, shape, dst, src, mask) }
		fn()
		if n := testing.AllocsPerRun(20, fn); n != 0 {
			t.Errorf("MaskedSelect on width %d: %v allocations per call, want 0", par.Width(r), n)
		}
		fn = func() { CountTrue(r, shape, mask) }
		if n := testing.AllocsPerRun(20, fn); n != 0 {
			t.Errorf("CountTrue on width %d: %v allocations per call, want 0", par.Width(r), n)
		}
	}
}
