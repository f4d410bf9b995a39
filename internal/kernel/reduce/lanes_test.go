package reduce

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// implNames names the lane implementations.
var implNames = [...]string{implGo: "go", implAVX2: "avx2", implAVX512: "avx512"}

// eachImpl runs fn with every lane implementation this CPU supports
// selected, the Go twins first, and restores the best one.
func eachImpl(t *testing.T, fn func(t *testing.T)) {
	defer func() { impl = bestImpl }()
	for i := implGo; i <= bestImpl; i++ {
		impl = i
		t.Run(implNames[i], fn)
	}
}

// laneLengths are the row lengths of the lane tests: every tail length
// modulo the widest chunk (64) around one and two chunks, primes and
// lengths around the block sizes.
func laneLengths() []int {
	ls := []int{0, 1, 2, 3, 5, 7, 8, 16, 31, 33, 1021, 1024, 1025, 2047, 2048, 2049, 4099, 8191, 65537}
	for n := 60; n < 200; n++ {
		ls = append(ls, n)
	}
	return ls
}

// laneData returns n+off random elements of F in [-2, 2).
func laneData[F Float](rng *rand.Rand, n int) []F {
	x := make([]F, n)
	for i := range x {
		x[i] = F(4*rng.Float64() - 2)
	}
	return x
}

// specialPositions returns positions of a row of n in each class: the
// first, inside a vector chunk, the last chunk and the tail.
func specialPositions(n int) []int {
	ps := []int{0, n / 2, n - 1}
	if n > 70 {
		ps = append(ps, 37, n-n%64-3)
	}
	var out []int
	for _, p := range ps {
		if p >= 0 && p < n {
			out = append(out, p)
		}
	}
	return out
}

func TestLanes(t *testing.T) {
	eachImpl(t, func(t *testing.T) {
		testLanes[float64](t)
		testLanes[float32](t)
	})
}

func testLanes[F Float](t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	name := fmt.Sprintf("%T", F(0))
	saved := impl
	for _, n := range laneLengths() {
		for off := range 4 {
			x := laneData[F](rng, n+off)[off:]
			// Bit-exact against the Go twins.
			s, q, e := sumUnit(x), ssqUnit(x, 0.25), extUnit(extMax, x)
			impl = implGo
			gs, gq, ge := sumUnit(x), ssqUnit(x, 0.25), extUnit(extMax, x)
			impl = saved
			if math.Float64bits(float64(s)) != math.Float64bits(float64(gs)) || q != gq || e != ge {
				t.Errorf("%s n %d off %d: sum %v ssq %v max %v, Go twins %v %v %v", name, n, off, s, q, e, gs, gq, ge)
			}
			// Against float64 references.
			var rs, ra, rq float64
			for _, v := range x {
				rs += float64(v)
				ra += math.Abs(float64(v))
				rq += (float64(v) - 0.25) * (float64(v) - 0.25)
			}
			eps := 0x1p-52
			if _, ok := any(x).([]float32); ok {
				eps = 0x1p-23
			}
			if tol := float64(blockTerms+8+bitsLen(n)) * eps * ra; math.Abs(float64(s)-rs) > tol {
				t.Errorf("%s n %d: sum %v, want %v (tol %g)", name, n, s, rs, tol)
			}
			if got := q.sum(); math.Abs(got-rq) > 1e-13*rq {
				t.Errorf("%s n %d: ssq %v, want %v", name, n, got, rq)
			}
			if n > 0 {
				checkExtremes(t, name, x)
			}
		}
	}
}

func bitsLen(n int) int {
	b := 0
	for ; n > 0; n >>= 1 {
		b++
	}
	return b
}

