package main

import (
	"math"
	"math/big"

	"github.com/tenferro-go/tenferro/internal/kernel/vmath/internal/bigmath"
)

// The float32 algorithms of Sin, Cos, Tanh and Sigmoid in float32 lanes.
// Each keeps the quantity that the last operation adds to (r, 1 - z/2,
// 1 - q, the quotient) exact or carries its rounding error as a low part,
// so that the result rounds once at its own scale and the error stays
// near half an ulp.

// trigMax32 bounds the float32 fast path of Sin and Cos: below it the
// three-part π/2 and the rounding of k keep the reduction accurate.
const trigMax32 = 0x1p17

// tanhSmall32 is where float32 Tanh switches from its odd polynomial to
// 1 - 2/(e^2a + 1): tanh is above 1/2 beyond, so 1 - q does not cancel.
const tanhSmall32 = 0.5625

// fitNative32 computes the polynomials of the float32-lane Sin, Cos and
// Tanh.
func (fm *format) fitNative32() {
	const p = fitPrec
	// k = round(x·twoOverPi) may be off by one where x·2/π is near a
	// half-integer: |r| then exceeds π/4 by up to trigMax·|2/π - twoOverPi|·π/2.
	pi := bigmath.Pi(p)
	d := new(big.Float).SetPrec(p).Quo(bf(2), pi)
	d.Sub(d, bf(fm.twoOverPi))
	dd, _ := d.Float64()
	rmax := (math.Pi/4 + trigMax32*math.Abs(dd)*math.Pi/2) * (1 + 1e-4)
	zmax := rmax * rmax
	sign := func(n int) float64 {
		if n%2 == 0 {
			return 1
		}
		return -1
	}
	// sin r = r + r·z·S(z), z = r².
	sinG := func(z *big.Float) *big.Float {
		return series(z, func(n int) *big.Float { return new(big.Float).Mul(bf(-sign(n)), inv(factorial(2*n+3))) })
	}
	sinW := func(z *big.Float) *big.Float { // z/(1 + z·g)
		w := new(big.Float).SetPrec(p).Mul(z, sinG(z))
		w.Add(w, bf(1))
		return w.Quo(z, w)
	}
	fm.sinS = fm.fit(fitSpec{"sin", 0, zmax, 3, sinG, sinW})
	// cos r = 1 - z/2 + z²·C(z): the weight is z²/cos r.
	cosG := func(z *big.Float) *big.Float {
		return series(z, func(n int) *big.Float { return new(big.Float).Mul(bf(sign(n)), inv(factorial(2*n+4))) })
	}
	cosW := func(z *big.Float) *big.Float {
		z2 := new(big.Float).SetPrec(p).Mul(z, z)
		c := new(big.Float).SetPrec(p).Mul(z2, cosG(z))
		c.Sub(c, new(big.Float).SetPrec(p).Mul(z, bf(0.5)))
		c.Add(c, bf(1))
		return z2.Quo(z2, c)
	}
	fm.cos2C = fm.fit(fitSpec{"cos2", 0, zmax, 2, cosG, cosW})
	// tanh a = a + a·z·T(z), z = a² <= tanhSmall32²: T(z) = (tanh a - a)/(a·z)
	// from bigmath, weighted by a·z/tanh a.
	const q = 320
	root := func(z *big.Float) *big.Float { return new(big.Float).SetPrec(q).Sqrt(z) }
	tanhG := func(z *big.Float) *big.Float {
		a := root(z)
		t := bigmath.Tanh(a, q)
		t.Sub(t, a)
		az := new(big.Float).SetPrec(q).Mul(a, z)
		return new(big.Float).SetPrec(p).Quo(t, az)
	}
	tanhW := func(z *big.Float) *big.Float {
		if z.Sign() == 0 {
			return bf(0)
		}
		a := root(z)
		az := new(big.Float).SetPrec(q).Mul(a, z)
		return new(big.Float).SetPrec(p).Quo(az, bigmath.Tanh(a, q))
	}
	s := tanhSmall32 * (1 + 1e-4)
	fm.tanhT = fm.fit(fitSpec{"tanh", 0, s * s, 5, tanhG, tanhW})
}

// buildSinCos32 is buildSinCos in float32 lanes: x = k·π/2 + r + rLo,
// sin r = r + (r·z·S(z) + rLo·(1 - z/2)) and cos r = h + (hErr - zLo/2 -
// r·rLo + z²·C(z)) for z + zLo = r² and h + hErr = 1 - z/2 exactly.
func buildSinCos32(fm *format, p *prog, cos bool) {
	x := p.x
	t, r, rLo := p.trigArg(fm, x, true)
	sHi, sLo, cHi, cLo := p.sinCos32(fm, r, rLo)
	p.sinCosSelect(x, t, p.add(sHi, sLo), p.add(cHi, cLo), cos)
}

