package main

import (
	"math"
	"math/big"

	"github.com/tenferro-go/tenferro/internal/kernel/vmath/internal/bigmath"
)

// The error functions and the Gaussian error linear unit.
//
// erfc a, a >= 0, is t·e^(-a² + H(t)) for t = K/(K+a) in (0, 1], with H
// smooth on the whole range (Numerical Recipes' form): H is one polynomial
// in u = t - erfcMid up to erfcHi, where erfc rounds to 0. The exponent's
// -a² is carried exactly (a² as a rounded square and its FMA residual),
// the reduction by k·ln2 uses a short ln2 whose multiples are exact, and
// H's constant term is kept in two parts, so what rounds is H's other
// terms, e^r's polynomial, the product t·e^r (one FMA) and a factor m.
// erf x is x + x·Q(x²) below erfSmall and ±(1 - erfc |x|) beyond.

// erfSmall is where erf switches from its odd polynomial to 1 - erfc:
// erfc(0.84375) = 0.23, so the subtraction loses under a third of an ulp.
const erfSmall = 0.84375

// erfcK is the constant of erfc's variable t = K/(K+a); 2 keeps the
// coefficients of H below 1.4 in magnitude (larger K shortens the interval
// but moves it toward H's singularities: the coefficients grow and their
// rounding costs bits).
const erfcK = 2.0

// fitErf computes erf's Q, erfc's H, erfcHi and the short ln2.
func (fm *format) fitErf() {
	deg := map[int][2]int{8: {11, 26}, 4: {6, 11}}[fm.elem]
	const p = fitPrec
	const margin = 1e-4
	rounded := func(v *big.Float) float64 { return roundTo(fm.elem, v) }
	fm.erfcHi = boundary(fm.elem, 1, 100, func(x float64) bool { return rounded(bigmath.Erfc(bf(x), 100)) != 0 })
	// Gelu's product with x/2 underflows a little further out.
	fm.geluHi = boundary(fm.elem, 1, 100, func(x float64) bool { return rounded(bigmath.Gelu(bf(-x), 100)) != 0 })
	is2 := new(big.Float).SetPrec(p).Quo(bf(1), new(big.Float).SetPrec(p).Sqrt(bf(2)))
	fm.invSqrt2, fm.invSqrt2Lo = split(fm.elem, is2)
	// ln2 to mant+1-kBits bits: k·erfL1 is exact for |k| < 2^kBits.
	kBits := map[int]int{8: 11, 4: 8}[fm.elem]
	ln2 := bigmath.Ln2(p)
	keep := uint(map[int]int{8: 53, 4: 24}[fm.elem] - kBits)
	fm.erfL1, _ = new(big.Float).SetPrec(keep).Set(ln2).Float64()
	fm.erfL2 = roundTo(fm.elem, new(big.Float).SetPrec(p).Sub(ln2, bf(fm.erfL1)))

	// erf a = a·(1 + Q(z)), z = a²: Q(z) = (2/√π)·Σ (-1)^n z^n/(n!(2n+1)) - 1.
	twoOverSqrtPi := new(big.Float).SetPrec(p).Quo(bf(2), new(big.Float).SetPrec(p).Sqrt(bigmath.Pi(p)))
	erfG := func(z *big.Float) *big.Float {
		s := series(z, func(n int) *big.Float {
			c := inv(new(big.Float).SetPrec(p).Mul(factorial(n), bf(float64(2*n+1))))
			if n%2 == 1 {
				c.Neg(c)
			}
			return c
		})
		s.Mul(s, twoOverSqrtPi)
		return s.Sub(s, bf(1))
	}
	erfW := func(z *big.Float) *big.Float { // relative to erf a = a·(1+Q)
		return inv(new(big.Float).SetPrec(p).Add(erfG(z), bf(1)))
	}
	zmax := erfSmall * erfSmall * (1 + margin)
	fm.erfQ = fm.fit(fitSpec{"erf", 0, zmax, deg[0], erfG, erfW})

	// H(t) = ln(erfc(a)·e^(a²)/t), a = 2/t - 2, fitted in u = t - erfcMid
	// with absolute weight (its error is erfc's relative error).
	tMin := erfcK / (erfcK + fm.geluHi/math.Sqrt2) * (1 - margin)
	fm.erfcMid = roundTo(fm.elem, bf((tMin+1)/2))
	erfcH := func(u *big.Float) *big.Float {
		t := new(big.Float).SetPrec(p).Add(u, bf(fm.erfcMid))
		a := new(big.Float).SetPrec(p).Quo(bf(erfcK), t)
		a.Sub(a, bf(erfcK))
		if a.Sign() <= 0 {
			return new(big.Float).SetPrec(p)
		}
		c := bigmath.Erfc(a, p)
		c.Mul(c, bigmath.Exp(new(big.Float).SetPrec(p).Mul(a, a), p))
		c.Quo(c, t)
		return bigmath.Log(c, p)
	}
	one := func(*big.Float) *big.Float { return bf(1) }
	fm.erfcH = fm.fit(fitSpec{"erfc", tMin - fm.erfcMid, 1 - fm.erfcMid, deg[1], erfcH, one})
	fm.erfcH0Lo = fm.fits["erfc"].c0Lo
}