// checkExtremes compares extUnit and argUnit on x with plain loops, and
// again with NaN, ±Inf and ±0 placed at every position class.
func checkExtremes[F Float](t *testing.T, name string, x []F) {
	t.Helper()
	check := func(what string, x []F) {
		t.Helper()
		for _, k := range []extKind{extMax, extMin, extMaxAbs} {
			want := extLanes(k, fillOne(k, F(0)), x)
			if got := extUnit(k, x); math.Float64bits(float64(got)) != math.Float64bits(float64(want)) &&
				!(got != got && want != want) {
				t.Errorf("%s n %d %s: ext %d = %v, want %v", name, len(x), what, k, got, want)
			}
		}
		for _, isMin := range []bool{false, true} {
			want := argRef(isMin, x)
			if got := argUnit(isMin, x, 5); got.i != want+5 {
				t.Errorf("%s n %d %s: arg min=%v = %d, want %d", name, len(x), what, isMin, got.i-5, want)
			}
		}
	}
	check("plain", x)
	inf := F(math.Inf(1))
	negZero := F(math.Copysign(0, -1))
	for _, p := range specialPositions(len(x)) {
		for _, v := range []F{F(math.NaN()), inf, -inf, 0, negZero, 3} {
			y := append([]F(nil), x...)
			y[p] = v
			check(fmt.Sprintf("%v at %d", v, p), y)
			if p > 0 {
				y[0] = v
				check(fmt.Sprintf("%v at 0 and %d", v, p), y)
			}
		}
	}
	// Rows of zeros of both signs: the sign of a zero extremum.
	for _, p := range specialPositions(len(x)) {
		y := make([]F, len(x))
		for i := range y {
			y[i] = negZero
		}
		check("-0s", y)
		y[p] = 0
		check(fmt.Sprintf("-0s with +0 at %d", p), y)
		clear(y)
		y[p] = negZero
		check(fmt.Sprintf("+0s with -0 at %d", p), y)
	}
}

// fillOne returns the identity of k (as fillExt).
func fillOne[F Float](k extKind, _ F) F {
	var a [1]F
	fillExt(k, a[:])
	return a[0]
}

// argRef is the first extremum (or the first NaN) of x, element by element.
func argRef[F Float](isMin bool, x []F) int {
	bi := 0
	for i, v := range x {
		if v != v {
			return i
		}
		if (isMin && v < x[bi]) || (!isMin && v > x[bi]) {
			bi = i
		}
	}
	return bi
}

// TestLanesLong sums 2^24+3 float32 and float64 elements (misaligned)
// with every implementation against a float64 reference.
func TestLanesLong(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("long rows")
	}
	rng := rand.New(rand.NewPCG(3, 4))
	x64 := laneData[float64](rng, 1<<24+4)[1:]
	x32 := laneData[float32](rng, 1<<24+4)[1:]
	var r64, r32, a64, a32 float64
	for i := range x64 {
		r64 += x64[i]
		a64 += math.Abs(x64[i])
		r32 += float64(x32[i])
		a32 += math.Abs(float64(x32[i]))
	}
	eachImpl(t, func(t *testing.T) {
		if s := sumUnit(x64); math.Abs(s-r64) > 64*0x1p-52*a64 {
			t.Errorf("float64 sum %v, want %v", s, r64)
		}
		if s := sumUnit(x32); math.Abs(float64(s)-r32) > 64*0x1p-23*a32 {
			t.Errorf("float32 sum %v, want %v", s, r32)
		}
		if m, want := extUnit(extMax, x32), extLanes(extMax, float32(math.Inf(-1)), x32); m != want {
			t.Errorf("float32 max %v, want %v", m, want)
		}
	})
}

// TestLanesScaled checks the scaled fallback of ssqUnit: blocks of zeros,
// tiny and huge elements, NaN and Inf.
func TestLanesScaled(t *testing.T) {
	eachImpl(t, func(t *testing.T) {
		for _, n := range []int{5, 1024, 3000} {
			x := make([]float64, n)
			if q := ssqUnit(x, 0); q.sum() != 0 {
				t.Errorf("zeros n %d: %v", n, q.sum())
			}
			for i := range x {
				x[i] = 0x1p-600
			}
			if got, want := ssqUnit(x, 0).norm(), math.Sqrt(float64(n))*0x1p-600; math.Abs(got-want) > 1e-14*want {
				t.Errorf("tiny n %d: %v, want %v", n, got, want)
			}
			for i := range x {
				x[i] = 0x1p600
			}
			if got, want := ssqUnit(x, 0).norm(), math.Sqrt(float64(n))*0x1p600; math.Abs(got-want) > 1e-14*want {
				t.Errorf("huge n %d: %v, want %v", n, got, want)
			}
			x[n/2] = math.Inf(-1)
			if got := ssqUnit(x, 0).sum(); !math.IsInf(got, 1) {
				t.Errorf("Inf n %d: %v", n, got)
			}
			x[n-1] = math.NaN()
			if got := ssqUnit(x, 0).sum(); !math.IsNaN(got) {
				t.Errorf("NaN n %d: %v", n, got)
			}
		}
	})
}
