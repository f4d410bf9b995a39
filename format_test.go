package tenferro

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// must returns x and panics (failing the test) on err: for building
// inputs that cannot fail.
func must[X any](x X, err error) X {
	if err != nil {
		panic(err)
	}
	return x
}

// rowMajor returns a tensor of shape whose element at row-major position p
// is p.
func rowMajor(shape ...int) *Tensor[float64] {
	return must(FromRowMajor(seq(Numel(shape)), shape...))
}

func TestFormatExact(t *testing.T) {
	f64 := func(data []float64, shape ...int) *Tensor[float64] { return must(FromRowMajor(data, shape...)) }
	released := f64([]float64{1, 2}, 2)
	released.Release()
	neg := must(FromRowMajor([]int64{-12, 3, 0, 456, 7, -8}, 2, 3))
	c := must(FromRowMajor([]complex128{1 + 2i, -3.5i, 4, complex(math.Inf(1), math.NaN())}, 2, 2))
	f32 := must(FromRowMajor([]float32{0.1, 1e6, -2.5}, 3))
	cases := []struct {
		name, format string
		x            fmt.Formatter
		want         string
	}{
		{"1-D", "%v", f64([]float64{1, 2, 3}, 3), "Tensor[f64] (3,)\n[1 2 3]"},
		{"2-D", "%v", f64(seq(6), 2, 3), "Tensor[f64] (2, 3)\n[[0 1 2]\n [3 4 5]]"},
		{"align", "%v", f64([]float64{1, 2.5, -30, 4}, 2, 2), "Tensor[f64] (2, 2)\n[[  1 2.5]\n [-30   4]]"},
		{"3-D", "%v", f64(seq(12), 2, 3, 2), "Tensor[f64] (2, 3, 2)\n" +
			"[[[ 0  1]\n  [ 2  3]\n  [ 4  5]]\n\n [[ 6  7]\n  [ 8  9]\n  [10 11]]]"},
		{"4-D", "%v", f64(seq(8), 2, 2, 1, 2), "Tensor[f64] (2, 2, 1, 2)\n" +
			"[[[[0 1]]\n\n  [[2 3]]]\n\n\n [[[4 5]]\n\n  [[6 7]]]]"},
		{"column", "%v", f64([]float64{1, 2}, 2, 1), "Tensor[f64] (2, 1)\n[[1]\n [2]]"},
		{"0-d", "%v", f64([]float64{2.5}), "Tensor[f64] ()\n2.5"},
		{"0-d %.2f", "%.2f", f64([]float64{2.5}), "Tensor[f64] ()\n2.50"},
		{"empty", "%v", f64(nil, 0), "Tensor[f64] (0,)\n[]"},
		{"empty 2x0", "%v", must(Zeros[int64](2, 0)), "Tensor[i64] (2, 0)\n[]"},
		{"empty 0x3", "%.3f", must(Zeros[float32](0, 3)), "Tensor[f32] (0, 3)\n[]"},
		{"int64", "%v", neg, "Tensor[i64] (2, 3)\n[[-12   3   0]\n [456   7  -8]]"},
		{"int64 %d", "%05d", neg, "Tensor[i64] (2, 3)\n[[-0012 00003 00000]\n [00456 00007 -0008]]"},
		{"bool", "%v", must(FromRowMajor([]bool{true, false, false, true}, 2, 2)), "Tensor[bool] (2, 2)\n[[ true false]\n [false  true]]"},
		{"bool %t", "%t", must(FromRowMajor([]bool{false}, 1)), "Tensor[bool] (1,)\n[false]"},
		{"complex", "%v", c, "Tensor[c128] (2, 2)\n[[     (1+2i)    (0-3.5i)]\n [     (4+0i) (+Inf+NaNi)]]"},
		{"complex %.1f", "%.1f", c, "Tensor[c128] (2, 2)\n[[ (1.0+2.0i)  (0.0-3.5i)]\n [ (4.0+0.0i) (+Inf+NaNi)]]"},
		{"complex64", "%v", must(FromRowMajor([]complex64{0.1 + 0.2i}, 1)), "Tensor[c64] (1,)\n[(0.1+0.2i)]"},
		{"float32 shortest", "%v", f32, "Tensor[f32] (3,)\n[  0.1 1e+06  -2.5]"},
		{"special", "%v", f64([]float64{math.NaN(), math.Inf(-1), math.Copysign(0, -1)}, 3), "Tensor[f64] (3,)\n[ NaN -Inf   -0]"},
		{"%s", "%s", f64([]float64{1, 2}, 2), "Tensor[f64] (2,)\n[1 2]"},
		{"%.3f", "%.3f", f64([]float64{1, -2.25}, 2), "Tensor[f64] (2,)\n[ 1.000 -2.250]"},
		{"%8.2f", "%8.2f", f64([]float64{1, -2.25}, 2), "Tensor[f64] (2,)\n[    1.00    -2.25]"},
		{"%-8.2f", "%-8.2f", f64([]float64{1, -2.25}, 2), "Tensor[f64] (2,)\n[1.00     -2.25   ]"},
		{"width below widest", "%2.0f", f64([]float64{1, 12345}, 2), "Tensor[f64] (2,)\n[    1 12345]"},
		{"%e", "%e", f64([]float64{1, 1234.5}, 2), "Tensor[f64] (2,)\n[1.000000e+00 1.234500e+03]"},
		{"%.2e", "%.2e", f64([]float64{1, 1234.5}, 2), "Tensor[f64] (2,)\n[1.00e+00 1.23e+03]"},
		{"%g", "%g", f64([]float64{1e-7, 100}, 2), "Tensor[f64] (2,)\n[1e-07   100]"},
		{"%+.1f sign", "%+.1f", f64([]float64{1, -2}, 2), "Tensor[f64] (2,)\n[+1.0 -2.0]"},
		{"%+v", "%+v", f64(seq(6), 2, 3), "Tensor[f64] (2, 3) strides (1, 2) offset 0\n[[0 1 2]\n [3 4 5]]"},
		{"%+v released", "%+v", released, "Tensor[f64] (2,) strides (1,) offset 0 <released>"},
		{"wrong verb", "%d", f64([]float64{1}, 1), "Tensor[f64] (1,)\n[%!d(float64=1)]"},
		{"released", "%v", released, "Tensor[f64] (2,) <released>"},
		{"released %.2f", "%.2f", released, "Tensor[f64] (2,) <released>"},
		{"nil", "%v", (*Tensor[float32])(nil), "Tensor[f32] <nil>"},
		{"nil %+.3e", "%+.3e", (*Tensor[complex64])(nil), "Tensor[c64] <nil>"},
		{"zero", "%v", &Tensor[bool]{}, "Tensor[bool] <zero Tensor>"},
		{"Value", "%v", ValueOf(f64([]float64{1, 2}, 2)), "Tensor[f64] (2,)\n[1 2]"},
		{"Value %.1f", "%.1f", ValueOf(neg), "Tensor[i64] (2, 3)\n[[%!f(int64=-12)   %!f(int64=3)   %!f(int64=0)]\n [%!f(int64=456)   %!f(int64=7)  %!f(int64=-8)]]"},
		{"empty Value", "%.2f", Value{}, "Value(empty)"},
	}
	for _, c := range cases {
		if got := fmt.Sprintf(c.format, c.x); got != c.want {
			t.Errorf("%s: Sprintf(%q) =\n%s\nwant\n%s", c.name, c.format, got, c.want)
		}
		if c.format != "%v" {
			continue
		}
		s, ok := c.x.(fmt.Stringer)
		if !ok {
			t.Fatalf("%s: %T is no fmt.Stringer", c.name, c.x)
		}
		if got := s.String(); got != c.want {
			t.Errorf("%s: String() =\n%s\nwant\n%s", c.name, got, c.want)
		}
	}
}

