package tenferro

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// stream returns n draws of f from the generator of seed, in order.
func stream(seed uint64, n int, f func(r *rand.Rand) complex128) []complex128 {
	r := rand.New(rand.NewPCG(seed, 0x74656e66))
	out := make([]complex128, n)
	for i := range out {
		out[i] = f(r)
	}
	return out
}

// drawRef returns the reference element of dtype d: one draw of g for a
// real dtype, two (real part first) for a complex one, each through part.
func drawRef(d DType, g func(r *rand.Rand) float64) func(r *rand.Rand) complex128 {
	part := func(r *rand.Rand) float64 {
		v := g(r)
		if d.Real() == Float32 {
			v = float64(float32(v))
		}
		return v
	}
	return func(r *rand.Rand) complex128 {
		re := part(r)
		if d.IsComplex() {
			return complex(re, part(r))
		}
		return complex(re, 0)
	}
}

func testRandStream[T Scalar](t *testing.T) {
	d := DTypeOf[T]()
	uniform := func(r *rand.Rand) float64 {
		if d.Real() == Float32 {
			return float64(r.Float32())
		}
		return r.Float64()
	}
	h := 1.0
	if d.IsComplex() {
		h = 1 / math.Sqrt2
	}
	normal := func(r *rand.Rand) float64 { return r.NormFloat64() * h }
	for _, shape := range [][]int{{}, {0}, {1}, {3, 5}, {2, 0, 3}, {7, 1, 3}} {
		n := Numel(shape)
		for _, seed := range []uint64{0, 1, 1 << 63} {
			expect := func(name string, x *Tensor[T], err error, g func(r *rand.Rand) float64) {
				t.Helper()
				if got, want := dense(t, x, err, shape...), stream(seed, n, drawRef(d, g)); !slices.Equal(got, want) {
					t.Fatalf("%s(%d, %v) = %v, want %v", name, seed, shape, got, want)
				}
			}
			x, err := Rand[T](seed, shape...)
			expect("Rand", x, err, uniform)
			x, err = RandN[T](seed, shape...)
			expect("RandN", x, err, normal)
			buf := make([]T, n)
			FillRandN(rand.New(rand.NewPCG(seed, 0x74656e66)), buf)
			x, err = FromSlice(buf, shape...)
			expect("FillRandN", x, err, normal)
			// RandUniform on [0, 1) is Rand; on [lo, hi) it maps the same draws.
			x, err = RandUniform[T](seed, 0, 1, shape...)
			expect("RandUniform on [0, 1)", x, err, uniform)
			x, err = RandUniform[T](seed, -2, 3.5, shape...)
			expect("RandUniform on [-2, 3.5)", x, err, func(r *rand.Rand) float64 { return -2 + float64(5.5*uniform(r)) })
		}
	}
	// Same seed, same values; another seed, other values.
	a, _ := RandN[T](7, 50)
	b, _ := RandN[T](7, 50)
	c, _ := RandN[T](8, 50)
	if !slices.Equal(a.Storage(), b.Storage()) || slices.Equal(a.Storage(), c.Storage()) {
		t.Fatal("RandN is not a function of its seed")
	}
	for _, f := range []func() error{
		func() error { _, err := Rand[T](1, 2, -1); return err },
		func() error { _, err := RandN[T](1, 2, -1); return err },
		func() error { _, err := RandUniform[T](1, 0, 1, -2); return err },
	} {
		if err := f(); !errors.Is(err, ErrShape) {
			t.Fatalf("negative extent: %v", err)
		}
	}
	_, err := RandN[T](1, 1<<23, 1<<23)
	wantErr(t, err, ErrMemory, "RandN", "memory")
	_, err = RandUniform[T](1, 0, 1, 1<<23, 1<<23)
	wantErr(t, err, ErrMemory, "RandUniform", "memory")
}

func TestRandStream(t *testing.T) {
	runScalars(t, testRandStream[float32], testRandStream[float64], testRandStream[complex64], testRandStream[complex128])
}

