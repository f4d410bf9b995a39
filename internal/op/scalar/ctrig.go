package scalar

import "math"

// The complex trigonometric and hyperbolic functions and their inverses
// (C99 Annex G, G.6.1 and G.6.2; see cmath.go). The circular functions are
// the hyperbolic ones rotated by i, as C99 defines them: sin z = -i sinh(iz),
// cos z = cosh(iz), tan z = -i tanh(iz), asin z = -i asinh(iz) and atan z =
// -i atanh(iz), so that their special values and signs of zero follow from
// those of the hyperbolic functions.

// CSinh returns sinh z = sinh x cos y + i·cosh x sin y for z = x + iy.
//
// Where sinh x overflows (|x| > 709) the parts are e^|x|/2·cos y and
// e^|x|/2·sin y, formed as Exp's scaled products so that they stay finite
// as long as they are representable; y = 0 gives sinh x + i·y exactly.
// Special values (G.6.2.5; sinh is odd and sinh(conj z) = conj(sinh z)):
// sinh(+0 + 0i) = +0 + 0i; sinh(±0 + i∞) and sinh(±0 + iNaN) = ±0 + iNaN;
// sinh(x + i∞) and sinh(x + iNaN) = NaN + iNaN for finite x ≠ 0;
// sinh(+∞ + iy) = +∞·cis y for finite y ≠ 0; sinh(±∞ + i∞) and sinh(±∞ +
// iNaN) = ±∞ + iNaN; sinh(NaN + 0i) = NaN + 0i; sinh(NaN + iy) = NaN +
// iNaN for y ≠ 0.
func CSinh(z complex128) complex128 {
	x, y := real(z), imag(z)
	switch {
	case y == 0:
		return complex(Sinh(x), y)
	case x == 0 && !isFinite(y):
		return complex(x, nan)
	case math.IsInf(x, 0):
		if !isFinite(y) {
			return complex(x, nan)
		}
		s, c := sincos(y)
		return complex(x*c, inf*s)
	case !isFinite(x) || !isFinite(y):
		return complex(nan, nan)
	}
	s, c := sincos(y)
	if a := math.Abs(x); a > expSafe {
		return complex(math.Copysign(1, x)*expHalfMul(a, c), expHalfMul(a, s))
	}
	return complex(Sinh(x)*c, Cosh(x)*s)
}

// CCosh returns cosh z = cosh x cos y + i·sinh x sin y for z = x + iy,
// scaled as CSinh where cosh x overflows; y = 0 gives cosh x + i·0 (the
// zero with the sign of x·y).
//
// Special values (G.6.2.4; cosh is even and cosh(conj z) = conj(cosh z)):
// cosh(±0 + 0i) = 1 ± 0i; cosh(±0 + i∞) and cosh(±0 + iNaN) = NaN ± 0i
// (the sign of x·y);
// cosh(x + i∞) and cosh(x + iNaN) = NaN + iNaN for finite x ≠ 0;
// cosh(+∞ + 0i) = +∞ + 0i; cosh(±∞ + iy) = +∞·cos y ± i∞·sin y for finite
// y ≠ 0; cosh(±∞ + i∞) and cosh(±∞ + iNaN) = +∞ + iNaN; cosh(NaN + 0i) =
// NaN + 0i; cosh(NaN + iy) = NaN + iNaN for y ≠ 0.
func CCosh(z complex128) complex128 {
	x, y := real(z), imag(z)
	switch {
	case y == 0:
		return complex(Cosh(x), math.Copysign(0, x)*y)
	case x == 0 && !isFinite(y):
		im := math.Copysign(0, x) // the sign of x·y
		if math.Signbit(y) {
			im = -im
		}
		return complex(nan, im)
	case math.IsInf(x, 0):
		if !isFinite(y) {
			return complex(inf, nan)
		}
		s, c := sincos(y)
		return complex(inf*c, x*s)
	case !isFinite(x) || !isFinite(y):
		return complex(nan, nan)
	}
	s, c := sincos(y)
	if a := math.Abs(x); a > expSafe {
		return complex(expHalfMul(a, c), math.Copysign(1, x)*expHalfMul(a, s))
	}
	return complex(Cosh(x)*c, Sinh(x)*s)
}

