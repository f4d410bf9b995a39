package vmath

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// mixed64 returns n inputs mixing random bit patterns (every class of
// float: NaNs, infinities, subnormals), values in o's main range and, for
// Sin, Cos and Tan, arguments beyond the fast path at random positions.
func mixed64(o op, n int, rng *rand.Rand) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		switch rng.IntN(8) {
		case 0:
			xs[i] = math.Float64frombits(rng.Uint64())
		case 1:
			xs[i] = math.Ldexp(rng.Float64(), rng.IntN(2100)-1075)
		case 2:
			xs[i] = []float64{0, negZ, inf, -inf, nan, 1, -1, 5e-324, math.MaxFloat64}[rng.IntN(9)]
		default:
			xs[i] = (rng.Float64()*2 - 1) * []float64{1, 10, 100, 800}[rng.IntN(4)]
		}
		if o == opSin || o == opCos || o == opTan {
			if rng.IntN(16) == 0 {
				xs[i] = trigMax * (1 + rng.Float64())
			}
		}
	}
	return xs
}

func mixed32(o op, n int, rng *rand.Rand) []float32 {
	xs := make([]float32, n)
	for i, x := range mixed64(o, n, rng) {
		xs[i] = float32(x)
		if i%8 == 0 {
			xs[i] = math.Float32frombits(rng.Uint32())
		}
	}
	return xs
}

