package lapack

import (
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// expmRun stores ref as A in layout la, runs Expm into a fresh X in layout
// lx, checks that A and the guards survived and that info is want, and
// returns A as stored (rounded to T) and X.
func expmRun[T Scalar](t *testing.T, ws *Workspace, ref dense128, la, lx layout, want int) (a, x dense128) {
	t.Helper()
	n := ref.r
	am := store[T](ref, la)
	before := append([]T(nil), am.Data...)
	xm := newMat[T](n, n, lx, func(i, j int) complex128 { return 0 })
	if info := Expm(ws, nil, n, am.Mat, xm.Mat); info != want {
		t.Fatalf("n=%d %v/%v: info = %d, want %d", n, la, lx, info, want)
	}
	for k := range before {
		if am.Data[k] != before[k] && !(am.Data[k] != am.Data[k] && before[k] != before[k]) {
			t.Fatalf("n=%d: A changed at %d", n, k)
		}
	}
	checkGuards(t, xm)
	return toDense(am), toDense(xm)
}

// expRef returns exp(a) by a Taylor series of 30 terms on a/2ˢ with
// ‖a/2ˢ‖₁ ≤ ½, squared s times, in complex128: an algorithm independent of
// the Padé approximants under test.
func expRef(a dense128) dense128 {
	n := a.r
	s := 0
	if nrm := norm1(a); nrm > 0.5 {
		s = int(math.Ceil(math.Log2(nrm / 0.5)))
	}
	b := newDense(n, n)
	for k := range b.d {
		b.d[k] = a.d[k] * complex(math.Ldexp(1, -s), 0)
	}
	sum, term := eye(n), eye(n)
	for k := 1; k <= 30; k++ {
		term = mul(term, b)
		for i := range term.d {
			term.d[i] /= complex(float64(k), 0)
			sum.d[i] += term.d[i]
		}
	}
	for ; s > 0; s-- {
		sum = mul(sum, sum)
	}
	return sum
}

func eye(n int) dense128 {
	d := newDense(n, n)
	for i := 0; i < n; i++ {
		d.set(i, i, 1)
	}
	return d
}

func norm1(a dense128) float64 {
	m := 0.0
	for j := 0; j < a.c; j++ {
		s := 0.0
		for i := 0; i < a.r; i++ {
			s += cmplx.Abs(a.at(i, j))
		}
		m = max(m, s)
	}
	return m
}

// relErr returns ‖x − ref‖_F / ‖ref‖_F.
func relErr(x, ref dense128) float64 { return sub(x, ref).norm() / ref.norm() }

// forTypes runs f as a subtest for each element type.
func forTypes(t *testing.T, f32, f64, c64, c128 func(*testing.T)) {
	t.Run("float64", f64)
	t.Run("complex128", c128)
	t.Run("float32", f32)
	t.Run("complex64", c64)
}

var expmSizes = []int{1, 2, 3, 5, 8, 13, 17, 31}

// TestExpmDiagonal: exp of a diagonal is the diagonal of exponentials, and
// the zeros off the diagonal stay exactly zero.
func TestExpmDiagonal(t *testing.T) {
	forTypes(t, testExpmDiagonal[float32], testExpmDiagonal[float64], testExpmDiagonal[complex64], testExpmDiagonal[complex128])
}

func testExpmDiagonal[T Scalar](t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var ws Workspace
	for _, n := range append([]int{0}, expmSizes...) {
		for _, scale := range []float64{1e-9, 0.1, 1, 10, 300} {
			if isSingle[T]() && scale > 60 {
				scale = 60 // exp stays in float32's range
			}
			for l := layout(0); l < nLayouts; l++ {
				ref := newDense(n, n)
				for i := 0; i < n; i++ {
					ref.set(i, i, rnd[T](rng)*complex(scale, 0))
				}
				a, x := expmRun[T](t, &ws, ref, l, (l+1)%nLayouts, 0)
				for j := 0; j < n; j++ {
					for i := 0; i < n; i++ {
						got := x.at(i, j)
						if i != j {
							if got != 0 {
								t.Fatalf("n=%d scale=%g: X[%d,%d] = %v, want 0", n, scale, i, j, got)
							}
							continue
						}
						// Relative condition |d|, and the Padé
						// denominator or numerator at |d/2ˢ| ≤ θ loses
						// up to e^θ ≈ 215 (single: 51) units.
						d := a.at(i, i)
						want := cmplx.Exp(d)
						if e := cmplx.Abs(got-want) / cmplx.Abs(want); e > eps[T]()*(300+20*cmplx.Abs(d)) {
							t.Fatalf("n=%d scale=%g: X[%d,%d] = %v, want %v (rel %.2g)", n, scale, i, i, got, want, e)
						}
					}
				}
			}
		}
	}
}

// TestExpmNilpotent: for strictly upper triangular N the series stops,
// exp(N) = Σ_{k<n} Nᵏ/k!; and exp(s·I + N) = eˢ·exp(N) for the commuting
// parts.
func TestExpmNilpotent(t *testing.T) {
	forTypes(t, testExpmNilpotent[float32], testExpmNilpotent[float64], testExpmNilpotent[complex64], testExpmNilpotent[complex128])
}

func testExpmNilpotent[T Scalar](t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var ws Workspace
	for _, n := range expmSizes {
		for _, scale := range []float64{0.01, 1, 4} {
			for _, shift := range []float64{0, -2.5, 7} {
				l := layout(n % int(nLayouts))
				ref := newDense(n, n)
				for j := 0; j < n; j++ {
					for i := 0; i < j; i++ {
						ref.set(i, j, rnd[T](rng)*complex(scale, 0))
					}
					ref.set(j, j, complex(shift, 0))
				}
				a, x := expmRun[T](t, &ws, ref, l, transposed, 0)
				nil0 := newDense(n, n)
				copy(nil0.d, a.d)
				for i := 0; i < n; i++ {
					nil0.set(i, i, 0)
				}
				want, term := eye(n), eye(n)
				for k := 1; k < n; k++ {
					term = mul(term, nil0)
					for i := range term.d {
						term.d[i] /= complex(float64(k), 0)
						want.d[i] += term.d[i]
					}
				}
				es := complex(math.Exp(real(a.at(0, 0))), 0)
				for i := range want.d {
					want.d[i] *= es
				}
				// The condition grows with the non-normal part: allow
				// ‖N‖₁ⁿ⁻¹-free growth through the norm of the result.
				nrm := norm1(nil0)
				bound := 50 * float64(n) * eps[T]() * (1 + nrm) * (1 + nrm)
				if e := relErr(x, want); e > bound {
					t.Fatalf("n=%d scale=%g shift=%g: rel err %.3g > %.3g", n, scale, shift, e, bound)
				}
			}
		}
	}
}

// TestExpmRotation: exp([0 −θ; θ 0]) is the rotation by θ.
func TestExpmRotation(t *testing.T) {
	forTypes(t, testExpmRotation[float32], testExpmRotation[float64], testExpmRotation[complex64], testExpmRotation[complex128])
}

func testExpmRotation[T Scalar](t *testing.T) {
	var ws Workspace
	for _, th := range []float64{0, 1e-7, 0.3, 1, 2.5, 10, 123.4, 1000} {
		ref := newDense(2, 2)
		ref.set(0, 1, complex(-th, 0))
		ref.set(1, 0, complex(th, 0))
		a, x := expmRun[T](t, &ws, ref, padded, dense, 0)
		tt := real(a.at(1, 0)) // θ rounded to T
		sn, cs := math.Sincos(tt)
		want := newDense(2, 2)
		want.set(0, 0, complex(cs, 0))
		want.set(1, 1, complex(cs, 0))
		want.set(0, 1, complex(-sn, 0))
		want.set(1, 0, complex(sn, 0))
		if e := sub(x, want).norm(); e > 20*eps[T]()*(1+tt) {
			t.Fatalf("θ=%g: error %.3g", th, e)
		}
	}
}

// TestExpmUnitary: the exponential of a skew-Hermitian (real:
// skew-symmetric) matrix is unitary, also for large norms that need many
// squarings; and exp(A)·exp(−A) = I for general A.
func TestExpmUnitary(t *testing.T) {
	forTypes(t, testExpmUnitary[float32], testExpmUnitary[float64], testExpmUnitary[complex64], testExpmUnitary[complex128])
}

func testExpmUnitary[T Scalar](t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var ws Workspace
	for _, n := range expmSizes {
		for _, scale := range []float64{1e-3, 0.5, 3, 100, 1000} {
			ref := newDense(n, n)
			for j := 0; j < n; j++ {
				for i := 0; i <= j; i++ {
					v := rnd[T](rng) * complex(scale/math.Sqrt(float64(n)), 0)
					if i == j {
						v = complex(0, imag(v))
					}
					ref.set(i, j, v)
					ref.set(j, i, -cmplx.Conj(v))
				}
			}
			_, x := expmRun[T](t, &ws, ref, layout(n%3), layout((n+1)%3), 0)
			nrm := norm1(ref)
			// Each squaring doubles the departure from unitarity: the
			// bound grows with 2ˢ ∝ ‖A‖₁.
			bound := float64(n) * eps[T]() * (30 + 2*nrm)
			if e := sub(mul(x.op(ConjTrans), x), eye(n)).norm(); e > bound {
				t.Fatalf("n=%d ‖A‖₁=%.3g: ‖XᴴX − I‖ = %.3g > %.3g", n, nrm, e, bound)
			}
		}
	}
	for _, n := range expmSizes {
		for _, scale := range []float64{0.1, 1, 3} {
			ref := randDense[T](rng, n, n)
			for k := range ref.d {
				ref.d[k] *= complex(scale/math.Sqrt(float64(n)), 0)
			}
			a, x := expmRun[T](t, &ws, ref, dense, padded, 0)
			for k := range a.d {
				a.d[k] = -a.d[k]
			}
			_, y := expmRun[T](t, &ws, a, transposed, dense, 0)
			bound := 50 * float64(n) * eps[T]() * x.norm() * y.norm()
			if e := sub(mul(x, y), eye(n)).norm(); e > bound {
				t.Fatalf("n=%d scale=%g: ‖exp(A)·exp(−A) − I‖ = %.3g > %.3g", n, scale, e, bound)
			}
		}
	}
}

// TestExpmHermitian compares exp of a Hermitian matrix with V·exp(Λ)·Vᴴ,
// from gonum's EigenSym for float64 and the Taylor reference otherwise,
// over norms from tiny to 10³ (the scaling path).
func TestExpmHermitian(t *testing.T) {
	forTypes(t, testExpmHermitian[float32], testExpmHermitian[float64], testExpmHermitian[complex64], testExpmHermitian[complex128])
}

func testExpmHermitian[T Scalar](t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var ws Workspace
	for _, n := range expmSizes {
		for _, scale := range []float64{1e-8, 0.2, 1, 5, 40, 1000} {
			if isSingle[T]() && scale > 40 {
				continue // exp(λmax) would underflow float32
			}
			ref := newDense(n, n)
			for j := 0; j < n; j++ {
				for i := 0; i <= j; i++ {
					v := rnd[T](rng) * complex(scale/math.Sqrt(float64(n)), 0)
					if i == j {
						v = complex(real(v), 0)
					}
					ref.set(i, j, v)
					ref.set(j, i, cmplx.Conj(v))
				}
			}
			// Shift the spectrum below zero so that exp of the largest
			// eigenvalue stays in range for float32.
			for i := 0; i < n; i++ {
				ref.set(i, i, ref.at(i, i)-complex(scale, 0))
			}
			a, x := expmRun[T](t, &ws, ref, layout(n%3), dense, 0)
			var want dense128
			if _, ok := any(T(0)).(float64); ok {
				want = expSymGonum(a)
			} else {
				want = expRef(a)
			}
			// exp at a Hermitian A has relative condition ‖A‖.
			nrm := norm1(a)
			bound := 20 * float64(n) * eps[T]() * (1 + nrm)
			if e := relErr(x, want); e > bound {
				t.Fatalf("n=%d scale=%g: rel err %.3g > %.3g", n, scale, e, bound)
			}
		}
	}
}

// expSymGonum returns V·exp(Λ)·Vᵀ for the real symmetric a from gonum.
func expSymGonum(a dense128) dense128 {
	n := a.r
	s := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			s.SetSym(i, j, real(a.at(i, j)))
		}
	}
	var es mat.EigenSym
	if !es.Factorize(s, true) {
		panic("gonum EigenSym failed")
	}
	var v mat.Dense
	es.VectorsTo(&v)
	w := es.Values(nil)
	out := newDense(n, n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			var sum float64
			for k := 0; k < n; k++ {
				sum += v.At(i, k) * math.Exp(w[k]) * v.At(j, k)
			}
			out.set(i, j, complex(sum, 0))
		}
	}
	return out
}

