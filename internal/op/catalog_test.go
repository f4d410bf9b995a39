package op

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
)

// TestCatalogEntries checks that every entry is complete: a name, an Into
// name, argument names matching its category, accepted dtypes, and
// references for the categories the conformance suites check by value.
func TestCatalogEntries(t *testing.T) {
	arity := map[Category]int{Data: 1, Unary: 1, Binary: 2, Select: 3, Reduction: 1, Scan: 1, Structural: 1}
	seen := map[string]bool{}
	for _, k := range Kinds() {
		in := k.Info()
		if in.Name == "" || in.Into != in.Name+"Into" || seen[in.Name] {
			t.Errorf("%d: name %q, Into %q (names must be unique, Into = name+Into)", k, in.Name, in.Into)
		}
		seen[in.Name] = true
		if in.Category == 0 || in.Accept == 0 {
			t.Errorf("%v: category %d, dtypes %v", k, in.Category, in.Accept)
		}
		if n, ok := arity[in.Category]; ok && in.Args != nil && len(in.Args) != n { // nil Args: variadic
			t.Errorf("%v: %d argument names, want %d for its category", k, len(in.Args), n)
		}
		switch in.Category {
		case Reduction, Scan:
			if in.RefReduce == nil {
				t.Errorf("%v: no reference function", k)
			}
		case Data, Unary, Binary:
			if in.Ref == nil && in.RefReal == nil {
				t.Errorf("%v: no reference function", k)
			}
			if in.Accept&Complexes != 0 && in.Ref == nil {
				t.Errorf("%v accepts complex dtypes but has no complex reference", k)
			}
			if in.Accept&Complexes == 0 && in.Accept&Floats != 0 && (in.Ref != nil) != (in.Result == ComplexDType) {
				t.Errorf("%v accepts real dtypes only: it has a complex reference exactly when its result is complex", k)
			}
		}
		if in.Generated && in.Doc == "" {
			t.Errorf("%v: generated wrappers need the math in Doc", k)
		}
		if in.Commutative && in.Category != Binary {
			t.Errorf("%v: only binary operations can be commutative", k)
		}
		if k.String() != in.Name {
			t.Errorf("%v: String() = %q", k, k.String())
		}
	}
	if NumKinds.Valid() || None.Valid() || NumKinds.Info().Name != "" {
		t.Error("None and NumKinds are not operations")
	}
}

// TestPromote pins the promotion table of the package documentation.
func TestPromote(t *testing.T) {
	order := []DType{Bool, Int64, Float32, Float64, Complex64, Complex128}
	table := []string{
		"bool i64 f32 f64 c64 c128",
		"i64 i64 f64 f64 c128 c128",
		"f32 f64 f32 f64 c64 c128",
		"f64 f64 f64 f64 c128 c128",
		"c64 c128 c64 c128 c64 c128",
		"c128 c128 c128 c128 c128 c128",
	}
	for i, a := range order {
		want := strings.Fields(table[i])
		for j, b := range order {
			if got := Promote(a, b).String(); got != want[j] {
				t.Errorf("Promote(%v, %v) = %v, want %v", a, b, got, want[j])
			}
			if Promote(a, b) != Promote(b, a) {
				t.Errorf("Promote(%v, %v) is not symmetric", a, b)
			}
		}
	}
	if Promote(InvalidDType, Float32) != InvalidDType {
		t.Error("invalid dtypes promote to invalid")
	}
	for _, c := range []struct{ d, real DType }{{Complex64, Float32}, {Complex128, Float64}, {Float32, Float32}, {Int64, Int64}, {Bool, Bool}} {
		if c.d.Real() != c.real {
			t.Errorf("%v.Real() = %v, want %v", c.d, c.d.Real(), c.real)
		}
	}
	for _, c := range []struct{ d, cplx DType }{{Float32, Complex64}, {Float64, Complex128}, {Complex64, Complex64}, {Complex128, Complex128}, {Int64, Complex128}, {Bool, InvalidDType}, {InvalidDType, InvalidDType}} {
		if c.d.Complex() != c.cplx {
			t.Errorf("%v.Complex() = %v, want %v", c.d, c.d.Complex(), c.cplx)
		}
		if got := ComplexDType.Of(c.d); c.d.In(Floats) && got != c.cplx {
			t.Errorf("ComplexDType.Of(%v) = %v, want %v", c.d, got, c.cplx)
		}
	}
	for d := Float32; d < NumDTypes; d++ {
		if p, ok := ParseDType(d.String()); !ok || p != d {
			t.Errorf("ParseDType(%q) = %v, %v", d.String(), p, ok)
		}
	}
}

