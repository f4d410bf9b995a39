package tenferro

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tenferro-go/tenferro/internal/op"
)

// refClose is the reference rule, written out per part: NaN anywhere is
// never close, a non-finite part asks for equality, otherwise |x−y| <=
// atol + rtol·|y| with hypot moduli.
func refClose(x, y complex128, rtol, atol float64) bool {
	parts := []float64{real(x), imag(x), real(y), imag(y)}
	for _, p := range parts {
		if math.IsNaN(p) {
			return false
		}
	}
	for _, p := range parts {
		if math.IsInf(p, 0) {
			return real(x) == real(y) && imag(x) == imag(y)
		}
	}
	d := math.Hypot(real(x)-real(y), imag(x)-imag(y))
	return d <= atol+rtol*math.Hypot(real(y), imag(y))
}

// eachIndex calls f with every index of shape, decoding k in row-major
// order (independent of the column-major walk under test).
func eachIndex(shape []int, f func(idx []int)) {
	n := Numel(shape)
	idx := make([]int, len(shape))
	for k := range n {
		q := k
		for d := len(shape) - 1; d >= 0; d-- {
			idx[d] = q % shape[d]
			q /= shape[d]
		}
		f(idx)
	}
}

// refAllClose and refEqual read a and b with At.
func refAllClose[T Scalar](a, b *Tensor[T], rtol, atol float64) bool {
	ok := true
	eachIndex(a.Shape(), func(idx []int) {
		x, _ := a.At(idx...)
		y, _ := b.At(idx...)
		ok = ok && refClose(widen(x), widen(y), rtol, atol)
	})
	return ok
}

func refEqual[T Elem](a, b *Tensor[T]) bool {
	if !equalInts(a.Shape(), b.Shape()) {
		return false
	}
	ok := true
	eachIndex(a.Shape(), func(idx []int) {
		x, _ := a.At(idx...)
		y, _ := b.At(idx...)
		ok = ok && x == y
	})
	return ok
}

func scalarOf[T Scalar](c complex128) T { return castFrom[T](c) }

// closeCases are single-element cases: a, b, rtol, atol and whether a is
// close to b for real and for complex T (the imaginary parts count only
// for complex T).
var closeCases = []struct {
	a, b       complex128
	rtol, atol float64
	real, cplx bool
}{
	{1, 1, 0, 0, true, true},
	{0, complex(math.Copysign(0, -1), 0), 0, 0, true, true},
	{1, 1.5, 0, 0.5, true, true},
	{1, 1.5, 0, 0.25, false, false},
	{0, 1, 1, 0, true, true},   // |0-1| <= 1·|1|
	{1, 0, 1, 0, false, false}, // |1-0| > 1·|0|: b is the reference
	{100, 101, 0.00995, 0, true, true},
	{101, 100, 0.00995, 0, false, false},
	{3 + 4i, 0, 0, 5, true, true}, // the modulus, not the largest part
	{3 + 4i, 0, 0, 4.5, true, false},
	{1 + 1i, 1 - 1i, 0, 1, true, false},
	{complex(math.NaN(), 0), complex(math.NaN(), 0), 1, 1, false, false},
	{complex(math.NaN(), 0), 1, math.Inf(1), math.Inf(1), false, false},
	{1, complex(math.NaN(), 0), math.Inf(1), math.Inf(1), false, false},
	{complex(math.Inf(1), 0), complex(math.Inf(1), 0), 0, 0, true, true},
	{complex(math.Inf(-1), 0), complex(math.Inf(-1), 0), 0, 0, true, true},
	{complex(math.Inf(1), 0), complex(math.Inf(-1), 0), 1, 1, false, false},
	{complex(math.Inf(1), 0), 1e30, math.Inf(1), math.Inf(1), false, false},
	{1e30, complex(math.Inf(1), 0), math.Inf(1), math.Inf(1), false, false},
	{complex(1, math.Inf(1)), complex(1, math.Inf(1)), 0, 0, true, true},
	{complex(1, math.Inf(1)), complex(2, math.Inf(1)), 1, 1, true, false},
	{complex(1, math.NaN()), complex(1, math.NaN()), 1, 1, true, false},
	{1e30, -1e30, 0, math.Inf(1), true, true}, // finite values, infinite tolerance
}

