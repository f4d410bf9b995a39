package einsum

import (
	"errors"
	"testing"
	"unicode"
)

func TestSymbolsAreDistinctLetters(t *testing.T) {
	seen := map[rune]int{}
	for v := 0; v <= MaxLabel; v++ {
		r, ok := Symbol(v)
		if !ok || !unicode.IsLetter(r) {
			t.Fatalf("Symbol(%d) = %q, %v", v, r, ok)
		}
		if w, dup := seen[r]; dup {
			t.Fatalf("Symbol(%d) = Symbol(%d) = %q", v, w, r)
		}
		seen[r] = v
	}
	for _, v := range []int{-1, -5, MaxLabel + 1} {
		if _, ok := Symbol(v); ok {
			t.Errorf("Symbol(%d) ok", v)
		}
	}
}

func TestSubscripts(t *testing.T) {
	for _, c := range []struct {
		in   [][]int
		out  []int
		want string
	}{
		{[][]int{{0, 1}, {1, 2}}, []int{0, 2}, "ab,bc->ac"},
		{[][]int{{0, 0}}, []int{}, "aa->"},
		{[][]int{{Ellipsis, 3}, {3, 25, 26}}, []int{Ellipsis, 26, 25}, "...d,dzA->...Az"},
		{[][]int{{}}, nil, "->"},
		{[][]int{{51, 52, 1000}}, []int{1000}, "Z\u4e00\u51b4->\u51b4"},
	} {
		got, err := Subscripts(c.in, c.out)
		if err != nil || got != c.want {
			t.Errorf("Subscripts(%v, %v) = %q, %v; want %q", c.in, c.out, got, err, c.want)
			continue
		}
		// The subscripts parse to the same structure.
		e, err := Parse(got)
		if err != nil {
			t.Fatalf("Parse(%q): %v", got, err)
		}
		ref, _ := FromLabels(c.in, c.out, false)
		if !sameStructure(e, ref) {
			t.Errorf("Parse(%q) = %v, want the structure of %v", got, e, ref)
		}
	}
	for _, c := range []struct {
		in  [][]int
		out []int
	}{
		{nil, nil},
		{[][]int{{0, -2}}, []int{0}},
		{[][]int{{0, 1}}, []int{2}},
		{[][]int{{Ellipsis, Ellipsis}}, nil},
		{[][]int{{MaxLabel + 1}}, []int{}},
	} {
		if s, err := Subscripts(c.in, c.out); !errors.Is(err, ErrSyntax) && !errors.Is(err, ErrRank) {
			t.Errorf("Subscripts(%v, %v) = %q, %v; want a syntax error", c.in, c.out, s, err)
		}
	}
}

// sameStructure reports whether a and b have equal label patterns: a
// bijection between their labels maps one onto the other.
func sameStructure(a, b *Expr) bool {
	if len(a.Inputs) != len(b.Inputs) {
		return false
	}
	fwd, back := map[int]int{}, map[int]int{}
	same := func(x, y []int) bool {
		if len(x) != len(y) {
			return false
		}
		for i := range x {
			if (x[i] == Ellipsis) != (y[i] == Ellipsis) {
				return false
			}
			if f, ok := fwd[x[i]]; ok && f != y[i] {
				return false
			}
			if g, ok := back[y[i]]; ok && g != x[i] {
				return false
			}
			fwd[x[i]], back[y[i]] = y[i], x[i]
		}
		return true
	}
	for k := range a.Inputs {
		if !same(a.Inputs[k], b.Inputs[k]) {
			return false
		}
	}
	return same(a.Output, b.Output)
}
