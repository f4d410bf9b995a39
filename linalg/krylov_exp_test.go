package linalg_test

import (
	"errors"
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"slices"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/linalg"
	gmat "gonum.org/v1/gonum/mat"
)

// expRef returns exp(a) by a 30-term Taylor series of a/2ˢ, ‖a/2ˢ‖₁ ≤ ½,
// squared s times, in complex128.
func expRef(a mat) mat {
	n := a.m
	nrm := 0.0
	for j := range n {
		c := 0.0
		for i := range n {
			c += cmplx.Abs(a.at(i, j))
		}
		nrm = max(nrm, c)
	}
	s := 0
	if nrm > 0.5 {
		s = int(math.Ceil(math.Log2(nrm / 0.5)))
	}
	b := newMat(n, n)
	for k, v := range a.v {
		b.v[k] = v * complex(math.Ldexp(1, -s), 0)
	}
	sum, term := eye(n), eye(n)
	for k := 1; k <= 30; k++ {
		term = mul(term, b)
		for i := range term.v {
			term.v[i] /= complex(float64(k), 0)
			sum.v[i] += term.v[i]
		}
	}
	for ; s > 0; s-- {
		sum = mul(sum, sum)
	}
	return sum
}

// expvRef returns exp(t·a)·v.
func expvRef(a mat, t complex128, v []complex128) []complex128 {
	ta := newMat(a.m, a.n)
	for k, x := range a.v {
		ta.v[k] = t * x
	}
	e := expRef(ta)
	x := newMat(a.m, 1)
	copy(x.v, v)
	return mul(e, x).v
}

func vnorm(x []complex128) float64 {
	s := 0.0
	for _, v := range x {
		s += real(v)*real(v) + imag(v)*imag(v)
	}
	return math.Sqrt(s)
}

func vdiff(x, y []complex128) float64 {
	s := 0.0
	for i := range x {
		d := x[i] - y[i]
		s += real(d)*real(d) + imag(d)*imag(d)
	}
	return math.Sqrt(s)
}

// checkExpmV runs ExpmV and compares it with the dense reference: the
// error within a few Tol·‖v‖ plus the rounding of the steps.
func checkExpmV[T tf.Scalar](t *testing.T, e tf.Engine, a mat, tt complex128, v *tf.Tensor[T], opts linalg.ExpmVOptions) ([]complex128, linalg.ExpmVInfo) {
	return checkExpmVRef(t, e, a, tt, v, opts, func(v []complex128) []complex128 { return expvRef(a, tt, v) })
}

// spectralRef returns v ↦ Q·exp(t·Λ)·Qᴴ·v.
func spectralRef(q mat, w []float64, tt complex128) func([]complex128) []complex128 {
	return func(v []complex128) []complex128 {
		n := q.m
		c := make([]complex128, n)
		for k := range n {
			for i := range n {
				c[k] += cmplx.Conj(q.at(i, k)) * v[i]
			}
			c[k] *= cmplx.Exp(tt * complex(w[k], 0))
		}
		x := make([]complex128, n)
		for k := range n {
			for i := range n {
				x[i] += q.at(i, k) * c[k]
			}
		}
		return x
	}
}

func checkExpmVRef[T tf.Scalar](t *testing.T, e tf.Engine, a mat, tt complex128, v *tf.Tensor[T], opts linalg.ExpmVOptions, ref func([]complex128) []complex128) ([]complex128, linalg.ExpmVInfo) {
	t.Helper()
	x, info, err := linalg.ExpmV(e, denseOp[T](a), tt, v, opts)
	if err != nil {
		t.Fatalf("%v (info %+v)", err, info)
	}
	defer x.Release()
	if !slices.Equal(x.Shape(), v.Shape()) {
		t.Fatalf("shape %v, want %v", x.Shape(), v.Shape())
	}
	vv := scalars(t, v)
	got := scalars(t, x)
	want := ref(vv)
	tol := opts.Tol
	if tol == 0 {
		tol = 1e-12
		if eps[T]() > 1e-10 {
			tol = 1e-6
		}
	}
	n := a.m
	anorm := 0.0
	for j := range n {
		s := 0.0
		for i := range n {
			s += cmplx.Abs(a.at(i, j))
		}
		anorm = max(anorm, s)
	}
	// The relative error: Tol, and the rounding of the steps, each with
	// the condition ‖t·A‖ of the exponential.
	scale := max(vnorm(want), vnorm(vv))
	bound := (10*tol + 20*float64(info.Steps+1)*math.Sqrt(float64(n))*eps[T]()*(1+cmplx.Abs(tt)*anorm)) * scale
	if d := vdiff(got, want); d > bound {
		t.Fatalf("‖x − exp(tA)v‖ = %.3g > %.3g (info %+v)", d, bound, info)
	}
	// Each local estimate is at most 1.2·max(τ·Tol, 16u).
	if limit := 1.2*tol + 1.2*16*eps[T]()*float64(info.Steps); info.ErrEstimate > limit {
		t.Errorf("error estimate %.3g above %.3g", info.ErrEstimate, limit)
	}
	return got, info
}