func testAllCloseCases[T Scalar](t *testing.T) {
	for _, c := range closeCases {
		a := must(FromRowMajor([]T{scalarOf[T](c.a)}))
		b := must(FromRowMajor([]T{scalarOf[T](c.b)}))
		want := c.real
		if DTypeOf[T]().IsComplex() {
			want = c.cplx
		}
		got, err := AllClose(a, b, c.rtol, c.atol)
		if err != nil || got != want {
			t.Errorf("%v: AllClose(%v, %v, rtol %g, atol %g) = %v, %v; want %v", DTypeOf[T](), c.a, c.b, c.rtol, c.atol, got, err, want)
		}
		if ref := refAllClose(a, b, c.rtol, c.atol); ref != want {
			t.Errorf("%v: reference disagrees with the table on (%v, %v)", DTypeOf[T](), c.a, c.b)
		}
	}
}

func TestAllCloseCases(t *testing.T) {
	testAllCloseCases[float32](t)
	testAllCloseCases[float64](t)
	testAllCloseCases[complex64](t)
	testAllCloseCases[complex128](t)
}

// testCompareViews compares every awkward view (see viewsOf) of random
// data of T with the same view of a copy perturbed in one stored element
// (a NaN or an infinity, or a change just below or above the tolerance),
// and with compact clones of either, against the reference.
func testCompareViews[T Scalar](t *testing.T) {
	const rtol, atol = 1e-3, 1e-4
	r := rand.New(rand.NewPCG(3, uint64(DTypeOf[T]())))
	specials := []complex128{complex(math.NaN(), 0), complex(math.Inf(1), 0), complex(math.Inf(-1), 0), complex(0, math.Inf(1))}
	closes := 0
	for trial := range 40 {
		seed := uint64(trial * 100)
		random := func(shape ...int) *Tensor[T] { seed++; return must(Rand[T](seed, shape...)) }
		first := viewsOf(random)
		seed = uint64(trial * 100)
		second := viewsOf(func(shape ...int) *Tensor[T] {
			x := random(shape...)
			d, _ := x.Data()
			if len(d) == 0 || trial == 0 {
				return x
			}
			k := r.IntN(len(d))
			if trial%5 == 0 {
				d[k] = scalarOf[T](specials[r.IntN(len(specials))])
			} else {
				w := widen(d[k])
				tol := atol + rtol*math.Hypot(real(w), imag(w))
				d[k] += scalarOf[T](complex(tol*(0.5+r.Float64()), 0))
			}
			return x
		})
		for name, a := range first {
			b := second[name]
			for _, pair := range [][2]*Tensor[T]{{a, b}, {b, a}, {must(a.Clone()), b}, {a, must(b.Clone())}} {
				got, err := AllClose(pair[0], pair[1], rtol, atol)
				if want := refAllClose(pair[0], pair[1], rtol, atol); err != nil || got != want {
					t.Fatalf("%v %s trial %d: AllClose = %v, %v; want %v", DTypeOf[T](), name, trial, got, err, want)
				}
				if got {
					closes++
				}
				eq, err := ArrayEqual(pair[0], pair[1])
				if want := refEqual(pair[0], pair[1]); err != nil || eq != want {
					t.Fatalf("%v %s trial %d: ArrayEqual = %v, %v; want %v", DTypeOf[T](), name, trial, eq, err, want)
				}
			}
			if ok, err := ArrayEqual(a, must(a.Clone())); !ok || err != nil {
				t.Fatalf("%v %s: view not ArrayEqual to its clone: %v", DTypeOf[T](), name, err)
			}
		}
	}
	if total := 40 * 4 * len(viewsOf(rowMajor)); closes == 0 || closes == total {
		t.Fatalf("%v: %d of %d comparisons close: the cases do not exercise both outcomes", DTypeOf[T](), closes, total)
	}
}

