package simd

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tenferro-go/tenferro/internal/op/scalar"
)

// The reference of every operation is its float64 definition in package
// math and op/scalar, rounded once to F: exact for these operations,
// since float64 carries more than twice float32's precision.

func refBinary(o Op, x, y float64) float64 {
	switch o {
	case Add:
		return x + y
	case Sub:
		return x - y
	case Mul:
		return x * y
	case Div:
		return x / y
	case Max:
		return scalar.Maximum(x, y)
	case Min:
		return scalar.Minimum(x, y)
	case GoMax:
		return max(x, y)
	case GoMin:
		return min(x, y)
	}
	panic("bad op")
}

func refUnary(o UnaryOp, x, a, b float64) float64 {
	switch o {
	case Neg:
		return -x
	case Abs:
		return math.Abs(x)
	case Square:
		return x * x
	case Recip:
		return 1 / x
	case Rsqrt:
		return 1 / math.Sqrt(x)
	case Floor:
		return math.Floor(x)
	case Ceil:
		return math.Ceil(x)
	case Trunc:
		return math.Trunc(x)
	case Round:
		return math.RoundToEven(x)
	case Relu:
		return scalar.Relu(x)
	case Sign:
		return scalar.Sign(x)
	case Clip:
		return scalar.Clip(x, a, b)
	}
	panic("bad op")
}

var (
	binaryOps = []Op{Add, Sub, Mul, Div, Max, Min, GoMax, GoMin}
	unaryOps  = []UnaryOp{Neg, Abs, Square, Recip, Rsqrt, Floor, Ceil, Trunc, Round, Relu, Sign, Clip}
)

// specials are the values every kernel sees: zeros, infinities, NaN,
// subnormals, halfway cases of rounding and values near the largest
// integers of float32 and float64.
func specials[F Float]() []F {
	v := []float64{0, math.Copysign(0, -1), 1, -1, math.Inf(1), math.Inf(-1), math.NaN(),
		0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 0.49999999999999994, 3.5, -3.5, 1e-310, -1e-310, 1e-40, -1e-40,
		1 << 52, 1<<52 + 0.5, 1<<52 - 0.5, -(1<<52 + 0.5), 1 << 53, 1<<23 + 0.5, 1<<23 - 0.5, -(1<<23 - 0.5),
		1 << 24, 3.4e38, -3.4e38, 1.7e308, 4, 0.25, 2, 7.75, -7.25, 1e-20}
	out := make([]F, len(v))
	for i, x := range v {
		out[i] = F(x)
	}
	return out
}

// input returns n values at offset off of a fresh slice: specials first,
// then random values of mixed magnitudes, with repeats so that Max and
// Min see ties.
func input[F Float](r *rand.Rand, n, off int) []F {
	s := specials[F]()
	x := make([]F, n+off)
	for i := range x {
		switch {
		case i < len(s):
			x[i] = s[r.IntN(len(s))]
		case r.IntN(4) == 0:
			x[i] = F(r.IntN(7) - 3)
		default:
			x[i] = F(r.NormFloat64() * math.Pow(2, float64(r.IntN(40)-20)))
		}
	}
	return x[off:]
}

func same[F Float](a, b F) bool {
	if a != a && b != b {
		return true
	}
	return math.Float64bits(float64(a)) == math.Float64bits(float64(b))
}

// lengths covers 0, every tail below four vectors of the widest kernel,
// primes and a long row.
func lengths() []int {
	var ns []int
	for n := range 70 {
		ns = append(ns, n)
	}
	return append(ns, 97, 127, 128, 131, 257, 1031, 4099)
}

const guard = 12345.0

// output returns a slice of n elements at offset off, framed by guard
// values that check verifies.
func output[F Float](n, off int) (z, all []F) {
	all = make([]F, n+off+8)
	for i := range all {
		all[i] = guard
	}
	return all[off : off+n], all
}

func checkGuards[F Float](t *testing.T, all []F, off, n int, what string) {
	t.Helper()
	for i, v := range all {
		if (i < off || i >= off+n) && v != guard {
			t.Fatalf("%s: guard %d overwritten: %v", what, i, v)
		}
	}
}

func testBinary[F Float](t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, o := range binaryOps {
		for _, n := range lengths() {
			off := n % 4
			x, y := input[F](r, n, off), input[F](r, n, (off+1)%4)
			s := x[r.IntN(max(n, 1))%max(n, 1):]
			c := F(1.5)
			if len(s) > 0 {
				c = s[0]
			}
			for _, sh := range []string{"VV", "VS", "SV"} {
				z, all := output[F](n, off)
				switch sh {
				case "VV":
					VV(o, z, x, y)
				case "VS":
					VS(o, z, x, c)
				case "SV":
					SV(o, z, c, y)
				}
				what := fmt.Sprintf("op %d %s n=%d", o, sh, n)
				checkGuards(t, all, off, n, what)
				for i := range n {
					var want float64
					switch sh {
					case "VV":
						want = refBinary(o, float64(x[i]), float64(y[i]))
					case "VS":
						want = refBinary(o, float64(x[i]), float64(c))
					case "SV":
						want = refBinary(o, float64(c), float64(y[i]))
					}
					if !same(z[i], F(want)) {
						t.Fatalf("%s: element %d: got %v, want %v (x %v y %v c %v)", what, i, z[i], F(want), x[i], y[i], c)
					}
				}
			}
			// In place: z is x.
			zz := append([]F(nil), x...)
			VV(o, zz, zz, y)
			for i := range n {
				if want := F(refBinary(o, float64(x[i]), float64(y[i]))); !same(zz[i], want) {
					t.Fatalf("op %d in place n=%d: element %d: got %v, want %v", o, n, i, zz[i], want)
				}
			}
		}
	}
}

