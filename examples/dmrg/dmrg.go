package main

import (
	"math"
	"slices"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/examples/internal/spin"
	"github.com/tenferro-go/tenferro/linalg"
)

// number is the element types the program runs in; both have float64
// singular values and eigenvalues.
type number = spin.Number

// scalar converts the real x to T.
func scalar[T number](x float64) T {
	var z T
	switch p := any(&z).(type) {
	case *float64:
		*p = x
	case *complex128:
		*p = complex(x, 0)
	}
	return z
}

// HeisenbergMPO returns the matrix product operator of H = Σᵢ Sᵢ·Sᵢ₊₁,
// one tensor W[a, b, t, s] = ⟨t|W_ab|s⟩ (5, 5, 2, 2) for every site (MPO
// bond a on the left, b on the right, t the bra spin, s the ket spin),
// with the operator-valued matrix
//
//	W = ⎡ 1     0      0      0    0 ⎤
//	    ⎢ S⁺    0      0      0    0 ⎥
//	    ⎢ S⁻    0      0      0    0 ⎥
//	    ⎢ Sᶻ    0      0      0    0 ⎥
//	    ⎣ 0   ½S⁻    ½S⁺     Sᶻ    1 ⎦
//
// so that H = W[4, ·]·W·…·W[·, 0]: a path through the MPO bonds from 4
// to 0 places one bond term, Sᶻ⊗Sᶻ or ½(S⁻⊗S⁺ + S⁺⊗S⁻), on two
// neighbouring sites and the identity elsewhere. The boundary vectors
// (index 4 on the left, 0 on the right) are the edge environments.
func HeisenbergMPO[T number]() (*tf.Tensor[T], error) {
	w, err := tf.Zeros[T](5, 5, 2, 2)
	if err != nil {
		return nil, err
	}
	type entry struct {
		a, b, t, s int
		v          float64
	}
	// Spin index 0 is ↑, 1 is ↓: S⁺ = |↑⟩⟨↓|, S⁻ = |↓⟩⟨↑|, Sᶻ = diag(½, −½).
	for _, x := range []entry{
		{0, 0, 0, 0, 1}, {0, 0, 1, 1, 1}, // 1
		{1, 0, 0, 1, 1},                       // S⁺
		{2, 0, 1, 0, 1},                       // S⁻
		{3, 0, 0, 0, 0.5}, {3, 0, 1, 1, -0.5}, // Sᶻ
		{4, 1, 1, 0, 0.5},                     // ½S⁻
		{4, 2, 0, 1, 0.5},                     // ½S⁺
		{4, 3, 0, 0, 0.5}, {4, 3, 1, 1, -0.5}, // Sᶻ
		{4, 4, 0, 0, 1}, {4, 4, 1, 1, 1}, // 1
	} {
		if err := w.Set(scalar[T](x.v), x.a, x.b, x.t, x.s); err != nil {
			return nil, err
		}
	}
	return w, nil
}

// The einsum networks, with the MPS site A[a, s, c] (left bond, spin,
// right bond), its conjugate for the bra, the MPO site W[w, v, t, s] and
// environments E[a, w, b] (ket bond, MPO bond, bra bond).
const (
	// The effective two-site Hamiltonian on θ[a, s, u, c]: the result has
	// θ's shape, indexed by the bra bonds and spins.
	heffNet = "awb,wvts,vzxu,czd,asuc->btxd"
	// The left environment grown by one site, L′ = L·A·W·conj(A).
	leftNet = "awb,asc,wvts,btd->cvd"
	// The right environment grown by one site, R′ = A·W·conj(A)·R.
	rightNet = "asc,wvts,btd,cvd->awb"
)

// DMRG is two-site DMRG for the ground state of a chain Hamiltonian given
// as an MPO: sweeps over the bonds, each solving the two-site problem
// H_eff·θ = E·θ (the Hamiltonian projected on the span of the
// orthonormal left and right blocks) by linalg.Eigsh warm-started with the
// current θ, then splitting θ by linalg.SVDSplit under Trunc and moving
// the orthogonality center with the sweep. The energy is variational, an
// upper bound of the ground-state energy, and each local solve lowers it
// (to the Lanczos tolerance) below that of the state it starts from, which
// the previous split may have raised by its truncation.
type DMRG[T number] struct {
	E     tf.Engine
	A     []*tf.Tensor[T] // the MPS, A[i] (Dᵢ, 2, Dᵢ₊₁)
	W     *tf.Tensor[T]   // the MPO tensor of every site (5, 5, 2, 2)
	Trunc linalg.Truncation
	// Eigsh configures the local solves (zero: the lowest pair with the
	// default tolerance).
	Eigsh linalg.EigshOptions
	// Inspect, if set, is called with every two-site ground state θ
	// before its split and what the split kept.
	Inspect func(bond int, theta *tf.Tensor[T], info linalg.TruncationInfo)

	left, right []*tf.Tensor[T]           // left[i]: sites < i; right[i]: sites ≥ i
	plans       map[[2]int]*tf.EinsumPlan // H_eff networks by (Dᵢ, Dᵢ₊₂)
	lz          linalg.Lanczos[T]         // reused by every local solve
	res         linalg.EigshResult[T]

	Matvecs int // applications of H_eff so far
}

