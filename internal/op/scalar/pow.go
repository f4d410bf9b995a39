package scalar

import "math"

// Pow returns x^y for real x and y: math.Pow's value for the special
// arguments (a zero, infinite or NaN base, or an exponent that is not
// finite), NaN for a negative base with an exponent that is not an
// integer (as NumPy), and otherwise e^(y·ln|x|) with the sign of an odd
// integer exponent of a negative base. ln|x| is carried in double-double
// (LogDD) and the product y·ln|x| = hi + lo to about 2^-62, so the result
// is within math.Exp's error of e^hi plus |y·ln x|·2^-62: within 2 ulps
// (1 for moderate |y·ln x|), where math.Pow's repeated squaring misses by
// up to tens of ulps when |y·ln x| is large.
func Pow(x, y float64) float64 {
	hi, lo := LogDD(math.Abs(x))
	p := y * hi
	lo = math.FMA(y, hi, -p) + y*lo
	if p > 709 && p < 710 && x-x == 0 && x != 0 && y-y == 0 && y != 1 {
		// Near the overflow threshold e^p may overflow where e^(p+lo)
		// does not: e^(p+lo) = 2·e^((p - ln2Hi) + (lo - ln2Lo)), the
		// difference exact (both are multiples of 2^-43).
		return 2 * PowFinish(x, y, math.Exp(p-ln2Hi), lo-ln2Lo)
	}
	return PowFinish(x, y, math.Exp(p), lo)
}

// PowFinish returns Pow(x, y) given e = e^hi and lo, where hi + lo =
// y·ln|x| as Pow forms them: x itself for y = 1, e·(1 + lo) for a
// positive finite base and a finite exponent (e itself where e is 0 or
// +Inf), and the special values and signs of Pow otherwise.
func PowFinish(x, y, e, lo float64) float64 {
	v := math.FMA(e, lo, e)
	if v != v { // e is 0 or +Inf and lo of the other sign, or y·ln|x| is NaN
		v = e
	}
	switch {
	case y == 1: // exactly x, as math.Pow, also at the ends of the range
		return x
	case x > 0 && x <= math.MaxFloat64 && y-y == 0:
		return v
	case x == 0 || x-x != 0 || y-y != 0: // ±0, ±Inf or NaN
		return math.Pow(x, y)
	case y != math.Trunc(y):
		return math.NaN()
	case math.Abs(y) < 1<<53 && int64(y)&1 == 1:
		return -v
	}
	return v
}

// The series of ln((1+s)/(1-s)) = 2s + (2/3)·s³ + s⁵·Σ_j 2/(2j+5)·s^(2j):
// 2/3 in two parts (its leading term is carried in double-double) and the
// coefficients of the rest.
const (
	twoThirdsHi = 2.0 / 3
	twoThirdsLo = 3.700743415417188e-17
)

var atanhTail = [...]float64{2.0 / 5, 2.0 / 7, 2.0 / 9, 2.0 / 11, 2.0 / 13, 2.0 / 15, 2.0 / 17, 2.0 / 19, 2.0 / 21, 2.0 / 23}

// LogDD returns ln a = hi + lo, |lo| at most half an ulp of hi, to about
// 2^-62 relative, for a positive finite a (other values give garbage): a
// = 2^k·m with m in [√½, √2), ln m = 2·atanh(s) for s = (m-1)/(m+1)
// carried as s + sLo (its exact residual), and ln a = k·ln2 + 2s +
// (2/3)·s³ + s⁵·Σ_j 2/(2j+5)·s^(2j), the first three terms summed exactly
// (two-sums) and (2/3)·s³ formed in double-double; |s| <= 0.1716, so the
// rest is at most 2^-12 of ln m and its rounding errors stay below
// 2^-63 of it, and its ten terms leave less than 2^-64 behind.
func LogDD(a float64) (hi, lo float64) {
	k := 0
	if a < 0x1p-1022 { // subnormal (or zero)
		a *= 0x1p52
		k = -52
	}
	b := math.Float64bits(a)
	k += int(b>>52&0x7ff) - 1023
	m := math.Float64frombits(b&(1<<52-1) | 1023<<52) // [1, 2)
	if m > math.Sqrt2 {
		m *= 0.5
		k++
	}
	f := m - 1 // exact
	d := m + 1
	dLo := (1 - d) + m // exact: d + dLo = m + 1
	inv := 1 / d
	s := f * inv
	sLo := (math.FMA(-s, d, f) - s*dLo) * inv // the exact residual of s, divided
	// s³ = s3 + s3Lo (with sLo's share) and (2/3)·s³ = t + tLo.
	z := s * s
	zLo := math.FMA(s, s, -z)
	s3 := z * s
	s3Lo := math.FMA(z, s, -s3) + zLo*s + 3*z*sLo
	t := twoThirdsHi * s3
	tLo := math.FMA(twoThirdsHi, s3, -t) + twoThirdsHi*s3Lo + twoThirdsLo*s3
	// The rest by Estrin's scheme: c0 + c1·z + ... + c9·z^9 in four
	// dependent steps instead of nine.
	c := &atanhTail
	z2 := z * z
	z4 := z2 * z2
	q0 := math.FMA(math.FMA(c[3], z, c[2]), z2, math.FMA(c[1], z, c[0]))
	q1 := math.FMA(math.FMA(c[7], z, c[6]), z2, math.FMA(c[5], z, c[4]))
	q2 := math.FMA(c[9], z, c[8])
	rest := s3 * z * math.FMA(math.FMA(q2, z4, q1), z4, q0)
	kd := float64(k)
	h1, e1 := twoSum(kd*ln2Hi, 2*s)
	h2, e2 := twoSum(h1, t)
	lo = e1 + e2 + (2*sLo + tLo + rest + kd*ln2Lo)
	hi = h2 + lo
	return hi, (h2 - hi) + lo
}
