package gonumx

import (
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/blas"

	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
)

type triFunc[T gemm.Scalar] func(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha T, a []T, lda int, b []T, ldb int)

type syrkFunc[T gemm.Scalar] func(ul blas.Uplo, t blas.Transpose, n, k int, alpha T, a []T, lda int, beta T, c []T, ldc int)

type syr2kFunc[T gemm.Scalar] func(ul blas.Uplo, t blas.Transpose, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int)

// triShapes are the (m, n) of B: tiny, prime, and triangles past the
// blocked routines' leaves on either side.
var triShapes = [][2]int{{1, 1}, {2, 3}, {7, 5}, {67, 13}, {13, 67}, {130, 67}, {67, 257}}

func TestTriangular(t *testing.T) {
	eachImpl(t, func(t *testing.T, impl *Implementation, minWork int) {
		t.Run("float64", func(t *testing.T) {
			testTri(t, "trsm", impl.Dtrsm, native.Dtrsm, minWork)
			testTri(t, "trmm", impl.Dtrmm, native.Dtrmm, minWork)
		})
		t.Run("float32", func(t *testing.T) {
			testTri(t, "trsm", impl.Strsm, native.Strsm, minWork)
			testTri(t, "trmm", impl.Strmm, native.Strmm, minWork)
		})
		t.Run("complex128", func(t *testing.T) {
			testTri(t, "trsm", impl.Ztrsm, native.Ztrsm, minWork)
			testTri(t, "trmm", impl.Ztrmm, native.Ztrmm, minWork)
		})
		t.Run("complex64", func(t *testing.T) {
			testTri(t, "trsm", impl.Ctrsm, native.Ctrsm, minWork)
			testTri(t, "trmm", impl.Ctrmm, native.Ctrmm, minWork)
		})
	})
}

func testTri[T gemm.Scalar](t *testing.T, name string, ours, ref triFunc[T], minWork int) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, sh := range triShapes {
		m, n := sh[0], sh[1]
		for _, s := range []blas.Side{blas.Left, blas.Right} {
			k := n
			if s == blas.Left {
				k = m
			}
			if k*m*n < minWork || tooBig(k*m*n) {
				continue
			}
			big := k*m*n > 100000
			for _, ul := range []blas.Uplo{blas.Lower, blas.Upper} {
				for _, tA := range transposes {
					for _, d := range []blas.Diag{blas.NonUnit, blas.Unit} {
						for ia, alpha := range scalars[T]() {
							if big && ia != 2 {
								continue // the large shapes take the general alpha
							}
							what := fmt.Sprintf("%s %c%c%c%c m=%d n=%d alpha=%v", name, s, ul, tA, d, m, n, alpha)
							lda, ldb := k+rng.IntN(3), n+rng.IntN(3)
							a := randMat[T](rng, k, k, lda)
							for i := range k {
								a[i*lda+i] += fromC[T](complex(float64(k), 0)) // well conditioned
							}
							b := randMat[T](rng, m, n, ldb)
							a0 := slices.Clone(a)
							want, got := slices.Clone(b), slices.Clone(b)
							ref(s, ul, tA, d, m, n, alpha, a, lda, want, ldb)
							ours(s, ul, tA, d, m, n, alpha, a, lda, got, ldb)
							if !slices.Equal(a, a0) {
								t.Fatalf("%s: A was written", what)
							}
							// A unit or diagonally dominant triangle has entries
							// at most k+1 and an inverse of modest norm: errors
							// scale with the largest of B, X and k·|A|·|B|.
							scale := (maxAbs(want) + maxAbs(b)*float64(k+1)) * cmplx.Abs(toC(alpha))
							tol := make([]float64, len(b))
							for i := range tol {
								tol[i] = 8 * float64(k+2) * eps[T]() * scale
							}
							checkClose(t, what, m, n, ldb, got, want, tol)
						}
					}
				}
			}
		}
	}
}

