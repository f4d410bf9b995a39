package program_test

import (
	"errors"
	"fmt"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/einsum"
	"github.com/tenferro-go/tenferro/program"
	"github.com/tenferro-go/tenferro/trace"
)

// softplus records log(1 + exp(x)) summed over x's first axis.
func softplus() *trace.Graph {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 4, 3)
	ex, _ := tr.Exp(x)
	l, _ := tr.Log1p(ex)
	s, _ := tr.Sum(l, 0)
	g, _ := tr.Finish(s)
	return g
}

// Compile plans, fuses and assigns buffers once; the program is immutable
// and may be prepared on many engines.
func ExampleCompile() {
	tr := trace.New()
	a, _ := tr.Input(tf.Float64, 3, 3)
	b, _ := tr.Input(tf.Float64, 3, 1)
	x, _ := tr.Solve(a, b)
	_, _ = tr.Inv(a) // dead: no output reads it
	g, _ := tr.Finish(x)
	p, err := program.Compile(g)
	if err != nil {
		panic(err)
	}
	fmt.Println(p.NumInputs(), p.NumOutputs(), p.NumCommands(), p.Stats().Dead)
	// Output: 2 1 1 1
}

// Prepare binds a program to one engine: it allocates the slots and binds
// every command to the engine's kernels.
func ExamplePrepare() {
	tr := trace.New()
	a, _ := tr.Input(tf.Float64, 2, 2)
	b, _ := tr.Input(tf.Float64, 2, 1)
	x, _ := tr.Solve(a, b)
	g, _ := tr.Finish(x)
	p, _ := program.Compile(g)

	e := cpu.Serial()
	defer e.Close()
	pp, err := program.Prepare(p, e)
	if err != nil {
		panic(err)
	}
	A, _ := tf.FromRowMajor([]float64{2, 1, 1, 3}, 2, 2)
	B, _ := tf.FromSlice([]float64{3, 5}, 2, 1)
	out, _ := pp.Run(tf.ValueOf(A), tf.ValueOf(B))
	X, _ := tf.As[float64](out[0])
	d, _ := X.Data()
	fmt.Printf("%.4f\n", d)
	// Output: [0.8000 1.4000]
}

// RunInto writes caller-owned outputs and allocates nothing on a warm
// engine; everything is checked before anything is written.
func ExamplePrepared_RunInto() {
	p, _ := program.Compile(softplus())
	e := cpu.Serial()
	defer e.Close()
	pp, _ := program.Prepare(p, e)
	x, _ := tf.Zeros[float64](4, 3)
	y, _ := tf.Zeros[float64](3)
	for range 2 {
		if err := pp.RunInto([]tf.Value{tf.ValueOf(y)}, tf.ValueOf(x)); err != nil {
			panic(err)
		}
	}
	d, _ := y.Data()
	fmt.Printf("%.4f\n", d) // 4·log 2
	wrong, _ := tf.Zeros[float64](4)
	err := pp.RunInto([]tf.Value{tf.ValueOf(wrong)}, tf.ValueOf(x))
	fmt.Println(errors.Is(err, tf.ErrShape))
	// Output:
	// [2.7726 2.7726 2.7726]
	// true
}

// A Prepared replays the program's commands.
func ExamplePrepared_NumCommands() {
	p, _ := program.Compile(softplus())
	e := cpu.Serial()
	defer e.Close()
	pp, _ := program.Prepare(p, e)
	fmt.Println(pp.NumCommands(), p.NumCommands())
	// Output: 1 1
}

func ExamplePrepared_Program() {
	p, _ := program.Compile(softplus())
	e := cpu.Serial()
	defer e.Close()
	pp, _ := program.Prepare(p, e)
	dt, shape := pp.Program().InputSignature(0)
	fmt.Println(pp.Program() == p, dt, shape)
	// Output: true f64 [4 3]
}

// The slot storage belongs to the Prepared, not to the engine's pool.
func ExamplePrepared_SlotBytes() {
	tr := trace.New()
	a, _ := tr.Input(tf.Float64, 10, 10)
	b, _ := tr.Matmul(a, a)
	c, _ := tr.Matmul(b, a) // b lives in a slot of 100 float64
	g, _ := tr.Finish(c)
	p, _ := program.Compile(g)
	e := cpu.Serial()
	defer e.Close()
	pp, _ := program.Prepare(p, e)
	fmt.Println(pp.SlotBytes(), p.Stats().SlotBytes)
	// Output: 800 800
}

func ExampleProgram_InputSignature() {
	tr := trace.New()
	_, _ = tr.Input(tf.Complex64, 2, 3)
	n, _ := tr.Input(tf.Int64, 5)
	g, _ := tr.Finish(n)
	p, _ := program.Compile(g)
	for i := range p.NumInputs() {
		dt, shape := p.InputSignature(i)
		fmt.Println(i, dt, shape)
	}
	// Output:
	// 0 c64 [2 3]
	// 1 i64 [5]
}

func ExampleProgram_OutputSignature() {
	tr := trace.New()
	a, _ := tr.Input(tf.Complex128, 4, 3)
	_, s, _, _ := tr.SVD(a)
	n, _ := tr.Norm(a, 2)
	g, _ := tr.Finish(s, n)
	p, _ := program.Compile(g)
	for j := range p.NumOutputs() {
		dt, shape := p.OutputSignature(j)
		fmt.Println(j, dt, shape)
	}
	// Output:
	// 0 f64 [3]
	// 1 f64 []
}

