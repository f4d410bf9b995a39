package einsum_test

import (
	"errors"
	"fmt"

	"github.com/tenferro-go/tenferro/einsum"
)

// String gives the explicit form; Parse reads it back to the same
// expression.
func ExampleExpr_String() {
	e, _ := einsum.Parse("ij, jk")
	fmt.Println(e)
	d, _ := einsum.Parse("ii->i")
	fmt.Println(d.String())
	// Output:
	// ij,jk->ik
	// ii->i
}

// ParseSymbols takes digits and symbols as labels, as opt_einsum does.
func ExampleParseSymbols() {
	e, _ := einsum.ParseSymbols("0×,×1->01")
	p, _ := e.Bind([][]int{{2, 3}, {3, 4}})
	_, err := einsum.Parse("0×,×1->01")
	fmt.Println(e.Inputs, p.Extents)
	fmt.Println(errors.Is(err, einsum.ErrSyntax))
	// Output:
	// [[48 215] [215 49]] [2 4 3]
	// true
}

func ExampleParseStrategy() {
	s, _ := einsum.ParseStrategy("random")
	_, err := einsum.ParseStrategy("fastest")
	fmt.Println(s, errors.Is(err, einsum.ErrOption))
	// Output: random-greedy true
}

func ExampleStrategy_String() {
	for _, s := range []einsum.Strategy{einsum.Auto, einsum.Greedy, einsum.Optimal, einsum.RandomGreedy, einsum.Search, einsum.Given} {
		fmt.Print(s.String(), " ")
	}
	fmt.Println()
	// Output: auto greedy optimal random-greedy search given
}

// Each pairwise step is classified by the label groups it has.
func ExampleStepKind_String() {
	cases := []struct {
		sub    string
		shapes [][]int
	}{
		{"i,i->", [][]int{{3}, {3}}},
		{"ij,jk->ik", [][]int{{2, 3}, {3, 4}}},
		{"bij,bjk->bik", [][]int{{5, 2, 3}, {5, 3, 4}}},
		{"i,j->ij", [][]int{{2}, {3}}},
		{"i,i->i", [][]int{{3}, {3}}},
		{"bi,bj->bij", [][]int{{5, 2}, {5, 3}}},
	}
	for _, c := range cases {
		e, _ := einsum.Parse(c.sub)
		p, _ := e.Bind(c.shapes)
		pl, _ := einsum.NewPlan(p, einsum.Options{})
		fmt.Printf("%s: %s\n", c.sub, pl.Steps[0].Kind.String())
	}
	// Output:
	// i,i->: dot
	// ij,jk->ik: gemm
	// bij,bjk->bik: batched-gemm
	// i,j->ij: outer
	// i,i->i: hadamard
	// bi,bj->bij: batched-outer
}

// Problems that differ only in the names of their labels share a key,
// hence a plan.
func ExampleProblem_Key() {
	a, _ := einsum.Parse("ij,jk->ik")
	b, _ := einsum.Parse("ab,bc->ac")
	pa, _ := a.Bind([][]int{{2, 3}, {3, 4}})
	pb, _ := b.Bind([][]int{{2, 3}, {3, 4}})
	pc, _ := a.Bind([][]int{{2, 3}, {3, 5}})
	fmt.Println(pa.Key() == pb.Key(), pa.Key() == pc.Key())
	// Output: true false
}

func ExampleProblem_String() {
	e, _ := einsum.Parse("ij,jk")
	p, _ := e.Bind([][]int{{2, 3}, {3, 4}})
	fmt.Println(p)
	// Output: ij,jk->ik [2 3] [3 4]
}

// Subscripts spell out the ellipsis axes with unused letters.
func ExampleProblem_Subscripts() {
	e, _ := einsum.Parse("...i,...i->...")
	p, _ := e.Bind([][]int{{5, 2, 3}, {2, 3}})
	fmt.Println(p.Subscripts())
	// Output: abi,bi->ab
}

// Term names a list of label ids, such as a step's result labels.
func ExampleProblem_Term() {
	e, _ := einsum.Parse("ij,jk,kl->il")
	p, _ := e.Bind([][]int{{2, 3}, {3, 4}, {4, 5}})
	pl, _ := einsum.NewPlan(p, einsum.Options{})
	for _, st := range pl.Steps {
		fmt.Print(p.Term(st.LeftLabels), ",", p.Term(st.RightLabels), "->", p.Term(st.Out), " ")
	}
	fmt.Println()
	// Output: ij,jk->ik ik,kl->il
}

// The options key holds what can change a plan; a path counts only for
// the Given strategy, which follows it.
func ExampleOptions_Key() {
	a := einsum.Options{Strategy: einsum.Greedy}
	b := einsum.Options{Strategy: einsum.Greedy, Path: [][2]int{{0, 1}}}
	c := einsum.Options{Strategy: einsum.Given, Path: [][2]int{{0, 1}}}
	fmt.Println(a.Key(), a.Key() == b.Key())
	fmt.Println(c.Key())
	// Output:
	// greedy/m0/s0/r0 true
	// given/m0/s0/r0/0.1,
}

// A plan's key combines its problem's and its options', the key under
// which an engine caches it.
func ExamplePlan_Key() {
	e, _ := einsum.Parse("ij,jk->ik")
	p, _ := e.Bind([][]int{{2, 3}, {3, 4}})
	greedy, _ := einsum.NewPlan(p, einsum.Options{Strategy: einsum.Greedy})
	optimal, _ := einsum.NewPlan(p, einsum.Options{Strategy: einsum.Optimal})
	again, _ := einsum.NewPlan(p, einsum.Options{Strategy: einsum.Greedy})
	fmt.Println(greedy.Key() == again.Key(), greedy.Key() == optimal.Key())
	// Output: true false
}
