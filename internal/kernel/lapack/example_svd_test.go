package lapack_test

import (
	"fmt"

	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
	"github.com/tenferro-go/tenferro/internal/kernel/lapack"
)

// Reduce a 3×2 matrix to upper bidiagonal form: d is B's diagonal, e its
// superdiagonal.
func ExampleGebrd() {
	var ws lapack.Workspace
	a := gemm.Mat[float64]{Data: []float64{3, 4, 0, 1, 2, 2}, RS: 1, CS: 3} // [3 1; 4 2; 0 2]
	d, e := make([]float64, 2), make([]float64, 1)
	tauq, taup := make([]float64, 2), make([]float64, 2)
	lapack.Gebrd(&ws, nil, 3, 2, a, d, e, tauq, taup)
	fmt.Println(r4(d), r4(e))
	// Output: [-5 -2.0396] [-2.2]
}

// Form the thin Q of a bidiagonal reduction: its columns are orthonormal.
func ExampleUngbr() {
	var ws lapack.Workspace
	a := gemm.Mat[complex128]{Data: []complex128{3, 4i, 0, 1, 2, 2i}, RS: 1, CS: 3}
	d, e := make([]float64, 2), make([]float64, 1)
	tauq, taup := make([]complex128, 2), make([]complex128, 2)
	lapack.Gebrd(&ws, nil, 3, 2, a, d, e, tauq, taup)
	lapack.Ungbr(&ws, nil, lapack.BrQ, 3, 2, 2, a, tauq)
	var g [2][2]complex128 // QᴴQ
	for i := range 2 {
		for j := range 2 {
			for k := range 3 {
				x, y := a.Data[k+3*i], a.Data[k+3*j]
				g[i][j] += complex(real(x), -imag(x)) * y
			}
		}
	}
	fmt.Println(r4(g[0][:]), r4(g[1][:]))
	// Output: [(1+0i) (0+0i)] [(0+0i) (1+0i)]
}

// Form Pᴴ of a 2×2 reduction; for 2 columns there is no reflector and
// Pᴴ is the identity.
func ExampleOrgbr() {
	var ws lapack.Workspace
	a := gemm.Mat[float64]{Data: []float64{3, 4, 1, 2}, RS: 1, CS: 2}
	d, e := make([]float64, 2), make([]float64, 1)
	tauq, taup := make([]float64, 2), make([]float64, 2)
	lapack.Gebrd(&ws, nil, 2, 2, a, d, e, tauq, taup)
	lapack.Orgbr(&ws, nil, lapack.BrPH, 2, 2, 2, a, taup)
	fmt.Println(a.Data)
	// Output: [1 0 0 1]
}

// The singular values of the upper bidiagonal [1 2; 0 2], with the
// rotations that diagonalize it, accumulated into identities.
func ExampleBdsqr() {
	d, e := []float64{1, 2}, []float64{2}
	u := gemm.Mat[float64]{Data: []float64{1, 0, 0, 1}, RS: 1, CS: 2}
	vt := gemm.Mat[float64]{Data: []float64{1, 0, 0, 1}, RS: 1, CS: 2}
	info := lapack.Bdsqr(true, 2, 2, 2, d, e, vt, u, make([]float64, 8))
	fmt.Println(info, r4(d))
	// Output: 0 [2.9208 0.6847]
}

// The singular value decomposition of a 2×3 matrix: A = U·diag(s)·Vᴴ.
func ExampleGesvd() {
	var ws lapack.Workspace
	// A = [3 2 2; 2 3 -2], column-major.
	a := gemm.Mat[float64]{Data: []float64{3, 2, 2, 3, 2, -2}, RS: 1, CS: 2}
	s := make([]float64, 2)
	u := gemm.Mat[float64]{Data: make([]float64, 4), RS: 1, CS: 2}
	vt := gemm.Mat[float64]{Data: make([]float64, 6), RS: 1, CS: 2}
	info := lapack.Gesvd(&ws, nil, lapack.SVDThin, 2, 3, a, s, u, vt)
	fmt.Println(info, r4(s))
	// Reassemble A.
	for i := range 2 {
		var row [3]float64
		for j := range 3 {
			for k := range 2 {
				row[j] += u.Data[i+2*k] * s[k] * vt.Data[k+2*j]
			}
		}
		fmt.Println(r4(row[:]))
	}
	// Output:
	// 0 [5 3]
	// [3 2 2]
	// [2 3 -2]
}

// The work length with which Bdsqr batches its rotations.
func ExampleBdsqrWork() {
	n := 3
	d, e := []float64{3, 2, 1}, []float64{1, 1}
	u := gemm.Mat[float64]{Data: []float64{1, 0, 0, 0, 1, 0, 0, 0, 1}, RS: 1, CS: 3}
	vt := gemm.Mat[float64]{Data: []float64{1, 0, 0, 0, 1, 0, 0, 0, 1}, RS: 1, CS: 3}
	work := make([]float64, lapack.BdsqrWork(n))
	info := lapack.Bdsqr(true, n, n, n, d, e, vt, u, work)
	fmt.Println(info, r4(d))
	// Output: 0 [3.2731 2.1326 0.8596]
}
