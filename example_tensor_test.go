package tenferro_test

import (
	"errors"
	"fmt"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
)

func ExampleZeros() {
	z, _ := tf.Zeros[float64](2, 3)
	b, _ := tf.Zeros[bool](2) // false for bool
	d, _ := b.Data()
	fmt.Println(z.Shape(), z.Len(), d)
	// Output: [2 3] 6 [false false]
}

func ExampleOnes() {
	o, _ := tf.Ones[complex64](2)
	b, _ := tf.Ones[bool](2) // true for bool
	d1, _ := o.Data()
	d2, _ := b.Data()
	fmt.Println(d1, d2)
	// Output: [(1+0i) (1+0i)] [true true]
}

func ExampleFull() {
	x, _ := tf.Full(2.5, 2, 2)
	s, _ := tf.Full(int64(7)) // no extents: a 0-d tensor
	d, _ := x.Data()
	v, _ := s.At()
	fmt.Println(d, s.Rank(), v)
	// Output: [2.5 2.5 2.5 2.5] 0 7
}

// A 0-d shape has one element, a shape with a zero extent none.
func ExampleNumel() {
	fmt.Println(tf.Numel([]int{2, 3, 4}), tf.Numel(nil), tf.Numel([]int{5, 0}))
	// Output: 24 1 0
}

// NewTensor takes its storage from the engine's pool: contents are
// unspecified until written, and Release gives the storage back.
func ExampleNewTensor() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.NewTensor[float64](e, 4, 4)
	_ = tf.FillInto(e, x, 1)
	v, _ := x.At(3, 3)
	fmt.Println(x.Shape(), v)
	x.Release()
	y, _ := tf.NewTensor[float64](e, 16) // reuses x's storage
	defer y.Release()
	fmt.Printf("%+v\n", e.BufferPoolStats())
	// Output:
	// [4 4] 1
	// {Buffers:0 CapacityBytes:0}
}

// CopyInto materializes a view into an existing buffer, here the
// transpose of a matrix.
func ExampleCopyInto() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromRowMajor([]float64{1, 2, 3, 4, 5, 6}, 2, 3)
	at, _ := a.Transpose()
	dst, _ := tf.Zeros[float64](3, 2)
	_ = tf.CopyInto(e, dst, at)
	fmt.Println(dst)
	// Output:
	// Tensor[f64] (3, 2)
	// [[1 4]
	//  [2 5]
	//  [3 6]]
}

// Indices are logical, whatever the layout; negative ones count from the
// end of their axis.
func ExampleTensor_At() {
	a, _ := tf.FromRowMajor([]float64{1, 2, 3, 4, 5, 6}, 2, 3)
	v, _ := a.At(0, 2)
	w, _ := a.At(-1, -1)
	_, err := a.At(2, 0)
	fmt.Println(v, w)
	fmt.Println(err)
	// Output:
	// 3 6
	// tenferro: At: index: invalid argument: expected -2 <= index < 2 at axis 0, got 2
}

func ExampleTensor_Set() {
	a, _ := tf.Zeros[float64](2, 2)
	_ = a.Set(5, 1, 0)
	_ = a.Set(7, -1, -1)
	fmt.Println(a)
	// Output:
	// Tensor[f64] (2, 2)
	// [[0 0]
	//  [5 7]]
}

// A broadcast view repeats elements with stride 0, without copying them.
func ExampleTensor_Broadcast() {
	row, _ := tf.FromSlice([]float64{1, 2, 3}, 3)
	b, _ := row.Broadcast(2, 3)
	fmt.Println(b.Strides())
	fmt.Println(b)
	// Output:
	// [0 1]
	// Tensor[f64] (2, 3)
	// [[1 2 3]
	//  [1 2 3]]
}

// Clone copies a view into fresh memory that no pool owns.
func ExampleTensor_Clone() {
	a, _ := tf.FromRowMajor([]float64{1, 2, 3, 4}, 2, 2)
	at, _ := a.Transpose()
	c, _ := at.Clone()
	_ = a.Set(0, 0, 0) // c does not share a's storage
	d, _ := c.Data()
	fmt.Println(c.IsCompact(), d)
	// Output: true [1 2 3 4]
}

func ExampleTensor_DType() {
	a, _ := tf.Zeros[complex64](2)
	m, _ := tf.Zeros[bool](2)
	fmt.Println(a.DType(), m.DType(), a.DType().Size())
	// Output: c64 bool 8
}

