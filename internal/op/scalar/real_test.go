package scalar

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// ulpErr returns |got - want| in units in the last place of want (of the
// smallest subnormal at 0); equal infinities and NaNs give 0, any other
// non-finite disagreement +Inf.
func ulpErr(got, want float64) float64 {
	switch {
	case got == want || got != got && want != want:
		return 0
	case !isFinite(got) || !isFinite(want):
		return math.Inf(1)
	}
	w := math.Abs(want)
	return math.Abs(got-want) / (math.Nextafter(w, math.Inf(1)) - w)
}

// round returns x rounded to float64 (±Inf beyond the range).
func round(x *big.Float) float64 {
	f, _ := x.Float64()
	return f
}

func TestConstants(t *testing.T) {
	if got, want := e512, round(bexp(bint(512))); got != want {
		t.Errorf("e512 = %x, want %x", got, want)
	}
	l := bsub(bsub(bln2(), bf(ln2Hi)), bf(ln2Lo))
	if l.Sign() != 0 && l.MantExp(nil) > -88 {
		t.Errorf("ln2Hi + ln2Lo = ln 2 - %g", l)
	}
	if h := ln2Hi * 0x1p33; h != math.Trunc(h) { // 33 significant bits: k·ln2Hi exact for k < 2^20
		t.Errorf("ln2Hi has more than 33 significant bits")
	}
	p := bsub(bsub(bmulExp(bpi(), -1), bf(piO2Hi)), bf(piO2Lo))
	if p.Sign() != 0 && p.MantExp(nil) > -106 {
		t.Errorf("piO2Hi + piO2Lo = π/2 - %g", p)
	}
	// The words of twoOverPi are the bits of 2/π·2^(64·21).
	initBigConst()
	q := new(big.Float).SetPrec(piPrec).Quo(new(big.Float).SetPrec(piPrec).SetInt64(2), bigConst.pi)
	q.SetMantExp(q, 64*len(twoOverPi))
	n, _ := q.Int(nil)
	mask := new(big.Int).SetUint64(math.MaxUint64)
	for i := len(twoOverPi) - 1; i >= 0; i-- {
		if w := new(big.Int).And(n, mask).Uint64(); w != twoOverPi[i] {
			t.Errorf("twoOverPi[%d] = %#016x, want %#016x", i, twoOverPi[i], w)
		}
		n.Rsh(n, 64)
	}
}

// TestExpLog checks Exp, Expm1 and Log where math's differ from IEEE
// behaviour: e^x near the overflow threshold, log of subnormals.
func TestExpLog(t *testing.T) {
	for _, x := range []float64{-745.13, -745.1, -708.4, -1, 0.5, 1, 100, 709, 709.2, 709.44, 709.5, 709.7,
		709.782712893384, 709.7827128933841, 709.79, 710, 1e4, inf, -inf} {
		want := math.Exp(x) // ±Inf
		if isFinite(x) {
			want = round(bexp(bf(x)))
		}
		if got := Exp(x); ulpErr(got, want) > 3 {
			t.Errorf("Exp(%v) = %v, want %v", x, got, want)
		}
		if x > 40 {
			if got := Expm1(x); ulpErr(got, want) > 3 {
				t.Errorf("Expm1(%v) = %v, want %v", x, got, want)
			}
		}
	}
	if got := Exp(nan); got == got {
		t.Errorf("Exp(NaN) = %v", got)
	}
	for _, x := range []float64{5e-324, 1e-323, 3e-320, 1e-310, 2.2250738585072009e-308, 0x1p-1022, 0.5, 1 + 0x1p-52, 2, 1e300, math.MaxFloat64} {
		if got, want := Log(x), round(blog(bf(x))); ulpErr(got, want) > 1 {
			t.Errorf("Log(%v) = %v, want %v", x, got, want)
		}
	}
	for _, c := range [][2]float64{{0, -inf}, {math.Copysign(0, -1), -inf}, {-1, nan}, {inf, inf}, {nan, nan}, {1, 0}} {
		if got := Log(c[0]); !same(got, c[1]) {
			t.Errorf("Log(%v) = %v, want %v", c[0], got, c[1])
		}
	}
}

