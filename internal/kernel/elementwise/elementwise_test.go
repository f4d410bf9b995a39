package elementwise

import (
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/tenferro-go/tenferro/internal/kernel/strided"
	st "github.com/tenferro-go/tenferro/internal/kernel/strided/stridedtest"
	"github.com/tenferro-go/tenferro/internal/op"
	"github.com/tenferro-go/tenferro/internal/par"
)

// The tests take their operations from the catalog: every operation of
// package op whose category is elementwise and that has a kernel here is
// checked against the catalog's scalar reference (Info.Ref, Info.RefReal),
// so that adding an operation to the catalog and its kernel to ops.go
// brings it under every test below without touching them.

// kernelKinds returns the catalog's operations of the given categories that
// the package has kernels for and that accept T, in catalog order; it
// fails t when there are none (a test over them would check nothing).
func kernelKinds[T strided.Scalar](t testing.TB, cats ...op.Category) []op.Kind {
	t.Helper()
	var ks []op.Kind
	for _, k := range op.Kinds() {
		real := k.Info().Result == op.SameDType || !st.IsComplex[T]()
		if slices.Contains(cats, k.Category()) && Supports(k) && dtypeOf[T]().In(k.Info().Accept) && real {
			ks = append(ks, k)
		}
	}
	if len(ks) == 0 {
		t.Fatalf("no catalog operation of categories %v has a kernel", cats)
	}
	return ks
}

// dtypeOf returns the catalog's dtype of T.
func dtypeOf[T strided.Scalar]() op.DType {
	return [...]op.DType{op.Float32, op.Float64, op.Complex64, op.Complex128}[strided.Kind[T]()]
}

// unaryKinds returns the operations Unary runs for T: the catalog's unary
// ones and Copy (category Data).
func unaryKinds[T strided.Scalar](t testing.TB) []op.Kind {
	return kernelKinds[T](t, op.Unary, op.Data)
}

// binaryKinds returns the operations Binary runs for T.
func binaryKinds[T strided.Scalar](t testing.TB) []op.Kind { return kernelKinds[T](t, op.Binary) }

// arithmetic reports whether k is one of the operations whose rounding
// error the magnitude model of mag bounds (sums, products, quotients,
// scalings and the exact ones); the other functions are checked relative
// to their value.
func arithmetic(k op.Kind) bool {
	switch k {
	case op.Copy, op.Scale, op.Negate, op.Conj, op.Add, op.Sub, op.Mul, op.Div, op.Square:
		return true
	}
	return false
}

// params returns the attributes the tests pass to unary operation k:
// alpha for Scale, bounds inside the inputs' range for Clip.
func params[T strided.Scalar](k op.Kind, alpha T) Params[T] {
	if k == op.Clip {
		return Params[T]{A: -0.3, B: 0.4}
	}
	return Params[T]{A: alpha}
}

// ref returns the catalog's reference value of k at x, y (ignored by unary
// operations) with attributes p, for element type T: Info.Ref for complex
// T; for real T, Info.RefReal when the catalog has one, else the real part
// of Ref at the real arguments.
func ref[T strided.Scalar](k op.Kind, x, y complex128, p Params[T]) complex128 {
	in := k.Info()
	a, b := st.C128(p.A), st.C128(p.B)
	if st.IsComplex[T]() {
		return in.Ref(x, y, a, b)
	}
	if in.RefReal != nil {
		return complex(in.RefReal(real(x), real(y), real(a), real(b)), 0)
	}
	return complex(real(in.Ref(complex(real(x), 0), complex(real(y), 0), complex(real(a), 0), 0)), 0)
}

// mag returns the size of the terms k combines at operands of sizes mx and
// my and attribute size ma: the largest |ref| over the signs of the
// operands. It is mx+my for a sum or a difference, mx*my for a product,
// ma*mx for Scale and mx for Copy, Negate and Conj: the quantity the
// rounding error of one evaluation scales with (forward error analysis),
// and the rule by which refEval carries magnitudes through a fused
// program.
func mag[T strided.Scalar](k op.Kind, mx, my, ma float64) float64 {
	m := 0.0
	for _, sx := range [2]float64{1, -1} {
		for _, sy := range [2]float64{1, -1} {
			m = max(m, cmplx.Abs(ref[T](k, complex(sx*mx, 0), complex(sy*my, 0), Params[T]{A: fromC[T](complex(ma, 0))})))
		}
	}
	return m
}

