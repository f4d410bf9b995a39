package main

import (
	"math"
	"math/rand/v2"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/examples/internal/spin"
)

// denseEnergy contracts the MPS in X into its 2^L amplitudes (site 0
// fastest, as spin.HeisenbergApply indexes them) and returns
// ⟨ψ|H|ψ⟩/⟨ψ|ψ⟩ by the bit operations of spin.HeisenbergApply: a reference
// that shares neither the MPO nor the traced contraction.
func denseEnergy(t *testing.T, e tf.Engine, en *Energy) float64 {
	t.Helper()
	L := len(en.Dims) - 1
	site := func(i int) *tf.Tensor[float64] {
		a, err := tf.FromSlice(en.Site(i), en.Dims[i], 2, en.Dims[i+1])
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	v := site(0)
	for i := 1; i < L; i++ {
		w, err := tf.Einsum(e, "apb,bqc->apqc", v, site(i))
		if err != nil {
			t.Fatal(err)
		}
		if v, err = w.Reshape(1, 1<<(i+1), w.Dim(3)); err != nil {
			t.Fatal(err)
		}
	}
	psi, _ := v.Reshape(1 << L)
	hpsi, _ := tf.Zeros[float64](1 << L)
	if err := spin.HeisenbergApply[float64](L)(hpsi, psi); err != nil {
		t.Fatal(err)
	}
	p, _ := psi.Data()
	h, _ := hpsi.Data()
	return dot(p, h) / dot(p, p)
}

// TestEnergyAndGradient checks the prepared program at random MPS of
// L = 5 and 6 (bonds capped or not): E against the dense reference, the
// gradient against central differences along random directions, and the
// scale invariance E(λA_i) = E(A), whose derivative says that every
// ∂E/∂A_i is orthogonal to A_i.
func TestEnergyAndGradient(t *testing.T) {
	e := cpu.Serial()
	defer e.Close()
	for _, c := range []struct{ L, chi int }{{5, 4}, {6, 3}, {6, 8}} {
		en, err := NewEnergy(e, c.L, c.chi)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(uint64(c.L), uint64(c.chi)))
		for seed := uint64(1); seed <= 3; seed++ {
			en.Randomize(seed)
			got, err := en.Eval()
			if err != nil {
				t.Fatal(err)
			}
			if want := denseEnergy(t, e, en); math.Abs(got-want) > 1e-12 {
				t.Errorf("L = %d, χ = %d: E = %.15f, dense %.15f", c.L, c.chi, got, want)
			}
			g := append([]float64(nil), en.G...)
			for i := range c.L {
				a, gi := en.Site(i), g[en.Off[i]:en.Off[i+1]]
				if d := dot(a, gi); math.Abs(d) > 1e-12*norm(a)*norm(gi) {
					t.Errorf("L = %d, χ = %d: A_%d·∂E/∂A_%d = %.3g, want 0", c.L, c.chi, i, i, d)
				}
			}
			x := append([]float64(nil), en.X...)
			v := make([]float64, len(x))
			for k := range v {
				v[k] = rng.NormFloat64()
			}
			const h = 1e-5
			at := func(s float64) float64 {
				for k := range x {
					en.X[k] = x[k] + s*v[k]
				}
				f, err := en.Eval()
				if err != nil {
					t.Fatal(err)
				}
				return f
			}
			fd := (at(h) - at(-h)) / (2 * h)
			copy(en.X, x)
			if d := dot(g, v); math.Abs(fd-d) > 1e-7*math.Max(math.Abs(d), 1) {
				t.Errorf("L = %d, χ = %d: ∇E·v = %.12g, central difference %.12g", c.L, c.chi, d, fd)
			}
		}
	}
}

