package lapack

import (
	"fmt"
	"math/cmplx"
	"math/rand/v2"
	"testing"

	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
)

// withHetrdBlock runs f with HetrdBlock and HetrdCross set, then restores
// them.
func withHetrdBlock(nb, nx int, f func()) {
	b0, x0 := HetrdBlock, HetrdCross
	HetrdBlock, HetrdCross = nb, nx
	defer func() { HetrdBlock, HetrdCross = b0, x0 }()
	f()
}

// randHerm returns a random n×n Hermitian reference matrix of T's kind.
func randHerm[T Scalar](rng *rand.Rand, n int) dense128 {
	a := newDense(n, n)
	for j := 0; j < n; j++ {
		a.set(j, j, complex(real(rnd[T](rng)), 0))
		for i := j + 1; i < n; i++ {
			v := rnd[T](rng)
			a.set(i, j, v)
			a.set(j, i, cmplx.Conj(v))
		}
	}
	return a
}

// tridiag returns the dense symmetric tridiagonal matrix of d and e.
func tridiag(d, e []float64) dense128 {
	n := len(d)
	t := newDense(n, n)
	for i := 0; i < n; i++ {
		t.set(i, i, complex(d[i], 0))
		if i+1 < n {
			t.set(i+1, i, complex(e[i], 0))
			t.set(i, i+1, complex(e[i], 0))
		}
	}
	return t
}

// checkHetrd reduces ref (stored in the uplo triangle, layout l) and
// checks ‖QᴴAQ − T‖ and ‖QᴴQ − I‖ against c·n·ε, that the opposite
// triangle and the guards survive, and the reflector layout (Q's first row
// and column are e0).
func checkHetrd[T Scalar](t *testing.T, ws *Workspace, name string, ref dense128, uplo Uplo, l layout) {
	t.Helper()
	n := ref.r
	a := storeTri[T](ref, uplo, l)
	d, e := make([]float64, n), make([]float64, max(n-1, 0))
	tau := make([]T, max(n-1, 0))
	Hetrd(ws, nil, uplo, n, a.Mat, d, e, tau)
	checkOtherTri(t, a, uplo)
	Ungtr(ws, nil, uplo, n, a.Mat, tau)
	checkGuards(t, a)
	q := toDense(a)
	ep := eps[T]()
	tol := 10 * float64(max(n, 1)) * ep
	nrm := max(ref.norm(), 1e-300)
	if res := sub(mul(q.op(ConjTrans), mul(ref, q)), tridiag(d, e)).norm(); !(res <= tol*nrm) {
		t.Fatalf("%s: ‖QᴴAQ − T‖/‖A‖ = %.3g > %.3g", name, res/nrm, tol)
	}
	if res := orthErr(q); !(res <= tol) {
		t.Fatalf("%s: ‖QᴴQ − I‖ = %.3g > %.3g", name, res, tol)
	}
	for i := 1; i < n; i++ {
		if q.at(0, i) != 0 || q.at(i, 0) != 0 {
			t.Fatalf("%s: Q's first row or column is not e0", name)
		}
	}
}

func testHetrd[T Scalar](t *testing.T, sizes []int) {
	rng := rand.New(rand.NewPCG(11, uint64(len(sizes))))
	var ws Workspace
	for _, n := range sizes {
		for _, uplo := range []Uplo{Lower, Upper} {
			for l := range nLayouts {
				name := fmt.Sprintf("%s n=%d uplo=%d %v", typeName[T](), n, uplo, l)
				checkHetrd[T](t, &ws, name, randHerm[T](rng, n), uplo, l)
			}
		}
	}
}