// fromC converts c to T (the real part for real T).
func fromC[T strided.Scalar](c complex128) T {
	var z T
	switch any(z).(type) {
	case float32:
		return any(float32(real(c))).(T)
	case float64:
		return any(real(c)).(T)
	case complex64:
		return any(complex64(c)).(T)
	}
	return any(c).(T)
}

// expect returns the reference value of k at x, y with attributes p and
// the tolerance of a kernel's result. For the arithmetic operations it is
// 2 eps mag, one rounding of that size in the kernel and one in the
// reference. (For float32 and complex64 the reference is exact but for
// eps64; the kernel's error is at most eps*mag for the real operations and
// complex sums, and for a complex product at most sqrt(5)*eps*mag in the
// worst case, below eps*mag in practice.) For the other functions it is 4
// eps |want| (a few units in the last place of the result); 8 for Gelu and
// Erfc, whose kernels are within 3.6 and 3.1 ulps of the exact value and
// whose references (math.Erfc) within about one more.
func expect[T strided.Scalar](k op.Kind, x, y T, p Params[T]) (want complex128, tol float64) {
	cx, cy := st.C128(x), st.C128(y)
	want = ref[T](k, cx, cy, p)
	if !arithmetic(k) {
		if k == op.Gelu || k == op.Erfc {
			return want, 8 * st.Eps[T]() * cmplx.Abs(want)
		}
		return want, 4 * st.Eps[T]() * cmplx.Abs(want)
	}
	return want, 2 * st.Eps[T]() * mag[T](k, cmplx.Abs(cx), cmplx.Abs(cy), cmplx.Abs(st.C128(p.A)))
}

// close reports whether got is within tol of want, treating equal
// non-finite parts (NaN against NaN, infinities of one sign) as equal.
func close(got, want complex128, tol float64) bool {
	if got == want || st.Close(got, want, tol) {
		return true
	}
	for _, pr := range [2][2]float64{{real(got), real(want)}, {imag(got), imag(want)}} {
		g, w := pr[0], pr[1]
		switch {
		case g == w, g != g && w != w:
		case math.IsInf(w, 0) || w != w || math.IsInf(g, 0) || g != g:
			return false
		case math.Abs(g-w) > tol:
			return false
		}
	}
	return true
}

// checkUnary checks dst = k(a) with attributes p over shape, and that
// dst's guard elements are intact; what names the case.
func checkUnary[T strided.Scalar](t *testing.T, what string, k op.Kind, p Params[T], shape []int, dst, a strided.Ref[T]) {
	t.Helper()
	st.ForEach(shape, func(idx []int) {
		x := a.Data[st.At(a, idx)]
		want, tol := expect(k, x, 0, p)
		got := st.C128(dst.Data[st.At(dst, idx)])
		if !close(got, want, tol) {
			t.Fatalf("%s idx %v: %v(%v, %v) = %v, want %v (tol %g)", what, idx, k, x, p, got, want, tol)
		}
	})
	if i := st.CheckGuards(dst, shape); i >= 0 {
		t.Fatalf("%s: guard %d overwritten", what, i)
	}
}

// checkBinary checks dst = k(a, b) over shape, and that dst's guard
// elements are intact; what names the case.
func checkBinary[T strided.Scalar](t *testing.T, what string, k op.Kind, shape []int, dst, a, b strided.Ref[T]) {
	t.Helper()
	st.ForEach(shape, func(idx []int) {
		x, y := a.Data[st.At(a, idx)], b.Data[st.At(b, idx)]
		want, tol := expect(k, x, y, Params[T]{})
		got := st.C128(dst.Data[st.At(dst, idx)])
		if !close(got, want, tol) {
			t.Fatalf("%s idx %v: %v(%v, %v) = %v, want %v (tol %g)", what, idx, k, x, y, got, want, tol)
		}
	})
	if i := st.CheckGuards(dst, shape); i >= 0 {
		t.Fatalf("%s: guard %d overwritten", what, i)
	}
}

