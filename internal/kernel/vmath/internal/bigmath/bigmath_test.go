package bigmath

import (
	"math"
	"math/big"
	"testing"
)

const prec = 160

func f(x float64) *big.Float { return new(big.Float).SetFloat64(x) }

// TestConstants compares π and ln 2 with their published decimal digits.
func TestConstants(t *testing.T) {
	const pi = "3.14159265358979323846264338327950288419716939937510582097494459"
	const ln2 = "0.693147180559945309417232121458176568075500134360255254120680009"
	for _, c := range []struct {
		name string
		got  *big.Float
		want string
	}{{"pi", Pi(256), pi}, {"ln2", Ln2(256), ln2}} {
		if s := c.got.Text('f', 63); s[:len(c.want)-1] != c.want[:len(c.want)-1] {
			t.Errorf("%s = %s, want %s", c.name, s, c.want)
		}
	}
}

// TestAgainstMath checks every function against package math, which is
// accurate to a few ulps, on arguments inside each function's domain.
// (math.Log is left out for subnormal arguments: on amd64 it returns
// about -709 for all of them.)
func TestAgainstMath(t *testing.T) {
	type fn struct {
		name string
		big  func(*big.Float, uint) *big.Float
		ref  func(float64) float64
		xs   []float64
	}
	xs := []float64{-700, -30, -2.5, -1, -0.75, -0.3, -1e-5, -1e-300, 1e-300, 1e-9, 0.1, 0.5, 0.7, 1, 1.5, 3, 10, 100, 700}
	pos := []float64{1e-300, 1e-9, 0.1, 0.5, 0.70710678, 0.75, 1, 1.5, 2, 10, 1e10, 1e300}
	gtm1 := []float64{-0.999, -0.75, -0.4, -0.3, -1e-9, 1e-300, 1e-9, 0.3, 0.4, 0.5, 0.7, 1, 3, 1e10, 1e300}
	trig := []float64{-1e15, -12345.678, -3, -1, -0.5, -1e-8, 1e-300, 1e-8, 0.5, 0.785, 1, 2, 3.14159, 100, 1e6, 1e15}
	// (math.Asin and math.Acos lose accuracy near ±1, where they take
	// √(1-x²) with 1-x² rounded: 8 ulps at 0.999999.)
	unit := []float64{-1, -0.99, -0.75, -0.5, -0.3, -1e-9, -1e-300, 0, 1e-300, 1e-9, 0.3, 0.5, 0.7, 0.99, 1}
	sig := func(x float64) float64 { return 1 / (1 + math.Exp(-x)) }
	erfXs := []float64{-30, -6, -3.99, -1, -1e-300, 0, 1e-300, 1e-9, 0.3, 0.84, 1, 2.5, 3.999, 4, 5.5, 10, 26.5}
	for _, c := range []fn{
		{"Exp", Exp, math.Exp, xs},
		{"Expm1", Expm1, math.Expm1, xs},
		{"Log", Log, math.Log, pos},
		{"Log1p", Log1p, math.Log1p, gtm1},
		{"Sin", Sin, math.Sin, trig},
		{"Cos", Cos, math.Cos, trig},
		{"Tanh", Tanh, math.Tanh, xs},
		{"Sigmoid", Sigmoid, sig, xs},
		{"Tan", Tan, math.Tan, trig},
		{"Atan", Atan, math.Atan, append(xs, 1e300, -1e300, 0.41421356, 2.4142135)},
		{"Asin", Asin, math.Asin, unit},
		{"Acos", Acos, math.Acos, unit},
		{"Sinh", Sinh, math.Sinh, xs},
		{"Cosh", Cosh, math.Cosh, xs},
		{"Erf", Erf, math.Erf, erfXs},
		{"Erfc", Erfc, math.Erfc, erfXs},
	} {
		for _, x := range c.xs {
			got, _ := c.big(f(x), prec).Float64()
			want := c.ref(x)
			if d := math.Abs(got - want); d > 4e-16*math.Abs(want) && d > 0 {
				t.Errorf("%s(%g) = %.17g, math gives %.17g", c.name, x, got, want)
			}
		}
	}
}

