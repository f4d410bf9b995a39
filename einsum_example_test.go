package tenferro_test

import (
	"fmt"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
)

// Einsum multiplies two matrices given in column-major order: "ij,jk->ik"
// is C = A·B.
func ExampleEinsum() {
	e := cpu.Serial()
	defer e.Close()
	// A = [1 3 5; 2 4 6] (2×3), B = [1 0; 0 1; 1 1] (3×2), column-major.
	a, _ := tf.FromSlice([]float64{1, 2, 3, 4, 5, 6}, 2, 3)
	b, _ := tf.FromSlice([]float64{1, 0, 1, 0, 1, 1}, 3, 2)
	c, err := tf.Einsum(e, "ij,jk->ik", a, b)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Release()
	for i := range 2 {
		x, _ := c.At(i, 0)
		y, _ := c.At(i, 1)
		fmt.Println(x, y)
	}
	// The trace and the diagonal of a matrix.
	m, _ := tf.FromSlice([]float64{1, 2, 3, 4}, 2, 2)
	tr, _ := tf.Einsum(e, "ii", m)
	d, _ := tf.Einsum(e, "ii->i", m)
	trace, _ := tr.At()
	diag, _ := d.Data()
	fmt.Println(trace, diag)
	// Output:
	// 6 8
	// 8 10
	// 5 [1 4]
}

// EinsumInto writes the result into a caller-owned destination, here the
// transposed view of a 3×2 buffer.
func ExampleEinsumInto() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float64{1, 2}, 2)
	y, _ := tf.FromSlice([]float64{10, 20, 30}, 3)
	buf, _ := tf.Zeros[float64](3, 2)
	dst, _ := buf.Transpose() // 2×3 view of buf
	if err := tf.EinsumInto(e, dst, "i,j->ij", x, y); err != nil {
		fmt.Println(err)
		return
	}
	data, _ := buf.Data() // buf holds the outer product transposed
	fmt.Println(data)
	// Output:
	// [10 20 30 20 40 60]
}

// PrepareEinsum plans once; EinsumPlannedInto then evaluates the plan on
// new data without planning or allocating.
func ExamplePrepareEinsum() {
	e := cpu.Serial()
	defer e.Close()
	// A batched product with the batch axis last: C[:,:,b] = A[:,:,b]·B[:,:,b].
	p, err := tf.PrepareEinsum(tf.Float64, "ijb,jkb->ikb", [][]int{{2, 2, 2}, {2, 1, 2}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("output shape", p.OutputShape())
	a, _ := tf.FromSlice([]float64{1, 0, 0, 1, 2, 0, 0, 2}, 2, 2, 2) // I, 2I
	b, _ := tf.FromSlice([]float64{3, 4, 5, 6}, 2, 1, 2)
	dst, _ := tf.Zeros[float64](p.OutputShape()...)
	for range 2 {
		if err := tf.EinsumPlannedInto(e, dst, p, a, b); err != nil {
			fmt.Println(err)
			return
		}
	}
	data, _ := dst.Data()
	fmt.Println(data)
	// Output:
	// output shape [2 1 2]
	// [3 4 10 12]
}
