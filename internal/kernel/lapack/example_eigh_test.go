package lapack_test

import (
	"fmt"
	"math"

	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
	"github.com/tenferro-go/tenferro/internal/kernel/lapack"
)

// The eigen decomposition of a symmetric matrix: A = V·diag(w)·Vᵀ.
func ExampleHeev() {
	var ws lapack.Workspace
	// Lower triangle of [2 1 0; 1 2 1; 0 1 2], column-major (the upper
	// triangle is not read).
	a := gemm.Mat[float64]{Data: []float64{2, 1, 0, 0, 2, 1, 0, 0, 2}, RS: 1, CS: 3}
	w := make([]float64, 3)
	info := lapack.Heev(&ws, nil, true, lapack.Lower, 3, a, w)
	fmt.Println(info, r4(w))
	// Column 0 spans [1, −√2, 1]/2 up to sign.
	s := math.Copysign(1, a.Data[0])
	fmt.Println(r4([]float64{s * a.Data[0], s * a.Data[1], s * a.Data[2]}))
	// Output:
	// 0 [0.5858 2 3.4142]
	// [0.5 -0.7071 0.5]
}

// Eigenvalues only of a complex Hermitian matrix, from its upper triangle.
func ExampleHeev_hermitian() {
	var ws lapack.Workspace
	a := gemm.Mat[complex128]{Data: []complex128{2, 0, 1i, 2}, RS: 1, CS: 2} // [2 i; −i 2]
	w := make([]float64, 2)
	lapack.Heev(&ws, nil, false, lapack.Upper, 2, a, w)
	fmt.Println(r4(w))
	// Output: [1 3]
}

// Reduce a symmetric matrix to tridiagonal form Qᵀ·A·Q = T.
func ExampleHetrd() {
	var ws lapack.Workspace
	// Lower triangle of [4 1 2; 1 2 0; 2 0 3].
	a := gemm.Mat[float64]{Data: []float64{4, 1, 2, 0, 2, 0, 0, 0, 3}, RS: 1, CS: 3}
	d, e := make([]float64, 3), make([]float64, 2)
	tau := make([]float64, 2)
	lapack.Hetrd(&ws, nil, lapack.Lower, 3, a, d, e, tau)
	fmt.Println(r4(d), r4(e))
	// Output: [4 2.8 2.2] [-2.2361 -0.4]
}

// Form the Q of a tridiagonal reduction explicitly.
func ExampleUngtr() {
	var ws lapack.Workspace
	a := gemm.Mat[float64]{Data: []float64{4, 1, 2, 0, 2, 0, 0, 0, 3}, RS: 1, CS: 3}
	d, e := make([]float64, 3), make([]float64, 2)
	tau := make([]float64, 2)
	lapack.Hetrd(&ws, nil, lapack.Lower, 3, a, d, e, tau)
	lapack.Ungtr(&ws, nil, lapack.Lower, 3, a, tau)
	fmt.Println(r4(a.Data))
	// Output: [1 0 0 0 -0.4472 -0.8944 0 -0.8944 0.4472]
}

// Apply the Q of a tridiagonal reduction to a vector without forming it.
func ExampleUnmtr() {
	var ws lapack.Workspace
	a := gemm.Mat[float64]{Data: []float64{4, 1, 2, 0, 2, 0, 0, 0, 3}, RS: 1, CS: 3}
	d, e := make([]float64, 3), make([]float64, 2)
	tau := make([]float64, 2)
	lapack.Hetrd(&ws, nil, lapack.Lower, 3, a, d, e, tau)
	c := gemm.Mat[float64]{Data: []float64{0, 1, 0}, RS: 1, CS: 3} // e1
	lapack.Unmtr(&ws, nil, lapack.Lower, lapack.NoTrans, 3, 1, a, tau, c)
	fmt.Println(r4(c.Data)) // Q's column 1
	// Output: [0 -0.4472 -0.8944]
}

// Eigenvalues and eigenvectors of a symmetric tridiagonal matrix by the
// QL/QR iteration.
func ExampleSteqr() {
	d := []float64{2, 2, 2}
	e := []float64{-1, -1}
	z := gemm.Mat[float64]{Data: []float64{1, 0, 0, 0, 1, 0, 0, 0, 1}, RS: 1, CS: 3}
	info := lapack.Steqr(3, d, e, z, make([]float64, 6))
	fmt.Println(info, r4(d))
	// Eigenvalues only: no vectors, no work.
	d2, e2 := []float64{2, 2, 2}, []float64{-1, -1}
	lapack.Steqr(3, d2, e2, gemm.Mat[float64]{}, nil)
	fmt.Println(r4(d2))
	// Output:
	// 0 [0.5858 2 3.4142]
	// [0.5858 2 3.4142]
}

// Divide and conquer on the tridiagonal of the 1-D Laplacian, whose
// eigenvalues are 2 − 2·cos(kπ/(n+1)).
func ExampleStedc() {
	var ws lapack.Workspace
	const n = 100
	d, e := make([]float64, n), make([]float64, n-1)
	for i := range d {
		d[i] = 2
		if i < n-1 {
			e[i] = -1
		}
	}
	z := gemm.Mat[float64]{Data: make([]float64, n*n), RS: 1, CS: n}
	info := lapack.Stedc(&ws, nil, n, d, e, z)
	maxErr := 0.0
	for k := range d {
		maxErr = math.Max(maxErr, math.Abs(d[k]-(2-2*math.Cos(float64(k+1)*math.Pi/(n+1)))))
	}
	fmt.Println(info, maxErr < 1e-13)
	// Output: 0 true
}
