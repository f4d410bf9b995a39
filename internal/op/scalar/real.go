package scalar

import "math"

// The real functions here replace those of package math where math falls
// short of IEEE behaviour on amd64 or overflows early: math.Exp (assembly)
// returns +Inf from x ≈ 709.44 on, although e^x stays finite up to
// x ≈ 709.78, and math.Expm1 at 709.78 itself; math.Log (assembly) reads
// the exponent of a subnormal argument as -1023, so that math.Log(5e-324)
// is -709.09 instead of -744.44; math.Sinh and math.Cosh form e^|x|/2
// from e^|x|, which overflows before they do; math.Atan2 loses the sign of
// y when y/x underflows. The file also holds the scalings that the complex
// functions share: e^x·c, |z| and log|z| without spurious overflow or
// underflow.

var (
	inf = math.Inf(1)
	nan = math.NaN()
)

func isFinite(x float64) bool { return !math.IsInf(x, 0) && !math.IsNaN(x) }

// Powers of two and constants of the scalings.
const (
	two600  = 0x1p600
	twoM600 = 0x1p-600
	two300  = 0x1p300
	twoM300 = 0x1p-300

	// e512 is e^512 rounded to float64 (relative error 5.9e-17; the
	// tests check it against math/big). e^x·c is evaluated as
	// e^(x-512)·c·e512 where e^x alone would overflow.
	e512 = 0x1.9476504ba852ep+738

	// expSafe is the largest argument at which math.Exp is trusted not
	// to overflow (on amd64 it overflows from about 709.44).
	expSafe = 709.0
)

// Exp returns e^x. It is math.Exp, except that it stays finite up to the
// true overflow threshold x = log(MaxFloat64) ≈ 709.78 (math.Exp on amd64
// returns +Inf from x ≈ 709.44 on): above 709 it is e^(x-512)·e^512, x-512
// being exact there. Exp(+Inf) = +Inf, Exp(-Inf) = 0, Exp(NaN) = NaN.
func Exp(x float64) float64 { return expMul(x, 1) }

// expMul returns e^x·c without the overflow of e^x alone where the
// product is finite (|c| < 1 and x up to 709.78 - log|c|): for x > 709 it
// subtracts 512 from x (exactly, x being below 2300 there) until e^x is
// safe and multiplies c·e^x by e^512 as many times, so the intermediate
// values stay between the final result and c·e^197. The rounding error is
// about 1.4 ulp (math.Exp) plus one ulp per scaling step, two steps at
// most for results that do not overflow.
func expMul(x, c float64) float64 { return expMulH(x, c, 1) }

// expHalfMul returns e^x·c/2 as expMul does, the halving folded into the
// first scaling step (exactly) so that a subnormal c loses no bits.
func expHalfMul(x, c float64) float64 { return expMulH(x, c, 0.5) }

// expMulH returns e^x·c·h for h = 1 or 1/2 (see expMul).
func expMulH(x, c, h float64) float64 {
	if !(x > expSafe) || c == 0 || math.IsInf(c, 0) || math.IsNaN(c) {
		return math.Exp(x) * h * c
	}
	if x > 2300 { // beyond any finite e^x·c, c >= 2^-1074
		return c * math.Inf(1)
	}
	k := 0
	for x > expSafe {
		x -= 512
		k++
	}
	m := math.Exp(x) * c * (e512 * h)
	for ; k > 1; k-- {
		m *= e512
	}
	return m
}

// Expm1 returns e^x - 1, accurate for small |x|. It is math.Expm1, except
// that it is finite up to the overflow threshold log(MaxFloat64) itself
// (math.Expm1 returns +Inf from that value on, although e^x - 1 rounds to
// 1.797693134862273e308 there): beyond 709, where e^x - 1 rounds to e^x,
// it is Exp(x).
func Expm1(x float64) float64 {
	if x > expSafe {
		return Exp(x)
	}
	return math.Expm1(x)
}

// Log returns the natural logarithm of x: -Inf at ±0, NaN for x < 0 and
// NaN, +Inf at +Inf. It is math.Log, except that a subnormal x is scaled
// by 2^54 first (math.Log on amd64 misreads the exponent of subnormals).
func Log(x float64) float64 {
	if x > 0 && x < 0x1p-1022 {
		return math.Log(x*0x1p54) - 54*math.Ln2
	}
	return math.Log(x)
}

