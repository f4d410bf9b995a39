package scalar

import (
	"math"
	"math/big"
	"sync"
)

// Reference values in high precision with math/big: real exp, log, sin,
// cos and atan by their textbook series after argument reduction, and on
// them the complex functions by formulas that are exact in exact
// arithmetic (in the open first quadrant for the inverse functions, whose
// other quadrants the tests reach by symmetry). The working precision,
// bigPrec bits, exceeds the 1074 bits that the cancellation of a formula
// such as log(1 + w) ≈ w can cost for float64 arguments, so that the
// references are exact to far below 2^-53 of every float64 result.

const bigPrec = 1400

func bf(x float64) *big.Float { return new(big.Float).SetPrec(bigPrec).SetFloat64(x) }

func bnew() *big.Float { return new(big.Float).SetPrec(bigPrec) }

func bint(n int64) *big.Float { return bnew().SetInt64(n) }

func badd(a, b *big.Float) *big.Float { return bnew().Add(a, b) }
func bsub(a, b *big.Float) *big.Float { return bnew().Sub(a, b) }
func bmul(a, b *big.Float) *big.Float { return bnew().Mul(a, b) }
func bquo(a, b *big.Float) *big.Float { return bnew().Quo(a, b) }
func bneg(a *big.Float) *big.Float    { return bnew().Neg(a) }
func bsqrt(a *big.Float) *big.Float   { return bnew().Set(sqrtP(a, bigPrec+64)) }

// bmulExp returns a·2^k.
func bmulExp(a *big.Float, k int) *big.Float {
	if a.Sign() == 0 {
		return bnew().Set(a)
	}
	return bnew().SetMantExp(a, k)
}

// sqrtP returns sqrt a for a >= 0 to prec bits by Newton's iteration
// y = (y + a/y)/2 from the float64 root, the precision doubled at each
// step (math/big's Sqrt iterates at full precision throughout, which
// dominated the tests' time).
func sqrtP(a *big.Float, prec uint) *big.Float {
	if a.Sign() == 0 {
		return new(big.Float).SetPrec(prec)
	}
	m := new(big.Float)
	e := a.MantExp(m) // a = m·2^e, m in [1/2, 1)
	if e%2 != 0 {
		m.SetMantExp(m, 1) // m in [1, 2), e even
		e--
	}
	mf, _ := m.Float64()
	y := new(big.Float).SetPrec(prec).SetFloat64(math.Sqrt(mf))
	t := new(big.Float)
	for p := uint(100); ; p *= 2 {
		p = min(p, prec+8)
		t.SetPrec(p).Quo(new(big.Float).SetPrec(p).Set(m), y)
		y.SetPrec(p).Add(y, t)
		y.SetMantExp(y, -1)
		if p == prec+8 {
			break
		}
	}
	y.SetMantExp(y, e/2)
	return new(big.Float).SetPrec(prec).Set(y)
}

// The constants, to piPrec bits (π) and bigPrec bits (ln 2).
const piPrec = 2600

var bigConst struct {
	once    sync.Once
	pi, ln2 *big.Float
}

func initBigConst() {
	bigConst.once.Do(func() {
		p := uint(piPrec + 64)
		// π = 16 atan(1/5) - 4 atan(1/239).
		atanInv := func(n int64) *big.Float {
			x := new(big.Float).SetPrec(p).Quo(new(big.Float).SetPrec(p).SetInt64(1), new(big.Float).SetPrec(p).SetInt64(n))
			x2 := new(big.Float).SetPrec(p).Mul(x, x)
			sum, pow := new(big.Float).SetPrec(p), new(big.Float).SetPrec(p).Set(x)
			for k := int64(0); pow.MantExp(nil) > -int(p)-8; k++ {
				t := new(big.Float).SetPrec(p).Quo(pow, new(big.Float).SetPrec(p).SetInt64(2*k+1))
				if k%2 == 0 {
					sum.Add(sum, t)
				} else {
					sum.Sub(sum, t)
				}
				pow.Mul(pow, x2)
			}
			return sum
		}
		a := new(big.Float).SetPrec(p).Mul(atanInv(5), new(big.Float).SetInt64(16))
		b := new(big.Float).SetPrec(p).Mul(atanInv(239), new(big.Float).SetInt64(4))
		bigConst.pi = new(big.Float).SetPrec(piPrec).Sub(a, b)
		// ln 2 = 2 atanh(1/3).
		third := bquo(bint(1), bint(3))
		bigConst.ln2 = bmulExp(batanhSeries(third), 1)
	})
}

