// Package scalar defines, for one element, the elementwise operations
// that Go's math and math/cmplx packages do not provide. They are the
// operation catalog's references (op.Info.Ref, RefReal) and the scalar
// paths of the CPU kernels, so an operation's value at one element is
// defined once; the conformance suites check every kernel against them
// and the NumPy tests check them against NumPy.
package scalar

import (
	"math"
	"math/cmplx"
)

// Sigmoid returns 1/(1+e^-x), evaluated without overflow for any x.
func Sigmoid(x float64) float64 {
	if x >= 0 {
		return 1 / (1 + math.Exp(-x))
	}
	e := math.Exp(x)
	return e / (1 + e)
}

// Gelu returns x·Φ(x) = x/2·(1+erf(x/√2)), the exact Gaussian error linear
// unit, evaluated as x/2·erfc(-x/√2) so that it keeps its relative
// accuracy for negative x (where 1+erf cancels).
func Gelu(x float64) float64 { return 0.5 * x * math.Erfc(-x*(1/math.Sqrt2)) }

// Relu returns max(x, 0); NaN stays NaN and -0 gives +0.
func Relu(x float64) float64 {
	if x > 0 || x != x {
		return x
	}
	return 0
}

// Sign returns -1, 0 or 1 by the sign of x, and x itself for ±0 and NaN.
func Sign(x float64) float64 {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return x
}

// CSign returns z/|z|, the point of the unit circle in z's direction, and
// 0 for z = 0.
func CSign(z complex128) complex128 {
	if z == 0 {
		return 0
	}
	a := cmplx.Abs(z)
	if math.IsInf(a, 0) {
		// Scale down first so that an infinite component gives its
		// direction, not Inf/Inf.
		z = complex(finiteDir(real(z)), finiteDir(imag(z)))
		a = cmplx.Abs(z)
	}
	return complex(real(z)/a, imag(z)/a)
}

// finiteDir maps ±Inf to ±1 and finite values to 0 (NaN stays NaN).
func finiteDir(x float64) float64 {
	switch {
	case math.IsInf(x, 1):
		return 1
	case math.IsInf(x, -1):
		return -1
	case x != x:
		return x
	}
	return 0
}

// CExpm1 returns e^z - 1 accurately for small |z|:
// (expm1(x)·cos y - 2 sin²(y/2)) + i·e^x sin y.
func CExpm1(z complex128) complex128 {
	x, y := real(z), imag(z)
	if y == 0 {
		return complex(math.Expm1(x), y)
	}
	s := math.Sin(y / 2)
	return complex(math.Expm1(x)*math.Cos(y)-2*s*s, math.Exp(x)*math.Sin(y))
}

// CLog1p returns log(1+z) accurately for small |z|:
// log1p(2x + x² + y²)/2 + i·atan2(y, 1+x).
func CLog1p(z complex128) complex128 {
	x, y := real(z), imag(z)
	if y == 0 && x >= -1 {
		return complex(math.Log1p(x), y)
	}
	if math.Abs(x) > 0.5 || math.Abs(y) > 0.5 {
		return cmplx.Log(1 + z)
	}
	return complex(0.5*math.Log1p(x*(2+x)+y*y), math.Atan2(y, 1+x))
}

// Maximum returns the larger of x and y, NaN when either is NaN (NumPy's
// maximum).
func Maximum(x, y float64) float64 {
	if x > y || x != x {
		return x
	}
	return y
}

// Minimum returns the smaller of x and y, NaN when either is NaN.
func Minimum(x, y float64) float64 {
	if x < y || x != x {
		return x
	}
	return y
}

// Clip returns min(max(x, lo), hi): NumPy's clip, so NaN stays NaN and lo
// > hi gives hi.
func Clip(x, lo, hi float64) float64 { return Minimum(Maximum(x, lo), hi) }

// Angle returns the argument of a real number, atan2(0, x): 0 for x >= 0
// (+0 included), π for x < 0 and -0, NaN for NaN.
func Angle(x float64) float64 { return math.Atan2(0, x) }
