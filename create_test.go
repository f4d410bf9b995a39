package tenferro

import (
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"slices"
	"testing"
)

// vec returns the elements of a rank-1 tensor widened to complex128, after
// checking that it is a compact vector of n elements.
func vec[T Elem](t *testing.T, x *Tensor[T], err error, n int) []complex128 {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(x.Shape(), []int{n}) || !x.IsCompact() {
		t.Fatalf("shape %v strides %v, want compact [%d]", x.Shape(), x.Strides(), n)
	}
	d, err := x.Data()
	if err != nil {
		t.Fatal(err)
	}
	out := make([]complex128, len(d))
	for i, v := range d {
		out[i] = widen(v)
	}
	return out
}

// dense returns the elements of a compact tensor as complex128.
func dense[T Scalar](t *testing.T, x *Tensor[T], err error, shape ...int) []complex128 {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(x.Shape(), shape) {
		t.Fatalf("shape %v, want %v", x.Shape(), shape)
	}
	r, err := x.Reshape(Numel(shape))
	return vec(t, r, err, Numel(shape))
}

// rounded returns v rounded once to T's precision, as complex128.
func rounded[T Scalar](v float64) complex128 {
	if DTypeOf[T]().Real() == Float32 {
		v = float64(float32(v))
	}
	return complex(v, 0)
}

// wantErr checks that err is of kind and names op and arg.
func wantErr(t *testing.T, err error, kind error, op, arg string) {
	t.Helper()
	var e *Error
	if !errors.Is(err, kind) || !errors.As(err, &e) || e.Op != op || e.Arg != arg {
		t.Fatalf("error %v, want %v from %s naming %q", err, kind, op, arg)
	}
}

// runScalars runs fs, the float32, float64, complex64 and complex128
// instances of one test, as subtests.
func runScalars(t *testing.T, fs ...func(*testing.T)) {
	for i, f := range fs {
		t.Run(ScalarDTypes[i].String(), f)
	}
}

func testEye[T Elem](t *testing.T) {
	ks := []int{math.MinInt, -8, -3, -2, -1, 0, 1, 2, 3, 8, math.MaxInt}
	for _, n := range []int{0, 1, 2, 3, 5, 7} {
		for _, m := range []int{0, 1, 4, 7} {
			for _, k := range ks {
				x, err := EyeK[T](n, m, k)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(x.Shape(), []int{n, m}) || !x.IsCompact() {
					t.Fatalf("EyeK(%d,%d,%d): shape %v strides %v", n, m, k, x.Shape(), x.Strides())
				}
				for i := range n {
					for j := range m {
						want := j-i == k
						if got, _ := x.At(i, j); (got != *new(T)) != want {
							t.Fatalf("EyeK(%d,%d,%d)[%d,%d] = %v", n, m, k, i, j, got)
						}
					}
				}
			}
			e, err := Eye[T](n, m)
			k0, _ := EyeK[T](n, m, 0)
			if err != nil || !slices.Equal(e.Storage(), k0.Storage()) {
				t.Fatalf("Eye(%d,%d) = %v, %v", n, m, e, err)
			}
		}
		id, err := Identity[T](n)
		e, _ := Eye[T](n, n)
		if err != nil || !slices.Equal(id.Shape(), []int{n, n}) || !slices.Equal(id.Storage(), e.Storage()) {
			t.Fatalf("Identity(%d) = %v, %v", n, id, err)
		}
	}
}

func TestEye(t *testing.T) {
	runScalars(t, testEye[float32], testEye[float64], testEye[complex64], testEye[complex128])
	t.Run("i64", testEye[int64])
	t.Run("bool", testEye[bool])
	id, _ := Identity[complex128](2)
	if d, _ := id.Data(); !slices.Equal(d, []complex128{1, 0, 0, 1}) {
		t.Fatalf("Identity[complex128](2) = %v", d)
	}
	_, err := Eye[float64](-1, 3)
	wantErr(t, err, ErrShape, "Eye", "shape")
	_, err = EyeK[float64](3, -1, 0)
	wantErr(t, err, ErrShape, "EyeK", "shape")
	_, err = Identity[float64](-2)
	wantErr(t, err, ErrShape, "Identity", "shape")
	_, err = Identity[float64](1 << 40)
	wantErr(t, err, ErrShape, "Identity", "shape")
	_, err = Identity[complex128](1 << 23)
	wantErr(t, err, ErrMemory, "Identity", "memory")
}