// maxAbs returns the largest |x| (sentinel padding excluded).
func maxAbs[T gemm.Scalar](x []T) float64 {
	r := 0.0
	for _, v := range x {
		if a := cmplx.Abs(toC(v)); a != sentinel {
			r = math.Max(r, a)
		}
	}
	return r
}

// syrkShapes are the (n, k) of SYRK and SYR2K.
var syrkShapes = [][2]int{{1, 1}, {3, 2}, {7, 13}, {67, 5}, {130, 67}, {257, 31}}

func TestSymmetric(t *testing.T) {
	eachImpl(t, func(t *testing.T, impl *Implementation, minWork int) {
		t.Run("float64", func(t *testing.T) { testSyrk(t, false, impl.Dsyrk, native.Dsyrk, impl.Dsyr2k, native.Dsyr2k, minWork) })
		t.Run("float32", func(t *testing.T) { testSyrk(t, false, impl.Ssyrk, native.Ssyrk, impl.Ssyr2k, native.Ssyr2k, minWork) })
		t.Run("complex128", func(t *testing.T) { testSyrk(t, true, impl.Zsyrk, native.Zsyrk, impl.Zsyr2k, native.Zsyr2k, minWork) })
		t.Run("complex64", func(t *testing.T) { testSyrk(t, true, impl.Csyrk, native.Csyrk, impl.Csyr2k, native.Csyr2k, minWork) })
	})
}

func testSyrk[T gemm.Scalar](t *testing.T, cplx bool, ours, ref syrkFunc[T], ours2, ref2 syr2kFunc[T], minWork int) {
	rng := rand.New(rand.NewPCG(5, 6))
	trans := transposes
	if cplx {
		trans = transposes[:2] // complex SYRK has no conjugate transpose
	}
	for _, sh := range syrkShapes {
		n, k := sh[0], sh[1]
		if n*n*k < minWork || tooBig(n*n*k) {
			continue
		}
		big := n*n*k > 100000
		for _, ul := range []blas.Uplo{blas.Lower, blas.Upper} {
			for _, tA := range trans {
				for ia, alpha := range scalars[T]() {
					for ib, beta := range scalars[T]() {
						if big && (ia != 2 || ib == 1) {
							continue // the large shapes take the general alpha, beta 0 and general
						}
						for _, two := range []bool{false, true} {
							what := fmt.Sprintf("syr2k=%v %c%c n=%d k=%d alpha=%v beta=%v", two, ul, tA, n, k, alpha, beta)
							row, col := n, k
							if tA != blas.NoTrans {
								row, col = k, n
							}
							lda, ldb, ldc := col+rng.IntN(3), col+rng.IntN(3), n+rng.IntN(3)
							a := randMat[T](rng, row, col, lda)
							b := randMat[T](rng, row, col, ldb)
							c := randMat[T](rng, n, n, ldc)
							want, got := slices.Clone(c), slices.Clone(c)
							if two {
								ref2(ul, tA, n, k, alpha, a, lda, b, ldb, beta, want, ldc)
								ours2(ul, tA, n, k, alpha, a, lda, b, ldb, beta, got, ldc)
							} else {
								ref(ul, tA, n, k, alpha, a, lda, beta, want, ldc)
								ours(ul, tA, n, k, alpha, a, lda, beta, got, ldc)
							}
							// The opposite triangle is never written: it must
							// still equal the input.
							for i := range n {
								for j := range n {
									p := i*ldc + j
									if (ul == blas.Lower && j > i || ul == blas.Upper && j < i) && got[p] != c[p] {
										t.Fatalf("%s: (%d, %d) outside the %c triangle written", what, i, j, ul)
									}
								}
							}
							scale := 2*float64(k)*cmplx.Abs(toC(alpha)) + cmplx.Abs(toC(beta))
							tol := make([]float64, len(c))
							for i := range tol {
								tol[i] = 8 * float64(k+2) * eps[T]() * scale
							}
							checkClose(t, what, n, n, ldc, got, want, tol)
						}
					}
				}
			}
		}
	}
}

