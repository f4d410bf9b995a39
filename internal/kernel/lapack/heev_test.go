package lapack

import (
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
	"gonum.org/v1/gonum/mat"
)

// randUnitary returns a random n×n unitary (orthogonal for real kinds)
// reference matrix: the Q of a random matrix's QR factorization.
func randUnitary[T Scalar](rng *rand.Rand, n int) dense128 {
	if n == 0 {
		return newDense(0, 0)
	}
	a := store[complex128](randDense[T](rng, n, n), dense)
	tau := make([]complex128, n)
	var ws Workspace
	Geqrf(&ws, nil, n, n, a.Mat, tau)
	Orgqr(&ws, nil, n, n, n, a.Mat, tau)
	return toDense(a)
}

// withSpectrum returns U·diag(w)·Uᴴ for a random unitary U, exactly
// Hermitian.
func withSpectrum[T Scalar](rng *rand.Rand, w []float64) dense128 {
	n := len(w)
	u := randUnitary[T](rng, n)
	uw := newDense(n, n)
	for j := 0; j < n; j++ {
		for i := 0; i < n; i++ {
			uw.set(i, j, u.at(i, j)*complex(w[j], 0))
		}
	}
	a := mul(uw, u.op(ConjTrans))
	for j := 0; j < n; j++ {
		a.set(j, j, complex(real(a.at(j, j)), 0))
		for i := j + 1; i < n; i++ {
			a.set(j, i, cmplx.Conj(a.at(i, j)))
		}
	}
	return a
}

// heevCase is a Hermitian test matrix.
type heevCase struct {
	name string
	a    dense128
}

func heevCases[T Scalar](rng *rand.Rand, n int) []heevCase {
	scaled := func(a dense128, s float64) dense128 {
		b := newDense(n, n)
		for k, v := range a.d {
			b.d[k] = v * complex(s, 0)
		}
		return b
	}
	rnd := randHerm[T](rng, n)
	graded := make([]float64, n)
	rank := make([]float64, n)
	for i := range graded {
		graded[i] = math.Pow(10, -12*float64(i)/float64(max(n-1, 1)))
		if i%2 == 1 {
			graded[i] = -graded[i]
		}
		if i < n/2 {
			rank[i] = rng.Float64()*2 - 1
		}
	}
	eye, zero, diag := newDense(n, n), newDense(n, n), newDense(n, n)
	for i := 0; i < n; i++ {
		eye.set(i, i, 1)
		diag.set(i, i, complex(float64((i*7)%5)-2.5, 0))
	}
	big, small, huge, tiny := 1e150, 1e-150, 1e300, 1e-300
	if eps[T]() > 1e-10 {
		big, small, huge, tiny = 1e20, 1e-20, 1e36, 1e-36
	}
	clustered := make([]float64, n)
	for i := range clustered {
		clustered[i] = 1 + 1e-10*float64(i%3)
		if i%5 == 0 {
			clustered[i] = -1
		}
	}
	return []heevCase{
		{"random", rnd},
		{"clustered", withSpectrum[T](rng, clustered)},
		{"illcond", withSpectrum[T](rng, graded)},
		{"rankdef", withSpectrum[T](rng, rank)},
		{"identity", eye},
		{"zero", zero},
		{"diagonal", diag},
		{"big", scaled(rnd, big)},
		{"small", scaled(rnd, small)},
		{"huge", scaled(rnd, huge)},
		{"tiny", scaled(rnd, tiny)},
	}
}

