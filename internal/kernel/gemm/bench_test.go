package gemm

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/tenferro-go/tenferro/internal/par"
)

var benchSizes = []int{32, 64, 128, 256, 512, 1024}

// benchmarkGemm times C = A*B (m×k times k×n, column-major C) with variant
// active, dtype one of f32, f64, c64, c128, and A or B stored transposed when
// asked; it reports GFLOP/s.
func benchmarkGemm(b *testing.B, r par.Runner, variant, dtype string, m, n, k int, transA, transB bool) {
	prev, err := SetVariant(variant)
	if err != nil {
		b.Skip(err)
	}
	defer SetVariant(prev)
	switch dtype {
	case "f32":
		benchGemm[float32](b, r, m, n, k, transA, transB)
	case "f64":
		benchGemm[float64](b, r, m, n, k, transA, transB)
	case "c64":
		benchGemm[complex64](b, r, m, n, k, transA, transB)
	case "c128":
		benchGemm[complex128](b, r, m, n, k, transA, transB)
	default:
		b.Fatalf("unknown dtype %q", dtype)
	}
}

func benchGemm[T Scalar](b *testing.B, r par.Runner, m, n, k int, transA, transB bool) {
	rng := rand.New(rand.NewPCG(1, 1))
	mk := func(rows, cols int, trans bool) Mat[T] {
		x := Mat[T]{Data: make([]T, rows*cols), RS: 1, CS: rows}
		if trans {
			x.RS, x.CS = cols, 1
		}
		for i := range x.Data {
			x.Data[i] = randScalar[T](rng)
		}
		return x
	}
	a, bb, c := mk(m, k, transA), mk(k, n, transB), mk(m, n, false)
	var ws Workspace
	Gemm(&ws, r, m, n, k, 1, a, bb, 0, c)
	cpu0 := cpuSeconds()
	for b.Loop() {
		Gemm(&ws, r, m, n, k, 1, a, bb, 0, c)
	}
	reportFlops(b, flops[T](m, n, k), cpu0)
}

// reportFlops reports GFLOP/s against wall time and, because this machine
// is shared, against the process CPU time (GFLOP/cpu-s), which is what
// a core delivered while it ran the benchmark. With w workers busy the CPU
// figure is the per-core rate.
func reportFlops(b *testing.B, fl int, cpu0 float64) {
	total := float64(fl) * float64(b.N)
	b.ReportMetric(total/b.Elapsed().Seconds()/1e9, "GFLOP/s")
	if cs := cpuSeconds() - cpu0; cs > 0 {
		b.ReportMetric(total/cs/1e9, "GFLOP/cpu-s")
	}
}

func benchVariants() []string {
	var out []string
	for _, v := range Variants() {
		if v.Supported {
			out = append(out, v.Name)
		}
	}
	return out
}

func BenchmarkGemm(b *testing.B) {
	for _, v := range benchVariants() {
		for _, dt := range []string{"f64", "f32", "c128", "c64"} {
			for _, n := range benchSizes {
				if (v == "generic" || dt[0] == 'c') && n > 256 {
					continue
				}
				b.Run(fmt.Sprintf("%s/%s/%d", v, dt, n), func(b *testing.B) {
					benchmarkGemm(b, nil, v, dt, n, n, n, false, false)
				})
			}
		}
	}
}

func BenchmarkGemmTrans(b *testing.B) {
	v := benchVariants()[0]
	for _, dt := range []string{"f64", "f32"} {
		for _, t := range [][2]bool{{false, true}, {true, false}, {true, true}} {
			b.Run(fmt.Sprintf("%s/%s/512/T%v%v", v, dt, t[0], t[1]), func(b *testing.B) {
				benchmarkGemm(b, nil, v, dt, 512, 512, 512, t[0], t[1])
			})
		}
	}
}

func BenchmarkGemmParallel(b *testing.B) {
	r := newTestRunner(b, 2)
	v := benchVariants()[0]
	for _, dt := range []string{"f64", "f32"} {
		for _, n := range benchSizes {
			b.Run(fmt.Sprintf("%s/%s/%d/w2", v, dt, n), func(b *testing.B) {
				benchmarkGemm(b, r, v, dt, n, n, n, false, false)
			})
		}
	}
}

// BenchmarkMicroKernel32 times the bare macro-kernel loop over a pre-packed
// 32×32×32 float64 product.
func BenchmarkMicroKernel32(b *testing.B) {
	for _, v := range benchVariants() {
		b.Run(v, func(b *testing.B) {
			prev, _ := SetVariant(v)
			defer SetVariant(prev)
			l := NewMicroLoop32()
			cpu0 := cpuSeconds()
			for b.Loop() {
				l.Run()
			}
			reportFlops(b, l.Flops(), cpu0)
		})
	}
}

// BenchmarkKernelPeak calls the float micro-kernels on L1-resident packed
// panels (kc = 256), the ceiling for the blocked driver.
func BenchmarkKernelPeak(b *testing.B) {
	for _, v := range variants {
		if !v.supported {
			continue
		}
		b.Run(v.name+"/f64", func(b *testing.B) { kernelPeak(b, &v.f64) })
		b.Run(v.name+"/f32", func(b *testing.B) { kernelPeak(b, &v.f32) })
	}
}

func kernelPeak[T Scalar](b *testing.B, kb *kernelInfo[T]) {
	const kc = 256
	a := make([]T, kb.mr*kc)
	bb := make([]T, kb.nr*kc)
	c := make([]T, kb.mr*kb.nr)
	for i := range a {
		a[i] = 1
	}
	for i := range bb {
		bb[i] = 1
	}
	cpu0 := cpuSeconds()
	for b.Loop() {
		kb.kern(kc, a, kb.mr, bb, kb.nr, 1, c, kb.mr, 1, 1, true)
	}
	reportFlops(b, 2*kb.mr*kb.nr*kc, cpu0)
}

