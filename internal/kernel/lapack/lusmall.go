package lapack

import "github.com/tenferro-go/tenferro/internal/kernel/gemm"

// smallLU is the order up to which Getf2 and Getrs take the loops below on
// matrices with unit row stride: straight loops over contiguous columns,
// without the rank-4 kernel calls of Getf2 or the blocking of Trsm, whose
// setup costs more than the arithmetic of such small matrices.
const smallLU = 16

// getf2Small is [Getf2] for an m×n matrix with unit row stride and
// leading dimension ld in d (d[i + j·ld] is A[i, j]), m, n ≤ smallLU: the
// same operations in the same order (rows interchanged across all n
// columns, the column below the pivot scaled by its reciprocal, one
// rank-1 update per column that skips zero factors).
func getf2Small[T Scalar](m, n int, d []T, ld int, ipiv []int) int {
	info := 0
	for j := range min(m, n) {
		cj := d[j*ld : j*ld+m]
		p := j + iamax(cj, j, m-j, 1)
		ipiv[j] = p
		piv := cj[p]
		l := cj[j+1:]
		if piv == 0 {
			if info == 0 {
				info = j + 1
			}
		} else {
			// Unconditionally: p = j swaps in place, and a branch on
			// the pivot's row would be mispredicted half the time.
			for c := range n {
				o := c * ld
				d[o+j], d[o+p] = d[o+p], d[o+j]
			}
			inv := 1 / piv
			for i := range l {
				l[i] *= inv
			}
		}
		for k := j + 1; k < n; k++ {
			ck := d[k*ld+j : k*ld+m]
			t := ck[0]
			if t == 0 {
				continue
			}
			ck = ck[1:]
			ck = ck[:len(l)]
			for i, v := range l {
				ck[i] -= v * t
			}
		}
	}
	return info
}

// getrsSmall is [Getrs] with op NoTrans for n ≤ smallLU and lu and b of
// unit row stride (leading dimensions ldl and ldb): per column of B the
// interchanges, the forward substitution with the unit L and the back
// substitution with U, column-oriented, skipping zero entries as Trsm
// does.
func getrsSmall[T Scalar](n, nrhs int, lu []T, ldl int, ipiv []int, b []T, ldb int) {
	ipiv = ipiv[:n]
	for c := range nrhs {
		x := b[c*ldb : c*ldb+n]
		for i, p := range ipiv {
			x[i], x[p] = x[p], x[i]
		}
		for j := range n {
			xj := x[j]
			if xj == 0 {
				continue
			}
			l := lu[j*ldl+j+1 : j*ldl+n]
			y := x[j+1:]
			y = y[:len(l)]
			for i, v := range l {
				y[i] -= xj * v
			}
		}
		for j := n - 1; j >= 0; j-- {
			if x[j] == 0 {
				continue
			}
			x[j] /= lu[j*ldl+j]
			xj := x[j]
			u := lu[j*ldl : j*ldl+j]
			y := x[:len(u)]
			for i, v := range u {
				y[i] -= xj * v
			}
		}
	}
}

// Gjinv overwrites the n×n matrix A (unit row stride, leading dimension
// a.CS) with A⁻¹ by Gauss-Jordan elimination with partial pivoting, one
// pass over A:
//
//	for k = 0, …, n-1: pick the row p ≥ k of largest |Re|+|Im| in column
//	k, interchange rows k and p, then make column k the unit vector eₖ
//	with row operations, storing the inverse's column k in its place,
//
// and finally interchange the columns in reverse order of the recorded
// pivots ipiv[:n] (LAPACK's convention, 0-based). The pivots equal those
// of [Getrf] on A (the rows below the diagonal go through the same
// elimination), so a singular A is reported alike: Gjinv returns 0, or k
// ≥ 1 when the k-th pivot is exactly zero, in which case A is left
// partly transformed. It takes about 2n³ operations, as Getrf and Getri
// together, in contiguous column updates only, and is meant for small n.
// The residual ‖A·X − I‖ is of the order n·cond(A)·eps, as for Getri.
func Gjinv[T Scalar](n int, a gemm.Mat[T], ipiv []int) int {
	if a.RS != 1 {
		panic("lapack: Gjinv needs a unit row stride")
	}
	d, ld := a.Data[a.Off:], a.CS
	for k := range n {
		ck := d[k*ld : k*ld+n]
		p := k + iamax(ck, k, n-k, 1)
		ipiv[k] = p
		if ck[p] == 0 {
			return k + 1
		}
		for c := range n {
			o := c * ld
			d[o+k], d[o+p] = d[o+p], d[o+k]
		}
		inv := 1 / ck[k]
		// Column k becomes the multipliers, negated: -A[i,k]/A[k,k].
		for i := range ck {
			ck[i] *= -inv
		}
		ck[k] = inv
		for j := range n {
			if j == k {
				continue
			}
			cj := d[j*ld : j*ld+n]
			t := cj[k]
			if t != 0 {
				lo, hi := ck[:k], cj[:k]
				for i, m := range lo {
					hi[i] += m * t
				}
				lo, hi = ck[k+1:], cj[k+1:]
				hi = hi[:len(lo)]
				for i, m := range lo {
					hi[i] += m * t
				}
			}
			cj[k] = t * inv
		}
	}
	for k := n - 1; k >= 0; k-- {
		if p := ipiv[k]; p != k {
			ck, cp := d[k*ld:k*ld+n], d[p*ld:p*ld+n]
			for i := range ck {
				ck[i], cp[i] = cp[i], ck[i]
			}
		}
	}
	return 0
}
