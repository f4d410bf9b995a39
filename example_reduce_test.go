package tenferro_test

import (
	"fmt"
	"math"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
)

// The maxima of the columns (axis 0) and of the whole matrix.
func ExampleMax() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromRowMajor([]float64{1, 5, 2, 4, 3, 6}, 2, 3)
	cols, _ := tf.Max(e, a, 0)
	defer cols.Release()
	all, _ := tf.Max(e, a)
	defer all.Release()
	d, _ := cols.Data()
	v, _ := all.At()
	fmt.Println(d, v)
	// Output: [4 5 6] 6
}

// A keepdims destination (2×1) holds the maximum of each row.
func ExampleMaxInto() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromRowMajor([]float64{1, 5, 2, 4, 3, 6}, 2, 3)
	dst, _ := tf.Zeros[float64](2, 1)
	_ = tf.MaxInto(e, dst, a, 1)
	fmt.Println(dst)
	// Output:
	// Tensor[f64] (2, 1)
	// [[5]
	//  [6]]
}

// NaN propagates; reducing an empty set is an error.
func ExampleMin() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromSlice([]float64{3, math.NaN(), 1}, 3)
	m, _ := tf.Min(e, a)
	defer m.Release()
	v, _ := m.At()
	empty, _ := tf.Zeros[float64](0)
	_, err := tf.Min(e, empty)
	fmt.Println(v, err != nil)
	// Output: NaN true
}

func ExampleMinInto() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromRowMajor([]float32{1, 5, 2, 4, 3, 6}, 2, 3)
	dst, _ := tf.Zeros[float32](2)
	_ = tf.MinInto(e, dst, a, -1) // the last axis: per row
	d, _ := dst.Data()
	fmt.Println(d)
	// Output: [1 3]
}

// ArgMax gives the index of the first maximum along one axis, as int64.
func ExampleArgMax() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromRowMajor([]float64{1, 7, 7, 9, 0, 2}, 2, 3)
	rows, _ := tf.ArgMax(e, a, 1)
	defer rows.Release()
	d, _ := rows.Data()
	fmt.Println(rows.DType(), d)
	// Output: i64 [1 0]
}

func ExampleArgMaxInto() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromRowMajor([]float64{1, 7, 7, 9, 0, 2}, 2, 3)
	dst, _ := tf.Zeros[int64](3)
	_ = tf.ArgMaxInto(e, dst, a, 0) // per column
	d, _ := dst.Data()
	fmt.Println(d)
	// Output: [1 0 0]
}

func ExampleArgMin() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromSlice([]float64{4, 1, 3, 1}, 4)
	i, _ := tf.ArgMin(e, a, 0)
	defer i.Release()
	v, _ := i.At()
	fmt.Println(v) // the first of the two minima
	// Output: 1
}

func ExampleArgMinInto() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromRowMajor([]float32{3, 2, 1, 0, 5, 6}, 2, 3)
	dst, _ := tf.Zeros[int64](2)
	_ = tf.ArgMinInto(e, dst, a, 1)
	d, _ := dst.Data()
	fmt.Println(d)
	// Output: [2 0]
}

func ExampleMean() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromRowMajor([]float64{1, 2, 3, 4, 5, 6}, 2, 3)
	rows, _ := tf.Mean(e, a, 1)
	defer rows.Release()
	d, _ := rows.Data()
	fmt.Println(d)
	// Output: [2 5]
}

func ExampleMeanInto() {
	e := cpu.Serial()
	defer e.Close()
	z, _ := tf.FromSlice([]complex128{1 + 1i, 3 - 3i}, 2)
	dst := tf.Const(complex128(0))
	_ = tf.MeanInto(e, dst, z)
	v, _ := dst.At()
	fmt.Println(v)
	// Output: (2-1i)
}

func ExampleProd() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromRowMajor([]float64{1, 2, 3, 4, 5, 6}, 2, 3)
	cols, _ := tf.Prod(e, a, 0)
	defer cols.Release()
	d, _ := cols.Data()
	fmt.Println(d)
	// Output: [4 10 18]
}

// The product over an empty set is 1.
func ExampleProdInto() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.Zeros[float64](2, 0)
	dst, _ := tf.Zeros[float64](2)
	_ = tf.ProdInto(e, dst, a, 1)
	d, _ := dst.Data()
	fmt.Println(d)
	// Output: [1 1]
}

func ExampleCumSum() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromSlice([]float64{1, 2, 3, 4}, 4)
	c, _ := tf.CumSum(e, a, 0)
	defer c.Release()
	d, _ := c.Data()
	fmt.Println(d)
	// Output: [1 3 6 10]
}

