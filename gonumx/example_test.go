package gonumx_test

import (
	"fmt"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/blas/gonum"
	"gonum.org/v1/gonum/mat"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/gonumx"
	"github.com/tenferro-go/tenferro/team"
)

func ExampleUse() {
	impl, err := gonumx.Use() // mat and lapack64 now run on the packed kernels
	if err != nil {
		fmt.Println(err)
		return
	}
	defer impl.Close()
	defer blas64.Use(gonum.Implementation{}) // restore gonum's own float64 BLAS

	a := mat.NewDense(2, 3, []float64{1, 2, 3, 4, 5, 6})
	b := mat.NewDense(3, 2, []float64{1, 0, 0, 1, 1, 1})
	var c mat.Dense
	c.Mul(a, b)
	fmt.Println(mat.Formatted(&c))
	// Output:
	// ⎡ 4   5⎤
	// ⎣10  11⎦
}

func ExampleNew() {
	impl, err := gonumx.New()
	if err != nil {
		fmt.Println(err)
		return
	}
	var bl blas.Float64 = impl // any gonum BLAS consumer accepts it
	c := make([]float64, 4)
	bl.Dgemm(blas.NoTrans, blas.NoTrans, 2, 2, 2, 1, []float64{1, 2, 3, 4}, 2, []float64{5, 6, 7, 8}, 2, 0, c, 2)
	fmt.Println(c)
	// Output: [19 22 43 50]
}

func ExampleThreads() {
	impl, err := gonumx.New(gonumx.Threads(2))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer impl.Close() // stops the team New started
	fmt.Println(impl.Threads())
	_, err = gonumx.New(gonumx.Threads(0))
	fmt.Println(err != nil)
	// Output:
	// 2
	// true
}

func ExampleWithTeam() {
	tm, err := team.New(team.Threads(2))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer tm.Close() // the caller's team: Close on the Implementation leaves it alone
	impl, _ := gonumx.New(gonumx.WithTeam(tm))
	fmt.Println(impl.Threads())
	// Output: 2
}

func ExampleCrossover() {
	// Send every non-degenerate TRSM, TRMM, SYRK and SYR2K to the blocked
	// routines, however small.
	impl, _ := gonumx.New(gonumx.Crossover(0))
	b := []float64{2, 4}
	impl.Dtrsm(blas.Left, blas.Upper, blas.NoTrans, blas.NonUnit, 2, 1, 1, []float64{1, 1, 0, 2}, 2, b, 1)
	fmt.Println(b)
	// Output: [0 2]
}

func ExampleImplementation_Dgemm() {
	impl, _ := gonumx.New()
	// C = Aᵀ·B with A stored 2×2 and a leading dimension of 3 for C.
	a := []float64{1, 2, 3, 4}
	b := []float64{1, 1, 1, 1}
	c := []float64{0, 0, -1, 0, 0}
	impl.Dgemm(blas.Trans, blas.NoTrans, 2, 2, 2, 1, a, 2, b, 2, 0, c, 3)
	fmt.Println(c) // c[2] is padding, untouched
	// Output: [4 4 -1 6 6]
}

func ExampleImplementation_Dtrsm() {
	impl, _ := gonumx.New()
	// Solve L·X = B for lower triangular L = [2 0; 1 1].
	l := []float64{2, 0, 1, 1}
	b := []float64{4, 6, 3, 5} // B = [4 6; 3 5]
	impl.Dtrsm(blas.Left, blas.Lower, blas.NoTrans, blas.NonUnit, 2, 2, 1, l, 2, b, 2)
	fmt.Println(b)
	// Output: [2 3 1 2]
}

func ExampleImplementation_Dtrmm() {
	impl, _ := gonumx.New()
	// B = B·U for the unit upper triangular U = [1 5; 0 1] (the diagonal
	// is not read).
	u := []float64{9, 5, 0, 9}
	b := []float64{1, 2}
	impl.Dtrmm(blas.Right, blas.Upper, blas.NoTrans, blas.Unit, 1, 2, 1, u, 2, b, 2)
	fmt.Println(b)
	// Output: [1 7]
}

