package tenferro_test

// The rows of docs/guide/numpy-cheatsheet.md: every call of the tenferro
// column appears here verbatim (TestGuideSnippets checks it) with the
// value NumPy gives for the same expression.

import (
	"errors"
	"fmt"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
)

// show prints a tensor a call returned, or its error.
func show[T tf.Elem](t *tf.Tensor[T], err error) {
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%v\n", t)
}

// The column-major layout: element (i, j) of a compact (m, n) tensor is at
// storage offset i + j·m; a view changes strides, never the data.
func Example_numpyLayout() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromRowMajor([]float64{1, 2, 3, 4, 5, 6}, 2, 3) // np.array([[1, 2, 3], [4, 5, 6]])
	fmt.Println(a.Storage(), a.Strides())                      // a(1, 2) = 6 at offset 1 + 2·2 = 5

	at, _ := a.Transpose() // (3, 2), the same storage read with strides (2, 1)
	fmt.Println(at.Strides(), at.IsCompact())
	_, err := at.Data() // the elements of a view are not in column-major order
	fmt.Println(errors.Is(err, tf.ErrLayout))
	c, _ := tf.Copy(e, at) // a compact copy
	d, _ := c.Data()
	fmt.Println(d)

	x, _ := tf.Zeros[float64](5, 2, 3) // NumPy's batch layout: five 2×3 matrices
	xm, _ := x.Permute(1, 2, 0)        // (2, 3, 5): matrices first, batch last, as tf.Matmul wants
	fmt.Println(xm.Shape())
	// Output:
	// [1 4 2 5 3 6] [1 2]
	// [2 1] false
	// true
	// [1 2 3 4 5 6]
	// [2 3 5]
}

// Creation: NumPy's constructors and their tenferro forms.
func Example_numpyCreation() {
	show(tf.Zeros[float64](2, 3))
	show(tf.Ones[float64](2, 3))
	show(tf.Full(7.0, 2, 3))
	show(tf.Identity[float64](3))
	show(tf.Arange[float64](0, 1, 0.25))
	show(tf.Linspace[float64](0, 1, 5, true))
	u, _ := tf.Rand[float64](7, 2, 3)  // uniform in [0, 1), seeded
	n, _ := tf.RandN[float64](7, 2, 3) // standard normal, seeded
	fmt.Println(u.Shape(), n.Shape())
	a, _ := tf.FromRowMajor([]float64{1, 2, 3, 4}, 2, 2) // np.array([[1, 2], [3, 4]])
	a32, _ := tf.Convert(tf.ValueOf(a), tf.Float32)
	fmt.Println(a32)
	// Output:
	// Tensor[f64] (2, 3)
	// [[0 0 0]
	//  [0 0 0]]
	// Tensor[f64] (2, 3)
	// [[1 1 1]
	//  [1 1 1]]
	// Tensor[f64] (2, 3)
	// [[7 7 7]
	//  [7 7 7]]
	// Tensor[f64] (3, 3)
	// [[1 0 0]
	//  [0 1 0]
	//  [0 0 1]]
	// Tensor[f64] (4,)
	// [   0 0.25  0.5 0.75]
	// Tensor[f64] (5,)
	// [   0 0.25  0.5 0.75    1]
	// [2 3] [2 3]
	// Tensor[f32] (2, 2)
	// [[1 2]
	//  [3 4]]
}

