package gonumx

import "gonum.org/v1/gonum/blas"

// The predicates below accept exactly the arguments for which gonum's own
// routine neither panics nor returns early: every routine hands anything
// else to gonum, which then panics with its own message or does the
// trivial work (quick returns, alpha = 0) itself. They may reject more
// than gonum does, never less.

func okTrans(t blas.Transpose) bool {
	return t == blas.NoTrans || t == blas.Trans || t == blas.ConjTrans
}

func okUplo(ul blas.Uplo) bool { return ul == blas.Lower || ul == blas.Upper }

// gemmArgs checks a GEMM call C = alpha·op(A)·op(B) + beta·C with op(A)
// m×k and op(B) k×n, and reports false for an empty product (m, n or k
// zero) too.
func gemmArgs(tA, tB blas.Transpose, m, n, k, la, lda, lb, ldb, lc, ldc int) bool {
	if !okTrans(tA) || !okTrans(tB) || m <= 0 || n <= 0 || k <= 0 {
		return false
	}
	ar, ac := m, k // rows and columns of A as stored
	if tA != blas.NoTrans {
		ar, ac = k, m
	}
	br, bc := k, n
	if tB != blas.NoTrans {
		br, bc = n, k
	}
	return lda >= ac && ldb >= bc && ldc >= n &&
		la >= (ar-1)*lda+ac && lb >= (br-1)*ldb+bc && lc >= (m-1)*ldc+n
}

// triArgs checks a TRSM or TRMM call on the m×n B with a triangular A on
// side s, and reports false for an empty B.
func triArgs(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n, la, lda, lb, ldb int) bool {
	if s != blas.Left && s != blas.Right || !okUplo(ul) || !okTrans(tA) ||
		d != blas.NonUnit && d != blas.Unit || m <= 0 || n <= 0 {
		return false
	}
	k := n
	if s == blas.Left {
		k = m
	}
	return lda >= k && ldb >= n && la >= (k-1)*lda+k && lb >= (m-1)*ldb+n
}

// syrkArgs checks a SYRK (lb < 0: no B) or SYR2K call updating the n×n C
// with op(A) (and op(B)) n×k; complex routines do not accept ConjTrans.
// It reports false for n or k zero.
func syrkArgs(cplx bool, ul blas.Uplo, t blas.Transpose, n, k, la, lda, lb, ldb, lc, ldc int) bool {
	if !okUplo(ul) || !okTrans(t) || cplx && t == blas.ConjTrans || n <= 0 || k <= 0 {
		return false
	}
	row, col := k, n
	if t == blas.NoTrans {
		row, col = n, k
	}
	if lb >= 0 && (ldb < col || lb < (row-1)*ldb+col) {
		return false
	}
	return lda >= col && ldc >= n && la >= (row-1)*lda+col && lc >= (n-1)*ldc+n
}
