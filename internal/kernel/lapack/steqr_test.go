package lapack

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
	gl "gonum.org/v1/gonum/lapack/gonum"
)

// tridiagCase is a symmetric tridiagonal test problem.
type tridiagCase struct {
	name string
	d, e []float64
}

// tridiagCases returns the tridiagonal test problems of order n: random,
// graded (1e-10…1), clustered, exactly repeated eigenvalues (identical
// decoupled blocks), zero, constant (Toeplitz), glued Wilkinson matrices,
// and random scaled to 1e±300.
func tridiagCases(rng *rand.Rand, n int) []tridiagCase {
	mk := func(name string, fd func(i int) float64, fe func(i int) float64) tridiagCase {
		c := tridiagCase{name: fmt.Sprintf("%s n=%d", name, n), d: make([]float64, n), e: make([]float64, max(n-1, 0))}
		for i := range c.d {
			c.d[i] = fd(i)
		}
		for i := range c.e {
			c.e[i] = fe(i)
		}
		return c
	}
	u := func(int) float64 { return rng.Float64()*2 - 1 }
	grade := func(i int) float64 { return math.Pow(10, -10*float64(i)/float64(max(n-1, 1))) }
	zero := func(int) float64 { return 0 }
	cs := []tridiagCase{
		mk("random", u, u),
		mk("graded", func(i int) float64 { return grade(i) * (1 + rng.Float64()) }, func(i int) float64 { return grade(i) * u(i) }),
		mk("gradedrev", func(i int) float64 { return grade(n - 1 - i) }, func(i int) float64 { return grade(n-1-i) * u(i) }),
		mk("clustered", func(int) float64 { return 1 + 1e-12*u(0) }, func(int) float64 { return 1e-10 * u(0) }),
		mk("repeated", func(i int) float64 { return float64(i%3) - 1 }, func(i int) float64 {
			if i%3 == 2 {
				return 0
			}
			return 0.5
		}),
		mk("zero", zero, zero),
		mk("toeplitz", func(int) float64 { return 2 }, func(int) float64 { return -1 }),
		mk("wilkinson", func(i int) float64 { return math.Abs(float64(i%21) - 10) }, func(i int) float64 {
			if i%21 == 20 {
				return 1e-8
			}
			return 1
		}),
		mk("huge", func(i int) float64 { return 1e300 * u(i) }, func(i int) float64 { return 1e300 * u(i) }),
		mk("tiny", func(i int) float64 { return 1e-300 * u(i) }, func(i int) float64 { return 1e-300 * u(i) }),
	}
	return cs
}

// checkTridiagEig checks eigenvalues w (ascending) and eigenvectors z (when
// non-nil) of the tridiagonal (d, e): ‖T·Z − Z·Λ‖ ≤ c·n·ε·‖T‖,
// ‖ZᵀZ − I‖ ≤ c·n·ε, and w against gonum's Dsterf.
func checkTridiagEig(t *testing.T, name string, d, e, w []float64, z dense128, ep float64) {
	t.Helper()
	n := len(d)
	if !slices.IsSorted(w) {
		t.Fatalf("%s: values not ascending: %v", name, w)
	}
	tm := tridiag(d, e)
	tn := fnorm(tm)
	tol := 10 * float64(max(n, 1)) * ep
	if z.d != nil {
		zl := newDense(n, n)
		for j := 0; j < n; j++ {
			for i := 0; i < n; i++ {
				zl.set(i, j, z.at(i, j)*complex(w[j], 0))
			}
		}
		if res := fnorm(sub(mul(tm, z), zl)); !(res <= tol*tn) {
			t.Fatalf("%s: ‖TZ − ZΛ‖/‖T‖ = %.3g > %.3g", name, res/tn, tol)
		}
		if res := orthErr(z); !(res <= tol) {
			t.Fatalf("%s: ‖ZᵀZ − I‖ = %.3g > %.3g", name, res, tol)
		}
	}
	gd := gonumTridiagValues(d, e)
	for i := range w {
		if math.Abs(w[i]-gd[i]) > tol*tn {
			t.Fatalf("%s: w[%d] = %v, gonum %v", name, i, w[i], gd[i])
		}
	}
}

