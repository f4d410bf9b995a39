package gemm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

var testSizes = []int{0, 1, 2, 3, 7, 13, 31, 48, 64, 97}

type abCase struct {
	name        string
	alpha, beta complex128
}

var abCases = []abCase{
	{"a1b0", 1, 0},
	{"a1b1", 1, 1},
	{"arand_brand", complex(-0.75, 0.5), complex(1.25, -0.25)},
	{"arand_b0", complex(2.5, -1), 0},
	{"a0_brand", 0, complex(-0.5, 0.75)},
	{"a0_b0", 0, 0},
}

// runCase runs one random product and checks it against the reference.
func runCase[T Scalar](t *testing.T, rng *rand.Rand, ws *Workspace, r *testRunner, m, n, k int, la, lb, lc layout, ab abCase) {
	t.Helper()
	alpha, beta := fromC128[T](ab.alpha), fromC128[T](ab.beta)
	rnd := func() T { return randScalar[T](rng) }
	a := makeMat(m, k, la, rnd)
	b := makeMat(k, n, lb, rnd)
	sentinel := fromC128[T](complex(777, -333))
	c := makeMat(m, n, lc, func() T { return sentinel })
	in := members(c, m, n)
	nan := fromC128[T](complex(math.NaN(), math.NaN()))
	for i := range c.Data {
		if in[i] {
			if beta == 0 {
				c.Data[i] = nan // must not propagate
			} else {
				c.Data[i] = rnd()
			}
		}
	}
	c0 := c
	c0.Data = append([]T(nil), c.Data...)
	name := fmt.Sprintf("%T m=%d n=%d k=%d A=%v B=%v C=%v %s", alpha, m, n, k, la, lb, lc, ab.name)
	if r != nil {
		Gemm(ws, r, m, n, k, alpha, a, b, beta, c)
	} else {
		Gemm(ws, nil, m, n, k, alpha, a, b, beta, c)
	}
	checkGemm(t, name, m, n, k, alpha, a, b, beta, c0, c)
}

func conformance[T Scalar](t *testing.T, r *testRunner) {
	rng := rand.New(rand.NewPCG(1, 2))
	var ws Workspace
	// Exhaustive small grid, column-major.
	for _, m := range testSizes[:6] {
		for _, n := range testSizes[:6] {
			for _, k := range testSizes[:6] {
				runCase[T](t, rng, &ws, r, m, n, k, colMajor, colMajor, colMajor, abCases[2])
			}
		}
	}
	// Random sizes, layouts and scalars.
	cases := 150
	if testing.Short() {
		cases = 30
	}
	for range cases {
		m := testSizes[rng.IntN(len(testSizes))]
		n := testSizes[rng.IntN(len(testSizes))]
		k := testSizes[rng.IntN(len(testSizes))]
		la, lb := layout(rng.IntN(int(nLayouts))), layout(rng.IntN(int(nLayouts)))
		lc := []layout{colMajor, transposed, strided, dense}[rng.IntN(4)]
		runCase[T](t, rng, &ws, r, m, n, k, la, lb, lc, abCases[rng.IntN(len(abCases))])
	}
	// Every layout of A and B once at an awkward size.
	for la := range nLayouts {
		for lb := range nLayouts {
			runCase[T](t, rng, &ws, r, 37, 29, 41, la, lb, colMajor, abCases[2])
		}
	}
	if !testing.Short() {
		runCase[T](t, rng, &ws, r, 211, 163, 301, colMajor, transposed, colMajor, abCases[2])
	}
}

func TestConformance(t *testing.T) {
	forEachVariant(t, func(t *testing.T) {
		t.Run("float32", func(t *testing.T) { conformance[float32](t, nil) })
		t.Run("float64", func(t *testing.T) { conformance[float64](t, nil) })
		t.Run("complex64", func(t *testing.T) { conformance[complex64](t, nil) })
		t.Run("complex128", func(t *testing.T) { conformance[complex128](t, nil) })
	})
}

