package tenferro_test

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/backend/enginetest"
	"github.com/tenferro-go/tenferro/cpu"
)

type einsumCase struct {
	sub    string
	shapes [][]int
}

// grammarCases covers every rule of the einsum grammar.
var grammarCases = []einsumCase{
	{"ij,jk->ik", [][]int{{3, 4}, {4, 5}}},
	{"ij,jk", [][]int{{3, 4}, {4, 5}}},     // implicit output ik
	{"ba,ac", [][]int{{3, 4}, {4, 5}}},     // implicit output bc (sorted)
	{"Ba,aB", [][]int{{3, 4}, {4, 3}}},     // implicit output: nothing once: scalar
	{"bA,Ac", [][]int{{3, 2}, {2, 5}}},     // implicit output bc
	{"Zb,ba", [][]int{{2, 3}, {3, 4}}},     // implicit output Za ('Z' < 'a')
	{"ii->i", [][]int{{4, 4}}},             // diagonal
	{"iii->i", [][]int{{3, 3, 3}}},         // diagonal of a cube
	{"jii->ij", [][]int{{2, 3, 3}}},        // partial diagonal, permuted
	{"ii", [][]int{{5, 5}}},                // trace (implicit)
	{"ii->", [][]int{{5, 5}}},              // trace
	{"i->ii", [][]int{{4}}},                // embed a diagonal
	{"ij->iji", [][]int{{3, 2}}},           // embed with another label between
	{"ij->ji", [][]int{{3, 4}}},            // transpose
	{"ij->", [][]int{{3, 4}}},              // total sum
	{"ij->j", [][]int{{3, 4}}},             // column sums
	{"ij->i", [][]int{{3, 4}}},             // row sums
	{"ijk->kij", [][]int{{2, 3, 4}}},       // permutation
	{"ij,ij->ij", [][]int{{3, 4}, {3, 4}}}, // Hadamard
	{"ij,ji->ij", [][]int{{3, 4}, {4, 3}}}, // Hadamard, enginetest.Transposed
	{"i,j->ij", [][]int{{3}, {4}}},         // outer product
	{"i,j->ji", [][]int{{3}, {4}}},         // outer product, enginetest.Transposed
	{"i,i->", [][]int{{7}, {7}}},           // dot
	{"ij,ij->", [][]int{{3, 5}, {3, 5}}},   // Frobenius product
	{"ij,j->i", [][]int{{3, 4}, {4}}},      // matrix-vector
	{"i,ij->j", [][]int{{3}, {3, 4}}},      // vector-matrix
	{",ij->ij", [][]int{{}, {2, 3}}},       // scalar times matrix
	{",->", [][]int{{}, {}}},               // scalars
	{"->", [][]int{{}}},                    // one scalar
	{"i,->i", [][]int{{3}, {}}},            // vector times scalar
	{"bij,bjk->bik", [][]int{{2, 3, 4}, {2, 4, 5}}},
	{"ijb,jkb->ikb", [][]int{{3, 4, 2}, {4, 5, 2}}},
	{"ibj,jbk->kbi", [][]int{{3, 2, 4}, {4, 2, 5}}},
	{"ijab,jkab->ikab", [][]int{{3, 4, 2, 3}, {4, 5, 2, 3}}}, // batch axes fuse
	{"ijab,jkba->ikab", [][]int{{3, 4, 2, 3}, {4, 5, 3, 2}}}, // batch axes loop
	{"ij,jk->ik", [][]int{{3, 1}, {4, 5}}},                   // named label broadcast
	{"ij,ij->ij", [][]int{{3, 1}, {1, 4}}},                   // broadcast both ways
	{"ij,jk->ik", [][]int{{3, 1}, {0, 5}}},                   // 1 against 0 gives 0
	{"ij,jk->ik", [][]int{{3, 0}, {0, 5}}},                   // empty contraction: zeros
	{"ij,jk->ik", [][]int{{0, 4}, {4, 5}}},                   // empty output
	{"i,i->", [][]int{{0}, {0}}},                             // empty dot: zero
	{"ii->i", [][]int{{0, 0}}},                               // empty diagonal
	{"...ij,...jk->...ik", [][]int{{2, 3, 4}, {2, 4, 5}}},
	{"...ij,...jk", [][]int{{2, 1, 3, 4}, {5, 4, 2}}}, // implicit ellipsis first
	{"ij...,jk...->ik...", [][]int{{3, 4, 2, 1}, {4, 5, 3}}},
	{"...i->i", [][]int{{2, 3, 4}}}, // ellipsis summed
	{"...->...", [][]int{{2, 3}}},
	{"i...,i...->...", [][]int{{3}, {3, 2}}}, // ellipsis of rank 0 broadcast
	{"αβ,βγ->αγ", [][]int{{2, 3}, {3, 4}}},   // Unicode labels
	{"日本,本語", [][]int{{2, 3}, {3, 2}}},       // implicit output, Unicode order
	{"ab,bc,cd->ad", [][]int{{2, 3}, {3, 4}, {4, 5}}},
	{"abc,cd,db->a", [][]int{{2, 3, 4}, {4, 5}, {5, 3}}},
	{"iij,jk->ik", [][]int{{3, 3, 4}, {4, 2}}},        // diagonal inside a product
	{"ijk,jl->il", [][]int{{2, 3, 4}, {3, 5}}},        // k summed before the product
	{"ij,kl->", [][]int{{2, 3}, {4, 5}}},              // sums of both sides
	{"ab,ab,ab->ab", [][]int{{3, 4}, {3, 4}, {3, 4}}}, // chained Hadamard
	{"a,b,c->abc", [][]int{{2}, {3}, {4}}},            // chained outer
	{"ij,jk->ikj", [][]int{{2, 3}, {3, 4}}},           // batch-like kept label
	{"i,i->ii", [][]int{{3}, {3}}},                    // Hadamard then embed
	{"ij,jk->iik", [][]int{{2, 3}, {3, 4}}},           // product then embed
	{"ijk->ii", [][]int{{3, 2, 4}}},                   // sums, then embed
	{"ii->ii", [][]int{{3, 3}}},                       // diagonal, then embed
	{"iij->jii", [][]int{{3, 3, 2}}},                  // diagonal, permute, embed
	{"ii,i->i", [][]int{{1, 1}, {3}}},                 // broadcast diagonal
	{"ij,ji->", [][]int{{1, 4}, {4, 3}}},              // broadcast in a trace-like product
	{"abc,abc->", [][]int{{2, 3, 4}, {2, 3, 4}}},      // dot over several labels
	{"ij,jk,kl->il", [][]int{{1, 5}, {5, 6}, {6, 1}}}, // matrix-vector steps
}