// CTanh returns tanh z for z = x + iy, by Kahan's formula: with t = tan y,
// β = 1 + t², s = sinh x and ρ = sqrt(1 + s²) = cosh x, tanh z = (β·ρ·s +
// i·t)/(1 + β·s²), which has no cancellation and no overflow for |x| <= 22.
// Beyond 22, where tanh x rounds to ±1, it is ±1 + i·4 sin y cos y e^-2|x|.
// y = 0 gives tanh x + i·y and x = 0 gives x + i·tan y exactly.
//
// Special values (G.6.2.6; tanh is odd and tanh(conj z) = conj(tanh z)):
// tanh(+0 + 0i) = +0 + 0i; tanh(±0 + i∞) and tanh(±0 + iNaN) = ±0 + iNaN,
// keeping the zero real part of tanh(iy) = i·tan y (C99 has NaN + iNaN);
// tanh(x + i∞) and tanh(x + iNaN) = NaN + iNaN for finite x ≠ 0;
// tanh(+∞ + iy) = 1 + i0·sin 2y for finite y; tanh(+∞ ± i∞) and
// tanh(+∞ ± iNaN) = 1 ± 0i (the sign of y);
// tanh(NaN + 0i) = NaN + 0i; tanh(NaN + iy) = NaN + iNaN for y ≠ 0.
func CTanh(z complex128) complex128 {
	x, y := real(z), imag(z)
	switch {
	case math.IsInf(x, 0):
		im := math.Copysign(0, y)
		if isFinite(y) {
			s, c := sincos(y) // sin 2y = 2 sin y cos y
			im = math.Copysign(0, s*c)
		}
		return complex(math.Copysign(1, x), im)
	case y == 0:
		return complex(math.Tanh(x), y)
	case x == 0:
		if !isFinite(y) {
			return complex(x, nan)
		}
		return complex(x, Tan(y))
	case !isFinite(x) || !isFinite(y):
		return complex(nan, nan)
	}
	if math.Abs(x) > 22 {
		s, c := sincos(y)
		return complex(math.Copysign(1, x), 4*s*c*math.Exp(-2*math.Abs(x)))
	}
	t := Tan(y)
	beta := 1 + t*t
	s := Sinh(x)
	rho := math.Sqrt(1 + s*s)
	d := 1 + beta*s*s
	return complex(beta*rho*s/d, t/d)
}

// CSin returns sin z = sin x cosh y + i·cos x sinh y, as -i·sinh(iz).
func CSin(z complex128) complex128 {
	w := CSinh(complex(-imag(z), real(z)))
	return complex(imag(w), -real(w))
}

// CCos returns cos z = cos x cosh y - i·sin x sinh y, as cosh(iz).
func CCos(z complex128) complex128 { return CCosh(complex(-imag(z), real(z))) }

// CTan returns tan z, as -i·tanh(iz): accurate near the poles and finite
// (±i in the limit) for large |Im z|.
func CTan(z complex128) complex128 {
	w := CTanh(complex(-imag(z), real(z)))
	return complex(imag(w), -real(w))
}

// The crossovers of the inverse sine and cosine (Hull, Fairgrieve and
// Tang): the imaginary part is log1p of A-1 formed without cancellation for
// A <= aCross, and the real part asin B or acos B for B <= bCross (where
// they are well conditioned), an arctangent of quantities formed without
// cancellation beyond. asinBig is where the asymptotic forms take over:
// their relative error is 1/|z|² there.
const (
	aCross  = 1.5
	bCross  = 0.6417
	asinBig = 0x1p53
	eps     = 0x1p-52
)

