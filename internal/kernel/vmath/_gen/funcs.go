package main

import (
	"math"
	"math/big"

	"github.com/tenferro-go/tenferro/internal/kernel/vmath/internal/bigmath"
)

// format holds the per-type constants and fitted polynomials the
// algorithms use; all are derived here from bigmath.
type format struct {
	elem int
	// exp: log2(e), ln 2 = l1 + l2, the overflow and underflow thresholds
	// of exp (beyond them the rounded result is ±Inf or 0), the threshold
	// below which expm1 is -1, tanh's threshold above which it is ±1.
	log2e, l1, l2       float64
	expHi, expLo, em1Lo float64
	tanhHi              float64
	twoOverPi           float64
	p1, p2, p3          float64 // π/2 = p1 + p2 + p3
	trigMax             float64 // |x| above which sin and cos use package math
	sqrtHalfBits        uint64  // bits of √½, the lower end of log's mantissa range
	expP, expm1P, logQ  []float64
	sinS                []float64
	cosC                []float64
	atanA, asinP        []float64
	sinhS               []float64
	cos2C, tanhT        []float64 // float32 lanes: cos r = 1 - z/2 + z²·C(z), tanh
	sinhHi              float64   // |x| above which sinh and cosh overflow
	// erf: Q, erfc's H in u = t - erfcMid, the argument beyond which erfc
	// (geluHi: gelu of -x) rounds to 0, ln 2 = erfL1 + erfL2 with k·erfL1
	// exact, 1/√2 in two parts.
	erfQ, erfcH          []float64
	erfcH0Lo             float64 // erfcH[0]'s remainder
	erfcMid              float64
	erfcHi, geluHi       float64
	erfL1, erfL2         float64
	invSqrt2, invSqrt2Lo float64
	fits                 map[string]fitResult
}

func roundTo(elem int, x *big.Float) float64 {
	if elem == 4 {
		f, _ := x.Float32()
		return float64(f)
	}
	f, _ := x.Float64()
	return f
}

// split returns hi = round(c) and lo = round(c - hi).
func split(elem int, c *big.Float) (float64, float64) {
	hi := roundTo(elem, c)
	r := new(big.Float).SetPrec(fitPrec).Sub(c, bf(hi))
	return hi, roundTo(elem, r)
}

// boundary returns the last float x of the element type in [lo, hi] with
// ok(x), for ok true at lo, false at hi and changing once.
func boundary(elem int, lo, hi float64, ok func(float64) bool) float64 {
	ord := func(x float64) int64 { // monotone integer image of a float
		if elem == 4 {
			b := int64(math.Float32bits(float32(x)))
			if b&(1<<31) != 0 {
				return -(b & (1<<31 - 1))
			}
			return b
		}
		b := int64(math.Float64bits(x))
		if b < 0 {
			return -(b & math.MaxInt64)
		}
		return b
	}
	unord := func(o int64) float64 {
		if elem == 4 {
			if o < 0 {
				return float64(math.Float32frombits(uint32(-o) | 1<<31))
			}
			return float64(math.Float32frombits(uint32(o)))
		}
		if o < 0 {
			return math.Float64frombits(uint64(-o) | 1<<63)
		}
		return math.Float64frombits(uint64(o))
	}
	a, b := ord(lo), ord(hi)
	for b-a > 1 {
		m := a + (b-a)/2
		if ok(unord(m)) {
			a = m
		} else {
			b = m
		}
	}
	return unord(a)
}

