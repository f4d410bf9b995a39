package reduce

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tenferro-go/tenferro/internal/kernel/strided"
	st "github.com/tenferro-go/tenferro/internal/kernel/strided/stridedtest"
	"github.com/tenferro-go/tenferro/internal/par"
)

// sqKernel is one of the sums of this file with its float64 reference:
// the value for the terms |x - c|^... and a tolerance.
type sqKernel[T strided.Scalar] struct {
	name string
	run  func(r par.Runner, shape []int, dst, src, center strided.Ref[T])
	// term returns the nonnegative term of x with center c.
	term func(x, c complex128) float64
	root bool // the result is the square root of the sum
	dev  bool // uses the center
}

func sqKernels[T strided.Scalar]() []sqKernel[T] {
	abs2 := func(x, c complex128) float64 { d := x - c; return real(d)*real(d) + imag(d)*imag(d) }
	ks := []sqKernel[T]{
		{name: "SumSquares", run: func(r par.Runner, s []int, d, x, _ strided.Ref[T]) { SumSquares(r, s, d, x) }, term: abs2},
		{name: "Norm2", run: func(r par.Runner, s []int, d, x, _ strided.Ref[T]) { Norm2(r, s, d, x) }, term: abs2, root: true},
		{name: "SumSquaredDeviations", run: SumSquaredDeviations[T], term: abs2, dev: true},
	}
	for _, p := range []float64{0.5, 1, 2, 3} {
		ks = append(ks, sqKernel[T]{
			name: fmt.Sprintf("SumAbsPow(%g)", p),
			run:  func(r par.Runner, s []int, d, x, _ strided.Ref[T]) { SumAbsPow(r, p, s, d, x) },
			term: func(x, _ complex128) float64 { return math.Pow(math.Hypot(real(x), imag(x)), p) },
		})
	}
	return ks
}

func testSquares[T strided.Scalar](t *testing.T, r par.Runner) {
	rng := rand.New(rand.NewPCG(19, uint64(strided.Kind[T]())))
	eps := st.Eps[T]()
	for ci, c := range redCases(rng, 1<<12) {
		for _, k := range sqKernels[T]() {
			src := st.RandView[T](rng, c.shape, c.in)
			if ci%5 == 4 {
				sprinkle(rng, src, c.shape, 0.05, nan[T](), inf[T](1), inf[T](-1))
			}
			dst := dstView[T](rng, c.shape, c.red)
			center := dstView[T](rng, c.shape, c.red)
			k.run(r, c.shape, dst, src, center)
			what := fmt.Sprintf("%s %T shape %v red %v", k.name, *new(T), c.shape, c.red)
			for _, f := range fibres(c.shape, c.red, dst.Off, dst.Strides, src.Off, src.Strides) {
				var cv complex128
				if k.dev {
					cv = st.C128(center.Data[st.At(center, f.kept)])
				}
				var want float64
				for _, o := range f.src {
					want += k.term(st.C128(src.Data[o]), cv)
				}
				if k.root {
					want = math.Sqrt(want)
				}
				// Nonnegative terms in float64 (a few ulps each for pow),
				// then one rounding to T.
				tol := eps*want + float64(len(f.src)+4)*0x1p-52*want
				if got := st.C128(dst.Data[f.dst]); !near(got, complex(want, 0), tol) {
					t.Fatalf("%s: at %v got %v, want %v (tol %g)", what, f.kept, got, want, tol)
				}
			}
			if i := st.CheckGuards(dst, keptShape(c.shape, c.red)); i >= 0 {
				t.Fatalf("%s: guard %d overwritten", what, i)
			}
		}
	}
}

func TestSquares(t *testing.T) {
	for i, r := range runners(t) {
		t.Run(fmt.Sprint("runner", i), func(t *testing.T) {
			testSquares[float32](t, r)
			testSquares[float64](t, r)
			testSquares[complex64](t, r)
			testSquares[complex128](t, r)
		})
	}
}

// TestNormRange checks that Norm2 and SumSquares neither overflow nor
// underflow on the way for elements near the ends of T's range, against
// the reference M*sqrt(sum (x/M)^2) with M = max |x|.
func TestNormRange(t *testing.T) {
	testNormRange[float64](t, []float64{1e300, 1e-300, 1e-160, 1e150, 1})
	testNormRange[complex128](t, []float64{1e300, 1e-300, 1})
	testNormRange[float32](t, []float64{1e37, 1e-37, 1e-44, 1})
	testNormRange[complex64](t, []float64{1e37, 1e-40, 1})
}