// TestExpmGeneral compares random general matrices with gonum's
// mat.Dense.Exp (float64) and the Taylor reference (all types), the error
// relative to ‖exp(A)‖ bounded by c·n·u·(1 + ‖A‖₁).
func TestExpmGeneral(t *testing.T) {
	forTypes(t, testExpmGeneral[float32], testExpmGeneral[float64], testExpmGeneral[complex64], testExpmGeneral[complex128])
}

func testExpmGeneral[T Scalar](t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	var ws Workspace
	for _, n := range append(expmSizes, 64, 65) {
		for _, scale := range []float64{1e-6, 0.01, 0.2, 0.9, 2, 5, 30} {
			ref := randDense[T](rng, n, n)
			for k := range ref.d {
				ref.d[k] *= complex(scale/math.Sqrt(float64(n)), 0)
			}
			a, x := expmRun[T](t, &ws, ref, layout(n%3), layout((n+2)%3), 0)
			nrm := norm1(a)
			bound := 50 * float64(n) * eps[T]() * (1 + nrm)
			want := expRef(a)
			if e := relErr(x, want); e > bound {
				t.Fatalf("n=%d scale=%g: rel err vs Taylor %.3g > %.3g", n, scale, e, bound)
			}
			if _, ok := any(T(0)).(float64); ok {
				g := mat.NewDense(n, n, nil)
				for i := 0; i < n; i++ {
					for j := 0; j < n; j++ {
						g.Set(i, j, real(a.at(i, j)))
					}
				}
				var ge mat.Dense
				ge.Exp(g)
				gw := newDense(n, n)
				for i := 0; i < n; i++ {
					for j := 0; j < n; j++ {
						gw.set(i, j, complex(ge.At(i, j), 0))
					}
				}
				if e := relErr(x, gw); e > bound {
					t.Fatalf("n=%d scale=%g: rel err vs gonum %.3g > %.3g", n, scale, e, bound)
				}
			}
		}
	}
}

