package vmath

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tenferro-go/tenferro/internal/op/scalar"
)

// binaryPairs returns n argument pairs: random bit patterns and values of
// every class (mixed64), moderate values, and every pair of the special
// values, so that each fast path and each bail is taken.
func binaryPairs(n int, rng *rand.Rand) (xs, ys []float64) {
	sp := []float64{0, negZ, inf, -inf, nan, 1, -1, 2, -2, 0.5, -3, 3, 5e-324, math.MaxFloat64, 1e-40, math.MaxFloat32}
	xs, ys = mixed64(opExp, n, rng), mixed64(opExp, n, rng)
	for i := range xs {
		switch rng.IntN(5) {
		case 0:
			xs[i], ys[i] = sp[rng.IntN(len(sp))], sp[rng.IntN(len(sp))]
		case 1:
			xs[i], ys[i] = 0.25+4*rng.Float64(), 20*rng.Float64()-10
		case 2: // x^y anywhere in the finite range: |y·ln x| up to 700
			xs[i] = math.Ldexp(1+rng.Float64(), rng.IntN(2000)-1000)
			ys[i] = (1400*rng.Float64() - 700) / math.Log(xs[i])
		}
	}
	return xs, ys
}

// binaryPairs32 returns n float32 argument pairs: binaryPairs narrowed,
// and powers across float32's own range (|y·ln x| up to 110, so that the
// fast path meets overflow near 88.7 and subnormal results below -87.3).
func binaryPairs32(n int, rng *rand.Rand) (xs, ys []float32) {
	x, y := binaryPairs(n, rng)
	xs, ys = narrow(x), narrow(y)
	for i := range xs {
		if rng.IntN(2) == 0 {
			xs[i] = float32(math.Ldexp(1+rng.Float64(), rng.IntN(250)-125))
			ys[i] = float32((205*rng.Float64() - 110) / math.Log(float64(xs[i])))
		}
	}
	return xs, ys
}

func narrow(v []float64) []float32 {
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = float32(x)
	}
	return out
}

// binaryKernels lists the kernels of each binary operation and element
// type.
var binaryKernels = []struct {
	o      op2
	has64  bool
	twin32 func(x, y float32) float32
	twin64 func(x, y float64) float64
	ref64  func(x, y float64) float64 // the catalog's definition
	ulps64 float64                    // bound against ref64
	ulps32 float64                    // bound of float32 against ref64 rounded
}{
	{o: op2Pow, has64: true, twin32: powF32, twin64: powF64, ref64: scalar.Pow, ulps64: 2, ulps32: 1},
	{o: op2Atan2, has64: true, twin32: atan2F32, twin64: atan2F64, ref64: scalar.Atan2, ulps64: 2, ulps32: 2},
}

// TestBinaryTwins checks every variant against the pure-Go twin bit for
// bit, at every test length (tails around the vector widths), with guards
// around dst, and in place over either argument.
func TestBinaryTwins(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	for _, k := range binaryKernels {
		for _, v := range supported() {
			for _, n := range append(testLens, 4099) {
				x, y := binaryPairs(n, rng)
				x32, y32 := binaryPairs32(n, rng)
				name := fmt.Sprintf("%s %s n=%d", v.name, op2Names[k.o], n)
				checkBinary(t, name+" float32", v.bin32(k.o), x32, y32, k.twin32, same32, -777.5)
				if k.has64 {
					checkBinary(t, name+" float64", v.bin64(k.o), x, y, k.twin64, same64, -777.5)
				}
			}
		}
	}
}

func checkBinary[T Float](t *testing.T, name string, f func(dst, x, y []T), x, y []T, twin func(x, y T) T, same func(a, b T) bool, guard T) {
	t.Helper()
	dst := guarded(t, name, len(x), guard, same, func(dst []T) { f(dst, x, y) })
	for i := range x {
		if want := twin(x[i], y[i]); !same(dst[i], want) {
			t.Fatalf("%s: element %d: f(%v, %v) = %v, twin %v", name, i, x[i], y[i], dst[i], want)
		}
	}
	for arg := range 2 {
		in := append([]T(nil), x...)
		other := y
		if arg == 1 {
			in, other = append([]T(nil), y...), x
		}
		if arg == 0 {
			f(in, in, other)
		} else {
			f(in, other, in)
		}
		for i := range in {
			if !same(in[i], dst[i]) {
				t.Fatalf("%s: in place over argument %d: element %d = %v, out of place %v", name, arg, i, in[i], dst[i])
			}
		}
	}
}

// TestBinaryReference checks the twins (which the assembly matches bit
// for bit) against the catalog's definitions: float64 within ulps64 of
// it, float32 within ulps32 of it rounded to float32, and special values,
// NaN and signs exactly.
func TestBinaryReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	x, y := binaryPairs(1<<16, rng)
	xs32, ys32 := binaryPairs32(1<<16, rng)
	for _, k := range binaryKernels {
		for i := range x {
			if k.has64 {
				checkRef(t, op2Names[k.o]+" float64", x[i], y[i], k.twin64(x[i], y[i]), k.ref64(x[i], y[i]), k.ulps64, func(v float64) float64 { return ulpOf64(v) })
			}
			x32, y32 := xs32[i], ys32[i]
			want := float32(k.ref64(float64(x32), float64(y32)))
			checkRef(t, op2Names[k.o]+" float32", float64(x32), float64(y32), float64(k.twin32(x32, y32)), float64(want), k.ulps32, func(v float64) float64 { return ulpOf32(float32(v)) })
		}
	}
}

func checkRef(t *testing.T, name string, x, y, got, want, bound float64, ulp func(float64) float64) {
	t.Helper()
	switch {
	case want != want || got != got:
		if want == want || got == got {
			t.Fatalf("%s(%v, %v) = %v, want %v", name, x, y, got, want)
		}
	case math.IsInf(want, 0) || want == 0:
		if math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("%s(%v, %v) = %v, want %v", name, x, y, got, want)
		}
	case math.Signbit(got) != math.Signbit(want) || math.Abs(got-want) > bound*ulp(want):
		t.Fatalf("%s(%v, %v) = %v, want %v (within %g ulps)", name, x, y, got, want, bound)
	}
}

func ulpOf64(v float64) float64 {
	v = math.Abs(v)
	return math.Nextafter(v, math.Inf(1)) - v
}

func ulpOf32(v float32) float64 {
	v = float32(math.Abs(float64(v)))
	return float64(math.Nextafter32(v, float32(math.Inf(1))) - v)
}

// TestBinaryLongerArguments: arguments longer than dst are read up to
// len(dst) only.
func TestBinaryLongerArguments(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 20))
	x, y := binaryPairs(100, rng)
	want := make([]float64, 100)
	Pow(want, x, y)
	for _, n := range []int{0, 1, 9, 37} {
		dst := make([]float64, n)
		Pow(dst, x, y)
		for i := range dst {
			if !same64(dst[i], want[i]) {
				t.Fatalf("n=%d: element %d = %v, want %v", n, i, dst[i], want[i])
			}
		}
	}
}
