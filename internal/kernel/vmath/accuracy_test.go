package vmath

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/tenferro-go/tenferro/internal/kernel/vmath/internal/bigmath"
)

// neighbours appends the k floats on each side of each centre (and the
// centres), stepping by one ulp.
func neighbours64(xs []float64, k int, centres ...float64) []float64 {
	for _, c := range centres {
		lo, hi := c, c
		xs = append(xs, c)
		for range k {
			lo, hi = math.Nextafter(lo, math.Inf(-1)), math.Nextafter(hi, math.Inf(1))
			xs = append(xs, lo, hi)
		}
	}
	return xs
}

func neighbours32(xs []float32, k int, centres ...float64) []float32 {
	for _, c64 := range centres {
		c := float32(c64)
		lo, hi := c, c
		xs = append(xs, c)
		for range k {
			lo, hi = math.Nextafter32(lo, float32(math.Inf(-1))), math.Nextafter32(hi, float32(math.Inf(1)))
			xs = append(xs, lo, hi)
		}
	}
	return xs
}

// halfPiMultiples returns the doubles nearest to k·π/2 for the given k,
// where the reduction of Sin and Cos cancels most.
func halfPiMultiples(ks ...int64) []float64 {
	halfPi := new(big.Float).Quo(bigmath.Pi(200), big.NewFloat(2))
	var xs []float64
	for _, k := range ks {
		x, _ := new(big.Float).Mul(halfPi, new(big.Float).SetInt64(k)).Float64()
		xs = append(xs, x, -x)
	}
	return xs
}

// inputs64 returns the float64 sample of an operation: uniform draws over
// its main range, log-spaced magnitudes over its whole domain, and runs
// of consecutive floats around the points where the algorithm switches
// (reduction boundaries, thresholds, the ends of the mantissa range).
func inputs64(o op, n int, rng *rand.Rand) []float64 {
	var xs []float64
	uniform := func(a, b float64) {
		for range n / 2 {
			xs = append(xs, a+(b-a)*rng.Float64())
		}
	}
	logspaced := func(lo, hi float64, neg bool) {
		for range n / 2 {
			x := math.Exp2(lo + (hi-lo)*rng.Float64())
			if neg && rng.IntN(2) == 0 {
				x = -x
			}
			xs = append(xs, x)
		}
	}
	l2 := math.Ln2
	switch o {
	case opExp:
		uniform(-746, 710)
		logspaced(-60, 9.48, true)
		xs = neighbours64(xs, 32, 0, l2/2, -l2/2, 3*l2/2, 709.782712893384, -745.1332191019411, -708.39641853226408)
	case opExpm1:
		uniform(-40, 710)
		logspaced(-60, 9.48, true)
		xs = neighbours64(xs, 32, 0, l2, -l2, l2/2, -l2/2, 3*l2/2, -3*l2/2, 36.7, 709.782712893384, -39, -37.43)
	case opLog:
		uniform(0.25, 4)
		logspaced(-1074, 1024, false)
		xs = neighbours64(xs, 32, 1, math.Sqrt2, math.Sqrt2/2, 2, 0.5, 0x1p-1022, 5e-324, math.MaxFloat64)
	case opLog1p:
		uniform(-0.35, 0.5)
		logspaced(-60, 1024, true)
		for i := range xs {
			xs[i] = max(xs[i], -1+0x1p-53)
		}
		for e := 1; e <= 53; e++ {
			xs = append(xs, -1+math.Ldexp(1, -e))
		}
		xs = neighbours64(xs, 32, 0, math.Sqrt2-1, math.Sqrt2/2-1, 1, 2, 0x1p53, math.MaxFloat64)
	case opTanh:
		uniform(-21, 21)
		logspaced(-60, 4.4, true)
		xs = neighbours64(xs, 32, 0, l2/2, l2, 20, 19.06)
	case opSigmoid:
		uniform(-746, 40)
		logspaced(-60, 9.55, true)
		xs = neighbours64(xs, 32, 0, -708.4, -745.13)
	case opSin, opCos, opTan:
		uniform(-10, 10)
		logspaced(-60, 28, true)
		var ks []int64
		for k := int64(1); k <= 200; k++ {
			ks = append(ks, k)
		}
		tm := trigMax
		kmax := int64(tm / math.Pi * 2)
		for range n / 50 {
			ks = append(ks, 1+rng.Int64N(kmax))
		}
		xs = append(xs, halfPiMultiples(ks...)...)
		xs = neighbours64(xs, 8, math.Pi/4, -math.Pi/4, 3*math.Pi/4, trigMax, -trigMax)
	case opSqrt:
		logspaced(-1074, 1024, false)
		xs = neighbours64(xs, 32, 1, 2, 4, 5e-324, math.MaxFloat64)
	case opAtan:
		uniform(-5, 5)
		logspaced(-1074, 1024, true)
		xs = neighbours64(xs, 32, 0, 1, -1, math.Sqrt2-1, math.Sqrt2+1, -(math.Sqrt2 - 1), -(math.Sqrt2 + 1), 0.5, 2, 0x1p60)
	case opAsin, opAcos:
		uniform(-1, 1)
		logspaced(-1074, 0, true)
		for e := 1; e <= 53; e++ {
			xs = append(xs, 1-math.Ldexp(1, -e), -1+math.Ldexp(1, -e))
		}
		xs = neighbours64(xs, 32, 0, 0.5, -0.5, 1, -1)
	case opErf, opErfc, opGelu:
		uniform(-6, 6)
		uniform(-40, 40)
		logspaced(-1074, 9, true)
		xs = neighbours64(xs, 32, 0, 0.84375, -0.84375, 27.226017111108362, -38.58014022378236, 1, -1)
	case opSinh, opCosh:
		uniform(-711, 711)
		uniform(-3, 3)
		logspaced(-1074, 9.48, true)
		xs = neighbours64(xs, 32, 0, 1, -1, 710.4758600739439, -710.4758600739439, 709.782712893384)
	}
	// Keep finite points inside the domain; the special-value tests cover
	// the rest.
	in := xs[:0]
	for _, x := range xs {
		switch {
		case math.IsInf(x, 0) || x != x:
		case (o == opLog || o == opSqrt) && x <= 0:
		case o == opLog1p && x <= -1:
		case (o == opSin || o == opCos || o == opTan) && math.Abs(x) > trigMax:
		case (o == opAsin || o == opAcos) && math.Abs(x) > 1:
		default:
			in = append(in, x)
		}
	}
	return in
}

