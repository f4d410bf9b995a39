package main

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tenferro-go/tenferro/cpu"
)

// fit runs steps Adam steps on the samples of one seed and returns the
// fitter and the loss at the steps 0, 10, 100 and steps.
func fit(t *testing.T, n int, sigma float64, seed uint64, steps int) (*Fitter, []float64) {
	t.Helper()
	e := cpu.Serial()
	t.Cleanup(func() { e.Close() })
	x, y := Samples(n, Truth, sigma, seed)
	f, err := NewFitter(e, x, y, Start, Adam{LR: 0.05})
	if err != nil {
		t.Fatal(err)
	}
	var losses []float64
	for k := range steps {
		l, err := f.Step()
		if err != nil {
			t.Fatal(err)
		}
		if k == 0 || k == 10 || k == 100 {
			losses = append(losses, l)
		}
	}
	l, err := f.Eval()
	if err != nil {
		t.Fatal(err)
	}
	return f, append(losses, l)
}

// TestFitRecoversTruth fits the samples of several seeds. The least-squares
// estimate is, to first order in σ, normal about θ* with covariance
// σ²·(JᵀJ)⁻¹ (J the Jacobian at θ*), so each parameter must lie within 4
// of its standard deviations of the truth (a chance of about 6e-5 per
// parameter to fail for a correct fit). The fit must be a stationary point
// (|∇L| < 1e-9), the loss must decrease, and n·L/(n−3), the residual
// variance, must estimate σ² within 4 of its standard deviations,
// σ²·√(2/(n−3)).
func TestFitRecoversTruth(t *testing.T) {
	const n, sigma = 200, 0.05
	x, _ := Samples(n, Truth, 0, 0)
	var jtj [3][3]float64
	for _, xk := range x {
		j := Jacobian(xk, Truth)
		for p := range 3 {
			for q := range 3 {
				jtj[p][q] += j[p] * j[q]
			}
		}
	}
	cov := inverse3(jtj)
	for seed := uint64(1); seed <= 6; seed++ {
		f, losses := fit(t, n, sigma, seed, 1000)
		for i := range 3 {
			sd := sigma * math.Sqrt(cov[i][i])
			if d := f.Theta[i] - Truth[i]; math.Abs(d) > 4*sd {
				t.Errorf("seed %d: θ[%d] = %.6f, truth %g: %.1f standard deviations (%.4f) away", seed, i, f.Theta[i], Truth[i], d/sd, sd)
			}
		}
		if g := norm(f.Grad); g > 1e-9 {
			t.Errorf("seed %d: |∇L| = %.3g at the fit", seed, g)
		}
		for k := 1; k < len(losses); k++ {
			if losses[k] >= losses[k-1] {
				t.Errorf("seed %d: losses %v do not decrease", seed, losses)
			}
		}
		s2 := losses[len(losses)-1] * n / (n - 3)
		if math.Abs(s2-sigma*sigma) > 4*sigma*sigma*math.Sqrt(2.0/(n-3)) {
			t.Errorf("seed %d: residual variance %.6f, σ² = %.6f", seed, s2, sigma*sigma)
		}
	}
}

// TestNoiseless: without noise the fit is the truth, to the precision of
// the optimizer.
func TestNoiseless(t *testing.T) {
	f, _ := fit(t, 50, 0, 1, 1000)
	for i := range 3 {
		if d := f.Theta[i] - Truth[i]; math.Abs(d) > 1e-9 {
			t.Errorf("θ[%d] = %.12f, truth %g", i, f.Theta[i], Truth[i])
		}
	}
}

// TestGradient compares the loss and gradient of the prepared program with
// the closed forms L = (1/n) Σ r_k² and ∇L = (2/n) Σ r_k·∇f(x_k; θ), with
// r_k = f(x_k; θ) − y_k, at random points.
func TestGradient(t *testing.T) {
	const n = 37
	e := cpu.Serial()
	defer e.Close()
	x, y := Samples(n, Truth, 0.1, 3)
	f, err := NewFitter(e, x, y, Start, Adam{LR: 0.05})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(4, 5))
	for range 5 {
		th := [3]float64{4*rng.Float64() - 2, 2 * rng.Float64(), 5 * rng.Float64()}
		copy(f.Theta, th[:])
		loss, err := f.Eval()
		if err != nil {
			t.Fatal(err)
		}
		var want float64
		var grad [3]float64
		for k := range n {
			r := Model(x[k], th) - y[k]
			want += r * r / n
			j := Jacobian(x[k], th)
			for i := range 3 {
				grad[i] += 2 * r * j[i] / n
			}
		}
		if math.Abs(loss-want) > 1e-13*want {
			t.Errorf("θ = %v: loss %.16g, closed form %.16g", th, loss, want)
		}
		for i := range 3 {
			if math.Abs(f.Grad[i]-grad[i]) > 1e-12*math.Max(norm(grad[:]), 1e-3) {
				t.Errorf("θ = %v: ∂L/∂θ[%d] = %.16g, closed form %.16g", th, i, f.Grad[i], grad[i])
			}
		}
	}
}

// TestStepAllocations checks that a steady-state step, the prepared
// program run by RunInto and the Adam update, allocates nothing.
func TestStepAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's sync.Pool drops items")
	}
	e := cpu.Serial()
	defer e.Close()
	x, y := Samples(200, Truth, 0.05, 1)
	f, err := NewFitter(e, x, y, Start, Adam{LR: 0.05})
	if err != nil {
		t.Fatal(err)
	}
	step := func() {
		if _, err := f.Step(); err != nil {
			t.Fatal(err)
		}
	}
	step()
	if a := testing.AllocsPerRun(100, step); a != 0 {
		t.Errorf("Adam step: %v allocations, want 0", a)
	}
}

// TestRun runs the program's report on a short fit.
func TestRun(t *testing.T) {
	if err := run(100, 0.05, 300, 0.05, 2); err != nil {
		t.Fatal(err)
	}
}