func TestCompareViews(t *testing.T) {
	testCompareViews[float32](t)
	testCompareViews[float64](t)
	testCompareViews[complex64](t)
	testCompareViews[complex128](t)
}

// Views with different strides over the same values: the walk must pair
// elements by logical index, not by storage position.
func TestCompareLayouts(t *testing.T) {
	x := rowMajor(2, 3, 4)
	p := must(x.Permute(2, 0, 1))
	q := must(p.Clone())
	if ok, _ := ArrayEqual(p, q); !ok {
		t.Fatal("permuted view differs from its clone")
	}
	rev := must(must(x.Reverse(0)).Reverse(0))
	if ok, _ := ArrayEqual(rev, x); !ok {
		t.Fatal("double reverse differs")
	}
	if ok, _ := ArrayEqual(must(x.Reverse(1)), x); ok {
		t.Fatal("reversed axis reported equal")
	}
	if ok, _ := AllClose(must(x.Reverse(2)), x, 0, 0.5); ok {
		t.Fatal("reversed axis reported close")
	}
	// A broadcast view equals a materialized repetition of its values.
	col := must(FromRowMajor([]float64{1, 2, 3}, 3, 1))
	rep := must(FromRowMajor([]float64{1, 1, 2, 2, 3, 3}, 3, 2))
	if ok, _ := ArrayEqual(must(col.Broadcast(3, 2)), rep); !ok {
		t.Fatal("broadcast view differs from its repetition")
	}
	// Same shape, different transposition: compared by index, not storage.
	sq := rowMajor(3, 3)
	if ok, _ := ArrayEqual(must(sq.Transpose()), sq); ok {
		t.Fatal("transpose of a non-symmetric matrix reported equal")
	}
}

func TestArrayEqual(t *testing.T) {
	nan := must(FromRowMajor([]float64{1, math.NaN()}, 2))
	if ok, err := ArrayEqual(nan, nan); ok || err != nil {
		t.Errorf("NaN equal to itself: %v %v", ok, err)
	}
	z := must(FromRowMajor([]float64{0, math.Inf(1)}, 2))
	nz := must(FromRowMajor([]float64{math.Copysign(0, -1), math.Inf(1)}, 2))
	if ok, err := ArrayEqual(z, nz); !ok || err != nil {
		t.Errorf("-0 and +0 unequal: %v %v", ok, err)
	}
	cn := must(FromRowMajor([]complex64{complex(1, float32(math.NaN()))}, 1))
	if ok, _ := ArrayEqual(cn, cn); ok {
		t.Error("complex NaN equal to itself")
	}
	b1 := must(FromRowMajor([]bool{true, false, true}, 3))
	b2 := must(FromRowMajor([]bool{true, false, false}, 3))
	if ok, _ := ArrayEqual(b1, b1); !ok {
		t.Error("bool tensor unequal to itself")
	}
	if ok, _ := ArrayEqual(b1, b2); ok {
		t.Error("different bool tensors equal")
	}
	i1 := must(FromRowMajor([]int64{math.MaxInt64, math.MinInt64}, 1, 2))
	i2 := must(FromRowMajor([]int64{math.MaxInt64, math.MinInt64 + 1}, 1, 2))
	if ok, _ := ArrayEqual(i1, i2); ok {
		t.Error("int64 tensors differing by one are equal")
	}
	if ok, _ := ArrayEqual(i1, must(i1.Clone())); !ok {
		t.Error("int64 tensor unequal to its clone")
	}
	// Shapes that differ make unequal tensors, not errors, even when
	// empty or when the element counts agree.
	for _, s := range [][2][]int{{{2, 3}, {3, 2}}, {{6}, {6, 1}}, {{}, {1}}, {{0}, {0, 3}}, {{2, 0}, {0, 2}}} {
		a, b := must(Zeros[float64](s[0]...)), must(Zeros[float64](s[1]...))
		if ok, err := ArrayEqual(a, b); ok || err != nil {
			t.Errorf("ArrayEqual of shapes %v and %v: %v, %v", s[0], s[1], ok, err)
		}
	}
	e1, e2 := must(Zeros[float64](0, 3)), must(Zeros[float64](0, 3))
	if ok, err := ArrayEqual(e1, e2); !ok || err != nil {
		t.Errorf("empty tensors unequal: %v", err)
	}
	if ok, err := AllClose(e1, e2, 0, 0); !ok || err != nil {
		t.Errorf("empty tensors not close: %v", err)
	}
	s1, s2 := must(Full(2.0)), must(Full(2.0))
	if ok, _ := ArrayEqual(s1, s2); !ok {
		t.Error("0-d tensors unequal")
	}
}

