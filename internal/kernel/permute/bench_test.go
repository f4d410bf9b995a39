package permute

import (
	"fmt"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/tenferro-go/tenferro/internal/hugepage"
	"github.com/tenferro-go/tenferro/internal/kernel/strided"
	st "github.com/tenferro-go/tenferro/internal/kernel/strided/stridedtest"
	"github.com/tenferro-go/tenferro/internal/par"
)

// ratioCases are the permutation patterns of docs/permute.md.
var ratioCases = []struct {
	shape, perm []int
}{
	{[]int{2048, 2048}, []int{1, 0}},
	{[]int{256, 256, 256}, []int{2, 0, 1}},
	{[]int{256, 256, 256}, []int{1, 2, 0}},
	{[]int{256, 256, 256}, []int{2, 1, 0}},
	{[]int{256, 256, 256}, []int{0, 2, 1}},
}

func caseName(shape, perm []int) string {
	return fmt.Sprintf("%v/perm=%v", shape, perm)
}

// BenchmarkCopyRatio times, in the same loop, a plain copy() of the bytes and
// the permuting Copy, and reports both bandwidths and their ratio
// (permute/copy, higher is better; 1 means copy speed).
func BenchmarkCopyRatio(b *testing.B) {
	for _, c := range ratioCases {
		b.Run(caseName(c.shape, c.perm), func(b *testing.B) { benchRatio(b, nil, c.shape, c.perm) })
	}
}

// BenchmarkCopyRatioParallel is BenchmarkCopyRatio on a 2-wide runner.
func BenchmarkCopyRatioParallel(b *testing.B) {
	r := st.NewRunner(2)
	defer r.Close()
	for _, c := range ratioCases {
		b.Run(caseName(c.shape, c.perm), func(b *testing.B) { benchRatio(b, r, c.shape, c.perm) })
	}
}

func benchRatio(b *testing.B, r par.Runner, shape, perm []int) {
	dshape, sstr, err := Permuted(shape, perm)
	if err != nil {
		b.Fatal(err)
	}
	n := strided.Size(shape)
	// Buffers as the library allocates a tensor's storage (huge pages).
	src := hugepage.Make[float64](n)
	for i := range src {
		src[i] = float64(i)
	}
	dst := hugepage.Make[float64](n)
	d := strided.Ref[float64]{Data: dst, Strides: ColMajor(dshape)}
	s := strided.Ref[float64]{Data: src, Strides: sstr}
	b.SetBytes(int64(16 * n))
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var tc, tp, cc, cp []time.Duration
	for b.Loop() {
		c0, t0 := threadCPU(), time.Now()
		plainCopy(r, dst, src)
		c1, t1 := threadCPU(), time.Now()
		Copy(r, dshape, d, s)
		c2, t2 := threadCPU(), time.Now()
		tc, tp = append(tc, t1.Sub(t0)), append(tp, t2.Sub(t1))
		cc, cp = append(cc, c1-c0), append(cp, c2-c1)
	}
	mc, mp := median(tc), median(tp)
	gb := func(t time.Duration) float64 { return float64(16*n) / t.Seconds() / 1e9 }
	b.ReportMetric(gb(mc), "copyGB/s")
	b.ReportMetric(gb(mp), "permGB/s")
	b.ReportMetric(mc.Seconds()/mp.Seconds(), "ratio")
	if haveThreadCPU && r == nil {
		// The same ratio in CPU time of the calling thread (serial only).
		b.ReportMetric(median(cc).Seconds()/median(cp).Seconds(), "cpu-ratio")
	}
}

// plainCopy is the reference: a compact Copy, which is copy() on rows (split
// across r like any Copy).
func plainCopy(r par.Runner, dst, src []float64) {
	sh := []int{len(src)}
	Copy(r, sh, strided.Ref[float64]{Data: dst, Strides: []int{1}}, strided.Ref[float64]{Data: src, Strides: []int{1}})
}

func median(x []time.Duration) time.Duration {
	y := slices.Clone(x)
	slices.Sort(y)
	return y[len(y)/2]
}

// BenchmarkCopyTypes measures a 2-D transpose of about 16 MiB per dtype.
func BenchmarkCopyTypes(b *testing.B) {
	b.Run("float32", func(b *testing.B) { benchTranspose[float32](b, 2048) })
	b.Run("float64", func(b *testing.B) { benchTranspose[float64](b, 1448) })
	b.Run("complex64", func(b *testing.B) { benchTranspose[complex64](b, 1448) })
	b.Run("complex128", func(b *testing.B) { benchTranspose[complex128](b, 1024) })
}

func benchTranspose[T strided.Scalar](b *testing.B, n int) {
	src := make([]T, n*n)
	dst := make([]T, n*n)
	sh := []int{n, n}
	d := strided.Ref[T]{Data: dst, Strides: []int{1, n}}
	s := strided.Ref[T]{Data: src, Strides: []int{n, 1}}
	b.SetBytes(int64(2 * n * n * strided.ElemSize[T]()))
	for b.Loop() {
		Copy(nil, sh, d, s)
	}
}

// BenchmarkThreshold calibrates ParallelBytes: a 2-D float64 transpose of
// growing size, serial and split across a 2-wide runner with the threshold
// disabled. The crossover (where "team" becomes faster than "serial") is the
// byte count to use; docs/permute.md records a run.
func BenchmarkThreshold(b *testing.B) {
	r := st.NewRunner(2)
	defer r.Close()
	old := ParallelBytes
	defer func() { ParallelBytes = old }()
	for _, n := range []int{64, 128, 256, 512, 1024} {
		src := make([]float64, n*n)
		dst := make([]float64, n*n)
		sh := []int{n, n}
		d := strided.Ref[float64]{Data: dst, Strides: []int{1, n}}
		s := strided.Ref[float64]{Data: src, Strides: []int{n, 1}}
		for _, mode := range []string{"serial", "team"} {
			b.Run(fmt.Sprintf("bytes=%d/%s", 16*n*n, mode), func(b *testing.B) {
				var run par.Runner
				if mode == "team" {
					run, ParallelBytes = r, 1
				}
				b.SetBytes(int64(16 * n * n))
				for b.Loop() {
					Copy(run, sh, d, s)
				}
				ParallelBytes = old
			})
		}
	}
}

// tinyCases are permutations of many short axes (the combined-block path).
var tinyCases = []struct {
	name        string
	shape, perm []int
}{
	{"reverse_12d_2", repeat(2, 12), reversed(12)},
	{"reverse_22d_2", repeat(2, 22), reversed(22)},
	{"reverse_15d_3", repeat(3, 15), reversed(15)},
	{"rotate_6d_16x16x16x16x8x8", []int{16, 16, 16, 16, 8, 8}, []int{5, 0, 4, 1, 3, 2}},
	{"cyclic_13d_3", repeat(3, 13), []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0}},
}

func repeat(e, n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = e
	}
	return s
}

func reversed(n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = n - 1 - i
	}
	return p
}

// BenchmarkCopyRatioTiny is BenchmarkCopyRatio on permutations of many short
// axes.
func BenchmarkCopyRatioTiny(b *testing.B) {
	for _, c := range tinyCases {
		if testing.Short() && strided.Size(c.shape) > 1<<20 {
			continue
		}
		b.Run(c.name, func(b *testing.B) { benchRatio(b, nil, c.shape, c.perm) })
	}
}
