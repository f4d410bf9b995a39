// Package bigmath evaluates the elementary functions of package vmath in
// arbitrary precision with math/big, as the reference for vmath's accuracy
// tests and for its polynomial fits (vmath/_gen).
//
// Every function takes a finite argument and a precision prec in bits and
// returns a value whose relative error is below 2^-prec: the work is done at
// prec+64 bits (more where an argument reduction cancels) and the result is
// rounded to prec. The series and reductions are the textbook ones:
// exp(x) = 2^k·exp(r)^(2^10) with r = (x-k·ln2)/2^10 summed by Taylor;
// log(x) = e·ln2 + 2·atanh((m-1)/(m+1)); sin and cos reduce by π/2 with π
// from Machin's formula; tanh, sigmoid, expm1 and log1p follow from those
// without cancellation.
package bigmath

import (
	"math"
	"math/big"
	"sync"
)

// guard is the number of extra bits carried through a computation.
const guard = 64

func newF(prec uint) *big.Float { return new(big.Float).SetPrec(prec) }

// constants holds π and ln 2 at constPrec bits, computed once.
var constants struct {
	once    sync.Once
	pi, ln2 *big.Float
}

// constPrec bounds the precision of any computation here: enough for the
// reduction of every argument the tests use (|x| < 2^64) at prec <= 512.
const constPrec = 1024

func initConstants() {
	constants.once.Do(func() {
		p := uint(constPrec + guard)
		// π = 16·atan(1/5) - 4·atan(1/239).
		a := atanInv(5, p)
		a.Mul(a, big.NewFloat(16).SetPrec(p))
		b := atanInv(239, p)
		b.Mul(b, big.NewFloat(4).SetPrec(p))
		constants.pi = newF(constPrec).Sub(a, b)
		// ln 2 = 2·atanh(1/3).
		third := newF(p).Quo(newF(p).SetInt64(1), newF(p).SetInt64(3))
		l := atanhSeries(third, p)
		constants.ln2 = newF(constPrec).Mul(l, newF(p).SetInt64(2))
	})
}

// atanInv returns atan(1/n) = sum (-1)^k / ((2k+1) n^(2k+1)).
func atanInv(n int64, prec uint) *big.Float {
	sum := newF(prec)
	pow := newF(prec).Quo(newF(prec).SetInt64(1), newF(prec).SetInt64(n)) // 1/n^(2k+1)
	n2 := newF(prec).SetInt64(n * n)
	term := newF(prec)
	eps := newF(prec).SetMantExp(big.NewFloat(1), -int(prec))
	for k := int64(0); ; k++ {
		term.Quo(pow, newF(prec).SetInt64(2*k+1))
		if k%2 == 0 {
			sum.Add(sum, term)
		} else {
			sum.Sub(sum, term)
		}
		if term.Cmp(eps) < 0 {
			return sum
		}
		pow.Quo(pow, n2)
	}
}

// atanhSeries returns atanh(s) = sum s^(2k+1)/(2k+1) for |s| <= 1/3.
func atanhSeries(s *big.Float, prec uint) *big.Float {
	sum := newF(prec).Set(s)
	s2 := newF(prec).Mul(s, s)
	pow := newF(prec).Set(s)
	term := newF(prec)
	for k := int64(1); ; k++ {
		pow.Mul(pow, s2)
		term.Quo(pow, newF(prec).SetInt64(2*k+1))
		sum.Add(sum, term)
		if term.Sign() == 0 || term.MantExp(nil)-sum.MantExp(nil) < -int(prec) {
			return sum
		}
	}
}

// Pi returns π rounded to prec bits (prec <= 1024).
func Pi(prec uint) *big.Float {
	initConstants()
	return newF(prec).Set(constants.pi)
}

// Ln2 returns ln 2 rounded to prec bits (prec <= 1024).
func Ln2(prec uint) *big.Float {
	initConstants()
	return newF(prec).Set(constants.ln2)
}

// expSmall returns exp(r) for |r| <= 1 at precision prec.
func expSmall(r *big.Float, prec uint) *big.Float {
	const halvings = 10
	x := newF(prec).SetMantExp(r, -halvings)
	sum := newF(prec).SetInt64(1)
	term := newF(prec).SetInt64(1)
	for k := int64(1); ; k++ {
		term.Mul(term, x)
		term.Quo(term, newF(prec).SetInt64(k))
		sum.Add(sum, term)
		if term.Sign() == 0 || term.MantExp(nil) < -int(prec)-2 {
			break
		}
	}
	for range halvings {
		sum.Mul(sum, sum)
	}
	return sum
}

// Exp returns e^x. x must satisfy |x| < 2^20.
func Exp(x *big.Float, prec uint) *big.Float {
	p := prec + guard
	ln2 := Ln2(p + 32)
	q := newF(p).Quo(x, ln2)
	k, _ := q.Int64()
	r := newF(p+32).Mul(ln2, newF(p).SetInt64(k))
	r.Sub(x, r)
	e := expSmall(r, p)
	return newF(prec).SetMantExp(e, int(k))
}

// Expm1 returns e^x - 1.
func Expm1(x *big.Float, prec uint) *big.Float {
	p := prec + guard
	if x.Sign() == 0 {
		return newF(prec).Set(x)
	}
	if x.MantExp(nil) <= -1 { // |x| < 1/2: sum x^k/k! from k = 1
		sum := newF(p).Set(x)
		term := newF(p).Set(x)
		for k := int64(2); ; k++ {
			term.Mul(term, x)
			term.Quo(term, newF(p).SetInt64(k))
			sum.Add(sum, term)
			if term.Sign() == 0 || term.MantExp(nil)-sum.MantExp(nil) < -int(p) {
				break
			}
		}
		return newF(prec).Set(sum)
	}
	e := Exp(x, p)
	return newF(prec).Sub(e, newF(p).SetInt64(1))
}

