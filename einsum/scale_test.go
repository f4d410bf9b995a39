package einsum

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// hyperedge returns 'a,a,...,a->a' over n vectors of extent 2.
func hyperedge(n int) (*Expr, [][]int) {
	e, err := Parse(strings.Repeat("a,", n-1) + "a->a")
	if err != nil {
		panic(err)
	}
	shapes := make([][]int, n)
	for i := range shapes {
		shapes[i] = []int{2}
	}
	return e, shapes
}

// sparseNetwork returns a ring of n tensors with n/4 random chords, every
// label of extent 2 and shared by two tensors, summed to a scalar. Its
// intermediates overflow float64 sizes: the planner must stay ordered and
// terminate anyway.
func sparseNetwork(n int, seed uint64) (*Expr, [][]int) {
	r := rand.New(rand.NewPCG(seed, 2))
	ins := make([][]int, n)
	for i := range n {
		ins[i] = append(ins[i], i)
		ins[(i+1)%n] = append(ins[(i+1)%n], i)
	}
	next := n
	for range n / 4 {
		a, b := r.IntN(n), r.IntN(n)
		if a != b {
			ins[a] = append(ins[a], next)
			ins[b] = append(ins[b], next)
			next++
		}
	}
	shapes := make([][]int, n)
	for i, t := range ins {
		shapes[i] = make([]int, len(t))
		for j := range shapes[i] {
			shapes[i][j] = 2
		}
	}
	e, err := FromLabels(ins, []int{}, false)
	if err != nil {
		panic(err)
	}
	return e, shapes
}

// TestPlanLargeNetworks plans 10,000 operands with Greedy and Auto: a label
// shared by every tensor (candidates bounded per label, not quadratic) and
// a sparse network whose costs overflow to +Inf (NaN costs once hung the
// greedy search). The paths must be complete.
func TestPlanLargeNetworks(t *testing.T) {
	n := 10000
	if testing.Short() {
		n = 3000
	}
	for name, mk := range map[string]func() (*Expr, [][]int){
		"hyperedge": func() (*Expr, [][]int) { return hyperedge(n) },
		"sparse":    func() (*Expr, [][]int) { return sparseNetwork(n, 1) },
	} {
		e, shapes := mk()
		p, err := e.Bind(shapes)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range []Strategy{Greedy, Auto} {
			pl, err := NewPlan(p, Options{Strategy: s})
			if err != nil {
				t.Fatalf("%s %v: %v", name, s, err)
			}
			if len(pl.Path) != n-1 || len(pl.Steps) != n-1 {
				t.Fatalf("%s %v: %d steps for %d operands", name, s, len(pl.Steps), n)
			}
			// The report stays linear in the operands: each step's
			// remaining list is elided.
			var bytes int
			for _, st := range pl.Summary().Steps {
				bytes += len(st.Remaining)
			}
			if limit := n * (RemainingWidth + 40); bytes > limit {
				t.Errorf("%s %v: remaining lists take %d bytes, more than %d", name, s, bytes, limit)
			}
		}
	}
	// The hyperedge's best path is a chain of Hadamard products.
	e, shapes := hyperedge(n)
	p, _ := e.Bind(shapes)
	pl, _ := NewPlan(p, Options{Strategy: Greedy})
	if want := float64(2 * (n - 1)); pl.Flops != want {
		t.Errorf("hyperedge flops %g, want %g", pl.Flops, want)
	}
}

func BenchmarkPlan10000(b *testing.B) {
	for name, mk := range map[string]func() (*Expr, [][]int){
		"hyperedge": func() (*Expr, [][]int) { return hyperedge(10000) },
		"sparse":    func() (*Expr, [][]int) { return sparseNetwork(10000, 1) },
	} {
		e, shapes := mk()
		p, err := e.Bind(shapes)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if _, err := NewPlan(p, Options{Strategy: Auto}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