// TestExpmVHermitian: Hermitian operators with Lanczos and Arnoldi, real t
// (diffusion) and imaginary t (real-time evolution, norm preserved), small
// and large ‖t·A‖, all four types.
func TestExpmVHermitian(t *testing.T) {
	t.Run("float64", testExpmVHermitian[float64])
	t.Run("complex128", testExpmVHermitian[complex128])
	t.Run("float32", testExpmVHermitian[float32])
	t.Run("complex64", testExpmVHermitian[complex64])
}

func testExpmVHermitian[T tf.Scalar](t *testing.T) {
	e := engine(t)
	r := rand.New(rand.NewPCG(21, 22))
	for _, n := range []int{1, 3, 17, 120} {
		w := make([]float64, n)
		for i := range w {
			w[i] = 0.2 + 2.8*r.Float64() // a positive Hamiltonian
		}
		a, q := withSpectrumQ[T](r, w)
		for _, herm := range []bool{true, false} {
			for _, tt := range []complex128{0.01, -0.5, 1, -20, complex(0, -0.3), complex(0, 40)} {
				if imag(tt) != 0 && !isComplex[T]() {
					continue
				}
				for _, m := range []int{0, 8} {
					name := fmt.Sprintf("n=%d herm=%v t=%v m=%d", n, herm, tt, m)
					v := randVec[T](t, r, n)
					t.Run(name, func(t *testing.T) {
						got, _ := checkExpmVRef(t, e, a, tt, v, linalg.ExpmVOptions{Hermitian: herm, MaxDim: m}, spectralRef(q, w, tt))
						if real(tt) == 0 {
							vv := scalars(t, v)
							if d := math.Abs(vnorm(got) - vnorm(vv)); d > 1e3*eps[T]()*vnorm(vv)+10*1e-6*vnorm(vv) {
								t.Errorf("norm %.15g, ‖v‖ %.15g", vnorm(got), vnorm(vv))
							}
						}
					})
				}
			}
		}
	}
}

// TestExpmVGeneral: non-normal random operators by Arnoldi, against the
// dense reference and, for float64, gonum's mat.Dense.Exp.
func TestExpmVGeneral(t *testing.T) {
	t.Run("float64", testExpmVGeneral[float64])
	t.Run("complex128", testExpmVGeneral[complex128])
	t.Run("float32", testExpmVGeneral[float32])
	t.Run("complex64", testExpmVGeneral[complex64])
}

func testExpmVGeneral[T tf.Scalar](t *testing.T) {
	e := engine(t)
	r := rand.New(rand.NewPCG(23, 24))
	for _, n := range []int{2, 13, 64} {
		a := randMat[T](r, n, n)
		for k := range a.v {
			a.v[k] /= complex(math.Sqrt(float64(n)), 0)
		}
		for i := range n {
			a.v[i+i*n] -= 1 // a decaying flow
		}
		a = round[T](a)
		for _, tt := range []complex128{0.1, 1, 6} {
			v := randVec[T](t, r, n)
			got, _ := checkExpmV(t, e, a, tt, v, linalg.ExpmVOptions{MaxDim: 10})
			if _, ok := any(T(0)).(float64); ok {
				g := gmat.NewDense(n, n, nil)
				for i := range n {
					for j := range n {
						g.Set(i, j, real(tt)*real(a.at(i, j)))
					}
				}
				var ge gmat.Dense
				ge.Exp(g)
				vv := scalars(t, v)
				want := make([]complex128, n)
				for i := range n {
					var s float64
					for j := range n {
						s += ge.At(i, j) * real(vv[j])
					}
					want[i] = complex(s, 0)
				}
				if d := vdiff(got, want); d > 1e-10*vnorm(vv) {
					t.Fatalf("n=%d t=%v: vs gonum %.3g", n, tt, d)
				}
			}
		}
	}
}

