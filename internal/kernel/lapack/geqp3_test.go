package lapack

import (
	"math/cmplx"
	"math/rand/v2"
	"testing"

	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
)

func TestGeqp3(t *testing.T) {
	t.Run("float32", testGeqp3[float32])
	t.Run("float64", testGeqp3[float64])
	t.Run("complex64", testGeqp3[complex64])
	t.Run("complex128", testGeqp3[complex128])
}

func testGeqp3[T Scalar](t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	var ws Workspace
	for _, sz := range [][2]int{{0, 0}, {1, 1}, {5, 1}, {1, 5}, {7, 7}, {13, 6}, {6, 13}, {40, 23}, {23, 40}} {
		m, n := sz[0], sz[1]
		for _, rank := range []int{min(m, n), min(m, n) / 2} {
			// A = X·Y with X m×rank, Y rank×n: rank-deficient below min(m, n).
			x := newDense(m, rank)
			y := newDense(rank, n)
			for i := range x.d {
				x.d[i] = rnd[T](rng)
			}
			for i := range y.d {
				y.d[i] = rnd[T](rng)
			}
			ad := mul(x, y)
			for l := range nLayouts {
				a := newMat[T](m, n, l, func(i, j int) complex128 { return ad.at(i, j) })
				ref := toDense(a)
				k := min(m, n)
				jpvt, tau := make([]int, n), make([]T, k)
				Geqp3(&ws, m, n, a.Mat, jpvt, tau)
				checkGuards(t, a)
				seen := make([]bool, n)
				for _, p := range jpvt {
					if p < 0 || p >= n || seen[p] {
						t.Fatalf("%dx%d: jpvt %v is not a permutation", m, n, jpvt)
					}
					seen[p] = true
				}
				f := toDense(a)
				r := newDense(k, n)
				for j := range n {
					for i := 0; i <= min(j, k-1); i++ {
						r.set(i, j, f.at(i, j))
					}
				}
				for i := 1; i < k; i++ {
					if cmplx.Abs(r.at(i, i)) > cmplx.Abs(r.at(i-1, i-1))*(1+1e-5) {
						t.Fatalf("%dx%d: |R[%d,%d]| = %g > |R[%d,%d]| = %g", m, n, i, i, cmplx.Abs(r.at(i, i)), i-1, i-1, cmplx.Abs(r.at(i-1, i-1)))
					}
				}
				q := gemm.Mat[T]{Data: make([]T, m*k), RS: 1, CS: max(m, 1)}
				for j := range k {
					for i := range m {
						q.Data[i+j*m] = a.at(i, j)
					}
				}
				Orgqr(&ws, nil, m, k, k, q, tau)
				qd := toDense(testMat[T]{q, m, k})
				ap := newDense(m, n)
				for j := range n {
					for i := range m {
						ap.set(i, j, ref.at(i, jpvt[j]))
					}
				}
				scale := ref.norm() + 1e-300
				if e := sub(ap, mul(qd, r)).norm() / scale; e > 20*float64(max(m, n))*eps[T]() {
					t.Errorf("%T %dx%d rank %d %v: ‖AP − QR‖/‖A‖ = %g", a.Data, m, n, rank, l, e)
				}
				// The diagonal reveals the rank: |R[rank, rank]| is at rounding level.
				if rank < k {
					if d := cmplx.Abs(r.at(rank, rank)) / scale; d > 50*float64(max(m, n))*eps[T]() {
						t.Errorf("%T %dx%d rank %d: |R[%d,%d]|/‖A‖ = %g, want rounding level", a.Data, m, n, rank, rank, rank, d)
					}
				}
			}
		}
	}
}

func TestGeqp3Allocs(t *testing.T) {
	var ws Workspace
	const m, n = 30, 20
	a := gemm.Mat[float64]{Data: make([]float64, m*n), RS: 1, CS: m}
	jpvt, tau := make([]int, n), make([]float64, n)
	Geqp3(&ws, m, n, a, jpvt, tau)
	if got := testing.AllocsPerRun(5, func() { Geqp3(&ws, m, n, a, jpvt, tau) }); got != 0 {
		t.Errorf("warm Geqp3: %v allocations, want 0", got)
	}
}
