package lapack

import (
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"testing"
)

// hpd returns an n×n Hermitian positive definite reference matrix
// L0·L0ᴴ, where L0 is lower triangular with diagonal decreasing
// geometrically from 1 to sqrt(1/cond) and small off-diagonal entries, so
// that cond(A) is about cond.
func hpd[T Scalar](rng *rand.Rand, n int, cond float64) dense128 {
	l := newDense(n, n)
	for j := 0; j < n; j++ {
		d := 1.0
		if n > 1 {
			d = math.Pow(cond, -0.5*float64(j)/float64(n-1))
		}
		l.set(j, j, complex(d, 0))
		for i := j + 1; i < n; i++ {
			l.set(i, j, rnd[T](rng)*complex(d/float64(4*n), 0))
		}
	}
	a := mul(l, l.op(ConjTrans))
	// Symmetrize exactly and make the diagonal real.
	for j := 0; j < n; j++ {
		a.set(j, j, complex(real(a.at(j, j)), 0))
		for i := j + 1; i < n; i++ {
			a.set(j, i, cmplx.Conj(a.at(i, j)))
		}
	}
	return a
}

// storeTri stores the uplo triangle of ref in a test matrix of layout l,
// with guard values in the other triangle.
func storeTri[T Scalar](ref dense128, uplo Uplo, l layout) testMat[T] {
	return newMat[T](ref.r, ref.c, l, func(i, j int) complex128 {
		if i == j || (i > j) == (uplo == Lower) {
			return ref.at(i, j)
		}
		return guard
	})
}

// checkOtherTri fails t when the triangle opposite uplo changed.
func checkOtherTri[T Scalar](t *testing.T, a testMat[T], uplo Uplo) {
	t.Helper()
	for j := 0; j < a.c; j++ {
		for i := 0; i < a.r; i++ {
			if i != j && (i > j) != (uplo == Lower) && a.at(i, j) != guard {
				t.Fatalf("opposite triangle written at (%d,%d)", i, j)
			}
		}
	}
	checkGuards(t, a)
}

func testPotrf[T Scalar](t *testing.T, sizes []int, cond float64) {
	rng := rand.New(rand.NewPCG(3, uint64(len(sizes))))
	var ws Workspace
	for _, uplo := range []Uplo{Lower, Upper} {
		for _, n := range sizes {
			for l := range nLayouts {
				name := fmt.Sprintf("uplo=%d n=%d %v", uplo, n, l)
				ref := hpd[T](rng, n, cond)
				a := storeTri[T](ref, uplo, l)
				if info := Potrf(&ws, nil, uplo, n, a.Mat); info != 0 {
					t.Fatalf("%s: info %d", name, info)
				}
				checkOtherTri(t, a, uplo)
				f := triDense(a, uplo, NonUnit)
				var llh dense128
				if uplo == Lower {
					llh = mul(f, f.op(ConjTrans))
				} else {
					llh = mul(f.op(ConjTrans), f)
				}
				res := sub(ref, llh).norm() / (ref.norm() + 1e-300)
				if tol := 4 * float64(n+1) * eps[T](); !(res <= tol) {
					t.Fatalf("%s: ‖A − LLᴴ‖/‖A‖ = %.3g > %.3g", name, res, tol)
				}
				for j := 0; j < n; j++ {
					if d := a.c128(j, j); imag(d) != 0 || !(real(d) > 0) {
						t.Fatalf("%s: diagonal %d = %v", name, j, d)
					}
				}
				// Potrs: A·X = B.
				nrhs := 1 + n%5
				b := newMat[T](n, nrhs, layout((n+1)%int(nLayouts)), func(i, j int) complex128 { return rnd[T](rng) })
				b0 := toDense(b)
				Potrs(&ws, nil, uplo, n, nrhs, a.Mat, b.Mat)
				checkGuards(t, b)
				x := toDense(b)
				res = sub(mul(ref, x), b0).norm() / (ref.norm()*x.norm() + b0.norm() + 1e-300)
				if tol := 8 * float64(n+1) * eps[T](); !(res <= tol) {
					t.Fatalf("%s: solve backward error %.3g > %.3g", name, res, tol)
				}
			}
		}
	}
}

