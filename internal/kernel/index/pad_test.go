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

var modes = []Mode{Constant, Edge, Reflect, Symmetric, Wrap}

// refMap maps offset u from the first source element to a source
// coordinate in [0, s) by the definition of the mode, one mirror or one
// period at a time; -1 for Constant outside the source.
func refMap(mode Mode, u, s int) int {
	for u < 0 || u >= s {
		switch mode {
		case Constant:
			return -1
		case Edge:
			return min(max(u, 0), s-1)
		case Reflect: // mirror about 0 and about s-1
			if s == 1 {
				return 0
			}
			if u < 0 {
				u = -u
			} else {
				u = 2*(s-1) - u
			}
		case Symmetric: // mirror about -1/2 and about s-1/2
			if u < 0 {
				u = -u - 1
			} else {
				u = 2*s - 1 - u
			}
		case Wrap:
			if u < 0 {
				u += s
			} else {
				u -= s
			}
		}
	}
	return u
}

// padCase draws a source shape, pads and the destination shape; long pads
// (several periods) on some axes. Extents 0 only for Constant.
func padCase(rng *rand.Rand, mode Mode) (shape, srcShape, before []int) {
	srcShape = randShape(rng, 0, 4)
	shape = make([]int, len(srcShape))
	before = make([]int, len(srcShape))
	for d, s := range srcShape {
		if s == 0 && mode != Constant {
			srcShape[d] = 1 + rng.IntN(3)
			s = srcShape[d]
		}
		lim := 3
		if rng.IntN(3) == 0 {
			lim = 3*s + 4
		}
		b, a := rng.IntN(lim), rng.IntN(lim)
		if rng.IntN(4) == 0 {
			b, a = 0, 0
		}
		before[d], shape[d] = b, b+s+a
	}
	for strided.Size(shape) > 1<<14 {
		d := rng.IntN(len(shape))
		shape[d] = srcShape[d] + before[d]
		before[d] = 0
	}
	return shape, srcShape, before
}

func checkPad[T strided.Elem](t *testing.T, r par.Runner) {
	rng := rand.New(rand.NewPCG(9, uint64(strided.Kind[T]())))
	v := conv[T](0.625)
	for c := range 120 {
		for _, mode := range modes {
			shape, srcShape, before := padCase(rng, mode)
			src := view[T](rng, srcShape, srcOpts(c%4))
			dst := view[T](rng, shape, dstOpts(c%4))
			Pad(r, mode, shape, dst, srcShape, src, before, v)
			j := make([]int, len(shape))
			checkView(t, name(r, "Pad %v shape %v src %v before %v", mode, shape, srcShape, before), dst, shape, func(i []int) T {
				for d := range i {
					if j[d] = refMap(mode, i[d]-before[d], srcShape[d]); j[d] < 0 {
						return v
					}
				}
				return src.Data[at(src, j)]
			})
		}
	}
}

func TestPad(t *testing.T) {
	for _, r := range runners(t) {
		checkPad[float32](t, r)
		checkPad[float64](t, r)
		checkPad[complex64](t, r)
		checkPad[complex128](t, r)
		checkPad[int64](t, r)
		checkPad[bool](t, r)
	}
}

// TestPadExamples pins the one-dimensional patterns of NumPy's
// documentation and long pads on both sides.
func TestPadExamples(t *testing.T) {
	src := []float64{1, 2, 3, 4, 5}
	for _, c := range []struct {
		mode          Mode
		before, after int
		want          []float64
	}{
		{Constant, 2, 3, []float64{9, 9, 1, 2, 3, 4, 5, 9, 9, 9}},
		{Edge, 2, 3, []float64{1, 1, 1, 2, 3, 4, 5, 5, 5, 5}},
		{Reflect, 2, 3, []float64{3, 2, 1, 2, 3, 4, 5, 4, 3, 2}},
		{Symmetric, 2, 3, []float64{2, 1, 1, 2, 3, 4, 5, 5, 4, 3}},
		{Wrap, 2, 3, []float64{4, 5, 1, 2, 3, 4, 5, 1, 2, 3}},
		{Reflect, 9, 10, []float64{2, 1, 2, 3, 4, 5, 4, 3, 2, 1, 2, 3, 4, 5, 4, 3, 2, 1, 2, 3, 4, 5, 4, 3}},
		{Symmetric, 6, 7, []float64{5, 5, 4, 3, 2, 1, 1, 2, 3, 4, 5, 5, 4, 3, 2, 1, 1, 2}},
		{Wrap, 7, 8, []float64{4, 5, 1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 1, 2, 3}},
	} {
		n := c.before + 5 + c.after
		dst := make([]float64, n)
		for _, r := range runners(t) {
			Pad(r, c.mode, []int{n}, compact([]int{n}, dst), []int{5}, compact([]int{5}, src), []int{c.before}, 9)
			if !slices.Equal(dst, c.want) {
				t.Errorf("width %d: Pad %v (%d, %d) = %v, want %v", par.Width(r), c.mode, c.before, c.after, dst, c.want)
			}
		}
	}
}

