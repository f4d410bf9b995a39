package scalar

import "math"

// The complex exponentials, logarithms, roots and powers. They follow C99
// Annex G (G.6) for the special values (signed zeros, infinities, NaN) and
// W. Kahan, "Branch cuts for complex elementary functions" (1987) for the
// branch cuts: a function with a cut along an axis is continuous on it
// from the side of the sign of the zero part (sqrt(-4 - 0i) = -2i,
// log(-1 - 0i) = -iπ). Unlike math/cmplx they scale their arguments where
// an intermediate value (|z|, e^x, a + |z|) would overflow or underflow
// though the result does not. Where Annex G leaves the sign of a zero or
// an infinite part unspecified, the doc comment says which one is given.

// CExp returns e^z = e^x·(cos y + i sin y) for z = x + iy.
//
// e^x·cos y and e^x·sin y are formed as Exp's scaled products, so that
// the parts stay finite when e^x alone overflows (x up to about 709.78 -
// log|cos y|), and y = 0 gives e^x + i·y exactly (e^x + 0i where e^x
// overflows, not Inf + NaN·i). Special values (G.6.3.1): e^(±0 + 0i) = 1;
// e^(x + i∞) and e^(x + iNaN) = NaN + iNaN for finite x; e^(+∞ + iy) =
// +∞·cis y for finite y ≠ 0; e^(-∞ + iy) = +0·cis y; e^(+∞ ± i∞) and
// e^(+∞ + iNaN) = +∞ + iNaN; e^(-∞ ± i∞) and e^(-∞ ± iNaN) = 0 ± 0i;
// e^(NaN + 0i) = NaN + 0i, e^(NaN + iy) = NaN + iNaN for y ≠ 0.
func CExp(z complex128) complex128 {
	x, y := real(z), imag(z)
	switch {
	case y == 0:
		return complex(Exp(x), y)
	case math.IsInf(x, 1) && !isFinite(y):
		return complex(x, nan)
	case math.IsInf(x, -1) && !isFinite(y):
		return complex(0, math.Copysign(0, y))
	case !isFinite(y):
		return complex(nan, nan)
	}
	s, c := sincos(y)
	return complex(expMul(x, c), expMul(x, s))
}

// CExpm1 returns e^z - 1, accurate for small |z|: for z = x + iy,
// (expm1(x)·cos y - 2 sin²(y/2)) + i·e^x·sin y, whose real part does not
// cancel for small x and y (e^x cos y - 1 would). Where that form could
// overflow (x > 709) and for non-finite z it is CExp(z) - 1; y = 0 gives
// expm1(x) + i·y. Special values follow from CExp's: e^(-∞ + iy) - 1 =
// -1 + 0i, e^(+∞ + iy) - 1 = +∞·cis y.
func CExpm1(z complex128) complex128 {
	x, y := real(z), imag(z)
	switch {
	case y == 0:
		return complex(Expm1(x), y)
	case !isFinite(x) || !isFinite(y) || x > expSafe:
		w := CExp(z)
		return complex(real(w)-1, imag(w))
	}
	s, c := sincos(y)
	h, _ := sincos(y / 2)
	return complex(math.Expm1(x)*c-2*h*h, math.Exp(x)*s)
}

// CLog returns the principal logarithm log|z| + i·arg z, arg z in [-π, π],
// with the branch cut along the negative real axis: log(-x ± 0i) =
// log x ± iπ.
//
// log|z| is taken without forming |z| where it would overflow or
// underflow (log|max + max·i| = 710.13, log|5e-324| = -744.44), and as
// log1p(...)/2 of |z|²-1 computed without cancellation where |z| is near 1,
// so that it keeps its relative accuracy there; arg z is Atan2(y, x).
// Special values (G.6.3.2): log(-0 + 0i) = -∞ + iπ, log(+0 + 0i) = -∞ +
// 0i; log(x + i∞) = +∞ + iπ/2; log(-∞ + iy) = +∞ + iπ, log(+∞ + iy) = +∞
// + 0i for finite y ≥ 0; log(±∞ + i∞) = +∞ + iπ/4, +∞ + i3π/4; log(±∞ +
// iNaN) and log(NaN ± i∞) = +∞ + iNaN; otherwise NaN + iNaN where a part
// is NaN.
func CLog(z complex128) complex128 {
	x, y := real(z), imag(z)
	return complex(logHypot(x, y), Atan2(y, x))
}