// TestTwins checks that each assembly variant returns exactly the pure-Go
// twin's bits on a large mixed sample.
func TestTwins(t *testing.T) {
	n := 1 << 17
	if raceEnabled {
		n = 1 << 12
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for o := range numOps {
		x64, x32 := mixed64(o, n, rng), mixed32(o, n, rng)
		w64, w32 := make([]float64, n), make([]float32, n)
		twin.f64(o)(w64, x64)
		twin.f32(o)(w32, x32)
		for _, v := range supported() {
			g64, g32 := make([]float64, n), make([]float32, n)
			v.f64(o)(g64, x64)
			v.f32(o)(g32, x32)
			for i := range g64 {
				if !same64(g64[i], w64[i]) {
					t.Errorf("%s float64 %s(%v [%#x]) = %v, twin %v", v.name, opNames[o], x64[i], math.Float64bits(x64[i]), g64[i], w64[i])
					break
				}
			}
			for i := range g32 {
				if !same32(g32[i], w32[i]) {
					t.Errorf("%s float32 %s(%v [%#x]) = %v, twin %v", v.name, opNames[o], x32[i], math.Float32bits(x32[i]), g32[i], w32[i])
					break
				}
			}
		}
	}
}

// testLens are the lengths of TestLengths: empty, short, primes, and tails
// around the vector widths (4, 8 and 16 lanes).
var testLens = []int{0, 1, 2, 3, 4, 5, 7, 8, 9, 11, 13, 15, 16, 17, 23, 31, 32, 33, 47, 63, 64, 65, 97, 127, 128, 129, 257, 1021}

const guards = 16

// TestLengths checks every variant on every length: each element equals
// the scalar twin of its input, the guard values on both sides of dst
// survive, and dst == src (in place) gives the same results.
func TestLengths(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, v := range supported() {
		for o := range numOps {
			for _, n := range testLens {
				checkLen(t, v.name, opNames[o], v.f64(o), mixed64(o, n, rng), float64Twins[o], same64, -777.5)
				checkLen(t, v.name, opNames[o], v.f32(o), mixed32(o, n, rng), float32Twins[o], same32, -777.5)
			}
		}
	}
}

func checkLen[T Float](t *testing.T, vname, oname string, k func(dst, src []T), src []T, scalar func(T) T, same func(a, b T) bool, guard T) {
	t.Helper()
	n := len(src)
	name := fmt.Sprintf("%s %T %s n=%d", vname, guard, oname, n)
	dst := guarded(t, name, n, guard, same, func(dst []T) { k(dst, src) })
	for i, x := range src {
		if want := scalar(x); !same(dst[i], want) {
			t.Fatalf("%s: element %d: f(%v) = %v, twin %v", name, i, x, dst[i], want)
		}
	}
	inPlace := append(make([]T, 0, n), src...)
	k(inPlace, inPlace)
	for i := range inPlace {
		if !same(inPlace[i], dst[i]) {
			t.Fatalf("%s: in place element %d = %v, out of place %v", name, i, inPlace[i], dst[i])
		}
	}
}

// guarded calls f on a destination of n elements with guards of value
// guard on both sides, checks that the guards survive, and returns it.
func guarded[T Float](t *testing.T, name string, n int, guard T, same func(a, b T) bool, f func(dst []T)) []T {
	t.Helper()
	buf := make([]T, n+2*guards)
	for i := range buf {
		buf[i] = guard
	}
	dst := buf[guards : guards+n]
	f(dst)
	for i, g := range buf {
		if (i < guards || i >= guards+n) && !same(g, guard) {
			t.Fatalf("%s: guard %d overwritten with %v", name, i-guards, g)
		}
	}
	return dst
}

// The scalar twins by operation.
var (
	float64Twins = [numOps]func(float64) float64{expF64, expm1F64, logF64, log1pF64, tanhF64, sigmoidF64, sinF64, cosF64, sqrtF64,
		tanF64, atanF64, asinF64, acosF64, sinhF64, coshF64, erfF64, erfcF64, geluF64}
	float32Twins = [numOps]func(float32) float32{expF32, expm1F32, logF32, log1pF32, tanhF32, sigmoidF32, sinF32, cosF32, sqrtF32,
		tanF32, atanF32, asinF32, acosF32, sinhF32, coshF32, erfF32, erfcF32, geluF32}
)

// TestTwinNames checks the twin tables above against the operation names.
func TestTwinNames(t *testing.T) {
	for o := range numOps {
		for _, f := range []any{float64Twins[o], float32Twins[o]} {
			name := runtime.FuncForPC(reflect.ValueOf(f).Pointer()).Name()
			if !strings.HasSuffix(strings.ToLower(name), "."+strings.ToLower(opNames[o])+"f64") &&
				!strings.HasSuffix(strings.ToLower(name), "."+strings.ToLower(opNames[o])+"f32") {
				t.Errorf("twin of %s is %s", opNames[o], name)
			}
		}
	}
}

// TestAPI checks that the exported functions run the active variant for
// both element types, in place too.
func TestAPI(t *testing.T) {
	api64 := [numOps]func(dst, src []float64){Exp[float64], Expm1[float64], Log[float64], Log1p[float64], Tanh[float64], Sigmoid[float64], Sin[float64], Cos[float64], Sqrt[float64],
		Tan[float64], Atan[float64], Asin[float64], Acos[float64], Sinh[float64], Cosh[float64], Erf[float64], Erfc[float64], Gelu[float64]}
	api32 := [numOps]func(dst, src []float32){Exp[float32], Expm1[float32], Log[float32], Log1p[float32], Tanh[float32], Sigmoid[float32], Sin[float32], Cos[float32], Sqrt[float32],
		Tan[float32], Atan[float32], Asin[float32], Acos[float32], Sinh[float32], Cosh[float32], Erf[float32], Erfc[float32], Gelu[float32]}
	rng := rand.New(rand.NewPCG(9, 10))
	for o := range numOps {
		for _, n := range []int{0, 1, 19, 300} {
			checkLen(t, "api", opNames[o], api64[o], mixed64(o, n, rng), float64Twins[o], same64, 0.25)
			checkLen(t, "api", opNames[o], api32[o], mixed32(o, n, rng), float32Twins[o], same32, 0.25)
		}
	}
}

// TestAllocs checks that the functions allocate nothing.
func TestAllocs(t *testing.T) {
	x64, y64 := make([]float64, 100), make([]float64, 100)
	x32, y32 := make([]float32, 100), make([]float32, 100)
	for i := range x64 {
		x64[i] = float64(i) / 7
		x32[i] = float32(i) / 7
	}
	if a := testing.AllocsPerRun(10, func() {
		Exp(y64, x64)
		Expm1(y64, x64)
		Log(y64, x64)
		Log1p(y64, x64)
		Tanh(y64, x64)
		Sigmoid(y64, x64)
		Sin(y64, x64)
		Cos(y64, x64)
		Sqrt(y64, x64)
		Tan(y64, x64)
		Atan(y64, x64)
		Asin(y64, x64)
		Acos(y64, x64)
		Sinh(y64, x64)
		Cosh(y64, x64)
		Erf(y64, x64)
		Erfc(y64, x64)
		Gelu(y64, x64)
		Exp(y32, x32)
		Expm1(y32, x32)
		Log(y32, x32)
		Log1p(y32, x32)
		Tanh(y32, x32)
		Sigmoid(y32, x32)
		Sin(y32, x32)
		Cos(y32, x32)
		Sqrt(y32, x32)
		Tan(y32, x32)
		Atan(y32, x32)
		Asin(y32, x32)
		Acos(y32, x32)
		Sinh(y32, x32)
		Cosh(y32, x32)
		Erf(y32, x32)
		Erfc(y32, x32)
		Gelu(y32, x32)
	}); a != 0 {
		t.Errorf("%v allocations per run", a)
	}
}

// TestLengthMismatch checks the panic on unequal lengths, which names the
// function and both lengths.
func TestLengthMismatch(t *testing.T) {
	defer func() {
		r := recover()
		if s, _ := r.(string); s != "vmath.Log: len(dst) = 2, len(src) = 3" {
			t.Errorf("panic %v", r)
		}
	}()
	Log(make([]float32, 2), make([]float32, 3))
}

// TestVariants checks the registry: generic (pure Go) last and always supported, the
// amd64 variants present unless built with purego, and SetVariant's
// errors and effect.
func TestVariants(t *testing.T) {
	vs := Variants()
	if last := vs[len(vs)-1]; last != (Variant{"generic", true}) {
		t.Errorf("last variant %v", last)
	}
	if runtime.GOARCH == "amd64" && len(archVariants()) > 0 {
		if len(vs) != 3 || vs[0].Name != "avx512" || vs[1].Name != "avx2" {
			t.Errorf("variants %v", vs)
		}
	}
	if ActiveVariant() != supported()[0].name {
		t.Errorf("active %q, want the best supported %q", ActiveVariant(), supported()[0].name)
	}
	if _, err := SetVariant("sse9"); err == nil || !strings.Contains(err.Error(), `unknown variant "sse9"`) {
		t.Errorf("SetVariant(sse9) error %v", err)
	}
	for _, v := range variants {
		if !v.supported {
			if _, err := SetVariant(v.name); err == nil || !strings.Contains(err.Error(), "not supported") {
				t.Errorf("SetVariant(%s) error %v", v.name, err)
			}
		}
	}
	prev, err := SetVariant("generic")
	if err != nil {
		t.Fatal(err)
	}
	defer SetVariant(prev)
	if ActiveVariant() != "generic" {
		t.Errorf("active %q after SetVariant(generic)", ActiveVariant())
	}
	if back, _ := SetVariant(prev); back != "generic" {
		t.Errorf("SetVariant returned %q, want generic", back)
	}
}
