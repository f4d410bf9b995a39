package lapack

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
	"gonum.org/v1/gonum/mat"
)

// jacobiSizes are the orders the Jacobi kernels are tested at: the
// degenerate ones, primes, and sizes around the crossovers.
var jacobiSizes = []int{0, 1, 2, 3, 4, 5, 7, 8, 13, 16, 17, 32}

// checkHeevj runs Heevj with and without vectors on ref and checks
// ‖AV − VΛ‖ ≤ c·n·ε·‖A‖, ‖VᴴV − I‖ ≤ c·n·ε, ascending values, the
// values-only run against the vector run, that a is untouched without
// vectors, and (float64) the values against gonum's EigenSym.
func checkHeevj[T Scalar](t *testing.T, ws *Workspace, name string, ref dense128, uplo Uplo, l layout) {
	t.Helper()
	n := ref.r
	tol := 10 * float64(max(n, 1)) * eps[T]()
	an := fnorm(ref)
	a := storeTri[T](ref, uplo, l)
	w := make([]float64, n+1)
	w[n] = guard
	if info := Heevj(ws, true, uplo, n, a.Mat, w[:n]); info != 0 {
		t.Fatalf("%s: info %d", name, info)
	}
	checkGuards(t, a)
	if w[n] != guard {
		t.Fatalf("%s: w[n] overwritten", name)
	}
	w = w[:n]
	if !slices.IsSorted(w) {
		t.Fatalf("%s: values not ascending: %v", name, w)
	}
	v := toDense(a)
	vl := newDense(n, n)
	for j := 0; j < n; j++ {
		for i := 0; i < n; i++ {
			vl.set(i, j, v.at(i, j)*complex(w[j], 0))
		}
	}
	if res := fnorm(sub(mul(ref, v), vl)); !(res <= tol*an) {
		t.Fatalf("%s: ‖AV − VΛ‖/‖A‖ = %.3g > %.3g", name, res/an, tol)
	}
	if res := orthErr(v); !(res <= tol) {
		t.Fatalf("%s: ‖VᴴV − I‖ = %.3g > %.3g", name, res, tol)
	}
	b := storeTri[T](ref, uplo, l)
	b0 := slices.Clone(b.Data)
	w2 := make([]float64, n)
	if info := Heevj(ws, false, uplo, n, b.Mat, w2); info != 0 {
		t.Fatalf("%s: values-only info %d", name, info)
	}
	if !slices.Equal(b0, b.Data) {
		t.Fatalf("%s: values-only run wrote a", name)
	}
	for i := range w {
		if !(math.Abs(w[i]-w2[i]) <= tol*an) {
			t.Fatalf("%s: values-only w[%d] = %v, with vectors %v", name, i, w2[i], w[i])
		}
	}
	if _, ok := any(a.Data).([]float64); ok && n > 0 {
		ex := 0
		if m := denseMaxAbs(ref); m > 0 {
			_, ex = math.Frexp(m)
		}
		sym := make([]float64, n*n)
		for j := 0; j < n; j++ {
			for i := 0; i < n; i++ {
				sym[i*n+j] = math.Ldexp(real(ref.at(i, j)), -ex)
			}
		}
		var es mat.EigenSym
		if !es.Factorize(mat.NewSymDense(n, sym), false) {
			t.Fatalf("%s: gonum EigenSym failed", name)
		}
		for i, g := range es.Values(nil) {
			if g = math.Ldexp(g, ex); !(math.Abs(w[i]-g) <= tol*an) {
				t.Fatalf("%s: w[%d] = %v, gonum %v", name, i, w[i], g)
			}
		}
	}
}

func testHeevj[T Scalar](t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 5))
	var ws Workspace
	// Heevj is meant for small orders: at n = 32 the rounding of the
	// roughly 8·n rotations each column of V takes part in reaches
	// ‖VᴴV − I‖ ≈ 12·n·ε on clustered spectra.
	for _, n := range jacobiSizes[:len(jacobiSizes)-1] {
		for ci, c := range heevCases[T](rng, n) {
			for _, uplo := range []Uplo{Lower, Upper} {
				l := layout((n + ci + int(uplo)) % int(nLayouts))
				checkHeevj[T](t, &ws, fmt.Sprintf("%s %s n=%d uplo=%d %v", typeName[T](), c.name, n, uplo, l), c.a, uplo, l)
			}
		}
	}
}

func TestHeevj(t *testing.T) {
	t.Run("float64", testHeevj[float64])
	t.Run("complex128", testHeevj[complex128])
	t.Run("float32", testHeevj[float32])
	t.Run("complex64", testHeevj[complex64])
}

