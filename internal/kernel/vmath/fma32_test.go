package vmath

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// exactFMA32 rounds the exact a·b+c to float32 with math/big (with
// infinite or NaN operands rounding cannot err and math.FMA decides).
func exactFMA32(a, b, c float32) float32 {
	for _, v := range []float32{a, b, c} {
		if math.IsInf(float64(v), 0) || v != v {
			return float32(math.FMA(float64(a), float64(b), float64(c)))
		}
	}
	p := new(big.Float).SetPrec(1024).Mul(big.NewFloat(float64(a)), big.NewFloat(float64(b)))
	p.Add(p, big.NewFloat(float64(c)))
	f, _ := p.Float32()
	return f
}

// TestFMA32 compares fma32 with the exactly rounded a·b+c on random
// operands and on sums that the float64 sum rounds to a float32 midpoint
// (where rounding twice would err), in the normal, subnormal and overflow
// ranges.
func TestFMA32(t *testing.T) {
	type c3 struct{ a, b, c float32 }
	var cases []c3
	rng := rand.New(rand.NewPCG(11, 12))
	for range 200000 {
		a, b, c := math.Float32frombits(rng.Uint32()), math.Float32frombits(rng.Uint32()), math.Float32frombits(rng.Uint32())
		cases = append(cases, c3{a, b, c})
		// Products of the size of c, where the sum cancels.
		e := rng.IntN(60) - 30
		cases = append(cases, c3{a, float32(math.Ldexp(float64(b), e)), c})
	}
	// a·b = u/2·(1 ∓ 2^-40) with u the spacing above x: the float64 sum
	// is the midpoint x + u/2 while the exact sum lies just below (above)
	// it.
	lo, hi := float32(1+0x1p-20), float32(1-0x1p-20)
	for _, x := range []float32{1, 1.5, 3, 1 + 0x1p-23, 12345.678, 0x1p-126, 0x1p-140, 0x1p-149, 3e38, math.MaxFloat32, 0} {
		for _, s := range []float32{1, -1} {
			x := s * x
			u := math.Nextafter32(x, s*float32(math.Inf(1))) - x
			if math.IsInf(float64(u), 0) {
				u = s * 0x1p104 // above MaxFloat32
			}
			for _, f := range []float32{lo, hi} {
				// Spread the factor so that b stays a normal float32.
				a := f * 0x1p-40
				b := u / 2 * hi * 0x1p40
				if f == hi {
					b = u / 2 * lo * 0x1p40
				}
				cases = append(cases, c3{a, b, x}, c3{-a, b, x}, c3{a, -b, -x})
			}
		}
	}
	bad := 0
	for _, c := range cases {
		got, want := fma32(c.a, c.b, c.c), exactFMA32(c.a, c.b, c.c)
		if !same32(got, want) {
			if bad++; bad <= 10 {
				t.Errorf("fma32(%v, %v, %v) = %v, want %v", c.a, c.b, c.c, got, want)
			}
		}
	}
	// The midpoint cases must actually reach the slow path.
	slow := 0
	for _, c := range cases[len(cases)-132:] {
		s := float64(c.a)*float64(c.b) + float64(c.c)
		if b := math.Float64bits(s); b&(1<<29-1) == 1<<28 || b&0x7ff0000000000000 < 0x3810000000000000 {
			slow++
		}
	}
	if slow < 60 {
		t.Errorf("only %d of the crafted cases take the slow path", slow)
	}
}
