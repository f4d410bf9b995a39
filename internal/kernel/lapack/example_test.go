package lapack_test

import (
	"fmt"

	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
	"github.com/tenferro-go/tenferro/internal/kernel/lapack"
)

// Solve L·X = B for a column-major lower triangular L.
func ExampleTrsm() {
	var ws lapack.Workspace
	l := gemm.Mat[float64]{Data: []float64{2, 1, 0, 4}, RS: 1, CS: 2} // [2 0; 1 4]
	b := gemm.Mat[float64]{Data: []float64{2, 9, 4, 6}, RS: 1, CS: 2} // [2 4; 9 6]
	lapack.Trsm(&ws, nil, lapack.Left, lapack.Lower, lapack.NoTrans, lapack.NonUnit, 2, 2, 1, l, b)
	fmt.Println(b.Data)
	// Output: [1 2 2 1]
}

// Factor a symmetric positive definite matrix as L·Lᵀ.
func ExamplePotrf() {
	var ws lapack.Workspace
	a := gemm.Mat[float64]{Data: []float64{4, 2, 0, 5}, RS: 1, CS: 2} // lower triangle of [4 2; 2 5]
	info := lapack.Potrf(&ws, nil, lapack.Lower, 2, a)
	fmt.Println(info, a.Data[0], a.Data[1], a.Data[3])
	// The leading minor of order 2 of [1 2; 2 1] is not positive definite.
	b := gemm.Mat[float64]{Data: []float64{1, 2, 0, 1}, RS: 1, CS: 2}
	fmt.Println(lapack.Potrf(&ws, nil, lapack.Lower, 2, b))
	// Output:
	// 0 2 1 2
	// 2
}

// The unblocked kernel on a small complex Hermitian matrix, upper triangle.
func ExamplePotf2() {
	a := gemm.Mat[complex128]{Data: []complex128{4, 0, 2i, 2}, RS: 1, CS: 2} // [4 2i; -2i 2]
	info := lapack.Potf2(lapack.Upper, 2, a)
	fmt.Println(info, a.Data[0], a.Data[2], a.Data[3])
	// Output: 0 (2+0i) (0+1i) (1+0i)
}

// Solve A·x = b with A = [4 2; 2 5] from its Cholesky factor.
func ExamplePotrs() {
	var ws lapack.Workspace
	a := gemm.Mat[float64]{Data: []float64{4, 2, 0, 5}, RS: 1, CS: 2}
	lapack.Potrf(&ws, nil, lapack.Lower, 2, a)
	b := gemm.Mat[float64]{Data: []float64{8, 12}, RS: 1, CS: 2}
	lapack.Potrs(&ws, nil, lapack.Lower, 2, 1, a, b)
	fmt.Println(b.Data)
	// Output: [1 2]
}

// Factor P·A = L·U and read the determinant from the factors.
func ExampleGetrf() {
	var ws lapack.Workspace
	a := gemm.Mat[float64]{Data: []float64{1, 4, 2, 3}, RS: 1, CS: 2} // [1 2; 4 3]
	ipiv := make([]int, 2)
	info := lapack.Getrf(&ws, nil, 2, 2, a, ipiv)
	fmt.Println(info, ipiv, a.Data)
	fmt.Println(lapack.Det(2, a, ipiv))
	// Output:
	// 0 [1 1] [4 0.25 3 1.25]
	// -5
}

// The unblocked kernel reports the first zero pivot and completes.
func ExampleGetf2() {
	a := gemm.Mat[float64]{Data: []float64{0, 0, 1, 2}, RS: 1, CS: 2} // [0 1; 0 2]
	ipiv := make([]int, 2)
	fmt.Println(lapack.Getf2(2, 2, a, ipiv), ipiv, a.Data)
	// Output: 1 [0 1] [0 0 1 2]
}

// Solve A·x = b and Aᵀ·x = b with the same factors.
func ExampleGetrs() {
	var ws lapack.Workspace
	a := gemm.Mat[float64]{Data: []float64{1, 4, 2, 3}, RS: 1, CS: 2} // [1 2; 4 3]
	ipiv := make([]int, 2)
	lapack.Getrf(&ws, nil, 2, 2, a, ipiv)
	b := gemm.Mat[float64]{Data: []float64{5, 10}, RS: 1, CS: 2}
	lapack.Getrs(&ws, nil, lapack.NoTrans, 2, 1, a, ipiv, b)
	fmt.Println(b.Data)
	b = gemm.Mat[float64]{Data: []float64{9, 8}, RS: 1, CS: 2}
	lapack.Getrs(&ws, nil, lapack.Trans, 2, 1, a, ipiv, b)
	fmt.Println(b.Data)
	// Output:
	// [1 2]
	// [1 2]
}

// Invert A = [1 2; 4 3] from its factors.
func ExampleGetri() {
	var ws lapack.Workspace
	a := gemm.Mat[float64]{Data: []float64{1, 4, 2, 3}, RS: 1, CS: 2}
	ipiv := make([]int, 2)
	lapack.Getrf(&ws, nil, 2, 2, a, ipiv)
	inv := gemm.Mat[float64]{Data: make([]float64, 4), RS: 1, CS: 2}
	lapack.Getri(&ws, nil, 2, a, ipiv, inv)
	fmt.Printf("%.1f\n", inv.Data)
	// Output: [-0.6 0.8 0.4 -0.2]
}

// Apply and undo a row interchange.
func ExampleLaswp() {
	a := gemm.Mat[float64]{Data: []float64{1, 2, 3}, RS: 1, CS: 3}
	ipiv := []int{2, 1}
	lapack.Laswp(1, a, 0, 2, ipiv)
	fmt.Println(a.Data)
	lapack.Laswp(1, a, 2, 0, ipiv)
	fmt.Println(a.Data)
	// Output:
	// [3 2 1]
	// [1 2 3]
}

// The determinant of a large matrix as sign and log|det|, which does not
// overflow; complex types give the phase.
func ExampleSlogdet() {
	var ws lapack.Workspace
	a := gemm.Mat[complex128]{Data: []complex128{1i, 0, 0, 2}, RS: 1, CS: 2} // diag(i, 2)
	ipiv := make([]int, 2)
	lapack.Getrf(&ws, nil, 2, 2, a, ipiv)
	sign, logAbs := lapack.Slogdet(2, a, ipiv)
	fmt.Printf("%v %.4f\n", sign, logAbs)
	// Output: (0+1i) 0.6931
}

// det([2 1; 1 3]) from the factors.
func ExampleDet() {
	a := gemm.Mat[float32]{Data: []float32{2, 1, 1, 3}, RS: 1, CS: 2}
	ipiv := make([]int, 2)
	lapack.Getf2(2, 2, a, ipiv)
	fmt.Println(lapack.Det(2, a, ipiv))
	// Output: 5
}

// Invert an upper triangular matrix in place.
func ExampleTrtri() {
	var ws lapack.Workspace
	a := gemm.Mat[float64]{Data: []float64{2, 0, 1, 4}, RS: 1, CS: 2} // [2 1; 0 4]
	info := lapack.Trtri(&ws, nil, lapack.Upper, lapack.NonUnit, 2, a)
	fmt.Println(info, a.Data)
	// Output: 0 [0.5 0 -0.125 0.25]
}