// Log returns ln x for x > 0.
func Log(x *big.Float, prec uint) *big.Float {
	p := prec + guard
	m := newF(p)
	e := x.MantExp(m) // x = m·2^e, m in [1/2, 1)
	if m.Cmp(big.NewFloat(math.Sqrt2/2)) < 0 {
		m.SetMantExp(m, 1)
		e--
	}
	// log m = 2·atanh((m-1)/(m+1)), |s| < 0.18.
	one := newF(p).SetInt64(1)
	s := newF(p).Quo(newF(p).Sub(m, one), newF(p).Add(m, one))
	l := atanhSeries(s, p)
	l.Mul(l, newF(p).SetInt64(2))
	if e != 0 {
		el := newF(p+32).Mul(Ln2(p+32), newF(p).SetInt64(int64(e)))
		l = newF(p).Add(l, el)
	}
	return newF(prec).Set(l)
}

// Log1p returns ln(1+x) for x > -1.
func Log1p(x *big.Float, prec uint) *big.Float {
	p := prec + guard
	if x.Sign() == 0 {
		return newF(prec).Set(x)
	}
	if x.MantExp(nil) <= -1 { // |x| < 1/2: 2·atanh(x/(2+x)), |s| < 1/3
		s := newF(p).Quo(x, newF(p).Add(x, newF(p).SetInt64(2)))
		l := atanhSeries(s, p)
		return newF(prec).Mul(l, newF(p).SetInt64(2))
	}
	// 1+x is exact at this precision unless x is huge, where it no
	// longer matters.
	u := newF(p+1100).Add(x, newF(p).SetInt64(1))
	return Log(u, prec)
}

// reduce returns r = x - k·π/2 and k mod 4 for |x| < 2^64.
func reduce(x *big.Float, prec uint) (*big.Float, int) {
	// Cancellation may cost as many bits as the exponent of x plus about
	// 70 (the closest a double comes to a multiple of π/2).
	ex := max(x.MantExp(nil), 0)
	p := prec + guard + uint(ex) + 80
	halfPi := newF(p).SetMantExp(Pi(p), -1)
	q := newF(p).Quo(x, halfPi)
	// k = round(q).
	if q.Sign() >= 0 {
		q.Add(q, big.NewFloat(0.5))
	} else {
		q.Sub(q, big.NewFloat(0.5))
	}
	ki, _ := q.Int(nil)
	kf := newF(p).SetInt(ki)
	r := newF(p).Mul(kf, halfPi)
	r.Sub(x, r)
	m := new(big.Int).And(ki, big.NewInt(3))
	return newF(prec + guard).Set(r), int(m.Int64())
}

// sinCosSmall returns sin r and cos r for |r| <= 1 by Taylor.
func sinCosSmall(r *big.Float, prec uint) (s, c *big.Float) {
	s = newF(prec).Set(r)
	c = newF(prec).SetInt64(1)
	term := newF(prec).Set(r) // r^k/k!
	for k := int64(2); ; k += 2 {
		term.Mul(term, r)
		term.Quo(term, newF(prec).SetInt64(k)) // r^k/k!
		if (k/2)%2 == 1 {
			c.Sub(c, term)
		} else {
			c.Add(c, term)
		}
		term.Mul(term, r)
		term.Quo(term, newF(prec).SetInt64(k+1))
		if (k/2)%2 == 1 {
			s.Sub(s, term)
		} else {
			s.Add(s, term)
		}
		if term.Sign() == 0 || term.MantExp(nil) < -int(prec)-4 {
			return s, c
		}
	}
}

// Sin returns sin x for |x| < 2^64.
func Sin(x *big.Float, prec uint) *big.Float {
	if x.Sign() == 0 {
		return newF(prec).Set(x)
	}
	r, q := reduce(x, prec)
	s, c := sinCosSmall(r, prec+guard)
	switch q {
	case 0:
		return newF(prec).Set(s)
	case 1:
		return newF(prec).Set(c)
	case 2:
		return newF(prec).Neg(s)
	default:
		return newF(prec).Neg(c)
	}
}

// Cos returns cos x for |x| < 2^64.
func Cos(x *big.Float, prec uint) *big.Float {
	r, q := reduce(x, prec)
	s, c := sinCosSmall(r, prec+guard)
	switch q {
	case 0:
		return newF(prec).Set(c)
	case 1:
		return newF(prec).Neg(s)
	case 2:
		return newF(prec).Neg(c)
	default:
		return newF(prec).Set(s)
	}
}

// Tanh returns tanh x = E/(E+2) with E = e^(2|x|) - 1, with the sign of x.
func Tanh(x *big.Float, prec uint) *big.Float {
	p := prec + guard
	ax := newF(p).Abs(x)
	if ax.Sign() == 0 {
		return newF(prec).Set(x)
	}
	if ax.Cmp(big.NewFloat(200)) > 0 { // 1 - tanh x < 2^-570
		one := newF(prec).SetInt64(1)
		if x.Sign() < 0 {
			one.Neg(one)
		}
		return one
	}
	e := Expm1(newF(p).Mul(ax, big.NewFloat(2)), p)
	t := newF(p).Quo(e, newF(p).Add(e, newF(p).SetInt64(2)))
	if x.Sign() < 0 {
		t.Neg(t)
	}
	return newF(prec).Set(t)
}

// Sigmoid returns 1/(1+e^-x) for |x| < 2^19.
func Sigmoid(x *big.Float, prec uint) *big.Float {
	p := prec + guard
	e := Exp(newF(p).Neg(x), p)
	e.Add(e, newF(p).SetInt64(1))
	return newF(prec).Quo(newF(p).SetInt64(1), e)
}
