package gemm_test

import (
	"fmt"

	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
)

// C = A·B for column-major 2×3 A and 3×2 B, then C = A·B + C with B read
// through a transposed view of row-major storage.
func ExampleGemm() {
	var ws gemm.Workspace
	a := gemm.Mat[float64]{Data: []float64{1, 4, 2, 5, 3, 6}, RS: 1, CS: 2} // [1 2 3; 4 5 6]
	b := gemm.Mat[float64]{Data: []float64{1, 0, 2, 0, 1, 1}, RS: 1, CS: 3} // [1 0; 0 1; 2 1]
	c := gemm.Mat[float64]{Data: make([]float64, 4), RS: 1, CS: 2}
	gemm.Gemm(&ws, nil, 2, 2, 3, 1, a, b, 0, c)
	fmt.Println(c.Data)

	// The same B stored row by row: element (i, j) at i*2 + j.
	bt := gemm.Mat[float64]{Data: []float64{1, 0, 0, 1, 2, 1}, RS: 2, CS: 1}
	gemm.Gemm(&ws, nil, 2, 2, 3, 1, a, bt, 1, c)
	fmt.Println(c.Data)
	// Output:
	// [7 16 5 11]
	// [14 32 10 22]
}

// Three independent 1×1 products stored back to back.
func ExampleGemmBatched() {
	var ws gemm.Workspace
	a := gemm.Mat[float32]{Data: []float32{1, 2, 3}, RS: 1, CS: 1}
	b := gemm.Mat[float32]{Data: []float32{4, 5, 6}, RS: 1, CS: 1}
	c := gemm.Mat[float32]{Data: make([]float32, 3), RS: 1, CS: 1}
	gemm.GemmBatched(&ws, nil, 1, 1, 1, 3, 2, a, 1, b, 1, 0, c, 1)
	fmt.Println(c.Data)
	// Output: [8 20 36]
}
