package lapack

import (
	"fmt"
	"math/cmplx"
	"math/rand/v2"
	"testing"
)

// triangular returns an n×n triangular test matrix (uplo, diag) in layout
// l: off-diagonal entries in the unit square scaled by 1/n, diagonal
// entries of modulus in [1, 2] with random sign or phase, so that it is well
// conditioned. The opposite triangle holds guard values (never read), and
// the diagonal holds NaN when it is unit (never read either).
func triangular[T Scalar](rng *rand.Rand, n int, uplo Uplo, diag Diag, l layout) testMat[T] {
	return newMat[T](n, n, l, func(i, j int) complex128 {
		switch {
		case i == j && diag == Unit:
			return cmplx.NaN()
		case i == j:
			d := 1 + rng.Float64()
			if isComplex[T]() {
				return cmplx.Rect(d, rng.Float64()*6.28)
			}
			if rng.IntN(2) == 0 {
				d = -d
			}
			return complex(d, 0)
		case (i > j) == (uplo == Lower):
			return rnd[T](rng) / complex(float64(n), 0)
		}
		return guard
	})
}

// triDense returns the triangle of a as a reference matrix, with ones on
// the diagonal when unit.
func triDense[T Scalar](a testMat[T], uplo Uplo, diag Diag) dense128 {
	d := newDense(a.r, a.c)
	for j := 0; j < a.c; j++ {
		for i := 0; i < a.r; i++ {
			switch {
			case i == j && diag == Unit:
				d.set(i, j, 1)
			case i == j || (i > j) == (uplo == Lower):
				d.set(i, j, a.c128(i, j))
			}
		}
	}
	return d
}

func testTrsm[T Scalar](t *testing.T, ms, ns []int) {
	rng := rand.New(rand.NewPCG(1, 2))
	var ws Workspace
	alpha := fromC128[T](complex(0.75, 0.5))
	for _, side := range []Side{Left, Right} {
		for _, uplo := range []Uplo{Lower, Upper} {
			for _, op := range []Op{NoTrans, Trans, ConjTrans} {
				for _, diag := range []Diag{NonUnit, Unit} {
					for _, m := range ms {
						for _, n := range ns {
							la, lb := layout((m+n+int(op))%int(nLayouts)), layout((m+2*n+int(side))%int(nLayouts))
							k := m
							if side == Right {
								k = n
							}
							a := triangular[T](rng, k, uplo, diag, la)
							b := newMat[T](m, n, lb, func(i, j int) complex128 { return rnd[T](rng) })
							a0, b0 := append([]T(nil), a.Data...), toDense(b)
							Trsm(&ws, nil, side, uplo, op, diag, m, n, alpha, a.Mat, b.Mat)
							name := fmt.Sprintf("side=%d uplo=%d op=%d diag=%d m=%d n=%d A:%v B:%v", side, uplo, op, diag, m, n, la, lb)
							for i := range a0 {
								if a.Data[i] != a0[i] && a0[i] == a0[i] {
									t.Fatalf("%s: A written at %d", name, i)
								}
							}
							checkGuards(t, b)
							x, ad := toDense(b), triDense(a, uplo, diag).op(op)
							var lhs dense128
							if side == Left {
								lhs = mul(ad, x)
							} else {
								lhs = mul(x, ad)
							}
							ab := newDense(m, n)
							for i := range ab.d {
								ab.d[i] = toC128(alpha) * b0.d[i]
							}
							res := sub(lhs, ab).norm() / (ad.norm()*x.norm() + ab.norm() + 1e-300)
							if tol := 4 * float64(k+1) * eps[T](); !(res <= tol) {
								t.Fatalf("%s: backward error %.3g > %.3g", name, res, tol)
							}
						}
					}
				}
			}
		}
	}
}

var trsmSizes = []int{0, 1, 2, 3, 7, 15, 16, 17, 31, 33, 67}

func TestTrsm(t *testing.T) {
	ns := []int{0, 1, 3, 6, 17}
	t.Run("float32", func(t *testing.T) { testTrsm[float32](t, trsmSizes, ns) })
	t.Run("float64", func(t *testing.T) { testTrsm[float64](t, trsmSizes, ns) })
	t.Run("complex64", func(t *testing.T) { testTrsm[complex64](t, trsmSizes, ns) })
	t.Run("complex128", func(t *testing.T) { testTrsm[complex128](t, trsmSizes, ns) })
}

// TestTrsmRecursive runs the recursive driver on small sizes with a tiny
// leaf, and on large ones with the default.
func TestTrsmRecursive(t *testing.T) {
	withLeaves(2, 2, 2, 2, func() {
		t.Run("leaf2/float64", func(t *testing.T) { testTrsm[float64](t, []int{3, 5, 8, 9}, []int{1, 5}) })
		t.Run("leaf2/complex128", func(t *testing.T) { testTrsm[complex128](t, []int{3, 5, 8, 9}, []int{1, 5}) })
	})
	if testing.Short() {
		return
	}
	t.Run("large/float32", func(t *testing.T) { testTrsm[float32](t, []int{131, 257}, []int{33}) })
	t.Run("large/complex128", func(t *testing.T) { testTrsm[complex128](t, []int{131, 257}, []int{33}) })
}

func TestTrsmAlphaZero(t *testing.T) {
	b := newMat[float64](3, 2, padded, func(i, j int) complex128 { return complex(float64(i+j), 0) })
	a := newMat[float64](3, 3, dense, func(i, j int) complex128 { return cmplx.NaN() })
	Trsm(nil, nil, Left, Lower, NoTrans, NonUnit, 3, 2, 0, a.Mat, b.Mat)
	for j := 0; j < 2; j++ {
		for i := 0; i < 3; i++ {
			if b.at(i, j) != 0 {
				t.Fatalf("B[%d,%d] = %v, want 0", i, j, b.at(i, j))
			}
		}
	}
	checkGuards(t, b)
}
