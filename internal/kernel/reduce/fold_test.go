package reduce

import (
	"fmt"
	"math"
	"math/bits"
	"math/cmplx"
	"math/rand/v2"
	"testing"

	"github.com/tenferro-go/tenferro/internal/kernel/strided"
	st "github.com/tenferro-go/tenferro/internal/kernel/strided/stridedtest"
	"github.com/tenferro-go/tenferro/internal/op/scalar"
	"github.com/tenferro-go/tenferro/internal/par"
)

// finiteAbs returns |x|, or 0 for a NaN or infinity (whose parts of a
// result are checked exactly).
func finiteAbs(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0
	}
	return math.Abs(x)
}

// foldRef returns the fold k of xs in complex128 and a tolerance for a
// result of T: Sum (n+2)*eps*sum|x| (any order), Prod 4*(n+2)*eps*prod|x|
// plus an underflow allowance, exact for the others.
func foldRef[T strided.Scalar](k FoldKind, xs []complex128) (complex128, float64) {
	eps, n := st.Eps[T](), float64(len(xs))
	switch k {
	case SumFold:
		var s complex128
		var mag float64
		for _, x := range xs {
			s += x
			mag += finiteAbs(real(x)) + finiteAbs(imag(x))
		}
		return s, (n + 2) * eps * mag
	case ProdFold:
		p, rp, mag := complex128(1), 1.0, 1.0
		for _, x := range xs {
			p *= x
			rp *= real(x) // real arithmetic: no Inf*0 in an imaginary part
			mag *= cmplx.Abs(x)
		}
		if !st.IsComplex[T]() {
			p = complex(rp, 0)
		}
		return p, 4*(n+2)*eps*mag + 1e-300
	case MaxFold, MinFold:
		w := math.Inf(1)
		if k == MaxFold {
			w = math.Inf(-1)
		}
		for _, x := range xs {
			if k == MaxFold {
				w = scalar.Maximum(w, real(x))
			} else {
				w = scalar.Minimum(w, real(x))
			}
		}
		return complex(w, 0), 0
	default:
		var w float64
		for _, x := range xs {
			// The catalog's modulus, as the Abs kernels compute it.
			a := scalar.Hypot(real(x), imag(x))
			if _, single := any(T(0)).(complex64); single {
				a = scalar.Hypot32(float32(real(x)), float32(imag(x)))
			}
			w = scalar.Maximum(w, a)
		}
		return st.C128(st.From[T](complex(w, 0))), 0
	}
}

func testFold[T strided.Scalar](t *testing.T, r par.Runner) {
	rng := rand.New(rand.NewPCG(11, uint64(strided.Kind[T]())))
	kinds := []FoldKind{SumFold, ProdFold, MaxAbsFold}
	if !st.IsComplex[T]() {
		kinds = append(kinds, MaxFold, MinFold)
	}
	for ci, c := range redCases(rng, 1<<12) {
		nred := strided.Size(keptShape(c.shape, c.red))
		nred = strided.Size(c.shape) / max(1, nred)
		for _, k := range kinds {
			src := st.RandView[T](rng, c.shape, c.in)
			if k == ProdFold {
				// Factors near ±1 keep the product in range.
				mapView(src, c.shape, func(x T) T {
					s := T(1)
					if rng.IntN(2) == 0 {
						s = -1
					}
					return s * (1 + x/st.From[T](complex(float64(max(1, nred)), 0)))
				})
			}
			special := ci%5 == 4 && !(k == ProdFold && st.IsComplex[T]())
			if special {
				sprinkle(rng, src, c.shape, 0.05, nan[T](), inf[T](1), inf[T](-1))
			}
			dst := dstView[T](rng, c.shape, c.red)
			what := fmt.Sprintf("Fold %v %T shape %v red %v", k, *new(T), c.shape, c.red)
			if (k == MaxFold || k == MinFold) && reducedEmpty(c.shape, c.red) {
				mustPanic(t, what, func() { Fold(r, k, c.shape, dst, src) })
				continue
			}
			Fold(r, k, c.shape, dst, src)
			for _, f := range fibres(c.shape, c.red, dst.Off, dst.Strides, src.Off, src.Strides) {
				xs := make([]complex128, len(f.src))
				for i, o := range f.src {
					xs[i] = st.C128(src.Data[o])
				}
				want, tol := foldRef[T](k, xs)
				if got := st.C128(dst.Data[f.dst]); !near(got, want, tol) {
					t.Fatalf("%s: at %v got %v, want %v (tol %g)", what, f.kept, got, want, tol)
				}
			}
			if i := st.CheckGuards(dst, keptShape(c.shape, c.red)); i >= 0 {
				t.Fatalf("%s: guard %d overwritten", what, i)
			}
		}
	}
}

func TestFold(t *testing.T) {
	for i, r := range runners(t) {
		t.Run(fmt.Sprint("runner", i), func(t *testing.T) {
			testFold[float32](t, r)
			testFold[float64](t, r)
			testFold[complex64](t, r)
			testFold[complex128](t, r)
		})
	}
}

func TestFoldPanics(t *testing.T) {
	x := strided.Ref[complex128]{Data: make([]complex128, 3), Strides: []int{1}}
	d := strided.Ref[complex128]{Data: make([]complex128, 1), Strides: []int{0}}
	mustPanic(t, "Max of complex", func() { Fold(nil, MaxFold, []int{3}, d, x) })
	mustPanic(t, "Min of complex", func() { Fold(nil, MinFold, []int{3}, d, x) })
	mustPanic(t, "unknown fold", func() { Fold(nil, FoldKind(9), []int{3}, d, x) })
	e := strided.Ref[float64]{Data: make([]float64, 1), Strides: []int{0, 1}}
	mustPanic(t, "Max of nothing", func() { Fold(nil, MaxFold, []int{0, 1}, e, e) })
	if s := FoldKind(9).String(); s != "FoldKind(?)" {
		t.Errorf("String of an unknown fold: %q", s)
	}
	if s := MaxAbsFold.String(); s != "MaxAbs" {
		t.Errorf("MaxAbsFold.String() = %q", s)
	}
}