func testUnary[F Float](t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	bounds := [][2]F{{-1, 1}, {0, 0}, {F(math.Copysign(0, -1)), 0}, {2, -2}, {F(math.NaN()), 1}, {-1, F(math.NaN())}, {F(math.Inf(-1)), 0.5}}
	for _, o := range unaryOps {
		for _, n := range lengths() {
			off := (n / 3) % 4
			x := input[F](r, n, off)
			for bi, ab := range bounds {
				if o != Clip && bi > 0 {
					break
				}
				a, b := ab[0], ab[1]
				z, all := output[F](n, off)
				Unary(o, z, x, a, b)
				what := fmt.Sprintf("unary op %d n=%d a=%v b=%v", o, n, a, b)
				checkGuards(t, all, off, n, what)
				for i := range n {
					want := F(refUnary(o, float64(x[i]), float64(a), float64(b)))
					if !same(z[i], want) {
						t.Fatalf("%s: element %d: f(%v) = %v, want %v", what, i, x[i], z[i], want)
					}
				}
				zz := append([]F(nil), x...)
				Unary(o, zz, zz, a, b)
				for i := range n {
					if !same(zz[i], z[i]) {
						t.Fatalf("%s in place: element %d: got %v, want %v", what, i, zz[i], z[i])
					}
				}
			}
		}
	}
}

// TestKernels runs every operation on every variant, with the ordinary
// stores and with the streaming ones (StreamBytes 0: every row streams
// after its unaligned head).
func TestKernels(t *testing.T) {
	for _, v := range variants() {
		for _, sb := range []int{StreamBytes, 0} {
			t.Run(fmt.Sprintf("%s/stream%d", v, sb), func(t *testing.T) {
				use(t, v)
				old := StreamBytes
				StreamBytes = sb
				t.Cleanup(func() { StreamBytes = old })
				t.Run("binary/f32", testBinary[float32])
				t.Run("binary/f64", testBinary[float64])
				t.Run("unary/f32", testUnary[float32])
				t.Run("unary/f64", testUnary[float64])
			})
		}
	}
}

// TestSignedZeroTies pins the tie rule of Max and Min: the second
// argument, so Max(0, -0) = -0 and Max(-0, 0) = 0.
func TestSignedZeroTies(t *testing.T) {
	neg := math.Copysign(0, -1)
	for _, v := range variants() {
		use(t, v)
		n := 37
		x, y, z := make([]float64, n), make([]float64, n), make([]float64, n)
		for i := range x {
			x[i], y[i] = 0, neg
		}
		VV(Max, z, x, y)
		for i := range z {
			if !math.Signbit(z[i]) {
				t.Fatalf("%s: Max(0, -0) = %v, want -0", v, z[i])
			}
		}
		VV(Min, z, y, x)
		for i := range z {
			if math.Signbit(z[i]) {
				t.Fatalf("%s: Min(-0, 0) = -%v, want 0", v, z[i])
			}
		}
		Unary(Relu, z, y, 0, 0)
		for i := range z {
			if math.Signbit(z[i]) {
				t.Fatalf("%s: Relu(-0) = -0, want 0", v)
			}
		}
		// GoMax and GoMin ignore the order: +0 and -0 whichever comes
		// first.
		for _, args := range [][2][]float64{{x, y}, {y, x}} {
			VV(GoMax, z, args[0], args[1])
			for i := range z {
				if math.Signbit(z[i]) {
					t.Fatalf("%s: GoMax(%v, %v) = -0, want 0", v, args[0][i], args[1][i])
				}
			}
			VV(GoMin, z, args[0], args[1])
			for i := range z {
				if !math.Signbit(z[i]) {
					t.Fatalf("%s: GoMin(%v, %v) = 0, want -0", v, args[0][i], args[1][i])
				}
			}
		}
	}
}

func TestAllocs(t *testing.T) {
	x := make([]float32, 100)
	z := make([]float32, 100)
	if n := testing.AllocsPerRun(10, func() {
		VV(Add, z, x, x)
		VS(Max, z, x, 1)
		SV(Div, z, 1, x)
		Unary(Clip, z, x, -1, 1)
	}); n != 0 {
		t.Fatalf("%v allocations per run", n)
	}
}
