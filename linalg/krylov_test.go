package linalg_test

import (
	"errors"
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/linalg"
	gmat "gonum.org/v1/gonum/mat"
)

// unitary returns a random n×n unitary (orthogonal for real T) matrix, by
// Gram–Schmidt on a random one.
func unitary[T tf.Scalar](r *rand.Rand, n int) mat {
	q := randMat[T](r, n, n)
	for j := range n {
		for pass := 0; pass < 2; pass++ {
			for i := range j {
				var d complex128
				for k := range n {
					d += cmplx.Conj(q.v[k+i*n]) * q.v[k+j*n]
				}
				for k := range n {
					q.v[k+j*n] -= d * q.v[k+i*n]
				}
			}
		}
		var s float64
		for k := range n {
			s += real(q.v[k+j*n] * cmplx.Conj(q.v[k+j*n]))
		}
		for k := range n {
			q.v[k+j*n] /= complex(math.Sqrt(s), 0)
		}
	}
	return q
}

// withSpectrum returns Q·diag(w)·Qᴴ for a random unitary Q, Hermitian to
// rounding and made exactly Hermitian, rounded to T.
func withSpectrum[T tf.Scalar](r *rand.Rand, w []float64) mat {
	a, _ := withSpectrumQ[T](r, w)
	return a
}

// withSpectrumQ is withSpectrum that also returns Q.
func withSpectrumQ[T tf.Scalar](r *rand.Rand, w []float64) (mat, mat) {
	n := len(w)
	q := unitary[T](r, n)
	d := newMat(n, n)
	for i, v := range w {
		d.v[i+i*n] = complex(v, 0)
	}
	a := mul(mul(q, d), adj(q))
	for j := range n {
		for i := 0; i <= j; i++ {
			v := (a.at(i, j) + cmplx.Conj(a.at(j, i))) / 2
			if i == j {
				v = complex(real(v), 0)
			}
			a.v[i+j*n], a.v[j+i*n] = v, cmplx.Conj(v)
		}
	}
	return round[T](a), q
}

// denseOp wraps the n×n a as an operator on vectors of n elements (of any
// shape): dst = A·x by a loop over the compact data.
func denseOp[T tf.Scalar](a mat) linalg.Operator[T] {
	n := a.m
	at := make([]T, n*n)
	for k, v := range a.v {
		at[k] = from[T](v)
	}
	return func(dst, x *tf.Tensor[T]) error {
		d, err := dst.Data()
		if err != nil {
			return err
		}
		xv, err := x.Data()
		if err != nil {
			return err
		}
		clear(d)
		for j, xj := range xv {
			col := at[j*n : (j+1)*n]
			for i, v := range col {
				d[i] += v * xj
			}
		}
		return nil
	}
}

// vecOf reads a tensor's elements in column-major order.
func vecOf[T tf.Scalar](t *testing.T, x *tf.Tensor[T]) []complex128 { return scalars(t, x) }

// checkPairs verifies the result independently: unit, mutually orthogonal
// vectors, residuals ‖A·v − λ·v‖ within tol (plus rounding) and matching
// the reported ones, and the values against want.
func checkPairs[T tf.Scalar](t *testing.T, a mat, res *linalg.EigshResult[T], want []float64, tol float64) {
	t.Helper()
	n := a.m
	if !res.Converged {
		t.Fatalf("not converged")
	}
	if len(res.Values) != len(want) || len(res.Vectors) != len(want) || len(res.Residuals) != len(want) {
		t.Fatalf("%d values, %d vectors, %d residuals, want %d", len(res.Values), len(res.Vectors), len(res.Residuals), len(want))
	}
	anorm := 0.0
	for j := range n {
		s := 0.0
		for i := range n {
			s += cmplx.Abs(a.at(i, j))
		}
		anorm = max(anorm, s)
	}
	round := 30 * math.Sqrt(float64(n)) * eps[T]() * anorm
	vs := make([][]complex128, len(want))
	for k, v := range res.Vectors {
		vs[k] = vecOf(t, v)
		x := vs[k]
		var r float64
		for i := range n {
			var s complex128
			for j := range n {
				s += a.at(i, j) * x[j]
			}
			s -= complex(res.Values[k], 0) * x[i]
			r += real(s)*real(s) + imag(s)*imag(s)
		}
		r = math.Sqrt(r)
		if r > tol+round {
			t.Errorf("pair %d: residual %.3g > tol %.3g (+%.3g)", k, r, tol, round)
		}
		if math.Abs(r-res.Residuals[k]) > round+tol/10 && r > tol/10 {
			t.Errorf("pair %d: residual %.3g, reported %.3g", k, r, res.Residuals[k])
		}
		// Eigenvalue error ≤ residual for Hermitian A.
		if d := math.Abs(res.Values[k] - want[k]); d > r+round {
			t.Errorf("pair %d: λ = %.15g, want %.15g (residual %.3g)", k, res.Values[k], want[k], r)
		}
	}
	for p := range vs {
		for q := 0; q <= p; q++ {
			var d complex128
			for i := range n {
				d += cmplx.Conj(vs[p][i]) * vs[q][i]
			}
			if p == q {
				d--
			}
			if cmplx.Abs(d) > 50*math.Sqrt(float64(n))*eps[T]()+tol {
				t.Errorf("vectors %d, %d: ⟨v, v⟩ − δ = %.3g", p, q, cmplx.Abs(d))
			}
		}
	}
}

