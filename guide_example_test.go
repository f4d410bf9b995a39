package tenferro_test

// The examples of docs/guide/getting-started.md. Every code block of the
// guide appears here verbatim (TestGuideSnippets checks it), so that the
// guide shows code that compiles and output that is true.

import (
	"errors"
	"fmt"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/team"
)

// A serial engine and a team engine.
func Example_guideEngine() {
	e := cpu.Serial() // everything runs on the calling goroutine
	defer e.Close()

	t, err := team.New(team.Threads(4)) // the caller and 3 workers
	if err != nil {
		panic(err)
	}
	te, err := cpu.New(t) // te owns t: te.Close() closes the team too
	if err != nil {
		panic(err)
	}
	defer te.Close()
	fmt.Println(e.Threads(), te.Threads())
	// Output: 1 4
}

// Tensors from Go slices, in both element orders, and the constructors.
func Example_guideTensor() {
	a, _ := tf.FromSlice([]float64{1, 2, 3, 4, 5, 6}, 2, 3)    // column-major: a(i, j) = data[i + 2·j]
	b, _ := tf.FromRowMajor([]float64{1, 2, 3, 4, 5, 6}, 2, 3) // NumPy's order: b(i, j) = data[3·i + j]
	x, _ := a.At(1, 0)
	y, _ := b.At(1, 0)
	fmt.Println(a.Shape(), a.DType(), x, y)
	fmt.Println(b)

	z, _ := tf.Zeros[float32](2, 2)
	f, _ := tf.Full(complex(0, 1), 3) // complex128: the type of the value
	r, _ := tf.Arange[float64](0, 1, 0.25)
	fmt.Println(z.DType(), f.DType(), r.Shape())
	// Output:
	// [2 3] f64 2 4
	// Tensor[f64] (2, 3)
	// [[1 2 3]
	//  [4 5 6]]
	// f32 c128 [4]
}

// A first einsum: the matrix product, a trace and an outer product.
func Example_guideEinsum() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromRowMajor([]float64{1, 2, 3, 4}, 2, 2)
	b, _ := tf.FromRowMajor([]float64{5, 6, 7, 8}, 2, 2)

	c, err := tf.Einsum(e, "ij,jk->ik", a, b) // C = A·B
	if err != nil {
		panic(err)
	}
	defer c.Release()
	fmt.Println(c)

	tr, _ := tf.Einsum(e, "ii->", a) // the trace, a 0-d tensor
	v, _ := tf.FromSlice([]float64{1, 2}, 2)
	outer, _ := tf.Einsum(e, "i,j->ij", v, v) // the outer product
	s, _ := tr.At()
	fmt.Println(s, outer.Shape())
	// Output:
	// Tensor[f64] (2, 2)
	// [[19 22]
	//  [43 50]]
	// 5 [2 2]
}

// Results come from the engine's pool: Release gives the storage back.
// An Into form writes into a destination the caller owns.
func Example_guideReleaseInto() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromSlice([]float64{1, 2, 3, 4}, 2, 2)
	b, _ := tf.Full(10.0, 2, 2)

	c, _ := tf.Add(e, a, b) // storage from e's pool
	x, _ := c.At(1, 1)
	c.Release() // back to the pool: c and its views refuse further use
	_, err := c.At(1, 1)
	fmt.Println(x, errors.Is(err, tf.ErrReleased))

	dst, _ := tf.Zeros[float64](2, 2) // owned by the caller
	for range 3 {
		if err := tf.AddInto(e, dst, a, b); err != nil { // allocates nothing
			panic(err)
		}
	}
	_ = tf.MulInto(e, dst, dst, a) // elementwise: dst may be an input (in place)
	fmt.Println(dst)
	// Output:
	// 14 true
	// Tensor[f64] (2, 2)
	// [[11 39]
	//  [24 56]]
}

// Every error names the operation and the argument, and errors.Is
// matches its kind.
func Example_guideErrors() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.Zeros[float64](2, 3)
	b, _ := tf.Zeros[float64](4, 5)

	_, err := tf.Matmul(e, a, b)
	fmt.Println(err)
	fmt.Println(errors.Is(err, tf.ErrShape), errors.Is(err, tf.ErrDType))
	var te *tf.Error
	if errors.As(err, &te) {
		fmt.Printf("op %s, argument %s, expected %s\n", te.Op, te.Arg, te.Expected)
	}
	// Output:
	// tenferro: Matmul: b: shape mismatch: expected 3 rows (a is [2 3]), got 4 rows (b is [4 5])
	// true false
	// op Matmul, argument b, expected 3 rows (a is [2 3])
}

// Tensors print in logical order, last axis innermost, as NumPy prints.
func Example_guidePrinting() {
	a, _ := tf.FromRowMajor([]float64{1, -2.5, 3.25, 4}, 2, 2)
	fmt.Printf("%.2f\n", a) // verbs apply to every element
	at, _ := a.Transpose()  // a view: the same storage
	fmt.Printf("%+v\n", at) // %+v adds the layout
	// Output:
	// Tensor[f64] (2, 2)
	// [[ 1.00 -2.50]
	//  [ 3.25  4.00]]
	// Tensor[f64] (2, 2) strides (2, 1) offset 0
	// [[   1 3.25]
	//  [-2.5    4]]
}
