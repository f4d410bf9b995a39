package scalar

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The complex functions against references in high precision (bigref_test.go)
// on grids of awkward parts (subnormal, tiny, next to 1, near the overflow
// thresholds of e^x and of squares, huge) in every quadrant, and on random
// arguments over the whole range. The error of a result w is measured
// normwise, each part's error relative to |w| (over its finite parts), in
// units of eps = 2^-52; a part that overflows must be the same infinity.
// The bound is 3 eps for every function (the largest error seen is 2 eps,
// for CExpm1); -short checks every seventh point.

const eps52 = 0x1p-52

// normErr returns the normwise error of got against want in units of
// eps52 (+Inf where an infinite or NaN part disagrees).
func normErr(got, want complex128) float64 {
	scale := 0.0
	for _, w := range [2]float64{real(want), imag(want)} {
		if isFinite(w) {
			scale = math.Hypot(scale, w)
		}
	}
	scale = max(scale, 0x1p-1022)
	e := 0.0
	for _, p := range [2][2]float64{{real(got), real(want)}, {imag(got), imag(want)}} {
		g, w := p[0], p[1]
		switch {
		case !isFinite(w):
			if g != w {
				return math.Inf(1)
			}
		case !isFinite(g):
			return math.Inf(1)
		default:
			e = max(e, math.Abs(g-w)/scale/eps52)
		}
	}
	return e
}

// Part sets of the grids.
var (
	// partsAll spans the range, with values next to 1.
	partsAll = []float64{0, 5e-324, 1e-310, 2.2250738585072014e-308, 1e-200, 1e-20, 1.4901161193847656e-08, 1e-5, 0.1,
		0.5, 0.7071067811865476, 0.9999999999999999, 1, 1.0000000000000002, 1.5, 2, 3, 10, 1e5, 1e16, 1e20, 1e100,
		1e200, 1e300, 1.7976931348623157e308}
	// expRe are real parts of the exponentials: around their overflow
	// (709.78 for e^x, 710.48 for sinh and cosh), their underflow, and the
	// branches of tanh (22).
	expRe = []float64{0, 5e-324, 1e-300, 1e-10, 0.3, 1, 2, 20, 22.5, 100, 700, 709, 709.5, 709.782712893384,
		710, 710.4, 710.47, 711, 745, 1000, 1400}
	// trigIm are arguments of sin and cos: small, next to π/2, huge.
	trigIm = []float64{0, 5e-324, 1e-300, 1e-10, 0.5, 1, 1.5707963267948966, 2, 3, 3.141592653589793, 1e5, 1e22, 1e300,
		1.7976931348623157e308}
)

// grid returns the points ±x + iy for x in xs and y in ys (±0 included):
// the upper half plane, the lower one being its conjugate
// (TestSymmetries checks f(conj z) = conj f(z) bit for bit).
func grid(xs, ys []float64) []complex128 {
	var out []complex128
	for _, x := range xs {
		for _, y := range ys {
			out = append(out, complex(x, y), complex(-x, y))
		}
	}
	return out
}

// randPoints returns n points with parts ±10^u, u uniform in [lo, hi).
func randPoints(r *rand.Rand, n int, lo, hi float64) []complex128 {
	out := make([]complex128, n)
	for i := range out {
		p := func() float64 { return randSign(r) * math.Pow(10, lo+(hi-lo)*r.Float64()) }
		out[i] = complex(p(), p())
	}
	return out
}

// conjSym returns the reference f extended from y >= 0 to y < 0 by
// f(conj z) = conj f(z), so that a reference needs only the upper half
// plane (with +0 on the real axis).
func conjSym(f func(bc) bc) func(complex128) complex128 {
	return func(z complex128) complex128 {
		if math.Signbit(imag(z)) {
			w := f(bcOf(complex(real(z), -imag(z)))).float()
			return complex(real(w), -imag(w))
		}
		return f(bcOf(z)).float()
	}
}

// oddSym extends a reference of the right half plane (x >= 0) to x < 0 by
// f(-z) = -f(z), then by conjSym.
func oddSym(f func(bc) bc) func(complex128) complex128 {
	g := conjSym(f)
	return func(z complex128) complex128 {
		if math.Signbit(real(z)) {
			return -g(-z)
		}
		return g(z)
	}
}

