package tenferro_test

import (
	"fmt"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
)

// matrix returns the 2x3 matrix [[1 2 3] [4 5 6]].
func matrix() *tf.Tensor[float64] {
	a, _ := tf.FromRowMajor([]float64{1, 2, 3, 4, 5, 6}, 2, 3)
	return a
}

func ExampleTensor_Squeeze() {
	x, _ := tf.Zeros[float64](1, 3, 1)
	all, _ := x.Squeeze()
	last, _ := x.Squeeze(-1)
	_, err := x.Squeeze(1)
	fmt.Println(all.Shape(), last.Shape())
	fmt.Println(err)
	// Output:
	// [3] [1 3]
	// tenferro: Squeeze: axes: shape mismatch: expected axes of extent 1, got axis 1 of extent 3 (a is [1 3 1])
}

func ExampleTensor_Unsqueeze() {
	v, _ := tf.FromSlice([]float64{1, 2, 3}, 3)
	row, _ := v.Unsqueeze(0) // NumPy's expand_dims(v, 0)
	fmt.Println(row)
	both, _ := v.Unsqueeze(0, -1)
	fmt.Println(both.Shape())
	// Output:
	// Tensor[f64] (1, 3)
	// [[1 2 3]]
	// [1 3 1]
}

// The parts are views: writing one writes the tensor.
func ExampleTensor_Split() {
	a := matrix()
	parts, _ := a.Split(1, 3)
	fmt.Println(len(parts), parts[2])
	_ = parts[0].Set(-1, 1, 0)
	fmt.Println(a)
	// Output:
	// 3 Tensor[f64] (2, 1)
	// [[3]
	//  [6]]
	// Tensor[f64] (2, 3)
	// [[ 1  2  3]
	//  [-1  5  6]]
}

// Bounds act like Python slice bounds, as in numpy.split.
func ExampleTensor_SplitAt() {
	x, _ := tf.FromSlice([]int64{0, 1, 2, 3, 4, 5, 6}, 7)
	parts, _ := x.SplitAt(0, 2, -2)
	for _, p := range parts {
		d, _ := tf.Copy(cpu.Serial(), p)
		s, _ := d.Data()
		fmt.Print(s, " ")
	}
	fmt.Println()
	// Output: [0 1] [2 3 4] [5 6]
}

// Flatten lists the elements in column-major order, the storage order of
// this library (NumPy's flatten lists them in row-major order).
func ExampleFlatten() {
	e := cpu.Serial()
	f, _ := tf.Flatten(e, matrix())
	fmt.Println(f)
	// Output:
	// Tensor[f64] (6,)
	// [1 4 2 5 3 6]
}

func ExampleFlattenInto() {
	e := cpu.Serial()
	at, _ := matrix().Transpose()
	dst, _ := tf.Zeros[float64](6)
	_ = tf.FlattenInto(e, dst, at)
	d, _ := dst.Data()
	fmt.Println(d)
	// Output: [1 2 3 4 5 6]
}

// A transposed view cannot be reshaped without a copy.
func ExampleReshapeCopy() {
	e := cpu.Serial()
	at, _ := matrix().Transpose()
	_, err := at.Reshape(6)
	r, _ := tf.ReshapeCopy(e, at, 2, -1)
	fmt.Println(err != nil)
	fmt.Println(r)
	// Output:
	// true
	// Tensor[f64] (2, 3)
	// [[1 3 5]
	//  [2 4 6]]
}

func ExampleReshapeCopyInto() {
	e := cpu.Serial()
	dst, _ := tf.Zeros[float64](3, 2)
	_ = tf.ReshapeCopyInto(e, dst, matrix())
	fmt.Println(dst)
	// Output:
	// Tensor[f64] (3, 2)
	// [[1 5]
	//  [4 3]
	//  [2 6]]
}

// A row-major copy hands C-ordered data to code that expects it.
func ExampleContiguous() {
	e := cpu.Serial()
	c, _ := tf.Contiguous(e, matrix(), tf.RowMajor)
	fmt.Println(c.Strides(), c.Storage()[c.Offset():c.Offset()+c.Len()])
	// Output: [3 1] [1 2 3 4 5 6]
}

func ExampleConcatenate() {
	e := cpu.Serial()
	b, _ := tf.FromRowMajor([]float64{7, 8}, 2, 1)
	c, _ := tf.Concatenate(e, 1, matrix(), b)
	fmt.Println(c)
	// Output:
	// Tensor[f64] (2, 4)
	// [[1 2 3 7]
	//  [4 5 6 8]]
}

func ExampleConcatenateInto() {
	e := cpu.Serial()
	dst, _ := tf.Zeros[float64](4, 3)
	_ = tf.ConcatenateInto(e, dst, 0, matrix(), matrix())
	fmt.Println(dst.Shape())
	// Output: [4 3]
}

func ExampleStack() {
	e := cpu.Serial()
	x, _ := tf.FromSlice([]float64{1, 2}, 2)
	y, _ := tf.FromSlice([]float64{3, 4}, 2)
	s, _ := tf.Stack(e, 0, x, y)
	fmt.Println(s)
	// Output:
	// Tensor[f64] (2, 2)
	// [[1 2]
	//  [3 4]]
}

func ExampleStackInto() {
	e := cpu.Serial()
	dst, _ := tf.Zeros[float64](2, 3, 2)
	_ = tf.StackInto(e, dst, -1, matrix(), matrix())
	v, _ := dst.At(1, 2, 1)
	fmt.Println(v)
	// Output: 6
}