func TestNumel(t *testing.T) {
	cases := []struct {
		shape []int
		n     int
		kind  error
	}{
		{nil, 1, nil},
		{[]int{0, 1 << 62}, 0, ErrShape}, // an extent beyond the limit, even next to 0
		{[]int{3, 4}, 12, nil},
		{[]int{-1}, 0, ErrShape},
		{[]int{1 << 23, 1 << 23}, 1 << 46, nil},
		{[]int{1 << 23, 1<<23 + 1}, 0, ErrShape},
		{[]int{math.MaxInt, 2}, 0, ErrShape},
		{make([]int, MaxRank+1), 0, ErrShape},
	}
	for _, c := range cases {
		n, f := Numel("shape", c.shape)
		if c.kind == nil && (f != nil || n != c.n) || c.kind != nil && (f == nil || !errors.Is(f.Kind, c.kind)) {
			t.Errorf("Numel(%v) = %d, %v; want %d, %v", c.shape, n, f, c.n, c.kind)
		}
	}
}

func TestAxes(t *testing.T) {
	for _, c := range []struct {
		axes []int
		r    int
		mask uint64
		bad  bool
	}{
		{nil, 3, 7, false},
		{[]int{-1}, 3, 4, false},
		{[]int{2, 0}, 3, 5, false},
		{[]int{1, -2}, 3, 0, true},
		{[]int{3}, 3, 0, true},
		{[]int{-4}, 3, 0, true},
		{nil, 0, 0, false},
		{[]int{0}, 0, 0, true},
		{[]int{math.MinInt}, 3, 0, true},
	} {
		m, f := AxisMask("axes", c.axes, c.r)
		if (f != nil) != c.bad || !c.bad && m != c.mask {
			t.Errorf("AxisMask(%v, %d) = %b, %v", c.axes, c.r, m, f)
		}
	}
	out := make([]int, 3)
	if f := Perm("perm", []int{-1, 0, 1}, 3, out); f != nil || out[0] != 2 {
		t.Errorf("Perm negative: %v %v", out, f)
	}
	if f := Perm("perm", []int{0, 1}, 3, out); f == nil || f.Kind != ErrShape {
		t.Errorf("Perm wrong length: %v", f)
	}
	if f := Perm("perm", []int{0, 0, 1}, 3, out); f == nil || f.Kind != ErrArgument {
		t.Errorf("Perm repeated: %v", f)
	}
}

func TestDistinctAndSpan(t *testing.T) {
	for _, c := range []struct {
		shape, strides []int
		want           bool
	}{
		{[]int{3, 4}, []int{1, 3}, true},
		{[]int{3, 4}, []int{4, 1}, true},
		{[]int{3, 4}, []int{1, 2}, false},
		{[]int{3, 4}, []int{0, 3}, false},
		{[]int{3, 1}, []int{1, 0}, true},
		{[]int{3, 4}, []int{-1, -3}, true},
		{[]int{0, 4}, []int{0, 0}, true},
		{[]int{2, 2}, []int{3, 3}, false}, // a diagonal-like overlap
	} {
		if got := Distinct(c.shape, c.strides); got != c.want {
			t.Errorf("Distinct(%v, %v) = %v", c.shape, c.strides, got)
		}
	}
	if lo, hi, ok := Span([]int{3, 4}, []int{-1, 3}, 10); !ok || lo != 8 || hi != 19 {
		t.Errorf("Span = %d %d %v", lo, hi, ok)
	}
	if _, _, ok := Span([]int{3, 0}, []int{1, 3}, 0); ok {
		t.Error("an empty view has no span")
	}
}

func TestShapeRules(t *testing.T) {
	if s, f := ReshapeShape([]int{2, 3, 4}, []int{-1, 6}, nil); f != nil || s[0] != 4 {
		t.Errorf("ReshapeShape -1: %v %v", s, f)
	}
	if _, f := ReshapeShape([]int{0, 3}, []int{0, -1}, nil); f == nil {
		t.Error("ReshapeShape cannot infer -1 next to a zero extent")
	}
	if s, f := BroadcastShape([]int{2, 1}, []int{1, 3}, nil); f != nil || s[0] != 2 || s[1] != 3 {
		t.Errorf("BroadcastShape: %v %v", s, f)
	}
	if _, f := BroadcastShape([]int{1 << 23, 1}, []int{1, 1<<23 + 1}, nil); f == nil || f.Kind != ErrShape {
		t.Errorf("BroadcastShape beyond the element limit: %v", f)
	}
	if s, f := MatmulShape([]int{2, 3, 1}, []int{3, 4, 5}, nil); f != nil || s[2] != 5 {
		t.Errorf("MatmulShape batch broadcast: %v %v", s, f)
	}
	_, out, f := EinsumShape("ij,jk->ik", [][]int{{2, 3}, {3, 4}})
	if f != nil || out[0] != 2 || out[1] != 4 {
		t.Errorf("EinsumShape: %v %v", out, f)
	}
	if _, _, f := EinsumShape("ij,jk->ik", nil); f == nil || f.Kind != ErrArgument {
		t.Errorf("EinsumShape without operands: %v", f)
	}
	a := Attrs{Axes: []int{-1, 0}}
	if s, f := Sum.Shape(&a, [][]int{{2, 3, 4}}); f != nil || len(s) != 1 || s[0] != 3 || a.Axes[0] != 0 || a.Axes[1] != 2 {
		t.Errorf("Sum.Shape normalizes axes: %v %v %v", s, a.Axes, f)
	}
}