func bpi() *big.Float  { initBigConst(); return bnew().Set(bigConst.pi) }
func bln2() *big.Float { initBigConst(); return bnew().Set(bigConst.ln2) }

// batanhSeries returns atanh s = Σ s^(2k+1)/(2k+1) for |s| <= 1/3.
func batanhSeries(s *big.Float) *big.Float {
	s2 := bmul(s, s)
	sum, pow := bnew(), bnew().Set(s)
	for k := int64(0); pow.Sign() != 0 && pow.MantExp(nil) > -bigPrec-16; k++ {
		sum.Add(sum, bquo(pow, bint(2*k+1)))
		pow.Mul(pow, s2)
	}
	return sum
}

// bexp returns e^x: x/2^k below 2^-20, Taylor, then k squarings (carried
// with 64 extra bits).
func bexp(x *big.Float) *big.Float {
	if x.Sign() == 0 {
		return bint(1)
	}
	k := max(0, x.MantExp(nil)+20)
	p := uint(bigPrec + 64)
	r := new(big.Float).SetPrec(p).SetMantExp(x, -k)
	sum := new(big.Float).SetPrec(p).SetInt64(1)
	term := new(big.Float).SetPrec(p).SetInt64(1)
	for n := int64(1); term.Sign() != 0 && term.MantExp(nil) > -int(p)-8; n++ {
		term.Mul(term, r)
		term.Quo(term, new(big.Float).SetInt64(n))
		sum.Add(sum, term)
	}
	for range k {
		sum.Mul(sum, sum)
	}
	return bnew().Set(sum)
}

// blog returns log x for x > 0: x = m·2^e, m taken to m^(2^-12) by
// square roots, then 2^12·2 atanh((m-1)/(m+1)) + e·ln 2.
func blog(x *big.Float) *big.Float {
	if x.Sign() <= 0 || x.IsInf() {
		panic("blog of a non-positive or infinite value")
	}
	p := uint(bigPrec + 64)
	m := new(big.Float).SetPrec(p)
	e := x.MantExp(m)
	const roots = 12
	for range roots {
		m = sqrtP(m, p)
	}
	one := new(big.Float).SetPrec(p).SetInt64(1)
	s := new(big.Float).SetPrec(p).Quo(new(big.Float).SetPrec(p).Sub(m, one), new(big.Float).SetPrec(p).Add(m, one))
	l := new(big.Float).SetPrec(p).SetMantExp(batanhSeries(s), roots+1)
	l.Add(l, new(big.Float).SetPrec(p).Mul(bln2(), new(big.Float).SetInt64(int64(e))))
	return bnew().Set(l)
}

