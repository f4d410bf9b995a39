package elementwise

import (
	"math"

	"github.com/tenferro-go/tenferro/internal/kernel/simd"
	"github.com/tenferro-go/tenferro/internal/kernel/vmath"
	"github.com/tenferro-go/tenferro/internal/op"
	"github.com/tenferro-go/tenferro/internal/op/scalar"
)

// The real binary functions Pow, Atan2 and Hypot. Each runs its common
// case (finite arguments in range) as a loop over a block, through vmath's
// vector kernels where it needs a transcendental, and hands the rare
// special arguments (zeros, infinities, NaN, extreme magnitudes) to the
// catalog's scalar definition, so that the special values are exactly
// the catalog's.

// mathBlock is the number of elements a binary function stages in float64
// at a time (2 KiB: in L1 beside its arguments).
const mathBlock = 256

// π and π/2 as a float64 and the rest of their values.
const (
	piHi     = math.Pi
	piLo     = 1.2246467991473532e-16
	halfPiHi = math.Pi / 2
	halfPiLo = 6.123233995736766e-17
)

// floatBinary sets z[i] = k(x[i], y[i]) for the real binary functions.
func floatBinary[F float32 | float64](k op.Kind, z, x, y []F) {
	x, y = x[:len(z)], y[:len(z)]
	switch k {
	case op.Pow:
		switch zz := any(z).(type) {
		case []float32:
			pow32(zz, any(x).([]float32), any(y).([]float32))
		case []float64:
			pow64(zz, any(x).([]float64), any(y).([]float64))
		}
	case op.Atan2:
		atan2Float(z, x, y)
	case op.Hypot:
		switch zz := any(z).(type) {
		case []float32:
			hypot32(zz, any(x).([]float32), any(y).([]float32))
		case []float64:
			hypot64(zz, any(x).([]float64), any(y).([]float64))
		}
	default:
		panic("elementwise: no kernel for " + k.String())
	}
}

// pow32 sets z[i] = x[i]^y[i] for float32 as e^(y·ln x) evaluated in
// float64 by vmath's Log and Exp (each within about an ulp of float64), so
// that the float32 result is math.Pow's rounded to float32 except, rarely,
// by one ulp where the float64 value lies within its error of a rounding
// boundary. A positive finite base with a finite exponent is the common
// case; every other pair gets math.Pow's value through powSpecial.
func pow32(z, x, y []float32) {
	var buf [mathBlock]float64
	for lo := 0; lo < len(z); lo += mathBlock {
		hi := min(lo+mathBlock, len(z))
		a := buf[:hi-lo]
		xs, ys, zs := x[lo:hi], y[lo:hi], z[lo:hi]
		xs, ys, zs = xs[:len(a)], ys[:len(a)], zs[:len(a)]
		for i, v := range xs {
			a[i] = math.Abs(float64(v))
		}
		vmath.Log(a, a)
		for i, v := range ys {
			a[i] *= float64(v)
		}
		vmath.Exp(a, a)
		for i, v := range a {
			xi, yi := xs[i], ys[i]
			if xi > 0 && xi <= math.MaxFloat32 && yi-yi == 0 {
				zs[i] = float32(v)
				continue
			}
			zs[i] = float32(powSpecial(float64(xi), float64(yi), v))
		}
	}
}

// pow64 sets z[i] = x[i]^y[i] for float64 as e^(y·ln|x|) with ln|x| in
// double-double precision (powLog) and the product's low part applied to
// vmath's e^hi to first order: e^(hi+lo) = e^hi·(1 + lo). The logarithm
// and the product carry about 2^-62 relative error, so the result is
// within vmath's Exp bound (1 ulp) plus a fraction of an ulp. Positive
// finite bases with finite exponents are the common case; the other pairs
// get math.Pow's value (powSpecial), negative bases through the same
// e^(y·ln|x|).
func pow64(z, x, y []float64) {
	var hiBuf, loBuf [mathBlock]float64
	for lo := 0; lo < len(z); lo += mathBlock {
		hi := min(lo+mathBlock, len(z))
		th, tl := hiBuf[:hi-lo], loBuf[:hi-lo]
		xs, ys, zs := x[lo:hi], y[lo:hi], z[lo:hi]
		xs, ys, zs = xs[:len(th)], ys[:len(th)], zs[:len(th)]
		for i, v := range xs {
			lh, ll := powLog(math.Abs(v))
			yi := ys[i]
			p := yi * lh
			th[i], tl[i] = p, math.FMA(yi, lh, -p)+yi*ll
		}
		// Keep x before the results overwrite it (z may be x or y).
		vmath.Exp(th, th)
		for i, e := range th {
			xi, yi := xs[i], ys[i]
			v := math.FMA(e, tl[i], e)
			if v != v { // e is 0 or +Inf
				v = e
			}
			if !(xi > 0 && xi <= math.MaxFloat64 && yi-yi == 0) {
				v = powSpecial(xi, yi, v)
			}
			zs[i] = v
		}
	}
}

