package main

import (
	"fmt"
	"math"
	"math/rand/v2"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/ad"
	"github.com/tenferro-go/tenferro/program"
	"github.com/tenferro-go/tenferro/trace"
)

// HeisenbergMPO returns the site tensor W[w, v, t, s] of H = Σᵢ Sᵢ·Sᵢ₊₁
// as a matrix product operator of bond dimension 5 (w the left MPO bond,
// v the right one, t the bra spin, s the ket spin): lower triangular, the
// chain's left boundary selecting w = 4 and its right boundary v = 0.
// Spin index 0 is ↑ and 1 is ↓: S⁺ = |↑⟩⟨↓|, S⁻ = |↓⟩⟨↑|, Sᶻ = diag(½, −½),
// and Sᵢ·Sᵢ₊₁ = ½(Sᵢ⁺Sᵢ₊₁⁻ + Sᵢ⁻Sᵢ₊₁⁺) + SᵢᶻSᵢ₊₁ᶻ.
func HeisenbergMPO() (*tf.Tensor[float64], error) {
	w, err := tf.Zeros[float64](5, 5, 2, 2)
	if err != nil {
		return nil, err
	}
	for _, x := range []struct {
		w, v, t, s int
		val        float64
	}{
		{0, 0, 0, 0, 1}, {0, 0, 1, 1, 1}, // 1, after the bond
		{1, 0, 0, 1, 1},                       // S⁺
		{2, 0, 1, 0, 1},                       // S⁻
		{3, 0, 0, 0, 0.5}, {3, 0, 1, 1, -0.5}, // Sᶻ
		{4, 1, 1, 0, 0.5},                     // ½S⁻
		{4, 2, 0, 1, 0.5},                     // ½S⁺
		{4, 3, 0, 0, 0.5}, {4, 3, 1, 1, -0.5}, // Sᶻ
		{4, 4, 0, 0, 1}, {4, 4, 1, 1, 1}, // 1, before the bond
	} {
		if err := w.Set(x.val, x.w, x.v, x.t, x.s); err != nil {
			return nil, err
		}
	}
	return w, nil
}

// BondDims returns the bond dimensions D₀ … D_L of an open MPS of L spins
// ½ with bonds capped at χ: D_i = min(2^i, 2^(L−i), χ), the largest that
// can be full rank. With χ ≥ 2^⌊L/2⌋ the MPS holds every state exactly.
func BondDims(L, chi int) []int {
	d := make([]int, L+1)
	for i := range d {
		d[i] = min(1<<min(i, L-i), chi)
	}
	return d
}

// The einsum networks, with the MPS site A[a, s, c] (left bond, spin,
// right bond), the MPO site W[w, v, t, s] and the left environments
// E[a, w, b] (ket bond, MPO bond, bra bond) and N[a, b] (ket bond, bra
// bond). The state is real, so the bra is A itself.
const (
	// ⟨ψ|H|ψ⟩ grown by one site: E′ = E·A·W·A.
	energyNet = "awb,asc,wvts,btd->cvd"
	// ⟨ψ|ψ⟩ grown by one site: N′ = N·A·A.
	normNet = "ab,asc,bsd->cd"
)

// EnergyGraph records the Rayleigh quotient
//
//	E(A₀, …, A_{L−1}) = ⟨ψ|H|ψ⟩ / ⟨ψ|ψ⟩
//
// of the MPS with the bond dimensions dims (L+1 of them, D₀ = D_L = 1)
// and the MPO w of [HeisenbergMPO] on every site. Its inputs are the site
// tensors A_i of shapes (D_i, 2, D_{i+1}); its output is the scalar E. Both
// contractions run from the left, one einsum per site ([energyNet],
// [normNet]).
func EnergyGraph(dims []int, w *tf.Tensor[float64]) (*trace.Graph, error) {
	L := len(dims) - 1
	if L < 2 || dims[0] != 1 || dims[L] != 1 {
		return nil, fmt.Errorf("bond dimensions %v: want at least 2 sites and boundary bonds 1", dims)
	}
	tr := trace.New()
	a := make([]trace.Var, L)
	for i := range a {
		var err error
		if a[i], err = tr.Input(tf.Float64, dims[i], 2, dims[i+1]); err != nil {
			return nil, err
		}
	}
	wv, err := tr.Const(tf.ValueOf(w))
	if err != nil {
		return nil, err
	}
	// The boundaries: E starts at MPO index 4 and ends at index 0.
	left, _ := tf.Zeros[float64](1, 5, 1)
	right, _ := tf.Zeros[float64](1, 5, 1)
	left.Set(1, 0, 4, 0)
	right.Set(1, 0, 0, 0)
	env, _ := tr.Const(tf.ValueOf(left))
	rv, _ := tr.Const(tf.ValueOf(right))
	nrm, _ := tr.Full(tf.Float64, 1, 1, 1)
	for i := range L {
		env, _ = tr.Einsum(energyNet, env, a[i], wv, a[i])
		nrm, _ = tr.Einsum(normNet, nrm, a[i], a[i])
	}
	num, _ := tr.Einsum("awb,awb->", env, rv)
	den, _ := tr.Reshape(nrm)
	e, err := tr.Div(num, den)
	if err != nil { // a trace keeps its first error: checking the last result suffices
		return nil, err
	}
	return tr.Finish(e)
}

