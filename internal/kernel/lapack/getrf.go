package lapack

import (
	"math"
	"math/cmplx"

	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
	"github.com/tenferro-go/tenferro/internal/par"
)

// Getrf computes the LU factorization with partial pivoting of the m×n
// matrix A,
//
//	P·A = L·U,
//
// with L m×min(m,n) unit lower triangular (lower trapezoidal when m > n) and
// U min(m,n)×n upper triangular (upper trapezoidal when m < n), overwriting
// A with L below the diagonal and U on and above it. P is recorded in
// ipiv[:min(m,n)]: row i was interchanged with row ipiv[i] ≥ i, for i = 0,
// 1, … in order. Each pivot is the entry of largest |Re|+|Im| in its column.
//
// It returns 0, or k ≥ 1 when U[k-1, k-1] is the first exactly zero pivot;
// the factorization is completed all the same (as LAPACK's getrf does), but
// U is singular and solving with it divides by zero.
//
// The driver is recursive (Toledo; LAPACK's getrf2): factor the left half of
// the columns, swap and solve the right half's top rows by [Trsm], update
// the bottom right by gemm.Gemm, factor it, and swap the left half's bottom
// rows. Panels of at most [GetrfLeaf] columns run [Getf2]; a matrix that
// narrow uses neither ws nor r.
func Getrf[T Scalar](ws *Workspace, r par.Runner, m, n int, a gemm.Mat[T], ipiv []int) int {
	if m <= 0 || n <= 0 {
		return 0
	}
	return getrfRec(ws, r, m, n, a, ipiv[:min(m, n)])
}

func getrfRec[T Scalar](ws *Workspace, r par.Runner, m, n int, a gemm.Mat[T], ipiv []int) int {
	mn := min(m, n)
	leaf := max(GetrfLeaf, 1)
	if n <= leaf {
		return Getf2(m, n, a, ipiv)
	}
	n1 := mn
	if mn > leaf {
		n1 = split(mn)
	}
	n2 := n - n1
	info := getrfRec(ws, r, m, n1, a, ipiv[:n1])
	a12 := shift(a, 0, n1)
	laswpSplit(ws, r, n2, a12, 0, n1, ipiv)
	trsmLeft(ws, r, true, true, n1, n2, a, a12)
	if m == n1 {
		return info
	}
	gemm.Gemm(&ws.Gemm, r, m-n1, n2, n1, -1, shift(a, n1, 0), a12, 1, shift(a, n1, n1))
	p2 := ipiv[n1:mn]
	info2 := getrfRec(ws, r, m-n1, n2, shift(a, n1, n1), p2)
	if info == 0 && info2 != 0 {
		info = info2 + n1
	}
	for i := range p2 {
		p2[i] += n1
	}
	laswpSplit(ws, r, n1, a, n1, mn, ipiv)
	return info
}

// laswpMinSwaps is the number of element interchanges (columns times
// pivots) from which laswpSplit shares the columns among r's workers (a
// variable for the tests).
var laswpMinSwaps = 1 << 15

// laswpSplit is [Laswp] with the n columns shared among r's workers when
// the interchanges are many: each column's swaps are independent of the
// others'.
func laswpSplit[T Scalar](ws *Workspace, r par.Runner, n int, a gemm.Mat[T], k1, k2 int, ipiv []int) {
	w := par.Width(r)
	if w < 2 || a.RS != 1 || n < 2*w*8 || n*max(k2-k1, k1-k2) < laswpMinSwaps {
		Laswp(n, a, k1, k2, ipiv)
		return
	}
	hi := max(k1, k2)
	if cap(ws.pivots) < hi {
		ws.pivots = make([]int, hi)
	}
	piv := ws.pivots[:hi]
	copy(piv[min(k1, k2):], ipiv[min(k1, k2):hi])
	t := columnTaskFor[T](ws)
	*t = columnTask[T]{kind: columnSwap, n: n, b: a, k1: k1, k2: k2, ipiv: piv}
	par.Run(r, t, w)
	*t = columnTask[T]{}
}

