// Package vmath evaluates elementary functions over contiguous slices:
// dst[i] = f(src[i]) for f one of Exp, Expm1, Log, Log1p, Tanh, Sigmoid,
// Sin, Cos, Tan, Atan, Asin, Acos, Sinh, Cosh, Sqrt, Erf, Erfc and Gelu,
// in float32 and float64, and of two arguments dst[i] = f(x[i], y[i]) for
// Atan2 and Pow.
//
// # Contract
//
// dst and src have equal lengths (the functions panic otherwise: callers
// validate) and either are the same slice (an in-place update) or do not
// overlap. The functions allocate nothing, write only dst[0:len(src)], and
// are safe for concurrent use on disjoint data.
//
// # Accuracy
//
// The bounds below are in ulps of the exact result. They hold for every
// float32 input (checked exhaustively against package math evaluated in
// float64, flag -vmath.exhaustive) and were measured on a million float64
// inputs per function against 90-bit references (math/big, flag
// -vmath.long): uniform and log-spaced samples over each range plus runs
// of consecutive floats around every reduction boundary and threshold.
// The tests check them on about four million float32 and twenty thousand
// float64 inputs per function and variant.
//
//	function  float64  float32  special values
//	Exp       1        1        +Inf above 709.78 (float32: 88.72), 0 below -745.13 (-103.97)
//	Expm1     1.5      1.5      +Inf where Exp overflows, -1 below -39 (-19)
//	Log       1        1        -Inf at ±0, NaN below 0; subnormals are renormalized
//	Log1p     1        1        -Inf at -1, NaN below -1
//	Tanh      2        0.77     ±1 beyond ±20 (float32: ±10)
//	Sigmoid   2        0.86     1 at +Inf, 0 at -Inf
//	Sin, Cos  2        0.76     package math's result beyond |x| = 2^28 (float32: 2^17)
//	Tan       2.5      0.91     package scalar's Tan beyond |x| = 2^28 (float32: 2^17)
//	Atan      1        0.67     ±π/2 at ±Inf
//	Asin      1        0.63     NaN outside [-1, 1], ±π/2 at ±1
//	Acos      1        0.63     NaN outside [-1, 1], π at -1, +0 at 1
//	Sinh      2        0.84     ±Inf beyond ±710.48 (float32: 89.42)
//	Cosh      1.5      0.81     +Inf beyond ±710.48 (float32: 89.42)
//	Sqrt      0.5      0.5      correctly rounded (VSQRT, math.Sqrt)
//	Erf       1        1.1      ±1 at ±Inf
//	Erfc      2.5      3.1      0 beyond 27.23 (float32: 10.05), 2 at -Inf
//	Gelu      3.5      3.6      -0 below -38.58 (float32: -14.36), NaN at -Inf
//	Atan2     2        1.5      package scalar's Atan2 for two zeros, two infinities or a NaN
//	Pow       2        1 (*)    package scalar's Pow off the positive finite base
//
// (*) Against the float64 reference rounded to float32: float32 Pow
// computes in float64 lanes (eight per AVX-512 vector) and rounds the
// float64 value once. The binary functions' slices x and y may be longer
// than dst, and dst may be x or y itself.
//
// The float32 functions compute in float32 lanes (sixteen per AVX-512
// vector) with polynomials fitted for float32. Where the last operation
// would otherwise add two rounding errors of the result's size, the
// algorithms carry the larger term exactly and its error as a low part
// (two-sums, FMA residuals), so the result rounds about once.
//
// Special inputs give package math's results: NaN gives NaN (payload
// unspecified), infinities give the limits, and the signs of zero follow
// IEEE 754 (Expm1, Log1p, Tanh, Sin, Tan, Atan, Asin, Sinh and Sqrt of -0
// are -0; Log(1) is +0). Sinh and Cosh stay finite up to the overflow of
// e^|x|/2 (Cosh(710) is finite, as with math.Cosh).
// Results below the normal range are subnormals rounded once, not flushed
// to zero.
//
// # Algorithms
//
// Exp reduces x = k·ln2 + r with |r| <= ln2/2 (ln2 split in two parts so
// that x - k·ln2_hi is exact), evaluates a degree-12 (float32: 7)
// polynomial for e^r and scales by 2^k as two factors 2^(k/2), which keeps
// the subnormal results and the overflow boundary exact with one rounding.
// Expm1 keeps k = 0 below |x| = ln2 (a polynomial for e^r - 1, of degree
// 14 (9), whose relative error does not grow near 0) and otherwise
// computes 2·(2^(k-1)·q + 2^(k-1) - 1/2).
//
// Log splits x = 2^k·m with m in [√½, √2) (subnormals scaled by 2^52 or
// 2^23 first) and sums k·ln2 and 2·atanh(f/(2+f)) for f = m-1, by a
// polynomial in s² for s = f/(2+f). Log1p does the same for 1+x, adding
// the rounding error of 1+x (scaled by 2^-k) to f as a separate low part.
//
// Tanh is E/(E+2) with E = expm1(2|x|) and the sign of x; Sigmoid is
// 1/(1+E) or E/(1+E) with E = e^-|x|. In float64 both quotients are
// corrected for the rounding of the denominator (two-sum) and of the
// division (the FMA residual). In float32, Tanh is a + a·z·T(z) (z = a²,
// a = |x|) below 0.5625 and 1 - 2/(E+1), E = e^2a, beyond; there and in
// Sigmoid, E = 2^k·(1 + u + uLo) is kept unrounded (uLo the effect of the
// reduction's rounding), the denominator 2^k + 1 + 2^k·u is formed with
// its exact error, and the quotient is corrected to first order for it
// and for its own rounding. float32 Sigmoid is e^x below -87, where 1 + e^x
// rounds to 1.
//
// Sin and Cos reduce x = k·π/2 + r with π/2 = p1 + p2 + p3 (x - k·p1
// exact) and select ±sin r or ±cos r by k mod 4; beyond |x| = 2^28
// (float32: 2^17), and for Inf and NaN, they return package math's result.
// Tan is sin r/cos r for even k and -cos r/sin r for odd k, the quotient
// num·(1/den) corrected by its FMA residual; beyond the same bound it is
// the catalog's scalar.Tan (Payne-Hanek). In float32 the reduction keeps
// its rounding error rLo, sin r = r + (r·z·S(z) + rLo·(1 - z/2)) and cos r
// = (1 - z/2) + (z²·C(z) - r·rLo + the errors of z = r² and of 1 - z/2),
// and Tan's quotient is corrected for the roundings of sin r and cos r.
//
// Atan reduces a = |x| to |u| <= tan(π/8): u = a, (a-1)/(a+1) + π/4 or
// -1/a + π/2, and evaluates u + u·u²·A(u²) (degree 10, float32: 4); u's
// division and the rounding of a±1 are carried as a low part, π/4 and π/2
// in two parts, and the final sum is a Fast2Sum. Asin is x + x·z·P(z),
// z = x², for |x| <= 1/2 and π/2 - 2·asin s, s = √((1-|x|)/2) (z = s²
// exact), beyond, with the same P (degree 12, float32: 5); Acos takes π/2 - asin x,
// 2·asin s or π - 2·asin s. The square root's error (z - s²)/(2s) is kept
// as a low part.
//
// Cosh is E + 1/(4E) for E = e^|x|/2, computed by Exp's algorithm with
// the halving folded into its scaling by 2^k (one rounding, finite up to
// the overflow of cosh). Sinh is E - 1/(4E) from |x| = 1 and a polynomial
// a + a·z·S(z), z = a², below, where the difference would cancel. In
// float32 they are 2·(E ± 1/(16E)) for E = e^|x|/4 = 2^(k-2)·(1 + u + uLo),
// E's rounding, the quotient's residual and the sum's error carried to the
// last addition, and the doubling exact (or overflowing as cosh does).
//
// Erfc of a = |x| is t·e^(-a² + H(t)) for t = 2/(2+a), with H one
// polynomial over every a up to where erfc underflows (degree 26, float32:
// 11); the rounding of 2+a and of the division are carried into the
// exponent, a² as its rounded square and FMA residual, and H - a² is
// reduced by k·ln2 with a short ln2 whose multiples are exact, H's constant
// term in two parts and its difference with a² + k·ln2 formed as a two-sum,
// so that the exponent keeps its low bits; the result is t + t·(e^r - 1)
// scaled by 2^k, rounded once. For x < 0 it is 2 - erfc a. Erf is
// x + x·Q(x²) below |x| = 0.84375 (degree 11, float32: 6) and
// ±(1 - erfc a) beyond. Gelu is (x/2)·erfc(a) for x <= 0 and
// x - (x/2)·erfc(a) above, a = |x|/√2 carried in two parts (its rounding
// would move erfc by a²·2^-53), with x/2 applied before the scaling by 2^k
// so that the underflowing tail rounds once. In float32 lanes the
// polynomial's coefficients, rounded to float32, leave H an absolute error
// near 2^-25, which is where the larger float32 bounds come from.
//
// The polynomials are weighted minimax fits computed by the generator
// (_gen) with the Remez algorithm; the float32 functions use lower degrees
// and coefficients rounded to float32.
//
// # Variants
//
// Each function exists as AVX-512 (F and DQ) and AVX2+FMA assembly on
// amd64 (variants "avx512" and "avx2"), the best the CPU supports chosen
// at start-up (golang.org/x/sys/cpu), and as pure Go ("generic", built
// everywhere, and alone with the purego build tag or on other
// architectures). All are generated from one description of each
// algorithm whose every operation rounds exactly once, so they return
// identical bits; the pure-Go variant rounds the float32 FMAs in software
// (fma32). The assembly processes whole vectors, two at a time where the
// registers hold two interleaved copies of the algorithm (so that their
// dependency chains overlap), and leaves the tail, and any vector with a
// Sin, Cos or Tan argument beyond the fast path, to the pure-Go twin. [SetVariant] selects a variant for tests and benchmarks.
package vmath