// clone returns r over a copy of its data.
func clone[T strided.Scalar](r strided.Ref[T]) strided.Ref[T] {
	return strided.Ref[T]{Data: slices.Clone(r.Data), Off: r.Off, Strides: r.Strides}
}

var extents = []int{1, 2, 3, 5, 7, 17, 33, 67}

func testShapes(rng *rand.Rand) [][]int {
	// {600} and {2, 517} have rows longer than rowBlock (the second after
	// the swap of a short fastest dimension), so strided rows are processed
	// in several blocks.
	shapes := [][]int{{}, {0}, {1}, {4, 0}, {97}, {67, 71}, {129, 3}, {3, 129}, {2, 3, 5, 7}, {600}, {2, 517}}
	big := make([]int, 32) // rank 32, 2^10 elements
	for i := range big {
		big[i] = 1 + (i%3+1)/3 // every third extent is 2
	}
	shapes = append(shapes, big)
	for range 20 {
		s := st.RandShape(rng, rng.IntN(6), extents)
		if strided.Size(s) <= 1<<12 {
			shapes = append(shapes, s)
		}
	}
	return shapes
}

func checkUnaryBinary[T strided.Scalar](t *testing.T, r par.Runner) {
	unary, binary := unaryKinds[T](t), binaryKinds[T](t)
	rng := rand.New(rand.NewPCG(3, uint64(strided.Kind[T]())))
	name := fmt.Sprintf("%T", *new(T))
	for _, shape := range testShapes(rng) {
		for rep := range 3 {
			in := st.ViewOpts{Permute: true, Negative: rep > 0, Gaps: rep > 1, Zero: rep > 0}
			out := st.ViewOpts{Permute: rep > 0, Negative: rep > 1, Gaps: rep > 0}
			a := st.RandView[T](rng, shape, in)
			b := st.RandView[T](rng, shape, in)
			alpha := st.Rand[T](rng)
			for _, k := range unary {
				dst := st.RandView[T](rng, shape, out)
				Unary(r, k, params(k, alpha), shape, dst, a)
				checkUnary(t, fmt.Sprintf("%s Unary %v shape %v a %v dst %v", name, k, shape, a.Strides, dst.Strides), k, params(k, alpha), shape, dst, a)
			}
			for _, k := range binary {
				dst := st.RandView[T](rng, shape, out)
				Binary(r, k, shape, dst, a, b)
				checkBinary(t, fmt.Sprintf("%s Binary %v shape %v a %v b %v dst %v", name, k, shape, a.Strides, b.Strides, dst.Strides), k, shape, dst, a, b)
			}
			dst := st.RandView[T](rng, shape, out)
			Fill(r, shape, dst, alpha)
			st.ForEach(shape, func(idx []int) {
				if dst.Data[st.At(dst, idx)] != alpha {
					t.Fatalf("%s Fill shape %v idx %v", name, shape, idx)
				}
			})
			if i := st.CheckGuards(dst, shape); i >= 0 {
				t.Fatalf("%s Fill shape %v: guard %d overwritten", name, shape, i)
			}
			// In place: dst coincides with an input, which then must not
			// broadcast (dst may not overlap itself).
			if !hasZero(a.Strides, shape) {
				for _, k := range unary {
					d := clone(a)
					Unary(r, k, params(k, alpha), shape, d, d)
					checkUnary(t, fmt.Sprintf("%s in-place Unary %v shape %v strides %v", name, k, shape, a.Strides), k, params(k, alpha), shape, d, a)
				}
				for _, k := range binary {
					d := clone(a)
					Binary(r, k, shape, d, d, b)
					checkBinary(t, fmt.Sprintf("%s in-place Binary %v (dst = a) shape %v", name, k, shape), k, shape, d, a, b)
					d = clone(a)
					Binary(r, k, shape, d, d, d)
					checkBinary(t, fmt.Sprintf("%s in-place Binary %v (dst = a = b) shape %v", name, k, shape), k, shape, d, a, a)
				}
			}
			if !hasZero(b.Strides, shape) {
				for _, k := range binary {
					d := clone(b)
					Binary(r, k, shape, d, a, d)
					checkBinary(t, fmt.Sprintf("%s in-place Binary %v (dst = b) shape %v", name, k, shape), k, shape, d, a, b)
				}
			}
		}
	}
}

