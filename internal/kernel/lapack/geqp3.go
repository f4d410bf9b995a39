package lapack

import (
	"math"

	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
)

// Geqp3 computes the QR factorization with column pivoting of the m×n
// matrix A,
//
//	A·P = Q·R,  |R[0,0]| ≥ |R[1,1]| ≥ … ≥ |R[k−1,k−1]|,  k = min(m, n),
//
// in the layout of [Geqrf] (R on and above the diagonal, the reflectors
// below it, τ in tau[:k]), with the permutation in jpvt[:n], 0-based:
// column j of A·P is column jpvt[j] of A. At step j the remaining column
// of largest norm (of its part below row j) is moved to position j, so the
// diagonal of R reveals the numerical rank (Businger and Golub). Column
// norms are downdated after each reflector and recomputed when
// cancellation makes the downdate inaccurate (the safeguard of Drmač and
// Bujanović, as in LAPACK's ?laqp2). It runs unblocked on the caller; ws
// provides 2n reals of scratch, so a warm call allocates nothing.
func Geqp3[T Scalar](ws *Workspace, m, n int, a gemm.Mat[T], jpvt []int, tau []T) {
	for j := range n {
		jpvt[j] = j
	}
	k := min(m, n)
	if k == 0 {
		return
	}
	vn := scratch[float64](ws, 2*n)
	vn1, vn2 := vn[:n], vn[n:]
	for j := range n {
		vn1[j] = nrm2(a.Data, a.Off+j*a.CS, m, a.RS)
		vn2[j] = vn1[j]
	}
	tol3z := math.Sqrt(machEps[T]())
	for i := range k {
		p := i
		for j := i + 1; j < n; j++ {
			if vn1[j] > vn1[p] {
				p = j
			}
		}
		if p != i {
			swapCols(m, a, i, p)
			jpvt[i], jpvt[p] = jpvt[p], jpvt[i]
			vn1[p], vn2[p] = vn1[i], vn2[i]
		}
		d := a.Off + i*a.RS + i*a.CS
		beta, t := Larfg(m-i, a.Data[d], a.Data, d+a.RS, a.RS)
		tau[i] = t
		a.Data[d] = beta
		if i+1 < n && t != 0 {
			larfLeft(false, m-i, n-i-1, 1, a.Data, d+a.RS, a.RS, conj(t), shift(a, i, i+1))
		}
		for j := i + 1; j < n; j++ {
			if vn1[j] == 0 {
				continue
			}
			r := abs(a.Data[a.Off+i*a.RS+j*a.CS]) / vn1[j]
			t1 := max(0, (1+r)*(1-r))
			if t2 := t1 * (vn1[j] / vn2[j]) * (vn1[j] / vn2[j]); t2 <= tol3z {
				if i+1 < m {
					vn1[j] = nrm2(a.Data, a.Off+(i+1)*a.RS+j*a.CS, m-i-1, a.RS)
				} else {
					vn1[j] = 0
				}
				vn2[j] = vn1[j]
			} else {
				vn1[j] *= math.Sqrt(t1)
			}
		}
	}
}
