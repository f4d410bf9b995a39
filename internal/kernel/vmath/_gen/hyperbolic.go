package main

import (
	"math"
	"math/big"
)

// The hyperbolic sine and cosine.

// fitHyperbolic computes the polynomial of sinh on |x| < 1.
func (fm *format) fitHyperbolic() {
	deg := map[int]int{8: 6, 4: 3}[fm.elem]
	const margin = 1e-4
	rel := func(g func(*big.Float) *big.Float) func(*big.Float) *big.Float {
		return func(z *big.Float) *big.Float { // z/(1 + z·g)
			d := new(big.Float).SetPrec(fitPrec).Mul(z, g(z))
			d.Add(d, bf(1))
			return d.Quo(z, d)
		}
	}
	// sinh a = a + a·z·S(z), z = a² <= 1.
	sinhG := func(z *big.Float) *big.Float {
		return series(z, func(n int) *big.Float { return inv(factorial(2*n + 3)) })
	}
	fm.sinhS = fm.fit(fitSpec{"sinh", 0, 1 + margin, deg, sinhG, rel(sinhG)})
}

// cosh x = E + 1/(4E) for E = e^a/2, a = |x|, rounded once (finite up to
// sinhHi; the sum does not cancel); sinh x = sign(x)·(a + a·z·S(z)) for
// a < 1, z = a², and sign(x)·(E - 1/(4E)) beyond; +Inf beyond sinhHi.
func buildSinhCosh(fm *format, p *prog, cosh bool) {
	x := p.x
	a := p.abs(x)
	e := p.expScaled(fm, a, -1)
	q := p.div(p.f(0.25), e)
	inf := p.cmp(gt, a, p.f(fm.sinhHi))
	if cosh {
		p.out = p.sel(inf, p.f(math.Inf(1)), p.add(e, q))
		return
	}
	z := p.mul(a, a)
	small := p.fma(p.mul(a, z), p.horner(z, fm.sinhS), a)
	y := p.sel(p.cmp(lt, a, p.f(1)), small, p.sub(e, q)) // NaN takes E - 1/(4E)
	p.out = p.withSign(p.sel(inf, p.f(math.Inf(1)), y), x)
}