// Running sums along each row of a matrix.
func ExampleCumSumInto() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromRowMajor([]float64{1, 1, 1, 1, 2, 3}, 2, 3)
	dst, _ := tf.Zeros[float64](2, 3)
	_ = tf.CumSumInto(e, dst, a, 1)
	fmt.Println(dst)
	// Output:
	// Tensor[f64] (2, 3)
	// [[1 2 3]
	//  [1 3 6]]
}

// Factorials as a running product.
func ExampleCumProd() {
	e := cpu.Serial()
	defer e.Close()
	n, _ := tf.Arange[float64](1, 7, 1)
	f, _ := tf.CumProd(e, n, 0)
	defer f.Release()
	d, _ := f.Data()
	fmt.Println(d)
	// Output: [1 2 6 24 120 720]
}

// The powers z, z², z³, z⁴ of z = 1+i, in place.
func ExampleCumProdInto() {
	e := cpu.Serial()
	defer e.Close()
	z, _ := tf.Full(complex(1, 1), 4)
	_ = tf.CumProdInto(e, z, z, 0)
	d, _ := z.Data()
	fmt.Println(d)
	// Output: [(1+1i) (0+2i) (-2+2i) (-4+0i)]
}

// LogSumExp does not overflow where exp does.
func ExampleLogSumExp() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromSlice([]float64{1000, 1000}, 2)
	l, _ := tf.LogSumExp(e, a)
	defer l.Release()
	v, _ := l.At()
	fmt.Printf("%.4f %v\n", v, math.Log(2*math.Exp(1000)))
	// Output: 1000.6931 +Inf
}

// Log-normalizing scores per column: a - logsumexp(a).
func ExampleLogSumExpInto() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromRowMajor([]float64{0, 5, 0, 5}, 2, 2)
	lse, _ := tf.Zeros[float64](1, 2) // keepdims
	_ = tf.LogSumExpInto(e, lse, a, 0)
	_ = tf.SubInto(e, a, a, lse)
	_ = tf.ExpInto(e, a, a) // each column now sums to 1
	d, _ := a.Data()
	fmt.Printf("%.4f\n", d)
	// Output: [0.5000 0.5000 0.5000 0.5000]
}

// Vector norms: Euclidean, sum of moduli, largest modulus and count of
// non-zeros.
func ExampleNorm() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float64{3, 0, -4}, 3)
	for _, ord := range []float64{2, 1, math.Inf(1), 0} {
		n, _ := tf.Norm[float64](e, x, ord)
		v, _ := n.At()
		n.Release()
		fmt.Print(v, " ")
	}
	fmt.Println()
	// Output: 5 7 4 2
}

// The norms of the columns of a complex matrix, as a real vector.
func ExampleNormInto() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromRowMajor([]complex128{3i, 1, 4, 1i}, 2, 2)
	dst, _ := tf.Zeros[float64](2)
	_ = tf.NormInto(e, dst, a, 2, 0)
	d, _ := dst.Data()
	fmt.Printf("%.4f\n", d)
	// Output: [5.0000 1.4142]
}

// ddof 0 is the population variance, ddof 1 the unbiased sample variance.
func ExampleVar() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float64{1, 2, 3, 4}, 4)
	pop, _ := tf.Var[float64](e, x, 0)
	defer pop.Release()
	sample, _ := tf.Var[float64](e, x, 1)
	defer sample.Release()
	a, _ := pop.At()
	b, _ := sample.At()
	fmt.Printf("%.4f %.4f\n", a, b)
	// Output: 1.2500 1.6667
}

// The variance of complex data is real: the mean of |z - mean|².
func ExampleVarInto() {
	e := cpu.Serial()
	defer e.Close()
	z, _ := tf.FromSlice([]complex128{1i, -1i}, 2)
	dst := tf.Const(0.0)
	_ = tf.VarInto(e, dst, z, 0)
	v, _ := dst.At()
	fmt.Println(v)
	// Output: 1
}

func ExampleStd() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromRowMajor([]float64{1, 3, 10, 20}, 2, 2)
	s, _ := tf.Std[float64](e, a, 0, 1) // per row
	defer s.Release()
	d, _ := s.Data()
	fmt.Println(d)
	// Output: [1 5]
}

func ExampleStdInto() {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromSlice([]float32{2, 4, 4, 4, 5, 5, 7, 9}, 8)
	dst := tf.Const(float32(0))
	_ = tf.StdInto(e, dst, x, 0)
	v, _ := dst.At()
	fmt.Println(v)
	// Output: 2
}