// newFormat derives the constants for elem-byte lanes.
// format that computes float32 results (its polynomials need only about
// 40 bits).
func newFormat(elem int) *format {
	const p = fitPrec
	fm := &format{elem: elem, fits: map[string]fitResult{}}
	ln2 := bigmath.Ln2(p)
	fm.log2e = roundTo(elem, new(big.Float).SetPrec(p).Quo(bf(1), ln2))
	fm.l1, fm.l2 = split(elem, ln2)
	pi := bigmath.Pi(p)
	fm.twoOverPi = roundTo(elem, new(big.Float).SetPrec(p).Quo(bf(2), pi))
	halfPi := new(big.Float).SetPrec(p).Quo(pi, bf(2))
	fm.p1 = roundTo(elem, halfPi)
	rest := new(big.Float).SetPrec(p).Sub(halfPi, bf(fm.p1))
	fm.p2 = roundTo(elem, rest)
	rest.Sub(rest, bf(fm.p2))
	fm.p3 = roundTo(elem, rest)
	fm.sqrtHalfBits = math.Float64bits(math.Sqrt2 / 2)
	if elem == 4 {
		fm.sqrtHalfBits = uint64(math.Float32bits(float32(math.Sqrt2 / 2)))
	}

	rounded := func(v *big.Float) float64 { return roundTo(elem, v) }
	finite := func(v float64) bool { return !math.IsInf(v, 0) }
	fm.expHi = boundary(elem, 1, 1000, func(x float64) bool { return finite(rounded(bigmath.Exp(bf(x), 100))) })
	fm.expLo = -boundary(elem, 1, 1000, func(x float64) bool { return rounded(bigmath.Exp(bf(-x), 100)) != 0 })
	// expm1 is -1 once e^x is below half an ulp of 1 from below.
	fm.em1Lo = -boundary(elem, 1, 1000, func(x float64) bool { return rounded(bigmath.Expm1(bf(-x), 100)) != -1 })
	fm.tanhHi = boundary(elem, 0.5, 1000, func(x float64) bool { return rounded(bigmath.Tanh(bf(x), 100)) != 1 })
	// Round the thresholds out to simple numbers that keep the fast path
	// valid (k stays within the two-step scaling's range).
	fm.em1Lo = math.Floor(fm.em1Lo) - 1
	fm.tanhHi = math.Ceil(fm.tanhHi)
	fm.trigMax = 0x1p28
	if elem == 4 {
		fm.trigMax = trigMax32
	}
	fm.sinhHi = boundary(elem, 1, 1000, func(x float64) bool {
		return finite(rounded(new(big.Float).SetMantExp(bigmath.Exp(bf(x), 100), -1)))
	})
	fm.fitAll()
	fm.fitInverse()
	fm.fitHyperbolic()
	fm.fitErf()
	if elem == 4 {
		fm.fitNative32()
	}
	return fm
}

