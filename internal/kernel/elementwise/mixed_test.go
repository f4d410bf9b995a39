package elementwise

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tenferro-go/tenferro/internal/kernel/strided"
	st "github.com/tenferro-go/tenferro/internal/kernel/strided/stridedtest"
	"github.com/tenferro-go/tenferro/internal/op"
	"github.com/tenferro-go/tenferro/internal/par"
)

// boolView returns a bool view with the layout of a random view of shape
// (same options as stridedtest.RandView) over fresh data whose addressed
// elements are random and whose others are true, the guard value
// checkBoolGuards looks for.
func boolView(rng *rand.Rand, shape []int, o st.ViewOpts) strided.Ref[bool] {
	f := st.RandView[float64](rng, shape, o)
	b := strided.Ref[bool]{Data: make([]bool, len(f.Data)), Off: f.Off, Strides: f.Strides}
	for i := range b.Data {
		b.Data[i] = true
	}
	st.ForEach(shape, func(idx []int) { b.Data[at(b, idx)] = rng.IntN(2) == 0 })
	return b
}

func at[T strided.Elem](r strided.Ref[T], idx []int) int {
	o := r.Off
	for d, i := range idx {
		o += i * r.Strides[d]
	}
	return o
}

// checkBoolGuards fails when an element of d that the view does not
// address is no longer true.
func checkBoolGuards(t *testing.T, what string, d strided.Ref[bool], shape []int) {
	t.Helper()
	hit := make([]bool, len(d.Data))
	st.ForEach(shape, func(idx []int) { hit[at(d, idx)] = true })
	for i, v := range d.Data {
		if !hit[i] && !v {
			t.Fatalf("%s: guard %d overwritten", what, i)
		}
	}
}

// special plants NaN, ±Inf and ±0 into the addressed elements of r, so
// that predicates and comparisons meet every IEEE case.
func special[T strided.Scalar](rng *rand.Rand, r strided.Ref[T], shape []int) {
	vals := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 1}
	st.ForEach(shape, func(idx []int) {
		if rng.IntN(3) == 0 {
			v := vals[rng.IntN(len(vals))]
			w := vals[rng.IntN(len(vals))]
			r.Data[at(r, idx)] = st.From[T](complex(v, w))
		}
	})
}

func checkMixed[T strided.Scalar](t *testing.T, r par.Runner) {
	rng := rand.New(rand.NewPCG(41, uint64(strided.Kind[T]())))
	name := fmt.Sprintf("%T", *new(T))
	dt := dtypeOf[T]()
	for _, shape := range testShapes(rng) {
		in := st.ViewOpts{Permute: true, Negative: true, Gaps: true, Zero: true}
		a := st.RandView[T](rng, shape, in)
		b := st.RandView[T](rng, shape, in)
		special(rng, a, shape)
		special(rng, b, shape)
		// Ties: b equals a at some points.
		st.ForEach(shape, func(idx []int) {
			if rng.IntN(4) == 0 {
				b.Data[at(b, idx)] = a.Data[at(a, idx)]
			}
		})
		for _, k := range op.Kinds() {
			in := k.Info()
			if !dt.In(in.Accept) {
				continue
			}
			switch {
			case IsPredicate(k):
				d := boolView(rng, shape, st.All)
				Predicate(r, k, shape, d, a)
				st.ForEach(shape, func(idx []int) {
					x := st.C128(a.Data[at(a, idx)])
					if want := in.Ref(x, 0, 0, 0) != 0; d.Data[at(d, idx)] != want {
						t.Fatalf("%s %v(%v) = %v, want %v (shape %v)", name, k, x, d.Data[at(d, idx)], want, shape)
					}
				})
				checkBoolGuards(t, name+" "+k.String(), d, shape)
			case IsComparison(k):
				d := boolView(rng, shape, st.All)
				Compare(r, k, shape, d, a, b)
				st.ForEach(shape, func(idx []int) {
					x, y := st.C128(a.Data[at(a, idx)]), st.C128(b.Data[at(b, idx)])
					if want := Ref[T](k, x, y) != 0; d.Data[at(d, idx)] != want {
						t.Fatalf("%s %v(%v, %v) = %v, want %v (shape %v)", name, k, x, y, d.Data[at(d, idx)], want, shape)
					}
				})
				checkBoolGuards(t, name+" "+k.String(), d, shape)
			}
		}
		// Where, with a broadcast mask.
		m := boolView(rng, shape, in)
		d := st.RandView[T](rng, shape, st.All)
		Select(r, shape, d, m, a, b)
		st.ForEach(shape, func(idx []int) {
			want := b.Data[at(b, idx)]
			if m.Data[at(m, idx)] {
				want = a.Data[at(a, idx)]
			}
			if got := d.Data[at(d, idx)]; got != want && !(got != got && want != want) {
				t.Fatalf("%s Where at %v: %v, want %v", name, idx, got, want)
			}
		})
		if i := st.CheckGuards(d, shape); i >= 0 {
			t.Fatalf("%s Where shape %v: guard %d overwritten", name, shape, i)
		}
	}
}

