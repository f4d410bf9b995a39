package tenferro_test

import (
	"fmt"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/team"
)

// The README's example, line for line (TestReadmeExample compares them):
// build an engine once, pass it down, release results so the pool
// recycles their storage.
func Example() {
	t, _ := team.New(team.Threads(2)) // a worker team; engines own one
	e, _ := cpu.New(t)                // build the engine once ...
	defer e.Close()

	a, _ := tf.FromRowMajor([]float64{1, 2, 3, 4}, 2, 2)
	b, _ := tf.Rand[float64](7, 2, 3)
	c, err := tf.Matmul(e, a, b) // ... and pass it to every operation
	if err != nil {
		panic(err)
	}
	fmt.Println(c.Shape(), e.BufferPoolStats().Buffers) // c holds its storage: the pool is empty
	c.Release()                                         // the storage goes back to e's buffer pool
	fmt.Printf("%+v\n", e.BufferPoolStats())
	d, _ := tf.Matmul(e, a, b) // the next result of that size reuses it
	fmt.Printf("%+v\n", e.BufferPoolStats())
	d.Release()
	// Output:
	// [2 3] 0
	// {Buffers:1 CapacityBytes:48}
	// {Buffers:0 CapacityBytes:0}
}

func ExampleFromSlice() {
	// Column-major: the first index is fastest.
	x, _ := tf.FromSlice([]float64{1, 2, 3, 4, 5, 6}, 2, 3)
	v, _ := x.At(1, 2)
	fmt.Println(x.Shape(), v)
	// Output: [2 3] 6
}

func ExampleFromRowMajor() {
	// Row-major (NumPy C order) data is converted to column-major.
	x, _ := tf.FromRowMajor([]float64{1, 2, 3, 4, 5, 6}, 2, 3)
	v, _ := x.At(1, 2)
	d, _ := x.Data()
	fmt.Println(v, d)
	// Output: 6 [1 4 2 5 3 6]
}

func ExampleTensor_Permute() {
	x, _ := tf.FromSlice([]float64{0, 1, 2, 3, 4, 5}, 2, 3)
	p, _ := x.Permute(1, 0) // a view: no data moves
	v, _ := p.At(2, 1)
	_, err := p.Data() // not compact any more
	fmt.Println(p.Shape(), v, err != nil)
	// Output: [3 2] 5 true
}

func ExampleTensor_Slice() {
	x, _ := tf.FromSlice([]float64{0, 1, 2, 3, 4, 5, 6, 7}, 8)
	even, _ := x.Slice(0, 0, 8, 2)
	back, _ := x.Slice(0, 7, -1, -3)
	c1, _ := even.Clone()
	c2, _ := back.Clone()
	d1, _ := c1.Data()
	d2, _ := c2.Data()
	fmt.Println(d1, d2)
	// Output: [0 2 4 6] [7 4 1]
}

func ExampleTensor_Diagonal() {
	x, _ := tf.FromRowMajor([]float64{1, 2, 3, 4}, 2, 2)
	d, _ := x.Diagonal(0, 1)
	c, _ := d.Clone()
	data, _ := c.Data()
	fmt.Println(data)
	// Output: [1 4]
}

func ExampleTensor_Reshape() {
	x, _ := tf.FromSlice([]float64{0, 1, 2, 3, 4, 5}, 2, 3)
	y, _ := x.Reshape(3, -1)
	v, _ := y.At(2, 1)
	_, err := func() (*tf.Tensor[float64], error) { t, _ := x.Transpose(); return t.Reshape(6) }()
	fmt.Println(y.Shape(), v, err != nil)
	// Output: [3 2] 5 true
}

func ExampleTensor_Release() {
	e := cpu.Serial()
	a, _ := tf.Ones[float32](4, 4)
	c, _ := tf.Matmul(e, a, a)
	view, _ := c.Transpose()
	c.Release()
	_, err := view.At(0, 0)
	fmt.Println(err)
	// Output: tenferro: At: t: tensor released: expected a live tensor, got a released tensor
}

func ExampleMatmulInto() {
	e := cpu.Serial()
	a, _ := tf.FromRowMajor([]float64{1, 2, 3, 4}, 2, 2)
	at, _ := a.Transpose() // read transposed without a copy
	dst, _ := tf.Zeros[float64](2, 2)
	if err := tf.MatmulInto(e, dst, at, a); err != nil {
		panic(err)
	}
	v, _ := dst.At(0, 0)
	fmt.Println(v) // 1*1 + 3*3
	// Output: 10
}

func ExampleMatmul_batched() {
	e := cpu.Serial()
	// Batch axes go last: 5 products of (2x3)·(3x4).
	a, _ := tf.Ones[float64](2, 3, 5)
	b, _ := tf.Ones[float64](3, 4, 5)
	c, _ := tf.Matmul(e, a, b)
	v, _ := c.At(1, 3, 4)
	fmt.Println(c.Shape(), v)
	// Output: [2 4 5] 3
}

func ExampleAdd() {
	e := cpu.Serial()
	a, _ := tf.FromRowMajor([]float64{1, 2, 3, 4}, 2, 2)
	row, _ := tf.FromRowMajor([]float64{10, 20}, 1, 2) // broadcasts over axis 0
	s, _ := tf.Add(e, a, row)
	v, _ := s.At(1, 1)
	fmt.Println(v)
	// Output: 24
}

func ExampleSum() {
	e := cpu.Serial()
	a, _ := tf.FromRowMajor([]float64{1, 2, 3, 4, 5, 6}, 2, 3)
	cols, _ := tf.Sum(e, a, 0)
	all, _ := tf.Sum(e, a)
	c, _ := cols.Data()
	t, _ := all.At()
	fmt.Println(c, t)
	// Output: [5 7 9] 21
}

func ExampleCopy() {
	e := cpu.Serial()
	x, _ := tf.FromSlice([]float64{0, 1, 2, 3, 4, 5}, 2, 3)
	xt, _ := x.Transpose()
	c, _ := tf.Copy(e, xt)
	d, _ := c.Data()
	fmt.Println(d)
	// Output: [0 2 4 1 3 5]
}

func ExampleConvert() {
	x, _ := tf.FromSlice([]float32{1, 2}, 2)
	v, _ := tf.Convert(tf.ValueOf(x), tf.Promote(tf.Float32, tf.Complex64))
	c, _ := tf.As[complex64](v)
	d, _ := c.Data()
	fmt.Println(v.DType(), d)
	// Output: c64 [(1+0i) (2+0i)]
}
