package main

import (
	"github.com/tenferro-go/tenferro/examples/internal/spin"
	"math"
	"math/cmplx"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/linalg"
)

// splitChecker returns a DMRG inspection hook that checks every split:
// the reported truncation error against the discarded weight
// Σ_{j ≥ Rank} s_j² / Σ s_j² of the full singular values (linalg.SVDVals)
// of the same θ, and the rank against χ. It counts the splits that
// discarded more than 1e-9 in *truncated.
func splitChecker[T number](t *testing.T, e tf.Engine, chi int, truncated *int) func(int, *tf.Tensor[T], linalg.TruncationInfo) {
	return func(bond int, theta *tf.Tensor[T], info linalg.TruncationInfo) {
		mat, err := theta.Reshape(theta.Dim(0)*2, 2*theta.Dim(3))
		if err != nil {
			t.Fatal(err)
		}
		s, err := linalg.SVDVals[float64](e, mat)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Release()
		sv, _ := s.Data()
		total, disc := 0.0, 0.0
		for j, x := range sv {
			total += x * x
			if j >= info.Rank {
				disc += x * x
			}
		}
		want := disc / total
		if math.Abs(info.Error-want) > 1e-12*want+1e-15 {
			t.Errorf("bond %d: info.Error = %.15g, discarded weight of SVDVals %.15g", bond, info.Error, want)
		}
		if math.Abs(total-1) > 1e-12 {
			t.Errorf("bond %d: ‖θ‖² − 1 = %.3g for a unit eigenvector", bond, total-1)
		}
		if info.Rank > chi {
			t.Errorf("bond %d: rank %d above χ = %d", bond, info.Rank, chi)
		}
		if want > 1e-9 {
			*truncated++
		}
	}
}

// fullVector contracts the MPS into its 2^L amplitudes (site 0 fastest).
func fullVector[T number](t *testing.T, e tf.Engine, a []*tf.Tensor[T]) []T {
	t.Helper()
	v, err := tf.Copy(e, a[0])
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i < len(a); i++ {
		w, err := tf.Einsum(e, "apb,bqc->apqc", v, a[i])
		if err != nil {
			t.Fatal(err)
		}
		v.Release()
		if v, err = w.Reshape(1, 1<<(i+1), w.Dim(3)); err != nil {
			t.Fatal(err)
		}
	}
	d, _ := v.Data()
	return append([]T(nil), d...)
}

// widen returns x as complex128.
func widen[T number](x T) complex128 {
	switch v := any(x).(type) {
	case float64:
		return complex(v, 0)
	case complex128:
		return v
	}
	return 0
}

// expectation returns ⟨ψ|ψ⟩ and ⟨ψ|H|ψ⟩ of the dense state by the bit
// operations of HeisenbergApply.
func expectation[T number](t *testing.T, psi []T, L int) (n2, en float64) {
	t.Helper()
	x, _ := tf.FromSlice(psi, len(psi))
	hx, _ := tf.Zeros[T](len(psi))
	if err := spin.HeisenbergApply[T](L)(hx, x); err != nil {
		t.Fatal(err)
	}
	d, _ := hx.Data()
	var s complex128
	for i := range psi {
		n2 += spin.Abs2(psi[i])
		s += cmplx.Conj(widen(psi[i])) * widen(d[i])
	}
	return n2, real(s)
}

// TestMPO contracts the MPO of L = 5 sites into a 32×32 matrix and
// compares it with the bit-operation Hamiltonian column by column.
func TestMPO(t *testing.T) {
	e := cpu.Serial()
	defer e.Close()
	const L = 5
	w, err := HeisenbergMPO[float64]()
	if err != nil {
		t.Fatal(err)
	}
	// m[b, T, S]: the product of the first sites' W from the left
	// boundary (MPO index 4), bra spins T and ket spins S site 0 fastest.
	m, _ := w.Slice(0, 4, 5, 1)
	m, _ = tf.Copy(e, m)
	m, _ = m.Reshape(5, 2, 2)
	for i := 1; i < L; i++ {
		x, err := tf.Einsum(e, "aTS,abts->bTtSs", m, w)
		if err != nil {
			t.Fatal(err)
		}
		m, _ = x.Reshape(5, 1<<(i+1), 1<<(i+1))
	}
	h, _ := m.Slice(0, 0, 1, 1) // the right boundary, MPO index 0
	h, _ = tf.Copy(e, h)
	h, _ = h.Reshape(1<<L, 1<<L)
	apply := spin.HeisenbergApply[float64](L)
	for j := range 1 << L {
		x, _ := tf.Zeros[float64](1 << L)
		x.Set(1, j)
		y, _ := tf.Zeros[float64](1 << L)
		if err := apply(y, x); err != nil {
			t.Fatal(err)
		}
		for i := range 1 << L {
			want, _ := y.At(i)
			got, _ := h.At(i, j)
			if math.Abs(got-want) > 1e-15 {
				t.Fatalf("H[%d, %d]: MPO %g, bit operations %g", i, j, got, want)
			}
		}
	}
}