// Getf2 is the unblocked LU factorization behind [Getrf] (right-looking,
// one rank-1 update per column), with the same contract; it allocates
// nothing and runs on the caller. It is meant for small matrices and narrow
// panels.
func Getf2[T Scalar](m, n int, a gemm.Mat[T], ipiv []int) int {
	if a.RS == 1 && m <= smallLU && n <= smallLU {
		return getf2Small(m, n, a.Data[a.Off:], a.CS, ipiv)
	}
	info := 0
	mn := min(m, n)
	for j := 0; j < mn; j++ {
		cj := a.Off + j*a.CS
		p := j + iamax(a.Data, cj+j*a.RS, m-j, a.RS)
		ipiv[j] = p
		piv := a.Data[cj+p*a.RS]
		if piv == 0 {
			if info == 0 {
				info = j + 1
			}
		} else {
			if p != j {
				swapRows(n, a, j, p)
			}
			inv := 1 / piv
			if a.RS == 1 {
				for i, v := range a.Data[cj+j+1 : cj+m] {
					a.Data[cj+j+1+i] = v * inv
				}
			} else {
				for i := j + 1; i < m; i++ {
					a.Data[cj+i*a.RS] *= inv
				}
			}
		}
		// A[j+1:, j+1:] −= A[j+1:, j]·A[j, j+1:], four columns per pass
		// through the vector loops where they run and no factor is 0
		// (a zero factor skips its column, as the reference does).
		k := j + 1
		if a.RS == 1 && piv != 0 {
			src := a.Data[cj+j+1 : cj+m]
			for ; k+4 <= n; k += 4 {
				var v [4]T
				var cols [4][]T
				zero := false
				for q := range v {
					ck := a.Off + (k+q)*a.CS
					v[q] = a.Data[ck+j]
					zero = zero || v[q] == 0
					cols[q] = a.Data[ck+j+1:][:len(src)]
				}
				if zero || !ger4(src, &cols, &v) {
					break
				}
			}
		}
		for ; k < n; k++ {
			ck := a.Off + k*a.CS
			t := a.Data[ck+j*a.RS]
			if t == 0 {
				continue
			}
			if a.RS == 1 {
				src := a.Data[cj+j+1 : cj+m]
				dst := a.Data[ck+j+1:][:len(src)]
				for i, v := range src {
					dst[i] -= v * t
				}
				continue
			}
			for i := j + 1; i < m; i++ {
				a.Data[ck+i*a.RS] -= a.Data[cj+i*a.RS] * t
			}
		}
	}
	return info
}

// swapRows interchanges rows i and p of a over n columns.
func swapRows[T Scalar](n int, a gemm.Mat[T], i, p int) {
	oi, op := a.Off+i*a.RS, a.Off+p*a.RS
	for j := 0; j < n; j++ {
		a.Data[oi+j*a.CS], a.Data[op+j*a.CS] = a.Data[op+j*a.CS], a.Data[oi+j*a.CS]
	}
}

// Laswp applies the row interchanges ipiv[k1:k2] to the n columns of a:
// for i = k1, …, k2-1 in order, row i is interchanged with row ipiv[i]. With
// k1 > k2 it applies ipiv[k2:k1] in reverse order (i = k1-1 down to k2),
// which undoes the forward application. A column-major a is swapped one
// column at a time, so that each column is read once, from cache.
func Laswp[T Scalar](n int, a gemm.Mat[T], k1, k2 int, ipiv []int) {
	if a.RS != 1 {
		laswpRows(n, a, k1, k2, ipiv)
		return
	}
	lo, hi, step := k1, k2, 1
	if k1 > k2 {
		lo, hi, step = k1-1, k2-1, -1
	}
	for j := 0; j < n; j++ {
		col := a.Data[a.Off+j*a.CS:]
		for i := lo; i != hi; i += step {
			if p := ipiv[i]; p != i {
				col[i], col[p] = col[p], col[i]
			}
		}
	}
}

// laswpRows is Laswp interchanging whole rows (for row-oriented a).
func laswpRows[T Scalar](n int, a gemm.Mat[T], k1, k2 int, ipiv []int) {
	if k1 <= k2 {
		for i := k1; i < k2; i++ {
			if p := ipiv[i]; p != i {
				swapRows(n, a, i, p)
			}
		}
		return
	}
	for i := k1 - 1; i >= k2; i-- {
		if p := ipiv[i]; p != i {
			swapRows(n, a, i, p)
		}
	}
}