// fitAll computes the polynomials.
func (fm *format) fitAll() {
	// Degrees of exp's P (|r| <= ln2/2), log's Q, sin's S, cos's C and
	// expm1's P (|r| <= ln2); 0 where a format does not use the function
	// (float32 Sin and Cos use fitNative32's polynomials).
	deg := map[int][5]int{8: {10, 6, 5, 6, 12}, 4: {5, 2, 0, 0, 7}}[fm.elem]
	// The intervals are widened by this relative margin: the rounded
	// reduction constants let |r| exceed its nominal bound by less.
	const margin = 1e-4
	one := bf(1)
	// expm1(r) = r + r²·P(r), |r| <= ln2/2.
	ln2h := math.Ln2 / 2 * (1 + margin)
	em1G := func(t *big.Float) *big.Float { // (e^t - 1 - t)/t²
		return series(t, func(n int) *big.Float { return inv(factorial(n + 2)) })
	}
	em1W := func(t *big.Float) *big.Float { // t²/(e^t - 1) = t/sum t^n/(n+1)!
		s := series(t, func(n int) *big.Float { return inv(factorial(n + 1)) })
		return new(big.Float).SetPrec(fitPrec).Quo(t, s)
	}
	fm.expP = fm.fit(fitSpec{"exp", -ln2h, ln2h, deg[0], em1G, em1W})
	fm.expm1P = fm.fit(fitSpec{"expm1", -2 * ln2h, 2 * ln2h, deg[4], em1G, em1W})
	// log1p(f) = 2·atanh(s) = 2s + s·z·Q(z), z = s², |s| <= (√2-1)/(√2+1).
	smax := (math.Sqrt2 - 1) / (math.Sqrt2 + 1) * (1 + margin)
	logG := func(z *big.Float) *big.Float { // sum 2 z^n/(2n+3)
		return series(z, func(n int) *big.Float { return inv(bf(float64(2*n+3) / 2)) })
	}
	logW := func(z *big.Float) *big.Float { // z/(2 + z·g)
		d := new(big.Float).SetPrec(fitPrec).Mul(z, logG(z))
		d.Add(d, bf(2))
		return d.Quo(z, d)
	}
	fm.logQ = fm.fit(fitSpec{"log", 0, smax * smax, deg[1], logG, logW})
	// sin r = r + r·z·S(z), cos r = 1 + z·C(z), z = r², |r| <= π/4.
	zmax := math.Pow(math.Pi/4*(1+margin), 2)
	alt := func(n int) float64 {
		if n%2 == 0 {
			return -1
		}
		return 1
	}
	sinG := func(z *big.Float) *big.Float {
		return series(z, func(n int) *big.Float { return new(big.Float).Mul(bf(alt(n)), inv(factorial(2*n+3))) })
	}
	cosG := func(z *big.Float) *big.Float {
		return series(z, func(n int) *big.Float { return new(big.Float).Mul(bf(alt(n)), inv(factorial(2*n+2))) })
	}
	relW := func(g func(*big.Float) *big.Float) func(*big.Float) *big.Float {
		return func(z *big.Float) *big.Float { // z/(1 + z·g)
			d := new(big.Float).SetPrec(fitPrec).Mul(z, g(z))
			d.Add(d, one)
			return d.Quo(z, d)
		}
	}
	fm.sinS = fm.fit(fitSpec{"sin", 0, zmax, deg[2], sinG, relW(sinG)})
	fm.cosC = fm.fit(fitSpec{"cos", 0, zmax, deg[3], cosG, relW(cosG)})
}

func (fm *format) fit(s fitSpec) []float64 {
	if s.deg == 0 {
		return nil
	}
	r := remez(s, fm.elem)
	fm.fits[s.name] = r
	return r.coef
}

// magic is 1.5·2^mant: adding it rounds to an integer held in the low bits.
func (p *prog) magic() float64 { return 1.5 * math.Ldexp(1, p.mant()) }

// expReduce returns t = x·log2e + magic (rounded to an integer k held in
// its low bits), kf = k as a float, and r = x - k·ln2 (|r| <= ln2/2).
func (p *prog) expReduce(fm *format, x *value) (t, kf, r *value) {
	t = p.fma(x, p.f(fm.log2e), p.f(p.magic()))
	kf = p.sub(t, p.f(p.magic()))
	r = p.fnma(kf, p.f(fm.l1), x) // exact
	r = p.fnma(kf, p.f(fm.l2), r)
	return
}

// pow2Bits returns the float 2^(k+e) for the integer k in t's low bits (t
// as made by expReduce), valid while k+e is a normal exponent.
func (p *prog) pow2Bits(t *value, e int) *value {
	b := p.shl(p.asInt(t), p.mant())
	return p.asFloat(p.iadd(b, p.i(uint64(p.bias()+e)<<p.mant())))
}

// expCore returns e^x without the overflow and underflow blends: valid for
// x in [expLo, expHi] (results down to the subnormals), NaN for NaN.
func (p *prog) expCore(fm *format, x *value) *value { return p.expScaled(fm, x, 0) }

// expScaled returns e^x·2^sc (sc = 0 or -1), rounded once: valid where the
// result is finite, so for sc = -1 up to sinhHi.
func (p *prog) expScaled(fm *format, x *value, sc int) *value {
	t, kf, r := p.expReduce(fm, x)
	q := p.horner(r, fm.expP)
	e := p.fma(r, p.fma(r, q, p.f(1)), p.f(1)) // 1 + r + r²·P(r)
	return p.scale2k(e, t, kf, sc)
}

