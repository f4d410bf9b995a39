package main

import (
	"math"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/examples/internal/spin"
	"github.com/tenferro-go/tenferro/linalg"
)

// number is the element types the program runs in: float64 for
// imaginary-time evolution, complex128 for real time. Both have float64
// singular values.
type number = spin.Number

// scalar converts c to T (its real part for float64).
func scalar[T number](c complex128) T {
	var z T
	switch p := any(&z).(type) {
	case *float64:
		*p = real(c)
	case *complex128:
		*p = c
	}
	return z
}

// MPS is a matrix product state of L spins ½ on an open chain,
//
//	ψ(s₀, …, s_{L−1}) = A₀[s₀]·A₁[s₁]···A_{L−1}[s_{L−1}],
//
// each Sites[i] a tensor A_i (Dᵢ, 2, Dᵢ₊₁) (left bond, spin, right bond;
// column-major, D₀ = D_L = 1), spin index 0 for ↑ and 1 for ↓. It is kept
// in mixed canonical form about Center: the sites left of it are left
// orthonormal (Σ_{a,s} conj(A[a,s,b])·A[a,s,b′] = δ_{bb′}), those right of
// it right orthonormal, so that ⟨ψ|ψ⟩ = ‖A_Center‖²_F and the truncated
// SVD of a two-site tensor that holds the center is the best truncation
// of the whole state (in its 2-norm).
type MPS[T number] struct {
	Sites  []*tf.Tensor[T]
	Center int
}

// NeelMPS returns the product state |↑↓↑↓…⟩ on L sites (bond dimension 1;
// every site is both left and right orthonormal).
func NeelMPS[T number](L int) (*MPS[T], error) {
	m := &MPS[T]{Sites: make([]*tf.Tensor[T], L)}
	for i := range L {
		a, err := tf.Zeros[T](1, 2, 1)
		if err != nil {
			return nil, err
		}
		if err := a.Set(1, 0, i%2, 0); err != nil {
			return nil, err
		}
		m.Sites[i] = a
	}
	return m, nil
}

// Bonds returns the bond dimensions D₁, …, D_{L−1}.
func (m *MPS[T]) Bonds() []int {
	d := make([]int, 0, len(m.Sites)-1)
	for _, a := range m.Sites[1:] {
		d = append(d, a.Dim(0))
	}
	return d
}

// Norm2 returns ⟨ψ|ψ⟩ = ‖A_Center‖²_F.
func (m *MPS[T]) Norm2() float64 {
	c, _ := m.Sites[m.Center].Data()
	s := 0.0
	for _, x := range c {
		s += spin.Abs2(x)
	}
	return s
}

// set replaces site i by a, releasing the old tensor.
func (m *MPS[T]) set(i int, a *tf.Tensor[T]) {
	m.Sites[i].Release()
	m.Sites[i] = a
}

// MoveCenter moves the orthogonality center to site to, one bond at a
// time: rightwards by the QR of A_c over (left bond, spin),
// A_c = Q·R with Q the new left-orthonormal site and R absorbed by
// A_{c+1} = R·A_{c+1} (linalg.QRSplit and tf.Einsum); leftwards by the LQ
// of A_c over (spin, right bond) alike (linalg.LQSplit).
func (m *MPS[T]) MoveCenter(e tf.Engine, to int) error {
	for m.Center < to {
		c := m.Center
		q, r, err := linalg.QRSplit(e, m.Sites[c], []int{0, 1})
		if err != nil {
			return err
		}
		next, err := tf.Einsum(e, "ab,bpc->apc", r, m.Sites[c+1])
		r.Release()
		if err != nil {
			q.Release()
			return err
		}
		m.set(c, q)
		m.set(c+1, next)
		m.Center++
	}
	for m.Center > to {
		c := m.Center
		l, q, err := linalg.LQSplit(e, m.Sites[c], []int{0})
		if err != nil {
			return err
		}
		prev, err := tf.Einsum(e, "apb,bc->apc", m.Sites[c-1], l)
		l.Release()
		if err != nil {
			q.Release()
			return err
		}
		m.set(c, q)
		m.set(c-1, prev)
		m.Center--
	}
	return nil
}

