package scalar

import (
	"math"
	"math/cmplx"
	"math/rand/v2"
	"testing"
)

func TestCPowSpecial(t *testing.T) {
	for _, c := range []struct {
		a, b, want complex128
		free       int
	}{
		{0, 0, 1, 0}, {nanC, 0, 1, 0}, {complex(inf, nan), complex(nz, 0), 1, 0},
		{0, 2.5, 0, 0}, {0, complex(1, -3), 0, 0}, {0, complex(-1, 0), complex(inf, 0), 0},
		{0, complex(-2, 5), complex(inf, 0), 0}, {0, complex(0, 1), nanC, 0}, {0, complex(1, nan), nanC, 0},
		{0, complex(nan, 0), nanC, 0}, {complex(nz, nz), 3, 0, 0},
		{1, complex(inf, 0), nanC, 0}, {1, complex(nan, 0), nanC, 0}, {1, 0.5, 1, 0},
		{complex(2.5, 0), complex(inf, 0), complex(inf, 0), 0}, {complex(2.5, 0), complex(-inf, 0), 0, 0},
		{complex(0, 2.5), complex(inf, 0), complex(inf, nan), anyRe}, {complex(0, 0.5), complex(inf, 0), 0, anyRe | anyIm},
		{complex(inf, 0), -1, 0, anyIm}, {complex(inf, inf), -1, 0, anyRe | anyIm}, {complex(nan, inf), -1, 0, anyRe | anyIm},
		{complex(inf, inf), 3, complex(-inf, inf), 0}, {complex(inf, 0), 2.5, complex(inf, 0), 0},
		{complex(0, inf), 1, complex(0, inf), 0},
		// Integer powers are exact where the products are.
		{complex(1, 1), 2, complex(0, 2), 0}, {complex(1, 2), 3, complex(-11, -2), 0}, {complex(0, 1), 4, 1, anyIm},
		{complex(2, 0), -3, 0.125, 0}, {complex(-2, 0), 5, -32, 0}, {complex(0, 2), -2, -0.25, anyIm},
		// Beyond the range of the products, the polar form.
		{complex(0, 1e300), 3, complex(0, -inf), anyRe}, {complex(1e300, 1e300), 64, complex(inf, 0), anyIm},
		{complex(0, 1e-300), -3, complex(0, inf), anyRe}, {complex(1e-200, 0), 2, 0, 0}, {complex(3e-162, 0), 2, 1e-323, 0},
		// Real exponents of real bases are Pow's.
		{complex(2.5, 0), 0.5, complex(Pow(2.5, 0.5), 0), 0}, {complex(1e300, 0), 1.5, complex(inf, 0), 0},
		{complex(-8, 0), 1.0 / 3, complex(1, math.Sqrt(3)), 0},
	} {
		got := CPow(c.a, c.b)
		if !matchPart(real(got), real(c.want), c.free&anyRe != 0) || !matchPart(imag(got), imag(c.want), c.free&anyIm != 0) {
			t.Errorf("CPow(%v, %v) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
	// (1+i)^64 = 2^32 exactly and b = 1 returns a bit for bit.
	if got := CPow(complex(1, 1), 64); got != 0x1p32 {
		t.Errorf("CPow(1+i, 64) = %v, want 2^32", got)
	}
	for _, a := range []complex128{complex(nz, 5e-324), complex(inf, nan), complex(-3, nz)} {
		if got := CPow(a, 1); !sameBits(got, a) {
			t.Errorf("CPow(%v, 1) = %v", a, got)
		}
	}
}

// TestCPowAccuracy compares CPow with e^(b·log a) in high precision. The
// bound is that of the data: log a is known to 1 ulp in each part, so the
// exponent b·log a carries an error of about |b|·(|log|a|| + π)·eps,
// whatever the evaluation; integer powers add one rounding per product.
func TestCPowAccuracy(t *testing.T) {
	parts := []float64{0, 1e-300, 1e-10, 0.5, 0.9999999999999999, 1, 1.0000000000000002, 2, 10, 1e10, 1e300}
	bs := []complex128{0.5, -0.5, 1.0 / 3, 2.5, -3.7, 10.25, 2, 3, -2, 7, 64, -5, complex(0.5, 0.5),
		complex(-1.5, 2), complex(3, 0.1), complex(0, 1e-3), complex(1e-10, 0)}
	ref := func(a, b complex128) complex128 {
		if math.Signbit(imag(a)) {
			return cmplx.Conj(bcExp(bcOf(cmplx.Conj(b)).mul(bcLog(bcOf(cmplx.Conj(a))))).float())
		}
		return bcExp(bcOf(b).mul(bcLog(bcOf(a)))).float()
	}
	worst := 0.0
	var as []complex128
	for i, a := range grid(parts, parts) {
		if a != 0 && (!testing.Short() || i%5 == 0) {
			as = append(as, a, cmplx.Conj(a))
		}
	}
	for _, a := range as {
		for _, b := range bs {
			got, want := CPow(a, b), ref(a, b)
			if !isFinite(real(want)) || !isFinite(imag(want)) {
				// |a^b| beyond the range: the reference's parts, one
				// of them rounded from far below |a^b|, need not be
				// the result's; it must be an infinity.
				if !cmplx.IsInf(got) {
					t.Errorf("CPow(%v, %v) = %v, want an infinity", a, b, got)
				}
				continue
			}
			tol := 3 + 2*cmplx.Abs(b)*(math.Abs(math.Log(cmplx.Abs(a)))+math.Pi)
			if imag(b) == 0 && real(b) == math.Trunc(real(b)) {
				tol = 3 + math.Abs(real(b))/2 // repeated squaring (powInt)
			}
			e := normErr(got, want)
			if e > tol {
				t.Errorf("CPow(%v, %v) = %v, want %v (%.3g eps, bound %.3g)", a, b, got, want, e, tol)
			}
			worst = max(worst, e/tol)
		}
	}
	t.Logf("largest error %.3g of the bound", worst)
}

// TestPowAccuracy checks Pow against e^(y·ln x) in 160-bit arithmetic on
// positive bases of every magnitude (subnormal included) with normal
// results, and LogDD against ln x: Pow within 2 ulps (math.Exp's ulp and
// |y·ln x|·2^-62 from the logarithm), LogDD within 2^-62 relative.
func TestPowAccuracy(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	worst, worstLog := 0.0, 0.0
	for i := range 4000 {
		x := (0.5 + r.Float64()) * math.Pow(2, float64(r.IntN(2090)-1070))
		lim := 700 / math.Abs(math.Log(x)) // |y·ln x| < 700: a normal result
		y := (2*r.Float64() - 1) * min(lim, 50)
		switch i % 3 {
		case 0:
			x, y = 0.25+4*r.Float64(), 20*(2*r.Float64()-1)
		case 1: // a base near 1 and a large exponent: |y·ln x| up to 700
			x = 0.7 + 0.7*r.Float64()
			y = (2*r.Float64() - 1) * 700 / math.Abs(math.Log(x))
		}
		lx := blog(bf(x))
		want := round(bexp(bmul(lx, bf(y))))
		got := Pow(x, y)
		if d := ulpErr(got, want); d > 2 {
			t.Errorf("Pow(%v, %v) = %v, want %v (%.2f ulp)", x, y, got, want, d)
		} else {
			worst = max(worst, d)
		}
		hi, lo := LogDD(x)
		if lx.Sign() != 0 {
			e := bquo(bsub(badd(bf(hi), bf(lo)), lx), lx)
			if rel, _ := e.Float64(); math.Abs(rel) > 0x1p-62 {
				t.Errorf("LogDD(%v) = %v + %v: relative error %.3g", x, hi, lo, rel)
			} else {
				worstLog = max(worstLog, math.Abs(rel))
			}
		}
	}
	t.Logf("Pow: worst %.2f ulp; LogDD: worst relative error 2^%.1f", worst, math.Log2(worstLog))
}

// TestPowSpecial: the special arguments give math.Pow's values, negative
// bases the sign of odd integer exponents.
func TestPowSpecial(t *testing.T) {
	vals := []float64{0, math.Copysign(0, -1), inf, -inf, nan, 1, -1, 2, -2, 0.5, -0.5, 3, -3, 2.5, -2.5, 1e300, -1e-300, 5e-324}
	for _, x := range vals {
		for _, y := range vals {
			got, want := Pow(x, y), math.Pow(x, y)
			if ulpErr(got, want) > 1 || got == 0 && math.Signbit(got) != math.Signbit(want) {
				t.Errorf("Pow(%v, %v) = %v, want %v", x, y, got, want)
			}
		}
	}
}