// TestRandGolden pins the first values of seed 1, so that a change of
// generator, stream constant, order or scaling shows up.
func TestRandGolden(t *testing.T) {
	check := func(name string, got []complex128, want ...complex128) {
		t.Helper()
		if !slices.Equal(got, want) {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	f64, err := Rand[float64](1, 4)
	check("Rand[float64](1, 4)", vec(t, f64, err, 4), 0.7880327371090361, 0.52439774778289, 0.39183556534071395, 0.971835396203558)
	f32, err := Rand[float32](1, 4)
	check("Rand[float32](1, 4)", vec(t, f32, err, 4), rounded[float32](0.72350407), rounded[float32](0.8155497), rounded[float32](0.5489794), rounded[float32](0.7464794))
	n64, err := RandN[float64](1, 2, 2)
	check("RandN[float64](1, 2, 2)", dense(t, n64, err, 2, 2), 0.7053504270199848, -0.8449442582754121, -1.1641580391327122, -1.470806178155532)
	c128, err := RandN[complex128](1, 2)
	h := 1 / math.Sqrt2
	check("RandN[complex128](1, 2)", vec(t, c128, err, 2), complex(0.7053504270199848*h, -0.8449442582754121*h), complex(-1.1641580391327122*h, -1.470806178155532*h))
}

// moments checks that mean and variance of xs lie within 5 standard errors
// of mu and v, where sd is the standard deviation of one sample and sdv
// that of one squared deviation.
func moments(t *testing.T, name string, xs []float64, mu, v, sd, sdv float64) {
	t.Helper()
	n := float64(len(xs))
	var s, q float64
	for _, x := range xs {
		s += x
	}
	m := s / n
	for _, x := range xs {
		q += (x - mu) * (x - mu)
	}
	if d := math.Abs(m - mu); d > 5*sd/math.Sqrt(n) {
		t.Errorf("%s: mean %.5f, want %g ± %.5f", name, m, mu, 5*sd/math.Sqrt(n))
	}
	if d := math.Abs(q/n - v); d > 5*sdv/math.Sqrt(n) {
		t.Errorf("%s: variance %.5f, want %g ± %.5f", name, q/n, v, 5*sdv/math.Sqrt(n))
	}
}

func testRandStats[T Scalar](t *testing.T) {
	const n = 100_000
	d := DTypeOf[T]()
	x, err := RandN[T](2024, n)
	z := vec(t, x, err, n)
	u, err := RandUniform[T](2025, -1, 4, n)
	w := vec(t, u, err, n)
	re, im, abs2, sq := make([]float64, n), make([]float64, n), make([]float64, n), make([]complex128, n)
	ure := make([]float64, n)
	for i, v := range z {
		re[i], im[i], abs2[i], sq[i] = real(v), imag(v), real(v)*real(v)+imag(v)*imag(v), v*v
		ure[i] = real(w[i])
		if !(-1 <= ure[i] && ure[i] < 4 && (!d.IsComplex() || -1 <= imag(w[i]) && imag(w[i]) < 4)) {
			t.Fatalf("RandUniform(-1, 4)[%d] = %v", i, w[i])
		}
	}
	// A uniform on [-1, 4): mean 1.5, variance 25/12, (x-μ)² has sd √(5^4/80 - (25/12)²).
	moments(t, "RandUniform", ure, 1.5, 25.0/12, 5/math.Sqrt(12), math.Sqrt(625.0/80-625.0/144))
	if !d.IsComplex() {
		// N(0, 1): x² has variance 2.
		moments(t, "RandN", re, 0, 1, 1, math.Sqrt2)
		return
	}
	// Parts N(0, 1/2): x² has variance 2·(1/2)² = 1/2.
	moments(t, "RandN real part", re, 0, 0.5, math.Sqrt(0.5), math.Sqrt(0.5))
	moments(t, "RandN imaginary part", im, 0, 0.5, math.Sqrt(0.5), math.Sqrt(0.5))
	// |z|² is Exp(1): mean 1, variance 1.
	moments(t, "RandN |z|²", abs2, 1, 1, 1, math.Sqrt(8))
	// Circular symmetry: E[z²] = 0 (x²-y² and 2xy both have variance 1)
	// and the parts are uncorrelated.
	var s complex128
	for _, v := range sq {
		s += v
	}
	if m := s / n; math.Abs(real(m)) > 5/math.Sqrt(n) || math.Abs(imag(m)) > 5/math.Sqrt(n) {
		t.Errorf("RandN: mean of z² = %v, want 0 ± %.4f", m, 5/math.Sqrt(n))
	}
}

func TestRandStats(t *testing.T) {
	runScalars(t, testRandStats[float32], testRandStats[float64], testRandStats[complex64], testRandStats[complex128])
}

// TestRandUniformClamp: rounding that carries lo + (hi-lo)*u up to hi is
// pulled back below hi.
func TestRandUniformClamp(t *testing.T) {
	const n = 64
	lo32, hi32 := 1.0, float64(math.Nextafter32(1, 2))
	x, err := RandUniform[float32](3, lo32, hi32, n)
	got := vec(t, x, err, n)
	reached := 0
	for i, u := range stream(3, n, func(r *rand.Rand) complex128 { return complex(float64(r.Float32()), 0) }) {
		if float32(lo32+float64((hi32-lo32)*real(u))) == float32(hi32) {
			reached++
		}
		if g := got[i]; g != 1 {
			t.Fatalf("RandUniform[float32](1, next(1))[%d] = %v", i, g)
		}
	}
	hi64 := math.Nextafter(1, 2)
	y, err := RandUniform[complex128](3, 1, hi64, n)
	for _, g := range vec(t, y, err, n) {
		if g != complex(1, 1) {
			t.Fatalf("RandUniform[complex128](1, next(1)) has %v", g)
		}
	}
	if reached == 0 {
		t.Fatal("no draw rounded to hi: the case proves nothing")
	}

	nan, inf := math.NaN(), math.Inf(1)
	for _, c := range []struct {
		lo, hi float64
		arg    string
		single bool
	}{
		{nan, 1, "lo", false}, {-inf, 1, "lo", false}, {0, nan, "hi", false}, {0, inf, "hi", false},
		{1, 1, "hi", false}, {2, 1, "hi", false}, {-1e308, 1e308, "hi", false},
		{0, 1e39, "hi", true}, {-1e39, 0, "lo", true}, {1, 1 + 1e-10, "hi", true},
	} {
		var err error
		if c.single {
			_, err = RandUniform[complex64](1, c.lo, c.hi, 3)
		} else {
			_, err = RandUniform[float64](1, c.lo, c.hi, 3)
		}
		wantErr(t, err, ErrArgument, "RandUniform", c.arg)
	}
	if _, err := RandUniform[float64](1, 1, 1+1e-10, 3); err != nil {
		t.Fatalf("an interval that float64 resolves: %v", err)
	}
}

const creationScript = `
import json, sys
import numpy as np
c = json.load(open(sys.argv[1]))
out = {"arange": [], "linspace": [], "eye": []}
for start, stop, step in c["arange"]:
    a = np.arange(start, stop, step)
    out["arange"].append([a.tolist(), (start + np.arange(len(a)) * step).tolist()])
for start, stop, n, endpoint, s, e, base in c["linspace"]:
    out["linspace"].append([np.linspace(start, stop, n, endpoint).tolist(),
        np.linspace(start, stop, n, endpoint, dtype=np.float32).astype(np.float64).tolist(),
        np.logspace(s, e, n, endpoint, base).tolist(),
        np.logspace(s, e, n, endpoint, base, dtype=np.float32).astype(np.float64).tolist()])
for n, m, k in c["eye"]:
    out["eye"].append(np.eye(n, m, k).flatten(order="F").tolist())
json.dump(out, sys.stdout)
`
