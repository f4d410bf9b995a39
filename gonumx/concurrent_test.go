package gonumx

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"gonum.org/v1/gonum/blas"
)

// TestConcurrentCallers runs many goroutines through one Implementation
// with a team at once (products above the parallel threshold, so that
// they compete for the team) and checks every result against gonum's.
// Under -race this also checks that calls share no mutable state.
func TestConcurrentCallers(t *testing.T) {
	impl, err := New(Threads(2), Crossover(0))
	if err != nil {
		t.Fatal(err)
	}
	defer impl.Close()
	const goroutines, rounds = 8, 3
	sizes := []int{17, 130, 200}
	var wg sync.WaitGroup
	errs := make(chan error, goroutines*rounds)
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(g), 99))
			for r := range rounds {
				n := sizes[(g+r)%len(sizes)]
				a := randMat[float64](rng, n, n, n)
				b := randMat[float64](rng, n, n, n)
				want, got := make([]float64, n*n), make([]float64, n*n)
				native.Dgemm(blas.NoTrans, blas.Trans, n, n, n, 1, a, n, b, n, 0, want, n)
				impl.Dgemm(blas.NoTrans, blas.Trans, n, n, n, 1, a, n, b, n, 0, got, n)
				bound := absProduct(blas.NoTrans, blas.Trans, n, n, n, 1.0, a, n, b, n, 0.0, want, n)
				tol := tolerance[float64](bound, 8*float64(n+2))
				for i := range got {
					if d := got[i] - want[i]; d > tol[i] || -d > tol[i] {
						errs <- fmt.Errorf("goroutine %d round %d (n=%d): Dgemm element %d = %v, want %v", g, r, n, i, got[i], want[i])
						return
					}
				}
				// A symmetric update on the same team, racing with the
				// other goroutines' products.
				c := slices.Clone(want)
				impl.Dsyrk(blas.Lower, blas.NoTrans, n, n, 1, a, n, 1, c, n)
				native.Dsyrk(blas.Lower, blas.NoTrans, n, n, 1, a, n, 1, want, n)
				for i := range n {
					for j := 0; j <= i; j++ {
						p := i*n + j
						if d := c[p] - want[p]; d > 1e-9*float64(n) || -d > 1e-9*float64(n) {
							errs <- fmt.Errorf("goroutine %d round %d (n=%d): Dsyrk (%d, %d) = %v, want %v", g, r, n, i, j, c[p], want[p])
							return
						}
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