// sinCos32 returns sin(r + rLo) ≈ sHi + sLo and cos(r + rLo) ≈ cHi + cLo
// (|sLo| <= |sHi|/4, |cLo| <= |cHi|/4), the high parts exact: sHi = r and
// cHi = 1 - z/2 rounded, its error moved into cLo.
func (p *prog) sinCos32(fm *format, r, rLo *value) (sHi, sLo, cHi, cLo *value) {
	z := p.mul(r, r)
	hz := p.mul(z, p.f(0.5))
	lo := p.fnma(hz, rLo, rLo)
	sLo = p.fma(p.mul(r, z), p.horner(z, fm.sinS), lo)
	zLo := p.fms(r, r, z)
	cHi = p.sub(p.f(1), hz)
	hErr := p.sub(p.sub(p.f(1), cHi), hz)
	tail := p.fnma(r, rLo, p.fnma(p.f(0.5), zLo, hErr))
	cLo = p.fma(p.mul(z, z), p.horner(z, fm.cos2C), tail)
	return r, sLo, cHi, cLo
}

// fast2Sum returns h = a + b rounded and its error, for |a| >= |b|.
func (p *prog) fast2Sum(a, b *value) (h, e *value) {
	h = p.add(a, b)
	return h, p.add(p.sub(a, h), b)
}

// tan x = N/D with N = sin r, D = cos r for even k and N = -cos r, D =
// sin r for odd k, from sinCos32: N and D are rounded with their errors
// (Fast2Sum), y0 = N·(1/D), and y0 is corrected by the residual N - y0·D
// (FMA) and the errors: y0 + (N - y0·D + Nerr - y0·Derr)/D.
func buildTan32(fm *format, p *prog) {
	x := p.x
	t, r, rLo := p.trigArg(fm, x, true)
	sHi, sLo, cHi, cLo := p.sinCos32(fm, r, rLo)
	sn, snErr := p.fast2Sum(sHi, sLo)
	cs, csErr := p.fast2Sum(cHi, cLo)
	odd := p.ieq(p.and(p.asInt(t), p.i(1)), p.i(1))
	num := p.sel(odd, p.neg(cs), sn)
	numErr := p.sel(odd, p.neg(csErr), snErr)
	den := p.sel(odd, sn, cs)
	denErr := p.sel(odd, snErr, csErr)
	inv := p.div(p.f(1), den)
	y := p.mul(num, inv)
	rho := p.add(p.fnma(y, den, num), numErr)
	y = p.fma(p.fnma(y, denErr, rho), inv, y)
	p.out = p.sel(p.cmp(eq, x, p.f(0)), x, y) // ±0
}

// cosh x = 2·(E + 1/(16E)) and sinh x = sign(x)·2·(E - 1/(16E)) for E =
// e^|x|/4 = s·(1+u), s = 2^(k-2) (normal up to the overflow), with E's
// rounding error (exact, s a power of two), the quotient's FMA residual
// and the sum's Fast2Sum carried to the last addition; the doubling is
// exact or overflows as the exact result does. Sinh below |x| = 1 is a +
// a·z·S(z), z = a².
func buildSinhCosh32(fm *format, p *prog, cosh bool) {
	x := p.x
	a := p.abs(x)
	s, u, uLo := p.exp32Parts(fm, a, -2, true)
	e, eErr := p.sumParts(s, u, s)
	eErr = p.fma(s, uLo, eErr)
	q := p.div(p.f(1.0/16), e)
	rho := p.fnma(q, e, p.f(1.0/16))
	qLo := p.mul(p.fnma(q, eErr, rho), p.mul(q, p.f(16))) // (ρ - q·Err)/E
	if !cosh {
		q, qLo = p.neg(q), p.neg(qLo)
	}
	h, hErr := p.fast2Sum(e, q)
	y := p.add(h, p.add(p.add(hErr, eErr), qLo))
	y = p.add(y, y)
	if !cosh {
		z := p.mul(a, a)
		small := p.fma(p.mul(a, z), p.horner(z, fm.sinhS), a)
		y = p.sel(p.cmp(lt, a, p.f(1)), small, y)
	}
	y = p.sel(p.cmp(gt, a, p.f(fm.sinhHi)), p.f(math.Inf(1)), y)
	if !cosh {
		y = p.withSign(y, x)
	}
	p.out = y
}

