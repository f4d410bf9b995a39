package vmath

import (
	"math"
	"testing"

	"github.com/tenferro-go/tenferro/internal/op/scalar"
)

// special is one input whose result IEEE 754 or the documented rules fix
// exactly (compared bit for bit; any NaN matches NaN).
type special struct {
	o    op
	x, y float64
}

var (
	inf  = math.Inf(1)
	nan  = math.NaN()
	negZ = math.Copysign(0, -1)
)

// specials returns the cases for one element type: tiny is its smallest
// subnormal, big its largest finite value, the thresholds those of the
// type (exp overflows above expHi and underflows to 0 below expLo) and
// the references those of Sin, Cos and Tan beyond the fast path.
func specials(tiny, big, expHi, expHiNext, expLo, expLoNext, em1Lo float64, sinRef, cosRef, tanRef func(float64) float64) []special {
	s := []special{
		{opExp, nan, nan}, {opExp, inf, inf}, {opExp, -inf, 0}, {opExp, 0, 1}, {opExp, negZ, 1},
		{opExp, tiny, 1}, {opExp, -tiny, 1}, {opExp, expHiNext, inf}, {opExp, big, inf},
		{opExp, expLo, tiny}, {opExp, expLoNext, 0}, {opExp, -big, 0},
		{opExpm1, nan, nan}, {opExpm1, inf, inf}, {opExpm1, -inf, -1}, {opExpm1, 0, 0}, {opExpm1, negZ, negZ},
		{opExpm1, tiny, tiny}, {opExpm1, -tiny, -tiny}, {opExpm1, expHiNext, inf}, {opExpm1, big, inf},
		{opExpm1, em1Lo, -1}, {opExpm1, -big, -1},
		{opLog, nan, nan}, {opLog, inf, inf}, {opLog, -inf, nan}, {opLog, 0, -inf}, {opLog, negZ, -inf},
		{opLog, -1, nan}, {opLog, -tiny, nan}, {opLog, 1, 0},
		{opLog1p, nan, nan}, {opLog1p, inf, inf}, {opLog1p, -inf, nan}, {opLog1p, -1, -inf}, {opLog1p, -2, nan},
		{opLog1p, 0, 0}, {opLog1p, negZ, negZ}, {opLog1p, tiny, tiny}, {opLog1p, -tiny, -tiny},
		{opTanh, nan, nan}, {opTanh, inf, 1}, {opTanh, -inf, -1}, {opTanh, 0, 0}, {opTanh, negZ, negZ},
		{opTanh, tiny, tiny}, {opTanh, -tiny, -tiny}, {opTanh, 30, 1}, {opTanh, -30, -1}, {opTanh, big, 1}, {opTanh, -big, -1},
		{opSigmoid, nan, nan}, {opSigmoid, inf, 1}, {opSigmoid, -inf, 0}, {opSigmoid, 0, 0.5}, {opSigmoid, negZ, 0.5},
		{opSigmoid, tiny, 0.5}, {opSigmoid, 40, 1}, {opSigmoid, big, 1}, {opSigmoid, -800, 0}, {opSigmoid, -big, 0},
		{opSin, nan, nan}, {opSin, inf, nan}, {opSin, -inf, nan}, {opSin, 0, 0}, {opSin, negZ, negZ},
		{opSin, tiny, tiny}, {opSin, -tiny, -tiny},
		{opCos, nan, nan}, {opCos, inf, nan}, {opCos, -inf, nan}, {opCos, 0, 1}, {opCos, negZ, 1}, {opCos, tiny, 1},
		{opSqrt, nan, nan}, {opSqrt, inf, inf}, {opSqrt, -inf, nan}, {opSqrt, 0, 0}, {opSqrt, negZ, negZ},
		{opSqrt, -1, nan}, {opSqrt, 4, 2}, {opSqrt, -tiny, nan},
		{opTan, nan, nan}, {opTan, inf, nan}, {opTan, -inf, nan}, {opTan, 0, 0}, {opTan, negZ, negZ},
		{opTan, tiny, tiny}, {opTan, -tiny, -tiny},
		{opAtan, nan, nan}, {opAtan, inf, math.Pi / 2}, {opAtan, -inf, -math.Pi / 2}, {opAtan, 0, 0}, {opAtan, negZ, negZ},
		{opAtan, tiny, tiny}, {opAtan, -tiny, -tiny}, {opAtan, big, math.Pi / 2}, {opAtan, -big, -math.Pi / 2},
		{opAtan, 1, math.Pi / 4}, {opAtan, -1, -math.Pi / 4},
		{opAsin, nan, nan}, {opAsin, inf, nan}, {opAsin, -inf, nan}, {opAsin, 0, 0}, {opAsin, negZ, negZ},
		{opAsin, tiny, tiny}, {opAsin, -tiny, -tiny}, {opAsin, 1, math.Pi / 2}, {opAsin, -1, -math.Pi / 2},
		{opAsin, 2, nan}, {opAsin, -2, nan}, {opAsin, big, nan},
		{opAcos, nan, nan}, {opAcos, inf, nan}, {opAcos, -inf, nan}, {opAcos, 0, math.Pi / 2}, {opAcos, negZ, math.Pi / 2},
		{opAcos, tiny, math.Pi / 2}, {opAcos, 1, 0}, {opAcos, -1, math.Pi}, {opAcos, 2, nan}, {opAcos, -2, nan}, {opAcos, -big, nan},
		{opSinh, nan, nan}, {opSinh, inf, inf}, {opSinh, -inf, -inf}, {opSinh, 0, 0}, {opSinh, negZ, negZ},
		{opSinh, tiny, tiny}, {opSinh, -tiny, -tiny}, {opSinh, 711, inf}, {opSinh, -711, -inf}, {opSinh, big, inf}, {opSinh, -big, -inf},
		{opCosh, nan, nan}, {opCosh, inf, inf}, {opCosh, -inf, inf}, {opCosh, 0, 1}, {opCosh, negZ, 1},
		{opCosh, tiny, 1}, {opCosh, 711, inf}, {opCosh, -711, inf}, {opCosh, big, inf}, {opCosh, -big, inf},
		{opErf, nan, nan}, {opErf, inf, 1}, {opErf, -inf, -1}, {opErf, 0, 0}, {opErf, negZ, negZ},
		{opErf, tiny, tiny}, {opErf, -tiny, -tiny}, {opErf, 30, 1}, {opErf, -30, -1}, {opErf, big, 1}, {opErf, -big, -1},
		{opErfc, nan, nan}, {opErfc, inf, 0}, {opErfc, -inf, 2}, {opErfc, 0, 1}, {opErfc, negZ, 1},
		{opErfc, tiny, 1}, {opErfc, 30, 0}, {opErfc, -30, 2}, {opErfc, big, 0}, {opErfc, -big, 2},
		{opGelu, nan, nan}, {opGelu, inf, inf}, {opGelu, -inf, nan}, {opGelu, 0, 0}, {opGelu, negZ, negZ},
		{opGelu, tiny, tiny}, {opGelu, 40, 40}, {opGelu, -40, negZ}, {opGelu, big, big}, {opGelu, -big, negZ},
	}
	// Beyond the fast path Sin and Cos return package math's result.
	for _, x := range []float64{math.Nextafter(trigMax, inf), 1e10, -3e15, 1e19, big, -big} {
		if x <= big && x >= -big {
			s = append(s, special{opSin, x, sinRef(x)}, special{opCos, x, cosRef(x)}, special{opTan, x, tanRef(x)})
		}
	}
	return s
}