// scale2k returns y·2^(k+sc) for the integer k in t's low bits (as made by
// expReduce) and kf = k as a float: 2^k = 2^k1 · 2^(k-k1) with
// k1 = round(k/2), both factors normal for k in [-2·bias+2, 2·bias], so
// the product rounds once.
func (p *prog) scale2k(y, t, kf *value, sc int) *value {
	h := p.fma(kf, p.f(0.5), p.f(p.magic()))
	s1 := p.pow2Bits(h, 0)
	k2 := p.isub(p.asInt(t), p.asInt(h)) // k - k1
	s2 := p.asFloat(p.iadd(p.shl(k2, p.mant()), p.i(uint64(p.bias()+sc)<<p.mant())))
	return p.mul(p.mul(y, s1), s2)
}

// expm1Core returns e^x - 1 for x in [em1Lo, expHi] without blends.
// Below |x| = ln2 it keeps k = 0 (r = x), where e^r - 1 needs no scaling;
// beyond, |e^x - 1| >= 1/2 and the scaled form loses nothing to
// cancellation.
func (p *prog) expm1Core(fm *format, x *value) *value {
	t := p.fma(x, p.f(fm.log2e), p.f(p.magic()))
	kf := p.sub(t, p.f(p.magic()))
	small := p.cmp(lt, p.abs(x), p.f(math.Ln2))
	kf = p.sel(small, p.f(0), kf)
	t = p.sel(small, p.f(p.magic()), t)
	r := p.fnma(kf, p.f(fm.l1), x) // exact
	r = p.fnma(kf, p.f(fm.l2), r)
	P := p.horner(r, fm.expm1P)
	q := p.fma(p.mul(r, r), P, r) // e^r - 1
	// k != 0: 2·(s·q + (s - 1/2)) with s = 2^(k-1), so that 2^k never
	// overflows before the final doubling.
	s := p.pow2Bits(t, -1)
	g := p.fma(s, q, p.sub(s, p.f(0.5)))
	g = p.add(g, g)
	return p.sel(p.cmp(eq, kf, p.f(0)), q, g)
}

func buildExp(fm *format, p *prog) { p.out = p.exp(fm, p.x) }

// exp returns e^x, with the overflow and underflow blends.
func (p *prog) exp(fm *format, x *value) *value {
	y := p.expCore(fm, x)
	y = p.sel(p.cmp(gt, x, p.f(fm.expHi)), p.f(math.Inf(1)), y)
	return p.sel(p.cmp(lt, x, p.f(fm.expLo)), p.f(0), y)
}

func buildExpm1(fm *format, p *prog) {
	x := p.x
	y := p.expm1Core(fm, x)
	y = p.sel(p.cmp(gt, x, p.f(fm.expHi)), p.f(math.Inf(1)), y)
	y = p.sel(p.cmp(lt, x, p.f(fm.em1Lo)), p.f(-1), y)
	p.out = p.sel(p.cmp(eq, x, p.f(0)), x, y) // ±0
}

// tanh x = sign(x)·E/(E+2), E = expm1(2|x|); ±1 beyond tanhHi.
func buildTanh(fm *format, p *prog) {
	x := p.x
	ax := p.abs(x)
	e := p.expm1Core(fm, p.add(ax, ax))
	d := p.add(e, p.f(2))
	y := p.div(e, d)
	// The exact E+2 = d + δ (two-sum); with 1/d = (1-y)/2, correct y for
	// δ and for the division's rounding ρ = E - y·d: y + (ρ - y·δ)/d.
	// Where E > 2^26, 1-y no longer gives 1/d accurately, and y (near 1)
	// needs no correction.
	bb := p.sub(d, e)
	delta := p.add(p.sub(e, p.sub(d, bb)), p.sub(p.f(2), bb))
	inv := p.sel(p.cmp(lt, e, p.f(0x1p26)), p.fnma(y, p.f(0.5), p.f(0.5)), p.f(0))
	y = p.quoFix(y, e, d, delta, inv)
	y = p.sel(p.cmp(gt, ax, p.f(fm.tanhHi)), p.f(1), y)
	p.out = p.asFloat(p.or(p.asInt(y), p.and(p.asInt(x), p.i(p.sign()))))
}

