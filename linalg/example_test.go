package linalg_test

import (
	"errors"
	"fmt"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/linalg"
)

// show prints the elements of x in column-major order, rounded.
func show[T tf.Scalar](x *tf.Tensor[T]) {
	c, _ := tf.Copy(cpu.Serial(), x)
	d, _ := c.Data()
	fmt.Print(x.Shape(), ":")
	for _, v := range d {
		fmt.Printf(" %.4g", v+0) // +0 for −0
	}
	fmt.Println()
}

// spd is the symmetric positive definite [[4, 2], [2, 3]] (column-major).
func spd() *tf.Tensor[float64] {
	a, _ := tf.FromSlice([]float64{4, 2, 2, 3}, 2, 2)
	return a
}

func ExampleCholesky() {
	e := cpu.Serial()
	defer e.Close()
	l, _ := linalg.Cholesky(e, spd())
	show(l) // [[2, 0], [1, √2]]
	u, _ := linalg.Cholesky(e, spd(), linalg.Upper)
	show(u) // Lᵀ
	// Output:
	// [2 2]: 2 1 0 1.414
	// [2 2]: 2 0 1 1.414
}

func ExampleCholeskyInto() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromSlice([]float64{1, 2, 2, 1}, 2, 2) // indefinite
	dst, _ := tf.Zeros[float64](2, 2)
	err := linalg.CholeskyInto(e, dst, a)
	fmt.Println(errors.Is(err, tf.ErrNotPositiveDefinite))
	fmt.Println(err)
	show(dst) // untouched
	// Output:
	// true
	// tenferro: CholeskyInto: a: matrix not positive definite: expected a Hermitian positive definite matrix, got the matrix: leading minor of order 2 is not positive definite
	// [2 2]: 0 0 0 0
}

func ExampleCholeskySolve() {
	e := cpu.Serial()
	defer e.Close()
	l, _ := linalg.Cholesky(e, spd())
	b, _ := tf.FromSlice([]float64{8, 7}, 2)
	x, _ := linalg.CholeskySolve(e, l, b)
	show(x)
	// Output:
	// [2]: 1.25 1.5
}

func ExampleCholeskySolveInto() {
	e := cpu.Serial()
	defer e.Close()
	u, _ := linalg.Cholesky(e, spd(), linalg.Upper)
	b, _ := tf.FromSlice([]float64{8, 7, 4, 2}, 2, 2)
	x, _ := tf.Zeros[float64](2, 2)
	_ = linalg.CholeskySolveInto(e, x, u, b, linalg.Upper)
	show(x)
	// Output:
	// [2 2]: 1.25 1.5 1 0
}

func ExampleLU() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromSlice([]float64{1, 4, 2, 6}, 2, 2) // [[1, 2], [4, 6]]
	lu, piv, _ := linalg.LU(e, a)
	show(lu) // L = [[1, 0], [0.25, 1]], U = [[4, 6], [0, 0.5]]
	p, _ := piv.Data()
	fmt.Println(p) // row 0 swapped with row 1
	// Output:
	// [2 2]: 4 0.25 6 0.5
	// [1 1]
}

func ExampleLUInto() {
	e := cpu.Serial()
	defer e.Close()
	// Two 2×2 matrices, batch axis last.
	a, _ := tf.FromSlice([]float64{2, 1, 1, 3, 0, 1, 1, 0}, 2, 2, 2)
	lu, _ := tf.Zeros[float64](2, 2, 2)
	piv, _ := tf.Zeros[int64](2, 2)
	_ = linalg.LUInto(e, lu, piv, a)
	show(lu)
	p, _ := piv.Data()
	fmt.Println(p)
	// Output:
	// [2 2 2]: 2 0.5 1 2.5 1 0 0 1
	// [0 1 1 1]
}

func ExampleLUUnpack() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromSlice([]float64{1, 4, 2, 6}, 2, 2) // [[1, 2], [4, 6]]
	lu, piv, _ := linalg.LU(e, a)
	p, l, u, _ := linalg.LUUnpack(e, lu, piv) // A = P·L·U
	show(p)
	show(l)
	show(u)
	// Output:
	// [2 2]: 0 1 1 0
	// [2 2]: 1 0.25 0 1
	// [2 2]: 4 0 6 0.5
}