// arangeCase lists arguments and, where known by hand, the values.
type arangeCase struct {
	start, stop, step float64
	want              []float64 // nil: only the length n is given
	n                 int
}

var arangeCases = []arangeCase{
	{0, 5, 1, []float64{0, 1, 2, 3, 4}, 5},
	{5, 1, -1.5, []float64{5, 3.5, 2}, 3},
	{-3, 3, 2, []float64{-3, -1, 1}, 3},
	{0, 1, 0.3, []float64{0, 0.3, 0.6, 0.8999999999999999}, 4},
	{1, 1.3, 0.1, nil, 4},                                                            // (1.3-1)/0.1 rounds to 3.0000000000000004: 1.3 is in
	{0, 1e-300, 1e300, []float64{0}, 1},                                              // the quotient underflows: one element
	{0, -1e-300, 1e300, nil, 0},                                                      // ... negatively: none
	{1, 1, 1, nil, 0}, {2, 1, 1, nil, 0}, {1, 2, -1, nil, 0}, {0.5, 0.5, -1, nil, 0}, // empty
	{0, 7, 7, []float64{0}, 1},
	{1, 2, 0.1, nil, 10},
	{-10, 10, 0.7, nil, 29},
	{0, 100, 0.1, nil, 1000},
	{1e15, 1e15 + 10, 3, nil, 4},
}

func testArange[T Scalar](t *testing.T) {
	for _, c := range arangeCases {
		x, err := Arange[T](c.start, c.stop, c.step)
		got := vec(t, x, err, c.n)
		for i, g := range got {
			want := rounded[T](c.start + float64(float64(i)*c.step))
			if c.want != nil && want != rounded[T](c.want[i]) {
				t.Fatalf("reference of Arange(%g, %g, %g)[%d] = %v, by hand %v", c.start, c.stop, c.step, i, want, c.want[i])
			}
			if g != want {
				t.Fatalf("Arange(%g, %g, %g)[%d] = %v, want %v", c.start, c.stop, c.step, i, g, want)
			}
		}
	}
}

func TestArange(t *testing.T) {
	runScalars(t, testArange[float32], testArange[float64], testArange[complex64], testArange[complex128])

	// Values are start + i*step, not a running sum: the two differ here.
	x, _ := Arange[float64](0, 100, 0.1)
	d, _ := x.Data()
	sum, differs := 0.0, false
	for i, v := range d {
		if v != float64(i)*0.1 {
			t.Fatalf("Arange(0, 100, 0.1)[%d] = %v", i, v)
		}
		differs = differs || sum != v
		sum += 0.1
	}
	if !differs {
		t.Fatal("the running sum equals i*step: the case proves nothing")
	}
	// One rounding to float32 (NumPy's float32 arange gives 0.90000004).
	f, _ := Arange[float32](0, 1, 0.3)
	if v, _ := f.At(3); v != float32(0.9) {
		t.Fatalf("Arange[float32](0, 1, 0.3)[3] = %v, want %v", v, float32(0.9))
	}

	nan, inf := math.NaN(), math.Inf(1)
	for _, c := range []struct {
		start, stop, step float64
		kind              error
		arg               string
	}{
		{nan, 1, 1, ErrArgument, "start"}, {-inf, 1, 1, ErrArgument, "start"},
		{0, nan, 1, ErrArgument, "stop"}, {0, inf, 1, ErrArgument, "stop"},
		{0, 1, nan, ErrArgument, "step"}, {0, 1, -inf, ErrArgument, "step"},
		{0, 1, 0, ErrArgument, "step"}, {0, 1, math.Copysign(0, -1), ErrArgument, "step"},
		{0, 1e20, 1, ErrShape, "stop"}, {0, 1 << 46, 0.5, ErrShape, "stop"},
		{-1e308, 1e308, 1, ErrShape, "stop"}, // stop - start overflows
		{0, 1 << 45, 1, ErrMemory, "memory"},
	} {
		_, err := Arange[float64](c.start, c.stop, c.step)
		wantErr(t, err, c.kind, "Arange", c.arg)
	}
}

func testArangeN[T Scalar | int64](t *testing.T) {
	for _, n := range []int{0, 1, 2, 7} {
		x, err := ArangeN[T](n)
		for i, v := range vec(t, x, err, n) {
			if v != complex(float64(i), 0) {
				t.Fatalf("ArangeN(%d)[%d] = %v", n, i, v)
			}
		}
	}
	_, err := ArangeN[T](-1)
	wantErr(t, err, ErrShape, "ArangeN", "shape")
	_, err = ArangeN[T](1 << 45)
	wantErr(t, err, ErrMemory, "ArangeN", "memory")
}