// viewsOf returns views of awkward layouts (transposed, permuted, sliced
// with steps and offsets, reversed, broadcast, diagonal) of tensors that mk
// makes, by name. mk is called in a fixed order.
func viewsOf[T Elem](mk func(shape ...int) *Tensor[T]) map[string]*Tensor[T] {
	x := mk(5, 7)
	y := mk(3, 4, 5)
	big := mk(41, 53)
	col := mk(3, 1)
	one := mk()
	return map[string]*Tensor[T]{
		"transpose":       must(x.Transpose()),
		"permute":         must(y.Permute(2, 0, 1)),
		"slice step":      must(must(x.Slice(1, 1, 7, 2)).Slice(0, 4, 0, -3)),
		"slice offset":    must(y.Slice(2, 3, 5, 1)),
		"reverse":         must(y.Reverse(-1)),
		"broadcast":       must(col.Broadcast(3, 4)),
		"broadcast 0-d":   must(one.Broadcast(2, 3)),
		"diagonal":        must(y.Diagonal(1, 2)),
		"big transpose":   must(big.Transpose()),
		"big reverse":     must(must(big.Reverse(0)).Slice(1, 52, -1, -2)),
		"big broadcast":   must(col.Broadcast(3, 500)),
		"reshape of view": must(must(y.Slice(0, 1, 3, 1)).Reshape(2, 20)),
		"single":          must(x.Slice(0, 2, 3, 1)),
	}
}

