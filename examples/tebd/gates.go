package main

import (
	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/linalg"
)

// HeisenbergBond returns the bond Hamiltonian of the spin-½ Heisenberg
// chain, h = S·S = Sᶻ⊗Sᶻ + ½(S⁺⊗S⁻ + S⁻⊗S⁺), as the tensor
// h[p′, q′, p, q] = ⟨p′q′|h|pq⟩ (2, 2, 2, 2), p the left spin. Viewed as a
// 4×4 matrix (column-major reshape) its row index is p′ + 2q′ and its
// column index p + 2q; its eigenvalues are ¼ (triplet) and −¾ (singlet).
func HeisenbergBond[T number]() (*tf.Tensor[T], error) {
	h, err := tf.Zeros[T](2, 2, 2, 2)
	if err != nil {
		return nil, err
	}
	sz := [2]float64{0.5, -0.5}
	for p := range 2 {
		for q := range 2 {
			if err := h.Set(scalar[T](complex(sz[p]*sz[q], 0)), p, q, p, q); err != nil {
				return nil, err
			}
			if p != q { // the flip-flop term ½(S⁺S⁻ + S⁻S⁺): |pq⟩ → ½|qp⟩
				if err := h.Set(0.5, q, p, p, q); err != nil {
					return nil, err
				}
			}
		}
	}
	return h, nil
}

// Gate returns the two-site gate G = exp(c·h) (2, 2, 2, 2) for the bond
// Hamiltonian h, computed by linalg.Expm on h viewed as a 4×4 matrix:
// c = −i·dt for real-time evolution (a unitary gate, complex T) and
// c = −dτ for imaginary time (a real symmetric one).
func Gate[T number](e tf.Engine, h *tf.Tensor[T], c complex128) (*tf.Tensor[T], error) {
	hm, err := h.Reshape(4, 4)
	if err != nil {
		return nil, err
	}
	a, err := tf.Scale(e, scalar[T](c), hm)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	g, err := linalg.Expm(e, a)
	if err != nil {
		return nil, err
	}
	return g.Reshape(2, 2, 2, 2)
}