// wanted returns the first k of w in the order which selects.
func wanted(w []float64, k int, which linalg.Which) []float64 {
	s := slices.Clone(w)
	switch which {
	case linalg.Smallest:
		sort.Float64s(s)
	case linalg.Largest:
		sort.Sort(sort.Reverse(sort.Float64Slice(s)))
	case linalg.LargestMagnitude:
		sort.Slice(s, func(i, j int) bool { return math.Abs(s[i]) > math.Abs(s[j]) })
	}
	return s[:min(k, len(s))]
}

func randVec[T tf.Scalar](t *testing.T, r *rand.Rand, shape ...int) *tf.Tensor[T] {
	t.Helper()
	n := tf.Numel(shape)
	d := make([]T, n)
	m := randMat[T](r, n, 1)
	for i := range d {
		d[i] = from[T](m.v[i])
	}
	x, err := tf.FromSlice(d, shape...)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

func defaultTol[T tf.Scalar](anorm float64) float64 {
	if eps[T]() > 1e-10 {
		return 1e-5 * anorm
	}
	return 1e-10 * anorm
}

// TestEigshSpectrum: random Hermitian matrices of a known spectrum, every
// Which, K = 1 and 4, the default and a small subspace, all four types.
func TestEigshSpectrum(t *testing.T) {
	t.Run("float64", testEigshSpectrum[float64])
	t.Run("complex128", testEigshSpectrum[complex128])
	t.Run("float32", testEigshSpectrum[float32])
	t.Run("complex64", testEigshSpectrum[complex64])
}

func testEigshSpectrum[T tf.Scalar](t *testing.T) {
	e := engine(t)
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 2, 7, 31, 127} {
		w := make([]float64, n)
		for i := range w {
			w[i] = 10*r.Float64() - 5
		}
		a := withSpectrum[T](r, w)
		op := denseOp[T](a)
		for _, which := range []linalg.Which{linalg.Smallest, linalg.Largest, linalg.LargestMagnitude} {
			for _, k := range []int{1, 4} {
				for _, m := range []int{0, k + 6} {
					name := fmt.Sprintf("n=%d which=%d k=%d m=%d", n, which, k, m)
					x0 := randVec[T](t, r, n)
					res, err := linalg.Eigsh(e, op, x0, linalg.EigshOptions{K: k, Which: which, MaxDim: m})
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					t.Run(name, func(t *testing.T) {
						checkPairs(t, a, res, wanted(w, k, which), defaultTol[T](5))
					})
					release(res.Vectors...)
				}
			}
		}
	}
}

func release[T tf.Scalar](ts ...*tf.Tensor[T]) {
	for _, x := range ts {
		_ = x.Release()
	}
}

// TestEigshGonum compares random symmetric matrices with gonum's
// EigenSym.
func TestEigshGonum(t *testing.T) {
	e := engine(t)
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{5, 40, 200} {
		a := randMat[float64](r, n, n)
		a = round[float64](mul(a, adj(a)))
		for i := range n {
			a.v[i+i*n] -= complex(float64(n), 0) // an indefinite spectrum
		}
		s := gmat.NewSymDense(n, nil)
		for i := range n {
			for j := i; j < n; j++ {
				s.SetSym(i, j, real(a.at(i, j)))
			}
		}
		var es gmat.EigenSym
		if !es.Factorize(s, false) {
			t.Fatal("gonum failed")
		}
		w := es.Values(nil)
		anorm := max(math.Abs(w[0]), math.Abs(w[n-1]))
		for _, which := range []linalg.Which{linalg.Smallest, linalg.Largest, linalg.LargestMagnitude} {
			res, err := linalg.Eigsh(e, denseOp[float64](a), randVec[float64](t, r, n), linalg.EigshOptions{K: 3, Which: which})
			if err != nil {
				t.Fatalf("n=%d which=%d: %v", n, which, err)
			}
			checkPairs(t, a, res, wanted(w, 3, which), 1e-10*anorm*1.01)
		}
	}
}

