//go:build amd64 && !purego

package vmath

import "golang.org/x/sys/cpu"

// The assembly needs AVX-512 F and DQ (512-bit integer and mask
// operations) or AVX2 with FMA.
var (
	hasAVX512 = cpu.X86.HasAVX512F && cpu.X86.HasAVX512DQ && cpu.X86.HasFMA
	hasAVX2   = cpu.X86.HasAVX2 && cpu.X86.HasFMA
)

// kernel adapts an assembly loop to the slice form. The loop k computes
// whole vectors of lanes elements from the start of its n elements and
// returns how many it did: all whole vectors, or fewer when it meets a
// vector with a lane outside its fast path (which it leaves unwritten).
// The scalar twin then computes that vector, or the tail shorter than a
// vector, and the loop resumes after it.
func kernel[T float32 | float64](k func(dst, src *T, n int) int, scalar func(T) T, lanes int) func(dst, src []T) {
	return func(dst, src []T) {
		n := len(src)
		dst = dst[:n]
		for i := 0; i < n; {
			if n-i >= lanes {
				i += k(&dst[i], &src[i], n-i)
			}
			for end := min(i+lanes, n); i < end; i++ {
				dst[i] = scalar(src[i])
			}
		}
	}
}