func testSteqr[T Scalar](t *testing.T, sizes []int) {
	rng := rand.New(rand.NewPCG(5, 8))
	for _, n := range sizes {
		for ci, c := range tridiagCases(rng, n) {
			name := typeName[T]() + " " + c.name
			// Vectors of T itself: z = I in a rotating layout.
			l := layout((n + ci) % int(nLayouts))
			z := newMat[T](n, n, l, func(i, j int) complex128 {
				if i == j {
					return 1
				}
				return 0
			})
			w, e := slices.Clone(c.d), slices.Clone(c.e)
			work := make([]float64, 2*n)
			if info := Steqr(n, w, e, z.Mat, work); info != 0 {
				t.Fatalf("%s: info %d", name, info)
			}
			checkGuards(t, z)
			checkTridiagEig(t, name, c.d, c.e, w, toDense(z), eps[T]())
			// Values only agree with the vector path's.
			v, e2 := slices.Clone(c.d), slices.Clone(c.e)
			if info := Steqr(n, v, e2, gemm.Mat[T]{}, nil); info != 0 {
				t.Fatalf("%s: values-only info %d", name, info)
			}
			tn := fnorm(tridiag(c.d, c.e))
			for i := range v {
				if math.Abs(v[i]-w[i]) > 10*float64(n)*tdEps*tn {
					t.Fatalf("%s: values-only w[%d] = %v, with vectors %v", name, i, v[i], w[i])
				}
			}
		}
	}
}

func TestSteqr(t *testing.T) {
	sizes := []int{1, 2, 3, 4, 7, 21, 42, 64}
	t.Run("float64", func(t *testing.T) { testSteqr[float64](t, sizes) })
	t.Run("complex128", func(t *testing.T) { testSteqr[complex128](t, sizes[:6]) })
	t.Run("float32", func(t *testing.T) { testSteqr[float32](t, sizes[:6]) })
	t.Run("complex64", func(t *testing.T) { testSteqr[complex64](t, sizes[:5]) })
}

// TestSteqrWilkinson checks W21+ alone: its largest pair of eigenvalues
// agrees to about 1e-14, which the iteration must separate.
func TestSteqrWilkinson(t *testing.T) {
	const n = 21
	d, e := make([]float64, n), make([]float64, n-1)
	for i := range d {
		d[i] = math.Abs(float64(i) - 10)
	}
	for i := range e {
		e[i] = 1
	}
	z := newMat[float64](n, n, dense, func(i, j int) complex128 {
		if i == j {
			return 1
		}
		return 0
	})
	w, ec := slices.Clone(d), slices.Clone(e)
	if info := Steqr(n, w, ec, z.Mat, make([]float64, 2*n)); info != 0 {
		t.Fatalf("info %d", info)
	}
	checkTridiagEig(t, "W21+", d, e, w, toDense(z), tdEps)
	if g := w[n-1] - w[n-2]; !(g > 0 && g < 1e-12) {
		t.Fatalf("top pair gap %v", g)
	}
}

// TestSteqrNonFinite checks that NaN and Inf return n at once.
func TestSteqrNonFinite(t *testing.T) {
	for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		for _, where := range []string{"d", "e"} {
			const n = 50
			d, e := make([]float64, n), make([]float64, n-1)
			for i := range d {
				d[i] = float64(i)
			}
			for i := range e {
				e[i] = 1
			}
			if where == "d" {
				d[17] = bad
			} else {
				e[30] = bad
			}
			z := gemm.Mat[float64]{Data: make([]float64, n*n), RS: 1, CS: n}
			start := time.Now()
			if info := Steqr(n, d, e, z, make([]float64, 2*n)); info != n {
				t.Fatalf("%v in %s: info %d, want %d", bad, where, info, n)
			}
			if info := Steqr(n, d, e, gemm.Mat[float64]{}, nil); info != n {
				t.Fatalf("%v in %s: values-only info %d, want %d", bad, where, info, n)
			}
			if time.Since(start) > time.Second {
				t.Fatalf("slow return")
			}
		}
	}
}