func testNormRange[T strided.Scalar](t *testing.T, scales []float64) {
	rng := rand.New(rand.NewPCG(23, uint64(strided.Kind[T]())))
	for _, n := range []int{1, 2, 7, 300, 5000} {
		for _, mix := range [][]float64{{scales[0]}, {scales[1]}, scales} {
			x := make([]T, n)
			for i := range x {
				s := mix[rng.IntN(len(mix))]
				x[i] = st.From[T](complex(s*(2*rng.Float64()-1), s*(2*rng.Float64()-1)))
			}
			var m float64
			for _, v := range x {
				m = math.Max(m, math.Abs(real(st.C128(v))))
				m = math.Max(m, math.Abs(imag(st.C128(v))))
			}
			var q float64
			for _, v := range x {
				z := st.C128(v)
				q += (real(z)/m)*(real(z)/m) + (imag(z)/m)*(imag(z)/m)
			}
			norm := m * math.Sqrt(q)
			sq := m * m * q // +Inf or 0 when out of float64's range
			for _, shape := range [][]int{{n}, {1, n}} {
				src := strided.Ref[T]{Data: x, Strides: colMajor(shape)}
				d := []T{0}
				dst := strided.Ref[T]{Data: d, Strides: make([]int, len(shape))}
				// Relative rounding, and absolute rounding in T's
				// subnormal range.
				tiny := 0x1p-1074
				if st.Eps[T]() > 0x1p-53 {
					tiny = 0x1p-149
				}
				Norm2(nil, shape, dst, src)
				want := real(st.C128(st.From[T](complex(norm, 0))))
				tol := (st.Eps[T]()+float64(n+4)*0x1p-52)*want + tiny
				if got := real(st.C128(d[0])); !near(complex(got, 0), complex(want, 0), tol) {
					t.Errorf("Norm2 %T n %d scales %v: got %g, want %g", *new(T), n, mix, got, want)
				}
				SumSquares(nil, shape, dst, src)
				want = real(st.C128(st.From[T](complex(sq, 0))))
				tol = (st.Eps[T]()+float64(n+4)*0x1p-52)*want + tiny
				if got := real(st.C128(d[0])); !near(complex(got, 0), complex(want, 0), tol) {
					t.Errorf("SumSquares %T n %d scales %v: got %g, want %g", *new(T), n, mix, got, want)
				}
			}
		}
	}
}

// TestSumSquaresSpecial checks NaN, Inf and the ends of the range: Inf
// gives Inf, NaN gives NaN even next to an Inf, and the norm survives
// where the sum of squares is out of range.
func TestSumSquaresSpecial(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	for _, c := range []struct {
		x        []float64
		sq, norm float64
	}{
		{[]float64{1, -inf, 2}, inf, inf},
		{[]float64{1, nan, 2}, nan, nan},
		{[]float64{inf, nan}, nan, nan},
		{[]float64{1e-300, nan}, nan, nan},
		{[]float64{1e300, 1e300}, inf, 1e300 * math.Sqrt2},
		{[]float64{3e300, 4e300}, inf, 5e300},
		{[]float64{3e-300, 4e-300}, 0, 5e-300},
		{[]float64{3e-170, 4e-170, 0}, 0, 5e-170},
		{[]float64{3, 4e-170}, 9, 3},
	} {
		d := []float64{0}
		dst := strided.Ref[float64]{Data: d, Strides: []int{0}}
		src := strided.Ref[float64]{Data: c.x, Strides: []int{1}}
		SumSquares(nil, []int{len(c.x)}, dst, src)
		if !near(complex(d[0], 0), complex(c.sq, 0), 1e-15*c.sq) {
			t.Errorf("SumSquares(%v) = %v, want %v", c.x, d[0], c.sq)
		}
		Norm2(nil, []int{len(c.x)}, dst, src)
		if !near(complex(d[0], 0), complex(c.norm, 0), 1e-15*c.norm) {
			t.Errorf("Norm2(%v) = %v, want %v", c.x, d[0], c.norm)
		}
	}
	x := strided.Ref[float64]{Data: []float64{1}, Strides: []int{1}}
	for _, p := range []float64{inf, -inf, nan} {
		mustPanic(t, fmt.Sprint("SumAbsPow p ", p), func() { SumAbsPow(nil, p, []int{1}, x, x) })
	}
	// Order 0 counts the non-zero elements (NaN counts); a negative order
	// makes a zero's term +Inf.
	v := strided.Ref[float64]{Data: []float64{0, 2, nan, -3, 0}, Strides: []int{1}}
	d := strided.Ref[float64]{Data: []float64{-1}, Strides: []int{0}}
	SumAbsPow(nil, 0, []int{5}, d, v)
	if d.Data[0] != 3 {
		t.Errorf("SumAbsPow p 0 = %v, want 3", d.Data[0])
	}
	w := strided.Ref[float64]{Data: []float64{0.5, 0, 4}, Strides: []int{1}}
	SumAbsPow(nil, -1, []int{3}, d, w)
	if !math.IsInf(d.Data[0], 1) {
		t.Errorf("SumAbsPow p -1 with a zero = %v, want +Inf", d.Data[0])
	}
	SumAbsPow(nil, -1, []int{2}, d, strided.Ref[float64]{Data: []float64{0.5, 4}, Strides: []int{1}})
	if d.Data[0] != 2.25 {
		t.Errorf("SumAbsPow p -1 of (0.5, 4) = %v, want 2.25", d.Data[0])
	}
}