// TestSinhCosh compares Sinh and Cosh with (e^x ∓ e^-x)/2 in high
// precision, through each branch and up to overflow (|x| = 710.4758600739439
// is the last finite one).
func TestSinhCosh(t *testing.T) {
	xs := []float64{5e-324, 1e-300, 1e-20, 0x1p-29, 0x1p-27, 1e-8, 0.1, 0.3, 0.34657359027997264, 0.3465735902799727,
		0.5, 0.9999999999999999, 1, 2, 10, 21.999999999999996, 22, 22.5, 100, 500, 708, 709, 709.5,
		709.782712893384, 710.182712893384, 710.4758600739439, 710.475860073944, 711, 1e5}
	r := rand.New(rand.NewPCG(1, 2))
	for range 300 {
		xs = append(xs, math.Ldexp(r.Float64()+0.5, r.IntN(12)-20), 30*r.Float64(), 700+11*r.Float64())
	}
	for _, x := range xs {
		for _, x := range []float64{x, -x} {
			ep, em := bexp(bf(x)), bexp(bf(-x))
			sh, ch := round(bmulExp(bsub(ep, em), -1)), round(bmulExp(badd(ep, em), -1))
			if got := Sinh(x); ulpErr(got, sh) > 2 {
				t.Errorf("Sinh(%v) = %v, want %v (%.2f ulp)", x, got, sh, ulpErr(got, sh))
			}
			if got := Cosh(x); ulpErr(got, ch) > 2 {
				t.Errorf("Cosh(%v) = %v, want %v (%.2f ulp)", x, got, ch, ulpErr(got, ch))
			}
		}
	}
	negZero := math.Copysign(0, -1)
	for _, c := range [][3]float64{{0, 0, 1}, {negZero, negZero, 1}, {inf, inf, inf}, {-inf, -inf, inf}, {nan, nan, nan}} {
		if got := Sinh(c[0]); !same(got, c[1]) {
			t.Errorf("Sinh(%v) = %v, want %v", c[0], got, c[1])
		}
		if got := Cosh(c[0]); !same(got, c[2]) {
			t.Errorf("Cosh(%v) = %v, want %v", c[0], got, c[2])
		}
	}
}

