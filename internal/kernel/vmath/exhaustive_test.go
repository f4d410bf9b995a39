package vmath

import (
	"flag"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"
)

// The bounds in the package doc were measured with these flags:
//
//	go test -run Exhaustive -vmath.exhaustive      (every float32, a few minutes per core)
//	go test -run Long64 -vmath.long 1000000        (a million float64 inputs per function)
var (
	exhaustive = flag.Bool("vmath.exhaustive", false, "check every float32 input of every function against package math")
	long64     = flag.Int("vmath.long", 0, "check this many float64 inputs per function against the 90-bit references")
)

// parallel runs work(i) for i in [0, n) on all CPUs.
func parallel(n int, work func(i int)) {
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				work(i)
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}

// TestExhaustive32 checks the best variant on every float32 input (the
// others return the same bits, TestTwins).
func TestExhaustive32(t *testing.T) {
	if !*exhaustive {
		t.Skip("needs -vmath.exhaustive")
	}
	v := supported()[0]
	for _, f := range fns {
		t.Run(f.name(), func(t *testing.T) { exhaustive32(t, v, f) })
	}
}

func exhaustive32(t *testing.T, v *variant, f fn) {
	const chunk = 1 << 16
	var mu sync.Mutex
	worst, at := 0.0, float32(0)
	parallel(1<<32/chunk, func(c int) {
		xs := make([]float32, chunk)
		got := make([]float32, chunk)
		for i := range xs {
			xs[i] = math.Float32frombits(uint32(c*chunk + i))
		}
		v.f32(f.o)(got, xs)
		w, a := 0.0, float32(0)
		for i, x := range xs {
			if e := ulps32(got[i], f.ref64(float64(x))); e > w {
				w, a = e, x
			}
		}
		mu.Lock()
		if w > worst {
			worst, at = w, a
		}
		mu.Unlock()
	})
	if worst > f.ulp32 {
		t.Errorf("%s %s: %.4f ulps at %v > %v", v.name, f.name(), worst, at, f.ulp32)
	} else {
		t.Logf("%s %s: max %.4f ulps at %v", v.name, f.name(), worst, at)
	}
}

// TestLong64 is TestAccuracy64 with -vmath.long inputs per function, on the
// best variant (one subtest per function, so -run Long64/Tan picks one).
func TestLong64(t *testing.T) {
	if *long64 == 0 {
		t.Skip("needs -vmath.long N")
	}
	v := supported()[0]
	for _, f := range fns {
		t.Run(f.name(), func(t *testing.T) { long64Test(t, v, f) })
	}
}

func long64Test(t *testing.T, v *variant, f fn) {
	xs := inputs64(f.o, *long64, rand.New(rand.NewPCG(uint64(f.o), 99)))
	got := make([]float64, len(xs))
	v.f64(f.o)(got, xs)
	errs := make([]float64, len(xs))
	const chunk = 1024
	parallel((len(xs)+chunk-1)/chunk, func(c int) {
		for i := c * chunk; i < min(len(xs), (c+1)*chunk); i++ {
			errs[i] = ulps64(got[i], f.exact(xs[i]))
		}
	})
	worst, at := 0.0, 0.0
	for i, e := range errs {
		if e > worst {
			worst, at = e, xs[i]
		}
	}
	if worst > f.ulp64 {
		t.Errorf("%s %s: %.4f ulps at %v > %v (%d inputs)", v.name, f.name(), worst, at, f.ulp64, len(xs))
	} else {
		t.Logf("%s %s: max %.4f ulps at %v (%d inputs)", v.name, f.name(), worst, at, len(xs))
	}
}