// Energy evaluates E and its gradient with respect to every site tensor
// by one prepared ValueAndGrad program. The site tensors are views of one
// flat vector X and their gradients views of G, so that an optimizer works
// on X and G directly; Eval reads X and writes G.
type Energy struct {
	Dims []int     // bond dimensions D₀ … D_L
	Off  []int     // site i is X[Off[i]:Off[i+1]], column-major (D_i, 2, D_{i+1})
	X, G []float64 // the MPS and ∇E

	pp   *program.Prepared
	ins  []tf.Value // A₀ … A_{L−1}
	outs []tf.Value // E, ∂E/∂A₀ … ∂E/∂A_{L−1}
	e    []float64  // the one element of E
}

// NewEnergy compiles the value and gradient of [EnergyGraph] for L sites
// and bonds capped at χ and prepares it on eng. X starts at zero; see
// [Energy.Randomize].
func NewEnergy(eng tf.Engine, L, chi int) (*Energy, error) {
	if L < 2 || chi < 1 {
		return nil, fmt.Errorf("L = %d, χ = %d: want L ≥ 2 and χ ≥ 1", L, chi)
	}
	dims := BondDims(L, chi)
	w, err := HeisenbergMPO()
	if err != nil {
		return nil, err
	}
	g, err := EnergyGraph(dims, w)
	if err != nil {
		return nil, err
	}
	wrt := make([]int, L)
	for i := range wrt {
		wrt[i] = i
	}
	vg, err := ad.ValueAndGrad(g, wrt...)
	if err != nil {
		return nil, err
	}
	p, err := program.Compile(vg)
	if err != nil {
		return nil, err
	}
	pp, err := program.Prepare(p, eng)
	if err != nil {
		return nil, err
	}
	en := &Energy{Dims: dims, Off: make([]int, L+1), pp: pp, e: make([]float64, 1)}
	for i := range L {
		en.Off[i+1] = en.Off[i] + dims[i]*2*dims[i+1]
	}
	en.X, en.G = make([]float64, en.Off[L]), make([]float64, en.Off[L])
	ev, _ := tf.FromSlice(en.e)
	en.outs = append(en.outs, tf.ValueOf(ev))
	for i := range L {
		x, err := tf.FromSlice(en.Site(i), dims[i], 2, dims[i+1])
		if err != nil {
			return nil, err
		}
		gr, _ := tf.FromSlice(en.G[en.Off[i]:en.Off[i+1]], dims[i], 2, dims[i+1])
		en.ins = append(en.ins, tf.ValueOf(x))
		en.outs = append(en.outs, tf.ValueOf(gr))
	}
	return en, nil
}

// Site returns the elements of A_i, a view of X.
func (en *Energy) Site(i int) []float64 { return en.X[en.Off[i]:en.Off[i+1]] }

// Randomize fills X with independent normal entries of variance
// 1/(2·D_i) on site i, which keeps the transfer matrices of the random
// MPS near norm 1.
func (en *Energy) Randomize(seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 0x3a5))
	for i := range len(en.Dims) - 1 {
		s := 1 / math.Sqrt(float64(2*en.Dims[i]))
		site := en.Site(i)
		for k := range site {
			site[k] = s * rng.NormFloat64()
		}
	}
}

// Eval returns E at X and writes ∇E into G.
func (en *Energy) Eval() (float64, error) {
	if err := en.pp.RunInto(en.outs, en.ins...); err != nil {
		return 0, err
	}
	return en.e[0], nil
}