// Getrs solves op(A)·X = B for X, overwriting the n×nrhs matrix B, where
// lu and ipiv hold the LU factorization of the n×n A from [Getrf]. B must
// not overlap lu. A singular U gives Inf or NaN in X.
func Getrs[T Scalar](ws *Workspace, r par.Runner, op Op, n, nrhs int, lu gemm.Mat[T], ipiv []int, b gemm.Mat[T]) {
	if n <= 0 || nrhs <= 0 {
		return
	}
	// A few right sides of a small system take getrsSmall's column loops;
	// from n/4 of them on, Trsm's four-column kernel (trsv4) is faster.
	if op == NoTrans && n <= smallLU && nrhs <= n/4 && lu.RS == 1 && b.RS == 1 {
		getrsSmall(n, nrhs, lu.Data[lu.Off:], lu.CS, ipiv, b.Data[b.Off:], b.CS)
		return
	}
	if op == NoTrans {
		// A = Pᵀ·L·U: X = U⁻¹·L⁻¹·P·B.
		laswpSplit(ws, r, nrhs, b, 0, n, ipiv)
		Trsm(ws, r, Left, Lower, NoTrans, Unit, n, nrhs, 1, lu, b)
		Trsm(ws, r, Left, Upper, NoTrans, NonUnit, n, nrhs, 1, lu, b)
		return
	}
	// op(A) = op(U)·op(L)·P: X = Pᵀ·op(L)⁻¹·op(U)⁻¹·B.
	Trsm(ws, r, Left, Upper, op, NonUnit, n, nrhs, 1, lu, b)
	Trsm(ws, r, Left, Lower, op, Unit, n, nrhs, 1, lu, b)
	laswpSplit(ws, r, nrhs, b, n, 0, ipiv)
}

// Getri computes inv = A⁻¹ from the LU factorization (lu, ipiv) of the n×n
// A by [Getrs] on the identity (2n³ operations); inv must not overlap lu.
// A singular U gives Inf or NaN in inv.
func Getri[T Scalar](ws *Workspace, r par.Runner, n int, lu gemm.Mat[T], ipiv []int, inv gemm.Mat[T]) {
	for j := 0; j < n; j++ {
		o := inv.Off + j*inv.CS
		for i := 0; i < n; i++ {
			var v T
			if i == j {
				v = 1
			}
			inv.Data[o+i*inv.RS] = v
		}
	}
	Getrs(ws, r, NoTrans, n, n, lu, ipiv, inv)
}

// Det returns det(A) = (−1)^s·Π U[i,i] from the LU factorization (lu, ipiv)
// of the n×n A, s being the number of actual interchanges in ipiv. The
// product may overflow or underflow for large n; [Slogdet] does not.
func Det[T Scalar](n int, lu gemm.Mat[T], ipiv []int) T {
	var d T = 1
	odd := 0
	for i := 0; i < n; i++ {
		d *= lu.Data[lu.Off+i*lu.RS+i*lu.CS]
		odd ^= differ(ipiv[i], i)
	}
	// The sign is applied once, from a table: a branch per interchange
	// would be mispredicted on random pivots.
	signs := [2]T{1, -1}
	return d * signs[odd]
}

// differ is 1 when a != b and 0 otherwise, without a branch.
func differ(a, b int) int {
	x := a ^ b
	return int(uint(x|-x) >> 63)
}

// Slogdet returns det(A) as sign·exp(logAbs) from the LU factorization
// (lu, ipiv) of the n×n A: logAbs = Σ log|U[i,i]|, and sign is ±1 for real
// types or the unit-modulus phase for complex ones. A singular A gives
// sign 0 and logAbs −Inf; a NaN pivot gives NaN in both.
func Slogdet[T Scalar](n int, lu gemm.Mat[T], ipiv []int) (sign T, logAbs float64) {
	ph := complex(1, 0)
	for i := 0; i < n; i++ {
		u := toC128(lu.Data[lu.Off+i*lu.RS+i*lu.CS])
		au := cmplx.Abs(u)
		if au == 0 {
			return 0, math.Inf(-1)
		}
		if au != au {
			return fromC128[T](cmplx.NaN()), math.NaN()
		}
		logAbs += math.Log(au)
		ph *= u / complex(au, 0)
		if ipiv[i] != i {
			ph = -ph
		}
	}
	if isComplex[T]() {
		// Renormalize away the rounding drift of the running product.
		ph /= complex(cmplx.Abs(ph), 0)
	} else {
		ph = complex(math.Copysign(1, real(ph)), 0)
	}
	return fromC128[T](ph), logAbs
}
