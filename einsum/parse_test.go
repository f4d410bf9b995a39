package einsum

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// term parses a test shorthand: letters, with "." standing for Ellipsis.
func term(s string) []int {
	out := []int{}
	for _, r := range s {
		if r == '.' {
			out = append(out, Ellipsis)
		} else {
			out = append(out, int(r))
		}
	}
	return out
}

func TestParseGrammar(t *testing.T) {
	cases := []struct {
		in       string
		inputs   []string // "." marks an ellipsis
		output   string
		implicit bool
	}{
		{"ij,jk->ik", []string{"ij", "jk"}, "ik", false},
		{"ij,jk", []string{"ij", "jk"}, "ik", true},
		{" i j , j k -> i k ", []string{"ij", "jk"}, "ik", false},
		{"ii->i", []string{"ii"}, "i", false},
		{"iii->i", []string{"iii"}, "i", false},
		{"jii->ij", []string{"jii"}, "ij", false},
		{"ii", []string{"ii"}, "", true},
		{"i->ii", []string{"i"}, "ii", false},
		{",i->i", []string{"", "i"}, "i", false},
		{"->", []string{""}, "", false},
		{"", []string{""}, "", true},
		{",", []string{"", ""}, "", true},
		{"...ij,...jk", []string{".ij", ".jk"}, ".ik", true},
		{"i...,...->...", []string{"i.", "."}, ".", false},
		{"ij...->", []string{"ij."}, "", false},
		{"ba", []string{"ba"}, "ab", true},
		{"ba,Ab", []string{"ba", "Ab"}, "Aa", true}, // 'A' < 'a'
		{"zZaA", []string{"zZaA"}, "AZaz", true},    // code point order
		{"αβ,βγ", []string{"αβ", "βγ"}, "αγ", true}, // any Unicode letter
		{"ǅж,жx", []string{"ǅж", "жx"}, "xǅ", true}, // 'x' (0x78) < 'ǅ' (0x1c5)
		{"ij,ij->ij", []string{"ij", "ij"}, "ij", false},
		{"i,i", []string{"i", "i"}, "", true},
		{"ij->", []string{"ij"}, "", false},
	}
	for _, c := range cases {
		e, err := Parse(c.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", c.in, err)
			continue
		}
		var want [][]int
		for _, s := range c.inputs {
			want = append(want, term(s))
		}
		if !slices.EqualFunc(e.Inputs, want, slices.Equal) {
			t.Errorf("Parse(%q).Inputs = %v, want %v", c.in, e.Inputs, want)
		}
		if !slices.Equal(e.Output, term(c.output)) || e.Implicit != c.implicit {
			t.Errorf("Parse(%q).Output = %v (implicit %v), want %v (%v)", c.in, e.Output, e.Implicit, term(c.output), c.implicit)
		}
		// Round trip through String.
		e2, err := Parse(e.String())
		if err != nil || !slices.EqualFunc(e2.Inputs, e.Inputs, slices.Equal) || !slices.Equal(e2.Output, e.Output) {
			t.Errorf("round trip of %q via %q failed: %v", c.in, e.String(), err)
		}
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct {
		in      string
		operand int
		label   string
		msg     string
	}{
		{"ij,jk->i1", -1, "1", "invalid character '1'"},
		{"i.j", 0, ".", "ellipsis"},
		{"i..", 0, ".", "ellipsis"},
		{"......", 0, "...", "more than one ellipsis"},
		{"i,j......", 1, "...", "operand 1 has more than one ellipsis"},
		{"i->......", -1, "...", "output has more than one ellipsis"},
		{"ij->k", -1, "k", "output label 'k' does not occur"},
		{"i->i,i", -1, ",", "cannot contain ','"},
		{"i->i->i", -1, "->", "more than one"},
		{"i-i", 0, "-", "followed by '>'"},
		{"i>i", 0, ">", "'>' without '-'"},
		{"i-", 0, "-", "followed by '>'"},
		{"ij,_k", 1, "_", "invalid character"},
		{"\xff", 0, "", "invalid UTF-8"},
	}
	for _, c := range cases {
		_, err := Parse(c.in)
		var e *Error
		if !errors.As(err, &e) || !errors.Is(err, ErrSyntax) {
			t.Errorf("Parse(%q) = %v, want *Error wrapping ErrSyntax", c.in, err)
			continue
		}
		if e.Operand != c.operand || e.Label != c.label || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("Parse(%q): operand %d label %q msg %q; want operand %d label %q containing %q",
				c.in, e.Operand, e.Label, err.Error(), c.operand, c.label, c.msg)
		}
	}
}

