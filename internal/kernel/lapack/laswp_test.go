package lapack

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
	"github.com/tenferro-go/tenferro/internal/par"
)

// laswpRef applies the interchanges one row pair at a time through
// element indexing, in the order Laswp documents.
func laswpRef[T Scalar](n int, a gemm.Mat[T], k1, k2 int, ipiv []int) {
	swap := func(i, p int) {
		for j := 0; j < n; j++ {
			x, y := a.Off+i*a.RS+j*a.CS, a.Off+p*a.RS+j*a.CS
			a.Data[x], a.Data[y] = a.Data[y], a.Data[x]
		}
	}
	if k1 <= k2 {
		for i := k1; i < k2; i++ {
			swap(i, ipiv[i])
		}
		return
	}
	for i := k1 - 1; i >= k2; i-- {
		swap(i, ipiv[i])
	}
}

// TestLaswp compares Laswp and its split form with laswpRef on random
// pivots (self-pivots included) over forward, reverse and partial ranges,
// column-major with a padded leading dimension and row-major storage.
func TestLaswp(t *testing.T) {
	testLaswp[float64](t)
	testLaswp[complex128](t)
	testLaswp[float32](t)
	testLaswp[complex64](t)
}

func testLaswp[T Scalar](t *testing.T) {
	prev := laswpMinSwaps
	laswpMinSwaps = 1
	defer func() { laswpMinSwaps = prev }()
	rng := rand.New(rand.NewPCG(5, 6))
	var ws Workspace
	for _, m := range []int{1, 2, 7, 33, 130} {
		for _, n := range []int{0, 1, 3, 17, 70} {
			ipiv := make([]int, m)
			for i := range ipiv {
				ipiv[i] = i
				if rng.IntN(4) > 0 {
					ipiv[i] = i + rng.IntN(m-i)
				}
			}
			for _, rows := range []bool{false, true} {
				for _, k := range [][2]int{{0, m}, {m, 0}, {m / 3, m}, {m, m / 3}, {m / 2, m / 2}} {
					a := gemm.Mat[T]{Data: make([]T, (m+3)*n+5), Off: 2, RS: 1, CS: m + 3}
					if rows {
						a = gemm.Mat[T]{Data: make([]T, m*(n+2)+5), Off: 1, RS: n + 2, CS: 1}
					}
					for i := range a.Data {
						a.Data[i] = fromC128[T](complex(rng.NormFloat64(), rng.NormFloat64()))
					}
					want := a
					want.Data = append([]T(nil), a.Data...)
					laswpRef(n, want, k[0], k[1], ipiv)
					name := fmt.Sprintf("%T m=%d n=%d rows=%v k=%v", *new(T), m, n, rows, k)
					for _, r := range []par.Runner{nil, goRunner{2}} {
						got := a
						got.Data = append([]T(nil), a.Data...)
						if r == nil {
							Laswp(n, got, k[0], k[1], ipiv)
						} else {
							laswpSplit(&ws, r, n, got, k[0], k[1], ipiv)
						}
						for i := range got.Data {
							if got.Data[i] != want.Data[i] {
								t.Fatalf("%s runner=%v: element %d = %v, want %v", name, r != nil, i, got.Data[i], want.Data[i])
							}
						}
					}
				}
			}
		}
	}
}
