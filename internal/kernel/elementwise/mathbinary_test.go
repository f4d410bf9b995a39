package elementwise

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/tenferro-go/tenferro/internal/op"
	"github.com/tenferro-go/tenferro/internal/op/scalar"
)

// binaryRef is the catalog's float64 definition of the real binary
// functions.
func binaryRef(k op.Kind, x, y float64) float64 {
	switch k {
	case op.Pow:
		return scalar.Pow(x, y)
	case op.Atan2:
		return scalar.Atan2(x, y)
	case op.Hypot:
		return math.Hypot(x, y)
	}
	panic(k)
}

// mathPairs returns argument pairs for k: every pair of special values
// (signed zeros, infinities, NaN, subnormals, extremes, ±1), then random
// pairs at every magnitude, then pairs at the magnitudes of typical use.
func mathPairs[F float32 | float64](k op.Kind, r *rand.Rand, n int) (x, y []F) {
	maxF, tiny := math.MaxFloat64, 5e-324
	if _, ok := any(F(0)).(float32); ok {
		maxF, tiny = math.MaxFloat32, 1e-45
	}
	special := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 1, -1, 2, -2, 0.5, -3,
		tiny, -tiny, maxF, -maxF, 1e-300, 1e300, 1e-20, 1e20, 3.5, -2.5}
	for _, a := range special {
		for _, b := range special {
			x, y = append(x, F(a)), append(y, F(b))
		}
	}
	for range n {
		mag := func() float64 {
			e := r.IntN(600) - 300
			if _, ok := any(F(0)).(float32); ok {
				e = r.IntN(80) - 40
			}
			v := (0.5 + r.Float64()) * math.Pow(2, float64(e))
			if r.IntN(2) == 0 {
				v = -v
			}
			return v
		}
		a, b := mag(), mag()
		if k == op.Pow {
			a, b = math.Abs(a), r.Float64()*20-10 // a finite result, mostly
		}
		x, y = append(x, F(a)), append(y, F(b))
		// Typical use: moderate arguments, and integer exponents of negative bases.
		a, b = r.Float64()*4-2, r.Float64()*4-2
		if k == op.Pow {
			a, b = -0.5-r.Float64()*2, float64(r.IntN(9)-4)
		}
		x, y = append(x, F(a)), append(y, F(b))
	}
	return x, y
}

// ulpDiff is the distance in units in the last place of F between a and
// b, both finite and of the same sign, or 0 when they are identical
// (NaN matching NaN).
func ulpDiff[F float32 | float64](a, b F) float64 {
	if a == b || a != a && b != b {
		return 0
	}
	if a != a || b != b || math.IsInf(float64(a), 0) || math.IsInf(float64(b), 0) {
		return math.Inf(1)
	}
	u := math.Abs(float64(b))
	if _, ok := any(F(0)).(float32); ok {
		e := math.Max(math.Floor(math.Log2(u)), -126)
		return math.Abs(float64(a)-float64(b)) / math.Pow(2, e-23)
	}
	e := math.Max(math.Floor(math.Log2(u)), -1022)
	return math.Abs(float64(a)-float64(b)) / math.Pow(2, e-52)
}

// TestMathBinaryAccuracy checks Pow, Atan2 and Hypot against the catalog's
// float64 definitions: identical special values (signs of zero included),
// and finite results within 2 ulps of it (float64; the definitions
// themselves are within about an ulp) or 1 ulp of it rounded (float32).
func TestMathBinaryAccuracy(t *testing.T) {
	for _, k := range []op.Kind{op.Pow, op.Atan2, op.Hypot} {
		t.Run(k.String()+"/f64", func(t *testing.T) { checkMathBinary[float64](t, k, 2) })
		t.Run(k.String()+"/f32", func(t *testing.T) { checkMathBinary[float32](t, k, 1) })
	}
}

func checkMathBinary[F float32 | float64](t *testing.T, k op.Kind, tol float64) {
	r := rand.New(rand.NewPCG(uint64(k), 3))
	x, y := mathPairs[F](k, r, 20000)
	// Lengths that are not a multiple of the block, and an odd offset.
	for _, n := range []int{len(x), 1, mathBlock + 3} {
		z := make([]F, n)
		floatBinary(k, z, x[:n], y[:n])
		worst := 0.0
		for i := range z {
			want := F(binaryRef(k, float64(x[i]), float64(y[i])))
			got := z[i]
			d := ulpDiff(got, want)
			if want == 0 && got == 0 && math.Signbit(float64(want)) != math.Signbit(float64(got)) {
				d = math.Inf(1)
			}
			if want != want || math.IsInf(float64(want), 0) || want == 0 {
				if d != 0 {
					t.Fatalf("%v(%v, %v) = %v, want %v", k, x[i], y[i], got, want)
				}
				continue
			}
			if d > tol {
				t.Errorf("%v(%v, %v) = %v, want %v (%.2f ulp)", k, x[i], y[i], got, want, d)
			}
			worst = max(worst, d)
		}
		t.Logf("%d pairs: worst %.2f ulp from the float64 definition", n, worst)
	}
}

// TestHypotRoundsOnce checks float64 Hypot against √(x²+y²) evaluated
// with math/big: within an ulp at every magnitude.
func TestHypotRoundsOnce(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	x, y := mathPairs[float64](op.Hypot, r, 5000)
	z := make([]float64, len(x))
	floatBinary(op.Hypot, z, x, y)
	for i := range z {
		if math.IsInf(x[i], 0) || math.IsInf(y[i], 0) || x[i] != x[i] || y[i] != y[i] {
			continue
		}
		a, b := new(big.Float).SetPrec(300).SetFloat64(x[i]), new(big.Float).SetPrec(300).SetFloat64(y[i])
		s := new(big.Float).SetPrec(300).Add(new(big.Float).SetPrec(300).Mul(a, a), new(big.Float).SetPrec(300).Mul(b, b))
		want, _ := s.Sqrt(s).Float64()
		if d := ulpDiff(z[i], want); d > 1 {
			t.Errorf("Hypot(%v, %v) = %v, want %v (%.2f ulp)", x[i], y[i], z[i], want, d)
		}
	}
}