// A view prints exactly as its compact copy, with every verb.
func TestFormatViewsMatchClone(t *testing.T) {
	for name, v := range viewsOf(rowMajor) {
		c := must(v.Clone())
		if !c.IsCompact() {
			t.Fatalf("%s: clone not compact", name)
		}
		for _, verb := range []string{"%v", "%.3f", "%#v", "%8.1e", "%s"} {
			got, want := fmt.Sprintf(verb, v), fmt.Sprintf(verb, c)
			if got != want {
				t.Errorf("%s %s: view prints\n%s\nclone prints\n%s", name, verb, got, want)
			}
		}
		if v.String() != c.String() {
			t.Errorf("%s: String differs from the clone's", name)
		}
	}
	// The layout header tells them apart.
	v := viewsOf(rowMajor)["transpose"]
	if got, want := fmt.Sprintf("%+v", v)[:40], "Tensor[f64] (7, 5) strides (5, 1) offset"; got != want {
		t.Errorf("%%+v header %q, want %q", got, want)
	}
}

// printed returns the indices of an axis of extent n that a summarized (or
// full) printout shows.
func printed(n int, summary bool) []int {
	var s []int
	for i := range n {
		if !summary || n <= 2*PrintEdgeItems || i < PrintEdgeItems || i >= n-PrintEdgeItems {
			s = append(s, i)
		}
	}
	return s
}

// checkStructure checks the printout of rowMajor(shape) against a model:
// the header, the number of brackets and ellipses, and the elements shown
// (each its row-major position, in order).
func checkStructure(t *testing.T, shape []int, full bool) {
	t.Helper()
	x := rowMajor(shape...)
	format := "%v"
	if full {
		format = "%#v"
	}
	out := fmt.Sprintf(format, x)
	header, body, ok := strings.Cut(out, "\n")
	if !ok || header != "Tensor[f64] "+string(appendTuple(nil, shape)) {
		t.Fatalf("shape %v: header %q", shape, header)
	}
	n := Numel(shape)
	if n == 0 {
		if body != "[]" {
			t.Fatalf("shape %v: empty tensor prints %q", shape, body)
		}
		return
	}
	summary := !full && n > PrintThreshold
	// Model: brackets = Σ_d Π_{k<d} m_k, ellipses = Σ_d [axis d is cut]·Π_{k<d} m_k,
	// and the elements are the row-major positions of the shown indices.
	brackets, ellipses, blocks := 0, 0, 1
	var want []int
	want = append(want, 0)
	for d, e := range shape {
		m := printed(e, summary)
		brackets += blocks
		if len(m) < e {
			ellipses += blocks
		}
		blocks *= len(m)
		next := make([]int, 0, len(want)*len(m))
		for _, p := range want {
			for _, i := range m {
				next = append(next, p*shape[d]+i)
			}
		}
		want = next
	}
	if got := strings.Count(body, "["); got != brackets || strings.Count(body, "]") != brackets {
		t.Fatalf("shape %v: %d brackets, want %d", shape, got, brackets)
	}
	if got := strings.Count(body, "..."); got != ellipses {
		t.Fatalf("shape %v: %d ellipses, want %d", shape, got, ellipses)
	}
	var got []int
	for _, f := range strings.Fields(strings.NewReplacer("[", " ", "]", " ", "...", " ").Replace(body)) {
		v, err := strconv.Atoi(f)
		if err != nil {
			t.Fatalf("shape %v: element %q", shape, f)
		}
		got = append(got, v)
	}
	if len(got) != len(want) {
		t.Fatalf("shape %v: %d elements shown, want %d", shape, len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("shape %v: element %d is %d, want %d", shape, i, got[i], want[i])
		}
	}
	// Columns line up: every element occupies the width of the widest.
	width := len(strconv.Itoa(want[len(want)-1]))
	for _, line := range strings.Split(body, "\n") {
		for _, f := range strings.Fields(strings.Trim(line, "[] ")) {
			f = strings.Trim(f, "[]")
			if f != "..." && f != "" && len(f) > width {
				t.Fatalf("shape %v: element %q wider than %d", shape, f, width)
			}
		}
	}
}