// BenchmarkParallelThreshold is the calibration of ParallelThreshold: for
// square float64 products around the threshold it times the serial product
// and the product forced onto two workers (threshold 0). The threshold sits
// where two workers stop losing. Run on a quiet machine:
//
//	go test -run XXX -bench ParallelThreshold -count 5 ./internal/kernel/gemm
func BenchmarkParallelThreshold(b *testing.B) {
	r := newTestRunner(b, 2)
	saved := ParallelThreshold
	defer func() { ParallelThreshold = saved }()
	for _, n := range []int{48, 64, 96, 128, 160, 192, 256} {
		for _, mode := range []string{"serial", "w2"} {
			b.Run(fmt.Sprintf("n%d/%s", n, mode), func(b *testing.B) {
				ParallelThreshold = 0
				rr := par.Runner(r)
				if mode == "serial" {
					rr = nil
				}
				benchGemm[float64](b, rr, n, n, n, false, false)
			})
		}
	}
}

// BenchmarkGemmBatchedSmall times many tiny products (per-item overhead).
func BenchmarkGemmBatchedSmall(b *testing.B) {
	for _, sz := range []int{2, 4, 8, 16} {
		b.Run(fmt.Sprintf("f64/%dx%dx%d/batch256", sz, sz, sz), func(b *testing.B) {
			const batch = 256
			s := sz * sz
			a := Mat[float64]{Data: make([]float64, s*batch), RS: 1, CS: sz}
			bb := Mat[float64]{Data: make([]float64, s*batch), RS: 1, CS: sz}
			c := Mat[float64]{Data: make([]float64, s*batch), RS: 1, CS: sz}
			var ws Workspace
			GemmBatched(&ws, nil, sz, sz, sz, batch, 1, a, s, bb, s, 0, c, s)
			for b.Loop() {
				GemmBatched(&ws, nil, sz, sz, sz, batch, 1, a, s, bb, s, 0, c, s)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*batch), "ns/item")
		})
	}
}

// BenchmarkGemmSmallOdd times products whose tiles are partial (m below
// the kernel's mr, or not a multiple of it): the masked kernels store
// those tiles in place.
func BenchmarkGemmSmallOdd(b *testing.B) {
	v := benchVariants()[0]
	for _, dt := range []string{"f64", "f32"} {
		for _, s := range [][3]int{{20, 20, 20}, {12, 64, 64}, {37, 37, 37}, {50, 8, 50}, {100, 100, 100}} {
			b.Run(fmt.Sprintf("%s/%s/%dx%dx%d", v, dt, s[0], s[1], s[2]), func(b *testing.B) {
				benchmarkGemm(b, nil, v, dt, s[0], s[1], s[2], false, false)
			})
		}
	}
}

// BenchmarkGemmSkinny times products with few columns (n <= nr, one column
// panel) and a large column-major A, the shape of a matrix applied to a
// block of a few vectors: A is read once, so reading it in place saves the
// packing copy. The products with few rows (m <= mr) do the same for B.
func BenchmarkGemmSkinny(b *testing.B) {
	v := benchVariants()[0]
	for _, dt := range []string{"f64", "f32"} {
		for _, n := range []int{1, 2, 4, 8} {
			b.Run(fmt.Sprintf("%s/%s/m1024_k1024_n%d", v, dt, n), func(b *testing.B) {
				benchmarkGemm(b, nil, v, dt, 1024, n, 1024, false, false)
			})
			b.Run(fmt.Sprintf("%s/%s/m1024_k1024_n%d_rowmajorA", v, dt, n), func(b *testing.B) {
				benchmarkGemm(b, nil, v, dt, 1024, n, 1024, true, false)
			})
		}
		for _, m := range []int{1, 4, 8, 24} {
			b.Run(fmt.Sprintf("%s/%s/m%d_k1024_n1024", v, dt, m), func(b *testing.B) {
				benchmarkGemm(b, nil, v, dt, m, 1024, 1024, false, false)
			})
		}
	}
}

// BenchmarkGemmNetworkShapes times products that tensor networks make: an
// MPS inner product's (bond 19, physical 115: the site tensor read as a
// row-major A, 2185×19 times 19×19, and an environment's closing product
// with a column-major A of 19 rows, 19×1265 times 1265×19) and a matrix
// chain's (a matrix times a block of 21 vectors, and a few rows times a
// matrix).
func BenchmarkGemmNetworkShapes(b *testing.B) {
	v := benchVariants()[0]
	for _, dt := range []string{"f64", "f32", "c128"} {
		for _, s := range []struct {
			name    string
			m, n, k int
			transA  bool
		}{
			{"m2185_n19_k19_rowmajorA", 2185, 19, 19, true},
			{"m19_n19_k1265", 19, 19, 1265, false},
			{"m512_n64_k256_rowmajorA", 512, 64, 256, true},
			{"m480_n21_k272", 480, 21, 272, false},
			{"m385_n21_k290", 385, 21, 290, false},
			{"m24_n511_k205", 24, 511, 205, false},
			{"m158_n2_k66", 158, 2, 66, false},
			{"m151_n2_k133", 151, 2, 133, false},
			{"m1024_n2_k1024", 1024, 2, 1024, false},
			{"m2_n158_k66", 2, 158, 66, false},
			{"m160_n56_k2", 160, 56, 2, false},
		} {
			b.Run(fmt.Sprintf("%s/%s/%s", v, dt, s.name), func(b *testing.B) {
				benchmarkGemm(b, nil, v, dt, s.m, s.n, s.k, s.transA, false)
			})
		}
	}
}
