package tenferro_test

import (
	"fmt"
	"math"

	tf "github.com/tenferro-go/tenferro"
)

// A tensor prints in logical order, last axis innermost, as NumPy prints
// an array; a transposed view prints its own logical order too.
func ExampleTensor_String() {
	a, _ := tf.FromRowMajor([]float64{1, 2, 3, 4, 5, 60.5}, 2, 3)
	fmt.Println(a)
	at, _ := a.Transpose() // a view: the storage stays column-major
	fmt.Println(at)
	z, _ := tf.Zeros[int64](2, 0)
	fmt.Println(z)
	// Output:
	// Tensor[f64] (2, 3)
	// [[   1    2    3]
	//  [   4    5 60.5]]
	// Tensor[f64] (3, 2)
	// [[   1    4]
	//  [   2    5]
	//  [   3 60.5]]
	// Tensor[i64] (2, 0)
	// []
}

// Above PrintThreshold elements only PrintEdgeItems indices at each end of
// every long axis are shown; %#v shows them all.
func ExampleTensor_String_summary() {
	data := make([]int64, 2000)
	for i := range data {
		data[i] = int64(i)
	}
	x, _ := tf.FromRowMajor(data, 20, 100)
	fmt.Println(x)
	// Output:
	// Tensor[i64] (20, 100)
	// [[   0    1    2 ...   97   98   99]
	//  [ 100  101  102 ...  197  198  199]
	//  [ 200  201  202 ...  297  298  299]
	//  ...
	//  [1700 1701 1702 ... 1797 1798 1799]
	//  [1800 1801 1802 ... 1897 1898 1899]
	//  [1900 1901 1902 ... 1997 1998 1999]]
}

// Verbs, widths and precisions apply to every element; %+v adds the layout
// to the header.
func ExampleTensor_Format() {
	a, _ := tf.FromRowMajor([]float64{1, -2.5, math.Pi, 1e6}, 2, 2)
	fmt.Printf("%.3f\n", a)
	fmt.Printf("%10.2e\n", a)
	col, _ := a.Slice(1, 1, 2, 1) // the second column, a view
	fmt.Printf("%+v\n", col)
	c, _ := tf.FromRowMajor([]complex128{1 + 2i, -0.5i}, 2)
	fmt.Printf("%v\n%.1f\n", c, c)
	// Output:
	// Tensor[f64] (2, 2)
	// [[      1.000      -2.500]
	//  [      3.142 1000000.000]]
	// Tensor[f64] (2, 2)
	// [[  1.00e+00  -2.50e+00]
	//  [  3.14e+00   1.00e+06]]
	// Tensor[f64] (2, 1) strides (1, 2) offset 2
	// [[ -2.5]
	//  [1e+06]]
	// Tensor[c128] (2,)
	// [  (1+2i) (0-0.5i)]
	// Tensor[c128] (2,)
	// [(1.0+2.0i) (0.0-0.5i)]
}

// A Value prints the tensor it wraps.
func ExampleValue_Format() {
	b, _ := tf.FromRowMajor([]bool{true, false, false, true}, 2, 2)
	v := tf.ValueOf(b)
	fmt.Println(v)
	fmt.Println(tf.Value{})
	// Output:
	// Tensor[bool] (2, 2)
	// [[ true false]
	//  [false  true]]
	// Value(empty)
}

// AllClose applies |a − b| <= atol + rtol·|b| to every element; NaN is
// never close and shapes must match.
func ExampleAllClose() {
	a, _ := tf.FromRowMajor([]float64{1, 100, math.Inf(1)}, 3)
	b, _ := tf.FromRowMajor([]float64{1 + 1e-9, 100.001, math.Inf(1)}, 3)
	ok, _ := tf.AllClose(a, b, 1e-5, 1e-8)
	fmt.Println(ok)
	ok, _ = tf.AllClose(a, b, 1e-9, 1e-8) // 0.001 > 1e-8 + 1e-9·100.001
	fmt.Println(ok)
	n, _ := tf.FromRowMajor([]float64{math.NaN()}, 1)
	ok, _ = tf.AllClose(n, n, 1, 1)
	fmt.Println(ok)
	c, _ := tf.Zeros[float64](3, 1)
	_, err := tf.AllClose(a, c, 1e-5, 1e-8)
	fmt.Println(err)
	// Output:
	// true
	// false
	// false
	// tenferro: AllClose: b: shape mismatch: expected shape [3] (the shape of a; no broadcasting), got shape [3 1]
}

// ArrayEqual compares by logical index, whatever the layouts.
func ExampleArrayEqual() {
	a, _ := tf.FromRowMajor([]int64{1, 2, 3, 4}, 2, 2)
	at, _ := a.Transpose()
	att, _ := at.Clone() // compact copy of the transpose
	b, _ := tf.FromRowMajor([]int64{1, 3, 2, 4}, 2, 2)
	eq, _ := tf.ArrayEqual(att, b)
	fmt.Println(eq)
	eq, _ = tf.ArrayEqual(a, b)
	fmt.Println(eq)
	r, _ := a.Reshape(4)
	eq, err := tf.ArrayEqual(a, r) // different shapes: not equal, no error
	fmt.Println(eq, err)
	// Output:
	// true
	// false
	// false <nil>
}