// checkHeev runs Heev with and without vectors on ref (uplo triangle,
// layout l) and checks ‖AV − VΛ‖ ≤ c·n·ε·‖A‖, ‖VᴴV − I‖ ≤ c·n·ε, ascending
// values, the values-only path against the vector path, and (float64)
// the values against gonum's EigenSym.
func checkHeev[T Scalar](t *testing.T, ws *Workspace, name string, ref dense128, uplo Uplo, l layout) {
	t.Helper()
	n := ref.r
	ep := eps[T]()
	tol := 10 * float64(max(n, 1)) * ep
	an := fnorm(ref)
	a := storeTri[T](ref, uplo, l)
	w := make([]float64, n)
	if info := Heev(ws, nil, true, uplo, n, a.Mat, w); info != 0 {
		t.Fatalf("%s: info %d", name, info)
	}
	checkGuards(t, a)
	if !slices.IsSorted(w) {
		t.Fatalf("%s: values not ascending", name)
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
	w2 := make([]float64, n)
	if info := Heev(ws, nil, false, uplo, n, b.Mat, w2); info != 0 {
		t.Fatalf("%s: values-only info %d", name, info)
	}
	checkOtherTri(t, b, uplo)
	for i := range w {
		if !(math.Abs(w[i]-w2[i]) <= tol*an) {
			t.Fatalf("%s: values-only w[%d] = %v, with vectors %v", name, i, w2[i], w[i])
		}
	}
	if _, ok := any(a.Data).([]float64); ok && n > 0 {
		// gonum's Dsterf panics when it scales a block itself: give it A
		// scaled by a power of two to unit size, and scale back.
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
		gw := es.Values(nil)
		for i := range gw {
			gw[i] = math.Ldexp(gw[i], ex)
		}
		for i := range w {
			if !(math.Abs(w[i]-gw[i]) <= tol*an) {
				t.Fatalf("%s: w[%d] = %v, gonum %v", name, i, w[i], gw[i])
			}
		}
	}
}

func testHeev[T Scalar](t *testing.T, sizes []int) {
	rng := rand.New(rand.NewPCG(13, uint64(len(sizes))))
	var ws Workspace
	for _, n := range sizes {
		for ci, c := range heevCases[T](rng, n) {
			for _, uplo := range []Uplo{Lower, Upper} {
				l := layout((n + ci + int(uplo)) % int(nLayouts))
				name := fmt.Sprintf("%s %s n=%d uplo=%d %v", typeName[T](), c.name, n, uplo, l)
				checkHeev[T](t, &ws, name, c.a, uplo, l)
			}
		}
	}
}

// withHeevDC runs f with HeevDCMin set, then restores it.
func withHeevDC(n int, f func()) {
	n0 := HeevDCMin
	HeevDCMin = n
	defer func() { HeevDCMin = n0 }()
	f()
}

func TestHeev(t *testing.T) {
	sizes := []int{0, 1, 2, 3, 5, 16, 17, 33, 40}
	run := func(t *testing.T) {
		withHetrdBlock(8, 16, func() {
			t.Run("float64", func(t *testing.T) { testHeev[float64](t, sizes) })
			t.Run("complex128", func(t *testing.T) { testHeev[complex128](t, sizes) })
			t.Run("float32", func(t *testing.T) { testHeev[float32](t, sizes) })
			t.Run("complex64", func(t *testing.T) { testHeev[complex64](t, sizes) })
		})
	}
	t.Run("steqr", func(t *testing.T) { withHeevDC(1<<30, func() { run(t) }) })
	// Divide and conquer from n = 2, with leaves small enough to merge.
	t.Run("stedc", func(t *testing.T) { withHeevDC(2, func() { withStedcLeaf(4, func() { run(t) }) }) })
}

// TestUnmtr compares op(Q)·C from the reflectors with the explicit Q of
// Ungtr.
func TestUnmtr(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 1))
	var ws Workspace
	withHetrdBlock(4, 8, func() {
		for _, n := range []int{1, 2, 5, 20} {
			for _, uplo := range []Uplo{Lower, Upper} {
				for l := range nLayouts {
					ref := randHerm[complex128](rng, n)
					a := storeTri[complex128](ref, uplo, l)
					d, e := make([]float64, n), make([]float64, n)
					tau := make([]complex128, n)
					Hetrd(&ws, nil, uplo, n, a.Mat, d, e, tau)
					q := newMat[complex128](n, n, dense, func(i, j int) complex128 { return a.c128(i, j) })
					Ungtr(&ws, nil, uplo, n, q.Mat, tau)
					qd := toDense(q)
					for _, op := range []Op{NoTrans, ConjTrans} {
						c := newMat[complex128](n, 3, layout((n+int(op))%int(nLayouts)), func(i, j int) complex128 { return rnd[complex128](rng) })
						want := mul(qd.op(op), toDense(c))
						Unmtr(&ws, nil, uplo, op, n, 3, a.Mat, tau, c.Mat)
						checkGuards(t, c)
						if res := sub(toDense(c), want).norm(); !(res <= 1e-13*float64(n)) {
							t.Fatalf("n=%d uplo=%d %v op=%d: ‖Unmtr − Q·C‖ = %.3g", n, uplo, l, op, res)
						}
					}
				}
			}
		}
	})
}

// TestHeevLarge runs the default blocking at sizes past its crossover.
func TestHeevLarge(t *testing.T) {
	sizes := []int{70, 129, 257}
	if testing.Short() {
		sizes = sizes[:1]
	}
	t.Run("float64", func(t *testing.T) { testHeev[float64](t, sizes) })
	t.Run("complex128", func(t *testing.T) { testHeev[complex128](t, sizes) })
}

