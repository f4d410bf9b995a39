package lapack

import "github.com/tenferro-go/tenferro/internal/kernel/gemm"

// Org2r is the unblocked [Orgqr], with the same contract: it overwrites the
// m×n A (m ≥ n ≥ k) with the first n columns of Q = H1·H2···Hk from the
// k reflectors in A's first k columns and tau[:k]. Q is formed backwards,
// one reflector at a time: for i = k−1, …, 0, Hi is applied from the left
// to A[i:m, i+1:n] by [Larf]'s kernel and column i set to Hi·eᵢ
// (1 − τi on the diagonal, −τi·vi below it, zero above). It allocates
// nothing and runs on the caller; it is meant for small matrices (about
// 2·m·n·k operations, as Orgqr, with no block reflector to form).
func Org2r[T Scalar](m, n, k int, a gemm.Mat[T], tau []T) {
	if n <= 0 {
		return
	}
	setIdentityCols(m, k, n, a)
	for i := k - 1; i >= 0; i-- {
		d := a.Off + i*a.RS + i*a.CS
		t := tau[i]
		if i+1 < n {
			larfLeft(false, m-i, n-i-1, 1, a.Data, d+a.RS, a.RS, t, shift(a, i, i+1))
		}
		for r := i + 1; r < m; r++ {
			a.Data[d+(r-i)*a.RS] *= -t
		}
		a.Data[d] = 1 - t
		for r := 0; r < i; r++ {
			a.Data[a.Off+r*a.RS+i*a.CS] = 0
		}
	}
}