func TestArangeN(t *testing.T) {
	runScalars(t, testArangeN[float32], testArangeN[float64], testArangeN[complex64], testArangeN[complex128])
	t.Run("i64", testArangeN[int64])
}

// linspaceRef is NumPy's linspace written out for one element: the step
// (stop-start)/div, i*step + start, (i/div)*delta + start when the step
// underflows, i*delta + start when div is 0, and stop at the end.
func linspaceRef(start, stop float64, n int, endpoint bool, i int) float64 {
	div := n
	if endpoint {
		div--
	}
	if endpoint && n > 1 && i == n-1 {
		return stop
	}
	delta := stop - start
	y := float64(i)
	switch {
	case div <= 0:
		y = float64(y * delta)
	case delta/float64(div) == 0:
		y = float64(y/float64(div)) * delta
	default:
		y = float64(y * (delta / float64(div)))
	}
	return y + start
}

type linspaceCase struct {
	start, stop float64
	n           int
	endpoint    bool
	want        []float64 // by hand, where known
}

var linspaceCases = []linspaceCase{
	{0, 1, 5, true, []float64{0, 0.25, 0.5, 0.75, 1}},
	{0, 1, 5, false, []float64{0, 0.2, 0.4, 0.6000000000000001, 0.8}},
	{1, 0, 3, true, []float64{1, 0.5, 0}},
	{2, 2, 3, true, []float64{2, 2, 2}},
	{3, 9, 1, true, []float64{3}},
	{3, 9, 1, false, []float64{3}},
	{3, 9, 0, true, []float64{}},
	{3, 9, 0, false, []float64{}},
	{-1, 1, 2, true, []float64{-1, 1}},
	{0, 5e-324, 4, true, []float64{0, 0, 5e-324, 5e-324}}, // the step underflows
	{-1e308, 1e308, 3, true, []float64{-1e308, 0, 1e308}}, // delta overflows
	{0.2, 0.9, 8, true, nil},                              // 7*step + start misses stop
	{0, 0.1, 3, true, nil},
	{-2.5, 17.25, 13, false, nil},
	{1e-3, 1e3, 97, true, nil},
	{-7, -7.000001, 11, true, nil},
}

func testLinspace[T Scalar](t *testing.T) {
	for _, c := range linspaceCases {
		x, err := Linspace[T](c.start, c.stop, c.n, c.endpoint)
		got := vec(t, x, err, c.n)
		for i, g := range got {
			ref := linspaceRef(c.start, c.stop, c.n, c.endpoint, i)
			// Where stop - start overflows NumPy's formula gives NaN and Inf.
			numpyFails := math.IsInf(c.stop-c.start, 0)
			if c.want != nil && ref != c.want[i] && !numpyFails {
				t.Fatalf("reference of %+v [%d] = %v, by hand %v", c, i, ref, c.want[i])
			}
			if c.want != nil {
				ref = c.want[i]
			}
			if want := rounded[T](ref); g != want {
				t.Fatalf("Linspace%+v [%d] = %v, want %v", c, i, g, want)
			}
		}
		if c.endpoint && c.n > 1 && got[c.n-1] != rounded[T](c.stop) {
			t.Fatalf("Linspace%+v ends at %v, not stop", c, got[c.n-1])
		}
	}
}

func TestLinspace(t *testing.T) {
	runScalars(t, testLinspace[float32], testLinspace[float64], testLinspace[complex64], testLinspace[complex128])

	// The endpoint is set, not computed: here the formula misses stop.
	start, stop := 0.2, 0.9
	if float64(7*((stop-start)/7))+start == stop {
		t.Fatal("i*step + start reaches stop: the endpoint case proves nothing")
	}
	for _, c := range []struct {
		start, stop float64
		arg         string
	}{{math.NaN(), 1, "start"}, {math.Inf(-1), 1, "start"}, {0, math.NaN(), "stop"}, {0, math.Inf(1), "stop"}} {
		_, err := Linspace[float64](c.start, c.stop, 3, true)
		wantErr(t, err, ErrArgument, "Linspace", c.arg)
		_, err = Logspace[float64](c.start, c.stop, 3, true, 10)
		wantErr(t, err, ErrArgument, "Logspace", c.arg)
	}
	_, err := Linspace[float64](0, 1, -1, true)
	wantErr(t, err, ErrShape, "Linspace", "shape")
	_, err = Linspace[complex128](0, 1, 1<<44, false)
	wantErr(t, err, ErrMemory, "Linspace", "memory")
}