// NewDMRG starts DMRG from a random MPS of bond dimension at most d0
// (normal entries drawn from seed), brought to right-canonical form by an
// LQ sweep (linalg.LQSplit), with the right environments built.
func NewDMRG[T number](e tf.Engine, L, d0 int, seed uint64, w *tf.Tensor[T], tr linalg.Truncation) (*DMRG[T], error) {
	d := &DMRG[T]{E: e, A: make([]*tf.Tensor[T], L), W: w, Trunc: tr, plans: map[[2]int]*tf.EinsumPlan{}}
	dim := func(i int) int { return min(d0, 1<<min(i, L-i)) }
	for i := range L {
		a, err := tf.RandN[T](seed+uint64(i), dim(i), 2, dim(i+1))
		if err != nil {
			return nil, err
		}
		d.A[i] = a
	}
	for i := L - 1; i > 0; i-- {
		l, q, err := linalg.LQSplit(e, d.A[i], []int{0})
		if err != nil {
			return nil, err
		}
		prev, err := tf.Einsum(e, "apb,bc->apc", d.A[i-1], l)
		l.Release()
		if err != nil {
			return nil, err
		}
		d.A[i].Release()
		d.A[i-1].Release()
		d.A[i], d.A[i-1] = q, prev
	}
	// Normalize the center, site 0.
	a0, _ := d.A[0].Data()
	n := 0.0
	for _, x := range a0 {
		n += spin.Abs2(x)
	}
	for j := range a0 {
		a0[j] *= scalar[T](1 / math.Sqrt(n))
	}
	// The edge environments select MPO index 4 on the left, 0 on the right.
	d.left, d.right = make([]*tf.Tensor[T], L+1), make([]*tf.Tensor[T], L+1)
	var err error
	if d.left[0], err = tf.Zeros[T](1, 5, 1); err != nil {
		return nil, err
	}
	d.left[0].Set(1, 0, 4, 0)
	if d.right[L], err = tf.Zeros[T](1, 5, 1); err != nil {
		return nil, err
	}
	d.right[L].Set(1, 0, 0, 0)
	for i := L - 1; i >= 2; i-- {
		if err := d.growRight(i); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// replace sets *p = t, releasing the old tensor.
func replace[T number](p **tf.Tensor[T], t *tf.Tensor[T]) {
	if *p != nil {
		(*p).Release()
	}
	*p = t
}

// growLeft sets left[i+1] from left[i] and site i (tf.Einsum of leftNet).
func (d *DMRG[T]) growLeft(i int) error {
	bra, err := tf.Conj(d.E, d.A[i])
	if err != nil {
		return err
	}
	defer bra.Release()
	l, err := tf.Einsum(d.E, leftNet, d.left[i], d.A[i], d.W, bra)
	if err != nil {
		return err
	}
	replace(&d.left[i+1], l)
	return nil
}

// growRight sets right[i] from site i and right[i+1].
func (d *DMRG[T]) growRight(i int) error {
	bra, err := tf.Conj(d.E, d.A[i])
	if err != nil {
		return err
	}
	defer bra.Release()
	r, err := tf.Einsum(d.E, rightNet, d.A[i], d.W, bra, d.right[i+1])
	if err != nil {
		return err
	}
	replace(&d.right[i], r)
	return nil
}

// plan returns the prepared H_eff network for bond dimensions dl and dr
// (tf.PrepareEinsum once per pair, then reused by every matvec of every
// later solve with those dimensions).
func (d *DMRG[T]) plan(dl, dr int) (*tf.EinsumPlan, error) {
	if p, ok := d.plans[[2]int{dl, dr}]; ok {
		return p, nil
	}
	shapes := [][]int{{dl, 5, dl}, {5, 5, 2, 2}, {5, 5, 2, 2}, {dr, 5, dr}, {dl, 2, 2, dr}}
	p, err := tf.PrepareEinsum(tf.DTypeOf[T](), heffNet, shapes)
	if err != nil {
		return nil, err
	}
	d.plans[[2]int{dl, dr}] = p
	return p, nil
}

// Sweep runs one left-to-right and one right-to-left sweep over the bonds
// and returns the energy after it and the largest truncation error of its
// splits.
func (d *DMRG[T]) Sweep() (energy, maxErr float64, err error) {
	L := len(d.A)
	for i := 0; i+1 < L; i++ {
		if energy, err = d.optimize(i, true, &maxErr); err != nil {
			return
		}
	}
	for i := L - 2; i >= 0; i-- {
		if energy, err = d.optimize(i, false, &maxErr); err != nil {
			return
		}
	}
	return
}

// optimize solves the two-site problem on bond (i, i+1), whose blocks are
// orthonormal (the center is inside the bond):
//
//	θ = A_i·A_{i+1}                                  (tf.Einsum)
//	H_eff·θ = L_i·W·W·R_{i+2}·θ                        (tf.EinsumPlannedInto)
//	θ₀ = lowest eigenvector of H_eff, from θ            (linalg.Lanczos.Solve)
//	θ₀ ≈ U·diag(S)·Vᴴ                                  (linalg.SVDSplit)
//
// then, sweeping right, A_i = U (left orthonormal), A_{i+1} = S·Vᴴ/‖S‖ and
// L_{i+1} grows; sweeping left, A_i = U·S/‖S‖, A_{i+1} = Vᴴ and R_{i+1}.
func (d *DMRG[T]) optimize(i int, right bool, maxErr *float64) (float64, error) {
	e := d.E
	theta, err := tf.Einsum(e, "apb,bqc->apqc", d.A[i], d.A[i+1])
	if err != nil {
		return 0, err
	}
	defer theta.Release()
	p, err := d.plan(theta.Dim(0), theta.Dim(3))
	if err != nil {
		return 0, err
	}
	l, r := d.left[i], d.right[i+2]
	apply := func(dst, x *tf.Tensor[T]) error {
		return tf.EinsumPlannedInto(e, dst, p, l, d.W, d.W, r, x)
	}
	if v := d.res.Vectors; len(v) > 0 && !slices.Equal(v[0].Shape(), theta.Shape()) {
		// Solve would take new vectors of θ's shape and drop these.
		for _, x := range v {
			x.Release()
		}
		d.res.Vectors = v[:0]
	}
	if err := d.lz.Solve(e, apply, theta, d.Eigsh, &d.res); err != nil {
		return 0, err
	}
	d.Matvecs += d.res.Matvecs
	gs := d.res.Vectors[0]
	u, s, vh, info, err := linalg.SVDSplit[float64](e, gs, []int{0, 1}, d.Trunc)
	if err != nil {
		return 0, err
	}
	defer s.Release()
	if d.Inspect != nil {
		d.Inspect(i, gs, info)
	}
	*maxErr = math.Max(*maxErr, info.Error)
	st, err := weights[T](e, s)
	if err != nil {
		u.Release()
		vh.Release()
		return 0, err
	}
	defer st.Release()
	if right {
		v, err := tf.Einsum(e, "b,byc->byc", st, vh)
		vh.Release()
		if err != nil {
			u.Release()
			return 0, err
		}
		replace(&d.A[i], u)
		replace(&d.A[i+1], v)
		return d.res.Values[0], d.growLeft(i)
	}
	w, err := tf.Einsum(e, "axb,b->axb", u, st)
	u.Release()
	if err != nil {
		vh.Release()
		return 0, err
	}
	replace(&d.A[i], w)
	replace(&d.A[i+1], vh)
	return d.res.Values[0], d.growRight(i + 1)
}

// weights returns s/‖s‖₂ as a tensor of T from e's pool: the kept
// singular values, renormalized so that the truncated state has norm 1.
func weights[T number](e tf.Engine, s *tf.Tensor[float64]) (*tf.Tensor[T], error) {
	sv, err := s.Data()
	if err != nil {
		return nil, err
	}
	n := 0.0
	for _, x := range sv {
		n += x * x
	}
	st, err := tf.NewTensor[T](e, len(sv))
	if err != nil {
		return nil, err
	}
	dv, _ := st.Data()
	for j, x := range sv {
		dv[j] = scalar[T](x / math.Sqrt(n))
	}
	return st, nil
}

// Bonds returns the bond dimensions D₁, …, D_{L−1}.
func (d *DMRG[T]) Bonds() []int {
	b := make([]int, 0, len(d.A)-1)
	for _, a := range d.A[1:] {
		b = append(b, a.Dim(0))
	}
	return b
}