// TestHeevNonFinite checks that NaN or Inf in the referenced triangle
// returns n at once with NaN values, and that NaN in the other triangle is
// ignored.
func TestHeevNonFinite(t *testing.T) {
	const n = 30
	var ws Workspace
	for _, bad := range []complex128{complex(math.NaN(), 0), complex(0, math.Inf(1)), complex(math.Inf(-1), 0)} {
		for _, uplo := range []Uplo{Lower, Upper} {
			for _, vec := range []bool{false, true} {
				ref := randHerm[complex128](rand.New(rand.NewPCG(1, 1)), n)
				i, j := 20, 3
				if uplo == Upper {
					i, j = j, i
				}
				ref.set(i, j, bad)
				a := storeTri[complex128](ref, uplo, dense)
				w := make([]float64, n)
				start := time.Now()
				if info := Heev(&ws, nil, vec, uplo, n, a.Mat, w); info != n {
					t.Fatalf("%v uplo=%d vec=%v: info %d, want %d", bad, uplo, vec, info, n)
				}
				if time.Since(start) > time.Second {
					t.Fatalf("slow return")
				}
				for _, x := range w {
					if !math.IsNaN(x) {
						t.Fatalf("w = %v, want NaN", w)
					}
				}
			}
		}
	}
	ref := randHerm[float64](rand.New(rand.NewPCG(2, 1)), n)
	a := storeTri[float64](ref, Lower, dense)
	a.set(3, 20, math.NaN()) // upper triangle, not referenced
	if info := Heev(&ws, nil, true, Lower, n, a.Mat, make([]float64, n)); info != 0 {
		t.Fatalf("NaN in the unreferenced triangle: info %d", info)
	}
}

// TestHeevWarmAllocs checks that warm Heev calls allocate nothing.
func TestHeevWarmAllocs(t *testing.T) {
	t.Run("float64", testHeevWarmAllocs[float64])
	t.Run("complex128", testHeevWarmAllocs[complex128])
	t.Run("float32", testHeevWarmAllocs[float32])
	t.Run("complex64", testHeevWarmAllocs[complex64])
}

func testHeevWarmAllocs[T Scalar](t *testing.T) {
	const n = 150
	src := benchInput[T](n, true)
	a := gemm.Mat[T]{Data: make([]T, n*n), RS: 1, CS: n}
	w := make([]float64, n)
	var ws Workspace
	calls := map[string]func(){
		"vectors": func() {
			copy(a.Data, src)
			Heev(&ws, nil, true, Lower, n, a, w)
			copy(a.Data, src)
			Heev(&ws, nil, true, Upper, n, a, w)
		},
		"steqr": func() {
			withHeevDC(1<<30, func() {
				copy(a.Data, src)
				Heev(&ws, nil, true, Lower, n, a, w)
			})
		},
		"values": func() {
			copy(a.Data, src)
			Heev(&ws, nil, false, Lower, n, a, w)
		},
	}
	for name, f := range calls {
		f()
		if got := testing.AllocsPerRun(3, f); got != 0 {
			t.Errorf("%s: %v allocations per warm call", name, got)
		}
	}
}

// denseMaxAbs returns the largest |Re| or |Im| of a's elements.
func denseMaxAbs(a dense128) float64 {
	m := 0.0
	for _, v := range a.d {
		m = max(m, math.Abs(real(v)), math.Abs(imag(v)))
	}
	return m
}

// TestHeevRunner runs Heev with a two-worker runner and gemm's parallel
// threshold lowered, and checks the values against a serial run and the
// vectors' residual.
func TestHeevRunner(t *testing.T) {
	prev := gemm.ParallelThreshold
	gemm.ParallelThreshold = 1000
	defer func() { gemm.ParallelThreshold = prev }()
	const n = 160
	r := goRunner{2}
	var ws, ws1 Workspace
	ref := randHerm[complex128](rand.New(rand.NewPCG(3, 3)), n)
	a := storeTri[complex128](ref, Lower, dense)
	b := storeTri[complex128](ref, Lower, dense)
	w, w1 := make([]float64, n), make([]float64, n)
	if Heev(&ws, r, true, Lower, n, a.Mat, w) != 0 || Heev(&ws1, nil, true, Lower, n, b.Mat, w1) != 0 {
		t.Fatal("Heev failed")
	}
	an := fnorm(ref)
	tol := 10 * float64(n) * 0x1p-53
	for i := range w {
		if math.Abs(w[i]-w1[i]) > tol*an {
			t.Fatalf("w[%d] = %v parallel, %v serial", i, w[i], w1[i])
		}
	}
	v := toDense(a)
	vl := newDense(n, n)
	for j := 0; j < n; j++ {
		for i := 0; i < n; i++ {
			vl.set(i, j, v.at(i, j)*complex(w[j], 0))
		}
	}
	if res := fnorm(sub(mul(ref, v), vl)); !(res <= tol*an) {
		t.Fatalf("‖AV − VΛ‖/‖A‖ = %.3g", res/an)
	}
}
