package index

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tenferro-go/tenferro/internal/kernel/strided"
	st "github.com/tenferro-go/tenferro/internal/kernel/strided/stridedtest"
	"github.com/tenferro-go/tenferro/internal/par"
)

// randIdx returns n indices in [0, ext) with repeats.
func randIdx(rng *rand.Rand, n, ext int) []int64 {
	idx := make([]int64, n)
	for i := range idx {
		idx[i] = int64(rng.IntN(ext))
	}
	return idx
}

// axisCase draws a shape (of dst or index), an axis and the extent of the
// indexed operand along it (at least 1 unless the shape is empty).
func axisCase(rng *rand.Rand) (shape []int, axis, ext int) {
	shape = randShape(rng, 1, 4)
	axis = rng.IntN(len(shape))
	ext = extents[rng.IntN(len(extents))]
	if ext == 0 && !empty(shape) {
		ext = 1 + rng.IntN(3)
	}
	return shape, axis, ext
}

// with returns a copy of shape with extent e along axis.
func with(shape []int, axis, e int) []int {
	s := slices.Clone(shape)
	s[axis] = e
	return s
}

func checkTake[T strided.Elem](t *testing.T, r par.Runner) {
	rng := rand.New(rand.NewPCG(1, uint64(strided.Kind[T]())))
	for c := range 150 {
		shape, axis, ext := axisCase(rng)
		if ext == 0 {
			shape[axis] = 0
		}
		idx := randIdx(rng, shape[axis], max(ext, 1))
		sshape := with(shape, axis, ext)
		src := view[T](rng, sshape, srcOpts(c%4))
		dst := view[T](rng, shape, dstOpts(c%4))
		Take(r, shape, axis, dst, src, idx, ext)
		checkView(t, name(r, "Take shape %v axis %d idx %v", shape, axis, idx), dst, shape, func(i []int) T {
			j := slices.Clone(i)
			j[axis] = int(idx[i[axis]])
			return src.Data[at(src, j)]
		})
	}
}

func TestTake(t *testing.T) {
	for _, r := range runners(t) {
		checkTake[float32](t, r)
		checkTake[float64](t, r)
		checkTake[complex64](t, r)
		checkTake[complex128](t, r)
		checkTake[int64](t, r)
		checkTake[bool](t, r)
	}
}

// TestTakeLong covers rows longer than a row block along and across the
// taken axis, serially and split.
func TestTakeLong(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	for _, r := range runners(t) {
		for _, c := range []struct {
			shape []int
			axis  int
		}{{[]int{301, 7}, 0}, {[]int{301, 7}, 1}, {[]int{2, 3, 257}, 2}, {[]int{5, 130, 3}, 1}, {[]int{1, 1, 40}, 2}} {
			ext := 11
			idx := randIdx(rng, c.shape[c.axis], ext)
			src := view[float64](rng, with(c.shape, c.axis, ext), st.ViewOpts{})
			dst := view[float64](rng, c.shape, st.ViewOpts{})
			Take(r, c.shape, c.axis, dst, src, idx, ext)
			checkView(t, name(r, "Take %v axis %d", c.shape, c.axis), dst, c.shape, func(i []int) float64 {
				j := slices.Clone(i)
				j[c.axis] = int(idx[i[c.axis]])
				return src.Data[at(src, j)]
			})
		}
	}
}

// setIndex sets every element of index over shape to a random value in
// [0, ext).
func setIndex(rng *rand.Rand, index strided.Ref[int64], shape []int, ext int) {
	st.ForEach(shape, func(i []int) { index.Data[at(index, i)] = int64(rng.IntN(ext)) })
}

func checkGather[T strided.Elem](t *testing.T, r par.Runner) {
	rng := rand.New(rand.NewPCG(3, uint64(strided.Kind[T]())))
	for c := range 150 {
		shape, axis, ext := axisCase(rng)
		src := view[T](rng, with(shape, axis, ext), srcOpts(c%4))
		index := view[int64](rng, shape, srcOpts((c+1)%4))
		setIndex(rng, index, shape, max(ext, 1))
		dst := view[T](rng, shape, dstOpts(c%4))
		Gather(r, shape, axis, dst, src, index, ext)
		checkView(t, name(r, "Gather shape %v axis %d", shape, axis), dst, shape, func(i []int) T {
			j := slices.Clone(i)
			j[axis] = int(index.Data[at(index, i)])
			return src.Data[at(src, j)]
		})
	}
}

func TestGather(t *testing.T) {
	for _, r := range runners(t) {
		checkGather[float32](t, r)
		checkGather[float64](t, r)
		checkGather[complex64](t, r)
		checkGather[complex128](t, r)
		checkGather[int64](t, r)
		checkGather[bool](t, r)
	}
}

func checkScatterAdd[T Number](t *testing.T, r par.Runner) {
	rng := rand.New(rand.NewPCG(4, uint64(strided.Kind[T]())))
	for c := range 150 {
		shape, axis, ext := axisCase(rng)
		if c%3 == 0 && ext > 2 {
			ext = 2 // many repeated indices
		}
		dshape := with(shape, axis, ext)
		src := view[T](rng, shape, srcOpts(c%4))
		index := view[int64](rng, shape, srcOpts((c+2)%4))
		setIndex(rng, index, shape, max(ext, 1))
		dst := view[T](rng, dshape, dstOpts(c%4))
		// The reference adds in column-major order, which visits the
		// contributions to each element in increasing axis order, the
		// order ScatterAdd documents: the sums agree exactly.
		want := slices.Clone(dst.Data)
		st.ForEach(shape, func(i []int) {
			j := slices.Clone(i)
			j[axis] = int(index.Data[at(index, i)])
			want[at(dst, j)] += src.Data[at(src, i)]
		})
		ScatterAdd(r, shape, axis, dst, index, src, ext)
		checkView(t, name(r, "ScatterAdd shape %v axis %d ext %d", shape, axis, ext), dst, dshape, func(i []int) T {
			return want[at(dst, i)]
		})
	}
}

