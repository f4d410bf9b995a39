package lapack

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
)

var benchSizes = []int{256, 512, 1024}

// reportFlops reports GFLOP/s against wall time and against the process
// CPU time (GFLOP/cpu-s): this machine is shared, and the CPU figure is
// what a core delivered while the benchmark ran. fl counts real
// floating-point operations of the real-arithmetic algorithm; complex types
// count four times as many.
func reportFlops[T Scalar](b *testing.B, fl float64, cpu0 float64) {
	if isComplex[T]() {
		fl *= 4
	}
	total := fl * float64(b.N)
	b.ReportMetric(total/b.Elapsed().Seconds()/1e9, "GFLOP/s")
	if cs := cpuSeconds() - cpu0; cs > 0 {
		b.ReportMetric(total/cs/1e9, "GFLOP/cpu-s")
	}
}

// benchInput returns a column-major n×n random matrix, made Hermitian
// positive definite (A·Aᴴ + n·I, lower triangle) when spd.
func benchInput[T Scalar](n int, spd bool) []T {
	rng := rand.New(rand.NewPCG(1, uint64(n)))
	d := randDense[T](rng, n, n)
	if spd {
		d = mul(d, d.op(ConjTrans))
		for i := 0; i < n; i++ {
			d.set(i, i, d.at(i, i)+complex(float64(n), 0))
		}
	}
	out := make([]T, n*n)
	for i, v := range d.d {
		out[i] = fromC128[T](v)
	}
	return out
}

// benchFactor times factor on a fresh copy of an n×n benchmark input
// (Hermitian positive definite when spd) per iteration and reports
// flops/cpu-second.
func benchFactor[T Scalar](b *testing.B, n int, spd bool, flops float64, factor func(a gemm.Mat[T])) {
	src := benchInput[T](n, spd)
	a := gemm.Mat[T]{Data: make([]T, n*n), RS: 1, CS: n}
	copy(a.Data, src)
	factor(a) // warm the workspace
	cpu0 := cpuSeconds()
	for b.Loop() {
		copy(a.Data, src)
		factor(a)
	}
	reportFlops[T](b, flops, cpu0)
}

func benchPotrf[T Scalar](b *testing.B, n int) {
	var ws Workspace
	benchFactor(b, n, true, float64(n)*float64(n)*float64(n)/3, func(a gemm.Mat[T]) {
		if Potrf(&ws, nil, Lower, n, a) != 0 {
			b.Fatal("not positive definite")
		}
	})
}

func benchGetrf[T Scalar](b *testing.B, n int) {
	var ws Workspace
	ipiv := make([]int, n)
	benchFactor(b, n, false, 2*float64(n)*float64(n)*float64(n)/3, func(a gemm.Mat[T]) { Getrf(&ws, nil, n, n, a, ipiv) })
}

// benchSolve times A·X = B with n right-hand sides (LU then Getrs, as
// numpy.linalg.solve does): 2n³/3 + 2n³ operations.
func benchSolve[T Scalar](b *testing.B, n int) {
	src, rhs := benchInput[T](n, false), benchInput[T](n+1, false)[:n*n]
	a := gemm.Mat[T]{Data: make([]T, n*n), RS: 1, CS: n}
	x := gemm.Mat[T]{Data: make([]T, n*n), RS: 1, CS: n}
	ipiv := make([]int, n)
	var ws Workspace
	run := func() {
		copy(a.Data, src)
		copy(x.Data, rhs)
		Getrf(&ws, nil, n, n, a, ipiv)
		Getrs(&ws, nil, NoTrans, n, n, a, ipiv, x)
	}
	run()
	cpu0 := cpuSeconds()
	for b.Loop() {
		run()
	}
	nf := float64(n)
	reportFlops[T](b, 2*nf*nf*nf/3+2*nf*nf*nf, cpu0)
}