// Ref is the catalog's reference of comparison k for T (RefReal for real
// T); 1 for true.
func Ref[T strided.Scalar](k op.Kind, x, y complex128) float64 {
	in := k.Info()
	if st.IsComplex[T]() || in.RefReal == nil {
		return real(in.Ref(x, y, 0, 0))
	}
	return in.RefReal(real(x), real(y), 0, 0)
}

func TestMixed(t *testing.T) {
	for _, r := range []par.Runner{nil, st.Parallel(t, 3, &ParallelBytes, 64)} {
		checkMixed[float32](t, r)
		checkMixed[float64](t, r)
		checkMixed[complex64](t, r)
		checkMixed[complex128](t, r)
	}
}

func TestLogical(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 1))
	for _, r := range []par.Runner{nil, st.Parallel(t, 3, &ParallelBytes, 64)} {
		for _, shape := range testShapes(rng) {
			in := st.ViewOpts{Permute: true, Negative: true, Gaps: true, Zero: true}
			a, b := boolView(rng, shape, in), boolView(rng, shape, in)
			for _, k := range []op.Kind{op.LogicalNot, op.LogicalAnd, op.LogicalOr, op.LogicalXor} {
				d := boolView(rng, shape, st.All)
				Logical(r, k, shape, d, a, b)
				st.ForEach(shape, func(idx []int) {
					x, y := a.Data[at(a, idx)], b.Data[at(b, idx)]
					want := k.Info().Ref(b2c(x), b2c(y), 0, 0) != 0
					if d.Data[at(d, idx)] != want {
						t.Fatalf("%v(%v, %v) = %v, want %v", k, x, y, d.Data[at(d, idx)], want)
					}
				})
				checkBoolGuards(t, k.String(), d, shape)
			}
		}
	}
}

func b2c(b bool) complex128 {
	if b {
		return 1
	}
	return 0
}

func TestMixedPanics(t *testing.T) {
	v := strided.Ref[float64]{Data: make([]float64, 4), Strides: []int{1}}
	m := strided.Ref[bool]{Data: make([]bool, 4), Strides: []int{1}}
	c := strided.Ref[complex128]{Data: make([]complex128, 4), Strides: []int{1}}
	for name, f := range map[string]func(){
		"Predicate(Add)": func() { Predicate(nil, op.Add, []int{4}, m, v) },
		"Compare(Add)":   func() { Compare(nil, op.Add, []int{4}, m, v, v) },
		"Logical(Add)":   func() { Logical(nil, op.Add, []int{4}, m, m, m) },
		"complex Less":   func() { Compare(nil, op.Less, []int{4}, m, c, c) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

func TestMixedAllocs(t *testing.T) {
	r := st.Parallel(t, 2, &ParallelBytes, 1024)
	shape := []int{40, 50, 3}
	a := strided.Ref[float64]{Data: make([]float64, 6000), Strides: []int{150, 3, 1}}
	b := strided.Ref[float64]{Data: make([]float64, 40), Strides: []int{1, 0, 0}}
	m := strided.Ref[bool]{Data: make([]bool, 6000), Strides: []int{1, 40, 2000}}
	d := strided.Ref[float64]{Data: make([]float64, 6000), Strides: []int{1, 40, 2000}}
	for _, run := range []par.Runner{nil, r} {
		for name, f := range map[string]func(){
			"Predicate": func() { Predicate(run, op.IsNaN, shape, m, a) },
			"Compare":   func() { Compare(run, op.Less, shape, m, a, b) },
			"Select":    func() { Select(run, shape, d, m, a, b) },
			"Logical":   func() { Logical(run, op.LogicalAnd, shape, m, m, m) },
		} {
			if n := testing.AllocsPerRun(20, f); n != 0 {
				t.Errorf("%s (runner %v): %v allocations, want 0", name, run != nil, n)
			}
		}
	}
}