func TestScatterAdd(t *testing.T) {
	for _, r := range runners(t) {
		checkScatterAdd[float32](t, r)
		checkScatterAdd[float64](t, r)
		checkScatterAdd[complex64](t, r)
		checkScatterAdd[complex128](t, r)
		checkScatterAdd[int64](t, r)
	}
}

// TestScatterAddRepeated sums many contributions into few elements, with
// a runner splitting the other axis: every element must receive each of
// its contributions exactly once.
func TestScatterAddRepeated(t *testing.T) {
	r := st.Parallel(t, 4, &ParallelBytes, 64)
	shape := []int{200, 37} // axis 0: 200 contributions per column into 3 rows
	index := compact(shape, make([]int64, 200*37))
	src := compact(shape, make([]int64, 200*37))
	for i := range index.Data {
		index.Data[i] = int64(i % 200 % 3)
		src.Data[i] = int64(i)
	}
	dst := compact([]int{3, 37}, make([]int64, 3*37))
	ScatterAdd(r, shape, 0, dst, index, src, 3)
	for j := range 37 {
		for k := range 3 {
			var want int64
			for i := k; i < 200; i += 3 {
				want += int64(i + 200*j)
			}
			if g := dst.Data[k+3*j]; g != want {
				t.Fatalf("dst[%d,%d] = %d, want %d", k, j, g, want)
			}
		}
	}
	// Broadcast index along the axis: every contribution to one place.
	dst1 := compact([]int{3, 37}, make([]int64, 3*37))
	bidx := strided.Ref[int64]{Data: []int64{2}, Strides: []int{0, 0}}
	ScatterAdd(r, shape, 0, dst1, bidx, src, 3)
	for j := range 37 {
		var want int64
		for i := range 200 {
			want += int64(i + 200*j)
		}
		if dst1.Data[2+3*j] != want || dst1.Data[3*j] != 0 || dst1.Data[1+3*j] != 0 {
			t.Fatalf("column %d: %v, want [0 0 %d]", j, dst1.Data[3*j:3*j+3], want)
		}
	}
}

func TestIndexPanics(t *testing.T) {
	src := compact([]int{3, 2}, []float64{1, 2, 3, 4, 5, 6})
	dst := compact([]int{2, 2}, []float64{-1, -1, -1, -1})
	mustPanic(t, "Take with index 3 of 3", "index.Take: index 3 out of range [0, 3)", func() { Take(nil, []int{2, 2}, 0, dst, src, []int64{0, 3}, 3) })
	if !slices.Equal(dst.Data, []float64{-1, -1, -1, -1}) {
		t.Errorf("Take wrote %v before panicking", dst.Data)
	}
	mustPanic(t, "Take with index -1", "index.Take: index -1 out of range", func() { Take(nil, []int{2, 2}, 0, dst, src, []int64{-1, 0}, 3) })
	mustPanic(t, "Take with 3 indices for extent 2", "len(idx) differs", func() { Take(nil, []int{2, 2}, 0, dst, src, []int64{0, 1, 2}, 3) })
	bad := compact([]int{2, 2}, []int64{0, 1, 2, 3})
	mustPanic(t, "Gather with index 3 of 3", "index.Gather: index 3 out of range [0, 3)", func() { Gather(nil, []int{2, 2}, 0, dst, src, bad, 3) })
	mustPanic(t, "Gather rank 0 with index 3 of 3", "index.Gather: index 3", func() {
		Gather(nil, []int{1, 1}, 0, dst, src, strided.Ref[int64]{Data: []int64{3}, Strides: []int{0, 0}}, 3)
	})
	mustPanic(t, "ScatterAdd with index 3 of 3", "index.ScatterAdd: index 3 out of range [0, 3)", func() { ScatterAdd(nil, []int{2, 2}, 0, src, bad, dst, 3) })
	mustPanic(t, "ScatterAdd with index -1", "index.ScatterAdd: index -1", func() {
		ScatterAdd(nil, []int{2, 2}, 1, src, compact([]int{2, 2}, []int64{0, 1, -1, 0}), dst, 2)
	})
	mustPanic(t, "Take of rank 33", "more than strided.MaxRank", func() {
		shape := make([]int, 33)
		for i := range shape {
			shape[i] = 2
		}
		s := make([]int, 33)
		Take(nil, shape, 0, strided.Ref[float64]{Data: []float64{0}, Strides: s}, strided.Ref[float64]{Data: []float64{0}, Strides: s}, []int64{0, 0}, 1)
	})
}

func TestAxisAllocs(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	shape := []int{60, 7, 5}
	src := view[float64](rng, with(shape, 1, 4), st.ViewOpts{Permute: true})
	dst := view[float64](rng, shape, st.ViewOpts{Permute: true})
	index := view[int64](rng, shape, st.ViewOpts{})
	setIndex(rng, index, shape, 4)
	idx := randIdx(rng, 7, 4)
	for _, r := range runners(t) {
		for what, fn := range map[string]func(){
			"Take":       func() { Take(r, shape, 1, dst, src, idx, 4) },
			"Gather":     func() { Gather(r, shape, 1, dst, src, index, 4) },
			"ScatterAdd": func() { ScatterAdd(r, shape, 1, src, index, dst, 4) },
		} {
			fn()
			if n := testing.AllocsPerRun(20, fn); n != 0 {
				t.Errorf("%s on width %d: %v allocations per call, want 0", what, par.Width(r), n)
			}
		}
	}
}
