// Command dmrg finds the ground state of the open spin-½ Heisenberg chain
//
//	H = Σᵢ Sᵢ·Sᵢ₊₁   (i = 0 … L−2)
//
// by two-site DMRG on a matrix product state, written with the public API
// of tenferro only:
//
//   - H is a matrix product operator of bond dimension 5; the left and
//     right environments (the blocks of H projected on the orthonormal
//     parts of the MPS) grow one site at a time by tf.Einsum;
//   - the effective two-site Hamiltonian is the einsum network
//     L·W·W·R·θ, prepared once per shape by tf.PrepareEinsum and run by
//     tf.EinsumPlannedInto, and wrapped as the linalg.Operator of
//     linalg.Eigsh (a reused linalg.Lanczos), which finds its lowest
//     eigenpair warm-started from the current two-site tensor;
//   - the ground state θ is split by linalg.SVDSplit with
//     Truncation{MaxRank: χ, DiscardedWeight: w}, moving the orthogonality
//     center with the sweep;
//   - sweeps run until the energy changes by less than 1e-10.
//
// It runs in float64 and again in complex128 (same Hamiltonian, complex
// random start: the same energy), and compares with the exact ground-state
// energy of the full 2^L-dimensional H, found by linalg.Eigsh on a sparse
// apply built from bit operations.
//
// Usage:
//
//	go run ./examples/dmrg [-L 16] [-chi 64] [-threads 1]
package main

import (
	"flag"
	"fmt"
	"github.com/tenferro-go/tenferro/examples/internal/spin"
	"math"
	"os"
	"time"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/linalg"
	"github.com/tenferro-go/tenferro/team"
)

// Options of a DMRG run.
type Options struct {
	L, Chi    int     // sites and largest bond dimension
	Weight    float64 // largest discarded weight per split
	Tol       float64 // stop when a sweep changes the energy by less
	MaxSweeps int
	Seed      uint64 // of the random initial MPS
	Verbose   bool   // print the energy per sweep
}

func main() {
	var o Options
	flag.IntVar(&o.L, "L", 16, "number of sites")
	flag.IntVar(&o.Chi, "chi", 64, "largest bond dimension χ")
	flag.Float64Var(&o.Weight, "weight", 1e-12, "largest discarded weight per split")
	flag.Float64Var(&o.Tol, "tol", 1e-10, "energy change that ends the sweeps")
	flag.IntVar(&o.MaxSweeps, "sweeps", 30, "largest number of sweeps")
	threads := flag.Int("threads", 1, "engine threads (1: cpu.Serial)")
	flag.Parse()
	o.Seed, o.Verbose = 1, true
	if o.L < 2 || o.L > 24 {
		fmt.Fprintln(os.Stderr, "dmrg: -L must lie in [2, 24]")
		os.Exit(2)
	}
	if err := run(o, *threads); err != nil {
		fmt.Fprintln(os.Stderr, "dmrg:", err)
		os.Exit(1)
	}
}

func run(o Options, threads int) error {
	e, err := engine(threads)
	if err != nil {
		return err
	}
	defer e.Close()
	ed, err := spin.GroundEnergy(e, o.L)
	if err != nil {
		return err
	}
	fmt.Printf("open Heisenberg chain, L = %d, χ ≤ %d, discarded weight ≤ %g per split\n", o.L, o.Chi, o.Weight)
	fmt.Println("float64:")
	start := time.Now()
	er, _, err := Run[float64](e, o)
	if err != nil {
		return err
	}
	fmt.Printf("  %.2f s\n", time.Since(start).Seconds())
	fmt.Println("complex128:")
	start = time.Now()
	ec, _, err := Run[complex128](e, o)
	if err != nil {
		return err
	}
	fmt.Printf("  %.2f s\n", time.Since(start).Seconds())
	fmt.Printf("\nE_DMRG float64    = %.13f\n", er)
	fmt.Printf("E_DMRG complex128 = %.13f\n", ec)
	fmt.Printf("E_ED              = %.13f\n", ed)
	fmt.Printf("E_DMRG − E_ED     = %.3e (float64), %.3e (complex128)\n", er-ed, ec-ed)
	return nil
}

// engine returns a serial engine, or one with a team of the given width.
func engine(threads int) (*cpu.Engine, error) {
	if threads <= 1 {
		return cpu.Serial(), nil
	}
	t, err := team.New(team.Threads(threads))
	if err != nil {
		return nil, err
	}
	e, err := cpu.New(t)
	if err != nil {
		t.Close()
	}
	return e, err
}

// Run sweeps DMRG in T from a random MPS (bond dimension 4) until the
// energy changes by less than o.Tol, and returns the energy and the final
// state.
func Run[T number](e tf.Engine, o Options) (float64, *DMRG[T], error) {
	return RunWith[T](e, o, nil)
}

// RunWith is [Run] with an inspection hook on every split.
func RunWith[T number](e tf.Engine, o Options, inspect func(int, *tf.Tensor[T], linalg.TruncationInfo)) (float64, *DMRG[T], error) {
	w, err := HeisenbergMPO[T]()
	if err != nil {
		return 0, nil, err
	}
	d, err := NewDMRG(e, o.L, 4, o.Seed, w, linalg.Truncation{MaxRank: o.Chi, DiscardedWeight: o.Weight})
	if err != nil {
		return 0, nil, err
	}
	d.Inspect = inspect
	prev := math.Inf(1)
	for sweep := 1; sweep <= o.MaxSweeps; sweep++ {
		en, maxErr, err := d.Sweep()
		if err != nil {
			return 0, nil, err
		}
		if o.Verbose {
			delta := "        —"
			if sweep > 1 {
				delta = fmt.Sprintf("%9.2e", en-prev)
			}
			fmt.Printf("  sweep %2d  E = %.13f  ΔE = %s  max truncation error %.2e  max bond %d  matvecs %d\n",
				sweep, en, delta, maxErr, maxInt(d.Bonds()), d.Matvecs)
		}
		if math.Abs(en-prev) < o.Tol {
			return en, d, nil
		}
		prev = en
	}
	return prev, d, fmt.Errorf("energy not converged to %g in %d sweeps", o.Tol, o.MaxSweeps)
}

func maxInt(x []int) int {
	m := 0
	for _, v := range x {
		m = max(m, v)
	}
	return m
}