func TestComplexAccuracy(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	one := bc{bint(1), bnew()}
	expIn := append(grid(expRe, trigIm), randPoints(r, 300, -10, 3)...)
	trigIn := append(grid(trigIm, expRe), randPoints(r, 300, -10, 3)...)
	allIn := append(grid(partsAll, partsAll), randPoints(r, 400, -320, 308)...)
	near1 := nearOne(r)
	for _, c := range []struct {
		name string
		f    func(complex128) complex128
		ref  func(complex128) complex128
		in   []complex128
		tol  float64
	}{
		{"CExp", CExp, conjSym(bcExp), expIn, 3},
		{"CExpm1", CExpm1, conjSym(func(z bc) bc { return bcExp(z).sub(one) }), append(expIn, randPoints(r, 200, -320, -1)...), 3},
		{"CSinh", CSinh, conjSym(bcSinh), expIn, 3},
		{"CCosh", CCosh, conjSym(bcCosh), expIn, 3},
		{"CTanh", CTanh, conjSym(bcTanh), expIn, 3},
		{"CSin", CSin, conjSym(func(z bc) bc { return bcSinh(z.timesI()).divI() }), trigIn, 3},
		{"CCos", CCos, conjSym(func(z bc) bc { return bcCosh(z.timesI()) }), trigIn, 3},
		{"CTan", CTan, conjSym(func(z bc) bc { return bcTanh(z.timesI()).divI() }), trigIn, 3},
		{"CLog", CLog, conjSym(bcLog), append(allIn, near1...), 3},
		{"CLog1p", CLog1p, conjSym(func(z bc) bc { return bcLog(one.add(z)) }),
			append(allIn, append(shift(near1, -1), randPoints(r, 300, -320, -1)...)...), 3},
		{"CSqrt", CSqrt, conjSym(bcSqrt), allIn, 3},
		{"CRsqrt", CRsqrt, conjSym(func(z bc) bc { return one.quo(bcSqrt(z)) }), allIn, 3},
		{"CSign", CSign, conjSym(func(z bc) bc { m := bsqrt(z.abs2()); return bc{bquo(z.re, m), bquo(z.im, m)} }), allIn, 3},
		{"CAsin", CAsin, oddSym(bcAsin), append(allIn, near1...), 3},
		{"CAcos", CAcos, oddSymAcos(), append(allIn, near1...), 3},
		{"CAtanh", CAtanh, oddSym(bcAtanh), offCut(append(allIn, near1...), false), 3},
		{"CAtan", CAtan, oddSym(func(z bc) bc { return bcAtanh(z.timesI()).divI() }), offCut(append(allIn, rot(near1)...), true), 3},
	} {
		worst, at := 0.0, complex128(0)
		for i, z := range c.in {
			if testing.Short() && i%7 != 0 {
				continue
			}
			if z == 0 {
				continue // a pole or branch point of most: see the special values
			}
			want, ok := tryRef(c.ref, z)
			if !ok {
				continue // the reference's logarithm is singular at z: a pole
			}
			got := c.f(z)
			if e := normErr(got, want); e > c.tol {
				t.Errorf("%s(%v) = %v, want %v (%.3g eps)", c.name, z, got, want, e)
			} else if e > worst {
				worst, at = e, z
			}
		}
		t.Logf("%s: %d points, largest error %.3g eps at %v", c.name, len(c.in), worst, at)
	}
}

// nearOne returns points next to ±1 and the unit circle, where the
// inverse functions and log cancel.
func nearOne(r *rand.Rand) []complex128 {
	var out []complex128
	for _, x := range []float64{1, 0.9999999999999999, 1.0000000000000002, 1 - 1e-10, 1 + 1e-10} {
		for _, y := range []float64{5e-324, 1e-310, 1e-200, 1e-100, 1e-30, 1e-16, 1e-8, 1e-3} {
			out = append(out, complex(x, y), complex(-x, -y))
		}
	}
	for range 200 {
		th := r.Float64() * math.Pi
		d := math.Pow(10, -16+14*r.Float64()) * randSign(r)
		s, c := math.Sincos(th)
		out = append(out, complex((1+d)*c, (1+d)*s))
	}
	return out
}

// shift returns the points z + d.
func shift(zs []complex128, d float64) []complex128 {
	out := make([]complex128, len(zs))
	for i, z := range zs {
		out[i] = z + complex(d, 0)
	}
	return out
}

// rot returns the points i·z.
func rot(zs []complex128) []complex128 {
	out := make([]complex128, len(zs))
	for i, z := range zs {
		out[i] = complex(-imag(z), real(z))
	}
	return out
}

// offCut drops the points on the branch cuts of atanh (real, |x| >= 1) or
// of atan (imaginary, |y| >= 1), where the references' logarithms would
// need signed zeros; the special-value tests cover them.
func offCut(zs []complex128, imagAxis bool) []complex128 {
	var out []complex128
	for _, z := range zs {
		x, y := real(z), imag(z)
		if imagAxis {
			x, y = y, x
		}
		if y == 0 && math.Abs(x) >= 1 {
			continue
		}
		out = append(out, z)
	}
	return out
}

// oddSymAcos is the reference of acos z = π/2 - asin z.
func oddSymAcos() func(complex128) complex128 {
	return conjSym(func(z bc) bc {
		if z.re.Sign() < 0 { // asin(-w) = -asin(w)
			a := bcAsin(bc{bneg(z.re), z.im})
			return bc{badd(bmulExp(bpi(), -1), a.re), bneg(a.im)}
		}
		a := bcAsin(z)
		return bc{bsub(bmulExp(bpi(), -1), a.re), bneg(a.im)}
	})
}

// tryRef returns ref(z), or false where it panics (a logarithm of 0: the
// poles, which the special-value tests cover).
func tryRef(ref func(complex128) complex128, z complex128) (w complex128, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return ref(z), true
}
