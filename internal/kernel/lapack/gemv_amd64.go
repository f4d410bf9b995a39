//go:build amd64 && !purego

package lapack

import "golang.org/x/sys/cpu"

// gemvAVX512 reports whether the AVX-512 loops of gemv_amd64.s run.
var gemvAVX512 = cpu.X86.HasAVX512F

//go:noescape
func gemvN4F64AVX512(blocks int, y, c0, c1, c2, c3 *float64, a *[4]float64)

//go:noescape
func gemvC4F64AVX512(blocks int, x, c0, c1, c2, c3 *float64, acc *[32]float64)

//go:noescape
func gemvN4C128AVX512(blocks int, y, c0, c1, c2, c3 *complex128, coef *[64]float64)

//go:noescape
func gemvC4C128AVX512(blocks int, x, c0, c1, c2, c3 *complex128, acc *[64]float64)

//go:noescape
func hemv4F64AVX512(blocks int, y, x, c0, c1, c2, c3 *float64, xq *[4]float64, acc *[32]float64)

//go:noescape
func hemv4C128AVX512(blocks int, y, x, c0, c1, c2, c3 *complex128, coef, acc *[64]float64)

//go:noescape
func ger4F64AVX512(blocks int, x, c0, c1, c2, c3 *float64, v *[4]float64)

//go:noescape
func ger4C128AVX512(blocks int, x, c0, c1, c2, c3 *complex128, coef *[64]float64)
