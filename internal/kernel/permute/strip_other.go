//go:build !amd64 || purego

package permute

// haveStrip8 is false without the assembly kernel: strip uses Go only.
var haveStrip8 = false

// haveStrip8z is false without the assembly kernel.
var haveStrip8z = false

func strip8x8(dst *uint64, d1 int, src *uint64, s0 int, n int) {
	panic("permute: strip8x8 without assembly")
}

func rows8x8(dst *uint64, dB *int, src *uint64, sA *int, n int) {
	panic("permute: rows8x8 without assembly")
}

func strip8x8z(dst *uint64, d1 int, src *uint64, s0 int, n int) {
	panic("permute: strip8x8z without assembly")
}