// heisenberg returns H = Σᵢ Sᵢ·Sᵢ₊₁ of the open spin-½ chain of l sites on
// its 2ˡ states, applied by a loop over the basis.
func heisenberg[T tf.Scalar](l int) linalg.Operator[T] {
	return func(dst, x *tf.Tensor[T]) error {
		d, _ := dst.Data()
		xv, _ := x.Data()
		clear(d)
		for s, v := range xv {
			for i := 0; i+1 < l; i++ {
				b := s>>i&1 ^ s>>(i+1)&1
				if b == 0 {
					d[s] += v * 0.25
				} else {
					d[s] -= v * 0.25
					d[s^(3<<i)] += v * 0.5
				}
			}
		}
		return nil
	}
}

// TestEigshHeisenberg: the ground state energy of the L = 10 open
// Heisenberg chain, E₀ = −4.258035207282883 (exact diagonalization), and
// the four lowest levels with deflation against gonum's dense
// diagonalization for L = 8.
func TestEigshHeisenberg(t *testing.T) {
	e := engine(t)
	r := rand.New(rand.NewPCG(5, 6))
	const e0 = -4.258035207282883
	for _, c := range []struct {
		name string
		run  func() (float64, error)
		tol  float64
	}{
		{"float64", func() (float64, error) {
			res, err := linalg.Eigsh(e, heisenberg[float64](10), randVec[float64](t, r, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2), linalg.EigshOptions{})
			if err != nil {
				return 0, err
			}
			return res.Values[0], nil
		}, 1e-9},
		{"complex128", func() (float64, error) {
			res, err := linalg.Eigsh(e, heisenberg[complex128](10), randVec[complex128](t, r, 32, 32), linalg.EigshOptions{})
			if err != nil {
				return 0, err
			}
			return res.Values[0], nil
		}, 1e-9},
		{"float32", func() (float64, error) {
			res, err := linalg.Eigsh(e, heisenberg[float32](10), randVec[float32](t, r, 1024), linalg.EigshOptions{})
			if err != nil {
				return 0, err
			}
			return res.Values[0], nil
		}, 1e-4},
	} {
		got, err := c.run()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if math.Abs(got-e0) > c.tol {
			t.Errorf("%s: E0 = %.15g, want %.15g", c.name, got, e0)
		}
	}

	// L = 8: the spectrum has multiplets (the first excited level is a
	// triplet); the four lowest levels with Deflate match the dense ones.
	const l = 8
	n := 1 << l
	h := newMat(n, n)
	op := heisenberg[float64](l)
	for j := range n {
		x, _ := tf.Zeros[float64](n)
		y, _ := tf.Zeros[float64](n)
		_ = x.Set(1, j)
		if err := op(y, x); err != nil {
			t.Fatal(err)
		}
		d, _ := y.Data()
		for i, v := range d {
			h.v[i+j*n] = complex(v, 0)
		}
	}
	s := gmat.NewSymDense(n, nil)
	for i := range n {
		for j := i; j < n; j++ {
			s.SetSym(i, j, real(h.at(i, j)))
		}
	}
	var es gmat.EigenSym
	es.Factorize(s, false)
	w := es.Values(nil)
	if math.Abs(w[1]-w[3]) > 1e-12 {
		t.Fatalf("expected a triplet: %v", w[:5])
	}
	res, err := linalg.Eigsh(e, op, randVec[float64](t, r, n), linalg.EigshOptions{K: 4, Deflate: true})
	if err != nil {
		t.Fatal(err)
	}
	checkPairs(t, h, res, w[:4], 1e-10*4.01)
}

// TestEigshDegenerate: an eigenvalue of multiplicity 3 at the bottom is
// found three times with Deflate, for all four types.
func TestEigshDegenerate(t *testing.T) {
	t.Run("float64", testEigshDegenerate[float64])
	t.Run("complex128", testEigshDegenerate[complex128])
	t.Run("float32", testEigshDegenerate[float32])
	t.Run("complex64", testEigshDegenerate[complex64])
}