// Data shares memory with a compact tensor and refuses other views.
func ExampleTensor_Data() {
	a, _ := tf.FromSlice([]float64{1, 2, 3, 4}, 2, 2)
	d, _ := a.Data()
	d[0] = 10 // writes a
	v, _ := a.At(0, 0)
	at, _ := a.Transpose()
	_, err := at.Data()
	fmt.Println(v, errors.Is(err, tf.ErrLayout))
	// Output: 10 true
}

func ExampleTensor_Dim() {
	a, _ := tf.Zeros[float64](2, 3, 4)
	fmt.Println(a.Dim(0), a.Dim(-1), a.Dim(3))
	// Output: 2 4 -1
}

func ExampleTensor_IsCompact() {
	a, _ := tf.Zeros[float64](3, 4)
	col, _ := a.Slice(1, 2, 3, 1) // one whole column: contiguous
	row, _ := a.Slice(0, 1, 2, 1) // one row: stride 3
	at, _ := a.Transpose()
	fmt.Println(a.IsCompact(), col.IsCompact(), row.IsCompact(), at.IsCompact())
	// Output: true true false false
}

func ExampleTensor_Len() {
	a, _ := tf.Zeros[float64](2, 3)
	s := tf.Const(1.0)
	z, _ := tf.Zeros[float64](4, 0)
	fmt.Println(a.Len(), s.Len(), z.Len())
	// Output: 6 1 0
}

// A view's element (0, ..., 0) sits at Offset in the shared storage.
func ExampleTensor_Offset() {
	a, _ := tf.FromSlice([]float64{0, 1, 2, 3, 4, 5}, 2, 3)
	v, _ := a.Slice(1, 1, 3, 1) // columns 1 and 2
	r, _ := a.Reverse(0)
	fmt.Println(v.Offset(), r.Offset(), v.Storage()[v.Offset()])
	// Output: 2 1 2
}

func ExampleTensor_Rank() {
	a, _ := tf.Zeros[float64](2, 3, 4)
	fmt.Println(a.Rank(), tf.Const(1.0).Rank())
	// Output: 3 0
}

// Reverse flips one axis with a negative stride: no data moves.
func ExampleTensor_Reverse() {
	a, _ := tf.FromRowMajor([]float64{1, 2, 3, 4, 5, 6}, 2, 3)
	r, _ := a.Reverse(1)
	fmt.Println(r.Strides())
	fmt.Println(r)
	// Output:
	// [1 -2]
	// Tensor[f64] (2, 3)
	// [[3 2 1]
	//  [6 5 4]]
}

func ExampleTensor_Shape() {
	a, _ := tf.Zeros[float64](2, 3)
	at, _ := a.Transpose()
	fmt.Println(a.Shape(), at.Shape(), tf.Const(1.0).Shape())
	// Output: [2 3] [3 2] []
}

// Storage is the whole buffer behind a view; Offset and Strides read it.
func ExampleTensor_Storage() {
	a, _ := tf.FromSlice([]float64{1, 2, 3, 4, 5, 6}, 2, 3)
	row, _ := a.Slice(0, 1, 2, 1) // the second row: 2 4 6
	s, off, st := row.Storage(), row.Offset(), row.Strides()
	for j := range row.Dim(1) {
		fmt.Print(s[off+j*st[1]], " ")
	}
	fmt.Println("of", len(s))
	// Output: 2 4 6 of 6
}

// Column-major strides: the first index is fastest.
func ExampleTensor_Strides() {
	a, _ := tf.Zeros[float64](2, 3, 4)
	p, _ := a.Permute(2, 0, 1)
	fmt.Println(a.Strides(), p.Strides())
	// Output: [1 2 6] [6 1 2]
}

func ExampleTensor_Transpose() {
	a, _ := tf.FromRowMajor([]float64{1, 2, 3, 4, 5, 6}, 2, 3)
	at, _ := a.Transpose()
	v, _ := at.At(2, 0)
	fmt.Println(at.Shape(), v)
	// Output: [3 2] 3
}

// Valid is false for a nil or released tensor.
func ExampleTensor_Valid() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.Ones[float64](2)
	b, _ := tf.Add(e, a, a)
	fmt.Println(b.Valid())
	b.Release()
	var nilT *tf.Tensor[float64]
	fmt.Println(b.Valid(), nilT.Valid())
	// Output:
	// true
	// false false
}