// TestGroundEnergy minimizes E with bonds large enough to be exact and
// compares with exact diagonalization: 0 ≤ E − E₀ ≤ 1e-6 (absolute; E is
// variational, so it never lies below E₀ beyond rounding). L = 8 with
// χ = 16 is the program's exact case at a smaller size; a truncated
// χ = 4 must stay above E₀.
func TestGroundEnergy(t *testing.T) {
	e := cpu.Serial()
	defer e.Close()
	for _, c := range []struct {
		L, chi int
		tol    float64 // on E − E₀
	}{{6, 8, 1e-9}, {8, 16, 1e-6}, {8, 4, 1e-2}} {
		e0, err := spin.GroundEnergy(e, c.L)
		if err != nil {
			t.Fatal(err)
		}
		o := Options{L: c.L, Chi: c.chi, Seed: 2, Memory: 50, MaxIter: 2000, Tol: 1e-13}
		res, err := Minimize(e, o, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("L = %d, χ = %d: E − E₀ = %.3e after %d iterations, %d evaluations", c.L, c.chi, res.E-e0, res.Iter, res.Evals)
		if d := res.E - e0; d > c.tol || d < -1e-12 {
			t.Errorf("L = %d, χ = %d: E = %.13f, E₀ = %.13f, E − E₀ = %.3e, want within [−1e-12, %g]", c.L, c.chi, res.E, e0, d, c.tol)
		}
		if c.chi < 1<<(c.L/2) && res.E-e0 < 1e-4 {
			t.Errorf("L = %d, χ = %d: E − E₀ = %.3e, too close for a truncated MPS", c.L, c.chi, res.E-e0)
		}
		if got := denseEnergy(t, e, res.Energy); math.Abs(got-res.E) > 1e-12 {
			t.Errorf("L = %d, χ = %d: final E = %.15f, dense %.15f", c.L, c.chi, res.E, got)
		}
	}
}

// TestLBFGS minimizes the Rosenbrock function of 10 variables,
// Σ 100(x_{i+1} − x_i²)² + (1 − x_i)², from (−1.2, 1, −1.2, 1, …) to its
// minimum at (1, …, 1), and a quadratic of condition number 1e4 (which
// L-BFGS with unit steps takes about 180 iterations to solve: an exact line
// search would end in 10), each within a bound on the iterations, and
// checks the secant condition H·y = s of the newest pair at every step.
func TestLBFGS(t *testing.T) {
	const n = 10
	x, g := make([]float64, n), make([]float64, n)
	for i := range x {
		x[i] = []float64{-1.2, 1}[i%2]
	}
	rosen := func() (float64, error) {
		f := 0.0
		clear(g)
		for i := 0; i+1 < n; i++ {
			a, b := x[i+1]-x[i]*x[i], 1-x[i]
			f += 100*a*a + b*b
			g[i] += -400*a*x[i] - 2*b
			g[i+1] += 200 * a
		}
		return f, nil
	}
	quad := func() (float64, error) { // Σ c_i (x_i − 1)²/2, c_i from 1 to 1e4
		f := 0.0
		for i := range x {
			c := math.Pow(1e4, float64(i)/(n-1))
			f += c * (x[i] - 1) * (x[i] - 1) / 2
			g[i] = c * (x[i] - 1)
		}
		return f, nil
	}
	for _, c := range []struct {
		name string
		f    func() (float64, error)
		max  int
	}{{"rosenbrock", rosen, 200}, {"quadratic", quad, 250}} {
		if c.name == "quadratic" {
			clear(x)
		}
		o, err := NewLBFGS(10, x, g, c.f)
		if err != nil {
			t.Fatal(err)
		}
		for o.Iter < c.max && norm(g) > 1e-10 {
			if err := o.Step(); err != nil {
				t.Fatalf("%s: iteration %d: %v", c.name, o.Iter, err)
			}
			// The secant condition of the newest pair: H·y = s.
			q := append([]float64(nil), o.y[o.head]...)
			o.applyH(q)
			for i, si := range o.s[o.head] {
				if math.Abs(q[i]-si) > 1e-9*norm(o.s[o.head]) {
					t.Fatalf("%s: iteration %d: (H·y)[%d] = %g, s[%d] = %g", c.name, o.Iter, i, q[i], i, si)
				}
			}
		}
		for i := range x {
			if math.Abs(x[i]-1) > 1e-8 {
				t.Errorf("%s: x[%d] = %.12f after %d iterations, want 1", c.name, i, x[i], o.Iter)
			}
		}
		t.Logf("%s: %d iterations, %d evaluations, |∇f| = %.2e", c.name, o.Iter, o.Evals, norm(g))
	}
	if _, err := NewLBFGS(0, x, g, quad); err == nil {
		t.Error("memory 0: no error")
	}
}

// TestStepAllocations checks that a warm evaluation of E and ∇E (RunInto of
// the prepared program) and a whole L-BFGS iteration allocate nothing.
func TestStepAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's sync.Pool drops items")
	}
	e := cpu.Serial()
	defer e.Close()
	en, err := NewEnergy(e, 8, 16)
	if err != nil {
		t.Fatal(err)
	}
	en.Randomize(1)
	opt, err := NewLBFGS(50, en.X, en.G, en.Eval)
	if err != nil {
		t.Fatal(err)
	}
	step := func() {
		if err := opt.Step(); err != nil {
			t.Fatal(err)
		}
	}
	for range 60 { // fill the history
		step()
	}
	if a := testing.AllocsPerRun(20, func() { en.Eval() }); a != 0 {
		t.Errorf("Eval: %v allocations, want 0", a)
	}
	if a := testing.AllocsPerRun(20, step); a != 0 {
		t.Errorf("L-BFGS step: %v allocations, want 0", a)
	}
}

// TestRun runs the program's report on a small chain.
func TestRun(t *testing.T) {
	if err := run(Options{L: 6, Chi: 8, Seed: 1, Memory: 50, MaxIter: 1000, Tol: 1e-13, Every: 50}); err != nil {
		t.Fatal(err)
	}
}