// TestAccuracy64 checks every variant's float64 results against 90-bit
// references within the documented bound, and that they share one result
// per input.
func TestAccuracy64(t *testing.T) {
	n := 20000
	if raceEnabled || testing.Short() {
		n = 1000
	}
	for _, f := range fns {
		t.Run(f.name(), func(t *testing.T) {
			t.Parallel()
			rng := rand.New(rand.NewPCG(uint64(f.o), 64))
			xs := inputs64(f.o, n, rng)
			want := make([]*big.Float, len(xs))
			for i, x := range xs {
				want[i] = f.exact(x)
			}
			got := make([]float64, len(xs))
			for _, v := range supported() {
				v.f64(f.o)(got, xs)
				worst, at := 0.0, 0.0
				for i, x := range xs {
					if e := ulps64(got[i], want[i]); e > worst {
						worst, at = e, x
					}
				}
				if worst > f.ulp64 {
					w, _ := f.exact(at).Float64()
					t.Errorf("%s: %s(%v) = %v, want %v: %.3f ulps > %v", v.name, f.name(), at, got[indexOf(xs, at)], w, worst, f.ulp64)
				} else {
					t.Logf("%s: %s max error %.3f ulps at %v (%d inputs)", v.name, f.name(), worst, at, len(xs))
				}
			}
		})
	}
}

func indexOf(xs []float64, x float64) int {
	for i, y := range xs {
		if same64(x, y) {
			return i
		}
	}
	return -1
}

// inputs32 returns every stride-th float32 bit pattern (NaNs left out: the
// special-value tests cover them) and runs of consecutive floats around
// the algorithms' switching points.
func inputs32(o op, stride uint64) []float32 {
	var xs []float32
	for b := uint64(0); b < 1<<32; b += stride {
		if x := math.Float32frombits(uint32(b)); x == x {
			xs = append(xs, x)
		}
	}
	l2 := math.Ln2
	var c []float64
	switch o {
	case opExp, opSigmoid:
		c = []float64{0, l2 / 2, -l2 / 2, 88.72283172607422, -103.97207641601562, -87.33654, -87, 17, 87}
	case opExpm1, opTanh:
		c = []float64{0, l2, -l2, l2 / 2, 17, -17.33, 88.72283172607422, 10, 9.01, 0.5625, -0.5625}
	case opLog, opLog1p, opSqrt:
		c = []float64{1, math.Sqrt2, math.Sqrt2 / 2, math.Sqrt2 - 1, math.Sqrt2/2 - 1, 0x1p-126, -1, 0}
	case opAtan:
		c = []float64{0, 1, -1, math.Sqrt2 - 1, math.Sqrt2 + 1, -(math.Sqrt2 - 1), -(math.Sqrt2 + 1)}
	case opAsin, opAcos:
		c = []float64{0, 0.5, -0.5, 1, -1}
	case opErf, opErfc, opGelu:
		c = []float64{0, 0.84375, -0.84375, 10.054194450378418, -14.356067657470703, 1, -1}
	case opSinh, opCosh:
		c = []float64{0, 1, -1, 89.41598510742188, -89.41598510742188}
	case opSin, opCos, opTan:
		for k := int64(1); k <= 100; k++ {
			c = append(c, halfPiMultiples(k, 1000*k+7)...)
		}
		c = append(c, math.Pi/4, trigMax, -trigMax, trigMax32, -trigMax32)
	}
	return neighbours32(xs, 512, c...)
}

// TestAccuracy32 checks every variant's float32 results against package
// math evaluated in float64 within the documented bound, on about four
// million inputs spread over all float32 values.
func TestAccuracy32(t *testing.T) {
	stride := uint64(1009)
	if raceEnabled || testing.Short() {
		stride = 100003
	}
	for _, f := range fns {
		t.Run(f.name(), func(t *testing.T) {
			t.Parallel()
			xs := inputs32(f.o, stride)
			want := make([]float64, len(xs))
			for i, x := range xs {
				want[i] = f.ref64(float64(x))
			}
			got := make([]float32, len(xs))
			for _, v := range supported() {
				v.f32(f.o)(got, xs)
				worst, at := 0.0, -1
				for i := range xs {
					if e := ulps32(got[i], want[i]); e > worst || at < 0 {
						worst, at = e, i
					}
				}
				msg := fmt.Sprintf("%s: %s(%v) = %v, want %v: %.3f ulps", v.name, f.name(), xs[at], got[at], want[at], worst)
				if worst > f.ulp32 {
					t.Errorf("%s > %v", msg, f.ulp32)
				} else {
					t.Logf("%s (max of %d inputs)", msg, len(xs))
				}
			}
		})
	}
}