// Constants of powLog: ln 2 in two parts, the first with 21 trailing zero
// bits so that k·ln2Hi is exact for every binary exponent k, and the
// coefficients 2/(2j+3) of the series ln((1+s)/(1-s)) = 2s + s³·Σ_j
// 2/(2j+3)·s^(2j).
const (
	ln2Hi = 6.93147180369123816490e-01
	ln2Lo = 1.90821492927058770002e-10
)

var atanhSeries = [...]float64{2.0 / 3, 2.0 / 5, 2.0 / 7, 2.0 / 9, 2.0 / 11, 2.0 / 13, 2.0 / 15, 2.0 / 17, 2.0 / 19, 2.0 / 21, 2.0 / 23}

// powLog returns ln a = hi + lo, |lo| at most half an ulp of hi, for a
// positive finite a (other values give garbage, which pow64 replaces): a = 2^k·m with m in [√½, √2) and
// ln m = 2·atanh(s), s = (m-1)/(m+1) carried as s + sLo, so that
// ln a = k·ln2 + 2s + (2sLo + s³·Σ_j 2/(2j+3)·s^(2j)); |s| <= 0.1716, and
// eleven terms of the series leave less than 2^-64 of 2s behind.
func powLog(a float64) (hi, lo float64) {
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
	z := s * s
	// The series by Estrin's scheme: c0 + c1·z + ... + c10·z^10 in four
	// dependent steps instead of ten.
	c := &atanhSeries
	z2 := z * z
	z4 := z2 * z2
	q0 := math.FMA(math.FMA(c[3], z, c[2]), z2, math.FMA(c[1], z, c[0]))
	q1 := math.FMA(math.FMA(c[7], z, c[6]), z2, math.FMA(c[5], z, c[4]))
	q2 := math.FMA(c[10], z2, math.FMA(c[9], z, c[8]))
	r := math.FMA(math.FMA(q2, z4, q1), z4, q0)
	kd := float64(k)
	a1, a2 := kd*ln2Hi, 2*s
	hi = a1 + a2
	bb := hi - a1
	err := (a1 - (hi - bb)) + (a2 - bb)
	lo = err + 2*sLo + z*s*r + kd*ln2Lo
	h := hi + lo // renormalized: |lo| at most half an ulp of hi
	return h, (hi - h) + lo
}

// powSpecial returns x^y for a base that is not positive and finite or an
// exponent that is not finite, given v = e^(y·ln|x|): a negative finite
// base takes the sign of an odd integer exponent and gives NaN for an
// exponent that is not an integer, as math.Pow; zeros, infinities and NaN
// take math.Pow's value.
func powSpecial(x, y, v float64) float64 {
	switch {
	case x == 0 || x-x != 0 || y-y != 0: // ±0, ±Inf or NaN
		return math.Pow(x, y)
	case y != math.Trunc(y):
		return math.NaN()
	case math.Abs(y) < 1<<53 && int64(y)&1 == 1:
		return -v
	}
	return v
}

// atan2Float sets z[i] = atan2(x[i], y[i]), the angle of the point (y[i],
// x[i]), in float64: t = atan(min/max) of the moduli (vector loops and
// vmath's Atan, 1 ulp), then c + s·t by the quadrant (t, π/2 - t, π - t or
// π/2 + t, the constant carried in two parts so that each step rounds
// once) and the sign of x. Within about 2 ulps of float64 (float32 results
// round the float64 value once). Zeros and infinities come out of the same
// formula with the catalog's signs; two zeros, two infinities and NaN,
// whose ratio is not a number, go to scalar.Atan2, the catalog's
// definition.
func atan2Float[F float32 | float64](z, x, y []F) {
	// By quadrant index (|x| > |y|) + 2·(y < 0): r = (cHi + sign·t) + cLo.
	cHi := [4]float64{0, halfPiHi, piHi, halfPiHi}
	cLo := [4]float64{0, halfPiLo, piLo, halfPiLo}
	sign := [4]float64{1, -1, -1, 1}
	var cx, cy, num, den, top [mathBlock]float64
	for lo := 0; lo < len(z); lo += mathBlock {
		hi := min(lo+mathBlock, len(z))
		q, d := num[:hi-lo], den[:hi-lo]
		xs, ys, zs := block64(cx[:], x[lo:hi]), block64(cy[:], y[lo:hi]), z[lo:hi]
		zs = zs[:len(q)]
		simd.Unary(simd.Abs, q, xs, 0, 0)
		simd.Unary(simd.Abs, d, ys, 0, 0)
		// q = min/max: NaN for two zeros, two infinities or a NaN.
		m := top[:len(q)]
		simd.VV(simd.GoMax, m, q, d)
		simd.VV(simd.GoMin, q, q, d)
		simd.VV(simd.Div, q, q, m)
		vmath.Atan(q, q)
		for i, t := range q {
			if t != t {
				zs[i] = F(scalar.Atan2(xs[i], ys[i]))
				continue
			}
			zs[i] = F(math.Copysign(quadrant(xs[i], ys[i], t, &cHi, &cLo, &sign), xs[i]))
		}
	}
}