// testGesvj checks Gesvj on every shape and kind: descending non-negative
// values, equal with and without vectors and (float64) to gonum's,
// ‖A − U·S·Vᴴ‖ ≤ c·max(m,n)·ε·‖A‖, orthonormal U and V, a untouched,
// guards intact.
func testGesvj[T Scalar](t *testing.T, shapes [][2]int, kinds []svdKind) {
	rng := rand.New(rand.NewPCG(29, uint64(len(shapes))))
	var ws Workspace
	ep := eps[T]()
	for _, sh := range shapes {
		m, n := sh[0], sh[1]
		k := min(m, n)
		for _, kind := range kinds {
			ref := svdInput[T](rng, kind, m, n)
			anorm := ref.norm()
			l := layout((m + 2*n + int(kind)) % int(nLayouts))
			name := fmt.Sprintf("%s m=%d n=%d %v %v", typeName[T](), m, n, kind, l)
			tol := 16 * float64(max(m, n, 1)) * ep
			a := store[T](ref, l)
			a0 := slices.Clone(a.Data)
			sv := make([]float64, k+1)
			sv[k] = guard
			if info := Gesvj(&ws, false, m, n, a.Mat, sv[:k], gemm.Mat[T]{}, gemm.Mat[T]{}); info != 0 {
				t.Fatalf("%s: values-only info %d", name, info)
			}
			garbage := func(int, int) complex128 { return complex(math.NaN(), 0) }
			u := newMat[T](m, k, (l+1)%nLayouts, garbage)
			vt := newMat[T](k, n, (l+2)%nLayouts, garbage)
			s := make([]float64, k+1)
			s[k] = guard
			if info := Gesvj(&ws, true, m, n, a.Mat, s[:k], u.Mat, vt.Mat); info != 0 {
				t.Fatalf("%s: info %d", name, info)
			}
			checkGuards(t, u)
			checkGuards(t, vt)
			if !slices.Equal(a0, a.Data) {
				t.Fatalf("%s: a written", name)
			}
			if s[k] != guard || sv[k] != guard {
				t.Fatalf("%s: s[k] overwritten", name)
			}
			for i := 0; i < k; i++ {
				if !(s[i] >= 0) || i > 0 && s[i] > s[i-1] {
					t.Fatalf("%s: values not descending and non-negative: %v", name, s[:k])
				}
				if d := math.Abs(s[i] - sv[i]); !(d <= tol*s[0]) {
					t.Fatalf("%s: σ%d = %g, values-only %g", name, i, s[i], sv[i])
				}
			}
			if isReal64[T]() && k > 0 {
				gv := gonumValues(t, ref)
				for i := 0; i < k; i++ {
					if d := math.Abs(s[i] - gv[i]); d > tol*max(gv[0], math.SmallestNonzeroFloat64) {
						t.Fatalf("%s: σ%d = %.17g, gonum %.17g", name, i, s[i], gv[i])
					}
				}
			}
			if k == 0 {
				continue
			}
			ud, vd := toDense(u), toDense(vt)
			us := newDense(m, k)
			for j := 0; j < k; j++ {
				for i := 0; i < m; i++ {
					us.set(i, j, ud.at(i, j)*complex(s[j], 0))
				}
			}
			if res := scaledNorm(sub(ref, mul(us, vd)), anorm); !(res <= tol) {
				t.Fatalf("%s: ‖A − USVᴴ‖/‖A‖ = %.3g > %.3g", name, res, tol)
			}
			if res := orthErr(ud); !(res <= tol) {
				t.Fatalf("%s: ‖UᴴU − I‖ = %.3g > %.3g", name, res, tol)
			}
			if res := orthErr(vd.op(ConjTrans)); !(res <= tol) {
				t.Fatalf("%s: ‖VᴴV − I‖ = %.3g > %.3g", name, res, tol)
			}
		}
	}
}

var gesvjShapes = [][2]int{
	{0, 0}, {0, 3}, {3, 0}, {1, 1}, {1, 5}, {5, 1}, {2, 2}, {3, 2}, {2, 3},
	{4, 4}, {7, 5}, {5, 7}, {8, 8}, {13, 13}, {16, 16}, {17, 9}, {9, 17}, {31, 31},
}

func TestGesvj(t *testing.T) {
	testGesvj[float64](t, gesvjShapes, allSVDKinds)
	testGesvj[complex128](t, gesvjShapes, allSVDKinds)
	testGesvj[float32](t, gesvjShapes, allSVDKinds)
	testGesvj[complex64](t, gesvjShapes, allSVDKinds)
}

// TestJacobiNonFinite checks that NaN and Inf input end within the sweep
// bound.
func TestJacobiNonFinite(t *testing.T) {
	var ws Workspace
	for _, bad := range []float64{math.NaN(), math.Inf(1)} {
		for _, n := range []int{1, 3, 8} {
			a := gemm.Mat[complex128]{Data: make([]complex128, n*n), RS: 1, CS: n}
			for i := range a.Data {
				a.Data[i] = complex(float64(i%5), 1)
			}
			a.Data[len(a.Data)/2] = complex(bad, 0)
			u := gemm.Mat[complex128]{Data: make([]complex128, n*n), RS: 1, CS: n}
			vt := gemm.Mat[complex128]{Data: make([]complex128, n*n), RS: 1, CS: n}
			s := make([]float64, n)
			Gesvj(&ws, true, n, n, a, s, u, vt)
			Heevj(&ws, true, Lower, n, a, s)
		}
	}
}

