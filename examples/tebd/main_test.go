package main

import (
	"fmt"
	"github.com/tenferro-go/tenferro/examples/internal/spin"
	"math"
	"math/cmplx"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/linalg"
)

// fullVector contracts the MPS into its 2^L amplitudes (site 0 fastest),
// independently of its canonical form.
func fullVector[T number](t *testing.T, e tf.Engine, m *MPS[T]) []T {
	t.Helper()
	v, err := tf.Copy(e, m.Sites[0])
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i < len(m.Sites); i++ {
		w, err := tf.Einsum(e, "apb,bqc->apqc", v, m.Sites[i])
		if err != nil {
			t.Fatal(err)
		}
		v.Release()
		if v, err = w.Reshape(1, 1<<(i+1), w.Dim(3)); err != nil {
			t.Fatal(err)
		}
	}
	d, err := v.Data()
	if err != nil {
		t.Fatal(err)
	}
	return append([]T(nil), d...)
}

func norm2[T number](v []T) float64 {
	s := 0.0
	for _, x := range v {
		s += spin.Abs2(x)
	}
	return s
}

// distance returns ‖a − b‖₂ / ‖b‖₂.
func distance[T number](a, b []T) float64 {
	s := 0.0
	for i := range a {
		s += spin.Abs2(a[i] - b[i])
	}
	return math.Sqrt(s / norm2(b))
}

// applyGate applies the two-site gate g to sites (i, i+1) of the dense
// state psi of L sites, viewed as (2^i, 2, 2, 2^{L−i−2}).
func applyGate[T number](t *testing.T, e tf.Engine, psi []T, g *tf.Tensor[T], L, i int) []T {
	t.Helper()
	x, err := tf.FromSlice(psi, 1<<i, 2, 2, 1<<(L-i-2))
	if err != nil {
		t.Fatal(err)
	}
	y, err := tf.Einsum(e, "xypq,apqc->axyc", g, x)
	if err != nil {
		t.Fatal(err)
	}
	d, _ := y.Data()
	out := append([]T(nil), d...)
	y.Release()
	return out
}

// trotterDense applies steps Trotter steps to the dense state psi: first
// order (even bonds by g, then odd bonds by g) when half is nil, second
// order (even by half, odd by g, even by half) otherwise.
func trotterDense[T number](t *testing.T, e tf.Engine, psi []T, g, half *tf.Tensor[T], L, steps int) []T {
	layer := func(first int, gate *tf.Tensor[T]) {
		for i := first; i+1 < L; i += 2 {
			psi = applyGate(t, e, psi, gate, L, i)
		}
	}
	for range steps {
		if half == nil {
			layer(0, g)
			layer(1, g)
			continue
		}
		layer(0, half)
		layer(1, g)
		layer(0, half)
	}
	return psi
}

// denseEnergy returns ⟨ψ|H|ψ⟩/⟨ψ|ψ⟩ by the bit-operation Hamiltonian.
func denseEnergy[T number](t *testing.T, e tf.Engine, psi []T, L int) float64 {
	t.Helper()
	x, _ := tf.FromSlice(psi, len(psi))
	hx, _ := tf.Zeros[T](len(psi))
	if err := spin.HeisenbergApply[T](L)(hx, x); err != nil {
		t.Fatal(err)
	}
	d, _ := hx.Data()
	var s complex128
	for i := range psi {
		s += cmplx.Conj(complexOf(psi[i])) * complexOf(d[i])
	}
	return real(s) / norm2(psi)
}

// setup returns the Néel MPS and the gate exp(c·h).
func setup[T number](t *testing.T, e tf.Engine, L int, c complex128) (*MPS[T], *tf.Tensor[T], *tf.Tensor[T]) {
	t.Helper()
	h, err := HeisenbergBond[T]()
	if err != nil {
		t.Fatal(err)
	}
	g, err := Gate(e, h, c)
	if err != nil {
		t.Fatal(err)
	}
	psi, err := NeelMPS[T](L)
	if err != nil {
		t.Fatal(err)
	}
	return psi, g, h
}

