package gonumx

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
)

// benchSizes are the small, medium and large orders of the benchmarks.
var benchSizes = []int{64, 256, 1024}

// BenchmarkDgemm times the square C = A·B against gonum's own Dgemm:
// compare the "gonum" and "gonumx" lines of one run (benchstat).
func BenchmarkDgemm(b *testing.B) {
	impl, err := New()
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("n=%d/gonum", n), func(b *testing.B) { benchmarkGemm(b, native.Dgemm, n) })
		b.Run(fmt.Sprintf("n=%d/gonumx", n), func(b *testing.B) { benchmarkGemm(b, impl.Dgemm, n) })
	}
}

func benchmarkGemm(b *testing.B, f gemmFunc[float64], n int) {
	rng := rand.New(rand.NewPCG(1, 1))
	x, y, c := randMat[float64](rng, n, n, n), randMat[float64](rng, n, n, n), make([]float64, n*n)
	for b.Loop() {
		f(blas.NoTrans, blas.NoTrans, n, n, n, 1, x, n, y, n, 0, c, n)
	}
	b.ReportMetric(2*float64(n)*float64(n)*float64(n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}

// BenchmarkCrossover times small Dtrsm, Dtrmm and Dsyrk calls (the shapes
// gonum's LAPACK makes: a 64-wide triangle or update against n columns) on
// gonum's code and on the blocked routines, to place [DefaultCrossover]:
// the crossover is the smallest size from which "blocked" is faster.
func BenchmarkCrossover(b *testing.B) {
	blocked, err := New(Crossover(0))
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(2, 2))
	for _, t := range []int{8, 16, 32, 64} {
		for _, n := range []int{8, 32, 128} {
			a := randMat[float64](rng, t, t, t)
			for i := range t {
				a[i*t+i] += float64(t)
			}
			x := randMat[float64](rng, t, n, n)
			c := make([]float64, t*t)
			for _, impl := range []struct {
				name string
				tri  triFunc[float64]
				mm   triFunc[float64]
				rk   syrkFunc[float64]
			}{{"gonum", native.Dtrsm, native.Dtrmm, native.Dsyrk}, {"blocked", blocked.Dtrsm, blocked.Dtrmm, blocked.Dsyrk}} {
				b.Run(fmt.Sprintf("trsm/t=%d/n=%d/%s", t, n, impl.name), func(b *testing.B) {
					for b.Loop() {
						impl.tri(blas.Left, blas.Upper, blas.Trans, blas.NonUnit, t, n, 1, a, t, x, n)
					}
				})
				b.Run(fmt.Sprintf("trmm/t=%d/n=%d/%s", t, n, impl.name), func(b *testing.B) {
					for b.Loop() {
						impl.mm(blas.Left, blas.Lower, blas.NoTrans, blas.Unit, t, n, 1, a, t, x, n)
					}
				})
				b.Run(fmt.Sprintf("syrk/t=%d/n=%d/%s", t, n, impl.name), func(b *testing.B) {
					for b.Loop() {
						impl.rk(blas.Upper, blas.NoTrans, t, n, -1, x, n, 1, c, t)
					}
				})
			}
		}
	}
}
