package scalar

import (
	"math"
	"math/bits"
)

// twoOverPi holds the first 1344 bits of the binary fraction of 2/π:
// bit k of 2/π (weight 2^-k, k >= 1) is bit 63 - (k-1)%64 of word
// (k-1)/64. The tests check it against 2/π evaluated with math/big.
var twoOverPi = [21]uint64{
	0xa2f9836e4e441529, 0xfc2757d1f534ddc0, 0xdb6295993c439041, 0xfe5163abdebbc561,
	0xb7246e3a424dd2e0, 0x06492eea09d1921c, 0xfe1deb1cb129a73e, 0xe88235f52ebb4484,
	0xe99c7026b45f7e41, 0x3991d639835339f4, 0x9c845f8bbdf9283b, 0x1ff897ffde05980f,
	0xef2f118b5a0a6d1f, 0x6d367ecf27cb09b7, 0x4f463f669e5fea2d, 0x7527bac7ebe5f17b,
	0x3d0739f78a5292ea, 0x6bfb5fb11f8d5d08, 0x56033046fc7b6bab, 0xf0cfbc209af4361d,
	0xa9e391615ee61b08,
}

// π/2 in two parts: piO2Hi + piO2Lo = π/2 to about 2^-107.
const (
	piO2Hi = 0x1.921fb54442d18p0
	piO2Lo = 0x1.1a62633145c07p-54
)

// reduceThreshold is the magnitude from which sincos and tan reduce their
// argument themselves: below it math.Sincos does no reduction. Its
// reduction by π/4 in three parts (Cody-Waite, up to 2^29) leaves an
// absolute error of about 2^-102 per multiple of π/4, which is large
// relative to a reduced argument near 0: math.Sin(π) = 1.2246467991473515e-16
// is 6 eps off sin(3.141592653589793) = 1.2246467991473532e-16, and
// math.Tan(π/2) 1.6331239353195392e16 off 1.633123935319537e16. Beyond 2^29
// its Payne-Hanek reduction keeps only about 2^-54 of the reduced argument
// (math.Sin(MaxFloat64) = 0.0049619547891840837 for 0.0049619547891840620).
const reduceThreshold = 0.78539816339744828 // just below π/4

// sincos returns sin x and cos x, each within about 1 ulp. Below π/4 it
// is math.Sincos; beyond, x is reduced here (Payne-Hanek): x·2/π = q + f
// with an integer q and f in [-1/2, 1/2), from the exact product of x's
// 53-bit significand with 256 bits of 2/π starting where they stop
// contributing multiples of 4; f is kept to 128 bits, enough for the
// closest approach of a float64 to a multiple of π/2 (about 2^-61), and
// r = f·π/2 as a sum hi + lo of two float64s, so that sin r = sin hi +
// lo·cos hi to within 2^-100 relative. Then sin x and cos x are ±sin r or
// ±cos r by q mod 4. Infinite and NaN x give NaN.
func sincos(x float64) (s, c float64) {
	a := math.Abs(x)
	if !(a >= reduceThreshold) || math.IsInf(a, 0) {
		return math.Sincos(x)
	}
	q, hi, lo := reduceHalfPi(a)
	sh, ch := math.Sincos(hi)
	sr, cr := sh+lo*ch, ch-lo*sh
	switch q & 3 {
	case 0:
		s, c = sr, cr
	case 1:
		s, c = cr, -sr
	case 2:
		s, c = -sr, -cr
	default:
		s, c = -cr, sr
	}
	if x < 0 {
		s = -s
	}
	return s, c
}

