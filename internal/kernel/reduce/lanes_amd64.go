//go:build amd64 && !purego

package reduce

import "golang.org/x/sys/cpu"

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
func sumAccF64AVX512(acc *[32]float64, x *float64, n int)

//go:noescape
func sumAccF32AVX512(acc *[64]float32, x *float32, n int)

//go:noescape
func ssqAccF64AVX512(acc *[32]float64, x *float64, n int, c float64)

//go:noescape
func ssqAccF32AVX512(acc *[32]float64, x *float32, n int, c float64)

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

// archSumAcc64 adds the longest prefix of x that is a whole number of
// 32-element chunks into acc (lane j%32 takes x[j]) and returns its length.
func archSumAcc64(acc *[32]float64, x []float64) int {
	n := len(x) &^ 31
	if n == 0 || impl == implGo {
		return 0
	}
	if impl == implAVX512 {
		sumAccF64AVX512(acc, &x[0], n)
	} else {
		sumAccF64AVX2(acc, &x[0], n)
	}
	return n
}

// archSumAcc32 is archSumAcc64 for float32 (64 lanes).
func archSumAcc32(acc *[64]float32, x []float32) int {
	n := len(x) &^ 63
	if n == 0 || impl == implGo {
		return 0
	}
	if impl == implAVX512 {
		sumAccF32AVX512(acc, &x[0], n)
	} else {
		sumAccF32AVX2(acc, &x[0], n)
	}
	return n
}

// archSsqAcc64 is archSumAcc64 for the squares (x[j]-c)^2 (fused).
func archSsqAcc64(acc *[32]float64, x []float64, c float64) int {
	n := len(x) &^ 31
	if n == 0 || impl == implGo {
		return 0
	}
	if impl == implAVX512 {
		ssqAccF64AVX512(acc, &x[0], n, c)
	} else {
		ssqAccF64AVX2(acc, &x[0], n, c)
	}
	return n
}

// archSsqAcc32 is archSsqAcc64 for float32 elements, squared in float64.
func archSsqAcc32(acc *[32]float64, x []float32, c float64) int {
	n := len(x) &^ 31
	if n == 0 || impl == implGo {
		return 0
	}
	if impl == implAVX512 {
		ssqAccF32AVX512(acc, &x[0], n, c)
	} else {
		ssqAccF32AVX2(acc, &x[0], n, c)
	}
	return n
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
func sumAccF64AVX2(acc *[32]float64, x *float64, n int)

//go:noescape
func sumAccF32AVX2(acc *[64]float32, x *float32, n int)

//go:noescape
func ssqAccF64AVX2(acc *[32]float64, x *float64, n int, c float64)

//go:noescape
func ssqAccF32AVX2(acc *[32]float64, x *float32, n int, c float64)

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