// TestExpmTiny: for ‖A‖ ~ 1e-9, exp(A) = I + A + A²/2 to the unit
// roundoff.
func TestExpmTiny(t *testing.T) {
	forTypes(t, testExpmTiny[float32], testExpmTiny[float64], testExpmTiny[complex64], testExpmTiny[complex128])
}

func testExpmTiny[T Scalar](t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	var ws Workspace
	for _, n := range expmSizes {
		ref := randDense[T](rng, n, n)
		for k := range ref.d {
			ref.d[k] *= 1e-9
		}
		a, x := expmRun[T](t, &ws, ref, padded, transposed, 0)
		want := mul(a, a)
		for k := range want.d {
			want.d[k] = want.d[k]/2 + a.d[k]
		}
		for i := 0; i < n; i++ {
			want.set(i, i, want.at(i, i)+1)
		}
		if e := sub(x, want).norm(); e > 4*math.Sqrt(float64(n))*eps[T]() {
			t.Fatalf("n=%d: error %.3g", n, e)
		}
	}
}

// TestExpmSpecial: non-finite input is refused with X untouched, overflow
// is reported, and X may be A itself.
func TestExpmSpecial(t *testing.T) {
	forTypes(t, testExpmSpecial[float32], testExpmSpecial[float64], testExpmSpecial[complex64], testExpmSpecial[complex128])
}

