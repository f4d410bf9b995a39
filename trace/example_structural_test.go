package trace_test

import (
	"fmt"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/trace"
)

// Structural operations record the result's shape; package program
// compiles and runs them (see its examples).
func ExampleTrace_Squeeze() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 1, 3, 1)
	s, _ := tr.Squeeze(x)
	u, _ := tr.Unsqueeze(s, 0)
	f, _ := tr.Flatten(u)
	fmt.Println(s.Shape(), u.Shape(), f.Shape())
	// Output: [3] [1 3] [3]
}

func ExampleTrace_Unsqueeze() {
	tr := trace.New()
	x, _ := tr.Input(tf.Int64, 2, 3)
	u, _ := tr.Unsqueeze(x, 1, -1)
	fmt.Println(u.Shape())
	// Output: [2 1 3 1]
}

func ExampleTrace_Flatten() {
	tr := trace.New()
	x, _ := tr.Input(tf.Bool, 2, 3)
	f, _ := tr.Flatten(x)
	fmt.Println(f.Shape())
	// Output: [6]
}

func ExampleTrace_Concatenate() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float32, 2, 3)
	y, _ := tr.Input(tf.Float32, 2, 1)
	c, _ := tr.Concatenate(-1, x, y)
	_, err := tr.Concatenate(0, x, y)
	fmt.Println(c.Shape())
	fmt.Println(err)
	// Output:
	// [2 4]
	// tenferro: Concatenate: operands[1]: shape mismatch: expected extent 3 at axis 1 (operands[0] is [2 3], joined along axis 0), got 1 ([2 1])
}

func ExampleTrace_Stack() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 2, 3)
	s, _ := tr.Stack(1, x, x, x)
	fmt.Println(s.Shape())
	// Output: [2 3 3]
}

// Every part is a variable of its own.
func ExampleTrace_Split() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 2, 6)
	parts, _ := tr.Split(x, 1, 3)
	fmt.Println(len(parts), parts[0].Shape())
	// Output: 3 [2 2]
}

func ExampleTrace_SplitAt() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 7)
	parts, _ := tr.SplitAt(x, 0, 2, -2)
	for _, p := range parts {
		fmt.Print(p.Shape())
	}
	fmt.Println()
	// Output: [2][3][2]
}

func ExampleTrace_Tile() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 2, 3)
	t, _ := tr.Tile(x, 2, 1, 2)
	fmt.Println(t.Shape())
	// Output: [2 2 6]
}

func ExampleTrace_Repeat() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 2, 3)
	r, _ := tr.Repeat(x, 1, 1, 0, 4)
	fmt.Println(r.Shape())
	// Output: [2 5]
}

func ExampleTrace_Pad() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 2, 3)
	p, _ := tr.Pad(x, [][2]int{{1, 1}, {0, 2}}, tf.PadReflect, 0)
	fmt.Println(p.Shape())
	// Output: [4 5]
}

func ExampleTrace_Roll() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 2, 3)
	r, _ := tr.Roll(x, []int{1}, []int{0, 1})
	fmt.Println(r.Shape())
	// Output: [2 3]
}

func ExampleTrace_Tril() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 3, 3, 4) // four 3x3 matrices
	l, _ := tr.Tril(x, 0)
	fmt.Println(l.Shape())
	// Output: [3 3 4]
}

func ExampleTrace_Triu() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 3)
	_, err := tr.Triu(x, 0)
	fmt.Println(err)
	// Output: tenferro: Triu: a: shape mismatch: expected rank >= 2 (rows, columns, batch...), got rank 1
}

func ExampleTrace_Diag() {
	tr := trace.New()
	v, _ := tr.Input(tf.Float64, 3)
	m, _ := tr.Diag(v, -1)
	d, _ := tr.Diag(m, 0)
	fmt.Println(m.Shape(), d.Shape())
	// Output: [4 4] [4]
}

func ExampleTrace_Contiguous() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 2, 3)
	c, _ := tr.Contiguous(x, tf.RowMajor)
	fmt.Println(c.Shape())
	// Output: [2 3]
}

func ExampleTrace_Take() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 2, 3)
	idx, _ := tr.Input(tf.Int64, 5)
	y, _ := tr.Take(x, -1, idx)
	fmt.Println(y.Shape())
	// Output: [2 5]
}

func ExampleTrace_Gather() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 2, 3)
	idx, _ := tr.Input(tf.Int64, 2, 1)
	y, _ := tr.Gather(x, 1, idx)
	fmt.Println(y.Shape())
	// Output: [2 1]
}

func ExampleTrace_ScatterAdd() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float32, 4)
	idx, _ := tr.Input(tf.Int64, 6)
	src, _ := tr.Input(tf.Float32, 6)
	y, _ := tr.ScatterAdd(x, 0, idx, src)
	fmt.Println(y.Shape(), y.DType())
	// Output: [4] f32
}

// A traced selection has a static length: the selected elements, then
// zeros.
func ExampleTrace_MaskedSelect() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 2, 3)
	mask, _ := tr.Input(tf.Bool, 3)
	y, _ := tr.MaskedSelect(x, mask, 6)
	fmt.Println(y.Shape())
	// Output: [6]
}