func TestCompareErrors(t *testing.T) {
	good := rowMajor(2, 3)
	released := rowMajor(2, 3)
	view := must(released.Transpose())
	released.Release()
	bad := []struct {
		name string
		x    *Tensor[float64]
		kind error
	}{
		{"nil", nil, ErrArgument},
		{"zero", &Tensor[float64]{}, ErrArgument},
		{"released", released, ErrReleased},
		{"view of released", view, ErrReleased},
	}
	for _, c := range bad {
		for _, arg := range []string{"a", "b"} {
			a, b := c.x, good
			if arg == "b" {
				a, b = good, c.x
			}
			if ok, err := AllClose(a, b, 0, 0); ok || !errors.Is(err, c.kind) || !strings.Contains(err.Error(), "AllClose: "+arg+":") {
				t.Errorf("AllClose with %s %s: %v, %v", c.name, arg, ok, err)
			}
			if ok, err := ArrayEqual(a, b); ok || !errors.Is(err, c.kind) || !strings.Contains(err.Error(), "ArrayEqual: "+arg+":") {
				t.Errorf("ArrayEqual with %s %s: %v, %v", c.name, arg, ok, err)
			}
		}
	}
	for _, s := range [][2][]int{{{2, 3}, {3, 2}}, {{6}, {6, 1}}, {{}, {1}}, {{0}, {0, 3}}, {{2, 1}, {2, 3}}} {
		a, b := must(Zeros[float64](s[0]...)), must(Zeros[float64](s[1]...))
		ok, err := AllClose(a, b, 1, 1)
		var e *Error
		if ok || !errors.Is(err, ErrShape) || !errors.As(err, &e) || e.Arg != "b" ||
			!strings.Contains(e.Expected, op.FmtInts(s[0])) || !strings.Contains(e.Actual, op.FmtInts(s[1])) {
			t.Errorf("AllClose of shapes %v and %v: %v, %v", s[0], s[1], ok, err)
		}
	}
	for _, c := range []struct {
		arg        string
		rtol, atol float64
	}{{"rtol", -1e-9, 0}, {"rtol", math.NaN(), 0}, {"atol", 0, -1}, {"atol", 0, math.NaN()}, {"rtol", math.Inf(-1), math.NaN()}} {
		ok, err := AllClose(good, good, c.rtol, c.atol)
		var e *Error
		if ok || !errors.Is(err, ErrArgument) || !errors.As(err, &e) || e.Arg != c.arg {
			t.Errorf("AllClose(rtol %g, atol %g): %v, %v; want an ErrArgument naming %s", c.rtol, c.atol, ok, err, c.arg)
		}
	}
}

// AllClose and ArrayEqual read in place: no allocation, whatever the layout.
func TestCompareAllocs(t *testing.T) {
	x := rowMajor(6, 5, 4, 3, 2)
	a := must(x.Permute(4, 2, 0, 3, 1))
	b := must(a.Clone())
	c := must(must(FromRowMajor(seq(5), 5, 1)).Broadcast(5, 7))
	d := must(c.Clone())
	if n := testing.AllocsPerRun(20, func() {
		if ok, _ := AllClose(a, b, 1e-12, 0); !ok {
			panic("not close")
		}
		if ok, _ := ArrayEqual(c, d); !ok {
			panic("not equal")
		}
	}); n != 0 {
		t.Errorf("%v allocations per comparison, want 0", n)
	}
}