// quoFix returns y + (ρ - y·δ)·inv for y = num/d rounded, ρ = num - y·d
// (exact with an FMA), the exact denominator d + δ and inv ≈ 1/d: y
// corrected to first order for the rounding of the division and of d.
func (p *prog) quoFix(y, num, d, delta, inv *value) *value {
	rho := p.fnma(y, d, num)
	return p.fma(p.fnma(y, delta, rho), inv, y)
}

// sigmoid x = 1/(1+E) for x >= 0 and E/(1+E) for x < 0, E = e^-|x|.
func buildSigmoid(fm *format, p *prog) {
	x := p.x
	nx := p.asFloat(p.or(p.asInt(x), p.i(p.sign()))) // -|x|
	e := p.expCore(fm, nx)
	e = p.sel(p.cmp(lt, nx, p.f(fm.expLo)), p.f(0), e)
	neg := p.cmp(lt, x, p.f(0))
	num := p.sel(neg, e, p.f(1))
	d := p.add(e, p.f(1))
	y := p.div(num, d)
	// As in tanh: 1+E = d + δ exactly (E <= 1), and 1/d is y for x >= 0,
	// 1-y for x < 0.
	delta := p.add(p.sub(p.f(1), d), e)
	y = p.quoFix(y, num, d, delta, p.sel(neg, p.sub(p.f(1), y), y))
	p.out = y
}

// logCore returns log(2^k·(1+F)) = k·ln2 + 2·atanh(F/(2+F)) for
// integer-valued kf and F = f + lo in [√½-1, √2-1]; fr is F rounded (lo
// is nil when f = F). Keeping lo apart spares the result F's rounding.
func (p *prog) logCore(fm *format, f, fr, lo, kf *value) *value {
	s := p.div(fr, p.add(fr, p.f(2)))
	z := p.mul(s, s)
	q := p.horner(z, fm.logQ)
	w := p.fnma(z, q, fr) // F - z·Q = F - (2atanh(s) - 2s)/s
	var kl *value         // -k·l2 - lo
	if lo == nil {
		kl = p.mul(kf, p.f(-fm.l2))
	} else {
		kl = p.fms(kf, p.f(-fm.l2), lo)
	}
	c := p.fma(s, w, kl)                      // F - log1p(F) - k·l2 - lo
	return p.fma(kf, p.f(fm.l1), p.sub(f, c)) // k·l1 + (f - c)
}

// splitLog returns kf and f with v = 2^k·(1+f), 1+f in [√½, √2), for
// positive normal v given as bits; kbias is subtracted from 2^mant + k+bias.
func (p *prog) splitLog(fm *format, iv, kbias *value) (kf, f *value) {
	mant := p.mant()
	one := p.bitsOf(1)
	t := p.iadd(iv, p.i(one-fm.sqrtHalfBits))
	u := p.shr(t, mant) // k + bias
	kf = p.sub(p.asFloat(p.or(u, p.i(p.bitsOf(math.Ldexp(1, mant))))), kbias)
	hiMask := ^uint64(0) << mant
	mb := p.iadd(p.isub(iv, p.and(t, p.i(hiMask))), p.i(one))
	f = p.sub(p.asFloat(mb), p.f(1))
	return
}

func buildLog(fm *format, p *prog) { p.out = p.log(fm, p.x) }

