package reduce

import (
	"fmt"

	"github.com/tenferro-go/tenferro/internal/kernel/strided"
)

// The examples use the column-major 2x3 matrix
//
//	1 -5  3
//	4  2 -6
//
// with dst strides 0 along the reduced axis.
var m23 = []float64{1, 4, -5, 2, 3, -6}

func ref(d []float64, strides ...int) strided.Ref[float64] {
	return strided.Ref[float64]{Data: d, Strides: strides}
}

func ExampleFold() {
	// Column products and row maxima.
	prod := make([]float64, 3)
	Fold(nil, ProdFold, []int{2, 3}, ref(prod, 0, 1), ref(m23, 1, 2))
	rowMax := make([]float64, 2)
	Fold(nil, MaxFold, []int{2, 3}, ref(rowMax, 1, 0), ref(m23, 1, 2))
	// The infinity norm of the whole matrix: every axis reduced.
	norm := []float64{0}
	Fold(nil, MaxAbsFold, []int{2, 3}, ref(norm, 0, 0), ref(m23, 1, 2))
	fmt.Println(prod, rowMax, norm)
	// Output: [4 -10 -18] [3 4] [6]
}

func ExampleArg() {
	// The row of the maximum of each column, and the column of the minimum
	// of each row.
	rows := make([]int64, 3)
	Arg(nil, false, []int{2, 3}, 0, strided.Ref[int64]{Data: rows, Strides: []int{0, 1}}, ref(m23, 1, 2))
	cols := make([]int64, 2)
	Arg(nil, true, []int{2, 3}, 1, strided.Ref[int64]{Data: cols, Strides: []int{1, 0}}, ref(m23, 1, 2))
	fmt.Println(rows, cols)
	// Output: [1 1 0] [1 2]
}

func ExampleScan() {
	// Cumulative sums along the rows, in place.
	x := []float64{1, 4, -5, 2, 3, -6}
	Scan(nil, false, []int{2, 3}, 1, ref(x, 1, 2), ref(x, 1, 2))
	fmt.Println(x)
	// Output: [1 4 -4 6 -1 0]
}

func ExampleSumSquares() {
	// Squared column norms.
	d := make([]float64, 3)
	SumSquares(nil, []int{2, 3}, ref(d, 0, 1), ref(m23, 1, 2))
	fmt.Println(d)
	// Output: [17 29 45]
}

func ExampleNorm2() {
	// The 2-norm of a vector whose squares overflow float64.
	x := []float64{3e300, 4e300}
	d := []float64{0}
	Norm2(nil, []int{2}, ref(d, 0), ref(x, 1))
	fmt.Println(d[0])
	// Output: 5e+300
}

func ExampleSumAbsPow() {
	// The 1-norms of the columns.
	d := make([]float64, 3)
	SumAbsPow(nil, 1, []int{2, 3}, ref(d, 0, 1), ref(m23, 1, 2))
	fmt.Println(d)
	// Output: [5 7 9]
}

func ExampleSumSquaredDeviations() {
	// The variance of each column: sum |x - mean|^2 / n, with the means in
	// dst as the center.
	d := make([]float64, 3)
	Sum(nil, []int{2, 3}, ref(d, 0, 1), ref(m23, 1, 2))
	for i := range d {
		d[i] /= 2
	}
	SumSquaredDeviations(nil, []int{2, 3}, ref(d, 0, 1), ref(m23, 1, 2), ref(d, 0, 1))
	for i := range d {
		d[i] /= 2
	}
	fmt.Println(d)
	// Output: [2.25 12.25 20.25]
}

func ExampleLogSumExp() {
	// log(e^1000 + e^1000) without overflow.
	x := []float64{1000, 1000}
	d := []float64{0}
	LogSumExp(nil, []int{2}, ref(d, 0), ref(x, 1))
	fmt.Printf("%.6f\n", d[0])
	// Output: 1000.693147
}

func ExampleBools() {
	// Which columns hold a negative number (Any), and whether all do (All).
	neg := make([]bool, 6)
	for i, v := range m23 {
		neg[i] = v < 0
	}
	src := strided.Ref[bool]{Data: neg, Strides: []int{1, 2}}
	cols := make([]bool, 3)
	Bools(nil, true, []int{2, 3}, strided.Ref[bool]{Data: cols, Strides: []int{0, 1}}, src)
	all := []bool{false}
	Bools(nil, false, []int{2, 3}, strided.Ref[bool]{Data: all, Strides: []int{0, 0}}, src)
	fmt.Println(cols, all[0])
	// Output: [false true true] false
}
