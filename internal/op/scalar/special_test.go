package scalar

import (
	"math"
	"math/cmplx"
	"testing"
)

// The special values of C99 Annex G (G.6) and the branch cuts, part by
// part: NaN for NaN, the value otherwise with the sign of zeros and
// infinities, except where the standard leaves a sign unspecified.

// anyRe and anyIm mark a part whose sign Annex G leaves unspecified.
const (
	anyRe = 1 << iota
	anyIm
)

type special struct {
	z, want complex128
	free    int // anyRe, anyIm
}

// matchPart reports whether g matches w: NaN with NaN, else equal with the
// sign (ignored if free), finite values within 2 eps relative.
func matchPart(g, w float64, free bool) bool {
	switch {
	case w != w:
		return g != g
	case g != g:
		return false
	case free:
		return math.Abs(g) == math.Abs(w) || isFinite(w) && math.Abs(math.Abs(g)-math.Abs(w)) <= 2*eps52*math.Abs(w)
	case w == 0 || !isFinite(w):
		return g == w && math.Signbit(g) == math.Signbit(w)
	}
	return math.Abs(g-w) <= 2*eps52*math.Abs(w)
}

var (
	nz      = math.Copysign(0, -1)
	nanC    = complex(nan, nan)
	acosh2  = math.Acosh(2)
	atanhH  = math.Atanh(0.5)
	log15   = math.Log(1.5)
	pi2     = math.Pi / 2
	pi4     = math.Pi / 4
	specFns = map[string]struct {
		f     func(complex128) complex128
		cases []special
	}{
		"CExp": {CExp, []special{
			{0, 1, 0}, {complex(nz, 0), 1, 0}, {complex(2.5, inf), nanC, 0}, {complex(2.5, nan), nanC, 0},
			{complex(inf, 0), complex(inf, 0), 0}, {complex(inf, nz), complex(inf, nz), 0},
			{complex(-inf, 1.5), 0, 0}, {complex(-inf, 3), complex(nz, 0), 0},
			{complex(inf, 1.5), complex(inf, inf), 0}, {complex(inf, 3), complex(-inf, inf), 0},
			{complex(-inf, inf), 0, anyRe | anyIm}, {complex(inf, inf), complex(inf, nan), anyRe},
			{complex(-inf, nan), 0, anyRe | anyIm}, {complex(inf, nan), complex(inf, nan), anyRe},
			{complex(nan, 0), complex(nan, 0), 0}, {complex(nan, nz), complex(nan, nz), 0},
			{complex(nan, 1.5), nanC, 0}, {nanC, nanC, 0},
			// Finite where e^x alone overflows, and e^x + 0i on the real axis.
			{complex(709.78, 0), complex(1.7928227943945155e+308, 0), 0},
			{complex(1000, 0), complex(inf, 0), 0},
		}},
		"CExpm1": {CExpm1, []special{
			{0, 0, 0}, {complex(nz, nz), complex(nz, nz), 0}, {complex(-inf, 1.5), complex(-1, 0), 0},
			{complex(inf, 1.5), complex(inf, inf), 0}, {complex(nan, 0), complex(nan, 0), 0},
			{complex(inf, nan), complex(inf, nan), anyRe}, {complex(-inf, inf), complex(-1, 0), anyIm},
			{complex(709.782712893384, 0), complex(1.7976931348622732e+308, 0), 0},
		}},
		"CLog": {CLog, []special{
			{complex(nz, 0), complex(-inf, math.Pi), 0}, {0, complex(-inf, 0), 0}, {complex(0, nz), complex(-inf, nz), 0},
			{complex(nz, nz), complex(-inf, -math.Pi), 0},
			{complex(2.5, inf), complex(inf, pi2), 0}, {complex(2.5, nan), nanC, 0},
			{complex(-inf, 1.5), complex(inf, math.Pi), 0}, {complex(inf, 1.5), complex(inf, 0), 0},
			{complex(-inf, inf), complex(inf, 3*pi4), 0}, {complex(inf, inf), complex(inf, pi4), 0},
			{complex(inf, nan), complex(inf, nan), 0}, {complex(-inf, nan), complex(inf, nan), 0},
			{complex(nan, 1.5), nanC, 0}, {complex(nan, inf), complex(inf, nan), 0}, {nanC, nanC, 0},
			{complex(-1, 0), complex(0, math.Pi), 0}, {complex(-1, nz), complex(0, -math.Pi), 0},
			{complex(5e-324, 0), complex(-744.4400719213812, 0), 0},
			{complex(-1.8472040494064375e+63, -2.2961564629348376e-305), complex(145.67653402986687, -math.Pi), 0},
		}},
		"CLog1p": {CLog1p, []special{
			{complex(-1, 0), complex(-inf, 0), 0}, {complex(nz, 0), complex(nz, 0), 0},
			{complex(-2.5, nz), complex(log15, -math.Pi), 0}, {complex(-2.5, 0), complex(log15, math.Pi), 0},
			{complex(inf, 1.5), complex(inf, 0), 0}, {complex(-inf, 1.5), complex(inf, math.Pi), 0},
			{complex(nan, 0), nanC, 0}, {complex(-1, 5e-324), complex(-744.4400719213812, pi2), 0},
		}},
		"CSqrt": {CSqrt, []special{
			{0, 0, 0}, {complex(nz, 0), 0, 0}, {complex(nz, nz), complex(0, nz), 0},
			{complex(2.5, inf), complex(inf, inf), 0}, {complex(nan, inf), complex(inf, inf), 0},
			{complex(-inf, -inf), complex(inf, -inf), 0}, {complex(2.5, nan), nanC, 0},
			{complex(-inf, 1.5), complex(0, inf), 0}, {complex(-inf, -1.5), complex(0, -inf), 0},
			{complex(inf, 1.5), complex(inf, 0), 0}, {complex(inf, -1.5), complex(inf, nz), 0},
			{complex(-inf, nan), complex(nan, inf), anyIm}, {complex(inf, nan), complex(inf, nan), 0},
			{complex(nan, 1.5), nanC, 0}, {nanC, nanC, 0},
			{complex(-4, nz), complex(0, -2), 0}, {complex(-4, 0), complex(0, 2), 0},
			{complex(0, 5e-324), complex(1.5717277847026288e-162, 1.5717277847026288e-162), 0},
			{complex(math.MaxFloat64, math.MaxFloat64), complex(1.4730945569055652e+154, 6.1017574412827024e+153), 0},
		}},
		"CRsqrt": {CRsqrt, []special{
			{0, complex(inf, nan), anyIm}, {complex(inf, 1.5), 0, anyIm}, {complex(-4, 0), complex(0, -0.5), 0},
			{complex(0, 5e-324), complex(3.181212452095196e+161, -3.181212452095196e+161), 0},
		}},
		"CSign": {CSign, []special{
			{0, 0, 0}, {complex(inf, inf), complex(math.Sqrt2/2, math.Sqrt2/2), 0}, {complex(-inf, 1), -1, 0},
			{complex(nan, 1), nanC, 0}, {complex(inf, nan), nanC, 0},
			{complex(math.MaxFloat64, math.MaxFloat64), complex(math.Sqrt2/2, math.Sqrt2/2), 0},
			{complex(5e-324, 5e-324), complex(math.Sqrt2/2, math.Sqrt2/2), 0},
		}},
		"CSinh": {CSinh, []special{
			{0, 0, 0}, {complex(0, inf), complex(0, nan), anyRe}, {complex(0, nan), complex(0, nan), anyRe},
			{complex(2.5, inf), nanC, 0}, {complex(2.5, nan), nanC, 0}, {complex(inf, 0), complex(inf, 0), 0},
			{complex(inf, 1.5), complex(inf, inf), 0}, {complex(inf, 3), complex(-inf, inf), 0},
			{complex(inf, inf), complex(inf, nan), anyRe}, {complex(inf, nan), complex(inf, nan), anyRe},
			{complex(nan, 0), complex(nan, 0), 0}, {complex(nan, 1.5), nanC, 0}, {nanC, nanC, 0},
			{complex(710.182712893384, 0), complex(1.3409215086838187e+308, 0), 0},
			{complex(710.182712893384, 1), complex(7.24502983130052e+307, 1.1283465424622632e+308), 0},
		}},
		"CCosh": {CCosh, []special{
			{0, 1, 0}, {complex(0, inf), complex(nan, 0), anyIm}, {complex(0, nan), complex(nan, 0), anyIm},
			{complex(2.5, inf), nanC, 0}, {complex(2.5, nan), nanC, 0}, {complex(inf, 0), complex(inf, 0), 0},
			{complex(inf, 1.5), complex(inf, inf), 0}, {complex(inf, 3), complex(-inf, inf), 0},
			{complex(inf, inf), complex(inf, nan), anyRe}, {complex(inf, nan), complex(inf, nan), 0},
			{complex(nan, 0), complex(nan, 0), anyIm}, {complex(nan, 1.5), nanC, 0}, {nanC, nanC, 0},
			{complex(-710.182712893384, 0), complex(1.3409215086838187e+308, nz), 0},
		}},
		"CTanh": {CTanh, []special{
			{0, 0, 0}, {complex(0, inf), complex(0, nan), 0}, {complex(2.5, inf), nanC, 0}, {complex(2.5, nan), nanC, 0},
			{complex(inf, 1.5), complex(1, 0), 0}, {complex(inf, 2), complex(1, nz), 0},
			{complex(-inf, 1.5), complex(-1, 0), 0}, {complex(inf, inf), 1, anyIm}, {complex(inf, nan), 1, anyIm},
			{complex(nan, 0), complex(nan, 0), 0}, {complex(nan, 1.5), nanC, 0}, {nanC, nanC, 0},
			{complex(math.MaxFloat64, 1), complex(1, 0), 0}, {complex(0, math.MaxFloat64), complex(0, -0.004962015874444896), 0},
		}},
		"CTan": {CTan, []special{
			{0, 0, 0}, {complex(0, math.MaxFloat64), complex(0, 1), 0}, {complex(1, 1e22), complex(0, 1), 0},
			{complex(1.5, inf), complex(0, 1), 0}, {complex(2, -inf), complex(nz, -1), 0},
		}},
		"CSin": {CSin, []special{
			{complex(0, math.MaxFloat64), complex(0, inf), 0}, {complex(nz, inf), complex(nz, inf), 0},
			{complex(inf, 0), complex(nan, 0), anyIm},
		}},
		"CCos": {CCos, []special{
			{complex(0, math.MaxFloat64), complex(inf, nz), 0}, {complex(inf, 0), complex(nan, 0), anyIm},
		}},
		"CAsin": {CAsin, []special{
			{0, 0, 0}, {complex(nz, 0), complex(nz, 0), 0}, {complex(2.5, inf), complex(0, inf), 0},
			{complex(-2.5, -inf), complex(nz, -inf), 0}, {complex(inf, 1.5), complex(pi2, inf), 0},
			{complex(-inf, -1.5), complex(-pi2, -inf), 0}, {complex(inf, inf), complex(pi4, inf), 0},
			{complex(inf, nan), complex(nan, inf), anyIm}, {complex(nan, inf), complex(nan, inf), anyIm},
			{complex(0, nan), complex(0, nan), 0}, {complex(2.5, nan), nanC, 0}, {complex(nan, 1.5), nanC, 0},
			{complex(2, 0), complex(pi2, acosh2), 0}, {complex(2, nz), complex(pi2, -acosh2), 0},
			{complex(-2, 0), complex(-pi2, acosh2), 0},
			{complex(1, math.MaxFloat64), complex(5.562684646268003e-309, 710.4758600739439), 0},
		}},
		"CAcos": {CAcos, []special{
			{0, complex(pi2, nz), 0}, {complex(nz, 0), complex(pi2, nz), 0}, {complex(0, nan), complex(pi2, nan), 0},
			{complex(2.5, inf), complex(pi2, -inf), 0}, {complex(2.5, -inf), complex(pi2, inf), 0},
			{complex(2.5, nan), nanC, 0}, {complex(-inf, 1.5), complex(math.Pi, -inf), 0},
			{complex(inf, 1.5), complex(0, -inf), 0}, {complex(-inf, inf), complex(3*pi4, -inf), 0},
			{complex(inf, inf), complex(pi4, -inf), 0}, {complex(inf, nan), complex(nan, inf), anyIm},
			{complex(nan, 1.5), nanC, 0}, {complex(nan, inf), complex(nan, -inf), 0}, {nanC, nanC, 0},
			{complex(2, 0), complex(0, -acosh2), 0}, {complex(2, nz), complex(0, acosh2), 0},
			{complex(-2, 0), complex(math.Pi, -acosh2), 0},
			{complex(1, 5e-324), complex(2.2227587494850775e-162, -2.2227587494850775e-162), 0},
		}},
		"CAtanh": {CAtanh, []special{
			{0, 0, 0}, {complex(0, nan), complex(0, nan), 0}, {complex(1, 0), complex(inf, 0), 0},
			{complex(-1, nz), complex(-inf, nz), 0}, {complex(2.5, inf), complex(0, pi2), 0},
			{complex(-2.5, -inf), complex(nz, -pi2), 0}, {complex(2.5, nan), nanC, 0},
			{complex(inf, 1.5), complex(0, pi2), 0}, {complex(inf, inf), complex(0, pi2), 0},
			{complex(inf, nan), complex(0, nan), 0}, {complex(nan, 1.5), nanC, 0},
			{complex(nan, inf), complex(0, pi2), anyRe}, {nanC, nanC, 0},
			{complex(2, 0), complex(atanhH, pi2), 0}, {complex(2, nz), complex(atanhH, -pi2), 0},
			{complex(1, 5e-324), complex(372.56660955097055, pi4), 0},
		}},
		"CAtan": {CAtan, []special{
			{0, 0, 0}, {complex(inf, 1.5), complex(pi2, 0), 0}, {complex(-2.5, inf), complex(-pi2, 0), 0},
			{complex(0, 2), complex(pi2, atanhH), 0}, {complex(nz, 2), complex(-pi2, atanhH), 0},
			{complex(0, 1), complex(0, inf), 0}, {complex(0, -2.5), complex(pi2, -0.4236489301936018), 0},
			{complex(1, 5e-324), complex(pi4, 0), anyIm},
		}},
	}
)