// TestSteqrIterationBound checks that an exhausted sweep budget returns
// the count of unconverged off-diagonal elements.
func TestSteqrIterationBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	const n = 40
	d, e := make([]float64, n), make([]float64, n-1)
	for i := range d {
		d[i] = rng.Float64()
	}
	for i := range e {
		e[i] = 0.5 + rng.Float64()
	}
	for _, maxit := range []int{0, 3} {
		for _, vec := range []bool{false, true} {
			dd, ee := slices.Clone(d), slices.Clone(e)
			st := steqrState[float64]{n: n, d: dd, e: ee, vec: vec, maxit: maxit}
			if vec {
				st.z = gemm.Mat[float64]{Data: make([]float64, n*n), RS: 1, CS: n}
				st.c, st.s = make([]float64, n), make([]float64, n)
			}
			info := st.run()
			nz := 0
			for _, x := range ee {
				if x != 0 {
					nz++
				}
			}
			if info <= 0 || info != nz {
				t.Fatalf("maxit=%d vec=%v: info %d, %d nonzero off-diagonals", maxit, vec, info, nz)
			}
		}
	}
}

func TestLaev2(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	cases := [][3]float64{{1, 0, 1}, {0, 0, 0}, {1, 1, 1}, {-1, 2, 3}, {1e-300, 1, 1e300}, {0, 1, 0}, {2, 1e-20, 2}}
	for range 200 {
		cases = append(cases, [3]float64{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()})
	}
	for _, c := range cases {
		a, b, cc := c[0], c[1], c[2]
		rt1, rt2, cs, sn := laev2(a, b, cc)
		nrm := math.Abs(a) + 2*math.Abs(b) + math.Abs(cc)
		tol := 8 * tdEps * nrm
		if math.Abs(rt1) < math.Abs(rt2) {
			t.Fatalf("%v: |rt1| < |rt2|", c)
		}
		if math.Abs(cs*cs+sn*sn-1) > 4*tdEps {
			t.Fatalf("%v: not a rotation", c)
		}
		// A·(cs, sn) = rt1·(cs, sn) and A·(−sn, cs) = rt2·(−sn, cs).
		if r := math.Hypot(a*cs+b*sn-rt1*cs, b*cs+cc*sn-rt1*sn); r > tol {
			t.Fatalf("%v: residual 1 %v", c, r)
		}
		if r := math.Hypot(-a*sn+b*cs+rt2*sn, -b*sn+cc*cs-rt2*cs); r > tol {
			t.Fatalf("%v: residual 2 %v", c, r)
		}
	}
}

// gonumTridiagValues returns the eigenvalues of (d, e) by gonum's Dsterf,
// on a copy scaled by a power of two to unit size (gonum's Dsterf panics
// when it scales a block itself).
func gonumTridiagValues(d, e []float64) []float64 {
	n := len(d)
	gd, ge := slices.Clone(d), slices.Clone(e)
	m := 0.0
	for _, x := range gd {
		m = max(m, math.Abs(x))
	}
	for _, x := range ge {
		m = max(m, math.Abs(x))
	}
	if n == 0 || m == 0 {
		return gd
	}
	_, ex := math.Frexp(m)
	for i := range gd {
		gd[i] = math.Ldexp(gd[i], -ex)
	}
	for i := range ge {
		ge[i] = math.Ldexp(ge[i], -ex)
	}
	var impl gl.Implementation
	if !impl.Dsterf(n, gd, ge) {
		panic("gonum Dsterf failed")
	}
	for i := range gd {
		gd[i] = math.Ldexp(gd[i], ex)
	}
	return gd
}

// fnorm returns the Frobenius norm of a, scaled so that it neither
// overflows nor underflows.
func fnorm(a dense128) float64 {
	m := 0.0
	for _, v := range a.d {
		m = max(m, math.Abs(real(v)), math.Abs(imag(v)))
	}
	if m == 0 || math.IsInf(m, 0) || m != m {
		return m
	}
	_, ex := math.Frexp(m)
	s := 0.0
	for _, v := range a.d {
		x, y := math.Ldexp(real(v), -ex), math.Ldexp(imag(v), -ex)
		s += x*x + y*y
	}
	return math.Ldexp(math.Sqrt(s), ex)
}