func TestFromLabels(t *testing.T) {
	e, err := FromLabels([][]int{{0, 1}, {1, 60}}, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(e.Output, []int{0, 60}) || !e.Implicit || e.Runes {
		t.Fatalf("implicit output %v", e.Output)
	}
	if got := e.String(); got != "ab,b(60)->a(60)" {
		t.Errorf("String() = %q", got)
	}
	e, err = FromLabels([][]int{{Ellipsis, 3}, {3, Ellipsis}}, []int{Ellipsis}, false)
	if err != nil || !slices.Equal(e.Output, []int{Ellipsis}) || e.Implicit {
		t.Fatalf("explicit: %v %v", e, err)
	}
	e, err = FromLabels([][]int{{5, Ellipsis}}, nil, true)
	if err != nil || !slices.Equal(e.Output, []int{Ellipsis, 5}) {
		t.Fatalf("implicit with ellipsis: %v %v", e, err)
	}
	// The inputs are copied.
	in := [][]int{{1, 2}}
	e, _ = FromLabels(in, []int{2}, false)
	in[0][0] = 9
	if e.Inputs[0][0] != 1 {
		t.Error("FromLabels kept the caller's slice")
	}
	for _, c := range []struct {
		in   [][]int
		out  []int
		kind error
		msg  string
	}{
		{[][]int{{-2}}, nil, ErrSyntax, "label -2 of operand 0 is negative"},
		{[][]int{{0}}, []int{-3}, ErrSyntax, "output label -3 is negative"},
		{[][]int{{0}}, []int{1}, ErrSyntax, "output label 'b' does not occur"},
		{[][]int{{Ellipsis, Ellipsis}}, nil, ErrSyntax, "more than one ellipsis"},
		{nil, nil, ErrRank, "at least one operand"},
	} {
		_, err := FromLabels(c.in, c.out, false)
		if !errors.Is(err, c.kind) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("FromLabels(%v, %v) = %v, want %v containing %q", c.in, c.out, err, c.kind, c.msg)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"ij,jk->ik", "...ii,j...", "i->ii", ",->", "αβ,β", "a-b>", "..", "ab,,c->ca"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		// The wide alphabet round-trips too, and accepts whatever Parse does.
		if es, err := ParseSymbols(s); err == nil {
			es2, err := ParseSymbols(es.String())
			if err != nil || !slices.EqualFunc(es2.Inputs, es.Inputs, slices.Equal) || !slices.Equal(es2.Output, es.Output) {
				t.Fatalf("ParseSymbols round trip %q -> %q: %v", s, es.String(), err)
			}
		} else if _, err2 := Parse(s); err2 == nil {
			t.Fatalf("Parse accepts %q but ParseSymbols does not: %v", s, err)
		}
		e, err := Parse(s)
		if err != nil {
			var pe *Error
			if !errors.As(err, &pe) || !errors.Is(err, ErrSyntax) {
				t.Fatalf("Parse(%q) returned %T %v", s, err, err)
			}
			return
		}
		e2, err := Parse(e.String())
		if err != nil {
			t.Fatalf("Parse(%q).String() = %q does not parse: %v", s, e.String(), err)
		}
		if !slices.EqualFunc(e2.Inputs, e.Inputs, slices.Equal) || !slices.Equal(e2.Output, e.Output) {
			t.Fatalf("round trip %q -> %q changed the expression", s, e.String())
		}
		// Binding with all-ones shapes never panics either.
		shapes := make([][]int, len(e.Inputs))
		for k, in := range e.Inputs {
			for _, v := range in {
				if v != Ellipsis {
					shapes[k] = append(shapes[k], 1)
				}
			}
		}
		if p, err := e.Bind(shapes); err == nil && len(p.Inputs) <= 8 {
			if _, err := NewPlan(p, Options{}); err != nil {
				t.Fatalf("NewPlan(%q): %v", s, err)
			}
		}
	})
}

func TestParseSymbols(t *testing.T) {
	e, err := ParseSymbols("a0,0×->a×")
	if err != nil || !slices.Equal(e.Inputs[0], []int{'a', '0'}) || !slices.Equal(e.Output, []int{'a', '×'}) {
		t.Fatalf("ParseSymbols: %v %v", e, err)
	}
	if e, err := ParseSymbols("1,2"); err != nil || !slices.Equal(e.Output, []int{'1', '2'}) {
		t.Fatalf("implicit: %v %v", e, err)
	}
	for _, s := range []string{"a\x01", "a.b", "a,b->c"} {
		if _, err := ParseSymbols(s); !errors.Is(err, ErrSyntax) {
			t.Errorf("ParseSymbols(%q) = %v, want ErrSyntax", s, err)
		}
	}
	if _, err := Parse("a0"); !errors.Is(err, ErrSyntax) {
		t.Error("Parse accepts a digit label")
	}
}
