package scalar

import (
	"math"
	"math/cmplx"
	"testing"
)

// same reports whether x and y are equal, NaN equal to NaN and the sign of
// zero significant.
func same(x, y float64) bool {
	if x != x || y != y {
		return x != x && y != y
	}
	return x == y && math.Signbit(x) == math.Signbit(y)
}

func TestReal(t *testing.T) {
	for _, c := range []struct {
		name string
		f    func(float64) float64
		x    float64
		want float64
	}{
		{"Sigmoid", Sigmoid, 0, 0.5}, {"Sigmoid", Sigmoid, inf, 1}, {"Sigmoid", Sigmoid, -inf, 0},
		{"Sigmoid", Sigmoid, -800, 0}, {"Sigmoid", Sigmoid, 800, 1}, {"Sigmoid", Sigmoid, nan, nan},
		{"Gelu", Gelu, 0, 0}, {"Gelu", Gelu, inf, inf}, {"Gelu", Gelu, -inf, nan}, {"Gelu", Gelu, -40, math.Copysign(0, -1)},
		{"Relu", Relu, -1, 0}, {"Relu", Relu, math.Copysign(0, -1), 0}, {"Relu", Relu, 2, 2}, {"Relu", Relu, nan, nan},
		{"Relu", Relu, -inf, 0}, {"Relu", Relu, inf, inf},
		{"Sign", Sign, -3, -1}, {"Sign", Sign, 3, 1}, {"Sign", Sign, math.Copysign(0, -1), math.Copysign(0, -1)},
		{"Sign", Sign, nan, nan}, {"Sign", Sign, -inf, -1},
		{"Angle", Angle, 2, 0}, {"Angle", Angle, -2, math.Pi}, {"Angle", Angle, math.Copysign(0, -1), math.Pi}, {"Angle", Angle, nan, nan},
	} {
		if got := c.f(c.x); !same(got, c.want) {
			t.Errorf("%s(%v) = %v, want %v", c.name, c.x, got, c.want)
		}
	}
	// Sigmoid against its definition in the middle range, where both
	// branches apply; Gelu against the erf form where that one does not
	// cancel (x >= 0), by the symmetry Gelu(x) - Gelu(-x) = x, and in the
	// left tail against the asymptotic series of Φ(x) = φ(x)/|x|·(1 - 1/x²
	// + 3/x⁴ - ...), exact there to far below 1e-15.
	for x := -30.0; x <= 30; x += 0.37 {
		if got, want := Sigmoid(x), 1/(1+math.Exp(-x)); math.Abs(got-want) > 4e-16*want {
			t.Errorf("Sigmoid(%v) = %v, want %v", x, got, want)
		}
		if x >= 0 {
			if got, want := Gelu(x), 0.5*x*(1+math.Erf(x/math.Sqrt2)); math.Abs(got-want) > 4e-16*want {
				t.Errorf("Gelu(%v) = %v, want %v", x, got, want)
			}
			if d := Gelu(x) - Gelu(-x); math.Abs(d-x) > 4e-16*x {
				t.Errorf("Gelu(%v) - Gelu(%v) = %v, want %v", x, -x, d, x)
			}
		}
	}
	for x := -37.0; x <= -20; x += 0.7 {
		// Σ_k (-1)^k (2k-1)!!/x^(2k), ten terms: the first one left out is
		// below 1e-17 for |x| >= 20.
		series, term := 0.0, 1.0
		for k := range 10 {
			series += term
			term *= -float64(2*k+1) / (x * x)
		}
		phi := math.Exp(-x*x/2) / math.Sqrt(2*math.Pi)
		want := x * phi / -x * series
		// exp(-x²/2) carries the rounding of x² times x²/2 into the
		// reference: the tolerance grows like x² eps.
		if got := Gelu(x); math.Abs(got-want) > 4*x*x*0x1p-52*math.Abs(want) {
			t.Errorf("Gelu(%v) = %v, want %v", x, got, want)
		}
	}
}

func TestMaxMinClip(t *testing.T) {
	for _, c := range []struct{ x, y, max, min float64 }{
		{1, 2, 2, 1}, {2, 1, 2, 1}, {nan, 1, nan, nan}, {1, nan, nan, nan}, {-inf, inf, inf, -inf},
	} {
		if got := Maximum(c.x, c.y); !same(got, c.max) {
			t.Errorf("Maximum(%v, %v) = %v, want %v", c.x, c.y, got, c.max)
		}
		if got := Minimum(c.x, c.y); !same(got, c.min) {
			t.Errorf("Minimum(%v, %v) = %v, want %v", c.x, c.y, got, c.min)
		}
	}
	for _, c := range []struct{ x, lo, hi, want float64 }{
		{0.5, 0, 1, 0.5}, {-1, 0, 1, 0}, {2, 0, 1, 1}, {nan, 0, 1, nan}, {0.5, 1, 0, 0}, {-inf, -1, 1, -1},
	} {
		if got := Clip(c.x, c.lo, c.hi); !same(got, c.want) {
			t.Errorf("Clip(%v, %v, %v) = %v, want %v", c.x, c.lo, c.hi, got, c.want)
		}
	}
}

func TestComplex(t *testing.T) {
	// CExpm1 and CLog1p agree with the plain formulas away from 0 and are
	// accurate near it, where the plain formulas cancel.
	for _, z := range []complex128{1 + 2i, -3 + 0.5i, 0.7 - 0.2i, 2, -0.9} {
		if got, want := CExpm1(z), cmplx.Exp(z)-1; cmplx.Abs(got-want) > 1e-14*cmplx.Abs(want) {
			t.Errorf("CExpm1(%v) = %v, want %v", z, got, want)
		}
		if got, want := CLog1p(z), cmplx.Log(1+z); cmplx.Abs(got-want) > 1e-14*cmplx.Abs(want) {
			t.Errorf("CLog1p(%v) = %v, want %v", z, got, want)
		}
	}
	for _, z := range []complex128{1e-10 + 1e-10i, -3e-12 + 2e-13i, 1e-9i} {
		// Second-order Taylor expansions, exact to O(|z|^3).
		if got, want := CExpm1(z), z+z*z/2; cmplx.Abs(got-want) > 1e-15*cmplx.Abs(want) {
			t.Errorf("CExpm1(%v) = %v, want %v", z, got, want)
		}
		if got, want := CLog1p(z), z-z*z/2; cmplx.Abs(got-want) > 1e-15*cmplx.Abs(want) {
			t.Errorf("CLog1p(%v) = %v, want %v", z, got, want)
		}
	}
	for _, c := range []struct{ z, want complex128 }{
		{0, 0}, {3 + 4i, 0.6 + 0.8i}, {-2, -1}, {complex(inf, 0), 1}, {complex(inf, inf), complex(1/math.Sqrt2, 1/math.Sqrt2)},
		{complex(0, -inf), -1i},
	} {
		if got := CSign(c.z); cmplx.Abs(got-c.want) > 1e-15 {
			t.Errorf("CSign(%v) = %v, want %v", c.z, got, c.want)
		}
	}
	if got := CSign(complex(nan, 1)); !cmplx.IsNaN(got) {
		t.Errorf("CSign(NaN+1i) = %v, want NaN", got)
	}
}