func testBools(t *testing.T, r par.Runner) {
	rng := rand.New(rand.NewPCG(13, 0))
	for ci, c := range redCases(rng, 1<<12) {
		v := st.RandView[float64](rng, c.shape, c.in)
		src := viewLike[bool](v, false)
		// Thresholds from all false to all true.
		thr := []float64{-1, -0.99, 0, 0.99, 1}[ci%5]
		st.ForEach(c.shape, func(idx []int) {
			o := st.At(v, idx)
			src.Data[o] = v.Data[o] < thr
		})
		for _, anyTrue := range []bool{false, true} {
			fill := rng.IntN(2) == 0
			dst := viewLike[bool](dstView[float64](rng, c.shape, c.red), fill)
			Bools(r, anyTrue, c.shape, dst, src)
			fs := fibres(c.shape, c.red, dst.Off, dst.Strides, src.Off, src.Strides)
			what := fmt.Sprintf("Bools any=%v shape %v red %v", anyTrue, c.shape, c.red)
			for _, f := range fs {
				want := !anyTrue
				for _, o := range f.src {
					if src.Data[o] == anyTrue {
						want = anyTrue
					}
				}
				if got := dst.Data[f.dst]; got != want {
					t.Fatalf("%s: at %v got %v, want %v", what, f.kept, got, want)
				}
			}
			checkUntouched(t, what, dst.Data, fs, fill)
		}
	}
}

func TestBools(t *testing.T) {
	for i, r := range runners(t) {
		t.Run(fmt.Sprint("runner", i), func(t *testing.T) { testBools(t, r) })
	}
}

func testArg[T Float](t *testing.T, r par.Runner) {
	rng := rand.New(rand.NewPCG(17, uint64(strided.Kind[T]())))
	for ci, c := range redCases(rng, 1<<12) {
		m := 0
		for d, red := range c.red {
			if red {
				m |= 1 << d
			}
		}
		if bits.OnesCount(uint(m)) != 1 {
			continue
		}
		axis := bits.TrailingZeros(uint(m))
		src := st.RandView[T](rng, c.shape, c.in)
		// Few distinct values make ties common; some cases hold NaNs.
		q := T([]float64{1, 4, 1000}[ci%3])
		mapView(src, c.shape, func(x T) T { return T(math.Round(float64(x*q))) / q })
		if ci%4 == 3 {
			sprinkle(rng, src, c.shape, 0.05, nan[T](), inf[T](1), inf[T](-1))
		}
		for _, minimum := range []bool{false, true} {
			dst := viewLike[int64](dstView[float64](rng, c.shape, c.red), -7777)
			what := fmt.Sprintf("Arg min=%v %T shape %v axis %d", minimum, *new(T), c.shape, axis)
			if reducedEmpty(c.shape, c.red) {
				mustPanic(t, what, func() { Arg(r, minimum, c.shape, axis, dst, src) })
				continue
			}
			Arg(r, minimum, c.shape, axis, dst, src)
			fs := fibres(c.shape, c.red, dst.Off, dst.Strides, src.Off, src.Strides)
			for _, f := range fs {
				want := 0
				for i, o := range f.src {
					x, b := src.Data[o], src.Data[f.src[want]]
					if b != b {
						break
					}
					if x != x || (!minimum && x > b) || (minimum && x < b) {
						want = i
					}
				}
				if got := dst.Data[f.dst]; got != int64(want) {
					t.Fatalf("%s: at %v got %d, want %d", what, f.kept, got, want)
				}
			}
			checkUntouched(t, what, dst.Data, fs, -7777)
		}
	}
}

func TestArg(t *testing.T) {
	for i, r := range runners(t) {
		t.Run(fmt.Sprint("runner", i), func(t *testing.T) {
			testArg[float32](t, r)
			testArg[float64](t, r)
		})
	}
}

// TestArgParts checks that a full reduction split into parts keeps the
// first maximum and the first NaN across part boundaries.
func TestArgParts(t *testing.T) {
	r := st.Parallel(t, 3, &ParallelBytes, 64)
	n := 999 // three parts of 333
	x := make([]float64, n)
	d := []int64{-1}
	run := func() int64 {
		Arg(r, false, []int{n}, 0, strided.Ref[int64]{Data: d, Strides: []int{0}}, strided.Ref[float64]{Data: x, Strides: []int{1}})
		return d[0]
	}
	x[400], x[700] = 5, 5
	if got := run(); got != 400 {
		t.Errorf("tie across parts: got %d, want 400", got)
	}
	x[500], x[900] = math.NaN(), math.NaN()
	if got := run(); got != 500 {
		t.Errorf("NaNs across parts: got %d, want 500", got)
	}
	x[10] = math.NaN()
	if got := run(); got != 10 {
		t.Errorf("NaN in the first part: got %d, want 10", got)
	}
	mustPanic(t, "Arg axis out of range", func() {
		Arg(nil, false, []int{n}, 1, strided.Ref[int64]{Data: d, Strides: []int{0}}, strided.Ref[float64]{Data: x, Strides: []int{1}})
	})
	mustPanic(t, "Arg dst stride along axis", func() {
		Arg(nil, false, []int{n}, 0, strided.Ref[int64]{Data: d, Strides: []int{1}}, strided.Ref[float64]{Data: x, Strides: []int{1}})
	})
}
