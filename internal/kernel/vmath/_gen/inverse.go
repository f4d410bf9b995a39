package main

import (
	"math"
	"math/big"
)

// The tangent and the inverse trigonometric functions.

// fitInverse computes the polynomials of atan and asin.
func (fm *format) fitInverse() {
	// Degrees of atan's A and asin's P.
	deg := map[int][2]int{8: {10, 12}, 4: {4, 5}}[fm.elem]
	const margin = 1e-4
	alt := func(n int) float64 {
		if n%2 == 0 {
			return -1
		}
		return 1
	}
	rel := func(g func(*big.Float) *big.Float) func(*big.Float) *big.Float {
		return func(z *big.Float) *big.Float { // z/(1 + z·g)
			d := new(big.Float).SetPrec(fitPrec).Mul(z, g(z))
			d.Add(d, bf(1))
			return d.Quo(z, d)
		}
	}
	// atan u = u + u·z·A(z), z = u², |u| <= tan(π/8) = √2-1.
	atanG := func(z *big.Float) *big.Float { // sum (-1)^(n+1) z^n/(2n+3)
		return series(z, func(n int) *big.Float { return bf(alt(n) / float64(2*n+3)) })
	}
	umax := (math.Sqrt2 - 1) * (1 + margin)
	fm.atanA = fm.fit(fitSpec{"atan", 0, umax * umax, deg[0], atanG, rel(atanG)})
	// asin t = t + t·z·P(z), z = t², |t| <= 1/2; asin t = sum c_n t^(2n+1)
	// with c_n = (2n)!/(4^n (n!)² (2n+1)), so P(z) = sum c_(n+1) z^n.
	asinG := func(z *big.Float) *big.Float {
		return series(z, func(n int) *big.Float {
			c := bf(1) // (2m)!/(4^m (m!)²) for m = n+1: prod (2j-1)/(2j)
			for j := 1; j <= n+1; j++ {
				c.Mul(c, bf(float64(2*j-1)/float64(2*j)))
			}
			return c.Quo(c, bf(float64(2*n+3)))
		})
	}
	// The weight doubles: the half-angle branch takes π/2 - 2·asin t.
	asinW := func(z *big.Float) *big.Float {
		w := rel(asinG)(z)
		return w.Mul(w, bf(2))
	}
	fm.asinP = fm.fit(fitSpec{"asin", 0, 0.25 * (1 + margin), deg[1], asinG, asinW})
}

// neg returns -x (the sign bit flipped).
func (p *prog) neg(x *value) *value { return p.asFloat(p.xor(p.asInt(x), p.i(p.sign()))) }

// withSign returns |y| with the sign of x for y >= 0.
func (p *prog) withSign(y, x *value) *value {
	return p.asFloat(p.or(p.asInt(y), p.and(p.asInt(x), p.i(p.sign()))))
}

// fastSum returns hi + x + lo for |hi| >= |x| (or hi = 0): h = hi + x
// rounded, its error (hi - h) + x exactly (Fast2Sum), and h + (err + lo),
// so that only the last addition rounds at the result's scale.
func (p *prog) fastSum(hi, x, lo *value) *value {
	h := p.add(hi, x)
	e := p.add(p.sub(hi, h), x)
	return p.add(h, p.add(e, lo))
}

// tan x = sin r / cos r for even k and -cos r / sin r for odd k, with the
// reduction of Sin and Cos; in float64 the quotient is computed as
// num·(1/den) and corrected by its FMA residual (num - y·den)/den, and by
// the low part of the reduced argument: tan x + rLo·(1 + tan² x).
func buildTan(fm *format, p *prog) {
	x := p.x
	t, sn, cs, rLo := p.trigReduce(fm, x, true)
	odd := p.ieq(p.and(p.asInt(t), p.i(1)), p.i(1))
	num := p.sel(odd, p.neg(cs), sn)
	den := p.sel(odd, sn, cs)
	inv := p.div(p.f(1), den)
	y0 := p.mul(num, inv)
	y := p.fma(p.fnma(y0, den, num), inv, y0)
	y = p.fma(rLo, p.fma(y, y, p.f(1)), y)
	p.out = p.sel(p.cmp(eq, x, p.f(0)), x, y) // ±0
}

// atan x = sign(x)·(b + atan u) for a = |x|: u = a, b = 0 up to √2-1;
// u = (a-1)/(a+1), b = π/4 up to √2+1; u = -1/a, b = π/2 beyond; then
// atan u = u + u·z·A(z), z = u². u carries the error of its
// division as uLo (from the FMA residual and the rounding of a+1), and b
// is split in two parts.
func buildAtan(fm *format, p *prog) { p.out = p.atan(fm, p.x) }

