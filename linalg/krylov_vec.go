package linalg

import (
	"math"
	"math/rand/v2"

	tf "github.com/tenferro-go/tenferro"
)

// The vector kernels of the Krylov solvers, on compact []T that the solvers
// own: one type switch per call, then a typed loop accumulating in float64
// or complex128.

// dotc returns xᴴ·y = Σ conj(xᵢ)·yᵢ.
func dotc[T tf.Scalar](x, y []T) complex128 {
	switch xs := any(x).(type) {
	case []float32:
		return complex(dotR(xs, any(y).([]float32)), 0)
	case []float64:
		return complex(dotR(xs, any(y).([]float64)), 0)
	case []complex64:
		return dotC(xs, any(y).([]complex64))
	case []complex128:
		return dotC(xs, any(y).([]complex128))
	}
	return 0
}

// dotR and dotC keep four (two) independent sums, so that the additions
// pipeline instead of waiting on one another.
func dotR[F float32 | float64](x, y []F) float64 {
	var s0, s1, s2, s3 float64
	y = y[:len(x)]
	i := 0
	for ; i+4 <= len(x); i += 4 {
		s0 += float64(x[i]) * float64(y[i])
		s1 += float64(x[i+1]) * float64(y[i+1])
		s2 += float64(x[i+2]) * float64(y[i+2])
		s3 += float64(x[i+3]) * float64(y[i+3])
	}
	for ; i < len(x); i++ {
		s0 += float64(x[i]) * float64(y[i])
	}
	return (s0 + s1) + (s2 + s3)
}

func dotC[C complex64 | complex128](x, y []C) complex128 {
	var r0, i0, r1, i1 float64
	y = y[:len(x)]
	i := 0
	for ; i+2 <= len(x); i += 2 {
		a, b := complex128(x[i]), complex128(y[i])
		c, d := complex128(x[i+1]), complex128(y[i+1])
		r0 += real(a)*real(b) + imag(a)*imag(b)
		i0 += real(a)*imag(b) - imag(a)*real(b)
		r1 += real(c)*real(d) + imag(c)*imag(d)
		i1 += real(c)*imag(d) - imag(c)*real(d)
	}
	if i < len(x) {
		a, b := complex128(x[i]), complex128(y[i])
		r0 += real(a)*real(b) + imag(a)*imag(b)
		i0 += real(a)*imag(b) - imag(a)*real(b)
	}
	return complex(r0+r1, i0+i1)
}

// nrm2 returns ‖x‖₂ (NaN when x holds a NaN, +Inf for an infinity).
func nrm2[T tf.Scalar](x []T) float64 {
	var s float64
	switch xs := any(x).(type) {
	case []float32:
		s = dotR(xs, xs)
	case []float64:
		// Scaled when the plain sum over- or underflows.
		s = dotR(xs, xs)
		if s > 1e300 || s < 1e-300 && s > 0 {
			return scaledNorm(xs)
		}
	case []complex64:
		s = real(dotC(xs, xs))
	case []complex128:
		s = real(dotC(xs, xs))
		if s > 1e300 || s < 1e-300 && s > 0 {
			return scaledNormC(xs)
		}
	}
	return math.Sqrt(s)
}

func scaledNorm(x []float64) float64 {
	m := 0.0
	for _, v := range x {
		m = max(m, math.Abs(v))
	}
	if m == 0 || math.IsInf(m, 0) {
		return m
	}
	var s float64
	for _, v := range x {
		s += (v / m) * (v / m)
	}
	return m * math.Sqrt(s)
}

func scaledNormC(x []complex128) float64 {
	m := 0.0
	for _, v := range x {
		m = max(m, math.Abs(real(v)), math.Abs(imag(v)))
	}
	if m == 0 || math.IsInf(m, 0) {
		return m
	}
	var s float64
	for _, v := range x {
		a, b := real(v)/m, imag(v)/m
		s += a*a + b*b
	}
	return m * math.Sqrt(s)
}

// axpy sets y += a·x.
func axpy[T tf.Scalar](a T, x, y []T) {
	y = y[:len(x)]
	for i, v := range x {
		y[i] += a * v
	}
}

// scal sets x = a·x.
func scal[T tf.Scalar](a T, x []T) {
	for i := range x {
		x[i] *= a
	}
}

// scalar returns z as a T (the real part for real T).
func scalar[T tf.Scalar](z complex128) T {
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

// toC returns x widened to complex128.
func toC[T tf.Scalar](x T) complex128 {
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
	return 0
}

// fillRandom fills x with uniform values in [−1, 1] (both parts for
// complex T).
func fillRandom[T tf.Scalar](rng *rand.Rand, x []T) {
	cplx := tf.DTypeOf[T]().IsComplex()
	for i := range x {
		re := 2*rng.Float64() - 1
		im := 0.0
		if cplx {
			im = 2*rng.Float64() - 1
		}
		x[i] = scalar[T](complex(re, im))
	}
}

// orthogonalize makes w orthogonal to the columns b[0:k] (each of length
// len(w), orthonormal) by modified Gram–Schmidt applied twice, and adds
// the coefficients to c[0:k] (c is zeroed first). It returns ‖w‖ before
// and after.
func orthogonalize[T tf.Scalar](b []T, k int, w []T, c []complex128) (before, after float64) {
	n := len(w)
	before = nrm2(w)
	for i := range c[:k] {
		c[i] = 0
	}
	for pass := 0; pass < 2; pass++ {
		for i := 0; i < k; i++ {
			h := dotc(b[i*n:(i+1)*n], w)
			c[i] += h
			axpy(scalar[T](-h), b[i*n:(i+1)*n], w)
		}
	}
	return before, nrm2(w)
}

// unitRoundoff returns the unit roundoff of T.
func unitRoundoff[T tf.Scalar]() float64 {
	if d := tf.DTypeOf[T](); d == tf.Float32 || d == tf.Complex64 {
		return 0x1p-24
	}
	return 0x1p-53
}