// TestExactDiagonalization checks the reference energies: Eigsh on the
// bit operations against the dense spectrum (linalg.Eigvalsh) for L = 8,
// and both against the known values for L = 8 and 10.
func TestExactDiagonalization(t *testing.T) {
	e := cpu.Serial()
	defer e.Close()
	const L = 8
	n := 1 << L
	h, _ := tf.Zeros[float64](n, n)
	apply := spin.HeisenbergApply[float64](L)
	for j := range n {
		col, _ := h.Slice(1, j, j+1, 1)
		col, _ = col.Reshape(n)
		x, _ := tf.Zeros[float64](n)
		x.Set(1, j)
		if err := apply(col, x); err != nil {
			t.Fatal(err)
		}
	}
	w, err := linalg.Eigvalsh[float64](e, h)
	if err != nil {
		t.Fatal(err)
	}
	dense, _ := w.At(0)
	for _, c := range []struct {
		L    int
		want float64
	}{{8, -3.374932598687897}, {10, -4.258035207282883}} {
		got, err := spin.GroundEnergy(e, c.L)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got-c.want) > 1e-10 {
			t.Errorf("L = %d: Eigsh E0 = %.15f, known %.15f", c.L, got, c.want)
		}
		if c.L == L && math.Abs(got-dense) > 1e-10 {
			t.Errorf("L = %d: Eigsh E0 = %.15f, Eigvalsh %.15f", L, got, dense)
		}
	}
}

func TestDMRG(t *testing.T) {
	cases := []struct {
		name   string
		L, chi int
		tol    float64 // on |E − E_ED|
	}{
		{"L8/exact", 8, 16, 1e-8},   // χ = 2^(L/2): no truncation needed
		{"L10/chi8", 10, 8, 1e-3},   // truncated: variational, above E0
		{"L10/chi24", 10, 24, 1e-8}, // nearly exact
		{"L16/chi64", 16, 64, 1e-8}, // the program's default
	}
	e := cpu.Serial()
	defer e.Close()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.L > 10 && testing.Short() {
				t.Skip("L = 16 under -short")
			}
			ed, err := spin.GroundEnergy(e, c.L)
			if err != nil {
				t.Fatal(err)
			}
			o := Options{L: c.L, Chi: c.chi, Weight: 1e-12, Tol: 1e-10, MaxSweeps: 30, Seed: 7}
			var truncated int
			er, dr := checkRun[float64](t, e, o, ed, c.tol, &truncated)
			ec, dc := checkRun[complex128](t, e, o, ed, c.tol, &truncated)
			if math.Abs(er-ec) > 1e-9 && c.tol < 1e-6 {
				t.Errorf("E float64 %.15f, complex128 %.15f", er, ec)
			}
			if c.chi == 8 && truncated < 10 {
				t.Errorf("only %d splits discarded more than 1e-9: the check does not test", truncated)
			}
			if c.L <= 10 {
				checkState(t, e, dr.A, er, c.L)
				checkState(t, e, dc.A, ec, c.L)
			}
		})
	}
}

// checkRun runs DMRG with the split checks and compares the energy with
// the exact one: within tol, and never below it (variational).
func checkRun[T number](t *testing.T, e tf.Engine, o Options, ed, tol float64, truncated *int) (float64, *DMRG[T]) {
	t.Helper()
	en, d, err := RunWith(e, o, splitChecker[T](t, e, o.Chi, truncated))
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(en-ed) > tol || en < ed-1e-10 {
		t.Errorf("%v: E_DMRG = %.15f, E_ED = %.15f, difference %.3g", tf.DTypeOf[T](), en, ed, en-ed)
	}
	return en, d
}

// checkState contracts the final MPS and checks that it is normalized and
// that its energy ⟨ψ|H|ψ⟩ is the reported eigenvalue.
func checkState[T number](t *testing.T, e tf.Engine, a []*tf.Tensor[T], en float64, L int) {
	t.Helper()
	n2, h := expectation(t, fullVector(t, e, a), L)
	if math.Abs(n2-1) > 1e-12 {
		t.Errorf("⟨ψ|ψ⟩ − 1 = %.3g", n2-1)
	}
	if math.Abs(h-en) > 1e-9 {
		t.Errorf("⟨ψ|H|ψ⟩ = %.15f, DMRG energy %.15f", h, en)
	}
}

// TestSweepsLowerEnergy checks that every sweep lowers the energy (or
// keeps it, to the Lanczos tolerance).
func TestSweepsLowerEnergy(t *testing.T) {
	e := cpu.Serial()
	defer e.Close()
	w, _ := HeisenbergMPO[float64]()
	d, err := NewDMRG(e, 12, 2, 3, w, linalg.Truncation{MaxRank: 12})
	if err != nil {
		t.Fatal(err)
	}
	prev := math.Inf(1)
	for k := range 5 {
		en, _, err := d.Sweep()
		if err != nil {
			t.Fatal(err)
		}
		if en > prev+1e-10 {
			t.Errorf("sweep %d: energy rose from %.15f to %.15f", k, prev, en)
		}
		prev = en
	}
}