// TestTriangularPanics checks that invalid TRSM, TRMM and SYRK arguments
// panic with gonum's messages.
func TestTriangularPanics(t *testing.T) {
	impl, _ := New(Crossover(0))
	x := make([]float64, 64)
	tri := []struct {
		name string
		s    blas.Side
		ul   blas.Uplo
		d    blas.Diag
		m, n int
		lda  int
		lb   int
	}{
		{"side", 'X', blas.Lower, blas.Unit, 2, 2, 2, 64},
		{"uplo", blas.Left, 'X', blas.Unit, 2, 2, 2, 64},
		{"diag", blas.Left, blas.Lower, 'X', 2, 2, 2, 64},
		{"n", blas.Left, blas.Lower, blas.Unit, 2, -1, 2, 64},
		{"lda", blas.Right, blas.Lower, blas.Unit, 2, 4, 3, 64},
		{"short b", blas.Left, blas.Lower, blas.Unit, 4, 4, 4, 10},
	}
	for _, c := range tri {
		for _, f := range []struct {
			name      string
			ours, ref triFunc[float64]
		}{{"Dtrsm", impl.Dtrsm, native.Dtrsm}, {"Dtrmm", impl.Dtrmm, native.Dtrmm}} {
			call := func(g triFunc[float64]) func() {
				return func() { g(c.s, c.ul, blas.NoTrans, c.d, c.m, c.n, 1, x, c.lda, slices.Clone(x[:c.lb]), 4) }
			}
			want := mustPanic(t, f.name+" "+c.name+" (gonum)", call(f.ref))
			if got := mustPanic(t, f.name+" "+c.name, call(f.ours)); got != want {
				t.Errorf("%s %s: panic %v, want gonum's %v", f.name, c.name, got, want)
			}
		}
	}
	z := make([]complex128, 64)
	want := mustPanic(t, "Zsyrk ConjTrans (gonum)", func() { native.Zsyrk(blas.Lower, blas.ConjTrans, 4, 4, 1, z, 4, 0, z, 4) })
	if got := mustPanic(t, "Zsyrk ConjTrans", func() { impl.Zsyrk(blas.Lower, blas.ConjTrans, 4, 4, 1, z, 4, 0, z, 4) }); got != want {
		t.Errorf("Zsyrk ConjTrans: panic %v, want gonum's %v", got, want)
	}
	want = mustPanic(t, "Dsyr2k ldb (gonum)", func() { native.Dsyr2k(blas.Lower, blas.NoTrans, 4, 4, 1, x, 4, x, 3, 0, x, 4) })
	if got := mustPanic(t, "Dsyr2k ldb", func() { impl.Dsyr2k(blas.Lower, blas.NoTrans, 4, 4, 1, x, 4, x, 3, 0, x, 4) }); got != want {
		t.Errorf("Dsyr2k ldb: panic %v, want gonum's %v", got, want)
	}
}

// TestCrossoverDelegates checks that calls below the crossover are gonum's
// own, bit for bit, and calls above it are not required to be.
func TestCrossoverDelegates(t *testing.T) {
	impl, err := New()
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 8))
	const m, n = 9, 7 // 9·9·7/2 multiply-adds, far below 32³
	a := randMat[float64](rng, m, m, m)
	for i := range m {
		a[i*m+i] += m
	}
	b := randMat[float64](rng, m, n, n)
	want, got := slices.Clone(b), slices.Clone(b)
	native.Dtrsm(blas.Left, blas.Upper, blas.Trans, blas.NonUnit, m, n, 1.5, a, m, want, n)
	impl.Dtrsm(blas.Left, blas.Upper, blas.Trans, blas.NonUnit, m, n, 1.5, a, m, got, n)
	if !slices.Equal(got, want) {
		t.Fatal("a small Dtrsm below the crossover differs from gonum's")
	}
}