// TestOrg2r checks the unblocked Q against the blocked Orgqr on the
// factors of Geqr2, thin and full, in every layout.
func TestOrg2r(t *testing.T) {
	testOrg2r[float64](t)
	testOrg2r[complex128](t)
	testOrg2r[float32](t)
	testOrg2r[complex64](t)
}

func testOrg2r[T Scalar](t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 1))
	var ws Workspace
	for _, sh := range [][2]int{{1, 1}, {2, 2}, {3, 1}, {5, 3}, {8, 8}, {13, 7}, {16, 16}, {17, 17}, {32, 32}, {33, 20}} {
		m, n := sh[0], sh[1]
		k := min(m, n)
		for l := range nLayouts {
			name := fmt.Sprintf("%s m=%d n=%d %v", typeName[T](), m, n, l)
			ref := randDense[T](rng, m, n)
			a := store[T](ref, l)
			tau := make([]T, k)
			Geqr2(m, n, a.Mat, tau)
			rr := upperR(a, k)
			tol := 8 * float64(max(m, n)) * eps[T]()
			for _, nq := range []int{k, m} {
				q := reflCols(rng, a, m, nq, k, (l+1)%nLayouts)
				Org2r(m, nq, k, q.Mat, tau)
				checkGuards(t, q)
				qd := toDense(q)
				if res := orthErr(qd); !(res <= tol) {
					t.Fatalf("%s nq=%d: ‖QᴴQ − I‖ = %.3g > %.3g", name, nq, res, tol)
				}
				qk := newDense(m, k)
				copy(qk.d, qd.d[:m*k])
				if res := sub(ref, mul(qk, rr)).norm(); !(res <= tol*ref.norm()) {
					t.Fatalf("%s nq=%d: ‖A − QR‖/‖A‖ = %.3g > %.3g", name, nq, res/ref.norm(), tol)
				}
				qb := reflCols(rng, a, m, nq, k, l)
				Orgqr(&ws, nil, m, nq, k, qb.Mat, tau)
				if res := sub(qd, toDense(qb)).norm(); !(res <= tol) {
					t.Fatalf("%s nq=%d: Org2r differs from Orgqr by %.3g", name, nq, res)
				}
			}
		}
	}
}

// TestJacobiWarmAllocs checks that warm Jacobi calls allocate nothing.
func TestJacobiWarmAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts differ under the race detector")
	}
	var ws Workspace
	n := 8
	a := gemm.Mat[complex128]{Data: make([]complex128, n*n), RS: 1, CS: n}
	h := gemm.Mat[complex128]{Data: make([]complex128, n*n), RS: 1, CS: n}
	u := gemm.Mat[complex128]{Data: make([]complex128, n*n), RS: 1, CS: n}
	vt := gemm.Mat[complex128]{Data: make([]complex128, n*n), RS: 1, CS: n}
	s := make([]float64, n)
	fill := func() {
		for i := range a.Data {
			a.Data[i] = complex(float64(i%7)-3, float64(i%3))
			h.Data[i] = a.Data[i]
		}
	}
	fill()
	Gesvj(&ws, true, n, n, a, s, u, vt)
	Heevj(&ws, true, Lower, n, h, s)
	if got := testing.AllocsPerRun(5, func() {
		fill()
		Gesvj(&ws, true, n, n, a, s, u, vt)
		Heevj(&ws, true, Lower, n, h, s)
	}); got != 0 {
		t.Errorf("%v allocations per warm call, want 0", got)
	}
}

func testJacobiConverges[T Scalar](t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	var ws Workspace
	bad1, bad2 := 0, 0
	for trial := 0; trial < 6000; trial++ {
		n := 2 + trial%7
		ref := randDense[T](rng, n, n)
		if trial%3 == 0 {
			ref = mul(randDense[T](rng, n, 1), randDense[T](rng, 1, n))
		}
		a := store[T](ref, dense)
		u := store[T](ref, dense)
		vt := store[T](ref, dense)
		s := make([]float64, n)
		if Gesvj(&ws, true, n, n, a.Mat, s, u.Mat, vt.Mat) != 0 {
			bad1++
		}
		h := store[T](randHerm[T](rng, n), dense)
		if Heevj(&ws, true, Lower, n, h.Mat, s) != 0 {
			bad2++
		}
	}
	if bad1+bad2 > 0 {
		t.Errorf("%s: %d Gesvj and %d Heevj runs did not converge", typeName[T](), bad1, bad2)
	}
}

// TestJacobiConverges runs the Jacobi kernels on thousands of random
// small matrices (general, rank one, Hermitian): every run must converge
// within the sweep bound (a tolerance below the accuracy of the computed
// inner products makes some rotate forever).
func TestJacobiConverges(t *testing.T) {
	testJacobiConverges[float64](t)
	testJacobiConverges[complex128](t)
	testJacobiConverges[float32](t)
	testJacobiConverges[complex64](t)
}
