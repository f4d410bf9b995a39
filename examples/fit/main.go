// Command fit fits the damped oscillation
//
//	f(x; θ) = a·exp(−b·x)·cos(c·x),   θ = (a, b, c),
//
// to n noisy samples y_k = f(x_k; θ*) + σ·ε_k on the grid x_k = 4k/(n−1),
// with ε_k standard normal from a seeded PCG generator, by minimizing the
// mean squared residual
//
//	L(θ) = (1/n) Σ_k (f(x_k; θ) − y_k)²
//
// with Adam, written out in a few lines. The loss is recorded once on a
// trace (θ is one input of three elements, split into a, b and c inside
// the trace); ad.ValueAndGrad turns it into the graph of (L, ∇L),
// program.Compile compiles that graph and program.Prepare binds it to an
// engine. Every step then runs the prepared program by RunInto into
// tensors that share memory with the optimizer's slices, and allocates
// nothing.
//
// The program prints the loss as it decreases, then the fitted parameters
// with their standard errors, the square roots of the diagonal of the
// least-squares covariance σ̂²·(JᵀJ)⁻¹ (J the n×3 Jacobian of f at the
// fit, σ̂² the residual variance), and how far each lies from the truth in
// units of its standard error.
//
// Usage:
//
//	go run ./examples/fit [-n 200] [-sigma 0.05] [-steps 1000] [-lr 0.05] [-seed 1]
package main

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/ad"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/program"
	"github.com/tenferro-go/tenferro/trace"
)

// Truth is the θ* = (a, b, c) the samples are drawn from, and Start the
// point the fit starts from.
var (
	Truth = [3]float64{2, 0.5, 3}
	Start = [3]float64{1, 1, 2.5}
)

func main() {
	n := flag.Int("n", 200, "number of samples")
	sigma := flag.Float64("sigma", 0.05, "standard deviation of the noise")
	steps := flag.Int("steps", 1000, "Adam steps")
	lr := flag.Float64("lr", 0.05, "initial Adam learning rate")
	seed := flag.Uint64("seed", 1, "seed of the noise")
	flag.Parse()
	if *n < 4 || *sigma < 0 || *steps < 1 || *lr <= 0 {
		fmt.Fprintln(os.Stderr, "fit: need -n ≥ 4, -sigma ≥ 0, -steps ≥ 1 and -lr > 0")
		os.Exit(2)
	}
	if err := run(*n, *sigma, *steps, *lr, *seed); err != nil {
		fmt.Fprintln(os.Stderr, "fit:", err)
		os.Exit(1)
	}
}

func run(n int, sigma float64, steps int, lr float64, seed uint64) error {
	e := cpu.Serial()
	defer e.Close()
	x, y := Samples(n, Truth, sigma, seed)
	f, err := NewFitter(e, x, y, Start, Adam{LR: lr})
	if err != nil {
		return err
	}
	fmt.Printf("f(x) = a·exp(−b·x)·cos(c·x), %d samples, noise σ = %g (seed %d)\n", n, sigma, seed)
	fmt.Printf("Adam from (a, b, c) = (%g, %g, %g), learning rate %g\n\n", Start[0], Start[1], Start[2], lr)
	fmt.Println("   step        loss            a          b          c")
	for k := 0; k <= steps; k++ {
		th := [3]float64(f.Theta) // θ_k, before step k
		var loss float64
		if k < steps {
			loss, err = f.Step()
		} else {
			loss, err = f.Eval()
		}
		if err != nil {
			return err
		}
		if k == 0 || k == steps || isRound(k) {
			fmt.Printf("  %5d  %.10f  %9.6f  %9.6f  %9.6f\n", k, loss, th[0], th[1], th[2])
		}
	}
	loss, th := f.loss[0], [3]float64(f.Theta)
	fmt.Printf("\n|∇L| = %.3e at the fit; loss·n/(n−3) = %.6f, σ² = %.6f\n",
		norm(f.Grad), loss*float64(n)/float64(n-3), sigma*sigma)
	se := StdErrors(x, y, th)
	fmt.Println("\n       fit         ± std. error    truth    (fit − truth)/error")
	for i, name := range []string{"a", "b", "c"} {
		ratio := "—" // no noise, no error bar
		if se[i] > 0 {
			ratio = fmt.Sprintf("%+.2f", (th[i]-Truth[i])/se[i])
		}
		fmt.Printf("  %s = %.6f ± %.6f   %6.3f   %s\n", name, th[i], se[i], Truth[i], ratio)
	}
	return nil
}