// log returns ln x, with the special values of math.Log.
func (p *prog) log(fm *format, x *value) *value {
	mant := p.mant()
	minNorm := math.Ldexp(1, 1-p.bias())
	small := p.cmp(lt, x, p.f(minNorm))
	xs := p.sel(small, p.mul(x, p.f(math.Ldexp(1, mant))), x)
	base := math.Ldexp(1, mant) + float64(p.bias())
	kbias := p.sel(small, p.f(base+float64(mant)), p.f(base))
	kf, f := p.splitLog(fm, p.asInt(xs), kbias)
	y := p.logCore(fm, f, f, nil, kf)
	y = p.sel(p.cmp(notGE, x, p.f(0)), p.f(math.NaN()), y)
	y = p.sel(p.cmp(eq, x, p.f(0)), p.f(math.Inf(-1)), y)
	return p.sel(p.cmp(eq, x, p.f(math.Inf(1))), p.f(math.Inf(1)), y)
}

func buildLog1p(fm *format, p *prog) {
	x := p.x
	mant := p.mant()
	one := p.f(1)
	u := p.add(x, one)
	// err = (1 + x) - u exactly (two-sum).
	a := p.sub(u, x)
	b := p.sub(u, a)
	err := p.add(p.sub(one, a), p.sub(x, b))
	base := math.Ldexp(1, mant) + float64(p.bias())
	kf, f := p.splitLog(fm, p.asInt(u), p.f(base))
	// 1+x = 2^k·(1 + f + err·2^-k); 2^-k from k clamped to the normal
	// range (beyond it err·2^-k is far below f's ulp).
	kc := p.min(kf, p.f(float64(p.bias()-1)))
	sc := p.add(p.sub(p.f(float64(p.bias())), kc), p.f(p.magic()))
	scale := p.asFloat(p.shl(p.asInt(sc), mant))
	lo := p.mul(err, scale) // exact
	y := p.logCore(fm, f, p.add(f, lo), lo, kf)
	y = p.sel(p.cmp(notGE, x, p.f(-1)), p.f(math.NaN()), y)
	y = p.sel(p.cmp(eq, x, p.f(-1)), p.f(math.Inf(-1)), y)
	y = p.sel(p.cmp(eq, x, p.f(math.Inf(1))), p.f(math.Inf(1)), y)
	p.out = p.sel(p.cmp(eq, x, p.f(0)), x, y) // ±0
}

// trigArg leaves lanes beyond trigMax (and Inf, NaN) to the scalar twin
// and reduces x = k·π/2 + r with |r| <= π/4, returning t (k in its low
// bits) and r. With lo, r is x - k·p1 - k·p2 rounded and rLo the rest:
// that step's rounding error less k·p3 (else rLo is nil).
func (p *prog) trigArg(fm *format, x *value, lo bool) (t, r, rLo *value) {
	p.bail(p.cmp(notLE, p.abs(x), p.f(fm.trigMax)))
	t = p.fma(x, p.f(fm.twoOverPi), p.f(p.magic()))
	kf := p.sub(t, p.f(p.magic()))
	r1 := p.fnma(kf, p.f(fm.p1), x) // exact
	if lo {
		// k·p2 = w + wErr exactly (FMA), r1 - w = r + e (two-sum).
		w := p.mul(kf, p.f(fm.p2))
		wErr := p.fms(kf, p.f(fm.p2), w)
		r = p.sub(r1, w)
		bb := p.sub(r, r1)
		e := p.sub(p.sub(r1, p.sub(r, bb)), p.add(w, bb))
		rLo = p.fnma(kf, p.f(fm.p3), p.sub(e, wErr))
	} else {
		r = p.fnma(kf, p.f(fm.p2), r1)
		r = p.fnma(kf, p.f(fm.p3), r)
	}
	return
}

// trigReduce is trigArg followed by sin r and cos r.
func (p *prog) trigReduce(fm *format, x *value, lo bool) (t, sn, cs, rLo *value) {
	t, r, rLo := p.trigArg(fm, x, lo)
	z := p.mul(r, r)
	sn = p.fma(p.mul(r, z), p.horner(z, fm.sinS), r)
	cs = p.fma(z, p.horner(z, fm.cosC), p.f(1))
	return
}

