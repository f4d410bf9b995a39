package main

import (
	"errors"
	"fmt"
	"math"
)

// ErrLineSearch reports a line search that found no point lowering f by
// the Armijo condition, in directions that were descent directions: at
// the precision limit of f, or a sign of a wrong gradient.
var ErrLineSearch = errors.New("lbfgs: line search found no decrease")

// LBFGS minimizes a smooth function f: ℝⁿ → ℝ by the limited-memory BFGS
// method (Nocedal and Wright, Numerical Optimization, 2nd ed., Algorithms
// 7.4 and 7.5): the inverse Hessian is the BFGS update of γ·I by the last
// m pairs s = x_{k+1} − x_k, y = ∇f_{k+1} − ∇f_k, applied to the gradient
// by the two-loop recursion, with γ = sᵀy/yᵀy of the newest pair. Each
// iteration searches along the direction d = −H·∇f by backtracking from the
// unit step (quadratic interpolation, clamped to [0.1, 0.5] of the previous
// trial) until the Armijo condition f(x + αd) ≤ f(x) + c₁·α·∇fᵀd holds,
// c₁ = 1e-4. A pair with sᵀy ≤ 1e-12·|s|·|y| (no positive curvature seen)
// is not stored; a direction that is not a descent direction drops the
// history and restarts from steepest descent.
//
// The optimizer works in place on X and G, which Eval shares: Eval returns
// f(X) and writes ∇f(X) into G. After NewLBFGS, a step allocates nothing.
type LBFGS struct {
	X, G []float64
	Eval func() (float64, error)

	F     float64 // f(X)
	Iter  int     // iterations taken
	Evals int     // calls of Eval

	s, y        [][]float64 // ring of the last m pairs, newest at head
	rho, alpha  []float64
	head, count int
	d, x0, g0   []float64
}

// NewLBFGS returns an optimizer keeping m pairs, on the vectors x and g
// that eval reads and writes. It evaluates f at x.
func NewLBFGS(m int, x, g []float64, eval func() (float64, error)) (*LBFGS, error) {
	if m < 1 || len(g) != len(x) {
		return nil, fmt.Errorf("lbfgs: memory %d, %d parameters, %d gradient elements: want m ≥ 1 and one gradient element per parameter", m, len(x), len(g))
	}
	n := len(x)
	o := &LBFGS{X: x, G: g, Eval: eval, rho: make([]float64, m), alpha: make([]float64, m),
		d: make([]float64, n), x0: make([]float64, n), g0: make([]float64, n)}
	for range m {
		o.s = append(o.s, make([]float64, n))
		o.y = append(o.y, make([]float64, n))
	}
	var err error
	o.F, err = eval()
	o.Evals++
	return o, err
}

// maxBacktracks bounds the trials of one line search.
const maxBacktracks = 40

// Step takes one iteration. On ErrLineSearch X, G and F are those before
// the step (and the history is dropped).
func (o *LBFGS) Step() error {
	d := o.d
	copy(d, o.G)
	o.applyH(d)
	scale(-1, d)
	dg := dot(o.G, d)
	if !(dg < 0) { // not a descent direction: restart from steepest descent
		o.count = 0
		copy(d, o.G)
		scale(-1/math.Max(norm(o.G), 1e-300), d)
		dg = dot(o.G, d)
	}
	copy(o.x0, o.X)
	copy(o.g0, o.G)
	f0 := o.F
	const c1 = 1e-4
	alpha := 1.0
	for trial := 0; ; trial++ {
		for i := range o.X {
			o.X[i] = o.x0[i] + alpha*d[i]
		}
		f, err := o.Eval()
		o.Evals++
		if err != nil {
			return err
		}
		if f <= f0+c1*alpha*dg {
			o.F = f
			break
		}
		if trial == maxBacktracks || dg == 0 {
			copy(o.X, o.x0)
			copy(o.G, o.g0)
			o.F, o.count = f0, 0
			return ErrLineSearch
		}
		// The minimizer of the quadratic through f0, the slope dg and f,
		// kept within [0.1, 0.5] of α (and away from NaN).
		q := -dg * alpha * alpha / (2 * (f - f0 - dg*alpha))
		if !(q >= 0.1*alpha) {
			q = 0.1 * alpha
		}
		alpha = math.Min(q, 0.5*alpha)
	}
	o.Iter++
	m := len(o.s)
	// Store the pair s = X − x0, y = G − g0 at head+1 when it shows
	// positive curvature (the slot holds the oldest pair until then).
	var sy, ss, yy float64
	for i := range o.X {
		si, yi := o.X[i]-o.x0[i], o.G[i]-o.g0[i]
		sy, ss, yy = sy+si*yi, ss+si*si, yy+yi*yi
	}
	if sy > 1e-12*math.Sqrt(ss*yy) {
		next := (o.head + 1) % m
		s, y := o.s[next], o.y[next]
		for i := range s {
			s[i] = o.X[i] - o.x0[i]
			y[i] = o.G[i] - o.g0[i]
		}
		o.rho[next] = 1 / sy
		o.head = next
		o.count = min(o.count+1, m)
	}
	return nil
}

// applyH sets q ← H·q by the two-loop recursion, H the L-BFGS inverse
// Hessian of the stored pairs; with none, q/|q| (a step of unit length).
func (o *LBFGS) applyH(q []float64) {
	if o.count == 0 {
		scale(1/math.Max(norm(q), 1e-300), q)
		return
	}
	m := len(o.s)
	for j := range o.count { // newest to oldest: q ← q − α_k·y_k, α_k = ρ_k·s_kᵀq
		k := (o.head - j + m) % m
		o.alpha[k] = o.rho[k] * dot(o.s[k], q)
		axpy(-o.alpha[k], o.y[k], q)
	}
	s, y := o.s[o.head], o.y[o.head]
	scale(dot(s, y)/dot(y, y), q)
	for j := o.count - 1; j >= 0; j-- { // oldest to newest: q ← q + s_k·(α_k − ρ_k·y_kᵀq)
		k := (o.head - j + m) % m
		axpy(o.alpha[k]-o.rho[k]*dot(o.y[k], q), o.s[k], q)
	}
}

func dot(a, b []float64) float64 {
	s := 0.0
	for i, x := range a {
		s += x * b[i]
	}
	return s
}

func norm(a []float64) float64 { return math.Sqrt(dot(a, a)) }

// axpy sets y ← y + α·x.
func axpy(alpha float64, x, y []float64) {
	for i, v := range x {
		y[i] += alpha * v
	}
}

func scale(alpha float64, x []float64) {
	for i := range x {
		x[i] *= alpha
	}
}