// bsincos returns sin x and cos x: x = k·π/2 + r (with π to piPrec bits,
// enough for |x| < 2^1024), r/2^10 by Taylor, then ten double-angle steps.
func bsincos(x *big.Float) (s, c *big.Float) {
	initBigConst()
	p := uint(piPrec)
	halfPi := new(big.Float).SetPrec(p).SetMantExp(bigConst.pi, -1)
	q := new(big.Float).SetPrec(p).Quo(x, halfPi)
	qi, _ := q.Int(nil)
	// round to nearest
	frac := new(big.Float).SetPrec(p).Sub(q, new(big.Float).SetPrec(p).SetInt(qi))
	if frac.Cmp(big.NewFloat(0.5)) > 0 {
		qi.Add(qi, big.NewInt(1))
	} else if frac.Cmp(big.NewFloat(-0.5)) < 0 {
		qi.Sub(qi, big.NewInt(1))
	}
	r := new(big.Float).SetPrec(p).Sub(x, new(big.Float).SetPrec(p).Mul(new(big.Float).SetPrec(p).SetInt(qi), halfPi))
	wp := uint(bigPrec + 64)
	const halvings = 10
	a := new(big.Float).SetPrec(wp).SetMantExp(r, -halvings)
	a2 := new(big.Float).SetPrec(wp).Mul(a, a)
	ss := new(big.Float).SetPrec(wp)
	term := new(big.Float).SetPrec(wp).Set(a)
	for n := int64(1); term.Sign() != 0 && term.MantExp(nil) > a.MantExp(nil)-int(wp)-8; n += 2 {
		ss.Add(ss, term) // term = (-1)^k a^n/n!, n = 2k+1
		term.Mul(term, a2)
		term.Quo(term, new(big.Float).SetInt64(-(n+1)*(n+2)))
	}
	for range halvings { // sin 2a = 2 sin a cos a, cos a = sqrt(1 - sin² a) on [-π/4, π/4]
		ca := sqrtP(new(big.Float).SetPrec(wp).Sub(new(big.Float).SetInt64(1), new(big.Float).SetPrec(wp).Mul(ss, ss)), wp)
		ss.Mul(ss, ca)
		ss.SetMantExp(ss, 1)
	}
	cs := sqrtP(new(big.Float).SetPrec(wp).Sub(new(big.Float).SetInt64(1), new(big.Float).SetPrec(wp).Mul(ss, ss)), wp)
	k := new(big.Int).And(qi, big.NewInt(3)).Int64()
	switch k {
	case 0:
		s, c = ss, cs
	case 1:
		s, c = cs, bneg(ss)
	case 2:
		s, c = bneg(ss), bneg(cs)
	default:
		s, c = bneg(cs), ss
	}
	return bnew().Set(s), bnew().Set(c)
}

// batan returns atan x: π/2 - atan(1/x) beyond 1, eight halvings
// atan x = 2 atan(x/(1 + sqrt(1 + x²))), then the Taylor series.
func batan(x *big.Float) *big.Float {
	if x.Sign() < 0 {
		return bneg(batan(bneg(x)))
	}
	if x.Cmp(bint(1)) > 0 {
		return bsub(bmulExp(bpi(), -1), batan(bquo(bint(1), x)))
	}
	const halvings = 8
	a := bnew().Set(x)
	for range halvings {
		a = bquo(a, badd(bint(1), bsqrt(badd(bint(1), bmul(a, a)))))
	}
	a2 := bmul(a, a)
	sum, pow := bnew(), bnew().Set(a)
	for k := int64(0); pow.Sign() != 0 && pow.MantExp(nil) > -bigPrec-16+a.MantExp(nil); k++ {
		t := bquo(pow, bint(2*k+1))
		if k%2 == 0 {
			sum.Add(sum, t)
		} else {
			sum.Sub(sum, t)
		}
		pow.Mul(pow, a2)
	}
	return bmulExp(sum, halvings)
}

// batan2 returns the angle of (x, y) for x, y not both zero.
func batan2(y, x *big.Float) *big.Float {
	switch {
	case x.Sign() > 0:
		return batan(bquo(y, x))
	case x.Sign() == 0:
		return bmul(bmulExp(bpi(), -1), bint(int64(y.Sign())))
	case y.Sign() >= 0:
		return badd(batan(bquo(y, x)), bpi())
	}
	return bsub(batan(bquo(y, x)), bpi())
}

// bc is a complex number of big.Floats.
type bc struct{ re, im *big.Float }

func bcOf(z complex128) bc { return bc{bf(real(z)), bf(imag(z))} }

