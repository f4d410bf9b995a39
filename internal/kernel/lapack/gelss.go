package lapack

import (
	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
	"github.com/tenferro-go/tenferro/internal/par"
)

// GelssWork returns the length of the work array [Gelss] needs.
func GelssWork(m, n, nrhs int) int {
	k := min(m, n)
	return m*n + m*k + k*n + k*nrhs
}

// Gelss computes the minimum-norm solution of the least-squares problem
//
//	min ‖A·X − B‖_F,  A m×n,  B m×nrhs,  X n×nrhs,
//
// through the singular value decomposition A = U·Σ·Vᴴ: X = V·Σ⁺·Uᴴ·B,
// where Σ⁺ inverts the singular values σᵢ > rcond·σ₀ and sets the others
// to zero (rcond < 0 means machine precision), which makes X the
// minimum-norm minimizer for a rank-deficient A (LAPACK's ?gelss). a is
// read only. b is max(m, n)×nrhs: B in its first m rows on entry, X in its
// first n rows on exit. s receives the k = min(m, n) singular values,
// descending. work has at least GelssWork(m, n, nrhs) elements; ws serves
// the SVD. It returns the effective rank (the number of σᵢ inverted) and
// the SVD's info (0 on success; b is then untouched).
func Gelss[T Scalar](ws *Workspace, r par.Runner, m, n, nrhs int, a, b gemm.Mat[T], s []float64, rcond float64, work []T) (rank, info int) {
	k := min(m, n)
	if k == 0 {
		setZero(n, nrhs, b)
		return 0, 0
	}
	f := gemm.Mat[T]{Data: work, RS: 1, CS: m}
	u := gemm.Mat[T]{Data: work, Off: m * n, RS: 1, CS: m}
	vt := gemm.Mat[T]{Data: work, Off: m*n + m*k, RS: 1, CS: k}
	w := gemm.Mat[T]{Data: work, Off: m*n + m*k + k*n, RS: 1, CS: k}
	copyMat(m, n, a, f)
	if info := Gesvd(ws, r, SVDThin, m, n, f, s[:k], u, vt); info != 0 {
		return 0, info
	}
	if rcond < 0 {
		rcond = machEps[T]()
	}
	tol := rcond * s[0]
	for rank < k && s[rank] > tol {
		rank++
	}
	// W = Uᴴ·B (conj(U)ᵀ·B), its rows scaled by 1/σᵢ, then X = conj(Vᴴ)ᵀ·W.
	conjMat(m, k, u)
	gemm.Gemm(&ws.Gemm, r, k, nrhs, m, 1, transpose(u), b, 0, w)
	for i := range k {
		d := fromReal[T](0)
		if i < rank {
			d = fromReal[T](1 / s[i])
		}
		scaleVec(w.Data, w.Off+i, nrhs, w.CS, d)
	}
	conjMat(k, n, vt)
	gemm.Gemm(&ws.Gemm, r, n, nrhs, rank, 1, transpose(vt), w, 0, b) // rank 0: b = 0
	return rank, 0
}

// setZero sets the m×n a to zero.
func setZero[T Scalar](m, n int, a gemm.Mat[T]) {
	for j := range n {
		for i := range m {
			a.Data[a.Off+i*a.RS+j*a.CS] = 0
		}
	}
}
