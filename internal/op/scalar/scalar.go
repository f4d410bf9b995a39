// Package scalar defines, for one element, the elementwise operations
// that Go's math and math/cmplx packages do not provide, and replacements
// for those that they provide with too little care at the edges of the
// floating-point range: the real Exp, Expm1, Log, Sinh, Cosh and Atan2
// (real.go) and Tan (reduce.go, with an argument reduction by π/2 exact
// over the whole range), and the complex elementary functions (cmath.go,
// ctrig.go), which follow C99 Annex G for special values and branch cuts
// and scale their intermediate values so that they neither overflow nor
// underflow where the result does not. They are the operation catalog's
// references (op.Info.Ref, RefReal) and the scalar paths of the CPU
// kernels, so an operation's value at one element is defined once; the
// conformance suites check every kernel against them and the NumPy tests
// check them against NumPy.
//
// # Accuracy
//
// The functions are accurate to a few ulps in the normwise sense: for a
// complex result w, each part is within 3 eps·|w| of the exact one (2 eps
// at most on the tests' arguments; powers excepted, whose error is that of
// log a in float64 times |b|).
// Their tests compare them with references evaluated in high precision
// with math/big on awkward arguments (near the overflow and underflow
// thresholds, next to branch points and poles, on the cuts) and check
// every special value of Annex G.
package scalar

import "math"

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