func TestPadPanics(t *testing.T) {
	src := strided.Ref[float64]{Strides: []int{1}}
	dst := compact([]int{3}, make([]float64, 3))
	for _, mode := range modes[1:] {
		mustPanic(t, "Pad "+mode.String()+" of an empty axis", "cannot extend an empty axis", func() { Pad(nil, mode, []int{3}, dst, []int{0}, src, []int{1}, 0) })
	}
	Pad(nil, Constant, []int{3}, dst, []int{0}, src, []int{1}, 4)
	if !slices.Equal(dst.Data, []float64{4, 4, 4}) {
		t.Errorf("Constant pad of an empty source = %v, want [4 4 4]", dst.Data)
	}
	// A destination extent 1 around an empty source axis.
	d2 := compact([]int{1, 3}, make([]float64, 3))
	Pad(nil, Constant, []int{1, 3}, d2, []int{0, 3}, strided.Ref[float64]{Strides: []int{1, 0}}, []int{1, 0}, 2)
	if !slices.Equal(d2.Data, []float64{2, 2, 2}) {
		t.Errorf("Constant pad of a (0, 3) source into (1, 3) = %v, want [2 2 2]", d2.Data)
	}
	if Mode(9).String() != "Mode(?)" || Wrap.String() != "Wrap" {
		t.Errorf("Mode strings %q %q", Mode(9).String(), Wrap.String())
	}
}

func checkRoll[T strided.Elem](t *testing.T, r par.Runner) {
	rng := rand.New(rand.NewPCG(10, uint64(strided.Kind[T]())))
	for c := range 150 {
		shape := randShape(rng, 0, 4)
		shifts := make([]int, len(shape))
		for d := range shifts {
			shifts[d] = rng.IntN(41) - 20
		}
		if c == 0 && len(shifts) > 0 {
			shifts[0] = math.MinInt
		}
		src := view[T](rng, shape, srcOpts(c%4))
		dst := view[T](rng, shape, dstOpts(c%4))
		Roll(r, shape, dst, src, shifts)
		j := make([]int, len(shape))
		checkView(t, name(r, "Roll shape %v shifts %v", shape, shifts), dst, shape, func(i []int) T {
			for d := range i {
				// (i - shift) mod n without overflow for any shift.
				j[d] = int((int64(i[d]) - int64(shifts[d]%shape[d]) + 2*int64(shape[d])) % int64(shape[d]))
			}
			return src.Data[at(src, j)]
		})
	}
}

func TestRoll(t *testing.T) {
	for _, r := range runners(t) {
		checkRoll[float32](t, r)
		checkRoll[float64](t, r)
		checkRoll[complex64](t, r)
		checkRoll[complex128](t, r)
		checkRoll[int64](t, r)
		checkRoll[bool](t, r)
	}
}

func TestPadAllocs(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 11))
	srcShape := []int{30, 7, 5}
	shape := []int{41, 12, 5}
	before := []int{4, 3, 0}
	src := view[float64](rng, srcShape, st.ViewOpts{Permute: true})
	dst := view[float64](rng, shape, st.ViewOpts{Permute: true})
	rs := view[float64](rng, srcShape, st.ViewOpts{})
	shifts := []int{3, -2, 9}
	for _, r := range runners(t) {
		for _, mode := range modes {
			fn := func() { Pad(r, mode, shape, dst, srcShape, src, before, 1) }
			fn()
			if n := testing.AllocsPerRun(20, fn); n != 0 {
				t.Errorf("Pad %v on width %d: %v allocations per call, want 0", mode, par.Width(r), n)
			}
		}
		fn := func() { Roll(r, srcShape, rs, src, shifts) }
		fn()
		if n := testing.AllocsPerRun(20, fn); n != 0 {
			t.Errorf("Roll on width %d: %v allocations per call, want 0", par.Width(r), n)
		}
	}
}
