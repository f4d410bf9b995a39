package lapack

import (
	"math"
	"math/cmplx"

	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
)

// This file holds the few operations that differ between real and complex
// types. Per-element helpers switch on the type (for use outside inner
// loops); vector helpers switch once and run a typed loop.

// isComplex reports whether T is a complex type.
func isComplex[T Scalar]() bool {
	var z T
	switch any(z).(type) {
	case complex64, complex128:
		return true
	}
	return false
}

// machEps returns the unit roundoff of T's precision (2⁻²⁴ or 2⁻⁵³).
func machEps[T Scalar]() float64 {
	var z T
	switch any(z).(type) {
	case float32, complex64:
		return 0x1p-24
	}
	return 0x1p-53
}

// toC128 widens x to complex128.
func toC128[T Scalar](x T) complex128 {
	switch v := any(x).(type) {
	case float32:
		return complex(float64(v), 0)
	case float64:
		return complex(v, 0)
	case complex64:
		return complex128(v)
	case complex128:
		return v
	}
	panic("unreachable")
}

// fromC128 narrows z to T (dropping the imaginary part for real T).
func fromC128[T Scalar](z complex128) T {
	var r T
	switch p := any(&r).(type) {
	case *float32:
		*p = float32(real(z))
	case *float64:
		*p = real(z)
	case *complex64:
		*p = complex64(z)
	case *complex128:
		*p = z
	}
	return r
}

// fromReal returns x as a T.
func fromReal[T Scalar](x float64) T { return fromC128[T](complex(x, 0)) }

// re returns the real part of x.
func re[T Scalar](x T) float64 { return real(toC128(x)) }

// conj returns the complex conjugate of x (x itself for real T).
func conj[T Scalar](x T) T {
	if !isComplex[T]() {
		return x
	}
	return fromC128[T](cmplx.Conj(toC128(x)))
}

// abs returns |x|.
func abs[T Scalar](x T) float64 { return cmplx.Abs(toC128(x)) }

// conjVec conjugates x[off], x[off+inc], … (n elements) in place.
func conjVec[T Scalar](x []T, off, n, inc int) {
	switch p := any(&x).(type) {
	case *[]complex64:
		conjVecC(*p, off, n, inc)
	case *[]complex128:
		conjVecC(*p, off, n, inc)
	}
}

func conjVecC[C complex64 | complex128](x []C, off, n, inc int) {
	if inc == 1 {
		for i, v := range x[off : off+n] {
			z := complex128(v)
			x[off+i] = C(complex(real(z), -imag(z)))
		}
		return
	}
	for i := 0; i < n; i++ {
		z := complex128(x[off+i*inc])
		x[off+i*inc] = C(complex(real(z), -imag(z)))
	}
}

// conjMat conjugates the m×n matrix a in place (nothing for real T).
func conjMat[T Scalar](m, n int, a gemm.Mat[T]) {
	if !isComplex[T]() {
		return
	}
	if a.RS != 1 && a.CS == 1 {
		a = transpose(a)
		m, n = n, m
	}
	for j := 0; j < n; j++ {
		conjVec(a.Data, a.Off+j*a.CS, m, a.RS)
	}
}

// sumAbsSq returns Σ|x[off+i*inc]|² over n elements.
func sumAbsSq[T Scalar](x []T, off, n, inc int) float64 {
	switch p := any(&x).(type) {
	case *[]float32:
		return sumSqR(*p, off, n, inc)
	case *[]float64:
		return sumSqR(*p, off, n, inc)
	case *[]complex64:
		return sumSqC(*p, off, n, inc)
	case *[]complex128:
		return sumSqC(*p, off, n, inc)
	}
	return 0
}

func sumSqR[F float32 | float64](x []F, off, n, inc int) float64 {
	var s float64
	for i := 0; i < n; i++ {
		v := float64(x[off+i*inc])
		s += v * v
	}
	return s
}

func sumSqC[C complex64 | complex128](x []C, off, n, inc int) float64 {
	var s float64
	for i := 0; i < n; i++ {
		z := complex128(x[off+i*inc])
		s += real(z)*real(z) + imag(z)*imag(z)
	}
	return s
}

// iamax returns the index i in [0, n) of the first element of
// x[off+i*inc] of largest |Re|+|Im| (LAPACK's i?amax measure), and -1 when
// n == 0. A NaN is chosen only as the first element (as LAPACK's
// i?amax, whose comparisons are false for NaN).
func iamax[T Scalar](x []T, off, n, inc int) int {
	switch p := any(&x).(type) {
	case *[]float32:
		return iamaxR(*p, off, n, inc)
	case *[]float64:
		return iamaxR(*p, off, n, inc)
	case *[]complex64:
		return iamaxC(*p, off, n, inc)
	case *[]complex128:
		return iamaxC(*p, off, n, inc)
	}
	return -1
}

func iamaxR[F float32 | float64](x []F, off, n, inc int) int {
	if n <= 0 {
		return -1
	}
	v := math.Abs(float64(x[off]))
	if v != v {
		return 0
	}
	best, bi := math.Float64bits(v), 0
	for i := 1; i < n; i++ {
		if k := magnitudeKey(math.Abs(float64(x[off+i*inc]))); k > best {
			best, bi = k, i
		}
	}
	return bi
}

func iamaxC[C complex64 | complex128](x []C, off, n, inc int) int {
	if n <= 0 {
		return -1
	}
	z := complex128(x[off])
	v := math.Abs(real(z)) + math.Abs(imag(z))
	if v != v {
		return 0
	}
	best, bi := math.Float64bits(v), 0
	for i := 1; i < n; i++ {
		z := complex128(x[off+i*inc])
		if k := magnitudeKey(math.Abs(real(z)) + math.Abs(imag(z))); k > best {
			best, bi = k, i
		}
	}
	return bi
}

// magnitudeKey maps v >= 0 (or NaN) to an integer that orders as v does
// (the bits of a non-negative float64 order as its values), NaN to 0 so
// that a NaN past the first element is never chosen. The comparisons of
// iamax are then integer ones, which compile to conditional moves instead
// of branches that random data mispredicts.
func magnitudeKey(v float64) uint64 {
	k := math.Float64bits(v)
	if k > 0x7ff0000000000000 { // above +Inf: a NaN
		k = 0
	}
	return k
}