// halfGate returns exp(c·h/2) for the second-order step, or nil for the
// first order.
func halfGate[T number](t *testing.T, e tf.Engine, c complex128, order int) *tf.Tensor[T] {
	t.Helper()
	if order == 1 {
		return nil
	}
	h, _ := HeisenbergBond[T]()
	g, err := Gate(e, h, c/2)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestTruncationError(t *testing.T) {
	for _, order := range []int{1, 2} {
		t.Run(fmt.Sprintf("complex128/real-time/order%d", order), func(t *testing.T) { checkTruncation[complex128](t, complex(0, -0.3), order) })
		t.Run(fmt.Sprintf("float64/imaginary-time/order%d", order), func(t *testing.T) { checkTruncation[float64](t, -0.3, order) })
	}
}

// checkTruncation runs truncated steps without renormalization and checks
// every split: the reported error against the discarded weight of the
// full singular values (linalg.SVDVals) of the same θ, and the norm of the
// state after it, (1 − error)·‖θ‖², against a contraction of the whole
// MPS at the next split and after each step.
func checkTruncation[T number](t *testing.T, c complex128, order int) {
	e := cpu.Serial()
	defer e.Close()
	const L, chi = 10, 4
	psi, g, _ := setup[T](t, e, L, c)
	_, unitary := any(g.Storage()[0]).(complex128)
	expect, product, truncated := 1.0, 1.0, 0
	check := func(where string, got float64) {
		if math.Abs(got-expect) > 1e-12*expect {
			t.Errorf("%s: ⟨ψ|ψ⟩ = %.15g, want (1 − error)·‖θ‖² = %.15g", where, got, expect)
		}
	}
	ev := &TEBD[T]{E: e, Psi: psi, Gate: g, Half: halfGate[T](t, e, c, order), Trunc: linalg.Truncation{MaxRank: chi}}
	ev.Inspect = func(bond int, theta *tf.Tensor[T], info linalg.TruncationInfo) {
		check("before a split", norm2(fullVector(t, e, psi)))
		th, _ := theta.Data()
		n2 := norm2(th)
		if unitary && math.Abs(n2-expect) > 1e-12*expect {
			t.Errorf("bond %d: unitary gate changed ‖θ‖² from %.15g to %.15g", bond, expect, n2)
		}
		mat, err := theta.Reshape(theta.Dim(0)*2, 2*theta.Dim(3))
		if err != nil {
			t.Fatal(err)
		}
		s, err := linalg.SVDVals[float64](e, mat)
		if err != nil {
			t.Fatal(err)
		}
		sv, _ := s.Data()
		total, disc := 0.0, 0.0
		for j, x := range sv {
			total += x * x
			if j >= info.Rank {
				disc += x * x
			}
		}
		s.Release()
		want := disc / total
		if info.Rank > chi || info.Rank < min(chi, len(sv)) {
			t.Errorf("bond %d: rank %d of %d values, want min(χ=%d, %d)", bond, info.Rank, len(sv), chi, len(sv))
		}
		if math.Abs(info.Error-want) > 1e-12*want+1e-15 {
			t.Errorf("bond %d: info.Error = %.15g, discarded weight of SVDVals %.15g", bond, info.Error, want)
		}
		if want > 1e-6 {
			truncated++
		}
		expect = (1 - info.Error) * n2
		product *= 1 - info.Error
	}
	for k := range 6 {
		if _, err := ev.Step(); err != nil {
			t.Fatal(err)
		}
		check("after a step", norm2(fullVector(t, e, psi)))
		if unitary && math.Abs(expect-product) > 1e-12 {
			t.Errorf("step %d: ⟨ψ|ψ⟩ = %.15g, want Π(1 − error) = %.15g", k, expect, product)
		}
	}
	if truncated < 10 {
		t.Errorf("only %d splits truncated more than 1e-6: the test does not test", truncated)
	}
}

func TestRealTimeNoTruncationPreservesNorm(t *testing.T) {
	e := cpu.Serial()
	defer e.Close()
	const L = 9
	psi, g, h := setup[complex128](t, e, L, complex(0, -0.1))
	e0, err := Energy(e, psi, h)
	if err != nil {
		t.Fatal(err)
	}
	ev := &TEBD[complex128]{E: e, Psi: psi, Gate: g}
	for k := range 20 {
		info, err := ev.Step()
		if err != nil {
			t.Fatal(err)
		}
		for _, sp := range info.Splits {
			if sp.Error != 0 || sp.Discarded != 0 {
				t.Fatalf("step %d: nothing to truncate, got %+v", k, sp)
			}
		}
		if n := norm2(fullVector(t, e, psi)); math.Abs(n-1) > 1e-13*float64(k+1)*L {
			t.Errorf("step %d: ⟨ψ|ψ⟩ − 1 = %.3g", k, n-1)
		}
	}
	// The energy of a Trotterized evolution stays within O(dt) of E(0).
	en, err := Energy(e, psi, h)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(en-e0) > 0.05 {
		t.Errorf("energy %g after evolution from %g", en, e0)
	}
}

func TestImaginaryTimeLowersEnergy(t *testing.T) {
	e := cpu.Serial()
	defer e.Close()
	const L = 8
	psi, g, h := setup[float64](t, e, L, -0.05)
	ev := &TEBD[float64]{E: e, Psi: psi, Gate: g, Normalize: true}
	prev := denseEnergy(t, e, fullVector(t, e, psi), L)
	for k := range 40 {
		if _, err := ev.Step(); err != nil {
			t.Fatal(err)
		}
		v := fullVector(t, e, psi)
		en := denseEnergy(t, e, v, L)
		if !(en < prev) {
			t.Errorf("step %d: energy %.15g did not decrease from %.15g", k, en, prev)
		}
		got, err := Energy(e, psi, h)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got-en) > 1e-12 {
			t.Errorf("step %d: Energy %.15g, dense ⟨ψ|H|ψ⟩ %.15g", k, got, en)
		}
		if math.Abs(norm2(v)-1) > 1e-12 {
			t.Errorf("step %d: normalized state has ⟨ψ|ψ⟩ − 1 = %.3g", k, norm2(v)-1)
		}
		prev = en
	}
	e0, err := spin.GroundEnergy(e, L)
	if err != nil {
		t.Fatal(err)
	}
	if prev-e0 > 0.2 || prev < e0-1e-12 {
		t.Errorf("energy %g after τ = 2, ground state %g", prev, e0)
	}
}