// CLog1p returns log(1 + z), accurate for small |z|: the imaginary part is
// arg(1 + z) = Atan2(y, 1+x), the real part log|1 + z|, which is
// log1p(x(2+x) + y²)/2 for x > -1/2 (and |z| < 2^500), a sum that cancels
// only where the imaginary part dominates, and log|(1+x) + iy| otherwise
// (1 + x being exact for -3 <= x <= -1/2, and its rounding negligible
// beyond). It has log's branch cut, moved to x < -1: log1p(-2.5 - 0i) =
// log 1.5 - iπ. y = 0 gives log1p(x) + i·y for x >= -1; non-finite z gives
// CLog(1 + z).
func CLog1p(z complex128) complex128 {
	x, y := real(z), imag(z)
	switch {
	case !isFinite(x) || !isFinite(y):
		return CLog(complex(1+x, y))
	case y == 0 && x >= -1:
		return complex(math.Log1p(x), y)
	}
	u := 1 + x
	var re float64
	if x > -0.5 && math.Abs(x) < 0x1p500 && math.Abs(y) < 0x1p500 {
		re = math.Log1p(x*(2+x)+y*y) / 2
	} else {
		re = logHypot(u, y)
	}
	return complex(re, Atan2(y, u))
}

// CSqrt returns the principal square root of z, the one with a
// non-negative real part, with the branch cut along the negative real
// axis: sqrt(-4 ± 0i) = 0 ± 2i.
//
// Kahan's method: for z = x + iy, t = sqrt((|x| + |z|)/2) and sqrt z = t +
// i·y/(2t) for x >= 0, |y|/(2t) + i·copysign(t, y) for x < 0, so that
// neither part cancels. z is scaled by 2^-2 when its larger part is above
// 2^1020 (|x| + |z| would overflow) and by 2^600 below 2^-1000 (half of it
// would lose bits: sqrt(0 + 5e-324i) = 1.57e-162·(1 + i)), the result by
// the square root of that. Special values (G.6.4.2): sqrt(±0 ± 0i) = +0 ±
// 0i; sqrt(x ± i∞) = +∞ ± i∞ for every x, NaN included; sqrt(x + iNaN) =
// NaN + iNaN for finite x; sqrt(-∞ + iy) = +0 + i∞·sign y and sqrt(+∞ + iy)
// = +∞ + i0·sign y for finite y; sqrt(-∞ + iNaN) = NaN + i∞;
// sqrt(+∞ + iNaN) = +∞ + iNaN; sqrt(NaN + iy) = NaN + iNaN. (The sign of
// the NaN gives that of the infinity in sqrt(-∞ + iNaN), so that
// sqrt(conj z) = conj(sqrt z) holds bit for bit.)
func CSqrt(z complex128) complex128 {
	x, y := real(z), imag(z)
	switch {
	case math.IsInf(y, 0):
		return complex(inf, y)
	case x != x:
		return complex(nan, nan)
	case math.IsInf(x, 1):
		if y != y {
			return complex(x, y)
		}
		return complex(x, math.Copysign(0, y))
	case math.IsInf(x, -1):
		if y != y {
			return complex(nan, math.Copysign(inf, y))
		}
		return complex(0, math.Copysign(inf, y))
	case y != y:
		return complex(nan, nan)
	case x == 0 && y == 0:
		return complex(0, y)
	}
	a, b := math.Abs(x), math.Abs(y)
	scale := 1.0
	switch m := max(a, b); {
	case m > 0x1p1020:
		a, b, scale = a/4, b/4, 2
	case m < 0x1p-1000:
		a, b, scale = a*two600, b*two600, twoM300
	}
	t := math.Sqrt((a + Hypot(a, b)) / 2)
	u := b / (2 * t) // t >= sqrt(max(a, b)/2): no overflow
	if x >= 0 {
		return complex(t*scale, math.Copysign(u*scale, y))
	}
	return complex(u*scale, math.Copysign(t*scale, y))
}

