package program_test

import (
	"fmt"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/program"
	"github.com/tenferro-go/tenferro/trace"
)

// TestConstants checks programs that read constants: scalars that
// broadcast, a matrix operand, a reshaped constant and a constant output,
// with and without fusion and tiling, against direct evaluation.
func TestConstants(t *testing.T) {
	for _, dt := range tf.ScalarDTypes {
		tr := trace.New()
		x, _ := tr.Input(dt, 6, 5)
		two, _ := tr.Full(dt, 2)
		w, _ := tr.Full(dt, 0.5, 5, 3)
		one, _ := tr.Full(dt, 1, 1, 5)
		y, _ := tr.Sub(x, two)                  // x - 2, a 0-d constant
		z, _ := tr.Add(must(tr.Mul(y, y)), one) // (x - 2)^2 + 1
		m, _ := tr.Matmul(z, w)
		s, _ := tr.Sum(z, 1)
		r, _ := tr.Reshape(w, 15) // a view of a constant: copied
		g, err := tr.Finish(m, s, r, two)
		if err != nil {
			t.Fatal(err)
		}
		progs := checkGraph(t, g, 8)
		if progs[0].NumCommands() < 3 {
			t.Errorf("%v: %d commands\n%s", dt, progs[0].NumCommands(), progs[0])
		}
	}
}

// TestConstantIsCopied checks that Const copies its tensor: changing the
// tensor after recording does not change the program.
func TestConstantIsCopied(t *testing.T) {
	c, _ := tf.FromSlice([]float64{1, 2, 3}, 3)
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 3)
	k, err := tr.Const(tf.ValueOf(c))
	if err != nil {
		t.Fatal(err)
	}
	y, _ := tr.Mul(x, k)
	g, _ := tr.Finish(y)
	p, err := program.Compile(g)
	if err != nil {
		t.Fatal(err)
	}
	_ = c.Set(100, 0)
	c.Release()
	e := cpu.Serial()
	defer e.Close()
	pp, _ := program.Prepare(p, e)
	in, _ := tf.FromSlice([]float64{1, 1, 1}, 3)
	out, err := pp.Run(tf.ValueOf(in))
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(out[0]); got != "Tensor[f64] (3,)\n[1 2 3]" {
		t.Errorf("got %s", got)
	}
}

// A traced x - 1 with a constant: Full records the 1 as a 0-d constant
// that broadcasts.
func ExampleProgram_constants() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 3)
	one, _ := tr.Full(tf.Float64, 1)
	y, _ := tr.Sub(x, one)
	g, _ := tr.Finish(y)
	p, _ := program.Compile(g)
	e := cpu.Serial()
	defer e.Close()
	pp, _ := program.Prepare(p, e)
	in, _ := tf.FromSlice([]float64{1, 2, 3}, 3)
	out, _ := pp.Run(tf.ValueOf(in))
	fmt.Println(out[0])
	// Output:
	// Tensor[f64] (3,)
	// [0 1 2]
}