// exp32Parts returns s = 2^(k+sc) and u, uLo with e^x·2^sc = s·(1 + u +
// uLo) (|u| <= √2 - 1, uLo the effect of the reduction's rounding), for x
// where s is normal: x = k·ln2 + r + rLo with r = x - k·l1 - k·l2 rounded
// and rLo its error (as in trigArg), e^(r+rLo) = (1 + u)·(1 + rLo). Without
// lo, uLo is nil (and the relative error about 2^-26 larger).
func (p *prog) exp32Parts(fm *format, x *value, sc int, lo bool) (s, u, uLo *value) {
	if !lo {
		t, _, r := p.expReduce(fm, x)
		u = p.fma(p.mul(r, r), p.horner(r, fm.expP), r)
		return p.pow2Bits(t, sc), u, nil
	}
	t := p.fma(x, p.f(fm.log2e), p.f(p.magic()))
	kf := p.sub(t, p.f(p.magic()))
	r1 := p.fnma(kf, p.f(fm.l1), x) // exact
	w := p.mul(kf, p.f(fm.l2))
	wErr := p.fms(kf, p.f(fm.l2), w)
	r := p.sub(r1, w)
	bb := p.sub(r, r1)
	rLo := p.sub(p.sub(p.sub(r1, p.sub(r, bb)), p.add(w, bb)), wErr)
	u = p.fma(p.mul(r, r), p.horner(r, fm.expP), r)
	return p.pow2Bits(t, sc), u, p.fma(rLo, u, rLo)
}

// sumParts returns d and δ with c + s·u = d + δ exactly, for s a power of
// two and |s·u| <= c/2 (so that d - c is exact).
func (p *prog) sumParts(s, u, c *value) (d, delta *value) {
	d = p.fma(s, u, c)
	return d, p.fms(s, u, p.sub(d, c))
}

// tanh a = a + a·z·T(z) below tanhSmall32, and 1 - q beyond with q =
// 2/(E + 1), E = e^2a ≈ s·(1+u): the denominator (s + 1) + s·u and q are
// formed with their rounding errors (two-sums and the division's FMA
// residual), and 1 - q as a Fast2Sum, so only the last addition rounds at
// the result's scale. |x| is clamped at tanhHi, where 1 - q rounds to 1.
func buildTanh32(fm *format, p *prog) {
	x := p.x
	a := p.abs(x)
	z := p.mul(a, a)
	small := p.fma(p.mul(a, z), p.horner(z, fm.tanhT), a)
	b := p.min(p.f(fm.tanhHi), a)
	// E's reduction error moves q by at most 2^-26·q, 0.11 ulp of y: it
	// is left out.
	s, u, _ := p.exp32Parts(fm, p.add(b, b), 0, false)
	one := p.f(1)
	c := p.add(s, one)
	cErr := p.add(p.sub(s, c), one)
	d, dErr := p.sumParts(s, u, c)
	delta := p.add(dErr, cErr)
	q := p.div(p.f(2), d)
	rho := p.fnma(q, d, p.f(2))
	corr := p.mul(p.fnma(q, delta, rho), p.mul(q, p.f(0.5))) // (ρ - q·δ)/d
	h := p.sub(one, q)
	hErr := p.sub(p.sub(one, h), q)
	big := p.add(h, p.sub(hErr, corr))
	y := p.sel(p.cmp(lt, a, p.f(tanhSmall32)), small, big)
	p.out = p.withSign(y, x)
}

// sigmoidTail32 is where float32 Sigmoid becomes e^x: below it 1 + e^x
// rounds to 1 and 2^k would leave the normal range.
const sigmoidTail32 = -87

// sigmoid x = num/(1 + E) with E = e^-|x| = s·(1+u), num = 1 for x >= 0
// and E for x < 0; the denominator (1 + s) + s·u and num = s + s·u keep
// their rounding errors, and the quotient is corrected for them and for
// its own rounding. Below sigmoidTail32 it is e^x (0 below expLo).
func buildSigmoid32(fm *format, p *prog) {
	x := p.x
	a := p.min(p.f(-sigmoidTail32), p.abs(x))
	s, u, uLo := p.exp32Parts(fm, p.neg(a), 0, true)
	one := p.f(1)
	c := p.add(one, s)
	cErr := p.add(p.sub(one, c), s)
	d, dErr := p.sumParts(s, u, c)
	delta := p.fma(s, uLo, p.add(dErr, cErr))
	e, eErr := p.sumParts(s, u, s)
	eErr = p.fma(s, uLo, eErr)
	neg := p.cmp(lt, x, p.f(0))
	num := p.sel(neg, e, one)
	numErr := p.sel(neg, eErr, p.f(0))
	y := p.div(num, d)
	rho := p.add(p.fnma(y, d, num), numErr)
	y = p.fma(p.fnma(y, delta, rho), p.sel(neg, p.sub(one, y), y), y)
	tail := p.sel(p.cmp(lt, x, p.f(fm.expLo)), p.f(0), p.expCore(fm, x))
	p.out = p.sel(p.cmp(lt, x, p.f(sigmoidTail32)), tail, y)
}