// sinCos returns sin(x) (cos = false) or cos(x): x = k·π/2 + r, then
// ±sin r or ±cos r by the quadrant k mod 4.
func buildSinCos(fm *format, p *prog, cos bool) {
	t, sn, cs, _ := p.trigReduce(fm, p.x, false)
	p.sinCosSelect(p.x, t, sn, cs, cos)
}

// sinCosSelect returns ±sn or ±cs, sin r and cos r, by the quadrant k mod
// 4 of x = k·π/2 + r (k in t's low bits); sin keeps the sign of a zero x.
func (p *prog) sinCosSelect(x, t, sn, cs *value, cos bool) {
	k := p.asInt(t)
	if cos {
		k = p.iadd(k, p.i(1)) // cos x = sin(x + π/2)
	}
	odd := p.ieq(p.and(k, p.i(1)), p.i(1))
	y := p.sel(odd, cs, sn)
	neg := p.shl(p.and(k, p.i(2)), 8*p.elem-2)
	y = p.asFloat(p.xor(p.asInt(y), neg))
	if cos {
		p.out = y
		return
	}
	p.out = p.sel(p.cmp(eq, x, p.f(0)), x, y) // ±0
}

func buildSqrt(fm *format, p *prog) { p.out = p.sqrt(p.x) }

// function describes one generated function.
type function struct {
	name     string // lower-case stem
	api      string // exported name
	build    func(fm *format, p *prog)
	fallback string // Go expression (of float64 x) for bailed lanes
	// fallback32 is the expression (of float32 x) for the bailed lanes of
	// the float32 kernels.
	fallback32 string
}

// per32 builds with native for float32 lanes and with f otherwise.
func per32(f, native func(fm *format, p *prog)) func(fm *format, p *prog) {
	return func(fm *format, p *prog) {
		if fm.elem == 4 {
			native(fm, p)
			return
		}
		f(fm, p)
	}
}

var functions = []function{
	{name: "exp", api: "Exp", build: buildExp},
	{name: "expm1", api: "Expm1", build: buildExpm1},
	{name: "log", api: "Log", build: buildLog},
	{name: "log1p", api: "Log1p", build: buildLog1p},
	{name: "tanh", api: "Tanh", build: per32(buildTanh, buildTanh32)},
	{name: "sigmoid", api: "Sigmoid", build: per32(buildSigmoid, buildSigmoid32)},
	{name: "sin", api: "Sin", build: per32(func(fm *format, p *prog) { buildSinCos(fm, p, false) },
		func(fm *format, p *prog) { buildSinCos32(fm, p, false) }),
		fallback: "math.Sin(x)", fallback32: "float32(math.Sin(float64(x)))"},
	{name: "cos", api: "Cos", build: per32(func(fm *format, p *prog) { buildSinCos(fm, p, true) },
		func(fm *format, p *prog) { buildSinCos32(fm, p, true) }),
		fallback: "math.Cos(x)", fallback32: "float32(math.Cos(float64(x)))"},
	{name: "sqrt", api: "Sqrt", build: buildSqrt},
	{name: "tan", api: "Tan", build: per32(buildTan, buildTan32), fallback: "tanFallback(x)",
		fallback32: "float32(tanFallback(float64(x)))"},
	{name: "atan", api: "Atan", build: buildAtan},
	{name: "asin", api: "Asin", build: buildAsin},
	{name: "acos", api: "Acos", build: buildAcos},
	{name: "sinh", api: "Sinh", build: per32(func(fm *format, p *prog) { buildSinhCosh(fm, p, false) },
		func(fm *format, p *prog) { buildSinhCosh32(fm, p, false) })},
	{name: "cosh", api: "Cosh", build: per32(func(fm *format, p *prog) { buildSinhCosh(fm, p, true) },
		func(fm *format, p *prog) { buildSinhCosh32(fm, p, true) })},
	{name: "erf", api: "Erf", build: buildErf},
	{name: "erfc", api: "Erfc", build: buildErfc},
	{name: "gelu", api: "Gelu", build: buildGelu},
}
