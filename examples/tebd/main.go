// Command tebd evolves the open spin-½ Heisenberg chain
//
//	H = Σᵢ Sᵢ·Sᵢ₊₁   (i = 0 … L−2)
//
// as a matrix product state by time-evolving block decimation (TEBD),
// written with the public API of tenferro only:
//
//   - the two-site gate G = exp(−i·h·dt) (complex128), or exp(−h·dτ)
//     (float64) for imaginary time, is linalg.Expm of the 4×4 bond
//     Hamiltonian h;
//   - a gate acts on two neighbouring MPS tensors by one tf.Einsum,
//     θ = G·A_i·A_{i+1};
//   - θ is split back by linalg.SVDSplit with a linalg.Truncation
//     (MaxRank χ and a DiscardedWeight bound) and the singular values are
//     absorbed into the site the sweep moves to;
//   - a Trotter step applies the gates of the even bonds, then those of
//     the odd bonds (first order), or half steps on the even bonds around
//     a full step on the odd ones (second order, the default), keeping
//     the orthogonality center inside the bond being updated
//     (linalg.QRSplit and linalg.LQSplit move it).
//
// The real-time run starts from the Néel state |↑↓↑↓…⟩ and prints per step
// the bond dimensions, the largest and summed truncation errors and the
// energy (conserved by the exact evolution). The imaginary-time run
// projects the Néel state onto the ground state, exp(−H·τ)|ψ⟩ normalized,
// and prints the energy as it converges to the exact ground-state energy,
// found by linalg.Eigsh on the full 2^L space.
//
// Usage:
//
//	go run ./examples/tebd [-L 16] [-chi 32] [-dt 0.05] [-steps 20] [-dtau 0.2,0.1,0.05] [-isteps 60] [-order 2] [-threads 1]
package main

import (
	"flag"
	"fmt"
	"github.com/tenferro-go/tenferro/examples/internal/spin"
	"os"
	"strconv"
	"strings"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/linalg"
	"github.com/tenferro-go/tenferro/team"
)

func main() {
	L := flag.Int("L", 16, "number of sites")
	chi := flag.Int("chi", 32, "largest bond dimension χ")
	weight := flag.Float64("weight", 1e-12, "largest discarded weight per split")
	dt := flag.Float64("dt", 0.05, "real time step")
	steps := flag.Int("steps", 20, "real-time steps")
	dtaus := flag.String("dtau", "0.2,0.1,0.05", "imaginary time steps (comma-separated schedule)")
	isteps := flag.Int("isteps", 60, "imaginary-time steps per entry of -dtau")
	order := flag.Int("order", 2, "Trotter order, 1 or 2")
	threads := flag.Int("threads", 1, "engine threads (1: cpu.Serial)")
	flag.Parse()
	if *L < 2 || *L > 24 || *order < 1 || *order > 2 {
		fmt.Fprintln(os.Stderr, "tebd: -L must lie in [2, 24] and -order be 1 or 2")
		os.Exit(2)
	}
	schedule, err := parseList(*dtaus)
	if err != nil {
		fmt.Fprintln(os.Stderr, "tebd:", err)
		os.Exit(2)
	}
	e, err := engine(*threads)
	if err == nil {
		defer e.Close()
		tr := linalg.Truncation{MaxRank: *chi, DiscardedWeight: *weight}
		err = realTime(e, *L, *order, tr, *dt, *steps)
		if err == nil {
			err = imaginaryTime(e, *L, *order, tr, schedule, *isteps)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "tebd:", err)
		os.Exit(1)
	}
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

// newTEBD returns the evolution of psi by steps exp(c·H) of the given
// Trotter order (1 or 2), renormalizing after every split.
func newTEBD[T number](e tf.Engine, psi *MPS[T], h *tf.Tensor[T], c complex128, order int, tr linalg.Truncation) (*TEBD[T], error) {
	g, err := Gate(e, h, c)
	if err != nil {
		return nil, err
	}
	ev := &TEBD[T]{E: e, Psi: psi, Gate: g, Trunc: tr, Normalize: true}
	if order == 2 {
		if ev.Half, err = Gate(e, h, c/2); err != nil {
			return nil, err
		}
	}
	return ev, nil
}

// realTime evolves the Néel state by exp(−i·H·t) in complex128.
func realTime(e tf.Engine, L, order int, tr linalg.Truncation, dt float64, steps int) error {
	h, err := HeisenbergBond[complex128]()
	if err != nil {
		return err
	}
	psi, err := NeelMPS[complex128](L)
	if err != nil {
		return err
	}
	ev, err := newTEBD(e, psi, h, complex(0, -dt), order, tr)
	if err != nil {
		return err
	}
	fmt.Printf("real time: L = %d, dt = %g, Trotter order %d, χ ≤ %d, discarded weight ≤ %g per split\n", L, dt, order, tr.MaxRank, tr.DiscardedWeight)
	fmt.Printf("%6s  %-12s %-12s %-14s %s\n", "t", "max error", "sum error", "energy", "bond dimensions")
	for k := 1; k <= steps; k++ {
		info, err := ev.Step()
		if err != nil {
			return err
		}
		en, err := Energy(e, psi, h)
		if err != nil {
			return err
		}
		fmt.Printf("%6.3f  %-12.3e %-12.3e %-14.10f %s\n", float64(k)*dt, info.MaxError(), info.SumError(), en, dims(psi.Bonds()))
	}
	return nil
}

// imaginaryTime projects the Néel state onto the ground state by
// exp(−H·τ) in float64, with the time steps of the schedule dtaus taken
// steps times each: large steps reach the ground state quickly, small ones
// shrink the O(dτ) Trotter error of the fixed point.
func imaginaryTime(e tf.Engine, L, order int, tr linalg.Truncation, dtaus []float64, steps int) error {
	h, err := HeisenbergBond[float64]()
	if err != nil {
		return err
	}
	psi, err := NeelMPS[float64](L)
	if err != nil {
		return err
	}
	e0, err := spin.GroundEnergy(e, L)
	if err != nil {
		return err
	}
	fmt.Printf("\nimaginary time: L = %d, dτ = %v, Trotter order %d, exact E0 = %.12f\n", L, dtaus, order, e0)
	fmt.Printf("%6s  %-6s %-12s %-16s %-12s %s\n", "τ", "dτ", "max error", "energy", "E − E0", "bond dimensions")
	tau := 0.0
	for _, dtau := range dtaus {
		ev, err := newTEBD(e, psi, h, complex(-dtau, 0), order, tr)
		if err != nil {
			return err
		}
		for k := 1; k <= steps; k++ {
			info, err := ev.Step()
			if err != nil {
				return err
			}
			tau += dtau
			if k%10 != 0 {
				continue
			}
			en, err := Energy(e, psi, h)
			if err != nil {
				return err
			}
			fmt.Printf("%6.2f  %-6g %-12.3e %-16.12f %-12.3e %s\n", tau, dtau, info.MaxError(), en, en-e0, dims(psi.Bonds()))
		}
		ev.Gate.Release()
		if ev.Half != nil {
			ev.Half.Release()
		}
	}
	return nil
}

// parseList parses comma-separated positive numbers.
func parseList(s string) ([]float64, error) {
	var out []float64
	for _, f := range strings.Split(s, ",") {
		x, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || !(x > 0) {
			return nil, fmt.Errorf("bad time step %q", f)
		}
		out = append(out, x)
	}
	return out, nil
}

// dims formats bond dimensions compactly.
func dims(d []int) string {
	var b strings.Builder
	for i, x := range d {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprint(&b, x)
	}
	return b.String()
}
