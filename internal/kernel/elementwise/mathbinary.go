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

// blockAt returns the block of z, x and y that starts at lo: at most
// mathBlock elements, all three of one length (x and y at least as long as
// z).
func blockAt[F float32 | float64](z, x, y []F, lo int) (zs, xs, ys []F) {
	zs = z[lo:min(lo+mathBlock, len(z))]
	return zs, x[lo:][:len(zs)], y[lo:][:len(zs)]
}

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
// that the float32 result is scalar.Pow's rounded to float32 except, rarely,
// by one ulp where the float64 value lies within its error of a rounding
// boundary. A positive finite base with a finite exponent is the common
// case; every other pair gets its special value and sign from
// scalar.PowFinish.
func pow32(z, x, y []float32) {
	var buf [mathBlock]float64
	for lo := 0; lo < len(z); lo += mathBlock {
		zs, xs, ys := blockAt(z, x, y, lo)
		a := buf[:len(zs)]
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
			if xi > 0 && xi <= math.MaxFloat32 && yi-yi == 0 && yi != 1 {
				zs[i] = float32(v)
				continue
			}
			zs[i] = float32(scalar.PowFinish(float64(xi), float64(yi), v, 0))
		}
	}
}

// pow64 sets z[i] = x[i]^y[i] for float64 as scalar.Pow defines it:
// e^(y·ln|x|) with ln|x| in double-double (scalar.LogDD), the exponential
// of the product's high part by vmath's Exp and its low part applied to
// first order (scalar.PowFinish, which also gives the special values):
// within 2 ulps (1 ulp of vmath's Exp and |y·ln x|·2^-62).
func pow64(z, x, y []float64) {
	var hiBuf, loBuf [mathBlock]float64
	for lo := 0; lo < len(z); lo += mathBlock {
		zs, xs, ys := blockAt(z, x, y, lo)
		th, tl := hiBuf[:len(zs)], loBuf[:len(zs)]
		for i, v := range xs {
			lh, ll := scalar.LogDD(math.Abs(v))
			yi := ys[i]
			p := yi * lh
			th[i], tl[i] = p, math.FMA(yi, lh, -p)+yi*ll
		}
		vmath.Exp(th, th)
		for i, e := range th {
			xi, yi := xs[i], ys[i]
			if v := math.FMA(e, tl[i], e); xi > 0 && xi <= math.MaxFloat64 && yi-yi == 0 && yi != 1 && v == v {
				zs[i] = v
				continue
			}
			zs[i] = scalar.PowFinish(xi, yi, e, tl[i])
		}
	}
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
		zs, xb, yb := blockAt(z, x, y, lo)
		q, d := num[:len(zs)], den[:len(zs)]
		xs, ys := block64(cx[:], xb), block64(cy[:], yb)
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

// hypot64 sets z[i] = scalar.Hypot(x[i], y[i]) bit for bit: the square
// root (vmath's, correctly rounded) of the sum of the rounded squares
// where the larger magnitude lies in [2^-500, 2^500] and scalar.Hypot
// does not scale (vector loops), and scalar.Hypot itself elsewhere
// (zeros, infinities, NaN, extreme magnitudes). z may be x or y: a block
// is written once it is done.
func hypot64(z, x, y []float64) {
	lb := math.Float64bits(0x1p-500)
	sb := math.Float64bits(0x1p500) - lb
	var sq, sq2 [mathBlock]float64
	for lo := 0; lo < len(z); lo += mathBlock {
		zs, xs, ys := blockAt(z, x, y, lo)
		s, t := sq[:len(zs)], sq2[:len(zs)]
		simd.Unary(simd.Square, s, xs, 0, 0)
		simd.Unary(simd.Square, t, ys, 0, 0)
		simd.VV(simd.Add, s, s, t)
		vmath.Sqrt(s, s)
		for i := range s {
			// The larger magnitude's bits, outside [2^-500, 2^500]
			// (NaN and infinities included): scalar.Hypot scales.
			m := max(math.Float64bits(xs[i])&^(1<<63), math.Float64bits(ys[i])&^(1<<63))
			if m-lb > sb {
				s[i] = scalar.Hypot(xs[i], ys[i])
			}
		}
		copy(zs, s)
	}
}

// hypot32 sets z[i] = float32(scalar.Hypot32(x[i], y[i])): √(x² + y²) in
// float64, where the squares of float32 values are exact and never
// overflow, rounded to float32 once; a NaN beside an infinity gives +Inf.
func hypot32(z, x, y []float32) {
	var buf [mathBlock]float64
	for lo := 0; lo < len(z); lo += mathBlock {
		zs, xs, ys := blockAt(z, x, y, lo)
		s := buf[:len(zs)]
		for i := range s {
			a, b := float64(xs[i]), float64(ys[i])
			s[i] = a*a + b*b
		}
		vmath.Sqrt(s, s)
		for i, h := range s {
			if h != h {
				h = scalar.Hypot32(xs[i], ys[i])
			}
			zs[i] = float32(h)
		}
	}
}
