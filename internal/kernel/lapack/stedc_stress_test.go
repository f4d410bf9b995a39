package lapack

import (
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"testing"
)

// TestStedcRandom runs Stedc on random tridiagonals of eight kinds
// (normal, small integers with tiny or zero couplings, clusters at 1,
// graded, glued Wilkinson, zero diagonal, well separated, scaled) and
// random orders and leaf sizes, checking residual, orthogonality and
// order. EIGH_STRESS=1 runs 3000 problems up to n = 200 instead of 150 up
// to 100.
func TestStedcRandom(t *testing.T) {
	trials, maxN := 150, 100
	if os.Getenv("EIGH_STRESS") != "" {
		trials, maxN = 3000, 200
	}
	rng := rand.New(rand.NewPCG(99, 1))
	var ws Workspace
	worstR, worstO := 0.0, 0.0
	for trial := 0; trial < trials; trial++ {
		n := 2 + rng.IntN(maxN)
		leaf := 2 + rng.IntN(40)
		kind := rng.IntN(8)
		d, e := make([]float64, n), make([]float64, n-1)
		for i := range d {
			switch kind {
			case 0:
				d[i] = rng.NormFloat64()
			case 1:
				d[i] = float64(rng.IntN(3))
			case 2:
				d[i] = 1 + 1e-14*rng.NormFloat64()
			case 3:
				d[i] = math.Pow(10, -15*rng.Float64())
			case 4:
				d[i] = math.Abs(float64(i%21) - 10)
			case 5:
				d[i] = 0
			case 6:
				d[i] = float64(i)
			case 7:
				d[i] = rng.NormFloat64() * math.Pow(10, -8*rng.Float64())
			}
		}
		for i := range e {
			switch kind {
			case 1, 2:
				e[i] = 1e-9 * rng.NormFloat64()
				if rng.IntN(3) == 0 {
					e[i] = 0
				}
			case 3, 7:
				e[i] = rng.NormFloat64() * math.Pow(10, -15*rng.Float64())
			case 4:
				e[i] = 1
			case 5:
				e[i] = 1
			case 6:
				e[i] = 1e-3
			default:
				e[i] = rng.NormFloat64()
			}
		}
		z := newMat[float64](n, n, dense, func(i, j int) complex128 { return 0 })
		w, ec := slices.Clone(d), slices.Clone(e)
		var info int
		withStedcLeaf(leaf, func() { info = Stedc(&ws, nil, n, w, ec, z.Mat) })
		if info != 0 {
			t.Fatalf("trial %d n=%d leaf=%d kind=%d: info %d", trial, n, leaf, kind, info)
		}
		zd := toDense(z)
		tm := tridiag(d, e)
		tn := fnorm(tm)
		zl := newDense(n, n)
		for j := 0; j < n; j++ {
			for i := 0; i < n; i++ {
				zl.set(i, j, zd.at(i, j)*complex(w[j], 0))
			}
		}
		res := fnorm(sub(mul(tm, zd), zl)) / (tn * float64(n) * tdEps)
		orth := orthErr(zd) / (float64(n) * tdEps)
		worstR, worstO = max(worstR, res), max(worstO, orth)
		if !(res < 10) || !(orth < 10) || !slices.IsSorted(w) {
			t.Fatalf("trial %d n=%d leaf=%d kind=%d: res %.3g orth %.3g", trial, n, leaf, kind, res, orth)
		}
	}
	t.Logf("worst residual %.3g, orthogonality %.3g (units of n·ε)", worstR, worstO)
}