func testEigshDegenerate[T tf.Scalar](t *testing.T) {
	e := engine(t)
	r := rand.New(rand.NewPCG(7, 8))
	const n = 150
	w := make([]float64, n)
	for i := range w {
		w[i] = -1 + 6*r.Float64()
	}
	w[10], w[20], w[30], w[40] = -3, -3, -3, -2
	a := withSpectrum[T](r, w)
	for _, which := range []linalg.Which{linalg.Smallest, linalg.LargestMagnitude} {
		res, err := linalg.Eigsh(e, denseOp[T](a), randVec[T](t, r, n), linalg.EigshOptions{K: 4, Which: which, Deflate: true})
		if err != nil {
			t.Fatal(err)
		}
		want := []float64{-3, -3, -3, -2}
		if which == linalg.LargestMagnitude {
			want = wanted(w, 4, which)
		}
		checkPairs(t, a, res, want, defaultTol[T](5))
	}
}

// TestEigshSmallSpaces: K ≥ N returns all N pairs exactly; N ≤ m; an
// invariant subspace met at once (x0 an eigenvector that is not wanted)
// and a zero x0 still give the wanted pairs.
func TestEigshSmallSpaces(t *testing.T) {
	e := engine(t)
	r := rand.New(rand.NewPCG(9, 10))
	w := []float64{3, -1, 2, 0.5, -4}
	a := withSpectrum[complex128](r, w)
	res, err := linalg.Eigsh(e, denseOp[complex128](a), randVec[complex128](t, r, 5), linalg.EigshOptions{K: 9})
	if err != nil {
		t.Fatal(err)
	}
	checkPairs(t, a, res, wanted(w, 5, linalg.Smallest), 1e-9)

	// A diagonal operator started from e₂: Krylov space of dimension 1.
	const n = 60
	d := newMat(n, n)
	dw := make([]float64, n)
	for i := range n {
		dw[i] = float64(i%7) + float64(i)/100
		d.v[i+i*n] = complex(dw[i], 0)
	}
	x0, _ := tf.Zeros[float64](n)
	_ = x0.Set(1, 2)
	rd, err := linalg.Eigsh(e, denseOp[float64](d), x0, linalg.EigshOptions{K: 2, MaxDim: 10})
	if err != nil {
		t.Fatal(err)
	}
	checkPairs(t, d, rd, wanted(dw, 2, linalg.Smallest), 1e-10*7)

	// A sum of two eigenvectors: the space is invariant after two steps.
	_ = x0.Set(1, 50)
	rd, err = linalg.Eigsh(e, denseOp[float64](d), x0, linalg.EigshOptions{K: 1, Which: linalg.Largest, MaxDim: 5})
	if err != nil {
		t.Fatal(err)
	}
	checkPairs(t, d, rd, wanted(dw, 1, linalg.Largest), 1e-10*7)

	// Zero start vector, as a transposed view.
	z, _ := tf.Zeros[float64](6, 10)
	zt, _ := z.Transpose()
	rd, err = linalg.Eigsh(e, denseOp[float64](d), zt, linalg.EigshOptions{K: 3})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rd.Vectors[0].Shape(), []int{10, 6}) {
		t.Fatalf("vector shape %v", rd.Vectors[0].Shape())
	}
	checkPairs(t, d, rd, wanted(dw, 3, linalg.Smallest), 1e-10*7)
}