func ExampleProgram_NumInputs() {
	tr := trace.New()
	a, _ := tr.Input(tf.Float64, 2)
	b, _ := tr.Input(tf.Float64, 2) // unused inputs stay in the signature
	_ = b
	s, _ := tr.Sum(a)
	g, _ := tr.Finish(s)
	p, _ := program.Compile(g)
	fmt.Println(p.NumInputs())
	// Output: 2
}

func ExampleProgram_NumOutputs() {
	tr := trace.New()
	a, _ := tr.Input(tf.Float64, 3, 3)
	q, r, _ := tr.QR(a, true)
	g, _ := tr.Finish(q, r, q)
	p, _ := program.Compile(g)
	fmt.Println(p.NumOutputs())
	// Output: 3
}

// An elementwise chain and the reduction of its result fuse into one
// command.
func ExampleProgram_NumCommands() {
	p, _ := program.Compile(softplus())
	q, _ := program.Compile(softplus(), program.WithoutFusion())
	fmt.Println(p.NumCommands(), q.NumCommands())
	// Output: 1 3
}

// The memory a run needs besides its inputs and outputs: slots and einsum
// intermediates.
func ExampleProgram_PlannedPeakBytes() {
	tr := trace.New()
	a, _ := tr.Input(tf.Float64, 10, 10)
	b, _ := tr.Matmul(a, a)
	c, _ := tr.Matmul(b, a)
	g, _ := tr.Finish(c)
	p, _ := program.Compile(g)
	fmt.Println(p.PlannedPeakBytes())
	// Output: 800
}

func ExampleProgram_Stats() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 8)
	a, _ := tr.Exp(x)
	b, _ := tr.Exp(x) // the same as a: merged
	c, _ := tr.Add(a, b)
	d, _ := tr.Sqrt(c)
	g, _ := tr.Finish(d)
	p, _ := program.Compile(g)
	s := p.Stats()
	// Exp is computed once, and Add and Sqrt fuse into one command.
	fmt.Println(s.Nodes, s.CSE, s.Fused, s.Commands)
	// Output: 5 1 2 2
}

func ExampleProgram_String() {
	p, _ := program.Compile(softplus())
	fmt.Print(p)
	// Output:
	// program: 1 inputs, 1 outputs, 1 commands, 0 slots (0 bytes), planned peak 0 bytes
	//   0 reduce out0[3] <- in0[4 3] Sum mask=0x1 of 2 fused ops, 3 instructions
}

// The einsum planning options of a whole program. Here the greedy path
// holds a 10×5 and a 10×2 intermediate at once (70 float64), the optimal
// one a 5×2 and a 10×2 (30).
func ExampleWithEinsumOptions() {
	tr := trace.New()
	a, _ := tr.Input(tf.Float64, 10, 10)
	b, _ := tr.Input(tf.Float64, 10, 5)
	c, _ := tr.Input(tf.Float64, 5, 2)
	d, _ := tr.Input(tf.Float64, 2, 2)
	r, _ := tr.Einsum("ij,jk,kl,lm->im", a, b, c, d)
	g, _ := tr.Finish(r)
	greedy, _ := program.Compile(g, program.WithEinsumOptions(einsum.Options{Strategy: einsum.Greedy}))
	optimal, _ := program.Compile(g)
	fmt.Println(greedy.PlannedPeakBytes(), optimal.PlannedPeakBytes())
	// Output: 560 240
}

// Without common subexpression elimination, equal nodes are computed
// twice.
func ExampleWithoutCSE() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 4, 4)
	a, _ := tr.Matmul(x, x)
	b, _ := tr.Matmul(x, x)
	c, _ := tr.Add(a, b)
	g, _ := tr.Finish(c)
	p, _ := program.Compile(g)
	q, _ := program.Compile(g, program.WithoutCSE())
	fmt.Println(p.Stats().CSE, p.NumCommands(), q.Stats().CSE, q.NumCommands())
	// Output: 1 2 0 3
}

// Without fusion every elementwise operation is a command of its own,
// with a buffer for each intermediate; the results are the same.
func ExampleWithoutFusion() {
	fused, _ := program.Compile(softplus())
	plain, _ := program.Compile(softplus(), program.WithoutFusion())
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.Zeros[float64](4, 3)
	for _, p := range []*program.Program{fused, plain} {
		pp, _ := program.Prepare(p, e)
		out, _ := pp.Run(tf.ValueOf(x))
		y, _ := tf.As[float64](out[0])
		v, _ := y.At(0)
		fmt.Printf("%d commands, %d slots: %.4f\n", p.NumCommands(), p.Stats().Slots, v)
		out[0].Release()
	}
	// Output:
	// 1 commands, 0 slots: 2.7726
	// 3 commands, 2 slots: 2.7726
}

// With recomputation, the links of an elementwise chain that a later
// command reads again are recomputed there instead of kept in buffers.
func ExampleWithRecompute() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 1000)
	a, _ := tr.Tanh(x)
	b, _ := tr.Sin(a)
	c, _ := tr.Mul(b, a) // reads a again
	s, _ := tr.Sum(c)    // the forward result
	d, _ := tr.Square(b) // b read again, as a backward pass would
	t, _ := tr.Mul(d, a) // a read a third time
	g, _ := tr.Finish(s, t)
	stored, _ := program.Compile(g)
	re, _ := program.Compile(g, program.WithRecompute(4))
	fmt.Println(stored.PlannedPeakBytes(), stored.NumCommands())
	fmt.Println(re.PlannedPeakBytes(), re.NumCommands(), re.Stats().Recomputed)
	// Output:
	// 16000 4
	// 0 2 2
}
