//go:build amd64 && !purego

package permute

import "golang.org/x/sys/cpu"

// haveStrip8 reports whether strip8x8 (AVX) may be used.
var haveStrip8 = cpu.X86.HasAVX

// haveStrip8z reports whether strip8x8z (AVX-512F) may be used; strip uses
// it for whole groups of 8 columns and strip8x8 for the rest.
var haveStrip8z = cpu.X86.HasAVX512F

// strip8x8 copies n columns (n a positive multiple of 4) of an 8-row strip of
// 8-byte elements: for i < 8 and j < n, byte-wise
//
//	dst[j*d1 + i] = src[i*s0 + j]
//
// with d1 and s0 in elements (both positive). It transposes 8x4 blocks in
// AVX registers and writes each destination column's 8 elements (one 64-byte
// line) with two 32-byte stores. The caller checks the bounds.
//
//go:noescape
func strip8x8(dst *uint64, d1 int, src *uint64, s0 int, n int)

// rows8x8 copies n columns (n a positive multiple of 4) of eight src rows of
// 8-byte elements at arbitrary offsets to dst columns at arbitrary offsets:
// for i < 8 and j < n, byte-wise
//
//	dst[dB[j] + i] = src[sA[i] + j]
//
// with offsets in elements (sA may be negative). It is strip8x8 with the row
// and column strides replaced by offset tables. The caller checks the bounds.
//
//go:noescape
func rows8x8(dst *uint64, dB *int, src *uint64, sA *int, n int)

// strip8x8z is strip8x8 for n a positive multiple of 8 with AVX-512: it
// transposes 8x8 blocks in zmm registers (pair unpacks, then two rounds of
// 128-bit lane shuffles) and writes each destination line with one 64-byte
// store. The caller checks the bounds.
//
//go:noescape
func strip8x8z(dst *uint64, d1 int, src *uint64, s0 int, n int)