func next64(x, to float64) float64 { return math.Nextafter(x, to) }
func next32(x, to float64) float64 { return float64(math.Nextafter32(float32(x), float32(to))) }

// TestSpecials checks IEEE special values, signed zeros, subnormals, the
// overflow and underflow thresholds and the Sin/Cos fallback on every
// variant, each value filling a slice longer than two vectors (so both the
// vector loop and the tail see it).
func TestSpecials(t *testing.T) {
	const n = 37
	s64 := specials(5e-324, math.MaxFloat64, 709.782712893384, next64(709.782712893384, inf),
		-745.1332191019411, next64(-745.1332191019411, -inf), -39, math.Sin, math.Cos, scalar.Tan)
	sin32 := func(x float64) float64 { return float64(float32(math.Sin(float64(float32(x))))) }
	cos32 := func(x float64) float64 { return float64(float32(math.Cos(float64(float32(x))))) }
	tan32 := func(x float64) float64 { return float64(float32(scalar.Tan(float64(float32(x))))) }
	s32 := specials(0x1p-149, math.MaxFloat32, 88.72283172607422, next32(88.72283172607422, inf),
		-103.97207641601562, next32(-103.97207641601562, -inf), -19, sin32, cos32, tan32)
	// Beyond their fast path float32 Sin, Cos and Tan round the float64
	// fallback's result.
	for _, x := range []float64{next32(trigMax32, inf), -next32(trigMax32, inf), 3e5, -1e6} {
		s32 = append(s32, special{opSin, x, sin32(x)}, special{opCos, x, cos32(x)}, special{opTan, x, tan32(x)})
	}
	for _, v := range supported() {
		for _, c := range s64 {
			src, dst := make([]float64, n), make([]float64, n)
			for i := range src {
				src[i] = c.x
			}
			v.f64(c.o)(dst, src)
			for i, y := range dst {
				if !same64(y, c.y) {
					t.Errorf("%s float64 %s(%v) = %v, want %v (element %d)", v.name, opNames[c.o], c.x, y, c.y, i)
					break
				}
			}
		}
		for _, c := range s32 {
			src, dst := make([]float32, n), make([]float32, n)
			for i := range src {
				src[i] = float32(c.x)
			}
			v.f32(c.o)(dst, src)
			for i, y := range dst {
				if !same32(y, float32(c.y)) {
					t.Errorf("%s float32 %s(%v) = %v, want %v (element %d)", v.name, opNames[c.o], float32(c.x), y, float32(c.y), i)
					break
				}
			}
		}
	}
}