func TestTrotterProduct(t *testing.T) {
	for _, order := range []int{1, 2} {
		t.Run(fmt.Sprintf("complex128/order%d", order), func(t *testing.T) { checkTrotterProduct[complex128](t, complex(0, -0.01), order) })
		t.Run(fmt.Sprintf("float64/order%d", order), func(t *testing.T) { checkTrotterProduct[float64](t, -0.01, order) })
	}
}

// checkTrotterProduct compares untruncated TEBD with the same Trotter
// product applied to the dense state vector.
func checkTrotterProduct[T number](t *testing.T, c complex128, order int) {
	e := cpu.Serial()
	defer e.Close()
	const L, steps = 8, 10
	psi, g, _ := setup[T](t, e, L, c)
	half := halfGate[T](t, e, c, order)
	want := trotterDense(t, e, fullVector(t, e, psi), g, half, L, steps)
	ev := &TEBD[T]{E: e, Psi: psi, Gate: g, Half: half}
	for range steps {
		if _, err := ev.Step(); err != nil {
			t.Fatal(err)
		}
	}
	if d := distance(fullVector(t, e, psi), want); d > 1e-10 {
		t.Errorf("‖ψ_TEBD − ψ_Trotter‖/‖ψ‖ = %.3g", d)
	}
}

// TestTrotterError compares TEBD with the exact evolution exp(−i·H·T)·ψ₀
// in the full space (linalg.ExpmV): the Trotter error is O(dt) for the
// first-order step and O(dt²) for the second-order one, halving or
// quartering with dt.
func TestTrotterError(t *testing.T) {
	e := cpu.Serial()
	defer e.Close()
	const L, T = 8, 0.2
	psi0, _, _ := setup[complex128](t, e, L, 0)
	v0, _ := tf.FromSlice(fullVector(t, e, psi0), 1<<L)
	x, _, err := linalg.ExpmV(e, spin.HeisenbergApply[complex128](L), complex(0, -T), v0, linalg.ExpmVOptions{Hermitian: true})
	if err != nil {
		t.Fatal(err)
	}
	exact, _ := x.Data()
	for _, order := range []int{1, 2} {
		var errs []float64
		for _, steps := range []int{10, 20} {
			dt := T / float64(steps)
			psi, g, _ := setup[complex128](t, e, L, complex(0, -dt))
			ev := &TEBD[complex128]{E: e, Psi: psi, Gate: g, Half: halfGate[complex128](t, e, complex(0, -dt), order)}
			for range steps {
				if _, err := ev.Step(); err != nil {
					t.Fatal(err)
				}
			}
			d := distance(fullVector(t, e, psi), exact)
			t.Logf("order %d, dt = %g: ‖ψ_TEBD − ψ_exact‖ = %.3e", order, dt, d)
			if d > T*math.Pow(dt, float64(order))*L {
				t.Errorf("order %d, dt = %g: error %.3g beyond the Trotter bound", order, dt, d)
			}
			errs = append(errs, d)
		}
		want := math.Pow(2, float64(order))
		if r := errs[0] / errs[1]; math.Abs(r-want) > 0.1*want {
			t.Errorf("order %d: error ratio %.3f for dt halved, want about %g", order, r, want)
		}
	}
}

// TestGroundEnergy checks the exact diagonalization: Eigsh on the bit
// operations against the dense spectrum (linalg.Eigvalsh) of the same
// operator and the known value for L = 8.
func TestGroundEnergy(t *testing.T) {
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
	wmin, _ := w.At(0)
	e0, err := spin.GroundEnergy(e, L)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(e0-wmin) > 1e-10 || math.Abs(e0-(-3.374932598687897)) > 1e-10 {
		t.Errorf("E0: Eigsh %.15f, Eigvalsh %.15f, known −3.374932598687897", e0, wmin)
	}
}