//go:generate go run ./_gen

import (
	"fmt"
	"unsafe"
)

// Float is the element type of the functions.
type Float interface{ float32 | float64 }

// Exp sets dst[i] = e^src[i].
func Exp[T Float](dst, src []T) { apply(opExp, dst, src) }

// Expm1 sets dst[i] = e^src[i] - 1, accurate also where src[i] is near 0.
func Expm1[T Float](dst, src []T) { apply(opExpm1, dst, src) }

// Log sets dst[i] = ln src[i].
func Log[T Float](dst, src []T) { apply(opLog, dst, src) }

// Log1p sets dst[i] = ln(1 + src[i]), accurate also where src[i] is near 0.
func Log1p[T Float](dst, src []T) { apply(opLog1p, dst, src) }

// Tanh sets dst[i] = tanh src[i] = (e^x - e^-x)/(e^x + e^-x).
func Tanh[T Float](dst, src []T) { apply(opTanh, dst, src) }

// Sigmoid sets dst[i] = 1/(1 + e^-src[i]), the logistic function.
func Sigmoid[T Float](dst, src []T) { apply(opSigmoid, dst, src) }

// Sin sets dst[i] = sin src[i] (radians).
func Sin[T Float](dst, src []T) { apply(opSin, dst, src) }

// Cos sets dst[i] = cos src[i] (radians).
func Cos[T Float](dst, src []T) { apply(opCos, dst, src) }

