package program_test

// The examples of docs/guide/programs.md (TestGuideSnippets in the module
// root checks that the guide shows them verbatim).

import (
	"fmt"
	"math"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/program"
	"github.com/tenferro-go/tenferro/trace"
)

// layer records y = tanh(A·x + b) for A (2, 3), x (3) and b (2).
func layer() (*trace.Graph, error) {
	tr := trace.New()
	a, _ := tr.Input(tf.Float64, 2, 3) // symbolic: a dtype and a shape, no data
	x, _ := tr.Input(tf.Float64, 3)
	b, _ := tr.Input(tf.Float64, 2)
	ax, err := tr.Einsum("ij,j->i", a, x) // checked now, as tf.Einsum checks
	if err != nil {
		return nil, err
	}
	s, _ := tr.Add(ax, b)
	y, _ := tr.Tanh(s)
	return tr.Finish(y) // the graph; tr refuses further use
}

// Trace once, compile once, prepare once per engine, run many times.
func Example_guideProgram() {
	g, err := layer()
	if err != nil {
		panic(err)
	}
	p, err := program.Compile(g) // plans every einsum, fuses Add and Tanh
	if err != nil {
		panic(err)
	}
	e := cpu.Serial()
	defer e.Close()
	pp, err := program.Prepare(p, e) // buffers and commands for e
	if err != nil {
		panic(err)
	}
	fmt.Println(p.NumInputs(), p.NumOutputs(), p.NumCommands())

	A, _ := tf.FromRowMajor([]float64{1, 0, 0, 0, 1, 0}, 2, 3)
	X, _ := tf.FromSlice([]float64{0.5, -0.5, 2}, 3)
	B, _ := tf.Zeros[float64](2)
	out, err := pp.Run(tf.ValueOf(A), tf.ValueOf(X), tf.ValueOf(B)) // outputs from e's pool
	if err != nil {
		panic(err)
	}
	fmt.Printf("%.4f\n", out[0])
	out[0].Release()

	Y, _ := tf.Zeros[float64](2) // an output the caller owns
	outs := []tf.Value{tf.ValueOf(Y)}
	ins := []tf.Value{tf.ValueOf(A), tf.ValueOf(X), tf.ValueOf(B)}
	for range 3 {
		if err := pp.RunInto(outs, ins...); err != nil { // allocates nothing
			panic(err)
		}
	}
	_, err = pp.Run(tf.ValueOf(X), tf.ValueOf(X), tf.ValueOf(B))
	fmt.Println(err)
	// Output:
	// 3 1 2
	// Tensor[f64] (2,)
	// [ 0.4621 -0.4621]
	// tenferro: Run: inputs[0]: shape mismatch: expected f64 [2 3], got f64 [3]
}

// The claim of docs/guide/programs.md: a prepared RunInto allocates
// nothing.
func TestGuideRunIntoAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's sync.Pool drops pooled kernel state")
	}
	g, err := layer()
	if err != nil {
		t.Fatal(err)
	}
	p, _ := program.Compile(g)
	e := cpu.Serial()
	defer e.Close()
	pp, _ := program.Prepare(p, e)
	A, _ := tf.Ones[float64](2, 3)
	X, _ := tf.Ones[float64](3)
	B, _ := tf.Ones[float64](2)
	Y, _ := tf.Zeros[float64](2)
	outs := []tf.Value{tf.ValueOf(Y)}
	ins := []tf.Value{tf.ValueOf(A), tf.ValueOf(X), tf.ValueOf(B)}
	allocs := testing.AllocsPerRun(100, func() { _ = pp.RunInto(outs, ins...) })
	if allocs != 0 {
		t.Fatalf("RunInto allocates %v times per run, want 0", allocs)
	}
	if err := pp.RunInto(outs, ins...); err != nil {
		t.Fatal(err)
	}
	for i := range 2 { // tanh(Σ_j 1·1 + 1)
		if y, _ := Y.At(i); math.Abs(y-math.Tanh(4)) > 1e-15 {
			t.Errorf("y[%d] = %v, want tanh(4) = %v", i, y, math.Tanh(4))
		}
	}
}
