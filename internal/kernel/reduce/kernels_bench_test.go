package reduce

import (
	"testing"

	"github.com/tenferro-go/tenferro/internal/kernel/strided"
)

// benchN is the side of the 1024x1024 (1M element) float64 inputs.
const benchN = 1024

// benchLayouts are the destinations of the kernel benchmarks over a
// column-major benchN x benchN input: every axis reduced, the fast axis
// reduced (one contiguous row per kept point) and the slow one (vector
// accumulation).
var benchLayouts = []struct {
	name string
	ds   []int
}{{"all", []int{0, 0}}, {"axis0", []int{0, 1}}, {"axis1", []int{1, 0}}}

// benchReduce runs fn over the 1M-element input for every layout.
func benchReduce(b *testing.B, fn func(shape []int, dst, src strided.Ref[float64])) {
	src := vec(benchN * benchN)
	src.Strides = []int{1, benchN}
	shape := []int{benchN, benchN}
	for _, l := range benchLayouts {
		b.Run(l.name, func(b *testing.B) {
			dst := strided.Ref[float64]{Data: make([]float64, benchN), Strides: l.ds}
			b.SetBytes(int64(8 * benchN * benchN))
			for b.Loop() {
				fn(shape, dst, src)
			}
		})
	}
}

func BenchmarkFold(b *testing.B) {
	for _, k := range []FoldKind{ProdFold, MaxFold, MinFold, MaxAbsFold} {
		b.Run(k.String(), func(b *testing.B) {
			benchReduce(b, func(shape []int, dst, src strided.Ref[float64]) { Fold(nil, k, shape, dst, src) })
		})
	}
}

func BenchmarkSumSquares(b *testing.B) {
	benchReduce(b, func(shape []int, dst, src strided.Ref[float64]) { SumSquares(nil, shape, dst, src) })
}

func BenchmarkNorm2(b *testing.B) {
	benchReduce(b, func(shape []int, dst, src strided.Ref[float64]) { Norm2(nil, shape, dst, src) })
}

func BenchmarkSumAbsPow(b *testing.B) {
	for _, p := range []struct {
		name string
		p    float64
	}{{"p1", 1}, {"p3", 3}} {
		b.Run(p.name, func(b *testing.B) {
			benchReduce(b, func(shape []int, dst, src strided.Ref[float64]) { SumAbsPow(nil, p.p, shape, dst, src) })
		})
	}
}

func BenchmarkSumSquaredDeviations(b *testing.B) {
	benchReduce(b, func(shape []int, dst, src strided.Ref[float64]) { SumSquaredDeviations(nil, shape, dst, src, dst) })
}

func BenchmarkLogSumExp(b *testing.B) {
	benchReduce(b, func(shape []int, dst, src strided.Ref[float64]) { LogSumExp(nil, shape, dst, src) })
}

func BenchmarkArg(b *testing.B) {
	src := vec(benchN * benchN)
	src.Strides = []int{1, benchN}
	shape := []int{benchN, benchN}
	for _, c := range []struct {
		name string
		axis int
		ds   []int
	}{{"axis0", 0, []int{0, 1}}, {"axis1", 1, []int{1, 0}}} {
		b.Run(c.name, func(b *testing.B) {
			dst := strided.Ref[int64]{Data: make([]int64, benchN), Strides: c.ds}
			b.SetBytes(int64(8 * benchN * benchN))
			for b.Loop() {
				Arg(nil, false, shape, c.axis, dst, src)
			}
		})
	}
}

func BenchmarkBools(b *testing.B) {
	x := make([]bool, benchN*benchN)
	for i := range x {
		x[i] = i%5 != 0
	}
	src := strided.Ref[bool]{Data: x, Strides: []int{1, benchN}}
	shape := []int{benchN, benchN}
	for _, l := range benchLayouts {
		b.Run(l.name, func(b *testing.B) {
			dst := strided.Ref[bool]{Data: make([]bool, benchN), Strides: l.ds}
			b.SetBytes(int64(benchN * benchN))
			for b.Loop() {
				Bools(nil, false, shape, dst, src) // All: rows stop at the first false
			}
		})
	}
}

func BenchmarkScan(b *testing.B) {
	src := vec(benchN * benchN)
	src.Strides = []int{1, benchN}
	dst := strided.Ref[float64]{Data: make([]float64, benchN*benchN), Strides: []int{1, benchN}}
	shape := []int{benchN, benchN}
	for _, c := range []struct {
		name string
		axis int
	}{{"axis0", 0}, {"axis1", 1}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(16 * benchN * benchN))
			for b.Loop() {
				Scan(nil, false, shape, c.axis, dst, src)
			}
		})
	}
}

// BenchmarkSlowAxis reduces a compact 4096x4096 float32 matrix over its
// slow axis (axis 1, stride 4096): the vector accumulation along the kept
// axis, chunked by chunk elements, which the softmax over the last axis of
// a column-major tensor runs.
func BenchmarkSlowAxis(b *testing.B) {
	const n = 4096
	src := strided.Ref[float32]{Data: make([]float32, n*n), Strides: []int{1, n}}
	for i := range src.Data {
		src.Data[i] = float32(i%7) - 3
	}
	shape := []int{n, n}
	dst := strided.Ref[float32]{Data: make([]float32, n), Strides: []int{1, 0}}
	for _, k := range []FoldKind{SumFold, MaxFold} {
		b.Run(k.String(), func(b *testing.B) {
			b.SetBytes(4 * n * n)
			for b.Loop() {
				Fold(nil, k, shape, dst, src)
			}
		})
	}
}