func TestConformanceParallel(t *testing.T) {
	saved := ParallelThreshold
	defer func() { ParallelThreshold = saved }()
	ParallelThreshold = 0
	for _, w := range []int{2, 3} {
		r := newTestRunner(t, w)
		forEachVariant(t, func(t *testing.T) {
			t.Run(fmt.Sprintf("w%d/float64", w), func(t *testing.T) { conformance[float64](t, r) })
			t.Run(fmt.Sprintf("w%d/complex64", w), func(t *testing.T) { conformance[complex64](t, r) })
			if !testing.Short() {
				t.Run(fmt.Sprintf("w%d/float32", w), func(t *testing.T) { conformance[float32](t, r) })
			}
		})
	}
}

// nonFinite checks NaN and Inf from A and B reach exactly the affected
// elements of C.
func nonFinite[T Scalar](t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var ws Workspace
	for _, sz := range [][3]int{{1, 1, 1}, {13, 7, 5}, {37, 31, 29}, {64, 64, 64}} {
		m, n, k := sz[0], sz[1], sz[2]
		rnd := func() T { return randScalar[T](rng) }
		for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
			a := makeMat(m, k, colMajor, rnd)
			b := makeMat(k, n, transposed, rnd)
			c := makeMat(m, n, colMajor, rnd)
			i, p, j := rng.IntN(m), rng.IntN(k), rng.IntN(n)
			a.Data[a.Off+i*a.RS+p*a.CS] = fromC128[T](complex(bad, 0))
			q := rng.IntN(k)
			b.Data[b.Off+q*b.RS+j*b.CS] = fromC128[T](complex(bad, 0))
			c0 := c
			c0.Data = append([]T(nil), c.Data...)
			alpha, beta := fromC128[T](1.5), fromC128[T](0.5)
			Gemm(&ws, nil, m, n, k, alpha, a, b, beta, c)
			checkGemm(t, fmt.Sprintf("%T %v m=%d n=%d k=%d", alpha, bad, m, n, k), m, n, k, alpha, a, b, beta, c0, c)
			// Row i and column j must be non-finite somewhere they are affected.
			if isFinite(toC128(at(c, i, j))) {
				t.Fatalf("%T %v: C[%d,%d] finite", alpha, bad, i, j)
			}
		}
	}
}

func TestNonFinite(t *testing.T) {
	forEachVariant(t, func(t *testing.T) {
		t.Run("float32", nonFinite[float32])
		t.Run("float64", nonFinite[float64])
		t.Run("complex64", nonFinite[complex64])
		t.Run("complex128", nonFinite[complex128])
	})
}

func batched[T Scalar](t *testing.T, r *testRunner) {
	rng := rand.New(rand.NewPCG(5, 6))
	var ws Workspace
	for _, sz := range [][4]int{{3, 4, 5, 0}, {0, 4, 5, 3}, {7, 5, 3, 1}, {13, 11, 9, 5}, {33, 17, 20, 4}, {64, 64, 64, 3}} {
		m, n, k, batch := sz[0], sz[1], sz[2], sz[3]
		rnd := func() T { return randScalar[T](rng) }
		// Items laid out one after another with gaps; C gaps hold sentinels.
		sa, sb, sc := m*k+3, k*n+1, m*n+2
		a := Mat[T]{Data: make([]T, sa*batch+1), Off: 1, RS: 1, CS: m}
		b := Mat[T]{Data: make([]T, sb*batch+1), Off: 0, RS: n, CS: 1}
		c := Mat[T]{Data: make([]T, sc*batch+4), Off: 2, RS: 1, CS: m}
		for i := range a.Data {
			a.Data[i] = rnd()
		}
		for i := range b.Data {
			b.Data[i] = rnd()
		}
		for i := range c.Data {
			c.Data[i] = fromC128[T](999)
		}
		for l := 0; l < batch; l++ {
			for j := 0; j < n; j++ {
				for i := 0; i < m; i++ {
					c.Data[c.Off+l*sc+i+j*m] = rnd()
				}
			}
		}
		c0 := c
		c0.Data = append([]T(nil), c.Data...)
		alpha, beta := fromC128[T](complex(0.5, 1)), fromC128[T](complex(-1, 0.25))
		if r != nil {
			GemmBatched(&ws, r, m, n, k, batch, alpha, a, sa, b, sb, beta, c, sc)
		} else {
			GemmBatched(&ws, nil, m, n, k, batch, alpha, a, sa, b, sb, beta, c, sc)
		}
		for l := 0; l < batch; l++ {
			al, bl, cl, c0l := a, b, c, c0
			al.Off += l * sa
			bl.Off += l * sb
			cl.Off += l * sc
			c0l.Off += l * sc
			// checkGemm's guard check covers the whole array, so restore
			// the other items' expected values first.
			exp := c0l
			exp.Data = append([]T(nil), c.Data...)
			for j := 0; j < n; j++ {
				for i := 0; i < m; i++ {
					exp.Data[exp.Off+i+j*m] = c0.Data[c0l.Off+i+j*m]
				}
			}
			checkGemm(t, fmt.Sprintf("%T batch item %d of %v", alpha, l, sz), m, n, k, alpha, al, bl, beta, exp, cl)
		}
		for i := 0; i < c.Off; i++ {
			if c.Data[i] != c0.Data[i] {
				t.Fatalf("guard before batch changed")
			}
		}
		if batch == 0 || m == 0 {
			for i := range c.Data {
				if c.Data[i] != c0.Data[i] {
					t.Fatalf("empty batch wrote C")
				}
			}
		}
	}
}