func TestSpecialValues(t *testing.T) {
	for name, fn := range specFns {
		for _, c := range fn.cases {
			got := fn.f(c.z)
			if !matchPart(real(got), real(c.want), c.free&anyRe != 0) || !matchPart(imag(got), imag(c.want), c.free&anyIm != 0) {
				t.Errorf("%s(%v) = %v, want %v", name, c.z, got, c.want)
			}
		}
	}
}

// TestSymmetries checks, bit for bit, f(conj z) = conj f(z) for every
// function, and oddness or evenness (acos: acos(-z) = π - acos z) on
// special and finite parts.
func TestSymmetries(t *testing.T) {
	parts := []float64{0, 5e-324, 1e-300, 0.5, 1, 1.5, 2.5, 710.3, 1e22, math.MaxFloat64, inf, nan}
	odd := map[string]bool{"CSinh": true, "CTanh": true, "CSin": true, "CTan": true, "CAsin": true,
		"CAtan": true, "CAtanh": true, "CSign": true}
	even := map[string]bool{"CCosh": true, "CCos": true}
	for name, fn := range specFns {
		for _, x := range parts {
			for _, y := range parts {
				for _, z := range []complex128{complex(x, y), complex(-x, y)} {
					w := fn.f(z)
					if g := fn.f(cmplx.Conj(z)); !sameBits(g, cmplx.Conj(w)) {
						t.Errorf("%s(conj %v) = %v, conj %s(%v) = %v", name, z, g, name, z, cmplx.Conj(w))
					}
					g := fn.f(-z)
					switch {
					case odd[name] && !sameBits(g, -w):
						t.Errorf("%s(-%v) = %v, -%s(%v) = %v", name, z, g, name, z, -w)
					case even[name] && !sameBits(g, w):
						t.Errorf("%s(-%v) = %v, %s(%v) = %v", name, z, g, name, z, w)
					case name == "CAcos" && x == x && !math.Signbit(real(z)) && !matchPart(real(g), math.Pi-real(w), false):
						t.Errorf("CAcos(-%v) = %v, π - CAcos(%v) = %v", z, g, z, math.Pi-real(w))
					}
				}
			}
		}
	}
}

// sameBits reports whether z and w are equal part by part, NaN equal to
// NaN and the sign of zeros significant.
func sameBits(z, w complex128) bool { return same(real(z), real(w)) && same(imag(z), imag(w)) }
