//go:build amd64 && !purego

package simd

import "golang.org/x/sys/cpu"

// The AVX-512 kernels need AVX-512 F and DQ (the logical operations on
// 512-bit floating-point registers); the AVX2 kernels need AVX2.
var (
	hasAVX512 = cpu.X86.HasAVX512F && cpu.X86.HasAVX512DQ
	hasAVX2   = cpu.X86.HasAVX2
)

// Vectorized reports whether the operations run on vector instructions.
func Vectorized() bool { return hasAVX512 || hasAVX2 }