func testLogspace[T Scalar](t *testing.T) {
	for _, base := range []float64{10, 2, math.E, 0.5, -2} {
		for _, c := range linspaceCases[:9] {
			x, err := Logspace[T](c.start, c.stop, c.n, c.endpoint, base)
			got := vec(t, x, err, c.n)
			for i, g := range got {
				if want := rounded[T](math.Pow(base, c.want[i])); g != want && !(g != g && want != want) {
					t.Fatalf("Logspace%+v base %g [%d] = %v, want %v", c, base, i, g, want)
				}
			}
		}
	}
	for _, c := range []struct {
		start, stop float64
		n           int
		endpoint    bool
		base        float64
		want        []float64
	}{
		{0, 3, 4, true, 10, []float64{1, 10, 100, 1000}},
		{0, 4, 4, false, 2, []float64{1, 2, 4, 8}},
		{0, 3, 4, true, -2, []float64{1, -2, 4, -8}},
		{-2, 0, 3, true, 10, []float64{0.01, 0.1, 1}},
		{1, 400, 2, true, 10, []float64{10, math.Inf(1)}},
	} {
		x, err := Logspace[T](c.start, c.stop, c.n, c.endpoint, c.base)
		got := vec(t, x, err, c.n)
		for i, g := range got {
			if want := rounded[T](c.want[i]); g != want {
				t.Fatalf("Logspace%+v [%d] = %v, want %v", c, i, g, want)
			}
		}
	}
}

func TestLogspace(t *testing.T) {
	runScalars(t, testLogspace[float32], testLogspace[float64], testLogspace[complex64], testLogspace[complex128])
	for _, b := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		_, err := Logspace[float64](0, 1, 3, true, b)
		wantErr(t, err, ErrArgument, "Logspace", "base")
	}
	_, err := Logspace[float32](0, 1, -3, true, 10)
	wantErr(t, err, ErrShape, "Logspace", "shape")
}

