package einsum_test

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/tenferro-go/tenferro/einsum"
)

func ExampleParse() {
	e, err := einsum.Parse("ba,Ab")
	if err != nil {
		panic(err)
	}
	// The implicit output sorts by code point: 'A' before 'a'.
	fmt.Println(e)
	// Output: ba,Ab->Aa
}

func ExampleExpr_Bind() {
	e, _ := einsum.Parse("...ij,...jk")
	p, err := e.Bind([][]int{{7, 1, 2, 3}, {5, 3, 4}})
	if err != nil {
		panic(err)
	}
	fmt.Println(p.Subscripts(), p.Extents)
	_, err = e.Bind([][]int{{2, 3}, {4, 5}})
	fmt.Println(err)
	// Output:
	// abij,bjk->abik [7 5 2 3 4]
	// einsum: bind: size of label 'j' for operand 1 (4) does not match operand 0 (3)
}

func ExampleFromLabels() {
	// NumPy's sublist form: einsum(a, [0, 1], b, [1, 2], [0, 2]).
	e, _ := einsum.FromLabels([][]int{{0, 1}, {1, 2}}, []int{0, 2}, false)
	fmt.Println(e)
	// Output: ab,bc->ac
}

func ExampleNewPlan() {
	e, _ := einsum.Parse("ij,jk,kl->il")
	p, _ := e.Bind([][]int{{10, 100}, {100, 5}, {5, 50}})
	pl, err := einsum.NewPlan(p, einsum.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Println(pl.Strategy, pl.Path, pl.Flops)
	for _, st := range pl.Steps {
		fmt.Printf("%s: M=%d N=%d K=%d batch=%d out=%s\n", st.Kind, st.M, st.N, st.K, st.BatchSize, p.Term(st.Out))
	}
	// Output:
	// optimal [[0 1] [1 0]] 15000
	// gemm: M=10 N=5 K=100 batch=1 out=ik
	// gemm: M=10 N=50 K=5 batch=1 out=il
}

func ExamplePlan_Report() {
	e, _ := einsum.Parse("bij,bjk->bik")
	p, _ := e.Bind([][]int{{8, 2, 3}, {8, 3, 4}})
	pl, _ := einsum.NewPlan(p, einsum.Options{})
	fmt.Print(pl.Report())
	// Output:
	//   Complete contraction:  bij,bjk->bik
	//               Strategy:  optimal
	//          Naive scaling:  4
	//      Optimized scaling:  4
	//       Naive FLOP count:  3.840e+02
	//   Optimized FLOP count:  3.840e+02
	//    Theoretical speedup:  1.000
	//   Largest intermediate:  6.400e+01 elements
	// ------------------------------------------------------------------------------
	// pair      scaling flops      size       kind          current -> remaining
	// ------------------------------------------------------------------------------
	// (0,1)     4       3.840e+02  6.400e+01  batched-gemm  bij,bjk->ikb   ikb->bik
	// final: ikb->bik
}

func ExamplePlan_Summary() {
	e, _ := einsum.Parse("ij,jk")
	p, _ := e.Bind([][]int{{2, 3}, {3, 4}})
	pl, _ := einsum.NewPlan(p, einsum.Options{})
	enc := json.NewEncoder(os.Stdout)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(pl.Summary().Steps)
	// Output: [{"pair":[0,1],"subscripts":"ij,jk->ik","remaining":"ik->ik","kind":"gemm","scaling":3,"flops":48,"size":8}]
}

func ExampleOptions_given() {
	e, _ := einsum.Parse("ij,jk,kl->il")
	p, _ := e.Bind([][]int{{10, 100}, {100, 5}, {5, 50}})
	// Contract operands 1 and 2 first, then operand 0 with the result.
	pl, err := einsum.NewPlan(p, einsum.Options{Strategy: einsum.Given, Path: [][2]int{{1, 2}, {0, 1}}})
	if err != nil {
		panic(err)
	}
	fmt.Println(pl.Flops)
	_, err = einsum.NewPlan(p, einsum.Options{Strategy: einsum.Given, Path: [][2]int{{0, 3}, {0, 1}}})
	fmt.Println(err)
	// Output:
	// 150000
	// einsum: path: step 0: position 3 out of range [0, 3)
}

// OutputSize counts the output's elements; a label repeated in the output
// (a diagonal embedded in a matrix) counts once per axis.
func ExampleProblem_OutputSize() {
	e, _ := einsum.Parse("ij,jk->ik")
	p, _ := e.Bind([][]int{{2, 3}, {3, 4}})
	d, _ := einsum.Parse("i->ii")
	q, _ := d.Bind([][]int{{5}})
	fmt.Println(p.OutputSize(), q.OutputSize())
	// Output: 8 25
}
