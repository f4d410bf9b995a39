package lapack

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