// CRsqrt returns 1/sqrt z, with sqrt's branch cut: for s = CSqrt(z) = p +
// iq, 1/s = (p - iq)/(p² + q²) by Smith's scaling (t = q/p, 1/s = (1 -
// it)/(p + qt) for p >= |q|, and the mirror image otherwise), so that it
// neither overflows nor underflows where the result does not, and the
// imaginary part has the sign of -q, zeros included (rsqrt(conj z) =
// conj(rsqrt z)). rsqrt(±0 ± 0i) = +∞ + iNaN (an infinity, as 1/0);
// rsqrt(z) = 0 ∓ 0i where sqrt z has an infinite part; NaN + iNaN where it
// is NaN.
func CRsqrt(z complex128) complex128 {
	s := CSqrt(z)
	p, q := real(s), imag(s)
	switch {
	case p == 0 && q == 0:
		return complex(inf, nan)
	case math.IsInf(p, 0) || math.IsInf(q, 0):
		return complex(0, -math.Copysign(0, q))
	case p != p || q != q:
		return complex(nan, nan)
	case p >= math.Abs(q):
		t := q / p
		d := p + q*t
		return complex(1/d, -t/d)
	}
	t := p / q
	d := q + p*t
	return complex(t/d, -1/d)
}

// CSign returns z/|z|, the point of the unit circle in z's direction, and
// z itself for z = ±0 ± 0i. z is first scaled by a power of two (exactly)
// so that its larger part lies in [1, 2), so that |z| neither overflows
// nor loses bits to underflow (sign(max + max·i) = sign(5e-324 + 5e-324i)
// = (1 + i)/√2).
// An infinite part gives the direction: ±1 for it, ±0 for a finite part,
// so sign(∞ + ∞i) = (1 + i)/√2; a NaN part with no infinite one gives NaN.
// Zero parts keep their sign, so that sign(conj z) = conj(sign z) and
// sign(-z) = -sign(z) bit for bit.
func CSign(z complex128) complex128 {
	x, y := real(z), imag(z)
	switch {
	case x == 0 && y == 0:
		return z
	case math.IsInf(x, 0) || math.IsInf(y, 0):
		x, y = finiteDir(x), finiteDir(y)
	case x != x || y != y:
		return complex(nan, nan)
	default:
		_, e := math.Frexp(max(math.Abs(x), math.Abs(y)))
		x, y = math.Ldexp(x, 1-e), math.Ldexp(y, 1-e)
	}
	a := Hypot(x, y)
	return complex(x/a, y/a)
}

// finiteDir maps ±Inf to ±1 and finite values to ±0 (NaN stays NaN).
func finiteDir(x float64) float64 {
	switch {
	case math.IsInf(x, 0):
		return math.Copysign(1, x)
	case x != x:
		return x
	}
	return math.Copysign(0, x)
}

// powIntMax bounds the integer exponents that CPow raises to by repeated
// squaring: at most 10 complex products.
const powIntMax = 64