// atan returns atan x.
func (p *prog) atan(fm *format, x *value) *value {
	// Beyond 2^60, atan rounds to π/2; the clamp keeps 1/a and its
	// residual finite for a = Inf (and NaN stays NaN).
	a := p.min(p.f(0x1p60), p.abs(x))
	mid := p.cmp(gt, a, p.f(math.Sqrt2-1))
	hi := p.cmp(gt, a, p.f(math.Sqrt2+1))
	one := p.f(1)
	am1, ap1 := p.sub(a, one), p.add(a, one) // a-1 exact on the middle range
	num := p.sel(hi, p.f(-1), p.sel(mid, am1, a))
	den := p.sel(hi, a, p.sel(mid, ap1, one))
	b := p.sel(hi, p.f(fm.p1), p.sel(mid, p.f(fm.p1/2), p.f(0)))
	bLo := p.sel(hi, p.f(fm.p2), p.sel(mid, p.f(fm.p2/2), p.f(0)))
	inv := p.div(one, den)
	u := p.mul(num, inv)
	// The exact a+1 = ap1 + δ (two-sum) and a-1 = am1 + ν (Fast2Sum:
	// a < 1 or the difference is exact); both 0 where den and num
	// are exact.
	bb := p.sub(ap1, a)
	delta := p.add(p.sub(a, p.sub(ap1, bb)), p.sub(one, bb))
	nu := p.add(p.sub(p.f(-1), am1), a)
	delta = p.sel(hi, p.f(0), p.sel(mid, delta, p.f(0)))
	nu = p.sel(hi, p.f(0), p.sel(mid, nu, p.f(0)))
	// (num+ν)/(den+δ) - u ≈ (num + ν - u·den - u·δ)/den.
	uLo := p.mul(p.fnma(u, delta, p.add(p.fnma(u, den, num), nu)), inv)
	z := p.mul(u, u)
	// atan(u + uLo) ≈ atan u + uLo·(1 - z).
	lo := p.add(p.fnma(z, uLo, uLo), bLo)
	tail := p.fma(p.mul(u, z), p.horner(z, fm.atanA), lo)
	return p.withSign(p.fastSum(b, u, tail), x)
}

// asinCore returns for a = |x| the mask big = a > 1/2, and t, s, sLo and
// w with asin a = t + w (t = x, small branch, with x's sign) or asin a =
// π/2 - 2·(s + sLo + w) (big), where s + sLo = √z for z = (1-a)/2 (exact)
// and w = t·z·P(z) with z = t² in either case.
func (p *prog) asinCore(fm *format, x *value) (big, s, sLo, w *value) {
	a := p.abs(x)
	big = p.cmp(gt, a, p.f(0.5))
	z := p.sel(big, p.mul(p.sub(p.f(1), a), p.f(0.5)), p.mul(x, x))
	s = p.sqrt(z)
	// (z - s²)/(2s), the tiny addend keeping s = 0 from 0/0.
	tiny := map[int]float64{4: 0x1p-140, 8: 0x1p-1000}[p.elem]
	sLo = p.div(p.fnma(s, s, z), p.add(p.add(s, s), p.f(tiny)))
	t := p.sel(big, s, x)
	w = p.mul(p.mul(t, z), p.horner(z, fm.asinP))
	return
}

// asin x = x + x·z·P(z) for |x| <= 1/2, and sign(x)·(π/2 - 2·asin s) with
// s = √((1-|x|)/2) beyond; NaN outside [-1, 1].
func buildAsin(fm *format, p *prog) {
	x := p.x
	big, s, sLo, w := p.asinCore(fm, x)
	small := p.add(x, w)
	y := p.fastSum(p.f(fm.p1), p.mul(s, p.f(-2)), p.fnma(p.f(2), p.add(sLo, w), p.f(fm.p2)))
	p.out = p.withSign(p.sel(big, y, small), x)
}

// acos x = π/2 - asin x for |x| <= 1/2, 2·asin s for x > 1/2 and π -
// 2·asin s for x < -1/2, s = √((1-|x|)/2); NaN outside [-1, 1].
func buildAcos(fm *format, p *prog) {
	x := p.x
	_, s, sLo, w := p.asinCore(fm, x)
	small := p.fastSum(p.f(fm.p1), p.neg(x), p.sub(p.f(fm.p2), w))
	q := p.add(s, p.add(sLo, w))
	pos := p.add(q, q)
	negv := p.fastSum(p.f(2*fm.p1), p.mul(s, p.f(-2)), p.fnma(p.f(2), p.add(sLo, w), p.f(2*fm.p2)))
	y := p.sel(p.cmp(lt, x, p.f(-0.5)), negv, small)
	p.out = p.sel(p.cmp(gt, x, p.f(0.5)), pos, y)
}
