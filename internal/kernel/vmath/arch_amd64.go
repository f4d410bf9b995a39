//go:build amd64 && !purego

package vmath

import "golang.org/x/sys/cpu"

// The assembly needs AVX-512 F and DQ (512-bit integer and mask
// operations) or AVX2 with FMA.
var (
	hasAVX512 = cpu.X86.HasAVX512F && cpu.X86.HasAVX512DQ && cpu.X86.HasFMA
	hasAVX2   = cpu.X86.HasAVX2 && cpu.X86.HasFMA
)