// asinQ returns, for finite x, y >= 0, the real part of asin(x + iy) (of
// acos(x + iy) if cos) and their imaginary part's magnitude, by the
// algorithm of T. E. Hull, T. F. Fairgrieve and P. T. P. Tang,
// "Implementing the complex arcsine and arccosine functions using
// exception handling" (ACM TOMS 23, 1997):
//
//	R = |z + 1|, S = |z - 1|, A = (R + S)/2 >= 1, B = x/A <= 1,
//	asin z = asin B + i·log(A + sqrt(A² - 1)), acos z = acos B - i·(same).
//
// A - 1, A - x and A² - x² are formed from R - (x+1) = y²/(R + x + 1) and
// S - |x-1| = y²/(S + |x-1|), which do not cancel; y² is kept as
// y·(y/...), and halves are taken after products, so that they do not
// underflow for tiny y (acos(1 + 5e-324i) = 2.2e-162 - 2.2e-162i). Where y
// is below eps·|x-1| its square is negligible and the imaginary part is
// y/sqrt(1-x²) or acosh x; for x or y >= 2^53 it is log|z| + log 2 and the
// real part is atan2(x, y) (acos: atan2(y, x)).
func asinQ(x, y float64, cos bool) (re, im float64) {
	if x >= asinBig || y >= asinBig {
		im = logHypot(x, y) + math.Ln2
		if cos {
			return Atan2(y, x), im
		}
		return Atan2(x, y), im
	}
	xp1, xm1 := x+1, x-1
	r, s := Hypot(xp1, y), Hypot(xm1, y)
	a := max((r+s)/2, 1)
	yr := y * (y / (r + xp1)) // R - (x+1)
	switch {
	case a > aCross:
		im = math.Log(a + math.Sqrt(a*a-1))
	case y < eps*math.Abs(xm1) && x < 1:
		im = y / math.Sqrt(-xm1*xp1)
	case y < eps*math.Abs(xm1):
		im = math.Log1p(xm1 + math.Sqrt(xm1*xp1))
	default:
		twoAm1 := yr + s + xm1 // x >= 1: S + (x-1)
		if x < 1 {
			twoAm1 = yr + y*(y/(s-xm1)) // S - (1-x)
		}
		im = math.Log1p(twoAm1/2 + math.Sqrt(twoAm1*(a+1)/2))
	}
	b := x / a
	if b <= bCross {
		if cos {
			return math.Acos(b), im
		}
		return math.Asin(b), im
	}
	// q = sqrt(A² - x²) = sqrt((A - x)(A + x)).
	var q float64
	if x <= 1 {
		twoAmx := yr + s - xm1 // 2(A - x) = (R - (x+1)) + S + (1-x)
		q = math.Sqrt(twoAmx * (a + x) / 2)
	} else {
		apx := a + x // (A - x)(A + x) = y²·((A+x)/(R+x+1) + (A+x)/(S+x-1))/2
		q = y * math.Sqrt((apx/(r+xp1)+apx/(s+xm1))/2)
	}
	if cos {
		return math.Atan(q / x), im
	}
	return math.Atan(x / q), im
}

// CAsin returns the principal arcsine of z, with branch cuts along the
// real axis outside [-1, 1]: asin(x ± 0i) = π/2 ± i·acosh x for x > 1.
// The algorithm is that of Hull, Fairgrieve and Tang (see asinQ) on |x| +
// i|y|, the signs of x and y given to the real and imaginary parts; it
// keeps both parts accurate near ±1, for tiny and for huge |z|.
//
// Special values (G.6.2.2 via asin z = -i asinh(iz); asin is odd and
// asin(conj z) = conj(asin z)): asin(±0 + 0i) = ±0 + 0i; asin(x ± i∞) =
// ±0 ± i∞ for finite x (the zero with x's sign); asin(±∞ + iy) = ±π/2 +
// i∞·sign y for finite y; asin(±∞ ± i∞) = ±π/4 ± i∞; asin(±∞ + iNaN) and
// asin(NaN ± i∞) = NaN ± i∞; asin(±0 + iNaN) = ±0 + iNaN; otherwise NaN +
// iNaN where a part is NaN.
func CAsin(z complex128) complex128 {
	x, y := real(z), imag(z)
	ax, ay := math.Abs(x), math.Abs(y)
	var re, im float64
	switch {
	case math.IsInf(ay, 1):
		re, im = 0, inf
		if math.IsInf(ax, 1) {
			re = math.Pi / 4
		} else if ax != ax {
			re = nan
		}
	case math.IsInf(ax, 1):
		re, im = math.Pi/2, inf
		if ay != ay {
			re = nan
		}
	case ay != ay && ax == 0:
		re, im = 0, nan
	case ax != ax || ay != ay:
		return complex(nan, nan)
	default:
		re, im = asinQ(ax, ay, false)
	}
	return complex(math.Copysign(re, x), math.Copysign(im, y))
}

// CAcos returns the principal arccosine of z, real part in [0, π], with
// branch cuts along the real axis outside [-1, 1]: acos(x ± 0i) = 0 ∓
// i·acosh x for x > 1. For x >= 0 it is Hull, Fairgrieve and Tang's
// (asinQ) on x + i|y|, the imaginary part given the sign of -y; acos(-z) =
// π - acos z gives x < 0 (-0 included, acos(-0 + 0i) = π/2 - 0i).
//
// Special values (G.6.1.1; acos(conj z) = conj(acos z)): acos(±0 + 0i) =
// π/2 - 0i; acos(±0 + iNaN) = π/2 + iNaN; acos(x + i∞) = π/2 - i∞ for
// finite x; acos(-∞ + iy) = π - i∞ and acos(+∞ + iy) = +0 - i∞ for finite
// y >= 0; acos(-∞ + i∞) = 3π/4 - i∞, acos(+∞ + i∞) = π/4 - i∞; acos(±∞ +
// iNaN) = NaN ∓ i∞ (the sign of the NaN); acos(NaN + i∞) = NaN - i∞; otherwise NaN + iNaN where
// a part is NaN.
func CAcos(z complex128) complex128 {
	x, y := real(z), imag(z)
	ax, ay := math.Abs(x), math.Abs(y)
	var re, im float64
	switch {
	case math.IsInf(ay, 1):
		re, im = math.Pi/2, inf
		if math.IsInf(ax, 1) {
			re = math.Pi / 4
		} else if ax != ax {
			re = nan
		}
	case math.IsInf(ax, 1):
		re, im = 0, inf
		if ay != ay {
			re = nan
		}
	case ay != ay && ax == 0:
		return complex(math.Pi/2, nan)
	case ax != ax || ay != ay:
		return complex(nan, nan)
	default:
		re, im = asinQ(ax, ay, true)
	}
	if math.Signbit(x) {
		re = math.Pi - re
	}
	return complex(re, -math.Copysign(im, y))
}