// TestCreationNumPy compares Arange, Linspace, Logspace and EyeK with
// NumPy on fixed and random arguments. It is skipped when python3 with
// NumPy is not installed.
func TestCreationNumPy(t *testing.T) {
	const python = "/usr/bin/python3"
	if err := exec.Command(python, "-c", "import numpy").Run(); err != nil {
		t.Skipf("python3 with numpy not available: %v", err)
	}
	var in struct {
		Arange   [][3]float64 `json:"arange"`
		Linspace [][]any      `json:"linspace"`
		Eye      [][3]int     `json:"eye"`
	}
	for _, c := range arangeCases {
		in.Arange = append(in.Arange, [3]float64{c.start, c.stop, c.step})
	}
	var lins []linspaceCase
	for _, c := range linspaceCases {
		if !math.IsInf(c.stop-c.start, 0) { // NumPy gives NaN there
			lins = append(lins, c)
		}
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 60 {
		start, stop := (rng.Float64()-0.5)*math.Pow(10, float64(rng.IntN(7)-2)), (rng.Float64()-0.5)*math.Pow(10, float64(rng.IntN(7)-2))
		step := (stop - start) / (1 + 40*rng.Float64())
		if rng.IntN(4) == 0 {
			step = -step // an empty range
		}
		in.Arange = append(in.Arange, [3]float64{start, stop, step})
		lins = append(lins, linspaceCase{start, stop, rng.IntN(50), rng.IntN(2) == 0, nil})
	}
	// Logspace: exponents within ±20 keep every power finite.
	exps := func(c linspaceCase) (float64, float64) { return math.Mod(c.start, 20), math.Mod(c.stop, 20) }
	bases := []float64{10, 2, math.E, 0.5, 3.7}
	for i, c := range lins {
		s, e := exps(c)
		in.Linspace = append(in.Linspace, []any{c.start, c.stop, c.n, c.endpoint, s, e, bases[i%len(bases)]})
	}
	for _, n := range []int{0, 1, 3, 5} {
		for _, m := range []int{0, 1, 4} {
			for _, k := range []int{-6, -1, 0, 2, 4} {
				in.Eye = append(in.Eye, [3]int{n, m, k})
			}
		}
	}
	js, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	path := t.TempDir() + "/cases.json"
	if err := os.WriteFile(path, js, 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := exec.Command(python, "-c", creationScript, path).Output()
	if err != nil {
		t.Fatalf("numpy script: %v", err)
	}
	var out struct {
		Arange, Linspace [][][]float64
		Eye              [][]float64
	}
	if err := json.Unmarshal(res, &out); err != nil {
		t.Fatal(err)
	}
	if len(out.Arange) != len(in.Arange) || len(out.Linspace) != len(in.Linspace) || len(out.Eye) != len(in.Eye) {
		t.Fatal("NumPy answered a different number of cases")
	}
	const eps = 0x1p-52
	for ci, c := range in.Arange {
		x, err := Arange[float64](c[0], c[1], c[2])
		got := vec(t, x, err, len(out.Arange[ci][0]))
		for i, g := range got {
			np, f := out.Arange[ci][0][i], out.Arange[ci][1][i]
			// NumPy steps by (start+step)-start, off from step by half an ulp of start+step.
			tol := 2 * eps * (float64(i+1)*(math.Abs(c[0])+math.Abs(c[2])) + math.Abs(np))
			if real(g) != f || math.Abs(real(g)-np) > tol {
				t.Fatalf("Arange%v[%d] = %v; start + i*step = %v, NumPy %v", c, i, g, f, np)
			}
		}
	}
	for ci, c := range lins {
		x, err := Linspace[float64](c.start, c.stop, c.n, c.endpoint)
		y, err32 := Linspace[float32](c.start, c.stop, c.n, c.endpoint)
		g64, g32, w := vec(t, x, err, c.n), vec(t, y, err32, c.n), out.Linspace[ci]
		for i := range g64 {
			if real(g64[i]) != w[0][i] || real(g32[i]) != w[1][i] {
				t.Fatalf("Linspace%+v[%d] = %v, %v; NumPy %v, %v", c, i, g64[i], g32[i], w[0][i], w[1][i])
			}
		}
		s, e := exps(c)
		base := bases[ci%len(bases)]
		x, err = Logspace[float64](s, e, c.n, c.endpoint, base)
		y, err32 = Logspace[float32](s, e, c.n, c.endpoint, base)
		g64, g32 = vec(t, x, err, c.n), vec(t, y, err32, c.n)
		for i := range g64 {
			// Go's math.Pow and C's pow may differ in the last places.
			if math.Abs(real(g64[i])-w[2][i]) > 4*eps*math.Abs(w[2][i]) || math.Abs(real(g32[i])-w[3][i]) > 0x1p-23*math.Abs(w[3][i]) {
				t.Fatalf("Logspace(%g, %g, %d, %v, %g)[%d] = %v, %v; NumPy %v, %v", s, e, c.n, c.endpoint, base, i, g64[i], g32[i], w[2][i], w[3][i])
			}
		}
	}
	for ci, c := range in.Eye {
		x, err := EyeK[float64](c[0], c[1], c[2])
		want, _ := FromSlice(out.Eye[ci], len(out.Eye[ci]))
		if got := dense(t, x, err, c[0], c[1]); !slices.Equal(got, dense(t, want, nil, c[0]*c[1])) {
			t.Fatalf("EyeK%v = %v, NumPy %v", c, got, out.Eye[ci])
		}
	}
}

// TestFullNegativeZero: Full keeps the sign of a negative zero (NumPy's
// np.full(n, -0.0) holds -0.0), in every float and complex part, and
// Zeros stays +0.
func TestFullNegativeZero(t *testing.T) {
	nz := math.Copysign(0, -1)
	f64, _ := Full(nz, 3)
	f32, _ := Full(float32(nz), 3)
	c128, _ := Full(complex(0, nz), 3)
	c64, _ := Full(complex64(complex(nz, 0)), 3)
	z, _ := Zeros[float64](3)
	d64, _ := f64.Data()
	d32, _ := f32.Data()
	dc128, _ := c128.Data()
	dc64, _ := c64.Data()
	dz, _ := z.Data()
	for i := range 3 {
		if !math.Signbit(d64[i]) || !math.Signbit(float64(d32[i])) || math.Signbit(real(dc128[i])) || !math.Signbit(imag(dc128[i])) ||
			!math.Signbit(float64(real(dc64[i]))) || math.Signbit(dz[i]) {
			t.Fatalf("element %d: %v %v %v %v, zeros %v", i, d64[i], d32[i], dc128[i], dc64[i], dz[i])
		}
	}
}