// erfcCore returns m·erfc(a + aLo) for 0 <= a <= geluHi/√2, where the
// product underflows (and NaN for NaN);
// aLo (or nil for 0) is a low part of the argument with |aLo| <= ulp(a),
// m (or nil for 1) a normal factor applied before the scaling by 2^k, so
// that a subnormal product rounds once.
func (p *prog) erfcCore(fm *format, a, aLo, m *value) *value {
	kk := p.f(erfcK)
	d := p.add(a, kk)
	bb := p.sub(d, a)
	dLo := p.add(p.sub(a, p.sub(d, bb)), p.sub(kk, bb)) // d + dLo = a + K
	t := p.div(kk, d)
	// The exact K/(d + dLo) is t·(1 + c) with c = (K - t·d - t·dLo)/K to
	// first order; c joins the exponent.
	c := p.mul(p.fnma(t, dLo, p.fnma(t, d, kk)), p.f(1/erfcK))
	// H = c0 + u·P1(u), c0 = H0 + H0Lo, kept out of any rounding at H's
	// scale: c0 - v is a two-sum and the exponent r is formed at its own,
	// smaller, scale.
	u := p.sub(t, p.f(fm.erfcMid))
	p1 := p.horner(u, fm.erfcH[1:])
	c0 := p.f(fm.erfcH[0])
	s := p.mul(a, a)
	sLo := p.fms(a, a, s) // a² = s + sLo
	if aLo != nil {
		sLo = p.fma(p.add(a, a), aLo, sLo)
	}
	// H - a² = k·ln2 + r: k·erfL1 is exact, s + k·erfL1 = v + vLo (two-sum).
	tk := p.fma(p.sub(p.fma(u, p1, c0), s), p.f(fm.log2e), p.f(p.magic()))
	kf := p.sub(tk, p.f(p.magic()))
	q := p.mul(kf, p.f(fm.erfL1))
	v := p.add(s, q)
	vb := p.sub(v, s)
	vLo := p.add(p.sub(s, p.sub(v, vb)), p.sub(q, vb))
	w := p.sub(c0, v)
	wb := p.sub(w, c0)
	wLo := p.sub(p.sub(c0, p.sub(w, wb)), p.add(v, wb)) // c0 - v = w + wLo
	r := p.fma(u, p1, w)
	r = p.fnma(kf, p.f(fm.erfL2), r)
	r = p.add(r, p.sub(p.add(c, p.add(wLo, p.f(fm.erfcH0Lo))), p.add(vLo, sLo)))
	// t·e^r = t + t·(r + r²·P(r)), rounded once.
	em1 := p.mul(r, p.fma(r, p.horner(r, fm.expP), p.f(1)))
	y := p.fma(t, em1, t)
	if m != nil {
		y = p.mul(y, m)
	}
	return p.scale2k(y, tk, kf, 0)
}

// erf x = x + x·Q(x²) for |x| < erfSmall, else sign(x)·(1 - erfc|x|).
func buildErf(fm *format, p *prog) {
	x := p.x
	a := p.abs(x)
	small := p.fma(x, p.horner(p.mul(x, x), fm.erfQ), x)
	c := p.erfcCore(fm, p.min(p.f(fm.erfcHi), a), nil, nil)
	large := p.withSign(p.sub(p.f(1), c), x)
	p.out = p.sel(p.cmp(ge, a, p.f(erfSmall)), large, small) // NaN takes small
}

// erfc x = erfc|x| for x >= 0 and 2 - erfc|x| below; 0 beyond erfcHi.
func buildErfc(fm *format, p *prog) {
	x := p.x
	a := p.abs(x)
	c := p.erfcCore(fm, p.min(p.f(fm.erfcHi), a), nil, nil) // NaN stays NaN
	c = p.sel(p.cmp(gt, a, p.f(fm.erfcHi)), p.f(0), c)
	p.out = p.sel(p.cmp(lt, x, p.f(0)), p.sub(p.f(2), c), c)
}

// gelu x = x·Φ(x) with Φ(x) = erfc(-x/√2)/2: (x/2)·erfc(a) for x < 0 and
// x - (x/2)·erfc(a) for x > 0, a = |x|/√2 carried with its low part; -0
// where the product underflows, and NaN at -Inf (x·0, as PyTorch).
func buildGelu(fm *format, p *prog) {
	x := p.x
	ax := p.abs(x)
	c1, c2 := fm.invSqrt2, fm.invSqrt2Lo
	a := p.mul(ax, p.f(c1))
	aLo := p.fma(ax, p.f(c2), p.fms(ax, p.f(c1), a))
	hx := p.mul(x, p.f(0.5))
	over := p.cmp(gt, ax, p.f(fm.geluHi))
	g := p.erfcCore(fm, p.min(p.f(fm.geluHi*fm.invSqrt2), a), aLo, hx) // (x/2)·erfc a
	neg := p.sel(over, p.mul(x, p.f(0)), g)                            // -0, NaN at -Inf as PyTorch
	pos := p.sub(x, p.sel(over, p.f(0), g))
	p.out = p.sel(p.cmp(le, x, p.f(0)), neg, pos) // ±0 keep their sign; NaN takes pos
}