func TestHetrd(t *testing.T) {
	// Small blocks, so that panels, the rank-2k update's recursion and
	// its leaves and the unblocked tail all run at test sizes.
	sizes := []int{0, 1, 2, 3, 5, 8, 9, 16, 17, 23, 24, 25, 31, 47, 70, 97}
	withHetrdBlock(8, 16, func() {
		t.Run("float64", func(t *testing.T) { testHetrd[float64](t, sizes) })
		t.Run("complex128", func(t *testing.T) { testHetrd[complex128](t, sizes) })
		t.Run("float32", func(t *testing.T) { testHetrd[float32](t, sizes) })
		t.Run("complex64", func(t *testing.T) { testHetrd[complex64](t, sizes) })
	})
	withHetrdBlock(1, 1, func() {
		t.Run("unblocked", func(t *testing.T) { testHetrd[complex128](t, []int{4, 13}) })
	})
}

// TestHetrdLarge runs the default block sizes past a few panels and a
// rank-2k update larger than its leaf.
func TestHetrdLarge(t *testing.T) {
	sizes := []int{65, 96, 161}
	if testing.Short() {
		sizes = []int{97}
	}
	t.Run("float64", func(t *testing.T) { testHetrd[float64](t, sizes) })
	t.Run("complex128", func(t *testing.T) { testHetrd[complex128](t, sizes) })
}

// TestHetrdTridiagonalInput checks that an input already tridiagonal, or
// diagonal, or zero (τ = 0 everywhere) is reduced to itself up to signs.
func TestHetrdTridiagonalInput(t *testing.T) {
	var ws Workspace
	for _, n := range []int{3, 20} {
		for kind := 0; kind < 3; kind++ {
			ref := newDense(n, n)
			for i := 0; i < n; i++ {
				if kind < 2 {
					ref.set(i, i, complex(float64(i+1), 0))
				}
				if kind == 0 && i+1 < n {
					ref.set(i+1, i, complex(0.5, 0.25))
					ref.set(i, i+1, complex(0.5, -0.25))
				}
			}
			for _, uplo := range []Uplo{Lower, Upper} {
				name := fmt.Sprintf("n=%d kind=%d uplo=%d", n, kind, uplo)
				checkHetrd[complex128](t, &ws, name, ref, uplo, dense)
			}
		}
	}
}

// TestHemv compares the fused Hermitian product with a dense one for
// every layout.
func TestHemv(t *testing.T) {
	t.Run("complex128", testHemv[complex128])
	t.Run("float64", testHemv[float64])
	t.Run("float32", testHemv[float32])
	t.Run("complex64", testHemv[complex64])
}

func testHemv[T Scalar](t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, 2, 3, 4, 5, 7, 8, 9, 12, 17, 33, 40, 67} {
		ref := randHerm[T](rng, n)
		x := make([]T, n)
		xd := newDense(n, 1)
		for i := range x {
			x[i] = fromC128[T](rnd[T](rng))
			xd.set(i, 0, toC128(x[i]))
		}
		want := mul(ref, xd)
		tol := 10 * eps[T]() * float64(n)
		for l := range nLayouts {
			a := storeTri[T](ref, Lower, l)
			y := make([]T, n)
			hemvLower(n, a.Mat, x, y)
			for i := range y {
				if d := cmplx.Abs(toC128(y[i]) - want.at(i, 0)); d > tol {
					t.Fatalf("n=%d %v: y[%d] = %v, want %v", n, l, i, y[i], want.at(i, 0))
				}
			}
		}
		// A general-stride view (neither stride 1).
		big := make([]T, 4*n*n+1)
		gm := gemm.Mat[T]{Data: big, RS: 2, CS: 2 * n}
		for j := 0; j < n; j++ {
			for i := j; i < n; i++ {
				big[i*2+j*2*n] = fromC128[T](ref.at(i, j))
			}
		}
		y := make([]T, n)
		hemvLower(n, gm, x, y)
		for i := range y {
			if d := cmplx.Abs(toC128(y[i]) - want.at(i, 0)); d > tol {
				t.Fatalf("n=%d strided: y[%d] = %v, want %v", n, i, y[i], want.at(i, 0))
			}
		}
	}
}
