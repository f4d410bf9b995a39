package einsum

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func mustBind(t testing.TB, s string, shapes ...[]int) *Problem {
	t.Helper()
	e, err := Parse(s)
	if err != nil {
		t.Fatalf("Parse(%q): %v", s, err)
	}
	p, err := e.Bind(shapes)
	if err != nil {
		t.Fatalf("Bind(%q, %v): %v", s, shapes, err)
	}
	return p
}

func TestBind(t *testing.T) {
	cases := []struct {
		s         string
		shapes    [][]int
		subs      string // Problem.Subscripts()
		extents   []int  // by label id
		broadcast [][]bool
	}{
		{"ij,jk->ik", [][]int{{2, 3}, {3, 4}}, "ij,jk->ik", []int{2, 3, 4}, [][]bool{{false, false}, {false, false}}},
		{"ij,jk->ik", [][]int{{2, 1}, {3, 4}}, "ij,jk->ik", []int{2, 3, 4}, [][]bool{{false, true}, {false, false}}},
		{"ij,jk->ik", [][]int{{2, 1}, {0, 4}}, "ij,jk->ik", []int{2, 0, 4}, [][]bool{{false, true}, {false, false}}},
		{"ij,jk->ik", [][]int{{2, 0}, {1, 4}}, "ij,jk->ik", []int{2, 0, 4}, [][]bool{{false, false}, {true, false}}},
		{"ij,jk->ik", [][]int{{2, 1}, {1, 4}}, "ij,jk->ik", []int{2, 1, 4}, [][]bool{{false, false}, {false, false}}},
		{"ii->i", [][]int{{3, 3}}, "ii->i", []int{3}, [][]bool{{false, false}}},
		{"ii,i->i", [][]int{{1, 1}, {5}}, "ii,i->i", []int{5}, [][]bool{{true, true}, {false}}},
		{"jii->ij", [][]int{{2, 3, 3}}, "jii->ij", []int{3, 2}, [][]bool{{false, false, false}}},
		{"i->ii", [][]int{{4}}, "i->ii", []int{4}, [][]bool{{false}}},
		{",i->i", [][]int{{}, {4}}, ",i->i", []int{4}, [][]bool{{}, {false}}},
		{"->", [][]int{{}}, "->", []int{}, [][]bool{{}}},
		// Ellipses right-aligned: operand 0's two ellipsis axes are
		// labels a,b; operand 1's single one is b.
		{"...ij,...jk", [][]int{{7, 1, 2, 3}, {5, 3, 4}}, "abij,bjk->abik", []int{7, 5, 2, 3, 4},
			[][]bool{{false, true, false, false}, {false, false, false}}},
		{"i...->i", [][]int{{2, 3, 4}}, "iab->i", []int{3, 4, 2}, [][]bool{{false, false, false}}},
		{"i...,i->...", [][]int{{2}, {2}}, "i,i->", []int{2}, [][]bool{{false}, {false}}},
		// An output ellipsis with no ellipsis in the operands is empty.
		{"ij->...ji", [][]int{{2, 3}}, "ij->ji", []int{2, 3}, [][]bool{{false, false}}},
		// Ellipsis letters avoid the expression's labels.
		{"a...,b", [][]int{{2, 3}, {4}}, "ac,b->cab", []int{3, 2, 4}, [][]bool{{false, false}, {false}}},
	}
	for _, c := range cases {
		p := mustBind(t, c.s, c.shapes...)
		if got := p.Subscripts(); got != c.subs {
			t.Errorf("%s %v: Subscripts() = %q, want %q", c.s, c.shapes, got, c.subs)
		}
		if !slices.Equal(p.Extents, c.extents) {
			t.Errorf("%s %v: Extents = %v, want %v", c.s, c.shapes, p.Extents, c.extents)
		}
		if !slices.EqualFunc(p.Broadcast, c.broadcast, slices.Equal) {
			t.Errorf("%s %v: Broadcast = %v, want %v", c.s, c.shapes, p.Broadcast, c.broadcast)
		}
		for k, in := range p.Inputs {
			var u []int // distinct labels, broadcast axes left out
			for a, l := range in {
				if !c.broadcast[k][a] && !slices.Contains(u, l) {
					u = append(u, l)
				}
			}
			if !slices.Equal(p.Unique[k], u) && !(len(u) == 0 && len(p.Unique[k]) == 0) {
				t.Errorf("%s: Unique[%d] = %v, want %v", c.s, k, p.Unique[k], u)
			}
		}
	}
}