// TEBD applies Trotter steps of time evolution to an MPS: with
// H = H_even + H_odd, the sums over the bonds (i, i+1) with i even and
// odd, each a sum of commuting terms, the first-order step
//
//	exp(c·H) ≈ exp(c·H_odd)·exp(c·H_even) = Π_odd G · Π_even G
//
// errs by O(c²·‖[H_even, H_odd]‖) per step, the second-order (Strang)
// step exp(c·H_even/2)·exp(c·H_odd)·exp(c·H_even/2) by O(c³). Every gate is
// applied to the two-site tensor θ = A_i·A_{i+1} and θ is split back by a
// truncated SVD.
type TEBD[T number] struct {
	E    tf.Engine
	Psi  *MPS[T]
	Gate *tf.Tensor[T] // the two-site gate exp(c·h) (2, 2, 2, 2)
	// Half, if set, is the half-step gate exp(c·h/2) and makes the step
	// the second-order one: Half on the even bonds, Gate on the odd ones,
	// Half on the even ones again.
	Half  *tf.Tensor[T]
	Trunc linalg.Truncation // the truncation of every split
	// Normalize rescales the kept singular values to unit norm after
	// every split (the state stays normalized); without it ⟨ψ|ψ⟩ after a
	// split is (1 − info.Error)·‖θ‖².
	Normalize bool
	// Inspect, if set, is called with every gated two-site tensor θ
	// (Dᵢ, 2, 2, Dᵢ₊₂), before the split, and what the split kept.
	Inspect func(bond int, theta *tf.Tensor[T], info linalg.TruncationInfo)
}

// Split reports the truncation of one bond update.
type Split struct {
	Bond int // the bond (Bond, Bond+1)
	linalg.TruncationInfo
}

// StepInfo reports a step: its splits in the order they were made.
type StepInfo struct {
	Splits []Split
}

// MaxError returns the largest truncation error of the step.
func (s StepInfo) MaxError() float64 {
	m := 0.0
	for _, b := range s.Splits {
		m = math.Max(m, b.Error)
	}
	return m
}

// SumError returns the sum of the step's truncation errors, the loss of
// fidelity of the step to first order.
func (s StepInfo) SumError() float64 {
	m := 0.0
	for _, b := range s.Splits {
		m += b.Error
	}
	return m
}

// Step applies one Trotter step: the even bonds left to right (the center
// following along, S absorbed into the right site), then the odd bonds
// right to left (S absorbed into the left site), then for the second
// order the even bonds again. Each bond update has the center inside the
// bond, so its truncation is the optimal one for the whole state.
func (t *TEBD[T]) Step() (StepInfo, error) {
	L := len(t.Psi.Sites)
	var info StepInfo
	even := t.Gate
	if t.Half != nil {
		even = t.Half
	}
	evenLayer := func() error {
		for i := 0; i+1 < L; i += 2 {
			if err := t.bond(i, even, true, &info); err != nil {
				return err
			}
		}
		return nil
	}
	if err := evenLayer(); err != nil {
		return info, err
	}
	last := L - 2
	if last%2 == 0 {
		last--
	}
	for i := last; i >= 1; i -= 2 {
		if err := t.bond(i, t.Gate, false, &info); err != nil {
			return info, err
		}
	}
	if t.Half != nil {
		return info, evenLayer()
	}
	return info, nil
}

