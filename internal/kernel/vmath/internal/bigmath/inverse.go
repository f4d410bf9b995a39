package bigmath

import "math/big"

// Tan returns tan x = sin x / cos x for |x| < 2^64.
func Tan(x *big.Float, prec uint) *big.Float {
	if x.Sign() == 0 {
		return newF(prec).Set(x)
	}
	p := prec + guard
	return newF(prec).Quo(Sin(x, p), Cos(x, p))
}

// Atan returns atan x. For |x| > 1 it is ±π/2 - atan(1/x); the argument t
// is then halved in angle, t/(1 + √(1+t²)), until below 2^-12, and
// atan t = sum (-1)^k t^(2k+1)/(2k+1).
func Atan(x *big.Float, prec uint) *big.Float {
	p := prec + guard
	if x.Sign() == 0 {
		return newF(prec).Set(x)
	}
	neg := x.Sign() < 0
	t := newF(p).Abs(x)
	one := newF(p).SetInt64(1)
	inverted := t.Cmp(one) > 0
	if inverted {
		t.Quo(one, t)
	}
	halvings := 0
	lim := newF(p).SetMantExp(one, -12)
	for t.Cmp(lim) > 0 {
		d := newF(p).Mul(t, t)
		d.Add(d, one)
		d.Sqrt(d)
		d.Add(d, one)
		t.Quo(t, d)
		halvings++
	}
	t2 := newF(p).Mul(t, t)
	sum := newF(p).Set(t)
	pow := newF(p).Set(t)
	term := newF(p)
	for k := int64(1); ; k++ {
		pow.Mul(pow, t2)
		term.Quo(pow, newF(p).SetInt64(2*k+1))
		if k%2 == 1 {
			sum.Sub(sum, term)
		} else {
			sum.Add(sum, term)
		}
		if term.Sign() == 0 || term.MantExp(nil)-sum.MantExp(nil) < -int(p) {
			break
		}
	}
	sum.SetMantExp(sum, halvings)
	if inverted {
		sum.Sub(newF(p).SetMantExp(Pi(p), -1), sum)
	}
	if neg {
		sum.Neg(sum)
	}
	return newF(prec).Set(sum)
}

// Asin returns asin x = atan(x/√((1-x)(1+x))) for |x| <= 1 (±π/2 at ±1).
func Asin(x *big.Float, prec uint) *big.Float {
	p := prec + guard
	one := newF(p).SetInt64(1)
	if c := newF(p).Abs(x).Cmp(one); c == 0 {
		h := newF(prec).SetMantExp(Pi(p), -1)
		if x.Sign() < 0 {
			h.Neg(h)
		}
		return h
	}
	d := newF(2*p).Sub(one, x)
	d.Mul(d, newF(2*p).Add(one, x))
	d.Sqrt(d)
	return Atan(newF(p).Quo(x, d), prec)
}

// Acos returns acos x = 2·atan(√((1-x)/(1+x))) for |x| <= 1 (π at -1).
func Acos(x *big.Float, prec uint) *big.Float {
	p := prec + guard
	one := newF(p).SetInt64(1)
	if x.Cmp(newF(p).Neg(one)) == 0 {
		return newF(prec).Set(Pi(p))
	}
	q := newF(2*p).Sub(one, x)
	q.Quo(q, newF(2*p).Add(one, x))
	q.Sqrt(q)
	a := Atan(q, p)
	return newF(prec).SetMantExp(a, 1)
}

// Sinh returns sinh x: sum x^(2k+1)/(2k+1)! for |x| < 1, else
// (e^x - e^-x)/2 (|x| < 2^19).
func Sinh(x *big.Float, prec uint) *big.Float {
	p := prec + guard
	if newF(p).Abs(x).Cmp(newF(p).SetInt64(1)) < 0 {
		x2 := newF(p).Mul(x, x)
		sum := newF(p).Set(x)
		term := newF(p).Set(x)
		for k := int64(1); ; k++ {
			term.Mul(term, x2)
			term.Quo(term, newF(p).SetInt64((2*k)*(2*k+1)))
			sum.Add(sum, term)
			if term.Sign() == 0 || term.MantExp(nil)-sum.MantExp(nil) < -int(p) {
				return newF(prec).Set(sum)
			}
		}
	}
	e := Exp(x, p)
	e.Sub(e, Exp(newF(p).Neg(x), p))
	return newF(prec).SetMantExp(e, -1)
}

// Cosh returns cosh x = (e^x + e^-x)/2 for |x| < 2^19.
func Cosh(x *big.Float, prec uint) *big.Float {
	p := prec + guard
	e := Exp(x, p)
	e.Add(e, Exp(newF(p).Neg(x), p))
	return newF(prec).SetMantExp(e, -1)
}