// TestExpmVSpecial: t = 0 and v = 0 return at once; a Krylov space
// exhausted (N ≤ m) or invariant (v an eigenvector) is exact; an einsum
// network over a four-index vector serves as operator.
func TestExpmVSpecial(t *testing.T) {
	e := engine(t)
	r := rand.New(rand.NewPCG(25, 26))
	w := []float64{-1, 0.5, 2, -0.25, 1}
	a, q := withSpectrumQ[complex128](r, w)
	v := randVec[complex128](t, r, 5)
	x, info, err := linalg.ExpmV(e, denseOp[complex128](a), 0, v, linalg.ExpmVOptions{})
	if err != nil || info.Matvecs != 0 || !slices.Equal(scalars(t, x), scalars(t, v)) {
		t.Fatalf("t = 0: %v %+v", err, info)
	}
	z, _ := tf.Zeros[complex128](5)
	x, info, err = linalg.ExpmV(e, denseOp[complex128](a), 1i, z, linalg.ExpmVOptions{})
	if err != nil || info.Matvecs != 0 || vnorm(scalars(t, x)) != 0 {
		t.Fatalf("v = 0: %v %+v", err, info)
	}
	// N = 5 ≤ m: one exact step (the last Krylov vector vanishes).
	_, info = checkExpmV(t, e, a, complex(0, -30), v, linalg.ExpmVOptions{})
	if !info.Breakdown || info.Steps != 1 {
		t.Errorf("N ≤ m: info %+v", info)
	}
	// v an eigenvector: invariant after one product.
	ev, _ := tf.Zeros[complex128](5)
	for i := range 5 {
		_ = ev.Set(q.at(i, 2), i)
	}
	_, info = checkExpmV(t, e, a, complex(0.7, -3), ev, linalg.ExpmVOptions{Hermitian: true})
	if !info.Breakdown || info.Matvecs != 1 {
		t.Errorf("eigenvector: info %+v", info)
	}

	// The einsum network of TestEigshEinsum, imaginary time step on a
	// strided view.
	const chi, d = 4, 2
	toT := func(m mat, shape ...int) *tf.Tensor[complex128] {
		x, err := tf.FromSlice(slices.Clone(m.v), shape...)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	L := toT(withSpectrum[complex128](r, []float64{1, 2, 0.5, 1.5}), chi, chi)
	R := toT(withSpectrum[complex128](r, []float64{0.3, -1, 0.8, 1}), chi, chi)
	W := toT(withSpectrum[complex128](r, []float64{-1, 0.25, 0.5, 2}), d, d, d, d)
	plan, err := tf.PrepareEinsum(tf.Complex128, "ai,bj,stuv,iuvj->astb", [][]int{{chi, chi}, {chi, chi}, {d, d, d, d}, {chi, d, d, chi}})
	if err != nil {
		t.Fatal(err)
	}
	op := func(dst, x *tf.Tensor[complex128]) error { return tf.EinsumPlannedInto(e, dst, plan, L, R, W, x) }
	n := chi * d * d * chi
	dense := newMat(n, n)
	for j := range n {
		x, _ := tf.Zeros[complex128](chi, d, d, chi)
		y, _ := tf.Zeros[complex128](chi, d, d, chi)
		xd, _ := x.Data()
		xd[j] = 1
		if err := op(y, x); err != nil {
			t.Fatal(err)
		}
		yd, _ := y.Data()
		copy(dense.v[j*n:], yd)
	}
	big := randVec[complex128](t, r, chi, d, d, 3*chi)
	v0, _ := big.Slice(3, 1, 3*chi, 3)
	dst, _ := tf.Zeros[complex128](chi, d, d, chi)
	info, err = linalg.ExpmVInto(e, dst, op, complex(0, -2), v0, linalg.ExpmVOptions{Hermitian: true, MaxDim: 12})
	if err != nil {
		t.Fatal(err)
	}
	want := expvRef(dense, complex(0, -2), scalars(t, v0))
	if dd := vdiff(scalars(t, dst), want); dd > 1e-10*vnorm(want) {
		t.Fatalf("einsum operator: error %.3g (info %+v)", dd, info)
	}
}

// TestExpmVErrors: NaN from apply, a complex t for a real type, too few
// steps, bad options and destinations fail with the documented kinds and
// leave dst untouched.
func TestExpmVErrors(t *testing.T) {
	e := engine(t)
	r := rand.New(rand.NewPCG(27, 28))
	const n = 50
	a := randMat[float64](r, n, n)
	good := denseOp[float64](a)
	calls := 0
	nan := func(dst, x *tf.Tensor[float64]) error {
		calls++
		if err := good(dst, x); err != nil {
			return err
		}
		if calls == 4 {
			_ = dst.Set(math.NaN(), 1)
		}
		return nil
	}
	v := randVec[float64](t, r, n)
	dst, _ := tf.Full[float64](42, n)
	untouched := func(what string) {
		d, _ := dst.Data()
		for _, x := range d {
			if x != 42 {
				t.Fatalf("%s: dst written", what)
			}
		}
	}
	if _, err := linalg.ExpmVInto(e, dst, nan, 1, v, linalg.ExpmVOptions{}); !errors.Is(err, tf.ErrArgument) {
		t.Fatalf("NaN from apply: %v", err)
	}
	untouched("NaN")
	boom := errors.New("boom")
	if _, err := linalg.ExpmVInto(e, dst, func(_, _ *tf.Tensor[float64]) error { return boom }, 1, v, linalg.ExpmVOptions{}); !errors.Is(err, boom) {
		t.Fatalf("apply error: %v", err)
	}
	info, err := linalg.ExpmVInto(e, dst, good, 30, v, linalg.ExpmVOptions{MaxDim: 3, MaxSteps: 4})
	if !errors.Is(err, linalg.ErrNoConvergence) || info.Steps > 4 {
		t.Fatalf("steps exhausted: %v %+v", err, info)
	}
	untouched("steps")
	other, _ := tf.Zeros[float64](n, 1)
	for name, c := range map[string]struct {
		dst  *tf.Tensor[float64]
		t    complex128
		opts linalg.ExpmVOptions
		kind error
	}{
		"complex t": {dst, 1i, linalg.ExpmVOptions{}, tf.ErrArgument},
		"NaN t":     {dst, complex(math.NaN(), 0), linalg.ExpmVOptions{}, tf.ErrArgument},
		"Tol<0":     {dst, 1, linalg.ExpmVOptions{Tol: -1}, tf.ErrArgument},
		"MaxDim<0":  {dst, 1, linalg.ExpmVOptions{MaxDim: -1}, tf.ErrArgument},
		"shape":     {other, 1, linalg.ExpmVOptions{}, tf.ErrShape},
		"alias":     {v, 1, linalg.ExpmVOptions{}, tf.ErrAlias},
	} {
		if _, err := linalg.ExpmVInto(e, c.dst, good, c.t, v, c.opts); !errors.Is(err, c.kind) {
			t.Errorf("%s: %v, want %v", name, err, c.kind)
		}
	}
	untouched("options")
}

// TestExpmVAllocs: warm KrylovExp and pooled ExpmVInto calls allocate
// nothing, whatever the number of steps.
func TestExpmVAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's sync.Pool drops pooled arguments")
	}
	e := engine(t)
	r := rand.New(rand.NewPCG(29, 30))
	const n = 200
	w := make([]float64, n)
	for i := range w {
		w[i] = 2*r.Float64() - 1
	}
	a := withSpectrum[complex128](r, w)
	op := denseOp[complex128](a)
	v := randVec[complex128](t, r, 10, 20)
	dst, _ := tf.Zeros[complex128](10, 20)
	var k linalg.KrylovExp[complex128]
	for _, tt := range []complex128{complex(0, -0.5), complex(0, -40)} {
		for _, herm := range []bool{true, false} {
			opts := linalg.ExpmVOptions{Hermitian: herm, MaxDim: 15}
			var info linalg.ExpmVInfo
			for name, f := range map[string]func(){
				"KrylovExp": func() {
					var err error
					if info, err = k.ExpmVInto(e, dst, op, tt, v, opts); err != nil {
						t.Fatal(err)
					}
				},
				"ExpmVInto": func() {
					var err error
					if info, err = linalg.ExpmVInto(e, dst, op, tt, v, opts); err != nil {
						t.Fatal(err)
					}
				},
			} {
				f()
				if got := testing.AllocsPerRun(3, f); got != 0 {
					t.Errorf("%s t=%v herm=%v: %v allocations per warm call (%d steps)", name, tt, herm, got, info.Steps)
				}
			}
		}
	}
}
