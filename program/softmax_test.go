package program_test

import (
	"fmt"
	"math"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/program"
	"github.com/tenferro-go/tenferro/trace"
)

// softmax records the softmax of a (rows, cols) input over its last axis
// with the public operations: exp(x - max) / sum, the maximum and the sum
// kept as (rows, 1) so that they broadcast against x.
func softmax(dt tf.DType, rows, cols int) (*program.Program, error) {
	return softmaxAxis(dt, rows, cols, 1)
}

// softmaxAxis records the softmax of a (rows, cols) input over axis 0 or 1.
func softmaxAxis(dt tf.DType, rows, cols, axis int, opts ...program.Option) (*program.Program, error) {
	keep := []int{rows, 1}
	if axis == 0 {
		keep = []int{1, cols}
	}
	tr := trace.New()
	x, _ := tr.Input(dt, rows, cols)
	m, _ := tr.Max(x, axis)
	mk, _ := tr.Reshape(m, keep...)
	d, _ := tr.Sub(x, mk)
	y, _ := tr.Exp(d)
	s, _ := tr.Sum(y, axis)
	sk, _ := tr.Reshape(s, keep...)
	out, err := tr.Div(y, sk)
	if err != nil {
		return nil, err
	}
	g, err := tr.Finish(out)
	if err != nil {
		return nil, err
	}
	return program.Compile(g, opts...)
}

// A softmax over the last axis, compiled once and run on the caller's
// tensors.
func Example_softmax() {
	p, err := softmax(tf.Float64, 2, 3)
	if err != nil {
		panic(err)
	}
	e := cpu.Serial()
	defer e.Close()
	pp, _ := program.Prepare(p, e)
	x, _ := tf.FromRowMajor([]float64{1, 2, 3, 0, 0, 1000}, 2, 3)
	out, _ := pp.Run(tf.ValueOf(x))
	fmt.Printf("%.4f\n", out[0])
	// Output:
	// Tensor[f64] (2, 3)
	// [[0.0900 0.2447 0.6652]
	//  [0.0000 0.0000 1.0000]]
}

// TestSoftmaxProgram checks the compiled softmax against a direct
// computation on an awkward shape.
func TestSoftmaxProgram(t *testing.T) {
	const rows, cols = 37, 129
	p, err := softmax(tf.Float32, rows, cols)
	if err != nil {
		t.Fatal(err)
	}
	e := cpu.Serial()
	defer e.Close()
	pp, _ := program.Prepare(p, e)
	x, _ := tf.RandN[float32](3, rows, cols)
	out, err := pp.Run(tf.ValueOf(x))
	if err != nil {
		t.Fatal(err)
	}
	y, _ := tf.As[float32](out[0])
	for i := range rows {
		m := math.Inf(-1)
		for j := range cols {
			v, _ := x.At(i, j)
			m = math.Max(m, float64(v))
		}
		var s float64
		for j := range cols {
			v, _ := x.At(i, j)
			s += math.Exp(float64(v) - m)
		}
		for j := range cols {
			v, _ := x.At(i, j)
			g, _ := y.At(i, j)
			if w := math.Exp(float64(v)-m) / s; math.Abs(float64(g)-w) > 1e-6*w+1e-9 {
				t.Fatalf("(%d, %d): %g, want %g", i, j, g, w)
			}
		}
	}
}

// BenchmarkSoftmax runs the compiled softmax of a (4096, 4096) float32
// tensor on a serial engine over its last axis (strided in column-major
// storage) and over its first (contiguous); docs/ops.md compares it with
// torch.softmax at one thread.
func BenchmarkSoftmax(b *testing.B) {
	const n = 4096
	for _, axis := range []int{1, 0} {
		b.Run(fmt.Sprintf("axis=%d", axis), func(b *testing.B) {
			p, err := softmaxAxis(tf.Float32, n, n, axis)
			if err != nil {
				b.Fatal(err)
			}
			e := cpu.Serial()
			defer e.Close()
			pp, _ := program.Prepare(p, e)
			x, _ := tf.RandN[float32](1, n, n)
			out, _ := tf.Zeros[float32](n, n)
			outs := []tf.Value{tf.ValueOf(out)}
			b.SetBytes(2 * 4 * n * n)
			for b.Loop() {
				if err := pp.RunInto(outs, tf.ValueOf(x)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
