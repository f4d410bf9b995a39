package lapack

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// withGebrd runs f with GebrdBlock and GebrdCrossover set, then restores
// them.
func withGebrd(nb, nx int, f func()) {
	b0, x0 := GebrdBlock, GebrdCrossover
	GebrdBlock, GebrdCrossover = nb, nx
	defer func() { GebrdBlock, GebrdCrossover = b0, x0 }()
	f()
}

// bidiag returns the m×n bidiagonal matrix with diagonal d and
// off-diagonal e (above the diagonal when m ≥ n, below it otherwise).
func bidiag(m, n int, d, e []float64) dense128 {
	b := newDense(m, n)
	k := min(m, n)
	for i := 0; i < k; i++ {
		b.set(i, i, complex(d[i], 0))
		if i+1 < k {
			if m >= n {
				b.set(i, i+1, complex(e[i], 0))
			} else {
				b.set(i+1, i, complex(e[i], 0))
			}
		}
	}
	return b
}

// embed returns an r×c test matrix in layout l holding a's entries where
// they fit and random values elsewhere (which the routine must not need).
func embed[T Scalar](rng *rand.Rand, a testMat[T], r, c int, l layout) testMat[T] {
	return newMat[T](r, c, l, func(i, j int) complex128 {
		if i < a.r && j < a.c {
			return a.c128(i, j)
		}
		return rnd[T](rng)
	})
}

func testGebrd[T Scalar](t *testing.T, shapes [][2]int) {
	rng := rand.New(rand.NewPCG(11, uint64(len(shapes))))
	var ws Workspace
	ep := eps[T]()
	for _, s := range shapes {
		m, n := s[0], s[1]
		k := min(m, n)
		for l := range nLayouts {
			name := fmt.Sprintf("%s m=%d n=%d %v nb=%d", typeName[T](), m, n, l, GebrdBlock)
			ref := randDense[T](rng, m, n)
			a := store[T](ref, l)
			d := make([]float64, k)
			e := make([]float64, max(k, 1))
			tauq := make([]T, k)
			taup := make([]T, k)
			Gebrd(&ws, nil, m, n, a.Mat, d, e, tauq, taup)
			checkGuards(t, a)
			if k == 0 {
				continue
			}
			// Stored B entries.
			for i := 0; i < k; i++ {
				if got := a.c128(i, i); got != complex(d[i], 0) {
					t.Fatalf("%s: A[%d,%d] = %v, d = %v", name, i, i, got, d[i])
				}
			}
			tol := 10 * float64(max(m, n)) * ep
			// Full Q (m×m) and Pᴴ (n×n).
			lq, lp := layout((m+n)%int(nLayouts)), layout((m+2*n+1)%int(nLayouts))
			q := embed(rng, a, m, m, lq)
			Ungbr(&ws, nil, BrQ, m, m, n, q.Mat, tauq)
			checkGuards(t, q)
			ph := embed(rng, a, n, n, lp)
			Ungbr(&ws, nil, BrPH, n, n, m, ph.Mat, taup)
			checkGuards(t, ph)
			qd, pd := toDense(q), toDense(ph)
			b := bidiag(m, n, d, e)
			anorm := ref.norm()
			if res := sub(mul(mul(qd.op(ConjTrans), ref), pd.op(ConjTrans)), b).norm(); !(res <= tol*anorm) {
				t.Fatalf("%s: ‖QᴴAP − B‖/‖A‖ = %.3g > %.3g", name, res/anorm, tol)
			}
			if res := orthErr(qd); !(res <= tol) {
				t.Fatalf("%s: ‖QᴴQ − I‖ = %.3g", name, res)
			}
			if res := orthErr(pd.op(ConjTrans)); !(res <= tol) {
				t.Fatalf("%s: ‖PᴴP − I‖ = %.3g", name, res)
			}
			// Thin factors: Q m×k and Pᴴ k×n are the leading columns/rows.
			if m > n {
				qt := embed(rng, a, m, n, l)
				Ungbr(&ws, nil, BrQ, m, n, n, qt.Mat, tauq)
				checkGuards(t, qt)
				for j := 0; j < n; j++ {
					for i := 0; i < m; i++ {
						if d := qt.c128(i, j) - qd.at(i, j); abs(d) > tol {
							t.Fatalf("%s: thin Q(%d,%d) differs by %.3g", name, i, j, abs(d))
						}
					}
				}
			}
			if m < n {
				pt := embed(rng, a, m, n, l)
				Ungbr(&ws, nil, BrPH, m, n, m, pt.Mat, taup)
				checkGuards(t, pt)
				for j := 0; j < n; j++ {
					for i := 0; i < m; i++ {
						if d := pt.c128(i, j) - pd.at(i, j); abs(d) > tol {
							t.Fatalf("%s: thin Pᴴ(%d,%d) differs by %.3g", name, i, j, abs(d))
						}
					}
				}
			}
		}
	}
}

var gebrdShapes = [][2]int{
	{0, 0}, {0, 3}, {3, 0}, {1, 1}, {1, 4}, {4, 1}, {2, 2}, {2, 3}, {3, 2},
	{5, 5}, {7, 3}, {3, 7}, {8, 8}, {9, 9}, {13, 13}, {17, 11}, {11, 17},
	{16, 16}, {31, 31}, {33, 20}, {20, 33}, {40, 9}, {9, 40},
}

func TestGebrd(t *testing.T) {
	for _, nb := range [][2]int{{32, 128}, {4, 8}, {3, 5}} {
		withGebrd(nb[0], nb[1], func() {
			testGebrd[float64](t, gebrdShapes)
			testGebrd[complex128](t, gebrdShapes)
			testGebrd[float32](t, gebrdShapes)
			testGebrd[complex64](t, gebrdShapes)
		})
	}
	// Past the default crossover, with a partial last block.
	big := [][2]int{{150, 141}, {141, 150}}
	if testing.Short() {
		big = big[:1]
	}
	testGebrd[float64](t, big)
	testGebrd[complex128](t, big)
}