// quadrant returns atan2(|n|·, d)'s magnitude from t = atan(min/max) of the
// moduli of n and d (neither NaN), without branches: the index is |n| >
// |d| (the moduli's bits compare as integers) plus 2 for a d below zero.
func quadrant(n, d, t float64, cHi, cLo, sign *[4]float64) float64 {
	an := math.Float64bits(n) &^ (1 << 63)
	db := math.Float64bits(d)
	ad := db &^ (1 << 63)
	k := (ad-an)>>63 | (db>>63)&(-ad>>63)<<1
	return (cHi[k&3] + sign[k&3]*t) + cLo[k&3]
}

// block64 returns v as float64: v itself for float64, else v converted
// into buf (len(buf) >= len(v)).
func block64[F float32 | float64](buf []float64, v []F) []float64 {
	if w, ok := any(v).([]float64); ok {
		return w
	}
	buf = buf[:len(v)]
	for i, e := range v {
		buf[i] = float64(e)
	}
	return buf
}

// hypot64 sets z[i] = √(x[i]² + y[i]²): the square root (vmath's, correctly
// rounded) of the sum of squares, within about an ulp (three roundings
// before the root halves their effect, one after), when that sum lies in
// [2^-1000, 2^1000], where no square overflows or loses bits that matter;
// math.Hypot's value otherwise (zeros, infinities, NaN, extreme
// magnitudes). z may be x or y: a block is written once it is done.
func hypot64(z, x, y []float64) {
	const low, span = 0x1p-1000, 0x1p1000
	lb, sb := math.Float64bits(low), math.Float64bits(span)-math.Float64bits(low)
	var sq, sq2 [mathBlock]float64
	for lo := 0; lo < len(z); lo += mathBlock {
		hi := min(lo+mathBlock, len(z))
		xs, ys, zs := x[lo:hi], y[lo:hi], z[lo:hi]
		s, t := sq[:len(zs)], sq2[:len(zs)]
		simd.Unary(simd.Square, s, xs, 0, 0)
		simd.Unary(simd.Square, t, ys, 0, 0)
		simd.VV(simd.Add, s, s, t)
		out := false // a sum outside [low, span] (NaN included)
		for i, v := range s {
			if math.Float64bits(v)-lb > sb {
				out = true
				t[i] = 1
			} else {
				t[i] = 0
			}
		}
		vmath.Sqrt(s, s)
		if out {
			xs, ys = xs[:len(s)], ys[:len(s)]
			for i, f := range t {
				if f != 0 {
					s[i] = math.Hypot(xs[i], ys[i])
				}
			}
		}
		copy(zs, s)
	}
}

// hypot32 sets z[i] = √(x[i]² + y[i]²) in float64, where the squares of
// float32 values are exact and never overflow: the float32 result is
// rounded from an almost correctly rounded float64. A NaN beside an
// infinity gives +Inf (math.Hypot).
func hypot32(z, x, y []float32) {
	var buf [mathBlock]float64
	for lo := 0; lo < len(z); lo += mathBlock {
		hi := min(lo+mathBlock, len(z))
		s := buf[:hi-lo]
		xs, ys, zs := x[lo:hi], y[lo:hi], z[lo:hi]
		xs, ys, zs = xs[:len(s)], ys[:len(s)], zs[:len(s)]
		for i := range s {
			a, b := float64(xs[i]), float64(ys[i])
			s[i] = a*a + b*b
		}
		vmath.Sqrt(s, s)
		for i, h := range s {
			if h != h {
				h = math.Hypot(float64(xs[i]), float64(ys[i]))
			}
			zs[i] = float32(h)
		}
	}
}