func testLogSumExp[T Float](t *testing.T, r par.Runner) {
	rng := rand.New(rand.NewPCG(29, uint64(strided.Kind[T]())))
	eps := st.Eps[T]()
	for ci, c := range redCases(rng, 1<<12) {
		src := st.RandView[T](rng, c.shape, c.in)
		// Scales past exp's range in T (and in float64).
		scale := T([]float64{1, 30, 200, 1000}[ci%4])
		mapView(src, c.shape, func(x T) T { return x * scale })
		if ci%3 == 2 {
			sprinkle(rng, src, c.shape, 0.05, nan[T](), inf[T](1), inf[T](-1), inf[T](-1))
		}
		if ci%7 == 6 {
			sprinkle(rng, src, c.shape, 1, inf[T](-1))
		}
		dst := dstView[T](rng, c.shape, c.red)
		LogSumExp(r, c.shape, dst, src)
		what := fmt.Sprintf("LogSumExp %T shape %v red %v", *new(T), c.shape, c.red)
		for _, f := range fibres(c.shape, c.red, dst.Off, dst.Strides, src.Off, src.Strides) {
			m := math.Inf(-1)
			for _, o := range f.src {
				m = scalarMax(m, float64(src.Data[o]))
			}
			want := m
			var s float64
			if !math.IsInf(m, 0) && !math.IsNaN(m) {
				for _, o := range f.src {
					s += math.Exp(float64(src.Data[o]) - m)
				}
				want = m + math.Log(s)
			}
			tol := 2*eps*math.Abs(want) + float64(len(f.src)+2)*0x1p-52
			if got := float64(dst.Data[f.dst]); !near(complex(got, 0), complex(want, 0), tol) {
				t.Fatalf("%s: at %v got %v, want %v (tol %g)", what, f.kept, got, want, tol)
			}
		}
		if i := st.CheckGuards(dst, keptShape(c.shape, c.red)); i >= 0 {
			t.Fatalf("%s: guard %d overwritten", what, i)
		}
	}
}

func scalarMax(x, y float64) float64 {
	if x > y || x != x {
		return x
	}
	return y
}

func TestLogSumExp(t *testing.T) {
	for i, r := range runners(t) {
		t.Run(fmt.Sprint("runner", i), func(t *testing.T) {
			testLogSumExp[float32](t, r)
			testLogSumExp[float64](t, r)
		})
	}
	inf := math.Inf(1)
	for _, c := range []struct {
		x    []float64
		want float64
	}{
		{[]float64{-inf, -inf}, -inf},
		{[]float64{-inf, inf, 1}, inf},
		{[]float64{inf, math.NaN()}, math.NaN()},
		{[]float64{-inf, 0}, 0},
		{[]float64{1000, 1000}, 1000 + math.Ln2},
		{[]float64{-1000, -1000}, -1000 + math.Ln2},
		{nil, -inf},
	} {
		d := []float64{7}
		LogSumExp(nil, []int{len(c.x)}, strided.Ref[float64]{Data: d, Strides: []int{0}}, strided.Ref[float64]{Data: c.x, Strides: []int{1}})
		if !near(complex(d[0], 0), complex(c.want, 0), 1e-13) {
			t.Errorf("LogSumExp(%v) = %v, want %v", c.x, d[0], c.want)
		}
	}
}

// TestDeviationsCenterIsDst checks SumSquaredDeviations with the center
// stored in dst itself (the mean, overwritten by the result), with the
// input fast along a kept axis and along a reduced one.
func TestDeviationsCenterIsDst(t *testing.T) {
	rng := rand.New(rand.NewPCG(37, 0))
	for i, r := range runners(t) {
		for _, c := range []redCase{
			{[]int{300, 7}, []bool{false, true}, st.All},
			{[]int{300, 7}, []bool{true, false}, st.All},
			{[]int{5, 67, 3}, []bool{true, false, true}, st.All},
			{[]int{1000}, []bool{true}, st.All},
		} {
			src := st.RandView[float64](rng, c.shape, c.in)
			dst := dstView[float64](rng, c.shape, c.red)
			fs := fibres(c.shape, c.red, dst.Off, dst.Strides, src.Off, src.Strides)
			want := make([]float64, len(fs))
			for j, f := range fs {
				var mean float64
				for _, o := range f.src {
					mean += src.Data[o]
				}
				mean /= float64(len(f.src))
				dst.Data[f.dst] = mean
				for _, o := range f.src {
					want[j] += (src.Data[o] - mean) * (src.Data[o] - mean)
				}
			}
			SumSquaredDeviations(r, c.shape, dst, src, dst)
			for j, f := range fs {
				if got := dst.Data[f.dst]; !near(complex(got, 0), complex(want[j], 0), 1e-13*want[j]) {
					t.Fatalf("runner %d shape %v red %v: at %v got %v, want %v", i, c.shape, c.red, f.kept, got, want[j])
				}
			}
		}
	}
}
