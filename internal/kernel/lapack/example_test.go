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