var potrfSizes = []int{0, 1, 2, 3, 7, 31, 32, 33, 65, 67, 131}

func TestPotrf(t *testing.T) {
	t.Run("float32", func(t *testing.T) { testPotrf[float32](t, potrfSizes, 10) })
	t.Run("float64", func(t *testing.T) { testPotrf[float64](t, potrfSizes, 10) })
	t.Run("complex64", func(t *testing.T) { testPotrf[complex64](t, potrfSizes, 10) })
	t.Run("complex128", func(t *testing.T) { testPotrf[complex128](t, potrfSizes, 10) })
	withLeaves(2, 2, 2, 3, func() {
		sizes := []int{3, 4, 5, 9, 17}
		t.Run("leaf2/float64", func(t *testing.T) { testPotrf[float64](t, sizes, 10) })
		t.Run("leaf2/complex128", func(t *testing.T) { testPotrf[complex128](t, sizes, 10) })
	})
	if !testing.Short() {
		t.Run("large/float64", func(t *testing.T) { testPotrf[float64](t, []int{257}, 10) })
		t.Run("large/complex64", func(t *testing.T) { testPotrf[complex64](t, []int{257}, 10) })
	}
}

func TestPotrfIllConditioned(t *testing.T) {
	sizes := []int{33, 67, 131}
	t.Run("float32", func(t *testing.T) { testPotrf[float32](t, sizes, 1e5) })
	t.Run("float64", func(t *testing.T) { testPotrf[float64](t, sizes, 1e12) })
	t.Run("complex64", func(t *testing.T) { testPotrf[complex64](t, sizes, 1e5) })
	t.Run("complex128", func(t *testing.T) { testPotrf[complex128](t, sizes, 1e12) })
}

// testPotrfFail spoils A at (i, j) (and (j, i)) with v and checks that
// Potrf reports the leading minor of order want.
func testPotrfFail[T Scalar](t *testing.T, n, i, j int, v complex128, want int) {
	rng := rand.New(rand.NewPCG(5, uint64(n)))
	var ws Workspace
	for _, uplo := range []Uplo{Lower, Upper} {
		ref := hpd[T](rng, n, 10)
		ref.set(i, j, v)
		ref.set(j, i, cmplx.Conj(v))
		a := storeTri[T](ref, uplo, padded)
		if got := Potrf(&ws, nil, uplo, n, a.Mat); got != want {
			t.Fatalf("%s uplo=%d n=%d A(%d,%d)=%v: info %d, want %d", typeName[T](), uplo, n, i, j, v, got, want)
		}
		checkOtherTri(t, a, uplo)
	}
}

func TestPotrfNotPositiveDefinite(t *testing.T) {
	for _, n := range []int{1, 5, 33, 67, 131} {
		for _, k := range []int{0, n / 2, n - 1} {
			testPotrfFail[float64](t, n, k, k, -1, k+1)
			testPotrfFail[float32](t, n, k, k, 0, k+1)
			testPotrfFail[complex128](t, n, k, k, complex(-0.5, 0), k+1)
			testPotrfFail[complex64](t, n, k, k, complex(math.NaN(), 0), k+1)
			testPotrfFail[float64](t, n, k, k, complex(math.NaN(), 0), k+1)
			testPotrfFail[float64](t, n, k, k, complex(math.Inf(1), 0), k+1)
			if k > 0 {
				// A NaN below the diagonal spoils pivot k.
				testPotrfFail[float64](t, n, k, 0, complex(math.NaN(), 0), k+1)
				testPotrfFail[complex128](t, n, k, k-1, cmplx.NaN(), k+1)
				testPotrfFail[float64](t, n, k, k/2, complex(math.Inf(-1), 0), k+1)
			}
		}
	}
}