// TestBroadcastArgs checks that broadcasting faults name the operands as
// given, and BroadcastShape's as a and b.
func TestBroadcastArgs(t *testing.T) {
	_, f := BroadcastArgs("re", "im", []int{3, 2}, []int{3}, nil)
	if f == nil || f.Kind != ErrShape || f.Arg != "im" || !strings.Contains(f.Expected, "re's [3 2]") {
		t.Errorf("BroadcastArgs mismatch: %+v, want a fault on im against re's shape", f)
	}
	if _, f := BroadcastArgs("re", "im", make([]int, MaxRank+1), nil, nil); f == nil || f.Arg != "re" {
		t.Errorf("BroadcastArgs rank: %+v, want a fault on re", f)
	}
	if _, f := Add.Shape(&Attrs{}, [][]int{{3, 2}, {3}}); f == nil || f.Arg != "b" || !strings.Contains(f.Expected, "a's [3 2]") {
		t.Errorf("Add.Shape mismatch: %+v, want a fault on b against a's shape", f)
	}
}

// TestComplexRules pins Complex's dtype and shape rules: two real inputs of
// one dtype give the complex dtype of their precision, other dtypes are
// faults naming the argument, and the shapes broadcast with faults that
// name re and im.
func TestComplexRules(t *testing.T) {
	names := Complex.Info().Args
	for _, c := range []struct {
		re, im, want DType
		arg          string
	}{
		{Float32, Float32, Complex64, ""},
		{Float64, Float64, Complex128, ""},
		{Float32, Float64, InvalidDType, "im"},
		{Float64, Float32, InvalidDType, "im"},
		{Complex128, Complex128, InvalidDType, "re"},
		{Int64, Int64, InvalidDType, "re"},
		{Bool, Bool, InvalidDType, "re"},
	} {
		dt, f := Complex.DTypeOf(names, c.re, c.im)
		switch {
		case c.arg == "" && (f != nil || dt != c.want):
			t.Errorf("Complex(%v, %v): %v, %v; want %v", c.re, c.im, dt, f, c.want)
		case c.arg != "" && (f == nil || f.Kind != ErrDType || f.Arg != c.arg):
			t.Errorf("Complex(%v, %v): fault %+v, want an ErrDType fault naming %s", c.re, c.im, f, c.arg)
		}
	}
	if s, f := Complex.Shape(&Attrs{}, [][]int{{3, 1}, {4}}); f != nil || len(s) != 2 || s[0] != 3 || s[1] != 4 {
		t.Errorf("Complex.Shape broadcast: %v %v", s, f)
	}
	_, f := Complex.Shape(&Attrs{}, [][]int{{3, 2}, {3}})
	if f == nil || f.Kind != ErrShape || f.Arg != "im" || !strings.Contains(f.Expected, "re's [3 2]") {
		t.Errorf("Complex.Shape mismatch: %+v, want a fault on im against re's shape", f)
	}
}

func TestBroadcastStrides(t *testing.T) {
	for _, c := range []struct {
		shape, from, strides, want []int
	}{
		{[]int{3, 4}, []int{3, 4}, []int{1, 3}, []int{1, 3}},
		{[]int{3, 4}, []int{4}, []int{-2}, []int{0, -2}},
		{[]int{3, 4}, []int{1, 4}, []int{5, 7}, []int{0, 7}},
		{[]int{3, 1}, []int{1, 1}, []int{5, 7}, []int{0, 7}},
		{[]int{2, 3, 4}, nil, nil, []int{0, 0, 0}},
		{nil, nil, nil, []int{}},
		{[]int{0, 4}, []int{1, 4}, []int{1, 1}, []int{0, 1}},
	} {
		buf := make([]int, MaxRank)
		if got := BroadcastStrides(c.shape, c.from, c.strides, buf); !slices.Equal(got, c.want) {
			t.Errorf("BroadcastStrides(%v, %v, %v) = %v, want %v", c.shape, c.from, c.strides, got, c.want)
		}
	}
}