// CPow returns a**b, the principal value e^(b·log a) (log with CLog's
// branch cut along the negative real axis).
//
//   - b = 0 gives 1 for every a (NaN included), and a = 0 gives 0 for
//     Re b > 0 (|a^b| = |a|^Re b·e^(-Im b·arg a) tends to 0), +Inf + 0i
//     for Re b < 0 (as 1/0), and NaN + iNaN for Re b = 0 or a non-finite
//     Im b (the limit does not exist).
//   - For a finite a and a real integer b with |b| <= 64, a^b is the
//     product of repeated squares of a (its reciprocal for b < 0), exact
//     where the products are (Gaussian integers) and free of the rounding
//     of arg a·b: (iy)^3 = -i·y³ also where y³ overflows; b = 1 gives a
//     itself.
//   - For other real b it is |a|^b·cis(b·arg a), |a|^b by Pow (so
//     that a positive real a gives Pow's value, ±∞ included:
//     2.5^∞ = +∞ + 0i), and e^(b·log a) by CExp beyond |a| = MaxFloat64.
//     Where b·arg a is not finite (b = ±∞), the result is 0 if |a|^b is,
//     ∞ + iNaN (no direction) if |a|^b is infinite, NaN + iNaN otherwise;
//     |a| = 1 gives NaN + iNaN for b = ±∞ and NaN (e^(b·log a) with
//     b·0 = NaN), unlike math.Pow(1, b) = 1.
//   - Otherwise it is CExp(b·log a), the product formed by C99's rules
//     (mul), and for real b without the NaN of 0·∞ of its zero imaginary
//     part, so that infinite a have the directions of the limits:
//     (∞ + ∞i)^3 = -∞ + ∞i. For finite values, the rounding errors of
//     the parts of b·log a (by FMA) correct the result to first order, so
//     that its error is that of log a times |b|.
func CPow(a, b complex128) complex128 {
	br, bi := real(b), imag(b)
	switch {
	case b == 0:
		return 1
	case a == 0 && isFinite(bi):
		switch {
		case br > 0:
			return 0
		case br < 0:
			return complex(inf, 0)
		}
		return complex(nan, nan)
	case a == 0:
		return complex(nan, nan)
	}
	finite := isFinite(real(a)) && isFinite(imag(a))
	if bi == 0 && br == 1 {
		return a
	}
	if finite && bi == 0 && br == math.Trunc(br) && math.Abs(br) <= powIntMax {
		return powInt(a, int(br))
	}
	if bi == 0 && finite {
		if m := Hypot(real(a), imag(a)); !math.IsInf(m, 0) {
			r, t, tLo := Pow(m, br), 0.0, 0.0
			if imag(a) != 0 || real(a) < 0 {
				th := Atan2(imag(a), real(a))
				t = float64(br * th)
				tLo = math.FMA(br, th, -t) // t + tLo = br·θ to 2^-106
			}
			switch {
			case r == 1 && !isFinite(br): // 1^±∞ and 1^NaN: e^(b·0) is NaN
				return complex(nan, nan)
			case isFinite(t):
			case r == 0:
				return 0
			case math.IsInf(r, 0):
				return complex(inf, nan) // no direction
			default:
				return complex(nan, nan)
			}
			s, c := sincos(t)
			s, c = s+tLo*c, c-tLo*s
			im := s
			if s != 0 {
				im = r * s
			}
			return complex(r*c, im)
		}
	}
	l := CLog(a)
	var w complex128
	if bi == 0 { // b·log a, without the 0·∞ of the zero part of b
		w = CExp(complex(br*real(l), br*imag(l)))
	} else {
		w = CExp(mul(b, l))
	}
	if !finite || !isFinite(br) || !isFinite(bi) || !isFinite(real(w)) || !isFinite(imag(w)) || w == 0 {
		return w
	}
	// Correct w = e^(u + iv), u + iv = b·log a rounded, by the rounding
	// errors du, dv of u and v: e^(du + i·dv) ≈ 1 + du + i·dv.
	_, du := diffOfProducts(br, real(l), bi, imag(l))
	_, dv := diffOfProducts(br, imag(l), -bi, real(l))
	return w + w*complex(du, dv)
}

