// Package spin holds what the example programs share about the spin-½
// Heisenberg chain: its Hamiltonian on the full space of 2^L amplitudes
// and the exact ground-state energy, the references the tensor-network
// results are checked against.
package spin

import (
	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/linalg"
)

// HeisenbergApply returns the Hamiltonian H = Σᵢ Sᵢ·Sᵢ₊₁ of the open chain
// of L spins ½ as a linear map on the full space of 2^L amplitudes, the
// basis state |s₀ … s_{L−1}⟩ at index Σᵢ sᵢ·2ⁱ (bit i set for spin i ↓, site
// 0 fastest, as an MPS contracted in order gives it). Per bond, Sᶻ·Sᶻ is
// ±¼ on the diagonal and the flip-flop ½(S⁺S⁻ + S⁻S⁺) exchanges
// antiparallel neighbours with amplitude ½: bit operations, never a
// matrix.
func HeisenbergApply[T Number](L int) linalg.Operator[T] {
	return func(dst, x *tf.Tensor[T]) error {
		d, err := dst.Data()
		if err != nil {
			return err
		}
		v, err := x.Data()
		if err != nil {
			return err
		}
		for s := range v {
			var acc T
			for i := 0; i+1 < L; i++ {
				if (s>>i)&1 == (s>>(i+1))&1 {
					acc += 0.25 * v[s]
				} else {
					acc += 0.5*v[s^(3<<i)] - 0.25*v[s]
				}
			}
			d[s] = acc
		}
		return nil
	}
}

// GroundEnergy returns the exact ground-state energy of the open chain of
// L spins by linalg.Eigsh (thick-restart Lanczos) on [HeisenbergApply],
// from a random start vector.
func GroundEnergy(e tf.Engine, L int) (float64, error) {
	x0, err := tf.Zeros[float64](1 << L)
	if err != nil {
		return 0, err
	}
	res, err := linalg.Eigsh(e, HeisenbergApply[float64](L), x0, linalg.EigshOptions{})
	if err != nil {
		return 0, err
	}
	res.Vectors[0].Release()
	return res.Values[0], nil
}

// Number is the element types the examples run in; both have float64
// singular values and eigenvalues.
type Number interface{ float64 | complex128 }

// Abs2 returns |x|².
func Abs2[T Number](x T) float64 {
	switch v := any(x).(type) {
	case float64:
		return v * v
	case complex128:
		return real(v)*real(v) + imag(v)*imag(v)
	}
	return 0
}