func (z bc) add(w bc) bc { return bc{badd(z.re, w.re), badd(z.im, w.im)} }
func (z bc) sub(w bc) bc { return bc{bsub(z.re, w.re), bsub(z.im, w.im)} }
func (z bc) mul(w bc) bc {
	return bc{bsub(bmul(z.re, w.re), bmul(z.im, w.im)), badd(bmul(z.re, w.im), bmul(z.im, w.re))}
}
func (z bc) quo(w bc) bc {
	d := badd(bmul(w.re, w.re), bmul(w.im, w.im))
	return bc{bquo(badd(bmul(z.re, w.re), bmul(z.im, w.im)), d), bquo(bsub(bmul(z.im, w.re), bmul(z.re, w.im)), d)}
}
func (z bc) timesI() bc       { return bc{bneg(z.im), z.re} } // i·z
func (z bc) divI() bc         { return bc{z.im, bneg(z.re)} } // -i·z
func (z bc) abs2() *big.Float { return badd(bmul(z.re, z.re), bmul(z.im, z.im)) }

// float returns z rounded to complex128 (parts beyond the range become
// ±Inf or ±0).
func (z bc) float() complex128 {
	re, _ := z.re.Float64()
	im, _ := z.im.Float64()
	return complex(re, im)
}

func bcExp(z bc) bc {
	e := bexp(z.re)
	s, c := bsincos(z.im)
	return bc{bmul(e, c), bmul(e, s)}
}

// bcLog is the principal logarithm for z off the negative real axis.
func bcLog(z bc) bc { return bc{bmulExp(blog(z.abs2()), -1), batan2(z.im, z.re)} }

// bcSqrt is the principal square root for z off the negative real axis.
func bcSqrt(z bc) bc {
	m := bsqrt(z.abs2())
	if z.re.Sign() >= 0 {
		t := bsqrt(bmulExp(badd(m, z.re), -1))
		return bc{t, bquo(z.im, bmulExp(t, 1))}
	}
	t := bsqrt(bmulExp(bsub(m, z.re), -1)) // |Im sqrt z|
	re := bquo(bnew().Abs(z.im), bmulExp(t, 1))
	if z.im.Sign() < 0 {
		t = bneg(t)
	}
	return bc{re, t}
}

func bcSinh(z bc) bc {
	ep, em := bexp(z.re), bexp(bneg(z.re))
	sh, ch := bmulExp(bsub(ep, em), -1), bmulExp(badd(ep, em), -1)
	s, c := bsincos(z.im)
	return bc{bmul(sh, c), bmul(ch, s)}
}

func bcCosh(z bc) bc {
	ep, em := bexp(z.re), bexp(bneg(z.re))
	sh, ch := bmulExp(bsub(ep, em), -1), bmulExp(badd(ep, em), -1)
	s, c := bsincos(z.im)
	return bc{bmul(ch, c), bmul(sh, s)}
}

func bcTanh(z bc) bc { return bcSinh(z).quo(bcCosh(z)) }

// bcAsinhQ is log(w + sqrt(w² + 1)) for Re w > 0 or w real (no cut there).
func bcAsinhQ(w bc) bc { return bcLog(w.add(bcSqrt(w.mul(w).add(bc{bint(1), bnew()})))) }

// bcAsin is asin z for x, y >= 0, not both 0: i·asinh(y - ix) inside the
// quadrant, the real formulas on its edges.
func bcAsin(z bc) bc {
	x, y := z.re, z.im
	one := bint(1)
	switch {
	case y.Sign() == 0 && x.Cmp(one) <= 0: // asin x = atan(x/sqrt(1-x²))
		if x.Cmp(one) == 0 {
			return bc{bmulExp(bpi(), -1), bnew()}
		}
		return bc{batan(bquo(x, bsqrt(bsub(one, bmul(x, x))))), bnew()}
	case y.Sign() == 0: // π/2 + i acosh x
		return bc{bmulExp(bpi(), -1), blog(badd(x, bsqrt(bsub(bmul(x, x), one))))}
	}
	a := bcAsinhQ(bc{y, bneg(x)})
	return a.timesI()
}

// bcAtanh is atanh z = (log(1+z) - log(1-z))/2 for x, y >= 0 with y > 0
// or x < 1 (off the cut).
func bcAtanh(z bc) bc {
	one := bc{bint(1), bnew()}
	d := bcLog(one.add(z)).sub(bcLog(one.sub(z)))
	return bc{bmulExp(d.re, -1), bmulExp(d.im, -1)}
}