// bond applies the gate g to the bond (i, i+1):
//
//	θ[a, x, y, c] = Σ G[x, y, p, q]·A_i[a, p, b]·A_{i+1}[b, q, c]   (tf.Einsum)
//	θ ≈ U·diag(S)·Vᴴ                                  (linalg.SVDSplit)
//
// and sets A_i = U, A_{i+1} = S·Vᴴ (right) or A_i = U·S, A_{i+1} = Vᴴ.
func (t *TEBD[T]) bond(i int, g *tf.Tensor[T], right bool, info *StepInfo) error {
	e, m := t.E, t.Psi
	if m.Center < i || m.Center > i+1 {
		if err := m.MoveCenter(e, min(max(m.Center, i), i+1)); err != nil {
			return err
		}
	}
	theta, err := tf.Einsum(e, "xypq,apb,bqc->axyc", g, m.Sites[i], m.Sites[i+1])
	if err != nil {
		return err
	}
	defer theta.Release()
	u, s, vh, tr, err := linalg.SVDSplit[float64](e, theta, []int{0, 1}, t.Trunc)
	if err != nil {
		return err
	}
	info.Splits = append(info.Splits, Split{i, tr})
	if t.Inspect != nil {
		t.Inspect(i, theta, tr)
	}
	st, err := weights[T](e, s, t.Normalize)
	s.Release()
	if err != nil {
		u.Release()
		vh.Release()
		return err
	}
	defer st.Release()
	if right {
		v, err := tf.Einsum(e, "b,byc->byc", st, vh)
		vh.Release()
		if err != nil {
			u.Release()
			return err
		}
		m.set(i, u)
		m.set(i+1, v)
		m.Center = i + 1
		return nil
	}
	w, err := tf.Einsum(e, "axb,b->axb", u, st)
	u.Release()
	if err != nil {
		vh.Release()
		return err
	}
	m.set(i, w)
	m.set(i+1, vh)
	m.Center = i
	return nil
}

// weights returns the singular values s as a tensor of T (a copy from
// e's pool), divided by ‖s‖₂ when normalize is set.
func weights[T number](e tf.Engine, s *tf.Tensor[float64], normalize bool) (*tf.Tensor[T], error) {
	sv, err := s.Data()
	if err != nil {
		return nil, err
	}
	f := 1.0
	if normalize {
		n := 0.0
		for _, x := range sv {
			n += x * x
		}
		if n > 0 {
			f = 1 / math.Sqrt(n)
		}
	}
	st, err := tf.NewTensor[T](e, len(sv))
	if err != nil {
		return nil, err
	}
	d, _ := st.Data()
	for j, x := range sv {
		d[j] = scalar[T](complex(f*x, 0))
	}
	return st, nil
}

// Energy returns ⟨ψ|H|ψ⟩/⟨ψ|ψ⟩ for H = Σᵢ hᵢ,ᵢ₊₁: the center is moved
// along the chain and each bond's energy read off its two-site tensor,
// ⟨θ|h|θ⟩/⟨θ|θ⟩ with θ = A_i·A_{i+1} (tf.Einsum), exact because the rest of
// the state is orthonormal on either side.
func Energy[T number](e tf.Engine, m *MPS[T], h *tf.Tensor[T]) (float64, error) {
	total := 0.0
	for i := 0; i+1 < len(m.Sites); i++ {
		if err := m.MoveCenter(e, i); err != nil {
			return 0, err
		}
		eb, err := bondEnergy(e, m.Sites[i], m.Sites[i+1], h)
		if err != nil {
			return 0, err
		}
		total += eb / m.Norm2()
	}
	return total, nil
}

// bondEnergy returns Re ⟨θ|h|θ⟩ for θ = a·b.
func bondEnergy[T number](e tf.Engine, a, b, h *tf.Tensor[T]) (float64, error) {
	theta, err := tf.Einsum(e, "apb,bqc->apqc", a, b)
	if err != nil {
		return 0, err
	}
	defer theta.Release()
	bra, err := tf.Conj(e, theta)
	if err != nil {
		return 0, err
	}
	defer bra.Release()
	x, err := tf.Einsum(e, "axyc,xypq,apqc->", bra, h, theta)
	if err != nil {
		return 0, err
	}
	defer x.Release()
	v, err := x.At()
	return real(complexOf(v)), err
}

// complexOf widens x to complex128.
func complexOf[T number](x T) complex128 {
	switch v := any(x).(type) {
	case float64:
		return complex(v, 0)
	case complex128:
		return v
	}
	return 0
}
