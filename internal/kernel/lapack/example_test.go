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