func testExpmSpecial[T Scalar](t *testing.T) {
	var ws Workspace
	rng := rand.New(rand.NewPCG(13, 14))
	for _, n := range []int{1, 2, 7} {
		for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
			ref := randDense[T](rng, n, n)
			ref.set(n-1, n/2, complex(bad, 0))
			am := store[T](ref, padded)
			xm := newMat[T](n, n, dense, func(i, j int) complex128 { return 42 })
			if info := Expm(&ws, nil, n, am.Mat, xm.Mat); info != 1 {
				t.Fatalf("n=%d %v: info = %d, want 1", n, bad, info)
			}
			for _, v := range xm.Data {
				if v != 42 {
					t.Fatalf("n=%d: X written on non-finite input", n)
				}
			}
		}
		// exp(1e5) overflows every type.
		ref := eye(n)
		for k := range ref.d {
			ref.d[k] *= 1e5
		}
		expmRun[T](t, &ws, ref, dense, dense, 2)
		// In place.
		ref = randDense[T](rng, n, n)
		am := store[T](ref, transposed)
		a := toDense(am)
		if info := Expm(&ws, nil, n, am.Mat, am.Mat); info != 0 {
			t.Fatalf("in place n=%d: info %d", n, info)
		}
		checkGuards(t, am)
		if e := relErr(toDense(am), expRef(a)); e > 50*float64(n)*eps[T]()*(1+norm1(a)) {
			t.Fatalf("in place n=%d: rel err %.3g", n, e)
		}
	}
}