func ExampleLUUnpackInto() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromSlice([]float64{1, 2, 3, 4, 5, 6}, 3, 2) // 3×2: L is 3×2, U 2×2
	lu, piv, _ := linalg.LU(e, a)
	p, _ := tf.Zeros[float64](3, 3)
	l, _ := tf.Zeros[float64](3, 2)
	u, _ := tf.Zeros[float64](2, 2)
	_ = linalg.LUUnpackInto(e, p, l, u, lu, piv)
	show(p)
	show(l)
	show(u)
	// Output:
	// [3 3]: 0 0 1 1 0 0 0 1 0
	// [3 2]: 1 0.3333 0.6667 0 1 0.5
	// [2 2]: 3 0 6 2
}

func ExampleSolve() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromSlice([]float64{3, 1, 1, 2}, 2, 2) // [[3, 1], [1, 2]]
	b, _ := tf.FromSlice([]float64{9, 8}, 2)
	x, _ := linalg.Solve(e, a, b)
	show(x)
	// Output:
	// [2]: 2 3
}

func ExampleSolveInto() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromSlice([]float64{1, 2, 2, 4}, 2, 2) // singular
	b, _ := tf.FromSlice([]float64{1, 1}, 2, 1)
	x, _ := tf.Zeros[float64](2, 1)
	err := linalg.SolveInto(e, x, a, b)
	fmt.Println(errors.Is(err, tf.ErrSingular), err)
	// Output:
	// true tenferro: SolveInto: a: singular matrix: expected a nonsingular matrix, got the matrix: exactly zero pivot U[1, 1]
}

func ExampleSolveTriangular() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromSlice([]float64{2, 0, 1, 4}, 2, 2) // upper [[2, 1], [0, 4]]
	b, _ := tf.FromSlice([]float64{4, 8}, 2)
	x, _ := linalg.SolveTriangular(e, a, b, true)
	show(x)
	// Output:
	// [2]: 1 2
}

func ExampleSolveTriangularInto() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromSlice([]float64{9, 3, 0, 9}, 2, 2) // lower, unit diagonal read as ones
	b, _ := tf.FromSlice([]float64{1, 3}, 1, 2)       // X·A = B
	x, _ := tf.Zeros[float64](1, 2)
	_ = linalg.SolveTriangularInto(e, x, a, b, false, linalg.Right, linalg.UnitDiagonal)
	show(x)
	// Output:
	// [1 2]: -8 3
}

func ExampleInv() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromSlice([]float64{4, 2, 7, 6}, 2, 2) // [[4, 7], [2, 6]]
	inv, _ := linalg.Inv(e, a)
	show(inv)
	// Output:
	// [2 2]: 0.6 -0.2 -0.7 0.4
}

func ExampleInvInto() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromSlice([]complex128{2i, 0, 0, 4}, 2, 2)
	inv, _ := tf.Zeros[complex128](2, 2)
	_ = linalg.InvInto(e, inv, a)
	show(inv)
	// Output:
	// [2 2]: (0-0.5i) (0+0i) (0+0i) (0.25+0i)
}

func ExampleDet() {
	e := cpu.Serial()
	defer e.Close()
	// A batch of three 2×2 matrices: I, [[1, 2], [2, 4]] (singular), 2I.
	a, _ := tf.FromSlice([]float64{1, 0, 0, 1, 1, 2, 2, 4, 2, 0, 0, 2}, 2, 2, 3)
	d, _ := linalg.Det(e, a)
	show(d)
	// Output:
	// [3]: 1 0 4
}

func ExampleDetInto() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.Zeros[float32](0, 0) // the empty matrix
	d, _ := tf.Zeros[float32]()
	_ = linalg.DetInto(e, d, a)
	show(d)
	// Output:
	// []: 1
}

func ExampleSlogDet() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromSlice([]complex128{0, 2i, -1i, 0}, 2, 2) // det = −2
	sign, logabs, _ := linalg.SlogDet[float64](e, a)
	show(sign)
	show(logabs) // log 2
	// Output:
	// []: (-1+0i)
	// []: 0.6931
}

func ExampleSlogDetInto() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromSlice([]float32{1e30, 0, 0, 1e30}, 2, 2) // det overflows float32
	sign, _ := tf.Zeros[float32]()
	logabs, _ := tf.Zeros[float32]()
	_ = linalg.SlogDetInto(e, sign, logabs, a)
	show(sign)
	show(logabs)
	// Output:
	// []: 1
	// []: 138.2
}