// TestExpThresholds checks that exp and expm1 are finite (nonzero) on the
// safe side of each threshold and Inf (0) beyond, and that the largest
// finite results are close to the exact ones.
func TestExpThresholds(t *testing.T) {
	for _, v := range supported() {
		for _, o := range []op{opExp, opExpm1} {
			hi := []float64{709.782712893384}
			got := make([]float64, 1)
			v.f64(o)(got, hi)
			want := fns[o].exact(hi[0])
			if e := ulps64(got[0], want); e > fns[o].ulp64 || math.IsInf(got[0], 0) {
				t.Errorf("%s float64 %s(%v) = %v: %.3f ulps", v.name, opNames[o], hi[0], got[0], e)
			}
			hi32 := []float32{88.72283172607422}
			got32 := make([]float32, 1)
			v.f32(o)(got32, hi32)
			if e := ulps32(got32[0], fns[o].ref64(float64(hi32[0]))); e > fns[o].ulp32 || math.IsInf(float64(got32[0]), 0) {
				t.Errorf("%s float32 %s(%v) = %v: %.3f ulps", v.name, opNames[o], hi32[0], got32[0], e)
			}
		}
	}
}

// TestLogPow2 checks log(2^k) = k·ln2 within the bound for every power of
// two, subnormal ones included (where the mantissa is renormalized).
func TestLogPow2(t *testing.T) {
	var x64 []float64
	for k := -1074; k <= 1023; k++ {
		x64 = append(x64, math.Ldexp(1, k))
	}
	var x32 []float32
	for k := -149; k <= 127; k++ {
		x32 = append(x32, float32(math.Ldexp(1, k)))
	}
	for _, v := range supported() {
		y64 := make([]float64, len(x64))
		v.f64(opLog)(y64, x64)
		for i, x := range x64 {
			if e := ulps64(y64[i], fns[opLog].exact(x)); e > fns[opLog].ulp64 {
				t.Errorf("%s: float64 Log(%v) = %v: %.3f ulps", v.name, x, y64[i], e)
			}
		}
		y32 := make([]float32, len(x32))
		v.f32(opLog)(y32, x32)
		for i, x := range x32 {
			if e := ulps32(y32[i], math.Log(float64(x))); e > fns[opLog].ulp32 {
				t.Errorf("%s: float32 Log(%v) = %v: %.3f ulps", v.name, x, y32[i], e)
			}
		}
	}
}

// TestSinhCoshThresholds checks that sinh and cosh are finite and within
// the bound at the last float below their overflow (710.4758600739439,
// float32 89.41598510742188) and infinite at the next.
func TestSinhCoshThresholds(t *testing.T) {
	const hi64, hi32 = 710.4758600739439, 89.41598510742188
	for _, v := range supported() {
		for _, o := range []op{opSinh, opCosh} {
			for _, x := range []float64{hi64, -hi64} {
				got := make([]float64, 1)
				v.f64(o)(got, []float64{x})
				if e := ulps64(got[0], fns[o].exact(x)); e > fns[o].ulp64 || math.IsInf(got[0], 0) {
					t.Errorf("%s float64 %s(%v) = %v: %.3f ulps", v.name, opNames[o], x, got[0], e)
				}
				v.f64(o)(got, []float64{next64(x, 2*x)})
				if !math.IsInf(got[0], 0) {
					t.Errorf("%s float64 %s(%v) = %v, want Inf", v.name, opNames[o], next64(x, 2*x), got[0])
				}
			}
			for _, x := range []float32{hi32, -hi32} {
				got := make([]float32, 1)
				v.f32(o)(got, []float32{x})
				if e := ulps32(got[0], fns[o].ref64(float64(x))); e > fns[o].ulp32 || math.IsInf(float64(got[0]), 0) {
					t.Errorf("%s float32 %s(%v) = %v: %.3f ulps", v.name, opNames[o], x, got[0], e)
				}
				n := float32(next32(float64(x), 2*float64(x)))
				v.f32(o)(got, []float32{n})
				if !math.IsInf(float64(got[0]), 0) {
					t.Errorf("%s float32 %s(%v) = %v, want Inf", v.name, opNames[o], n, got[0])
				}
			}
		}
	}
}
