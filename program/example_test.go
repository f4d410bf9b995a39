package program_test

import (
	"fmt"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/program"
	"github.com/tenferro-go/tenferro/trace"
)

// Trace once, compile once, prepare per engine, run many times.
func Example() {
	// Record y = 2·(A·B) + C on symbolic inputs.
	tr := trace.New()
	a, _ := tr.Input(tf.Float64, 2, 2)
	b, _ := tr.Input(tf.Float64, 2, 2)
	c, _ := tr.Input(tf.Float64, 2, 2)
	ab, _ := tr.Matmul(a, b)
	y, _ := tr.Add(must2(tr.Scale(2, ab)), c)
	g, _ := tr.Finish(y)

	p, err := program.Compile(g)
	if err != nil {
		panic(err)
	}
	fmt.Println("commands:", p.NumCommands())

	e := cpu.Serial()
	defer e.Close()
	pp, err := program.Prepare(p, e)
	if err != nil {
		panic(err)
	}
	// Column-major data: A = [[1 2] [3 4]] is stored as 1 3 2 4.
	A, _ := tf.FromSlice([]float64{1, 3, 2, 4}, 2, 2)
	I, _ := tf.FromSlice([]float64{1, 0, 0, 1}, 2, 2)
	out, _ := tf.Zeros[float64](2, 2)
	for _, C := range []float64{0, 10} {
		Cm, _ := tf.Full(C, 2, 2)
		if err := pp.RunInto([]tf.Value{tf.ValueOf(out)}, tf.ValueOf(A), tf.ValueOf(I), tf.ValueOf(Cm)); err != nil {
			panic(err)
		}
		d, _ := out.Data()
		fmt.Println(d)
	}
	// Output:
	// commands: 2
	// [2 6 4 8]
	// [12 16 14 18]
}

// A signature mismatch names the input and both shapes.
func ExamplePrepared_Run() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float32, 3)
	s, _ := tr.Sum(x)
	g, _ := tr.Finish(s)
	p, _ := program.Compile(g)
	e := cpu.Serial()
	defer e.Close()
	pp, _ := program.Prepare(p, e)

	v, _ := tf.FromSlice([]float32{1, 2, 3}, 3)
	out, _ := pp.Run(tf.ValueOf(v))
	fmt.Println(out[0])
	w, _ := tf.FromSlice([]float32{1, 2}, 2)
	_, err := pp.Run(tf.ValueOf(w))
	fmt.Println(err)
	// Output:
	// Tensor[f32] ()
	// 6
	// tenferro: Run: inputs[0]: shape mismatch: expected f32 [3], got f32 [2]
}