// TestEigshEinsum: the operator is an einsum network over a
// four-index vector, x ↦ Σ L[a,i]·W[s,t,u,v]·R[b,j]·x[i,u,v,j], the
// product of three Hermitian factors, so the spectrum is the products of
// theirs; x0 is a strided view.
func TestEigshEinsum(t *testing.T) {
	e := engine(t)
	r := rand.New(rand.NewPCG(11, 12))
	const chi, d = 5, 2
	wl := []float64{1, 2, 3, 1.5, 2.5}
	wr := []float64{0.7, 1.1, 1.3, 0.9, 1.2}
	ww := []float64{-1, 0.25, 0.5, 0.8}
	toT := func(m mat, shape ...int) *tf.Tensor[complex128] {
		x, err := tf.FromSlice(slices.Clone(m.v), shape...)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	lm, rm, wm := withSpectrum[complex128](r, wl), withSpectrum[complex128](r, wr), withSpectrum[complex128](r, ww)
	L, R, W := toT(lm, chi, chi), toT(rm, chi, chi), toT(wm, d, d, d, d)
	plan, err := tf.PrepareEinsum(tf.Complex128, "ai,bj,stuv,iuvj->astb", [][]int{{chi, chi}, {chi, chi}, {d, d, d, d}, {chi, d, d, chi}})
	if err != nil {
		t.Fatal(err)
	}
	op := func(dst, x *tf.Tensor[complex128]) error {
		return tf.EinsumPlannedInto(e, dst, plan, L, R, W, x)
	}
	var prod []float64
	for _, a := range wl {
		for _, b := range wr {
			for _, c := range ww {
				prod = append(prod, a*b*c)
			}
		}
	}
	big := randVec[complex128](t, r, chi, d, d, 2*chi)
	x0, _ := big.Slice(3, 0, 2*chi, 2)
	res, err := linalg.Eigsh(e, op, x0, linalg.EigshOptions{K: 2})
	if err != nil {
		t.Fatal(err)
	}
	// The dense matrix of the operator, for the independent check.
	n := chi * d * d * chi
	a := newMat(n, n)
	for j := range n {
		x, _ := tf.Zeros[complex128](chi, d, d, chi)
		y, _ := tf.Zeros[complex128](chi, d, d, chi)
		xd, _ := x.Data()
		xd[j] = 1
		if err := op(y, x); err != nil {
			t.Fatal(err)
		}
		yd, _ := y.Data()
		copy(a.v[j*n:], yd)
	}
	checkPairs(t, a, res, wanted(prod, 2, linalg.Smallest), 1e-10*11)
}

// TestEigshErrors: NaN from apply, an apply error, exhausted restarts and
// bad options fail with the documented kinds, without hanging.
func TestEigshErrors(t *testing.T) {
	e := engine(t)
	r := rand.New(rand.NewPCG(13, 14))
	const n = 80
	w := make([]float64, n)
	for i := range w {
		w[i] = float64(i) * float64(i)
	}
	a := withSpectrum[float64](r, w)
	good := denseOp[float64](a)
	calls := 0
	nan := func(dst, x *tf.Tensor[float64]) error {
		calls++
		if err := good(dst, x); err != nil {
			return err
		}
		if calls == 7 {
			_ = dst.Set(math.NaN(), 3)
		}
		return nil
	}
	_, err := linalg.Eigsh(e, nan, randVec[float64](t, r, n), linalg.EigshOptions{})
	if !errors.Is(err, tf.ErrArgument) {
		t.Fatalf("NaN from apply: %v", err)
	}
	boom := errors.New("boom")
	_, err = linalg.Eigsh(e, func(dst, x *tf.Tensor[float64]) error { return boom }, randVec[float64](t, r, n), linalg.EigshOptions{})
	if !errors.Is(err, boom) {
		t.Fatalf("apply error: %v", err)
	}
	res, err := linalg.Eigsh(e, good, randVec[float64](t, r, n), linalg.EigshOptions{MaxDim: 4, MaxRestarts: 2, Tol: 1e-14})
	if !errors.Is(err, linalg.ErrNoConvergence) || res == nil || res.Converged || res.Restarts != 2 || len(res.Values) != 1 {
		t.Fatalf("restarts exhausted: %v %+v", err, res)
	}
	x0, _ := tf.Zeros[float64](n)
	_ = x0.Set(math.Inf(1), 0)
	for name, c := range map[string]struct {
		x0   *tf.Tensor[float64]
		opts linalg.EigshOptions
		kind error
	}{
		"Inf x0":   {x0, linalg.EigshOptions{}, tf.ErrArgument},
		"K<0":      {randVec[float64](t, r, n), linalg.EigshOptions{K: -1}, tf.ErrArgument},
		"MaxDim≤K": {randVec[float64](t, r, n), linalg.EigshOptions{K: 4, MaxDim: 4}, tf.ErrArgument},
		"Tol<0":    {randVec[float64](t, r, n), linalg.EigshOptions{Tol: -1}, tf.ErrArgument},
		"Which":    {randVec[float64](t, r, n), linalg.EigshOptions{Which: 7}, tf.ErrArgument},
		"nil x0":   {nil, linalg.EigshOptions{}, tf.ErrArgument},
	} {
		if _, err := linalg.Eigsh(e, good, c.x0, c.opts); !errors.Is(err, c.kind) {
			t.Errorf("%s: %v, want %v", name, err, c.kind)
		}
	}
	if _, err := linalg.Eigsh(e, nil, randVec[float64](t, r, n), linalg.EigshOptions{}); !errors.Is(err, tf.ErrArgument) {
		t.Errorf("nil apply: %v", err)
	}
}