// Elementwise arithmetic and broadcasting, as NumPy on logical shapes.
func Example_numpyElementwise() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromRowMajor([]float64{1, -2, 3, -4, 5, -6}, 2, 3)
	b, _ := tf.Full(2.0, 2, 3)
	v, _ := tf.FromSlice([]float64{10, 20, 30}, 3)
	z, _ := tf.FromSlice([]complex128{3 + 4i}, 1)

	show(tf.Add(e, a, b))
	show(tf.Mul(e, a, b))
	show(tf.Div(e, a, tf.Const(2.0))) // a / 2: a 0-d tensor broadcasts
	show(tf.Relu(e, a))
	show(tf.Abs[float64](e, z)) // the real dtype comes first
	m, _ := tf.Less(e, a, b)
	show(tf.Where(e, m, a, b))
	show(tf.Add(e, a, v)) // v (3) runs along a's last axis
	_ = tf.AddInto(e, a, a, b)
	show(a, nil)
	// Output:
	// Tensor[f64] (2, 3)
	// [[ 3  0  5]
	//  [-2  7 -4]]
	// Tensor[f64] (2, 3)
	// [[  2  -4   6]
	//  [ -8  10 -12]]
	// Tensor[f64] (2, 3)
	// [[0.5  -1 1.5]
	//  [ -2 2.5  -3]]
	// Tensor[f64] (2, 3)
	// [[1 0 3]
	//  [0 5 0]]
	// Tensor[f64] (1,)
	// [5]
	// Tensor[f64] (2, 3)
	// [[ 1 -2  2]
	//  [-4  2 -6]]
	// Tensor[f64] (2, 3)
	// [[11 18 33]
	//  [ 6 25 24]]
	// Tensor[f64] (2, 3)
	// [[ 3  0  5]
	//  [-2  7 -4]]
}

// Reductions over axes, keepdims through an Into destination.
func Example_numpyReductions() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromRowMajor([]float64{1, 2, 3, 4, 5, 6}, 2, 3)
	v, _ := tf.FromSlice([]float64{3, 4}, 2)

	show(tf.Sum(e, a))
	show(tf.Sum(e, a, 0))
	show(tf.Mean(e, a, 0, 1))
	show(tf.Max(e, a, -1))
	show(tf.ArgMax(e, a, 0))
	show(tf.Norm[float64](e, v, 2))
	show(tf.CumSum(e, a, 0))
	mx, _ := tf.Zeros[float64](2, 1)
	_ = tf.MaxInto(e, mx, a, -1) // a.max(-1, keepdims=True)
	show(tf.Sub(e, a, mx))
	// Output:
	// Tensor[f64] ()
	// 21
	// Tensor[f64] (3,)
	// [5 7 9]
	// Tensor[f64] ()
	// 3.5
	// Tensor[f64] (2,)
	// [3 6]
	// Tensor[i64] (3,)
	// [1 1 1]
	// Tensor[f64] ()
	// 5
	// Tensor[f64] (2, 3)
	// [[1 2 3]
	//  [5 7 9]]
	// Tensor[f64] (2, 3)
	// [[-2 -1  0]
	//  [-2 -1  0]]
}

// Views cost nothing: they share a's storage.
func Example_numpyViews() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromRowMajor([]float64{1, 2, 3, 4, 5, 6}, 2, 3)
	x, _ := tf.Zeros[float64](2, 3, 4)
	v, _ := tf.FromSlice([]float64{10, 20, 30}, 3)

	show(a.Transpose())
	p, _ := x.Permute(1, 0, 2)
	fmt.Println(p.Shape())
	show(a.Reshape(3, 2)) // column-major order: NumPy's reshape(3, 2, order='F')
	show(tf.Flatten(e, a))
	u, _ := a.Unsqueeze(0)
	s, _ := u.Squeeze()
	fmt.Println(u.Shape(), s.Shape())
	show(v.Broadcast(2, 3))
	c, _ := tf.Contiguous(e, a, tf.RowMajor) // NumPy's C order in storage
	fmt.Println(c.Storage()[c.Offset() : c.Offset()+c.Len()])
	k, _ := a.Clone() // fresh memory, no engine
	d, _ := tf.Copy(e, a)
	fmt.Println(k.Shape(), d.Shape())
	// Output:
	// Tensor[f64] (3, 2)
	// [[1 4]
	//  [2 5]
	//  [3 6]]
	// [3 2 4]
	// Tensor[f64] (3, 2)
	// [[1 5]
	//  [4 3]
	//  [2 6]]
	// Tensor[f64] (6,)
	// [1 4 2 5 3 6]
	// [1 2 3] [2 3]
	// Tensor[f64] (2, 3)
	// [[10 20 30]
	//  [10 20 30]]
	// [1 2 3 4 5 6]
	// [2 3] [2 3]
}

