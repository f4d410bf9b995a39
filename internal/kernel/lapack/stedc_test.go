package lapack

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
)

// withStedcLeaf runs f with StedcLeaf set, then restores it.
func withStedcLeaf(leaf int, f func()) {
	l0 := StedcLeaf
	StedcLeaf = leaf
	defer func() { StedcLeaf = l0 }()
	f()
}

func testStedc(t *testing.T, sizes []int) {
	rng := rand.New(rand.NewPCG(21, uint64(StedcLeaf)))
	var ws Workspace
	for _, n := range sizes {
		for ci, c := range tridiagCases(rng, n) {
			name := c.name
			l := layout((n + ci) % int(nLayouts))
			z := newMat[float64](n, n, l, func(i, j int) complex128 { return complex(rng.Float64(), 0) })
			w, e := slices.Clone(c.d), slices.Clone(c.e)
			if info := Stedc(&ws, nil, n, w, e, z.Mat); info != 0 {
				t.Fatalf("%s: info %d", name, info)
			}
			checkGuards(t, z)
			checkTridiagEig(t, name, c.d, c.e, w, toDense(z), tdEps)
		}
	}
}

func TestStedc(t *testing.T) {
	// Small leaves, so that test sizes run several levels of merges.
	for _, leaf := range []int{2, 5, 16} {
		withStedcLeaf(leaf, func() { testStedc(t, []int{1, 2, 3, 4, 7, 21, 42, 64, 101}) })
	}
	sizes := []int{150, 300}
	if testing.Short() {
		sizes = sizes[:1]
	}
	testStedc(t, sizes)
}

// TestStedcDeflation runs merges that deflate almost everything: many
// equal eigenvalues, and glued identical blocks.
func TestStedcDeflation(t *testing.T) {
	var ws Workspace
	rng := rand.New(rand.NewPCG(4, 4))
	for _, n := range []int{40, 97} {
		cases := []tridiagCase{}
		d, e := make([]float64, n), make([]float64, n-1)
		for i := range d {
			d[i] = 1
		}
		for i := range e {
			e[i] = 1e-17
		}
		cases = append(cases, tridiagCase{"equal", d, e})
		d2, e2 := make([]float64, n), make([]float64, n-1)
		for i := range d2 {
			d2[i] = float64(i % 4)
		}
		for i := range e2 {
			e2[i] = 1e-9 * rng.Float64()
			if i%4 != 3 {
				e2[i] = 0.3
			}
		}
		cases = append(cases, tridiagCase{"glued", d2, e2})
		for _, c := range cases {
			withStedcLeaf(4, func() {
				z := gemm.Mat[float64]{Data: make([]float64, n*n), RS: 1, CS: n}
				w, ec := slices.Clone(c.d), slices.Clone(c.e)
				if info := Stedc(&ws, nil, n, w, ec, z); info != 0 {
					t.Fatalf("%s: info %d", c.name, info)
				}
				zd := newDense(n, n)
				for i := range z.Data {
					zd.d[i] = complex(z.Data[i], 0)
				}
				checkTridiagEig(t, c.name, c.d, c.e, w, zd, tdEps)
			})
		}
	}
}

// TestStedcNonFinite checks that NaN and Inf return n at once.
func TestStedcNonFinite(t *testing.T) {
	var ws Workspace
	const n = 80
	for _, bad := range []float64{math.NaN(), math.Inf(1)} {
		d, e := make([]float64, n), make([]float64, n-1)
		for i := range d {
			d[i] = float64(i)
			if i < n-1 {
				e[i] = 1
			}
		}
		e[40] = bad
		z := gemm.Mat[float64]{Data: make([]float64, n*n), RS: 1, CS: n}
		start := time.Now()
		if info := Stedc(&ws, nil, n, d, e, z); info != n {
			t.Fatalf("%v: info %d, want %d", bad, info, n)
		}
		if time.Since(start) > time.Second {
			t.Fatalf("slow return")
		}
	}
}