// Sqrt sets dst[i] = √src[i], correctly rounded.
func Sqrt[T Float](dst, src []T) { apply(opSqrt, dst, src) }

// Tan sets dst[i] = tan src[i] = sin src[i] / cos src[i] (radians).
func Tan[T Float](dst, src []T) { apply(opTan, dst, src) }

// Atan sets dst[i] = atan src[i], in [-π/2, π/2].
func Atan[T Float](dst, src []T) { apply(opAtan, dst, src) }

// Asin sets dst[i] = asin src[i], in [-π/2, π/2]; NaN outside [-1, 1].
func Asin[T Float](dst, src []T) { apply(opAsin, dst, src) }

// Acos sets dst[i] = acos src[i], in [0, π]; NaN outside [-1, 1].
func Acos[T Float](dst, src []T) { apply(opAcos, dst, src) }

// Sinh sets dst[i] = sinh src[i] = (e^x - e^-x)/2.
func Sinh[T Float](dst, src []T) { apply(opSinh, dst, src) }

// Cosh sets dst[i] = cosh src[i] = (e^x + e^-x)/2.
func Cosh[T Float](dst, src []T) { apply(opCosh, dst, src) }

// Erf sets dst[i] = erf src[i] = (2/√π)·∫₀ˣ e^(-t²) dt.
func Erf[T Float](dst, src []T) { apply(opErf, dst, src) }