func TestBatched(t *testing.T) {
	forEachVariant(t, func(t *testing.T) {
		t.Run("float64", func(t *testing.T) { batched[float64](t, nil) })
		t.Run("complex64", func(t *testing.T) { batched[complex64](t, nil) })
		t.Run("float32", func(t *testing.T) { batched[float32](t, nil) })
	})
	saved := ParallelThreshold
	defer func() { ParallelThreshold = saved }()
	for _, th := range []int{0, 200_000} {
		ParallelThreshold = th
		r := newTestRunner(t, 2)
		t.Run(fmt.Sprintf("parallel/th%d", th), func(t *testing.T) {
			batched[float64](t, r)
			batched[complex128](t, r)
			batched[float32](t, r)
		})
	}
}

func TestAllocs(t *testing.T) {
	if testing.CoverMode() != "" {
		t.Skip("coverage instrumentation allocates")
	}
	saved := ParallelThreshold
	defer func() { ParallelThreshold = saved }()
	rng := rand.New(rand.NewPCG(7, 8))
	r := newTestRunner(t, 2)
	const m, n, k = 70, 50, 90
	rnd := func() float64 { return randScalar[float64](rng) }
	a := makeMat(m, k, colMajor, rnd)
	b := makeMat(k, n, transposed, rnd)
	c := makeMat(m, n, colMajor, rnd)
	var ws Workspace
	for _, th := range []int{1 << 62, 0} {
		ParallelThreshold = th
		Gemm(&ws, r, m, n, k, 1.5, a, b, 0.5, c)
		GemmBatched(&ws, r, m, n, k, 3, 1.5, a, 0, b, 0, 0.5, c, 0)
		if got := testing.AllocsPerRun(20, func() { Gemm(&ws, nil, m, n, k, 1.5, a, b, 0.5, c) }); got != 0 {
			t.Errorf("serial Gemm allocates %v per call", got)
		}
		if got := testing.AllocsPerRun(20, func() { Gemm(&ws, r, m, n, k, 1.5, a, b, 0.5, c) }); got != 0 {
			t.Errorf("threshold %d: Gemm with runner allocates %v per call", th, got)
		}
		if got := testing.AllocsPerRun(20, func() { GemmBatched(&ws, r, m, n, k, 3, 1.5, a, 0, b, 0, 0.5, c, 0) }); got != 0 {
			t.Errorf("threshold %d: GemmBatched allocates %v per call", th, got)
		}
	}
	rz := func() complex128 { return randScalar[complex128](rng) }
	za := makeMat(m, k, colMajor, rz)
	zb := makeMat(k, n, strided, rz)
	zc := makeMat(m, n, colMajor, rz)
	alpha, beta := complex(1.5, -0.5), complex(0.25, 1)
	Gemm(&ws, r, m, n, k, alpha, za, zb, beta, zc)
	if got := testing.AllocsPerRun(20, func() { Gemm(&ws, r, m, n, k, alpha, za, zb, beta, zc) }); got != 0 {
		t.Errorf("complex128 Gemm allocates %v per call", got)
	}
}

