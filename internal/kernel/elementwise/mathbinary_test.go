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
		return math.Pow(x, y)
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
// themselves are within about an ulp, except math.Pow, whose misses are
// measured from 160-bit arithmetic) or 1 ulp of it rounded (float32).
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
			if _, ok := any(got).(float64); ok && k == op.Pow && d > tol {
				// math.Pow is itself up to tens of ulps off at large |y·ln x|:
				// measure from the exact value instead.
				exact := math.Copysign(bigPow(math.Abs(float64(x[i])), float64(y[i])), float64(want))
				d = ulpDiff(got, F(exact))
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

// bigPow returns x^y for x > 0 rounded from 160-bit arithmetic: ln x by
// the series of atanh, the exponential by its Taylor series after
// reducing by ln 2.
func bigPow(x, y float64) float64 {
	const prec = 160
	nf := func() *big.Float { return new(big.Float).SetPrec(prec) }
	atanh2 := func(s *big.Float) *big.Float { // 2·atanh(s), |s| <= 1/3
		sum, term, s2 := nf().Set(s), nf().Set(s), nf().Mul(s, s)
		for k := int64(3); k < 400; k += 2 {
			term.Mul(term, s2)
			t := nf().Quo(term, nf().SetInt64(k))
			if t.Sign() == 0 || t.MantExp(nil)-sum.MantExp(nil) < -prec {
				break
			}
			sum.Add(sum, t)
		}
		return sum.Mul(sum, nf().SetInt64(2))
	}
	ln2 := atanh2(nf().Quo(nf().SetInt64(1), nf().SetInt64(3)))
	m := nf()
	e := nf().SetFloat64(x).MantExp(m) // x = m·2^e, m in [0.5, 1)
	one := nf().SetInt64(1)
	lnm := atanh2(nf().Quo(nf().Sub(m, one), nf().Add(m, one)))
	t := nf().Add(nf().Mul(nf().SetInt64(int64(e)), ln2), lnm)
	t.Mul(t, nf().SetFloat64(y))
	// t = n·ln2 + r
	q, _ := nf().Quo(t, ln2).Float64()
	n := math.Round(q)
	r := nf().Sub(t, nf().Mul(nf().SetFloat64(n), ln2))
	sum, term := nf().SetInt64(1), nf().SetInt64(1)
	for k := int64(1); k < 200; k++ {
		term.Mul(term, r)
		term.Quo(term, nf().SetInt64(k))
		if term.Sign() == 0 || term.MantExp(nil) < -prec-4 {
			break
		}
		sum.Add(sum, term)
	}
	sum.SetMantExp(sum, int(n))
	v, _ := sum.Float64()
	return v
}

// TestPowAccuracy checks float64 Pow against 160-bit arithmetic on
// positive bases of every magnitude with results in range: within 1.5
// ulps.
func TestPowAccuracy(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	const n = 3000
	x, y := make([]float64, n), make([]float64, n)
	for i := range x {
		x[i] = (0.5 + r.Float64()) * math.Pow(2, float64(r.IntN(2000)-1000))
		lim := 700 / math.Abs(math.Log(x[i])) // |y·ln x| < 700: a normal result
		y[i] = (2*r.Float64() - 1) * min(lim, 50)
		if i%3 == 0 {
			x[i] = 0.25 + 4*r.Float64()
			y[i] = 20 * (2*r.Float64() - 1)
		}
	}
	z := make([]float64, n)
	floatBinary(op.Pow, z, x, y)
	worst := 0.0
	for i := range z {
		want := bigPow(x[i], y[i])
		d := ulpDiff(z[i], want)
		if d > 1.5 {
			t.Errorf("Pow(%v, %v) = %v, want %v (%.2f ulp)", x[i], y[i], z[i], want, d)
		}
		worst = max(worst, d)
	}
	t.Logf("worst %.2f ulp over %d pairs", worst, n)
}