// Erfc sets dst[i] = erfc src[i] = 1 - erf src[i], accurate relative to
// its own (tiny) value in the tail.
func Erfc[T Float](dst, src []T) { apply(opErfc, dst, src) }

// Gelu sets dst[i] = x·Φ(x) = (x/2)·erfc(-x/√2) for x = src[i], the
// Gaussian error linear unit.
func Gelu[T Float](dst, src []T) { apply(opGelu, dst, src) }

// Pow sets dst[i] = x[i]^y[i], as e^(y·ln x). Float32 computes it in
// float64 by the algorithms of Exp and Log and rounds once to float32
// (within an ulp of the exact power, nearly always correctly rounded).
// Float64 takes ln x in double-double (to about 2^-62 relative), e^p for
// p = y·hi by Exp's algorithm and the low part to first order (within 2
// ulps). Bases that are not positive, normal and finite, exponents that
// are not finite, y = 1, and (float64) y·ln x above 709 take the
// catalog's definition: x^1 = x, the special values of math.Pow, NaN for
// a negative base and a non-integer exponent, and the sign of an odd
// integer power of a negative base.
func Pow[T Float](dst, x, y []T) { apply2(op2Pow, dst, x, y) }

// Atan2 sets dst[i] = atan2(x[i], y[i]), the angle of the point (y[i],
// x[i]) in [-π, π]: atan of the ratio of the smaller modulus to the larger
// (Atan's algorithm), placed in its quadrant with π/2 and π carried in two
// parts and given x's sign; within 2 ulps in float64 and 1.5 in float32
// (computed in float32 lanes). Where the ratio is not a number (two zeros,
// two infinities, a NaN), the catalog's scalar.Atan2.
func Atan2[T Float](dst, x, y []T) { apply2(op2Atan2, dst, x, y) }

// apply2 runs the binary o of the active variant.
func apply2[T Float](o op2, dst, x, y []T) {
	if len(x) < len(dst) || len(y) < len(dst) {
		panic(fmt.Sprintf("vmath.%s: len(dst) = %d, len(x) = %d, len(y) = %d", op2Names[o], len(dst), len(x), len(y)))
	}
	v := active.Load()
	if unsafe.Sizeof(T(0)) == 4 {
		if !archApply2_32(v.arch, o, asF32(dst), asF32(x), asF32(y)) {
			genericApply2_32(o, asF32(dst), asF32(x), asF32(y))
		}
	} else if !archApply2_64(v.arch, o, asF64(dst), asF64(x), asF64(y)) {
		genericApply2_64(o, asF64(dst), asF64(x), asF64(y))
	}
}

// apply runs o of the active variant.
func apply[T Float](o op, dst, src []T) {
	if len(dst) != len(src) {
		panic(fmt.Sprintf("vmath.%s: len(dst) = %d, len(src) = %d", opNames[o], len(dst), len(src)))
	}
	v := active.Load()
	if unsafe.Sizeof(T(0)) == 4 {
		if !archApply32(v.arch, o, asF32(dst), asF32(src)) {
			genericApply32(o, asF32(dst), asF32(src))
		}
	} else if !archApply64(v.arch, o, asF64(dst), asF64(src)) {
		genericApply64(o, asF64(dst), asF64(src))
	}
}

// asF32 and asF64 view a []T as its element type (T is float32 or
// float64, so the view is the identity).
func asF32[T Float](s []T) []float32 {
	return unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(s))), len(s))
}

func asF64[T Float](s []T) []float64 {
	return unsafe.Slice((*float64)(unsafe.Pointer(unsafe.SliceData(s))), len(s))
}