// NumPy's default reshape reads C order. Its column-major equivalent
// reverses the axes, reshapes to the reversed shape and reverses back.
func Example_numpyReshapeC() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromRowMajor([]float64{1, 2, 3, 4, 5, 6}, 2, 3)

	at, _ := a.Transpose()              // (3, 2)
	r, _ := tf.ReshapeCopy(e, at, 2, 3) // reversed target shape; a copy
	c, _ := r.Transpose()               // (3, 2): np.reshape(a, (3, 2))
	fmt.Println(c)
	// Output:
	// Tensor[f64] (3, 2)
	// [[1 2]
	//  [3 4]
	//  [5 6]]
}

// Element access, slicing and index tensors.
func Example_numpyIndexing() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromRowMajor([]float64{1, 2, 3, 4, 5, 6}, 2, 3)
	b, _ := tf.Full(0.0, 2, 3)
	idx, _ := tf.FromSlice([]int64{2, 0}, 2)
	idx2, _ := tf.FromRowMajor([]int64{0, 0, 1, 2}, 2, 2)
	mask, _ := tf.FromRowMajor([]bool{true, false, true, false, true, false}, 2, 3)

	x, _ := a.At(1, 2)
	fmt.Println(x)
	_ = b.Set(5, 1, 2)
	show(b, nil)
	show(a.Slice(1, 1, 3, 1)) // a[:, 1:3]
	show(a.Reverse(0))        // a[::-1]
	show(a.Diagonal(0, 1))
	show(tf.Take(e, a, 1, idx))    // np.take(a, [2, 0], axis=1)
	show(tf.Gather(e, a, 1, idx2)) // np.take_along_axis(a, idx2, axis=1)
	show(tf.MaskedSelect(e, a, mask))
	show(tf.Concatenate(e, 0, a, b))
	show(tf.Stack(e, 0, a, b))
	// Output:
	// 6
	// Tensor[f64] (2, 3)
	// [[0 0 0]
	//  [0 0 5]]
	// Tensor[f64] (2, 2)
	// [[2 3]
	//  [5 6]]
	// Tensor[f64] (2, 3)
	// [[4 5 6]
	//  [1 2 3]]
	// Tensor[f64] (2,)
	// [1 5]
	// Tensor[f64] (2, 2)
	// [[3 1]
	//  [6 4]]
	// Tensor[f64] (2, 2)
	// [[1 1]
	//  [5 6]]
	// Tensor[f64] (3,)
	// [1 5 3]
	// Tensor[f64] (4, 3)
	// [[1 2 3]
	//  [4 5 6]
	//  [0 0 0]
	//  [0 0 5]]
	// Tensor[f64] (2, 2, 3)
	// [[[1 2 3]
	//   [4 5 6]]
	//
	//  [[0 0 0]
	//   [0 0 5]]]
}

// Matrix products: the matrices are the first two axes, batch axes last.
func Example_numpyMatmul() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromRowMajor([]float64{1, 2, 3, 4}, 2, 2)
	b, _ := tf.FromRowMajor([]float64{0, 1, 1, 0}, 2, 2)

	show(tf.Einsum(e, "ij,jk->ik", a, b))
	show(tf.Matmul(e, a, b))
	x, _ := tf.Ones[float64](2, 3, 5) // 5 matrices of 2×3: NumPy's (5, 2, 3)
	y, _ := tf.Ones[float64](3, 4, 5)
	xy, _ := tf.Matmul(e, x, y)
	fmt.Println(xy.Shape())
	// Output:
	// Tensor[f64] (2, 2)
	// [[2 1]
	//  [4 3]]
	// Tensor[f64] (2, 2)
	// [[2 1]
	//  [4 3]]
	// [2 4 5]
}