func hasZero(strides, shape []int) bool {
	for d, s := range strides {
		if s == 0 && shape[d] > 1 {
			return true
		}
	}
	return false
}

func testAll(t *testing.T, r par.Runner) {
	checkUnaryBinary[float32](t, r)
	checkUnaryBinary[float64](t, r)
	checkUnaryBinary[complex64](t, r)
	checkUnaryBinary[complex128](t, r)
}

func TestSerial(t *testing.T) { testAll(t, nil) }

func TestParallel(t *testing.T) {
	r := st.Parallel(t, 3, &ParallelBytes, 64)
	testAll(t, r)
}

// checkBroadcast runs every binary operation with one or both inputs
// broadcast along the destination's unit-stride rows (the vector-scalar
// and scalar-vector row kernels), in both argument orders, for row lengths
// below, inside and above the tiled path's range.
func checkBroadcast[T strided.Scalar](t *testing.T) {
	rng := rand.New(rand.NewPCG(23, uint64(strided.Kind[T]())))
	name := fmt.Sprintf("%T", *new(T))
	full := viewSpec{order: []int{0, 1}}
	row := viewSpec{order: []int{0, 1}, zero: []int{0}} // one value per row
	scalar := viewSpec{order: []int{0, 1}, zero: []int{0, 1}}
	specs := []struct {
		name string
		a, b viewSpec
	}{
		{"full,row", full, row}, {"row,full", row, full}, {"row,row", row, row},
		{"full,scalar", full, scalar}, {"scalar,full", scalar, full}, {"scalar,row", scalar, row},
	}
	for _, k := range binaryKinds[T](t) {
		for _, shape := range [][]int{{5, 3}, {37, 3}, {300, 2}, {1, 7}} {
			for _, sp := range specs {
				for _, ds := range []viewSpec{full, {order: []int{0, 1}, gap: 1}, {order: []int{1, 0}}} {
					a := makeView[T](rng, shape, sp.a)
					b := makeView[T](rng, shape, sp.b)
					dst := makeView[T](rng, shape, ds)
					Binary(nil, k, shape, dst, a, b)
					checkBinary(t, fmt.Sprintf("%s Binary %v shape %v %s dst %v", name, k, shape, sp.name, dst.Strides), k, shape, dst, a, b)
				}
			}
		}
	}
}

func TestBroadcast(t *testing.T) {
	checkBroadcast[float32](t)
	checkBroadcast[float64](t)
	checkBroadcast[complex64](t)
	checkBroadcast[complex128](t)
}

// TestCatalogKernels fails when an elementwise operation of the catalog
// has no kernel or no reference, or when Supports claims a kernel for
// another operation: same-dtype operations run in Unary and Binary (and
// Abs and Angle for real dtypes), predicates in Predicate, comparisons in
// Compare, the logical operations in Logical and Where in Select (Real,
// Imag and Complex are copies of parts, which the callers make; Convert
// changes the dtype, which they do too).
func TestCatalogKernels(t *testing.T) {
	n := 0
	for _, k := range op.Kinds() {
		in := k.Info()
		cat := k.Category()
		if !cat.IsElementwise() {
			if Supports(k) || IsPredicate(k) || IsComparison(k) || IsLogical(k) {
				t.Errorf("%v (category %d) claims an elementwise kernel", k, cat)
			}
			continue
		}
		n++
		var ok bool
		switch {
		case cat == op.Select:
			ok = k == op.Where
		case k == op.Real || k == op.Imag || k == op.Complex:
			ok = true // copies of the parts, done by the caller
		case k == op.Convert:
			ok = true // a change of dtype, done by the caller
		case in.Accept == op.Bools:
			ok = IsLogical(k)
		case in.Result == op.BoolDType && cat == op.Unary:
			ok = IsPredicate(k)
		case in.Result == op.BoolDType:
			ok = IsComparison(k)
		default:
			ok = Supports(k)
		}
		if !ok {
			t.Errorf("elementwise catalog operation %v (category %d) has no kernel", k, cat)
		}
		if cat != op.Select && in.Ref == nil && in.RefReal == nil {
			t.Errorf("elementwise catalog operation %v has no reference", k)
		}
	}
	if n == 0 {
		t.Fatal("the catalog has no elementwise operations")
	}
	for _, k := range []op.Kind{op.None, op.NumKinds, op.NumKinds + 1, 1000} {
		if Supports(k) {
			t.Errorf("Supports(%v) = true", k)
		}
	}
}

