package lapack_test

import (
	"fmt"

	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
	"github.com/tenferro-go/tenferro/internal/kernel/lapack"
)

// Decompose a 2×2 matrix by one-sided Jacobi: the singular values of
// [3 0; 4 5] are √45 and √5, and U·diag(s)·Vᴴ gives back A.
func ExampleGesvj() {
	var ws lapack.Workspace
	a := gemm.Mat[float64]{Data: []float64{3, 4, 0, 5}, RS: 1, CS: 2}
	s := make([]float64, 2)
	u := gemm.Mat[float64]{Data: make([]float64, 4), RS: 1, CS: 2}
	vt := gemm.Mat[float64]{Data: make([]float64, 4), RS: 1, CS: 2}
	info := lapack.Gesvj(&ws, true, 2, 2, a, s, u, vt)
	var back [4]float64
	for j := range 2 {
		for i := range 2 {
			for k := range 2 {
				back[i+2*j] += u.Data[i+2*k] * s[k] * vt.Data[k+2*j]
			}
		}
	}
	fmt.Println(info, r4(s), r4(back[:]))
	// Output: 0 [6.7082 2.2361] [3 4 0 5]
}

// The eigenvalues of the Hermitian [2 i; −i 2] are 1 and 3.
func ExampleHeevj() {
	var ws lapack.Workspace
	a := gemm.Mat[complex128]{Data: []complex128{2, -1i, 0, 2}, RS: 1, CS: 2} // lower triangle
	w := make([]float64, 2)
	info := lapack.Heevj(&ws, false, lapack.Lower, 2, a, w)
	fmt.Println(info, r4(w))
	// Output: 0 [1 3]
}

// Form the thin Q of a 3×2 QR factorization without blocking: its
// columns are orthonormal.
func ExampleOrg2r() {
	a := gemm.Mat[float64]{Data: []float64{3, 4, 0, 1, 2, 2}, RS: 1, CS: 3}
	tau := make([]float64, 2)
	lapack.Geqr2(3, 2, a, tau)
	lapack.Org2r(3, 2, 2, a, tau)
	var g [4]float64 // QᵀQ
	for i := range 2 {
		for j := range 2 {
			for k := range 3 {
				g[i+2*j] += a.Data[k+3*i] * a.Data[k+3*j]
			}
		}
	}
	fmt.Println(r4(g[:]))
	// Output: [1 0 0 1]
}