func ExampleImplementation_Dsyrk() {
	impl, _ := gonumx.New()
	// The lower triangle of C = A·Aᵀ for A = [1 2; 3 4]; the upper one is
	// left as it was.
	c := []float64{0, -1, 0, 0}
	impl.Dsyrk(blas.Lower, blas.NoTrans, 2, 2, 1, []float64{1, 2, 3, 4}, 2, 0, c, 2)
	fmt.Println(c)
	// Output: [5 -1 11 25]
}

func ExampleImplementation_Close() {
	impl, _ := gonumx.New(gonumx.Threads(2))
	fmt.Println(impl.Close(), impl.Threads())
	// Output: <nil> 2
}

func ExampleFromDense() {
	m := mat.NewDense(2, 3, []float64{1, 2, 3, 4, 5, 6})
	x, _ := gonumx.FromDense(m) // shares m's memory
	v, _ := x.At(1, 0)
	fmt.Println(x.Shape(), x.Strides(), v)
	x.Set(-5, 1, 1)
	fmt.Println(m.At(1, 1))
	// Output:
	// [2 3] [3 1] 4
	// -5
}

func ExampleFromCDense() {
	m := mat.NewCDense(1, 2, []complex128{1i, 2})
	x, _ := gonumx.FromCDense(m)
	v, _ := x.At(0, 0)
	fmt.Println(x.Shape(), v)
	// Output: [1 2] (0+1i)
}

func ExampleFromVecDense() {
	// Every second element of the backing slice.
	var v mat.VecDense
	v.SetRawVector(blas64.Vector{N: 3, Inc: 2, Data: []float64{1, 0, 2, 0, 3}})
	x, _ := gonumx.FromVecDense(&v)
	last, _ := x.At(2)
	fmt.Println(x.Shape(), x.Strides(), last)
	// Output: [3] [2] 3
}

func ExampleToDense() {
	// A column-major tensor has no row-major layout: ToDense copies it.
	x, _ := tf.FromRowMajor([]float64{1, 2, 3, 4}, 2, 2)
	m, shared, _ := gonumx.ToDense(x)
	fmt.Println(m.At(0, 1), shared)
	// Its transpose is a row-major view: shared.
	xt, _ := x.Transpose()
	mt, shared, _ := gonumx.ToDense(xt)
	mt.Set(0, 0, 10)
	v, _ := x.At(0, 0)
	fmt.Println(mt.At(1, 0), shared, v)
	// Output:
	// 2 false
	// 2 true 10
}

func ExampleToCDense() {
	m := mat.NewCDense(2, 2, []complex128{1, 2, 3, 4i})
	x, _ := gonumx.FromCDense(m)
	back, shared, _ := gonumx.ToCDense(x) // a view of a view: shared
	fmt.Println(back.At(1, 1), shared)
	// Output: (0+4i) true
}

func ExampleToVecDense() {
	x, _ := tf.FromSlice([]float64{1, 2, 3}, 3)
	v, shared, _ := gonumx.ToVecDense(x)
	fmt.Println(v.AtVec(2), shared)
	r, _ := x.Reverse(0)
	w, shared, _ := gonumx.ToVecDense(r) // a negative stride: copied
	fmt.Println(w.AtVec(0), shared)
	// Output:
	// 3 true
	// 3 false
}

func ExampleImplementation_Zgemm() {
	impl, _ := gonumx.New()
	// C = Aᴴ·B for the 1×1 A = [i] and B = [1]: conj(i)·1 = -i.
	c := []complex128{0}
	impl.Zgemm(blas.ConjTrans, blas.NoTrans, 1, 1, 1, 1, []complex128{1i}, 1, []complex128{1}, 1, 0, c, 1)
	fmt.Println(c)
	// Output: [(0-1i)]
}

func ExampleImplementation_Dsyr2k() {
	impl, _ := gonumx.New()
	// The upper triangle of C = A·Bᵀ + B·Aᵀ for the columns a = (1, 2),
	// b = (3, 4); the lower one is left as it was.
	c := []float64{0, 0, -1, 0}
	impl.Dsyr2k(blas.Upper, blas.NoTrans, 2, 1, 1, []float64{1, 2}, 1, []float64{3, 4}, 1, 0, c, 2)
	fmt.Println(c)
	// Output: [6 10 -1 16]
}

func ExampleImplementation_Threads() {
	serial, _ := gonumx.New()
	fmt.Println(serial.Threads())
	// Output: 1
}
