package lapack_test

import (
	"fmt"

	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
	"github.com/tenferro-go/tenferro/internal/kernel/lapack"
)

// The exponential of the rotation generator [0 −π/2; π/2 0] is the
// rotation by a quarter turn, and exp of a nilpotent matrix is its finite
// series.
func ExampleExpm() {
	var ws lapack.Workspace
	const h = 1.5707963267948966
	a := gemm.Mat[float64]{Data: []float64{0, h, -h, 0}, RS: 1, CS: 2} // column-major
	x := gemm.Mat[float64]{Data: make([]float64, 4), RS: 1, CS: 2}
	info := lapack.Expm(&ws, nil, 2, a, x)
	fmt.Printf("%d [%.3f %.3f; %.3f %.3f]\n", info, x.Data[0], x.Data[2], x.Data[1], x.Data[3])

	n := gemm.Mat[float64]{Data: []float64{0, 0, 2, 0}, RS: 1, CS: 2} // [0 2; 0 0]
	lapack.Expm(&ws, nil, 2, n, x)
	fmt.Println(x.Data) // I + N
	// Output:
	// 0 [0.000 -1.000; 1.000 0.000]
	// [1 0 2 1]
}