func TestEinsumGrammar(t *testing.T) {
	e := cpu.Serial()
	defer e.Close()
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range grammarCases {
		runCase[float64](t, e, rng, c.sub, c.shapes, nil)
		runCase[float32](t, e, rng, c.sub, c.shapes, nil)
		runCase[complex64](t, e, rng, c.sub, c.shapes, nil)
		runCase[complex128](t, e, rng, c.sub, c.shapes, nil)
	}
}

func TestEinsumLayouts(t *testing.T) {
	e := cpu.Serial()
	defer e.Close()
	rng := rand.New(rand.NewPCG(3, 4))
	for _, c := range grammarCases {
		for kind := range enginetest.NumLayouts {
			kinds := make([]int, len(c.shapes))
			for k := range kinds {
				kinds[k] = (kind + k) % enginetest.NumLayouts
			}
			runCase[float64](t, e, rng, c.sub, c.shapes, kinds)
			runCase[complex64](t, e, rng, c.sub, c.shapes, kinds)
		}
	}
}

// TestEinsumImplicitOutput pins the implicit output against the explicit
// form: ellipsis first, then labels occurring once in code point order.
func TestEinsumImplicitOutput(t *testing.T) {
	e := cpu.Serial()
	defer e.Close()
	for _, c := range []struct{ implicit, explicit string }{
		{"ij,jk", "ij,jk->ik"},
		{"ba,ac", "ba,ac->bc"},
		{"Zb,ba", "Zb,ba->Za"},
		{"bA,Ac", "bA,Ac->bc"},
		{"ii", "ii->"},
		{"ji", "ji->ij"},
		{"...ij,...jk", "...ij,...jk->...ik"},
		{"日本,本語", "日本,本語->日語"},
	} {
		p1, err := tf.PrepareEinsum(tf.Float64, c.implicit, shapesFor(c.implicit))
		if err != nil {
			t.Fatalf("%s: %v", c.implicit, err)
		}
		p2, err := tf.PrepareEinsum(tf.Float64, c.explicit, shapesFor(c.explicit))
		if err != nil {
			t.Fatalf("%s: %v", c.explicit, err)
		}
		if !slices.Equal(p1.OutputShape(), p2.OutputShape()) {
			t.Fatalf("%s: output shape %v, %s gives %v", c.implicit, p1.OutputShape(), c.explicit, p2.OutputShape())
		}
		if got, want := p1.Plan().Problem.Subscripts(), p2.Plan().Problem.Subscripts(); got != want {
			t.Fatalf("%s: %s, want %s", c.implicit, got, want)
		}
	}
}

// shapesFor gives each label a distinct extent (2 + its first position)
// and the ellipsis two axes of extents 2 and 3.
func shapesFor(sub string) [][]int {
	lhs, _, _ := strings.Cut(sub, "->")
	ext := map[rune]int{}
	var shapes [][]int
	for _, term := range strings.Split(lhs, ",") {
		var s []int
		pre, post, has := strings.Cut(term, "...")
		add := func(part string) {
			for _, r := range part {
				if _, ok := ext[r]; !ok {
					ext[r] = 2 + len(ext)
				}
				s = append(s, ext[r])
			}
		}
		add(pre)
		if has {
			s = append(s, 2, 3)
		}
		add(post)
		shapes = append(shapes, s)
	}
	return shapes
}
