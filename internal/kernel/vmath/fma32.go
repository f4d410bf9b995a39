package vmath

import "math"

// fma32 returns a·b+c rounded once to float32, as the FMA instructions do.
//
// The product is exact in float64 and the float64 sum rounds once; rounding
// that sum to float32 again is correct unless it landed exactly halfway
// between two float32 values (or in float32's subnormal range, where the
// halfway test below does not apply), which fma32Slow settles with the
// exact error of the float64 sum.
func fma32(a, b, c float32) float32 {
	s := float64(a)*float64(b) + float64(c)
	bits := math.Float64bits(s)
	if bits&(1<<29-1) != 1<<28 && bits&0x7ff0000000000000 >= 0x3810000000000000 {
		return float32(s)
	}
	return fma32Slow(a, b, c, s)
}

// big32 stands for the value one float32 ulp above MaxFloat32, where
// rounding switches to infinity.
const big32 = 0x1p128

func fma32Slow(a, b, c float32, s float64) float32 {
	r := float32(s)
	rv := float64(r)
	if math.IsInf(rv, 0) {
		rv = math.Copysign(big32, rv)
	}
	if rv == s || s != s {
		return r
	}
	// o is the float32 on the other side of s.
	var o float32
	if rv < s {
		o = math.Nextafter32(r, float32(math.Inf(1)))
	} else {
		o = math.Nextafter32(r, float32(math.Inf(-1)))
	}
	ov := float64(o)
	if math.IsInf(ov, 0) {
		ov = math.Copysign(big32, ov)
	}
	if s-rv != ov-s {
		return r // not halfway: s and the exact sum round alike
	}
	// s is halfway; the exact a·b+c = s + e (two-sum of the exact product
	// and c) lies on the side of e.
	p := float64(a) * float64(b)
	cc := float64(c)
	bb := s - p
	e := (p - (s - bb)) + (cc - bb)
	if e == 0 {
		return r
	}
	if (e > 0) == (ov > rv) {
		return o
	}
	return r
}