// tan returns tan x, within 2.5 ulp. Below π/4 it is math.Tan, except
// below 2^-23 (math.Tan returns x itself where x² < 1e-14, 12 eps off for
// x = 8.9e-8), where it is x + x³/3 + 2x⁵/15; beyond, with sincos's
// reduction x = q·π/2 + hi + lo, t = tan hi + lo·(1 + tan² hi), and tan x
// = t for even q, -1/t for odd q (1 ulp of tan hi, doubled by the
// reciprocal).
func Tan(x float64) float64 {
	a := math.Abs(x)
	switch {
	case a < 0x1p-23:
		x2 := x * x
		return x + x*(x2*(1.0/3+x2*(2.0/15)))
	case !(a >= reduceThreshold) || math.IsInf(a, 0):
		return math.Tan(x)
	}
	q, hi, lo := reduceHalfPi(a)
	t := Tan(hi)
	t += lo * (1 + t*t)
	if q&1 != 0 {
		t = -1 / t
	}
	return math.Copysign(1, x) * t
}

// reduceHalfPi returns q mod 4 and r = hi + lo in [-π/4, π/4] with a =
// q·π/2 + r, for finite a >= π/4 (Payne-Hanek; see sincos).
func reduceHalfPi(a float64) (q uint64, hi, lo float64) {
	fr, e := math.Frexp(a)          // a = fr·2^e, fr in [1/2, 1)
	m := uint64(math.Ldexp(fr, 53)) // 53-bit significand: a = m·2^(e-53)
	e -= 53                         // a = m·2^e
	k0 := max(1, e-1)               // bits k < e-1 of 2/π add multiples of 4
	w := window256(k0)              // bits k0 .. k0+255 as a 256-bit integer
	var p [5]uint64                 // m·w, little-endian words
	var carry uint64
	for i := 3; i >= 0; i-- {
		h, l := bits.Mul64(m, w[i])
		var c uint64
		p[3-i], c = bits.Add64(l, carry, 0)
		carry = h + c
	}
	p[4] = carry
	// a·2/π ≡ m·w·2^(e-k0-255) (mod 4): the binary point sits sh bits
	// above the bottom of p.
	sh := uint(k0 + 255 - e)
	q = bits320(&p, sh) & 3
	fh, fl := bits320(&p, sh-64), bits320(&p, sh-128) // 128 bits of f in [0, 1)
	neg := fh>>63 != 0
	if neg { // f - 1 in [-1/2, 0): negate the 128-bit two's complement
		q++
		fl = -fl
		fh = ^fh
		if fl == 0 {
			fh++
		}
	}
	// f = (fh·2^64 + fl)·2^-128 as hi + lo: normalize so that the top bit
	// of fh is set, f = (fh·2^64 + fl)·2^-(128+z).
	z := 0
	if fh == 0 {
		if fl == 0 { // f = 0 (no float64 is a multiple of π/2, but be total)
			return q & 3, 0, 0
		}
		fh, fl, z = fl, 0, 64
	}
	if n := bits.LeadingZeros64(fh); n > 0 {
		fh, fl = fh<<uint(n)|fl>>uint(64-n), fl<<uint(n)
		z += n
	}
	fHi := math.Ldexp(float64(fh>>11), 11-64-z)
	fLo := math.Ldexp(float64(fh&0x7ff)*0x1p64+float64(fl), -128-z)
	hi = float64(fHi * piO2Hi)
	lo = math.FMA(fHi, piO2Hi, -hi) + (fHi*piO2Lo + fLo*piO2Hi)
	t := hi + lo
	lo -= t - hi
	hi = t
	if neg {
		hi, lo = -hi, -lo
	}
	return q & 3, hi, lo
}

// window256 returns bits k0 .. k0+255 of 2/π as a 256-bit integer,
// big-endian words: w[0] holds bits k0 .. k0+63.
func window256(k0 int) (w [4]uint64) {
	j, s := (k0-1)/64, uint((k0-1)%64)
	for i := range w {
		w[i] = twoOverPi[j+i] << s
		if s > 0 {
			w[i] |= twoOverPi[j+i+1] >> (64 - s)
		}
	}
	return w
}

// bits320 returns bits pos .. pos+63 of the little-endian 320-bit integer
// p (0 above its top); pos < 320.
func bits320(p *[5]uint64, pos uint) uint64 {
	i, s := pos/64, pos%64
	v := p[i] >> s
	if s > 0 && i+1 < 5 {
		v |= p[i+1] << (64 - s)
	}
	return v
}
