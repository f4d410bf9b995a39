package gonumx

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/blas"

	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
)

type gemmFunc[T gemm.Scalar] func(tA, tB blas.Transpose, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int)

// gemmShapes are (m, n, k) triples: empty, tiny, prime and sizes on both
// sides of the kernels' blocking.
var gemmShapes = [][3]int{
	{0, 3, 2}, {3, 0, 2}, {2, 3, 0}, {1, 1, 1}, {2, 3, 5}, {7, 5, 3},
	{13, 17, 11}, {67, 1, 67}, {1, 130, 67}, {67, 67, 67}, {130, 67, 257}, {257, 130, 67},
}

func TestGemm(t *testing.T) {
	eachImpl(t, func(t *testing.T, impl *Implementation, minWork int) {
		t.Run("float64", func(t *testing.T) { testGemm(t, impl.Dgemm, native.Dgemm, minWork) })
		t.Run("float32", func(t *testing.T) { testGemm(t, impl.Sgemm, native.Sgemm, minWork) })
		t.Run("complex128", func(t *testing.T) { testGemm(t, impl.Zgemm, native.Zgemm, minWork) })
		t.Run("complex64", func(t *testing.T) { testGemm(t, impl.Cgemm, native.Cgemm, minWork) })
	})
}

// eachImpl runs f on a serial Implementation, for every shape, and on one
// with a team of two under a parallel threshold of zero, so that every
// product fans out, for the shapes of at least minWork multiply-adds.
// Both send every size to the blocked routines.
func eachImpl(t *testing.T, f func(t *testing.T, impl *Implementation, minWork int)) {
	impls := implsUnderTest(t)
	t.Run("serial", func(t *testing.T) { f(t, impls[0], 0) })
	t.Run("threads=2", func(t *testing.T) {
		defer func(v int) { gemm.ParallelThreshold = v }(gemm.ParallelThreshold)
		gemm.ParallelThreshold = 0
		f(t, impls[1], 1000)
	})
}

// implsUnderTest returns a serial Implementation and one with a team of
// two, closed at the end of the test, both with the blocked routines on
// for every size.
func implsUnderTest(t *testing.T) []*Implementation {
	t.Helper()
	serial, err := New(Crossover(0))
	if err != nil {
		t.Fatal(err)
	}
	two, err := New(Threads(2), Crossover(0))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { two.Close() })
	return []*Implementation{serial, two}
}

func testGemm[T gemm.Scalar](t *testing.T, ours, ref gemmFunc[T], minWork int) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, sh := range gemmShapes {
		m, n, k := sh[0], sh[1], sh[2]
		if m*n*k < minWork || tooBig(m*n*k) {
			continue
		}
		big := m*n*k > 100000
		for _, tA := range transposes {
			for _, tB := range transposes {
				for ia, alpha := range scalars[T]() {
					for ib, beta := range scalars[T]() {
						if big && (ia != 2 || ib == 1) {
							continue // the large shapes take the general alpha, beta 0 and general
						}
						what := fmt.Sprintf("%c%c m=%d n=%d k=%d alpha=%v beta=%v", tA, tB, m, n, k, alpha, beta)
						gemmCase(t, rng, what, ours, ref, tA, tB, m, n, k, alpha, beta)
					}
				}
			}
		}
	}
}

func gemmCase[T gemm.Scalar](t *testing.T, rng *rand.Rand, what string, ours, ref gemmFunc[T], tA, tB blas.Transpose, m, n, k int, alpha, beta T) {
	t.Helper()
	ar, ac := m, k
	if tA != blas.NoTrans {
		ar, ac = k, m
	}
	br, bc := k, n
	if tB != blas.NoTrans {
		br, bc = n, k
	}
	lda, ldb, ldc := max(ac, 1)+rng.IntN(3), max(bc, 1)+rng.IntN(3), max(n, 1)+rng.IntN(3)
	a := randMat[T](rng, ar, ac, lda)
	b := randMat[T](rng, br, bc, ldb)
	c := randMat[T](rng, m, n, ldc)
	if beta == 0 {
		for i := range c {
			if i%ldc < n {
				c[i] = fromC[T](complex(math.NaN(), 0))
			}
		}
	}
	a0, b0 := slices.Clone(a), slices.Clone(b)
	want, got := slices.Clone(c), slices.Clone(c)
	ref(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, want, ldc)
	ours(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, got, ldc)
	if !slices.Equal(a, a0) || !slices.Equal(b, b0) {
		t.Fatalf("%s: A or B was written", what)
	}
	bound := absProduct(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
	checkClose(t, what, m, n, ldc, got, want, tolerance[T](bound, 8*float64(k+2)))
}

// TestGemmPanics checks that invalid arguments panic with gonum's messages.
func TestGemmPanics(t *testing.T) {
	impl, _ := New()
	a := make([]float64, 12)
	cases := []struct {
		name   string
		tA, tB blas.Transpose
		m, n   int
		k, lda int
		ldb    int
		ldc    int
		la     int
	}{
		{"transpose", 'X', blas.NoTrans, 2, 2, 2, 2, 2, 2, 12},
		{"m", blas.NoTrans, blas.NoTrans, -1, 2, 2, 2, 2, 2, 12},
		{"lda", blas.NoTrans, blas.NoTrans, 2, 2, 3, 2, 2, 2, 12},
		{"ldc", blas.NoTrans, blas.NoTrans, 2, 3, 2, 2, 3, 2, 12},
		{"short a", blas.NoTrans, blas.NoTrans, 3, 2, 3, 3, 2, 2, 5},
	}
	for _, c := range cases {
		call := func(f gemmFunc[float64]) func() {
			return func() {
				f(c.tA, c.tB, c.m, c.n, c.k, 1, a[:c.la], c.lda, a, c.ldb, 0, slices.Clone(a), c.ldc)
			}
		}
		want := mustPanic(t, c.name+" (gonum)", call(native.Dgemm))
		got := mustPanic(t, c.name, call(impl.Dgemm))
		if got != want {
			t.Errorf("%s: panic %v, want gonum's %v", c.name, got, want)
		}
	}
}