func TestFormatStructure(t *testing.T) {
	shapes := [][]int{
		{}, {1}, {0}, {2}, {7}, {3, 0, 2}, {1, 1}, {2, 3}, {5, 1, 3}, {2, 3, 2, 2}, {1, 2, 1, 2, 1, 3},
		{1000}, {1001}, {2000}, {40, 50}, {1001, 1}, {1, 1001}, {7, 1, 143}, {3, 7, 100}, {11, 13, 7}, {2, 2, 2, 2, 2, 2, 2, 2, 2, 2},
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 40 {
		s := make([]int, r.IntN(5))
		for d := range s {
			s[d] = r.IntN(9)
		}
		shapes = append(shapes, s)
	}
	for _, s := range shapes {
		checkStructure(t, s, false)
		checkStructure(t, s, true)
	}
}

func TestFormatSummary(t *testing.T) {
	x := rowMajor(2000)
	if got, want := x.String(), "Tensor[f64] (2000,)\n[   0    1    2 ... 1997 1998 1999]"; got != want {
		t.Errorf("(2000,):\n%s\nwant\n%s", got, want)
	}
	y := rowMajor(20, 100)
	want := "Tensor[f64] (20, 100)\n" +
		"[[   0    1    2 ...   97   98   99]\n" +
		" [ 100  101  102 ...  197  198  199]\n" +
		" [ 200  201  202 ...  297  298  299]\n" +
		" ...\n" +
		" [1700 1701 1702 ... 1797 1798 1799]\n" +
		" [1800 1801 1802 ... 1897 1898 1899]\n" +
		" [1900 1901 1902 ... 1997 1998 1999]]"
	if got := y.String(); got != want {
		t.Errorf("(20, 100):\n%s\nwant\n%s", got, want)
	}
	z := rowMajor(2, 10, 100)
	want = "Tensor[f64] (2, 10, 100)\n" +
		"[[[   0    1    2 ...   97   98   99]\n" +
		"  [ 100  101  102 ...  197  198  199]\n" +
		"  [ 200  201  202 ...  297  298  299]\n" +
		"  ...\n" +
		"  [ 700  701  702 ...  797  798  799]\n" +
		"  [ 800  801  802 ...  897  898  899]\n" +
		"  [ 900  901  902 ...  997  998  999]]\n" +
		"\n" +
		" [[1000 1001 1002 ... 1097 1098 1099]\n" +
		"  [1100 1101 1102 ... 1197 1198 1199]\n" +
		"  [1200 1201 1202 ... 1297 1298 1299]\n" +
		"  ...\n" +
		"  [1700 1701 1702 ... 1797 1798 1799]\n" +
		"  [1800 1801 1802 ... 1897 1898 1899]\n" +
		"  [1900 1901 1902 ... 1997 1998 1999]]]"
	if got := z.String(); got != want {
		t.Errorf("(2, 10, 100):\n%s\nwant\n%s", got, want)
	}
	w := rowMajor(1000, 1, 1) // the threshold itself prints in full
	if strings.Contains(w.String(), "...") || !strings.Contains(rowMajor(7, 11, 13).String(), "...") {
		t.Error("summarization does not start just above PrintThreshold")
	}
	_, body, _ := strings.Cut(fmt.Sprintf("%#.0f", x), "\n")
	if got := len(strings.Fields(strings.Trim(body, "[]"))); got != 2000 || strings.Contains(body, "...") {
		t.Errorf("%%#v shows %d elements, want 2000", got)
	}
}

// Value prints its tensor as the tensor prints itself.
func TestFormatValue(t *testing.T) {
	x := must(FromRowMajor([]complex64{1, 2i, -3}, 3, 1))
	v := ValueOf(x)
	if v.String() != x.String() || fmt.Sprint(v) != x.String() {
		t.Errorf("Value prints %q, tensor %q", v.String(), x.String())
	}
	if got, want := fmt.Sprintf("%+.2f", v), fmt.Sprintf("%+.2f", x); got != want {
		t.Errorf("Value %%+.2f %q, tensor %q", got, want)
	}
	if got := (Value{}).String(); got != "Value(empty)" {
		t.Errorf("empty Value prints %q", got)
	}
}