func TestAtan2(t *testing.T) {
	negZero := math.Copysign(0, -1)
	for _, c := range [][3]float64{
		{-5e-324, -2.5, -math.Pi}, {5e-324, -2.5, math.Pi}, {-5e-324, -math.MaxFloat64, -math.Pi},
		{-1e-300, -1e10, -math.Pi}, {0, -1, math.Pi}, {negZero, -1, -math.Pi}, {negZero, 1, negZero},
		{0, negZero, math.Pi}, {negZero, negZero, -math.Pi}, {1, 0, math.Pi / 2}, {-1, inf, negZero},
		{-1, -inf, -math.Pi}, {inf, -inf, 3 * math.Pi / 4}, {-inf, inf, -math.Pi / 4}, {nan, 1, nan}, {1, nan, nan},
	} {
		if got := Atan2(c[0], c[1]); !same(got, c[2]) {
			t.Errorf("Atan2(%v, %v) = %v, want %v", c[0], c[1], got, c[2])
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 500 {
		y := randSign(r) * math.Ldexp(r.Float64()+0.5, r.IntN(2097)-1074)
		x := randSign(r) * math.Ldexp(r.Float64()+0.5, r.IntN(2097)-1074)
		if got, want := Atan2(y, x), round(batan2(bf(y), bf(x))); ulpErr(got, want) > 2 {
			t.Errorf("Atan2(%v, %v) = %v, want %v", y, x, got, want)
		}
	}
}

func randSign(r *rand.Rand) float64 { return float64(1 - 2*r.IntN(2)) }

// TestSincos checks sincos and tan against sin and cos in high precision
// over the whole range, 6381956970095103·2^797 (the float64 closest to a
// multiple of π/2, cos = -4.69e-19) included.
func TestSincos(t *testing.T) {
	xs := []float64{0, 1, 0x1p20 - 1, 0x1p20, 0x1p29, 1e22, 5e29, 1e200, 1e300, math.MaxFloat64,
		6381956970095103 * 0x1p797, 1.5707963267948966e10, 3.141592653589793e15}
	r := rand.New(rand.NewPCG(5, 6))
	for range 400 {
		xs = append(xs, math.Ldexp(r.Float64()+0.5, r.IntN(1024)))
	}
	for _, x := range xs {
		for _, x := range []float64{x, -x} {
			bs, bc := bsincos(bf(x))
			ws, wc := round(bs), round(bc)
			s, c := sincos(x)
			if ulpErr(s, ws) > 1.5 || ulpErr(c, wc) > 1.5 {
				t.Errorf("sincos(%v) = %v, %v, want %v, %v", x, s, c, ws, wc)
			}
			if got, want := Tan(x), round(bquo(bs, bc)); ulpErr(got, want) > 2.5 {
				t.Errorf("Tan(%v) = %v, want %v", x, got, want)
			}
		}
	}
	for _, x := range []float64{inf, -inf, nan} {
		if s, c := sincos(x); s == s || c == c {
			t.Errorf("sincos(%v) = %v, %v, want NaN, NaN", x, s, c)
		}
	}
}

// TestHypot checks hypot and logHypot at the ends of the range and near 1.
func TestHypot(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	var cases [][2]float64
	for _, x := range []float64{5e-324, 1e-310, 1e-200, 0.5, 0.9999999999999999, 1, 1.0000000000000002, 2, 1e200, math.MaxFloat64} {
		for _, y := range []float64{0, 5e-324, 1e-310, 1e-160, 1e-8, 0.5, 1, 1e200, math.MaxFloat64} {
			cases = append(cases, [2]float64{x, y})
		}
	}
	for range 400 {
		cases = append(cases, [2]float64{math.Ldexp(r.Float64()+0.5, r.IntN(2097)-1074), math.Ldexp(r.Float64()+0.5, r.IntN(2097)-1074)})
		a := r.Float64()*0.2 + 0.6 // |z| near 1
		cases = append(cases, [2]float64{a, math.Sqrt(1-a*a) * (1 + (r.Float64()-0.5)*1e-10)})
	}
	for _, c := range cases {
		x, y := c[0], c[1]
		m2 := badd(bmul(bf(x), bf(x)), bmul(bf(y), bf(y)))
		if got, want := Hypot(x, y), round(bsqrt(m2)); ulpErr(got, want) > 1 {
			t.Errorf("Hypot(%v, %v) = %v, want %v", x, y, got, want)
		}
		if got, want := logHypot(x, y), round(bmulExp(blog(m2), -1)); ulpErr(got, want) > 2 {
			t.Errorf("logHypot(%v, %v) = %v, want %v (%.1f ulp)", x, y, got, want, ulpErr(got, want))
		}
	}
}

// TestAsinAcos compares Asin and Acos with atan(x/√(1-x²)) and
// π/2 - asin x in high precision, near ±1 above all, and checks the
// special values.
func TestAsinAcos(t *testing.T) {
	xs := []float64{5e-324, 1e-300, 1e-9, 0.25, 0.5, 0.5000000000000001, 0.5051517008102655, 0.7, 0.9, 0.9000000000000001,
		0.9235776379945997, 0.999999, 1 - 0x1p-53}
	r := rand.New(rand.NewPCG(3, 4))
	for range 300 {
		xs = append(xs, r.Float64(), 0.5+0.5*r.Float64(), 1-math.Ldexp(r.Float64(), -r.IntN(50)))
	}
	for _, x := range xs {
		for _, x := range []float64{x, -x} {
			bx := bf(x)
			as := batan(bquo(bx, bsqrt(bmul(bsub(bint(1), bx), badd(bint(1), bx)))))
			ac := bsub(bmulExp(bpi(), -1), as)
			if got, want := Asin(x), round(as); ulpErr(got, want) > 2 {
				t.Errorf("Asin(%v) = %v, want %v (%.2f ulp)", x, got, want, ulpErr(got, want))
			}
			if got, want := Acos(x), round(ac); ulpErr(got, want) > 2 {
				t.Errorf("Acos(%v) = %v, want %v (%.2f ulp)", x, got, want, ulpErr(got, want))
			}
		}
	}
	negZero := math.Copysign(0, -1)
	for _, c := range [][3]float64{{0, 0, math.Pi / 2}, {negZero, negZero, math.Pi / 2}, {1, math.Pi / 2, 0},
		{-1, -math.Pi / 2, math.Pi}, {1 + 0x1p-52, nan, nan}, {-2, nan, nan}, {inf, nan, nan}, {-inf, nan, nan}, {nan, nan, nan}} {
		if got := Asin(c[0]); !same(got, c[1]) {
			t.Errorf("Asin(%v) = %v, want %v", c[0], got, c[1])
		}
		if got := Acos(c[0]); !same(got, c[2]) {
			t.Errorf("Acos(%v) = %v, want %v", c[0], got, c[2])
		}
	}
}
