//go:build amd64 && !purego

package reduce

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// bestImpl is the fastest lane implementation of this CPU: AVX-512 needs F
// and DQ (VRANGE), AVX2 needs FMA as well.
var bestImpl = func() int {
	switch {
	case cpu.X86.HasAVX512F && cpu.X86.HasAVX512DQ && cpu.X86.HasFMA:
		return implAVX512
	case cpu.X86.HasAVX2 && cpu.X86.HasFMA:
		return implAVX2
	}
	return implGo
}()

//go:noescape
func sumBlockF64AVX512(x *float64, n int, pad *[32]float64) float64

//go:noescape
func sumBlockF32AVX512(x *float32, n int, pad *[64]float32) float32

//go:noescape
func ssqBlockF64AVX512(x *float64, n int, pad *[32]float64, c float64) float64

//go:noescape
func ssqBlockF32AVX512(x *float32, n int, pad *[32]float32, c float64) float64

//go:noescape
func maxF64AVX512(acc *[8]float64, x *float64, n int)

//go:noescape
func minF64AVX512(acc *[8]float64, x *float64, n int)

//go:noescape
func maxAbsF64AVX512(acc *[8]float64, x *float64, n int)

//go:noescape
func maxF32AVX512(acc *[16]float32, x *float32, n int)

//go:noescape
func minF32AVX512(acc *[16]float32, x *float32, n int)

//go:noescape
func maxAbsF32AVX512(acc *[16]float32, x *float32, n int)

// archSumBlock64 returns the lane sum of the block x (a whole number of
// 32-element chunks) followed by the chunk pad (when not nil), and true, or
// false when the Go twins are in use.
func archSumBlock64(x []float64, pad *[32]float64) (float64, bool) {
	switch impl {
	case implAVX512:
		return sumBlockF64AVX512(unsafe.SliceData(x), len(x), pad), true
	case implAVX2:
		return sumBlockF64AVX2(unsafe.SliceData(x), len(x), pad), true
	}
	return 0, false
}

// archSumBlock32 is archSumBlock64 for float32 (64 lanes).
func archSumBlock32(x []float32, pad *[64]float32) (float32, bool) {
	switch impl {
	case implAVX512:
		return sumBlockF32AVX512(unsafe.SliceData(x), len(x), pad), true
	case implAVX2:
		return sumBlockF32AVX2(unsafe.SliceData(x), len(x), pad), true
	}
	return 0, false
}

// archSsqBlock64 is archSumBlock64 for the squares (x[j]-c)^2 (fused).
func archSsqBlock64(x []float64, pad *[32]float64, c float64) (float64, bool) {
	switch impl {
	case implAVX512:
		return ssqBlockF64AVX512(unsafe.SliceData(x), len(x), pad, c), true
	case implAVX2:
		return ssqBlockF64AVX2(unsafe.SliceData(x), len(x), pad, c), true
	}
	return 0, false
}

// archSsqBlock32 is archSsqBlock64 for float32 elements, squared in float64.
func archSsqBlock32(x []float32, pad *[32]float32, c float64) (float64, bool) {
	switch impl {
	case implAVX512:
		return ssqBlockF32AVX512(unsafe.SliceData(x), len(x), pad, c), true
	case implAVX2:
		return ssqBlockF32AVX2(unsafe.SliceData(x), len(x), pad, c), true
	}
	return 0, false
}

// archExt64 folds the longest prefix of x that is a whole number of
// 32-element chunks into the lanes acc with the extremum k and returns its
// length. The AVX2 lanes hold NaN where a NaN was seen but may hold -0
// where +0 belongs (see extUnit).
func archExt64(k extKind, acc *[8]float64, x []float64) int {
	n := len(x) &^ 31
	if n == 0 || impl == implGo {
		return 0
	}
	p := &x[0]
	switch {
	case impl == implAVX512 && k == extMax:
		maxF64AVX512(acc, p, n)
	case impl == implAVX512 && k == extMin:
		minF64AVX512(acc, p, n)
	case impl == implAVX512:
		maxAbsF64AVX512(acc, p, n)
	case k == extMax:
		maxF64AVX2(acc, p, n)
	case k == extMin:
		minF64AVX2(acc, p, n)
	default:
		maxAbsF64AVX2(acc, p, n)
	}
	return n
}

// archExt32 is archExt64 for float32 (64-element chunks).
func archExt32(k extKind, acc *[16]float32, x []float32) int {
	n := len(x) &^ 63
	if n == 0 || impl == implGo {
		return 0
	}
	p := &x[0]
	switch {
	case impl == implAVX512 && k == extMax:
		maxF32AVX512(acc, p, n)
	case impl == implAVX512 && k == extMin:
		minF32AVX512(acc, p, n)
	case impl == implAVX512:
		maxAbsF32AVX512(acc, p, n)
	case k == extMax:
		maxF32AVX2(acc, p, n)
	case k == extMin:
		minF32AVX2(acc, p, n)
	default:
		maxAbsF32AVX2(acc, p, n)
	}
	return n
}

//go:noescape
func sumBlockF64AVX2(x *float64, n int, pad *[32]float64) float64

//go:noescape
func sumBlockF32AVX2(x *float32, n int, pad *[64]float32) float32

//go:noescape
func ssqBlockF64AVX2(x *float64, n int, pad *[32]float64, c float64) float64

//go:noescape
func ssqBlockF32AVX2(x *float32, n int, pad *[32]float32, c float64) float64

//go:noescape
func maxF64AVX2(acc *[8]float64, x *float64, n int)

//go:noescape
func minF64AVX2(acc *[8]float64, x *float64, n int)

//go:noescape
func maxAbsF64AVX2(acc *[8]float64, x *float64, n int)

//go:noescape
func maxF32AVX2(acc *[16]float32, x *float32, n int)

//go:noescape
func minF32AVX2(acc *[16]float32, x *float32, n int)

//go:noescape
func maxAbsF32AVX2(acc *[16]float32, x *float32, n int)