// TestExpmLarge: an order above the stack array of pivots (the pooled
// path), against the Taylor reference.
func TestExpmLarge(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	var ws Workspace
	const n = 161
	ref := randDense[complex128](rng, n, n)
	for k := range ref.d {
		ref.d[k] *= complex(3/math.Sqrt(float64(n)), 0)
	}
	a, x := expmRun[complex128](t, &ws, ref, padded, transposed, 0)
	if e, bound := relErr(x, expRef(a)), 50*float64(n)*eps[complex128]()*(1+norm1(a)); e > bound {
		t.Fatalf("n=%d: rel err %.3g > %.3g", n, e, bound)
	}
}

// TestExpmWarmAllocs: a warm Expm allocates nothing, on the paths of every
// degree and with squarings.
func TestExpmWarmAllocs(t *testing.T) {
	t.Run("float64", testExpmWarmAllocs[float64])
	t.Run("complex128", testExpmWarmAllocs[complex128])
	t.Run("float32", testExpmWarmAllocs[float32])
	t.Run("complex64", testExpmWarmAllocs[complex64])
}

func testExpmWarmAllocs[T Scalar](t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	var ws Workspace
	for _, n := range []int{6, 40, 150} {
		for _, scale := range []float64{0.01, 0.2, 0.9, 2, 5, 50} {
			ref := randDense[T](rng, n, n)
			for k := range ref.d {
				ref.d[k] *= complex(scale/math.Sqrt(float64(n)), 0)
			}
			a := store[T](ref, dense)
			x := newMat[T](n, n, padded, func(i, j int) complex128 { return 0 })
			f := func() { Expm(&ws, nil, n, a.Mat, x.Mat) }
			f()
			if got := testing.AllocsPerRun(3, f); got != 0 {
				t.Errorf("%s n=%d scale=%g: %v allocations per warm call", typeName[T](), n, scale, got)
			}
		}
	}
}

func BenchmarkExpm(b *testing.B) {
	for _, n := range []int{16, 64, 256} {
		b.Run(fmt.Sprintf("float64/n=%d", n), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 1))
			ref := randDense[float64](rng, n, n)
			a := store[float64](ref, dense)
			x := newMat[float64](n, n, dense, func(i, j int) complex128 { return 0 })
			var ws Workspace
			for b.Loop() {
				Expm(&ws, nil, n, a.Mat, x.Mat)
			}
		})
	}
}