// Sinh returns sinh x = (e^x - e^-x)/2, finite up to |x| = log(2·MaxFloat64)
// ≈ 710.48. With t = e^|x| - 1 (math.Expm1), sinh|x| = (2t - t²/(t+1))/2
// for |x| < 1 and (t + t/(t+1))/2 up to 22, both without cancellation;
// beyond 22, where e^-|x| is below 2^-63 of e^|x|, it is e^|x|/2 by Exp's
// scaling. Sinh is odd: Sinh(±0) = ±0, Sinh(±Inf) = ±Inf, Sinh(NaN) = NaN.
// The error is below 2 ulp.
func Sinh(x float64) float64 {
	a := math.Abs(x)
	var s float64
	switch {
	case a < 0x1p-28: // sinh x = x(1 + x²/6 + ...)
		return x
	case a < 1:
		t := math.Expm1(a)
		s = (2*t - t*t/(t+1)) / 2
	case a < 22:
		t := math.Expm1(a)
		s = (t + t/(t+1)) / 2
	default: // a >= 22, +Inf and NaN
		s = expHalfMul(a, 1)
	}
	return math.Copysign(s, x)
}

// Cosh returns cosh x = (e^x + e^-x)/2, finite up to |x| ≈ 710.48. With
// t = e^|x| - 1, cosh x = 1 + t²/(2(t+1)) for |x| < ln2/2, (e^|x| +
// e^-|x|)/2 up to 22 and e^|x|/2 beyond (by Exp's scaling). Cosh is even:
// Cosh(±0) = 1, Cosh(±Inf) = +Inf, Cosh(NaN) = NaN. The error is below
// 2 ulp.
func Cosh(x float64) float64 {
	a := math.Abs(x)
	switch {
	case a < 0x1p-27:
		return 1
	case a < 0.5*math.Ln2:
		t := math.Expm1(a)
		return 1 + t*t/(2*(t+1))
	case a < 22:
		e := math.Exp(a)
		return (e + 1/e) / 2
	}
	return expHalfMul(a, 1)
}

// Atan2 returns the angle in [-π, π] of the point (x, y), which has the
// sign of y in every case (C99 F.9.1.4, with the special values of
// math.Atan2). It is math.Atan2 with that sign restored: math.Atan2 takes
// atan(y/x) ± π for x < 0 by the sign of atan(y/x), which is +0 when y/x
// underflows, so that it returns +π for atan2(-5e-324, -2.5) instead of
// -π.
func Atan2(y, x float64) float64 { return math.Copysign(math.Atan2(y, x), y) }

// Hypot returns sqrt(x² + y²) for any x and y: +Inf if either is
// infinite, else NaN if either is NaN. The arguments are scaled by 2^∓600
// when the larger one is above 2^500 or below 2^-500, so that the squares
// neither overflow nor lose bits to underflow, and the square root of the
// sum of squares is rounded once (error below 1 ulp; math.Hypot's
// max·sqrt(1+(min/max)²) rounds five times). The squares and their sum are
// each rounded (never fused), so vector kernels give the same bits.
func Hypot(x, y float64) float64 {
	a, b := math.Abs(x), math.Abs(y)
	if a < b {
		a, b = b, a
	}
	switch {
	case math.IsInf(a, 0) || math.IsInf(b, 0):
		return math.Inf(1)
	case a != a || b != b:
		return math.NaN()
	case a == 0:
		return 0
	case a > 0x1p500:
		a, b = a*twoM600, b*twoM600
		return math.Sqrt(float64(a*a)+float64(b*b)) * two600
	case a < 0x1p-500:
		a, b = a*two600, b*two600
		return math.Sqrt(float64(a*a)+float64(b*b)) * twoM600
	}
	return math.Sqrt(float64(a*a) + float64(b*b))
}

// Hypot32 returns sqrt(x² + y²) of float32 values in float64, whose
// rounding to float32 is the float32 result: the squares of float32
// values are exact in float64 and never overflow, so the float64 value is
// almost correctly rounded. A NaN beside an infinity gives +Inf.
func Hypot32(x, y float32) float64 {
	a, b := float64(x), float64(y)
	if h := math.Sqrt(a*a + b*b); h == h {
		return h
	}
	return math.Hypot(a, b)
}