// Samples returns the grid x_k = 4k/(n−1) and y_k = f(x_k; θ) + σ·ε_k
// with ε_k standard normal from a PCG generator seeded by seed.
func Samples(n int, theta [3]float64, sigma float64, seed uint64) (x, y []float64) {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	x, y = make([]float64, n), make([]float64, n)
	for k := range n {
		x[k] = 4 * float64(k) / float64(n-1)
		y[k] = Model(x[k], theta) + sigma*rng.NormFloat64()
	}
	return x, y
}

// Model returns f(x; θ) = a·exp(−b·x)·cos(c·x).
func Model(x float64, theta [3]float64) float64 {
	return theta[0] * math.Exp(-theta[1]*x) * math.Cos(theta[2]*x)
}

// LossGraph records L(θ) = mean_k (a·exp(−b·x_k)·cos(c·x_k) − y_k)² for n
// samples. Its inputs are x (n), y (n) and θ = (a, b, c) (3), in that
// order; its output is the scalar loss.
func LossGraph(n int) (*trace.Graph, error) {
	tr := trace.New()
	x, err := tr.Input(tf.Float64, n)
	if err != nil {
		return nil, err
	}
	y, _ := tr.Input(tf.Float64, n)
	theta, _ := tr.Input(tf.Float64, 3)
	p, err := tr.Split(theta, 0, 3) // a, b, c, each of shape (1), broadcast over x
	if err != nil {
		return nil, err
	}
	a, b, c := p[0], p[1], p[2]
	bx, _ := tr.Mul(b, x)
	nbx, _ := tr.Negate(bx)
	decay, _ := tr.Exp(nbx)
	cx, _ := tr.Mul(c, x)
	osc, _ := tr.Cos(cx)
	shape, _ := tr.Mul(decay, osc)
	pred, _ := tr.Mul(a, shape)
	r, _ := tr.Sub(pred, y)
	sq, _ := tr.Square(r)
	loss, err := tr.Mean(sq)
	if err != nil { // a trace keeps its first error: checking the last result suffices
		return nil, err
	}
	return tr.Finish(loss)
}

// Adam holds the hyperparameters of the Adam update (Kingma and Ba),
// with the learning rate decayed as LR/(1 + k/Decay) at step k; zero
// fields take the defaults β₁ = 0.9, β₂ = 0.999, ε = 1e-8, Decay = 500.
type Adam struct {
	LR, Beta1, Beta2, Eps, Decay float64
}

func (o Adam) withDefaults() Adam {
	if o.Beta1 == 0 {
		o.Beta1 = 0.9
	}
	if o.Beta2 == 0 {
		o.Beta2 = 0.999
	}
	if o.Eps == 0 {
		o.Eps = 1e-8
	}
	if o.Decay == 0 {
		o.Decay = 500
	}
	return o
}

// Fitter minimizes the loss of [LossGraph] over θ by Adam, running the
// prepared program of (L, ∇L). Theta and Grad share memory with the
// program's input and output tensors.
type Fitter struct {
	Theta, Grad []float64

	pp   *program.Prepared
	ins  []tf.Value // x, y, θ
	outs []tf.Value // L, ∇L
	loss []float64  // the one element of L

	opt  Adam
	m, v []float64 // Adam's first and second moments
	k    int       // steps taken
}

// NewFitter prepares the value and gradient of the loss for the samples
// (x, y) on e, starting from θ = start.
func NewFitter(e tf.Engine, x, y []float64, start [3]float64, opt Adam) (*Fitter, error) {
	if len(x) != len(y) {
		return nil, fmt.Errorf("%d abscissas, %d ordinates", len(x), len(y))
	}
	g, err := LossGraph(len(x))
	if err != nil {
		return nil, err
	}
	vg, err := ad.ValueAndGrad(g, 2) // d/dθ: θ is input 2
	if err != nil {
		return nil, err
	}
	p, err := program.Compile(vg)
	if err != nil {
		return nil, err
	}
	pp, err := program.Prepare(p, e)
	if err != nil {
		return nil, err
	}
	f := &Fitter{Theta: start[:], Grad: make([]float64, 3), loss: make([]float64, 1), pp: pp,
		opt: opt.withDefaults(), m: make([]float64, 3), v: make([]float64, 3)}
	for _, s := range [][]float64{x, y, f.Theta} {
		t, err := tf.FromSlice(s, len(s))
		if err != nil {
			return nil, err
		}
		f.ins = append(f.ins, tf.ValueOf(t))
	}
	l, _ := tf.FromSlice(f.loss) // rank 0: one element
	gt, _ := tf.FromSlice(f.Grad, 3)
	f.outs = []tf.Value{tf.ValueOf(l), tf.ValueOf(gt)}
	return f, nil
}