func TestVariants(t *testing.T) {
	vs := Variants()
	if len(vs) == 0 || vs[len(vs)-1].Name != "generic" || !vs[len(vs)-1].Supported {
		t.Fatalf("Variants() = %v, want generic last and supported", vs)
	}
	prev, err := SetVariant("generic")
	if err != nil {
		t.Fatal(err)
	}
	if ActiveVariant() != "generic" {
		t.Fatalf("ActiveVariant() = %q after SetVariant(generic)", ActiveVariant())
	}
	if _, err := SetVariant(prev); err != nil {
		t.Fatal(err)
	}
	if _, err := SetVariant("no-such"); err == nil {
		t.Fatal("SetVariant(no-such) succeeded")
	}
	for _, v := range vs {
		if !v.Supported {
			if _, err := SetVariant(v.Name); err == nil {
				t.Fatalf("SetVariant(%q) succeeded on unsupported CPU", v.Name)
			}
		}
	}
}

// TestTightOperands checks that operands whose backing arrays end exactly at
// their last element are accepted by every path (no over-long slicing).
func TestTightOperands(t *testing.T) {
	defer func(g int) { matGuard = g }(matGuard)
	matGuard = 0
	forEachVariant(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(9, 10))
		var ws Workspace
		for _, sz := range [][3]int{{1, 1, 1}, {24, 8, 5}, {32, 14, 7}, {40, 36, 9}, {48, 16, 33}, {97, 31, 13}} {
			for la := range nLayouts {
				for _, lb := range []layout{colMajor, transposed, strided, dense} {
					for _, lc := range []layout{colMajor, transposed, dense} {
						runCase[float64](t, rng, &ws, nil, sz[0], sz[1], sz[2], la, lb, lc, abCases[0])
						runCase[float32](t, rng, &ws, nil, sz[0], sz[1], sz[2], la, lb, lc, abCases[1])
						runCase[complex128](t, rng, &ws, nil, sz[0], sz[1], sz[2], la, lb, lc, abCases[0])
					}
				}
			}
		}
	})
}

// TestSkinnyInPlace: a column-major A too large for the small-matrix
// in-place path is read in place when C has a single column panel (n up to
// the kernel's nr), and a B too large for it when C has a single row panel
// (m up to mr), including partial panels and a K longer than one K block;
// a row-major A with few columns of C goes through the transposed product.
// The results match the reference.
func TestSkinnyInPlace(t *testing.T) {
	forEachVariant(t, func(t *testing.T) {
		check := func(t *testing.T, f func(rng *rand.Rand, ws *Workspace, m, n, k int, la layout, ab abCase)) {
			rng := rand.New(rand.NewPCG(5, 6))
			var ws Workspace
			for i, big := range [][2]int{{411, 397}, {129, 1031}} {
				for j, small := range []int{1, 3, 8, 24} {
					la := []layout{colMajor, dense, transposed}[(i+j)%3]
					ab := abCases[rng.IntN(len(abCases))]
					f(rng, &ws, big[0], small, big[1], la, ab) // few columns
					f(rng, &ws, small, big[0], big[1], la, ab) // few rows
				}
			}
		}
		t.Run("float64", func(t *testing.T) {
			check(t, func(rng *rand.Rand, ws *Workspace, m, n, k int, la layout, ab abCase) {
				runCase[float64](t, rng, ws, nil, m, n, k, la, colMajor, colMajor, ab)
			})
		})
		t.Run("float32", func(t *testing.T) {
			check(t, func(rng *rand.Rand, ws *Workspace, m, n, k int, la layout, ab abCase) {
				runCase[float32](t, rng, ws, nil, m, n, k, la, transposed, strided, ab)
			})
		})
		t.Run("complex128", func(t *testing.T) {
			check(t, func(rng *rand.Rand, ws *Workspace, m, n, k int, la layout, ab abCase) {
				runCase[complex128](t, rng, ws, nil, m, n, k, la, colMajor, colMajor, ab)
			})
		})
	})
}