// bySize runs f64 and c128 as sub-benchmarks at every size of benchSizes.
func bySize(b *testing.B, f64, c128 func(*testing.B, int)) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("f64/%d", n), func(b *testing.B) { f64(b, n) })
		b.Run(fmt.Sprintf("c128/%d", n), func(b *testing.B) { c128(b, n) })
	}
}

func BenchmarkPotrf(b *testing.B) { bySize(b, benchPotrf[float64], benchPotrf[complex128]) }

func BenchmarkGetrf(b *testing.B) { bySize(b, benchGetrf[float64], benchGetrf[complex128]) }

func BenchmarkSolve(b *testing.B) { bySize(b, benchSolve[float64], benchSolve[complex128]) }

// BenchmarkLeaf times Getrf and Potrf at n = 512 (float64 and complex128)
// over a grid of leaf sizes: the calibration behind the defaults of
// TrsmLeaf, GetrfLeaf and PotrfLeaf. Compare GFLOP/cpu-s, not wall time,
// on a shared machine.
func BenchmarkLeaf(b *testing.B) {
	for _, tl := range []int{4, 8, 16, 32} {
		for _, gl := range []int{4, 8, 16, 32} {
			b.Run(fmt.Sprintf("getrf/f64/trsm=%d/getrf=%d", tl, gl), func(b *testing.B) {
				withLeaves(tl, PotrfLeaf, gl, herkLeaf, func() { benchGetrf[float64](b, 512) })
			})
		}
		for _, pl := range []int{16, 32, 64} {
			for _, hl := range []int{32, 64, 128} {
				b.Run(fmt.Sprintf("potrf/f64/trsm=%d/potrf=%d/herk=%d", tl, pl, hl), func(b *testing.B) {
					withLeaves(tl, pl, GetrfLeaf, hl, func() { benchPotrf[float64](b, 512) })
				})
			}
		}
	}
}

// BenchmarkSmallLU times the LU factorization and a solve with one right
// side of small matrices (n = 4, 8, 16) through the loops for unit row
// stride (getf2Small, getrsSmall) and, for comparison in the same run,
// through the general loops (the same matrix stored row-major), and
// Gjinv's inversion against Getrf and Getri.
func BenchmarkSmallLU(b *testing.B) {
	for _, n := range []int{4, 8, 16} {
		b.Run(fmt.Sprintf("f64/%d", n), func(b *testing.B) { benchSmallLU[float64](b, n) })
		b.Run(fmt.Sprintf("c128/%d", n), func(b *testing.B) { benchSmallLU[complex128](b, n) })
	}
}

func benchSmallLU[T Scalar](b *testing.B, n int) {
	src := benchInput[T](n, false)
	rhs := benchInput[T](n+1, false)[:n]
	ipiv := make([]int, n)
	var ws Workspace
	for _, rowMajor := range []bool{false, true} {
		name := "small"
		a := gemm.Mat[T]{Data: make([]T, n*n), RS: 1, CS: n}
		x := gemm.Mat[T]{Data: make([]T, n), RS: 1, CS: n}
		if rowMajor {
			// Getf2's general loops, and Getrs through Trsm.
			name = "general"
			a.RS, a.CS = n, 1
		}
		b.Run("solve/"+name, func(b *testing.B) {
			for b.Loop() {
				copy(a.Data, src)
				copy(x.Data, rhs)
				Getrf(&ws, nil, n, n, a, ipiv)
				Getrs(&ws, nil, NoTrans, n, 1, a, ipiv, x)
			}
		})
	}
	a := gemm.Mat[T]{Data: make([]T, n*n), RS: 1, CS: n}
	inv := gemm.Mat[T]{Data: make([]T, n*n), RS: 1, CS: n}
	b.Run("inv/gjinv", func(b *testing.B) {
		for b.Loop() {
			copy(a.Data, src)
			Gjinv(n, a, ipiv)
		}
	})
	b.Run("inv/getrf+getri", func(b *testing.B) {
		for b.Loop() {
			copy(a.Data, src)
			Getrf(&ws, nil, n, n, a, ipiv)
			Getri(&ws, nil, n, a, ipiv, inv)
		}
	})
}
