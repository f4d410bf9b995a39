package main

import (
	"math"
	"math/big"
)

// The hyperbolic sine and cosine.

// fitHyperbolic computes the polynomials of sinh and cosh on |x| < 1.
func (fm *format) fitHyperbolic() {
	deg := map[int][2]int{8: {6, 6}, 4: {0, 0}}[fm.elem]
	if fm.wide {
		deg = [2]int{4, 4}
	}
	const margin = 1e-4
	rel := func(g func(*big.Float) *big.Float) func(*big.Float) *big.Float {
		return func(z *big.Float) *big.Float { // z/(1 + z·g)
			d := new(big.Float).SetPrec(fitPrec).Mul(z, g(z))
			d.Add(d, bf(1))
			return d.Quo(z, d)
		}
	}
	// sinh a = a + a·z·S(z), cosh a = 1 + z·C(z), z = a² <= 1.
	sinhG := func(z *big.Float) *big.Float {
		return series(z, func(n int) *big.Float { return inv(factorial(2*n + 3)) })
	}
	coshG := func(z *big.Float) *big.Float {
		return series(z, func(n int) *big.Float { return inv(factorial(2*n + 2)) })
	}
	fm.sinhS = fm.fit(fitSpec{"sinh", 0, 1 + margin, deg[0], sinhG, rel(sinhG)})
	fm.coshC = fm.fit(fitSpec{"cosh", 0, 1 + margin, deg[1], coshG, rel(coshG)})
}

// sinh x = sign(x)·(a + a·z·S(z)) and cosh x = 1 + z·C(z) for a = |x| < 1,
// z = a²; beyond, with E = e^a/2 rounded once (finite up to sinhHi),
// sinh = E - 1/(4E) and cosh = E + 1/(4E); +Inf beyond sinhHi.
func buildSinhCosh(fm *format, p *prog, cosh bool) {
	x := p.x
	a := p.abs(x)
	z := p.mul(a, a)
	var small *value
	if cosh {
		small = p.fma(z, p.horner(z, fm.coshC), p.f(1))
	} else {
		small = p.fma(p.mul(a, z), p.horner(z, fm.sinhS), a)
	}
	e := p.expScaled(fm, a, -1)
	q := p.div(p.f(0.25), e)
	var big *value
	if cosh {
		big = p.add(e, q)
	} else {
		big = p.sub(e, q)
	}
	y := p.sel(p.cmp(lt, a, p.f(1)), small, big) // NaN takes big
	y = p.sel(p.cmp(gt, a, p.f(fm.sinhHi)), p.f(math.Inf(1)), y)
	if cosh {
		p.out = y
		return
	}
	p.out = p.withSign(y, x)
}