// TestPrecision checks identities that need more than float64 precision.
func TestPrecision(t *testing.T) {
	// exp(log(x)) = x and sin² + cos² = 1 to nearly prec bits.
	tol := new(big.Float).SetMantExp(big.NewFloat(1), -prec+8)
	for _, x := range []float64{1e-300, 0.3, 1.7, 12345.5, 1e300} {
		l := Log(f(x), prec)
		e := Exp(l, prec)
		d := new(big.Float).Quo(new(big.Float).Sub(e, f(x)), f(x))
		if d.Abs(d).Cmp(tol) > 0 {
			t.Errorf("exp(log(%g)) relative error %g", x, d)
		}
	}
	// sin(π/2 rounded) = cos of the rounding error; cos(π/2 rounded) is
	// that error, 6.123233995736766e-17 (π/2 - 1.5707963267948966).
	if c, _ := Cos(f(math.Pi/2), prec).Float64(); c != 6.123233995736766e-17 {
		t.Errorf("Cos(π/2) = %.17g", c)
	}
	for _, x := range []float64{1e-20, 0.7, 3, 1e6, 6381956970095103 * 0x1p-50} {
		s, c := Sin(f(x), prec), Cos(f(x), prec)
		one := new(big.Float).Add(new(big.Float).Mul(s, s), new(big.Float).Mul(c, c))
		one.Sub(one, big.NewFloat(1))
		if one.Abs(one).Cmp(tol) > 0 {
			t.Errorf("sin²+cos²-1 at %g = %g", x, one)
		}
	}
	// Asin and Acos near 1 (glibc's values, correctly rounded).
	if a, _ := Asin(f(0.999999), prec).Float64(); a != 1.5693821131146521 {
		t.Errorf("Asin(0.999999) = %.17g", a)
	}
	if a, _ := Acos(f(0.999999), prec).Float64(); a != 0.0014142136802445852 {
		t.Errorf("Acos(0.999999) = %.17g", a)
	}
	// Expm1 and Log1p of tiny x keep full relative precision.
	x := f(0x1p-60)
	e := Expm1(x, prec)
	x2 := new(big.Float).Mul(x, x)
	x3 := new(big.Float).Mul(x2, x)
	want := new(big.Float).SetPrec(prec).Add(x, new(big.Float).Quo(x2, big.NewFloat(2)))
	want.Add(want, new(big.Float).Quo(x3, big.NewFloat(6)))
	d := new(big.Float).Quo(new(big.Float).Sub(e, want), x)
	if d.Abs(d).Cmp(new(big.Float).SetMantExp(big.NewFloat(1), -170)) > 0 {
		t.Errorf("Expm1(2^-60) relative error %g", d)
	}
	l := Log1p(x, prec)
	want.Sub(x, new(big.Float).Quo(x2, big.NewFloat(2)))
	want.Add(want, new(big.Float).Quo(x3, big.NewFloat(3)))
	d.Quo(new(big.Float).Sub(l, want), x)
	if d.Abs(d).Cmp(new(big.Float).SetMantExp(big.NewFloat(1), -170)) > 0 {
		t.Errorf("Log1p(2^-60) relative error %g", d)
	}
}

// TestErfIdentities checks erf + erfc = 1, erfc(-x) = 2 - erfc x and the
// agreement of the series and the continued fraction at their boundary.
func TestErfIdentities(t *testing.T) {
	tol := new(big.Float).SetMantExp(big.NewFloat(1), -prec+8)
	for _, x := range []float64{0.01, 0.5, 2, 3.9, 4.5, 9} {
		s := new(big.Float).Add(Erf(f(x), prec), Erfc(f(x), prec))
		if d := new(big.Float).Sub(s, f(1)); d.Abs(d).Cmp(tol) > 0 {
			t.Errorf("erf(%g) + erfc(%g) - 1 = %g", x, x, d)
		}
		m := new(big.Float).Add(Erfc(f(-x), prec), Erfc(f(x), prec))
		if d := new(big.Float).Sub(m, f(2)); d.Abs(d).Cmp(tol) > 0 {
			t.Errorf("erfc(-%g) + erfc(%g) - 2 = %g", x, x, d)
		}
	}
	// Both methods at the switch point, relative to erfc.
	a := f(erfSeriesMax)
	p := uint(prec + guard)
	q := p + 40
	s := new(big.Float).SetPrec(q).Sub(new(big.Float).SetPrec(q).SetInt64(1), erfSeries(a, q))
	c := erfcFraction(a, p)
	d := new(big.Float).Quo(new(big.Float).Sub(s, c), c)
	if d.Abs(d).Cmp(tol) > 0 {
		t.Errorf("at %d the series and the continued fraction differ by %g (relative)", erfSeriesMax, d)
	}
}
