//go:build !amd64 || purego

package lapack

// gemvAVX512 is false: the loops of gemv.go run in Go.
const gemvAVX512 = false

func gemvN4F64AVX512(blocks int, y, c0, c1, c2, c3 *float64, a *[4]float64) {
	panic("lapack: no AVX-512 loops")
}

func gemvC4F64AVX512(blocks int, x, c0, c1, c2, c3 *float64, acc *[32]float64) {
	panic("lapack: no AVX-512 loops")
}

func gemvN4C128AVX512(blocks int, y, c0, c1, c2, c3 *complex128, coef *[64]float64) {
	panic("lapack: no AVX-512 loops")
}

func gemvC4C128AVX512(blocks int, x, c0, c1, c2, c3 *complex128, acc *[64]float64) {
	panic("lapack: no AVX-512 loops")
}

func hemv4F64AVX512(blocks int, y, x, c0, c1, c2, c3 *float64, xq *[4]float64, acc *[32]float64) {
	panic("lapack: no AVX-512 loops")
}

func hemv4C128AVX512(blocks int, y, x, c0, c1, c2, c3 *complex128, coef, acc *[64]float64) {
	panic("lapack: no AVX-512 loops")
}

func ger4F64AVX512(blocks int, x, c0, c1, c2, c3 *float64, v *[4]float64) {
	panic("lapack: no AVX-512 loops")
}

func ger4C128AVX512(blocks int, x, c0, c1, c2, c3 *complex128, coef *[64]float64) {
	panic("lapack: no AVX-512 loops")
}