// diffOfProducts returns p·q - r·s as hi + lo, hi the rounded value of
// the sum p·q - r·s of the rounded products and lo its error to about
// 2^-104 relative (the products' errors by FMA, the subtraction's by Knuth's
// two-sum), for finite arguments.
func diffOfProducts(p, q, r, s float64) (hi, lo float64) {
	a, b := float64(p*q), float64(-(r * s)) // rounded, not fused into a + b
	ea, eb := math.FMA(p, q, -a), -math.FMA(r, s, b)
	hi = a + b
	z := hi - a
	lo = (a - (hi - z)) + (b - z) + (ea + eb)
	return hi, lo
}

// mul returns the product z·w by C99's Annex G (G.5.1): the textbook
// formula, and where it gives NaN + iNaN for an infinite factor (∞·0
// terms) or from overflowing terms, the product recomputed with each
// infinite part boxed to ±1, the other parts of an infinite factor and the
// NaN parts of the other factor to ±0, and scaled by ∞: (∞ + ∞i)·(0 + i) =
// -∞ + ∞i, not NaN + iNaN.
func mul(z, w complex128) complex128 {
	a, b, c, d := real(z), imag(z), real(w), imag(w)
	ac, bd, ad, bc := float64(a*c), float64(b*d), float64(a*d), float64(b*c) // not fused
	x, y := ac-bd, ad+bc
	if x == x || y == y {
		return complex(x, y)
	}
	box := func(p, q *float64) bool { // box an infinite factor p + iq
		if !math.IsInf(*p, 0) && !math.IsInf(*q, 0) {
			return false
		}
		*p, *q = math.Copysign(boolTo1(math.IsInf(*p, 0)), *p), math.Copysign(boolTo1(math.IsInf(*q, 0)), *q)
		return true
	}
	zeroNaN := func(ps ...*float64) {
		for _, p := range ps {
			if *p != *p {
				*p = math.Copysign(0, *p)
			}
		}
	}
	recalc := false
	if box(&a, &b) {
		zeroNaN(&c, &d)
		recalc = true
	}
	if box(&c, &d) {
		zeroNaN(&a, &b)
		recalc = true
	}
	if !recalc && (math.IsInf(ac, 0) || math.IsInf(bd, 0) || math.IsInf(ad, 0) || math.IsInf(bc, 0)) {
		zeroNaN(&a, &b, &c, &d)
		recalc = true
	}
	if recalc {
		x, y = inf*(a*c-b*d), inf*(a*d+b*c)
	}
	return complex(x, y)
}

func boolTo1(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// powInt returns a^n for finite a ≠ 0 and 0 < |n| <= powIntMax by
// repeated squaring: a is scaled by 2^-s (exactly) so that its larger
// part lies in [1/2, 1), a^|n| formed as the product of the squares
// a^(2^k) of the bits of |n| (no product overflows or underflows: |a|^|n|
// stays within [2^-64, 2^32]), its reciprocal for n < 0, and the parts
// scaled back by 2^(n·s), rounded once where they become subnormal. The
// relative error grows by about one rounding per product and doubles with
// each square: about |n|/2 eps.
func powInt(a complex128, n int) complex128 {
	if n == 1 {
		return a
	}
	_, s := math.Frexp(max(math.Abs(real(a)), math.Abs(imag(a))))
	a = complex(math.Ldexp(real(a), -s), math.Ldexp(imag(a), -s))
	m := n
	if m < 0 {
		m = -m
	}
	var r complex128
	first := true
	for p := a; ; {
		if m&1 != 0 {
			if first {
				r, first = p, false
			} else {
				r *= p
			}
		}
		m >>= 1
		if m == 0 {
			break
		}
		p *= p
	}
	if n < 0 {
		r = 1 / r
	}
	return complex(math.Ldexp(real(r), n*s), math.Ldexp(imag(r), n*s))
}
