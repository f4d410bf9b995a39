package bigmath

import "math/big"

// erfSeriesMax is the argument below which Erfc sums erf's series; beyond
// it the continued fraction converges quickly.
const erfSeriesMax = 4

// Erf returns erf x = (2/√π)·∫₀ˣ e^(-t²) dt for |x| < 2^20.
func Erf(x *big.Float, prec uint) *big.Float {
	if x.Sign() == 0 {
		return newF(prec).Set(x)
	}
	p := prec + guard
	a := newF(p).Abs(x)
	var y *big.Float
	if a.Cmp(newF(p).SetInt64(erfSeriesMax)) < 0 {
		y = erfSeries(a, p)
	} else {
		y = newF(p).Sub(newF(p).SetInt64(1), erfcFraction(a, p))
	}
	if x.Sign() < 0 {
		y.Neg(y)
	}
	return newF(prec).Set(y)
}

// Erfc returns erfc x = 1 - erf x, to prec bits relative to erfc x (which
// is tiny for large x), for |x| < 2^20.
func Erfc(x *big.Float, prec uint) *big.Float {
	p := prec + guard
	a := newF(p).Abs(x)
	var c *big.Float // erfc |x|
	if a.Cmp(newF(p).SetInt64(erfSeriesMax)) < 0 {
		// 1 - erf a cancels about 1.45·a² bits.
		q := p + uint(1.45*sq(a)) + 8
		c = newF(q).Sub(newF(q).SetInt64(1), erfSeries(a, q))
	} else {
		c = erfcFraction(a, p)
	}
	if x.Sign() < 0 {
		c = newF(p).Sub(newF(p).SetInt64(2), c)
	}
	return newF(prec).Set(c)
}

// Gelu returns x·Φ(x) = (x/2)·erfc(-x/√2), the Gaussian error linear unit.
func Gelu(x *big.Float, prec uint) *big.Float {
	p := prec + guard
	s := newF(p).Sqrt(newF(p).SetInt64(2))
	a := newF(p).Quo(x, s)
	a.Neg(a)
	c := Erfc(a, p)
	c.Mul(c, x)
	return newF(prec).SetMantExp(c, -1)
}

func sq(a *big.Float) float64 {
	f, _ := a.Float64()
	return f * f
}

// erfSeries returns erf a for 0 <= a < erfSeriesMax by the series of
// positive terms (2/√π)·e^(-a²)·Σ 2^n·a^(2n+1)/(1·3·…·(2n+1)).
func erfSeries(a *big.Float, p uint) *big.Float {
	a2 := newF(p).Mul(a, a)
	twoA2 := newF(p).Add(a2, a2)
	term := newF(p).Set(a)
	sum := newF(p).Set(a)
	for n := int64(1); ; n++ {
		term.Mul(term, twoA2)
		term.Quo(term, newF(p).SetInt64(2*n+1))
		sum.Add(sum, term)
		if term.Sign() == 0 || term.MantExp(nil)-sum.MantExp(nil) < -int(p)-2 {
			break
		}
	}
	e := Exp(newF(p).Neg(a2), p)
	sum.Mul(sum, e)
	return sum.Mul(sum, twoOverSqrtPi(p))
}

// erfcFraction returns erfc a for a >= erfSeriesMax by Laplace's continued
// fraction erfc a = (e^(-a²)/√π) / (a + (1/2)/(a + 1/(a + (3/2)/(a + …)))),
// evaluated from the back with twice as many terms until two agree.
func erfcFraction(a *big.Float, p uint) *big.Float {
	eval := func(n int) *big.Float {
		d := newF(p).Set(a)
		for k := n; k >= 1; k-- {
			q := newF(p).Quo(newF(p).SetInt64(int64(k)), newF(p).SetInt64(2))
			d.Add(a, q.Quo(q, d))
		}
		return d
	}
	prev := eval(32)
	for n := 64; ; n *= 2 {
		d := eval(n)
		diff := newF(p).Sub(d, prev)
		if diff.Sign() == 0 || diff.MantExp(nil)-d.MantExp(nil) < -int(p) {
			prev = d
			break
		}
		prev = d
	}
	e := Exp(newF(p).Neg(newF(p).Mul(a, a)), p)
	e.Quo(e, prev)
	s := twoOverSqrtPi(p)
	return e.Mul(e, s.SetMantExp(s, -1))
}

// twoOverSqrtPi returns 2/√π.
func twoOverSqrtPi(p uint) *big.Float {
	s := newF(p).Sqrt(Pi(p))
	return s.Quo(newF(p).SetInt64(2), s)
}
