package gonumx_test

import (
	"fmt"

	"gonum.org/v1/gonum/blas"

	"github.com/tenferro-go/tenferro/gonumx"
)

// The float32, complex64 and complex128 routines take the same arguments
// as their float64 twins; each example repeats its twin's problem.

func ExampleImplementation_Sgemm() {
	impl, _ := gonumx.New()
	c := []float32{0, 0, -1, 0, 0}
	impl.Sgemm(blas.Trans, blas.NoTrans, 2, 2, 2, 1, []float32{1, 2, 3, 4}, 2, []float32{1, 1, 1, 1}, 2, 0, c, 3)
	fmt.Println(c)
	// Output: [4 4 -1 6 6]
}

func ExampleImplementation_Cgemm() {
	impl, _ := gonumx.New()
	c := []complex64{0}
	impl.Cgemm(blas.ConjTrans, blas.NoTrans, 1, 1, 1, 1, []complex64{1i}, 1, []complex64{1}, 1, 0, c, 1)
	fmt.Println(c)
	// Output: [(0-1i)]
}

func ExampleImplementation_Strsm() {
	impl, _ := gonumx.New()
	b := []float32{4, 6, 3, 5}
	impl.Strsm(blas.Left, blas.Lower, blas.NoTrans, blas.NonUnit, 2, 2, 1, []float32{2, 0, 1, 1}, 2, b, 2)
	fmt.Println(b)
	// Output: [2 3 1 2]
}

func ExampleImplementation_Ctrsm() {
	impl, _ := gonumx.New()
	b := []complex64{4, 6, 3, 5}
	impl.Ctrsm(blas.Left, blas.Lower, blas.NoTrans, blas.NonUnit, 2, 2, 1, []complex64{2, 0, 1, 1}, 2, b, 2)
	fmt.Println(b)
	// Output: [(2+0i) (3+0i) (1+0i) (2+0i)]
}

func ExampleImplementation_Ztrsm() {
	impl, _ := gonumx.New()
	// Solve (2i)·x = 4: x = -2i.
	b := []complex128{4}
	impl.Ztrsm(blas.Left, blas.Lower, blas.NoTrans, blas.NonUnit, 1, 1, 1, []complex128{2i}, 1, b, 1)
	fmt.Println(b)
	// Output: [(0-2i)]
}

func ExampleImplementation_Strmm() {
	impl, _ := gonumx.New()
	b := []float32{1, 2}
	impl.Strmm(blas.Right, blas.Upper, blas.NoTrans, blas.Unit, 1, 2, 1, []float32{9, 5, 0, 9}, 2, b, 2)
	fmt.Println(b)
	// Output: [1 7]
}

func ExampleImplementation_Ctrmm() {
	impl, _ := gonumx.New()
	b := []complex64{1, 2}
	impl.Ctrmm(blas.Right, blas.Upper, blas.NoTrans, blas.Unit, 1, 2, 1, []complex64{9, 5i, 0, 9}, 2, b, 2)
	fmt.Println(b)
	// Output: [(1+0i) (2+5i)]
}

func ExampleImplementation_Ztrmm() {
	impl, _ := gonumx.New()
	b := []complex128{1, 2}
	impl.Ztrmm(blas.Right, blas.Upper, blas.NoTrans, blas.Unit, 1, 2, 1, []complex128{9, 5i, 0, 9}, 2, b, 2)
	fmt.Println(b)
	// Output: [(1+0i) (2+5i)]
}

func ExampleImplementation_Ssyrk() {
	impl, _ := gonumx.New()
	c := []float32{0, -1, 0, 0}
	impl.Ssyrk(blas.Lower, blas.NoTrans, 2, 2, 1, []float32{1, 2, 3, 4}, 2, 0, c, 2)
	fmt.Println(c)
	// Output: [5 -1 11 25]
}

func ExampleImplementation_Csyrk() {
	impl, _ := gonumx.New()
	// Complex symmetric (not Hermitian): C = A·Aᵀ without conjugation.
	c := []complex64{0}
	impl.Csyrk(blas.Lower, blas.NoTrans, 1, 1, 1, []complex64{1i}, 1, 0, c, 1)
	fmt.Println(c)
	// Output: [(-1+0i)]
}

func ExampleImplementation_Zsyrk() {
	impl, _ := gonumx.New()
	c := []complex128{0}
	impl.Zsyrk(blas.Lower, blas.NoTrans, 1, 1, 1, []complex128{1 + 1i}, 1, 0, c, 1)
	fmt.Println(c)
	// Output: [(0+2i)]
}

func ExampleImplementation_Ssyr2k() {
	impl, _ := gonumx.New()
	c := []float32{0, 0, -1, 0}
	impl.Ssyr2k(blas.Upper, blas.NoTrans, 2, 1, 1, []float32{1, 2}, 1, []float32{3, 4}, 1, 0, c, 2)
	fmt.Println(c)
	// Output: [6 10 -1 16]
}

func ExampleImplementation_Csyr2k() {
	impl, _ := gonumx.New()
	c := []complex64{0}
	impl.Csyr2k(blas.Upper, blas.NoTrans, 1, 1, 1, []complex64{1i}, 1, []complex64{2}, 1, 0, c, 1)
	fmt.Println(c)
	// Output: [(0+4i)]
}

func ExampleImplementation_Zsyr2k() {
	impl, _ := gonumx.New()
	c := []complex128{0}
	impl.Zsyr2k(blas.Upper, blas.NoTrans, 1, 1, 1, []complex128{1i}, 1, []complex128{2}, 1, 0, c, 1)
	fmt.Println(c)
	// Output: [(0+4i)]
}