// logHypot returns log sqrt(x² + y²) = log|x + iy| without overflow or
// underflow: +Inf if either argument is infinite, else NaN if either is
// NaN, -Inf at 0. Where |x + iy| is near 1 (the larger magnitude a in
// [1/2, 2]) it is log1p(a² + b² - 1)/2 with a² + b² - 1 from the exact
// squares (x2y2m1), so that the result keeps its relative accuracy where
// it is small (|z| = 1 + 1e-12); elsewhere log hypot, scaled
// by 2^∓600 beyond 2^±500 (the log of the scale, 600·ln2, added in two
// parts). For y = 0 it is Log|x|.
func logHypot(x, y float64) float64 {
	a, b := math.Abs(x), math.Abs(y)
	if a < b {
		a, b = b, a
	}
	switch {
	case math.IsInf(a, 0) || math.IsInf(b, 0):
		return math.Inf(1)
	case a != a || b != b:
		return math.NaN()
	case b == 0:
		return Log(a)
	case a >= 0.5 && a <= 2:
		return math.Log1p(x2y2m1(a, b)) / 2
	case a > 0x1p500:
		return math.Log(Hypot(a*twoM600, b*twoM600)) + (600*ln2Hi + 600*ln2Lo)
	case a < 0x1p-500:
		return math.Log(Hypot(a*two600, b*two600)) - (600*ln2Hi + 600*ln2Lo)
	}
	return math.Log(Hypot(a, b))
}

// ln2 in two parts: ln2Hi has 33 significant bits, so that k·ln2Hi is
// exact for |k| < 2^20; ln2Hi + ln2Lo = ln 2 to about 2^-89.
const (
	ln2Hi = 0x1.62e42fefp-1
	ln2Lo = 0x1.473de6af278edp-34
)

// x2y2m1 returns a² + b² - 1 for 1/2 <= a <= 2, b <= a: the squares
// split exactly into a rounded part and its error by FMA, the rounded
// parts and 1 summed with their errors kept (Knuth's two-sum), so that the
// result is accurate to about 2^-100 absolute, also where it cancels.
func x2y2m1(a, b float64) float64 {
	ah, bh := float64(a*a), float64(b*b) // rounded, not fused into the sums
	al, bl := math.FMA(a, a, -ah), math.FMA(b, b, -bh)
	s, e1 := twoSum(ah, -1)
	s, e2 := twoSum(s, bh)
	return s + (e1 + e2 + al + bl)
}

// twoSum returns s = fl(a + b) and e with s + e = a + b exactly.
func twoSum(a, b float64) (s, e float64) {
	s = a + b
	z := s - a
	return s, (a - (s - z)) + (b - z)
}

// Asin returns asin x in [-π/2, π/2]: math.Asin for |x| <= 0.9 and, beyond,
// sign(x)·(π/2 - 2·asin s) with s = √((1-|x|)/2), whose argument is exact
// but for the square root's rounding (math.Asin takes √(1-x²), whose
// rounded 1-x² costs up to 8 ulps near ±1: 1.5693821131146442 for
// asin(0.999999) = 1.5693821131146521). Below 0.9 math.Asin is the more
// accurate: there 2·asin s doubles the error of asin s in a result not
// much larger. NaN outside [-1, 1] and for NaN, Asin(±0) = ±0. The error
// is below 2 ulp.
func Asin(x float64) float64 {
	a := math.Abs(x)
	if !(a > 0.9) || a > 1 {
		return math.Asin(x)
	}
	s := math.Sqrt((1 - a) / 2)
	y := piO2Hi - 2*math.Asin(s) + piO2Lo
	return math.Copysign(y, x)
}

// Acos returns acos x in [0, π]: π/2 - asin x for |x| <= 1/2, 2·asin s for
// x > 1/2 and π - 2·asin s for x < -1/2, s = √((1-|x|)/2), so that it
// keeps its relative accuracy near 1 (math.Acos, π/2 - math.Asin x, gives
// 0.0014142136802524075 for acos(0.999999) = 0.0014142136802445852).
// NaN outside [-1, 1] and for NaN; Acos(1) = +0, Acos(-1) = π. The error
// is below 2 ulp.
func Acos(x float64) float64 {
	a := math.Abs(x)
	switch {
	case !(a > 0.5) || a > 1:
		return piO2Hi - (math.Asin(x) - piO2Lo)
	case x > 0:
		return 2 * math.Asin(math.Sqrt((1-a)/2))
	}
	return 2*piO2Hi - (2*math.Asin(math.Sqrt((1-a)/2)) - 2*piO2Lo)
}