// TestSecularRoot checks the roots of random secular equations: each in
// its interval, f(λ) small against its terms, and delta consistent.
func TestSecularRoot(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	for trial := 0; trial < 200; trial++ {
		k := 2 + rng.IntN(30)
		d, z := make([]float64, k), make([]float64, k)
		x := 0.0
		for j := range d {
			x += math.Pow(10, -8*rng.Float64())
			d[j] = x
			z[j] = (rng.Float64() + 1e-6) / math.Sqrt(float64(k))
		}
		rho := math.Pow(10, 4*rng.Float64()-2)
		delta := make([]float64, k)
		for i := 0; i < k; i++ {
			lam, ok := secularRoot(k, d, z, rho, i, delta)
			if !ok {
				t.Fatalf("trial %d root %d: no convergence", trial, i)
			}
			if !(lam > d[i]) || i+1 < k && !(lam < d[i+1]) {
				t.Fatalf("trial %d root %d: λ=%v outside (%v, %v)", trial, i, lam, d[i], d[min(i+1, k-1)])
			}
			f, mag := 1/rho, 1/rho
			for j := range d {
				f += z[j] * z[j] / delta[j]
				mag += math.Abs(z[j] * z[j] / delta[j])
				if math.Abs((d[j]-lam)-delta[j]) > 4*tdEps*max(math.Abs(d[j]), math.Abs(lam)) {
					t.Fatalf("trial %d root %d: delta[%d] inconsistent", trial, i, j)
				}
			}
			if math.Abs(f) > 1e3*tdEps*mag*float64(k) {
				t.Fatalf("trial %d root %d: f = %v (terms %v)", trial, i, f, mag)
			}
		}
	}
}

// TestStedcRootFailure checks that a secular root out of iterations makes
// Stedc return nonzero, and that Heev then falls back to Steqr with a
// correct result.
func TestStedcRootFailure(t *testing.T) {
	it0 := stedcMaxIter
	stedcMaxIter = 0
	defer func() { stedcMaxIter = it0 }()
	var ws Workspace
	rng := rand.New(rand.NewPCG(8, 8))
	const n = 80
	c := tridiagCases(rng, n)[0]
	z := gemm.Mat[float64]{Data: make([]float64, n*n), RS: 1, CS: n}
	if info := Stedc(&ws, nil, n, slices.Clone(c.d), slices.Clone(c.e), z); info == 0 {
		t.Fatalf("Stedc succeeded without iterations")
	}
	withStedcLeaf(8, func() {
		checkHeev[float64](t, &ws, "fallback float64", randHerm[float64](rng, n), Lower, dense)
		checkHeev[complex64](t, &ws, "fallback complex64", randHerm[complex64](rng, n), Upper, padded)
	})
}

// TestStedcSubnormal checks blocks scaled from subnormal entries.
func TestStedcSubnormal(t *testing.T) {
	var ws Workspace
	rng := rand.New(rand.NewPCG(8, 9))
	const n = 60
	d, e := make([]float64, n), make([]float64, n-1)
	for i := range d {
		d[i] = math.Ldexp(rng.Float64()*2-1, -1030)
		if i < n-1 {
			e[i] = math.Ldexp(rng.Float64()*2-1, -1030)
		}
	}
	z := gemm.Mat[float64]{Data: make([]float64, n*n), RS: 1, CS: n}
	withStedcLeaf(8, func() {
		if info := Stedc(&ws, nil, n, d, e, z); info != 0 {
			t.Fatalf("info %d", info)
		}
	})
	zd := newDense(n, n)
	for i := range z.Data {
		zd.d[i] = complex(z.Data[i], 0)
	}
	if res := orthErr(zd); !(res <= 1e-12) {
		t.Fatalf("‖ZᵀZ − I‖ = %v", res)
	}
	if !slices.IsSorted(d) {
		t.Fatalf("values not ascending")
	}
}