// reps align with the last axes, as NumPy's tile.
func ExampleTile() {
	e := cpu.Serial()
	x, _ := tf.FromSlice([]int64{1, 2}, 2)
	t, _ := tf.Tile(e, x, 2, 2)
	fmt.Println(t)
	// Output:
	// Tensor[i64] (2, 4)
	// [[1 2 1 2]
	//  [1 2 1 2]]
}

func ExampleTileInto() {
	e := cpu.Serial()
	dst, _ := tf.Zeros[float64](2, 6)
	_ = tf.TileInto(e, dst, matrix(), 1, 2)
	fmt.Println(dst)
	// Output:
	// Tensor[f64] (2, 6)
	// [[1 2 3 1 2 3]
	//  [4 5 6 4 5 6]]
}

func ExampleRepeat() {
	e := cpu.Serial()
	a := matrix()
	r, _ := tf.Repeat(e, a, 1, 2)
	fmt.Println(r)
	s, _ := tf.Repeat(e, a, 0, 0, 3) // a count per row
	fmt.Println(s)
	// Output:
	// Tensor[f64] (2, 6)
	// [[1 1 2 2 3 3]
	//  [4 4 5 5 6 6]]
	// Tensor[f64] (3, 3)
	// [[4 5 6]
	//  [4 5 6]
	//  [4 5 6]]
}

func ExampleRepeatInto() {
	e := cpu.Serial()
	x, _ := tf.FromSlice([]bool{true, false}, 2)
	dst, _ := tf.Zeros[bool](3)
	_ = tf.RepeatInto(e, dst, x, 0, 1, 2)
	d, _ := dst.Data()
	fmt.Println(d)
	// Output: [true false false]
}

func ExamplePad() {
	e := cpu.Serial()
	x, _ := tf.FromSlice([]float64{1, 2, 3}, 3)
	for _, mode := range []tf.PadMode{tf.PadConstant, tf.PadEdge, tf.PadReflect, tf.PadSymmetric, tf.PadWrap} {
		p, _ := tf.Pad(e, x, [][2]int{{2, 3}}, mode, -1)
		d, _ := p.Data()
		fmt.Printf("%-9v %v\n", mode, d)
	}
	// Output:
	// constant  [-1 -1 1 2 3 -1 -1 -1]
	// edge      [1 1 1 2 3 3 3 3]
	// reflect   [3 2 1 2 3 2 1 2]
	// symmetric [2 1 1 2 3 3 2 1]
	// wrap      [2 3 1 2 3 1 2 3]
}

func ExamplePadInto() {
	e := cpu.Serial()
	dst, _ := tf.Zeros[float64](3, 4)
	_ = tf.PadInto(e, dst, matrix(), [][2]int{{0, 1}, {1, 0}}, tf.PadConstant, 0)
	fmt.Println(dst)
	// Output:
	// Tensor[f64] (3, 4)
	// [[0 1 2 3]
	//  [0 4 5 6]
	//  [0 0 0 0]]
}

func ExampleRoll() {
	e := cpu.Serial()
	r, _ := tf.Roll(e, matrix(), []int{1}, []int{-1})
	fmt.Println(r)
	// Output:
	// Tensor[f64] (2, 3)
	// [[3 1 2]
	//  [6 4 5]]
}

func ExampleRollInto() {
	e := cpu.Serial()
	dst, _ := tf.Zeros[float64](2, 3)
	_ = tf.RollInto(e, dst, matrix(), []int{1, -1}, []int{0, 1})
	fmt.Println(dst)
	// Output:
	// Tensor[f64] (2, 3)
	// [[5 6 4]
	//  [2 3 1]]
}

// The matrices are the first two axes; further axes index the batch.
func ExampleTril() {
	e := cpu.Serial()
	a, _ := tf.Ones[float64](3, 3, 2)
	l, _ := tf.Tril(e, a, 0)
	m, _ := l.Slice(2, 1, 2, 1) // batch item 1
	m, _ = m.Squeeze(2)
	fmt.Println(m)
	// Output:
	// Tensor[f64] (3, 3)
	// [[1 0 0]
	//  [1 1 0]
	//  [1 1 1]]
}

// In place: the destination is the input itself.
func ExampleTrilInto() {
	e := cpu.Serial()
	a := matrix()
	_ = tf.TrilInto(e, a, a, -1)
	fmt.Println(a)
	// Output:
	// Tensor[f64] (2, 3)
	// [[0 0 0]
	//  [4 0 0]]
}

func ExampleTriu() {
	e := cpu.Serial()
	u, _ := tf.Triu(e, matrix(), 1)
	fmt.Println(u)
	// Output:
	// Tensor[f64] (2, 3)
	// [[0 2 3]
	//  [0 0 6]]
}

func ExampleTriuInto() {
	e := cpu.Serial()
	dst, _ := tf.Zeros[float64](2, 3)
	_ = tf.TriuInto(e, dst, matrix(), 0)
	fmt.Println(dst)
	// Output:
	// Tensor[f64] (2, 3)
	// [[1 2 3]
	//  [0 5 6]]
}

func ExampleDiag() {
	e := cpu.Serial()
	v, _ := tf.FromSlice([]float64{1, 2}, 2)
	m, _ := tf.Diag(e, v, 1)
	fmt.Println(m)
	d, _ := tf.Diag(e, matrix(), 1)
	fmt.Println(d)
	// Output:
	// Tensor[f64] (3, 3)
	// [[0 1 0]
	//  [0 0 2]
	//  [0 0 0]]
	// Tensor[f64] (2,)
	// [2 6]
}

func ExampleDiagInto() {
	e := cpu.Serial()
	dst, _ := tf.Zeros[float64](2)
	_ = tf.DiagInto(e, dst, matrix(), 0)
	d, _ := dst.Data()
	fmt.Println(d)
	// Output: [1 5]
}
