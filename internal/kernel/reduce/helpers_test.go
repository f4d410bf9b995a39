package reduce

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tenferro-go/tenferro/internal/kernel/strided"
	st "github.com/tenferro-go/tenferro/internal/kernel/strided/stridedtest"
	"github.com/tenferro-go/tenferro/internal/par"
)

// redCase is one reduction to test: an iteration space, the reduced axes
// and the kinds of input strides.
type redCase struct {
	shape []int
	red   []bool
	in    st.ViewOpts
}

// redCases returns fixed awkward shapes and random ones of rank 1 to 5
// (at most limit elements), each with every subset of its axes reduced and
// input views that cycle through permuted, reversed, padded and broadcast
// strides. Short and race-detector runs get fewer and smaller shapes.
func redCases(rng *rand.Rand, limit int) []redCase {
	shapes := [][]int{{}, {0}, {1}, {7}, {1000}, {3, 0}, {0, 3}, {64, 64}, {67, 5}, {5, 67}, {300, 2, 3}, {2, 300, 3}, {1, 1, 5, 1}}
	count := 12
	if testing.Short() || raceEnabled {
		count, limit = 6, min(limit, 1<<10)
	}
	for len(shapes) < 13+count {
		s := st.RandShape(rng, 1+rng.IntN(5), extents)
		if strided.Size(s) <= limit {
			shapes = append(shapes, s)
		}
	}
	var cases []redCase
	for _, s := range shapes {
		for mask := 0; mask < 1<<len(s); mask++ {
			red := make([]bool, len(s))
			for d := range red {
				red[d] = mask>>d&1 == 1
			}
			k := len(cases) % 4
			in := st.ViewOpts{Permute: k > 0, Negative: k > 1, Gaps: k > 1, Zero: k == 3}
			cases = append(cases, redCase{s, red, in})
		}
	}
	return cases
}

// keptShape returns shape with the reduced axes set to extent 1.
func keptShape(shape []int, red []bool) []int {
	ks := slices.Clone(shape)
	for d := range ks {
		if red[d] {
			ks[d] = 1
		}
	}
	return ks
}

func offset(off int, strides, idx []int) int {
	for d, i := range idx {
		off += i * strides[d]
	}
	return off
}

// fibre is one kept index point of a reduction: its destination offset,
// its multi-index (0 along the reduced axes) and the source offsets of its
// reduced set in column-major order.
type fibre struct {
	dst  int
	kept []int
	src  []int
}

// fibres lists the kept points of shape for a destination view (dOff,
// dStr) and a source view (sOff, sStr).
func fibres(shape []int, red []bool, dOff int, dStr []int, sOff int, sStr []int) []fibre {
	var out []fibre
	pos := map[int]int{}
	st.ForEach(keptShape(shape, red), func(idx []int) {
		o := offset(dOff, dStr, idx)
		pos[o] = len(out)
		out = append(out, fibre{dst: o, kept: slices.Clone(idx)})
	})
	st.ForEach(shape, func(idx []int) {
		f := &out[pos[offset(dOff, dStr, idx)]]
		f.src = append(f.src, offset(sOff, sStr, idx))
	})
	return out
}

// reducedEmpty reports whether some reduced axis has extent 0 while no
// kept one does: an empty reduced set with points to write.
func reducedEmpty(shape []int, red []bool) bool {
	empty := false
	for d, e := range shape {
		if e == 0 {
			if !red[d] {
				return false
			}
			empty = true
		}
	}
	return empty
}

// viewLike returns a view with v's offset and strides over a fresh buffer
// of v's length filled with fill.
func viewLike[D strided.Elem, T strided.Scalar](v strided.Ref[T], fill D) strided.Ref[D] {
	d := make([]D, len(v.Data))
	for i := range d {
		d[i] = fill
	}
	return strided.Ref[D]{Data: d, Off: v.Off, Strides: v.Strides}
}

// checkUntouched fails unless every element of data outside the offsets
// of fs holds fill.
func checkUntouched[D comparable](t *testing.T, what string, data []D, fs []fibre, fill D) {
	t.Helper()
	hit := make([]bool, len(data))
	for _, f := range fs {
		hit[f.dst] = true
	}
	for i, v := range data {
		if !hit[i] && v != fill {
			t.Fatalf("%s: element %d outside the view overwritten with %v", what, i, v)
		}
	}
}

// mapView replaces every addressed element x of v by fn(x).
func mapView[T strided.Scalar](v strided.Ref[T], shape []int, fn func(T) T) {
	seen := map[int]bool{}
	st.ForEach(shape, func(idx []int) {
		if o := st.At(v, idx); !seen[o] {
			seen[o] = true
			v.Data[o] = fn(v.Data[o])
		}
	})
}

// sprinkle sets each addressed element of v to one of vals with
// probability p.
func sprinkle[T strided.Scalar](rng *rand.Rand, v strided.Ref[T], shape []int, p float64, vals ...T) {
	st.ForEach(shape, func(idx []int) {
		if rng.Float64() < p {
			v.Data[st.At(v, idx)] = vals[rng.IntN(len(vals))]
		}
	})
}

// near reports whether got matches want: part by part, NaN for NaN and the
// same infinity for an infinity, and within tol elsewhere.
func near(got, want complex128, tol float64) bool {
	finite := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
	if finite(real(want)) && finite(imag(want)) {
		return st.Close(got, want, tol)
	}
	part := func(g, w float64) bool {
		switch {
		case math.IsNaN(w):
			return math.IsNaN(g)
		case math.IsInf(w, 0):
			return g == w
		}
		return g == w || math.Abs(g-w) <= tol
	}
	return part(real(got), real(want)) && part(imag(got), imag(want))
}

func nan[T strided.Scalar]() T      { return st.From[T](complex(math.NaN(), 0)) }
func inf[T strided.Scalar](s int) T { return st.From[T](complex(math.Inf(s), 0)) }

// runners returns the serial runner and a parallel one that fans out on
// small cases.
func runners(t *testing.T) []par.Runner {
	return []par.Runner{nil, st.Parallel(t, 3, &ParallelBytes, 64)}
}

// mustPanic fails unless fn panics.
func mustPanic(t *testing.T, what string, fn func()) {
	t.Helper()
	defer func() {
		if recover() == nil {
			t.Errorf("%s: no panic", what)
		}
	}()
	fn()
}
