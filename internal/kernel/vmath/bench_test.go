package vmath

import (
	"math/rand/v2"
	"testing"
	"unsafe"
)

// benchN is the slice length of the benchmarks (8 MiB of float64 in and
// out: the kernels run from memory, not cache).
const benchN = 1 << 20

// benchRange is the interval the benchmark inputs are drawn from: values
// typical of each function's use, all on the fast paths.
var benchRange = [numOps][2]float64{
	opExp: {-50, 50}, opExpm1: {-2, 2}, opLog: {1e-3, 1e3}, opLog1p: {-0.9, 10},
	opTanh: {-5, 5}, opSigmoid: {-10, 10}, opSin: {-100, 100}, opCos: {-100, 100}, opSqrt: {0, 100},
	opTan: {-100, 100}, opAtan: {-10, 10}, opAsin: {-1, 1}, opAcos: {-1, 1}, opSinh: {-10, 10}, opCosh: {-10, 10},
	opErf: {-4, 4}, opErfc: {-4, 10}, opGelu: {-6, 6},
}

// benchOp times o on benchN elements for every supported variant and both
// element types; b.SetBytes counts the bytes read and written.
func benchOp(b *testing.B, o op) {
	rng := rand.New(rand.NewPCG(1, uint64(o)))
	x64 := make([]float64, benchN)
	x32 := make([]float32, benchN)
	lo, hi := benchRange[o][0], benchRange[o][1]
	for i := range x64 {
		x64[i] = lo + (hi-lo)*rng.Float64()
		x32[i] = float32(x64[i])
	}
	for _, v := range supported() {
		b.Run(v.name+"/float32", func(b *testing.B) { benchSlice(b, v.f32(o), x32) })
		b.Run(v.name+"/float64", func(b *testing.B) { benchSlice(b, v.f64(o), x64) })
	}
}

func benchSlice[T Float](b *testing.B, k func(dst, src []T), src []T) {
	dst := make([]T, len(src))
	b.SetBytes(int64(2 * len(src) * int(unsafe.Sizeof(src[0]))))
	for b.Loop() {
		k(dst, src)
	}
}

func BenchmarkExp(b *testing.B)     { benchOp(b, opExp) }
func BenchmarkExpm1(b *testing.B)   { benchOp(b, opExpm1) }
func BenchmarkLog(b *testing.B)     { benchOp(b, opLog) }
func BenchmarkLog1p(b *testing.B)   { benchOp(b, opLog1p) }
func BenchmarkTanh(b *testing.B)    { benchOp(b, opTanh) }
func BenchmarkSigmoid(b *testing.B) { benchOp(b, opSigmoid) }
func BenchmarkSin(b *testing.B)     { benchOp(b, opSin) }
func BenchmarkCos(b *testing.B)     { benchOp(b, opCos) }
func BenchmarkSqrt(b *testing.B)    { benchOp(b, opSqrt) }
func BenchmarkTan(b *testing.B)     { benchOp(b, opTan) }
func BenchmarkAtan(b *testing.B)    { benchOp(b, opAtan) }
func BenchmarkAsin(b *testing.B)    { benchOp(b, opAsin) }
func BenchmarkAcos(b *testing.B)    { benchOp(b, opAcos) }
func BenchmarkSinh(b *testing.B)    { benchOp(b, opSinh) }
func BenchmarkCosh(b *testing.B)    { benchOp(b, opCosh) }
func BenchmarkErf(b *testing.B)     { benchOp(b, opErf) }
func BenchmarkErfc(b *testing.B)    { benchOp(b, opErfc) }
func BenchmarkGelu(b *testing.B)    { benchOp(b, opGelu) }
