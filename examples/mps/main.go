// Command mps finds the ground state of the open spin-½ Heisenberg chain
//
//	H = Σᵢ Sᵢ·Sᵢ₊₁   (i = 0 … L−2)
//
// by minimizing the energy of a matrix product state over all its tensors
// at once, by automatic differentiation:
//
//   - the MPS has site tensors A_i[a, s, c] of shapes (D_i, 2, D_{i+1})
//     with D_i = min(2^i, 2^(L−i), χ); with χ ≥ 2^⌊L/2⌋ it holds every
//     state of the chain, so the minimum is the exact ground-state energy;
//   - H is the matrix product operator of bond dimension 5, and the
//     Rayleigh quotient E(A) = ⟨ψ|H|ψ⟩/⟨ψ|ψ⟩ is recorded on a trace as
//     two chains of einsums from the left (one per site for ⟨ψ|H|ψ⟩, one
//     for ⟨ψ|ψ⟩) and a division;
//   - ad.ValueAndGrad gives the graph of E and ∂E/∂A_i for every site,
//     compiled once by program.Compile and prepared by program.Prepare;
//     every evaluation is one RunInto into views of the optimizer's
//     gradient vector, reading views of its parameter vector;
//   - a small L-BFGS (lbfgs.go) minimizes E from a random MPS.
//
// The energy is printed at intervals with its distance to the exact
// ground-state energy E₀ of the full 2^L-dimensional H, found by Lanczos
// (linalg.Eigsh) on its bit-operation form. The run succeeds when
// E − E₀ ≤ 1e-6, an absolute error (E is variational: E ≥ E₀ always).
//
// Usage:
//
//	go run ./examples/mps [-L 10] [-chi 32] [-iters 2000] [-m 50] [-seed 1] [-every 100]
package main

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"time"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/examples/internal/spin"
)

// Options of a minimization.
type Options struct {
	L, Chi int
	Seed   uint64 // of the random initial MPS
	Memory int    // L-BFGS pairs kept
	// MaxIter bounds the L-BFGS iterations (each one evaluation of E and
	// ∇E, more when the line search backtracks: about 4% more in these
	// runs). Plain L-BFGS converges only linearly on this problem (besides
	// the scale of each A_i, E is invariant under the gauge changes
	// A_i → A_i·X, A_{i+1} → X⁻¹·A_{i+1}, so its Hessian is singular at
	// the minimum): with 50 pairs, E − E₀ falls below
	// 1e-6 after 680–1010 iterations for L = 8, χ = 16 (seeds 1–4) and
	// about 1030 for L = 10, χ = 32 (seed 1), and below 3e-7 after the
	// default bound of 2000.
	MaxIter int
	// Tol ends the run when the energy has decreased by less than Tol over
	// the last 20 iterations.
	Tol   float64
	Every int // print every Every iterations (0: never)
}

// Result of a minimization.
type Result struct {
	E        float64 // the final energy
	Iter     int     // L-BFGS iterations
	Evals    int     // evaluations of E and ∇E
	GradNorm float64 // |∇E| at the end
	Energy   *Energy // the evaluator, holding the final MPS in X
}

func main() {
	o := Options{Tol: 1e-13}
	flag.IntVar(&o.L, "L", 10, "number of sites")
	flag.IntVar(&o.Chi, "chi", 32, "largest bond dimension χ")
	flag.IntVar(&o.MaxIter, "iters", 2000, "largest number of L-BFGS iterations")
	flag.Uint64Var(&o.Seed, "seed", 1, "seed of the random initial MPS")
	flag.IntVar(&o.Every, "every", 100, "print the energy every this many iterations")
	flag.IntVar(&o.Memory, "m", 50, "L-BFGS memory (pairs kept)")
	flag.Parse()
	if o.L < 2 || o.L > 20 || o.Chi < 1 || o.MaxIter < 1 || o.Memory < 1 {
		fmt.Fprintln(os.Stderr, "mps: -L must lie in [2, 20], -chi, -iters and -m be positive")
		os.Exit(2)
	}
	if err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, "mps:", err)
		os.Exit(1)
	}
}

func run(o Options) error {
	e := cpu.Serial()
	defer e.Close()
	e0, err := spin.GroundEnergy(e, o.L)
	if err != nil {
		return err
	}
	dims := BondDims(o.L, o.Chi)
	fmt.Printf("open Heisenberg chain, L = %d, MPS bonds %v (χ = %d)\n", o.L, dims, o.Chi)
	fmt.Printf("E₀ (Lanczos on the full space) = %.13f\n\n", e0)
	fmt.Println("   iter  evals         E              E − E₀      |∇E|")
	start := time.Now()
	res, err := Minimize(e, o, func(it, evals int, en, g float64) {
		fmt.Printf("  %5d  %5d  %.13f  %.3e  %.3e\n", it, evals, en, en-e0, g)
	})
	if err != nil {
		return err
	}
	el := time.Since(start)
	fmt.Printf("\n%d parameters, %d iterations, %d evaluations of E and ∇E in %.2f s (%.0f µs per evaluation)\n",
		len(res.Energy.X), res.Iter, res.Evals, el.Seconds(), el.Seconds()/float64(res.Evals)*1e6)
	fmt.Printf("E_MPS      = %.13f\n", res.E)
	fmt.Printf("E₀         = %.13f\n", e0)
	fmt.Printf("E_MPS − E₀ = %.3e (absolute; relative %.3e)\n", res.E-e0, (res.E-e0)/math.Abs(e0))
	if res.E-e0 > 1e-6 {
		return fmt.Errorf("E_MPS − E₀ = %.3e above 1e-6", res.E-e0)
	}
	return nil
}

// Minimize minimizes E over a random MPS of o.L sites and bonds capped at
// o.Chi by L-BFGS on the prepared value and gradient, for at most
// o.MaxIter iterations, until the energy decreases by less than o.Tol over
// 20 iterations or the line search finds no decrease (the precision limit).
// When o.Every > 0 it calls report(iteration, evaluations, E, |∇E|) on the
// start, every o.Every iterations and at the end.
func Minimize(eng tf.Engine, o Options, report func(it, evals int, e, g float64)) (*Result, error) {
	en, err := NewEnergy(eng, o.L, o.Chi)
	if err != nil {
		return nil, err
	}
	en.Randomize(o.Seed)
	opt, err := NewLBFGS(o.Memory, en.X, en.G, en.Eval)
	if err != nil {
		return nil, err
	}
	const window = 20
	hist := make([]float64, window) // the energy of the last iterations
	show := func() {
		if o.Every > 0 {
			report(opt.Iter, opt.Evals, opt.F, norm(opt.G))
		}
	}
	show()
	for opt.Iter < o.MaxIter {
		hist[opt.Iter%window] = opt.F
		if err := opt.Step(); errors.Is(err, ErrLineSearch) {
			break
		} else if err != nil {
			return nil, err
		}
		if o.Every > 0 && opt.Iter%o.Every == 0 {
			show()
		}
		if opt.Iter >= window && hist[opt.Iter%window]-opt.F < o.Tol {
			break
		}
	}
	if o.Every > 0 && opt.Iter%o.Every != 0 {
		show()
	}
	return &Result{E: opt.F, Iter: opt.Iter, Evals: opt.Evals, GradNorm: norm(opt.G), Energy: en}, nil
}
