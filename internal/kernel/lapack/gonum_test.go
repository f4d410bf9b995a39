package lapack

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack/gonum"
)

// TestGonumOracle compares float64 factors with gonum's LAPACK on
// row-major storage read as a transposed view: the same pivots, and factors
// equal to rounding. gonum works row-major, so its A is our Aᵀ view.
func TestGonumOracle(t *testing.T) {
	var impl gonum.Implementation
	var ws Workspace
	rng := rand.New(rand.NewPCG(23, 1))
	for _, s := range [][2]int{{1, 1}, {7, 7}, {33, 33}, {67, 67}, {131, 131}, {100, 40}, {40, 100}} {
		m, n := s[0], s[1]
		name := fmt.Sprintf("%dx%d", m, n)
		ref := randDense[float64](rng, m, n)
		// Row-major copy for gonum, lda = n.
		g := make([]float64, m*n)
		for i := 0; i < m; i++ {
			for j := 0; j < n; j++ {
				g[i*n+j] = real(ref.at(i, j))
			}
		}
		gp := make([]int, min(m, n))
		impl.Dgetrf(m, n, g, n, gp)
		a := store[float64](ref, transposed)
		ipiv := make([]int, min(m, n))
		Getrf(&ws, nil, m, n, a.Mat, ipiv)
		for i := range ipiv {
			if ipiv[i] != gp[i] {
				t.Fatalf("%s: ipiv[%d] = %d, gonum %d", name, i, ipiv[i], gp[i])
			}
		}
		scale := ref.norm()
		for i := 0; i < m; i++ {
			for j := 0; j < n; j++ {
				if d := math.Abs(a.at(i, j) - g[i*n+j]); d > 1e-12*scale {
					t.Fatalf("%s: LU(%d,%d) = %v, gonum %v", name, i, j, a.at(i, j), g[i*n+j])
				}
			}
		}
		if m != n {
			continue
		}
		// Cholesky of a positive definite matrix, upper triangle, both
		// stored row by row.
		h := hpd[float64](rng, n, 100)
		hg := make([]float64, n*n)
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				hg[i*n+j] = real(h.at(i, j))
			}
		}
		if !impl.Dpotrf(blas.Upper, n, hg, n) {
			t.Fatalf("%s: gonum Dpotrf failed", name)
		}
		c := storeTri[float64](h, Upper, transposed)
		if info := Potrf(&ws, nil, Upper, n, c.Mat); info != 0 {
			t.Fatalf("%s: Potrf info %d", name, info)
		}
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				if d := math.Abs(c.at(i, j) - hg[i*n+j]); d > 1e-13 {
					t.Fatalf("%s: U(%d,%d) = %v, gonum %v", name, i, j, c.at(i, j), hg[i*n+j])
				}
			}
		}
	}
}
