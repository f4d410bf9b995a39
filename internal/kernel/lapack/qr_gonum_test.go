package lapack

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/lapack/gonum"
)

// TestGonumQR compares |diag R| of float64 Geqrf with gonum's Dgeqrf (the
// signs of R's rows and of the reflectors are a gauge and may differ; the
// moduli are unique for A of full rank). gonum works row-major, so its A
// is our transposed view of the same storage.
func TestGonumQR(t *testing.T) {
	var impl gonum.Implementation
	var ws Workspace
	rng := rand.New(rand.NewPCG(67, 1))
	for _, s := range [][2]int{{1, 1}, {7, 7}, {31, 31}, {67, 67}, {131, 131}, {257, 100}, {100, 257}} {
		m, n := s[0], s[1]
		k := min(m, n)
		ref := randDense[float64](rng, m, n)
		g := make([]float64, m*n)
		for i := 0; i < m; i++ {
			for j := 0; j < n; j++ {
				g[i*n+j] = real(ref.at(i, j))
			}
		}
		gt := make([]float64, k)
		work := make([]float64, 1)
		impl.Dgeqrf(m, n, g, n, gt, work, -1)
		work = make([]float64, int(work[0]))
		impl.Dgeqrf(m, n, g, n, gt, work, len(work))
		a := store[float64](ref, transposed)
		tau := make([]float64, k)
		Geqrf(&ws, nil, m, n, a.Mat, tau)
		for i := 0; i < k; i++ {
			got, want := math.Abs(a.at(i, i)), math.Abs(g[i*n+i])
			if math.Abs(got-want) > 16*eps[float64]()*float64(max(m, n))*ref.norm() {
				t.Fatalf("%s: |R(%d,%d)| = %v, gonum %v", fmt.Sprintf("%dx%d", m, n), i, i, got, want)
			}
		}
	}
}