// CAtanh returns the principal inverse hyperbolic tangent of z = x + iy,
// with branch cuts along the real axis outside [-1, 1]: atanh(x ± 0i) =
// atanh(1/x) ± iπ/2 for x > 1. By Kahan's formulas,
//
//	atanh z = log1p(4|x|/((1-|x|)² + y²))/4·sign x + i·atan2(2y, (1-|x|)(1+|x|) - y²)/2,
//
// where the real part does not cancel; at |x| = 1 it is (log(4+y²) -
// 2 log|y|)/4 (in a form whose squares do not underflow), and beyond |x|
// or |y| = 2^500, where atanh z = 1/z ± iπ/2 to within 2^-1000 relative,
// Re(1/z) + i·copysign(π/2, y).
//
// Special values (G.6.2.3; atanh is odd and atanh(conj z) = conj(atanh z)):
// atanh(+0 + 0i) = +0 + 0i; atanh(±0 + iNaN) = ±0 + iNaN; atanh(±1 + 0i) =
// ±∞ + 0i; atanh(x + i∞) = ±0 + iπ/2 (x's sign) for finite x; atanh(±∞ +
// iy) = ±0 + iπ/2·sign y for finite y and for y = ±∞; atanh(±∞ + iNaN) =
// ±0 + iNaN; atanh(NaN ± i∞) = ±0 ± iπ/2 (the sign of the NaN); otherwise
// NaN + iNaN where a part is NaN.
func CAtanh(z complex128) complex128 {
	x, y := real(z), imag(z)
	ax, ay := math.Abs(x), math.Abs(y)
	switch {
	case x != x:
		if math.IsInf(y, 0) {
			return complex(math.Copysign(0, x), math.Copysign(math.Pi/2, y))
		}
		return complex(nan, nan)
	case y != y:
		if math.IsInf(x, 0) || x == 0 {
			return complex(math.Copysign(0, x), nan)
		}
		return complex(nan, nan)
	case ax > 0x1p500 || ay > 0x1p500:
		var re float64 // Re(1/z) = x/(x² + y²)
		switch {
		case math.IsInf(ax, 1) || math.IsInf(ay, 1):
			re = 0
		case ax >= ay:
			r := ay / ax
			re = 1 / ax / (1 + r*r)
		default:
			r := ax / ay
			re = r / ay / (1 + r*r)
		}
		return complex(math.Copysign(re, x), math.Copysign(math.Pi/2, y))
	case ax == 1 && y == 0:
		return complex(math.Copysign(inf, x), y)
	}
	var re float64
	switch {
	case ax == 1 && ay > 1:
		re = math.Log1p(4/(ay*ay)) / 4
	case ax == 1:
		re = (math.Ln2-Log(ay))/2 + math.Log1p(ay*ay/4)/4
	default:
		d := 1 - ax
		re = math.Log1p(4*ax/(d*d+ay*ay)) / 4
	}
	im := Atan2(2*y, (1-ax)*(1+ax)-ay*ay) / 2
	return complex(math.Copysign(re, x), im)
}

// CAtan returns the principal arctangent of z, as -i·atanh(iz), with
// branch cuts along the imaginary axis outside [-i, i]: atan(±0 + iy) =
// ±π/2 + i·atanh(1/y) for y > 1. Its special values follow from CAtanh's:
// atan(±∞ + iy) = ±π/2 + 0i·sign y, atan(x ± i∞) = ±π/2·sign x ± 0i.
func CAtan(z complex128) complex128 {
	w := CAtanh(complex(-imag(z), real(z)))
	return complex(imag(w), -real(w))
}