func TestBindErrors(t *testing.T) {
	cases := []struct {
		s       string
		shapes  [][]int
		kind    error
		operand int
		label   string
		extents []int
		msg     string
	}{
		{"ij,jk->ik", [][]int{{2, 3}, {4, 5}}, ErrShape, 1, "j", []int{4, 3},
			"size of label 'j' for operand 1 (4) does not match operand 0 (3)"},
		{"ij,jk,k->i", [][]int{{2, 1}, {1, 5}, {6}}, ErrShape, 2, "k", []int{6, 5},
			"size of label 'k' for operand 2 (6) does not match operand 1 (5)"},
		{"ij,j->i", [][]int{{2, 0}, {3}}, ErrShape, 1, "j", []int{3, 0}, "(3) does not match operand 0 (0)"},
		{"ii->i", [][]int{{2, 3}}, ErrShape, 0, "i", []int{2, 3}, "different extents (2 on axis 0, 3 on axis 1)"},
		{"...i,...i", [][]int{{2, 3}, {4, 3}}, ErrShape, 1, "a", []int{4, 2}, "ellipsis axis 0 (label 'a') for operand 1 (4)"},
		{"ij,jk->ik", [][]int{{2, 3}}, ErrRank, -1, "", []int{2, 1}, "subscripts name 2 operands but 1 shapes"},
		{"ij", [][]int{{2, 3, 4}}, ErrRank, 0, "", []int{3, 2}, "operand 0 has 3 axes but its subscripts 'ij' name 2"},
		{"i,ijk...", [][]int{{2}, {2, 3}}, ErrRank, 1, "", []int{2, 3}, "name at least 3"},
		{"ij", [][]int{{2, -1}}, ErrShape, 0, "", []int{-1}, "negative extent -1 on axis 1"},
	}
	for _, c := range cases {
		e, err := Parse(c.s)
		if err != nil {
			t.Fatal(err)
		}
		_, err = e.Bind(c.shapes)
		var be *Error
		if !errors.As(err, &be) || !errors.Is(err, c.kind) {
			t.Errorf("Bind(%q, %v) = %v, want %v", c.s, c.shapes, err, c.kind)
			continue
		}
		if be.Operand != c.operand || be.Label != c.label || !slices.Equal(be.Extents, c.extents) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("Bind(%q, %v): operand %d label %q extents %v %q; want %d %q %v containing %q",
				c.s, c.shapes, be.Operand, be.Label, be.Extents, err, c.operand, c.label, c.extents, c.msg)
		}
	}
}

func TestProblemKeyAndString(t *testing.T) {
	p1 := mustBind(t, "ij,jk->ik", []int{2, 3}, []int{3, 4})
	p2 := mustBind(t, "ab,bc->ac", []int{2, 3}, []int{3, 4})
	p3 := mustBind(t, "ij,jk->ik", []int{2, 3}, []int{3, 5})
	p4 := mustBind(t, "ij,jk->ki", []int{2, 3}, []int{3, 4})
	if p1.Key() != p2.Key() {
		t.Errorf("renamed labels changed the key: %q vs %q", p1.Key(), p2.Key())
	}
	if p1.Key() == p3.Key() || p1.Key() == p4.Key() {
		t.Error("different problems share a key")
	}
	if got := p1.String(); got != "ij,jk->ik [2 3] [3 4]" {
		t.Errorf("String() = %q", got)
	}
}