// TestNoKernelPanics checks that Unary and Binary refuse an operation they
// have no kernel for.
func TestNoKernelPanics(t *testing.T) {
	v := strided.Ref[float64]{Data: make([]float64, 4), Strides: []int{1}}
	shape := []int{4}
	expectPanic := func(call string, k op.Kind, f func()) {
		t.Helper()
		defer func() {
			t.Helper()
			r := recover()
			if r == nil {
				t.Errorf("%s(%v): no panic", call, k)
				return
			}
			if s, _ := r.(string); !strings.Contains(s, "no kernel for "+k.String()) {
				t.Errorf("%s(%v): panic %v, want one naming the missing kernel", call, k, r)
			}
		}()
		f()
	}
	for _, k := range op.Kinds() {
		if cat := k.Category(); !Supports(k) || (cat != op.Unary && cat != op.Data) {
			expectPanic("Unary", k, func() { Unary(nil, k, Params[float64]{A: 1}, shape, v, v) })
		}
		if !Supports(k) || k.Category() != op.Binary {
			expectPanic("Binary", k, func() { Binary(nil, k, shape, v, v, v) })
		}
	}
	expectPanic("Unary", op.None, func() { Unary(nil, op.None, Params[float64]{A: 1}, shape, v, v) })
	expectPanic("Binary", op.None, func() { Binary(nil, op.None, shape, v, v, v) })
}

func TestAllocs(t *testing.T) {
	r := st.Parallel(t, 2, &ParallelBytes, 1024)
	shape := []int{40, 50, 3}
	a := strided.Ref[complex128]{Data: make([]complex128, 6000), Strides: []int{150, 3, 1}}
	b := strided.Ref[complex128]{Data: make([]complex128, 40), Strides: []int{1, 0, 0}}
	d := strided.Ref[complex128]{Data: make([]complex128, 6000), Strides: []int{1, 40, 2000}}
	for _, run := range []par.Runner{nil, r} {
		for _, k := range binaryKinds[complex128](t) {
			if n := testing.AllocsPerRun(20, func() { Binary(run, k, shape, d, a, b) }); n != 0 {
				t.Errorf("Binary %v (runner %v): %v allocations, want 0", k, run != nil, n)
			}
		}
		for _, k := range unaryKinds[complex128](t) {
			if n := testing.AllocsPerRun(20, func() { Unary(run, k, Params[complex128]{A: 2}, shape, d, a) }); n != 0 {
				t.Errorf("Unary %v (runner %v): %v allocations, want 0", k, run != nil, n)
			}
		}
	}
}

func ExampleBinary() {
	// c = a + b where b is a row vector broadcast over the rows of a 2x3 a.
	a := []float64{1, 2, 3, 4, 5, 6}
	b := []float64{10, 20, 30}
	out := make([]float64, 6)
	Binary(nil, op.Add, []int{2, 3},
		strided.Ref[float64]{Data: out, Strides: []int{1, 2}},
		strided.Ref[float64]{Data: a, Strides: []int{1, 2}},
		strided.Ref[float64]{Data: b, Strides: []int{0, 1}})
	fmt.Println(out)
	// Output: [11 12 23 24 35 36]
}