// Eval runs the prepared program at the current θ: it returns L(θ) and
// leaves ∇L(θ) in Grad.
func (f *Fitter) Eval() (float64, error) {
	if err := f.pp.RunInto(f.outs, f.ins...); err != nil {
		return 0, err
	}
	return f.loss[0], nil
}

// Step evaluates L and ∇L at θ and takes one Adam step,
//
//	m ← β₁m + (1−β₁)g,  v ← β₂v + (1−β₂)g²,
//	θ ← θ − η_k·m̂/(√v̂ + ε),  m̂ = m/(1−β₁ᵏ), v̂ = v/(1−β₂ᵏ),
//
// and returns the loss before the step.
func (f *Fitter) Step() (float64, error) {
	loss, err := f.Eval()
	if err != nil {
		return 0, err
	}
	o := &f.opt
	f.k++
	lr := o.LR / (1 + float64(f.k-1)/o.Decay)
	c1 := 1 - math.Pow(o.Beta1, float64(f.k))
	c2 := 1 - math.Pow(o.Beta2, float64(f.k))
	for i, g := range f.Grad {
		f.m[i] = o.Beta1*f.m[i] + (1-o.Beta1)*g
		f.v[i] = o.Beta2*f.v[i] + (1-o.Beta2)*g*g
		f.Theta[i] -= lr * (f.m[i] / c1) / (math.Sqrt(f.v[i]/c2) + o.Eps)
	}
	return loss, nil
}

// StdErrors returns the standard errors of the least-squares estimate θ
// of the samples (x, y): the square roots of the diagonal of
// σ̂²·(JᵀJ)⁻¹, with J_kj = ∂f(x_k; θ)/∂θ_j and σ̂² = Σ_k r_k²/(n−3) the
// residual variance.
func StdErrors(x, y []float64, theta [3]float64) [3]float64 {
	var jtj [3][3]float64
	var rss float64
	for k := range x {
		j := Jacobian(x[k], theta)
		for p := range 3 {
			for q := range 3 {
				jtj[p][q] += j[p] * j[q]
			}
		}
		r := Model(x[k], theta) - y[k]
		rss += r * r
	}
	s2 := rss / float64(len(x)-3)
	inv := inverse3(jtj)
	return [3]float64{math.Sqrt(s2 * inv[0][0]), math.Sqrt(s2 * inv[1][1]), math.Sqrt(s2 * inv[2][2])}
}

// Jacobian returns ∇_θ f(x; θ) = (e·c, −a·x·e·c, −a·x·e·s) with
// e = exp(−b·x), c = cos(c·x) and s = sin(c·x).
func Jacobian(x float64, theta [3]float64) [3]float64 {
	a, b, c := theta[0], theta[1], theta[2]
	ex, co, si := math.Exp(-b*x), math.Cos(c*x), math.Sin(c*x)
	return [3]float64{ex * co, -a * x * ex * co, -a * x * ex * si}
}

// inverse3 returns the inverse of a 3×3 matrix by its adjugate.
func inverse3(m [3][3]float64) [3][3]float64 {
	var c [3][3]float64 // cofactors
	for i := range 3 {
		for j := range 3 {
			i1, i2 := (i+1)%3, (i+2)%3
			j1, j2 := (j+1)%3, (j+2)%3
			c[i][j] = m[i1][j1]*m[i2][j2] - m[i1][j2]*m[i2][j1]
		}
	}
	det := m[0][0]*c[0][0] + m[0][1]*c[0][1] + m[0][2]*c[0][2]
	var inv [3][3]float64
	for i := range 3 {
		for j := range 3 {
			inv[i][j] = c[j][i] / det
		}
	}
	return inv
}

// isRound reports whether k is 1, 2 or 5 times a power of ten.
func isRound(k int) bool {
	for k >= 10 && k%10 == 0 {
		k /= 10
	}
	return k == 1 || k == 2 || k == 5
}

func norm(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v * v
	}
	return math.Sqrt(s)
}
