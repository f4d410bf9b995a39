package slicing_test

import (
	"bytes"
	"fmt"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/slicing"
)

// chainPlan is the three-slice plan of a small matrix chain, and its
// operands (all ones).
func chainPlan() (*slicing.Plan, []tf.Value) {
	p, _ := slicing.New(tf.Float64, "ij,jk,kl->il", [][]int{{2, 3}, {3, 4}, {4, 2}}, 16)
	a, _ := tf.Ones[float64](2, 3)
	b, _ := tf.Ones[float64](3, 4)
	c, _ := tf.Ones[float64](4, 2)
	return p, []tf.Value{tf.ValueOf(a), tf.ValueOf(b), tf.ValueOf(c)}
}

// NewReducer starts a sum over all of a plan's slices.
func ExampleNewReducer() {
	p, _ := chainPlan()
	r, err := slicing.NewReducer(p)
	fmt.Println(err)
	fmt.Println(r.Progress())
	// Output:
	// <nil>
	// 0 3
}

// Progress counts the slices summed so far; Done reports all of them.
func ExampleReducer_Progress() {
	e := cpu.Serial()
	defer e.Close()
	p, ops := chainPlan()
	r, _ := slicing.NewReducer(p)
	for s := range p.Slices {
		partial, _ := tf.NewValue(tf.Float64, p.OutputShape...)
		slicing.ContractRange(e, p, s, s+1, ops, partial)
		r.Add(s, s+1, partial)
		done, total := r.Progress()
		fmt.Println(done, total, r.Done())
	}
	// Output:
	// 1 3 false
	// 2 3 false
	// 3 3 true
}

// Done reports whether every slice has been added.
func ExampleReducer_Done() {
	p, _ := chainPlan()
	r, _ := slicing.NewReducer(p)
	partial, _ := tf.NewValue(tf.Float64, p.OutputShape...)
	r.Add(0, p.Slices, partial)
	fmt.Println(r.Done())
	// Output: true
}

// Result is the sum, once every slice is in; before, it is an error.
func ExampleReducer_Result() {
	e := cpu.Serial()
	defer e.Close()
	p, ops := chainPlan()
	r, _ := slicing.NewReducer(p)
	_, err := r.Result()
	fmt.Println(err != nil)
	partial, _ := tf.NewValue(tf.Float64, p.OutputShape...)
	slicing.ContractRange(e, p, 0, p.Slices, ops, partial)
	r.Add(0, p.Slices, partial)
	out, err := r.Result()
	fmt.Println(out, err)
	// Output:
	// true
	// Tensor[f64] (2, 2)
	// [[12 12]
	//  [12 12]] <nil>
}

// Check compares operands with the plan before any work.
func ExamplePlan_Check() {
	p, ops := chainPlan()
	fmt.Println(p.Check(ops))
	wrong, _ := tf.Ones[float64](3, 3)
	fmt.Println(p.Check([]tf.Value{tf.ValueOf(wrong), ops[1], ops[2]}) != nil)
	// Output:
	// <nil>
	// true
}

// Write renders the plan as JSON, which Read takes back.
func ExamplePlan_Write() {
	p, _ := chainPlan()
	var buf bytes.Buffer
	if err := p.Write(&buf); err != nil {
		panic(err)
	}
	q, err := slicing.Read(&buf)
	fmt.Println(q.Subscripts, q.SlicedLabels, q.Slices, err)
	// Output: ij,jk,kl->il [j] 3 <nil>
}
