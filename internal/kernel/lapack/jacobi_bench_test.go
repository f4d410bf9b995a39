package lapack

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
)

// BenchmarkSmallSpectral compares the Jacobi kernels with the Householder
// pipelines on one small matrix, with vectors (the crossover behind
// JacobiSVDMax and JacobiEighMax).
func BenchmarkSmallSpectral(b *testing.B) {
	for _, n := range []int{4, 6, 8, 16, 32} {
		b.Run(fmt.Sprintf("float64/n=%d", n), func(b *testing.B) { benchSmallSpectral[float64](b, n) })
		b.Run(fmt.Sprintf("complex128/n=%d", n), func(b *testing.B) { benchSmallSpectral[complex128](b, n) })
	}
}

func benchSmallSpectral[T Scalar](b *testing.B, n int) {
	rng := rand.New(rand.NewPCG(1, 2))
	ref := randDense[T](rng, n, n)
	h := randHerm[T](rng, n)
	var ws Workspace
	a := store[T](ref, dense)
	work := gemm.Mat[T]{Data: make([]T, n*n), RS: 1, CS: n}
	u := gemm.Mat[T]{Data: make([]T, n*n), RS: 1, CS: n}
	vt := gemm.Mat[T]{Data: make([]T, n*n), RS: 1, CS: n}
	s := make([]float64, n)
	hs := store[T](h, dense)
	b.Run("gesvj", func(b *testing.B) {
		for b.Loop() {
			Gesvj(&ws, true, n, n, a.Mat, s, u, vt)
		}
	})
	b.Run("gesvd", func(b *testing.B) {
		for b.Loop() {
			copy(work.Data, a.Data)
			Gesvd(&ws, nil, SVDThin, n, n, work, s, u, vt)
		}
	})
	b.Run("heevj", func(b *testing.B) {
		for b.Loop() {
			copy(work.Data, hs.Data)
			Heevj(&ws, true, Lower, n, work, s)
		}
	})
	b.Run("heev", func(b *testing.B) {
		for b.Loop() {
			copy(work.Data, hs.Data)
			Heev(&ws, nil, true, Lower, n, work, s)
		}
	})
}

// BenchmarkSmallFactor times the unblocked kernels the batched drivers use
// on one small matrix, beside the blocked drivers.
func BenchmarkSmallFactor(b *testing.B) {
	for _, n := range []int{4, 8, 16} {
		b.Run(fmt.Sprintf("float64/n=%d", n), func(b *testing.B) { benchSmallFactor[float64](b, n) })
		b.Run(fmt.Sprintf("complex128/n=%d", n), func(b *testing.B) { benchSmallFactor[complex128](b, n) })
	}
}

func benchSmallFactor[T Scalar](b *testing.B, n int) {
	rng := rand.New(rand.NewPCG(1, 2))
	ref := randDense[T](rng, n, n)
	for i := 0; i < n; i++ {
		ref.set(i, i, ref.at(i, i)+complex(float64(2*n), 0))
	}
	h := mul(ref, ref.op(ConjTrans))
	var ws Workspace
	a := store[T](ref, dense)
	hs := store[T](h, dense)
	work := gemm.Mat[T]{Data: make([]T, n*n), RS: 1, CS: n}
	q := gemm.Mat[T]{Data: make([]T, n*n), RS: 1, CS: n}
	tau := make([]T, n)
	piv := make([]int, n)
	b.Run("potf2", func(b *testing.B) {
		for b.Loop() {
			copy(work.Data, hs.Data)
			Potf2(Lower, n, work)
		}
	})
	b.Run("getf2", func(b *testing.B) {
		for b.Loop() {
			copy(work.Data, a.Data)
			Getf2(n, n, work, piv)
		}
	})
	b.Run("getri", func(b *testing.B) {
		copy(work.Data, a.Data)
		Getf2(n, n, work, piv)
		for b.Loop() {
			Getri(&ws, nil, n, work, piv, q)
		}
	})
	b.Run("geqr2+org2r", func(b *testing.B) {
		for b.Loop() {
			copy(work.Data, a.Data)
			Geqr2(n, n, work, tau)
			copy(q.Data, work.Data)
			Org2r(n, n, n, q, tau)
		}
	})
	b.Run("geqrf+orgqr", func(b *testing.B) {
		for b.Loop() {
			copy(work.Data, a.Data)
			Geqrf(&ws, nil, n, n, work, tau)
			copy(q.Data, work.Data)
			Orgqr(&ws, nil, n, n, n, q, tau)
		}
	})
}
