package gonumx

import (
	"gonum.org/v1/gonum/blas"

	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
	"github.com/tenferro-go/tenferro/internal/par"
)

// syrkLeaf is the order of the diagonal blocks that SYRK and SYR2K compute
// as full products into scratch.
const syrkLeaf = 64

// Dsyrk computes the ul triangle of the n×n C = alpha·op(A)·op(A)ᵀ + beta·C
// with op(A) n×k (op(A) = A for NoTrans, Aᵀ otherwise). Large updates halve
// C recursively: the off-diagonal blocks are GEMMs and the diagonal blocks
// of order at most 64 are full products into scratch of which one triangle
// is kept. When beta = 0, C is not read. Small updates, alpha = 0 and
// invalid arguments run gonum's Dsyrk.
func (impl *Implementation) Dsyrk(ul blas.Uplo, t blas.Transpose, n, k int, alpha float64, a []float64, lda int, beta float64, c []float64, ldc int) {
	if alpha == 0 || !syrkArgs(false, ul, t, n, k, len(a), lda, -1, 0, len(c), ldc) || impl.small(syrkWork(n, k)) {
		impl.Implementation.Dsyrk(ul, t, n, k, alpha, a, lda, beta, c, ldc)
		return
	}
	syrkRowMajor(impl, ul, t, n, k, alpha, a, lda, nil, 0, false, beta, c, ldc)
}

// Ssyrk is [Implementation.Dsyrk] for float32.
func (impl *Implementation) Ssyrk(ul blas.Uplo, t blas.Transpose, n, k int, alpha float32, a []float32, lda int, beta float32, c []float32, ldc int) {
	if alpha == 0 || !syrkArgs(false, ul, t, n, k, len(a), lda, -1, 0, len(c), ldc) || impl.small(syrkWork(n, k)) {
		impl.Implementation.Ssyrk(ul, t, n, k, alpha, a, lda, beta, c, ldc)
		return
	}
	syrkRowMajor(impl, ul, t, n, k, alpha, a, lda, nil, 0, false, beta, c, ldc)
}

// Zsyrk is [Implementation.Dsyrk] for complex128: the transpose is not
// conjugated, and t is NoTrans or Trans.
func (impl *Implementation) Zsyrk(ul blas.Uplo, t blas.Transpose, n, k int, alpha complex128, a []complex128, lda int, beta complex128, c []complex128, ldc int) {
	if alpha == 0 || !syrkArgs(true, ul, t, n, k, len(a), lda, -1, 0, len(c), ldc) || impl.small(syrkWork(n, k)) {
		impl.Implementation.Zsyrk(ul, t, n, k, alpha, a, lda, beta, c, ldc)
		return
	}
	syrkRowMajor(impl, ul, t, n, k, alpha, a, lda, nil, 0, false, beta, c, ldc)
}

// Csyrk is [Implementation.Zsyrk] for complex64.
func (impl *Implementation) Csyrk(ul blas.Uplo, t blas.Transpose, n, k int, alpha complex64, a []complex64, lda int, beta complex64, c []complex64, ldc int) {
	if alpha == 0 || !syrkArgs(true, ul, t, n, k, len(a), lda, -1, 0, len(c), ldc) || impl.small(syrkWork(n, k)) {
		impl.Implementation.Csyrk(ul, t, n, k, alpha, a, lda, beta, c, ldc)
		return
	}
	syrkRowMajor(impl, ul, t, n, k, alpha, a, lda, nil, 0, false, beta, c, ldc)
}

// Dsyr2k computes the ul triangle of the n×n
// C = alpha·op(A)·op(B)ᵀ + alpha·op(B)·op(A)ᵀ + beta·C with op(A), op(B)
// n×k, blocked like [Implementation.Dsyrk] (two GEMMs per off-diagonal
// block).
func (impl *Implementation) Dsyr2k(ul blas.Uplo, t blas.Transpose, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	if alpha == 0 || !syrkArgs(false, ul, t, n, k, len(a), lda, len(b), ldb, len(c), ldc) || impl.small(2*syrkWork(n, k)) {
		impl.Implementation.Dsyr2k(ul, t, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	syrkRowMajor(impl, ul, t, n, k, alpha, a, lda, b, ldb, true, beta, c, ldc)
}

// Ssyr2k is [Implementation.Dsyr2k] for float32.
func (impl *Implementation) Ssyr2k(ul blas.Uplo, t blas.Transpose, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	if alpha == 0 || !syrkArgs(false, ul, t, n, k, len(a), lda, len(b), ldb, len(c), ldc) || impl.small(2*syrkWork(n, k)) {
		impl.Implementation.Ssyr2k(ul, t, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	syrkRowMajor(impl, ul, t, n, k, alpha, a, lda, b, ldb, true, beta, c, ldc)
}

// Zsyr2k is [Implementation.Dsyr2k] for complex128 (transposes, not
// conjugate transposes; t is NoTrans or Trans).
func (impl *Implementation) Zsyr2k(ul blas.Uplo, t blas.Transpose, n, k int, alpha complex128, a []complex128, lda int, b []complex128, ldb int, beta complex128, c []complex128, ldc int) {
	if alpha == 0 || !syrkArgs(true, ul, t, n, k, len(a), lda, len(b), ldb, len(c), ldc) || impl.small(2*syrkWork(n, k)) {
		impl.Implementation.Zsyr2k(ul, t, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	syrkRowMajor(impl, ul, t, n, k, alpha, a, lda, b, ldb, true, beta, c, ldc)
}

// Csyr2k is [Implementation.Zsyr2k] for complex64.
func (impl *Implementation) Csyr2k(ul blas.Uplo, t blas.Transpose, n, k int, alpha complex64, a []complex64, lda int, b []complex64, ldb int, beta complex64, c []complex64, ldc int) {
	if alpha == 0 || !syrkArgs(true, ul, t, n, k, len(a), lda, len(b), ldb, len(c), ldc) || impl.small(2*syrkWork(n, k)) {
		impl.Implementation.Csyr2k(ul, t, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	syrkRowMajor(impl, ul, t, n, k, alpha, a, lda, b, ldb, true, beta, c, ldc)
}

// syrkWork is the multiply-add count of a SYRK: one triangle of n×n, k deep.
func syrkWork(n, k int) float64 { return float64(n) * float64(n) * float64(k) / 2 }

// syrkRowMajor runs a checked row-major SYRK (two false, b unused) or SYR2K.
// The row-major C is the column-major Cᵀ, and the update is symmetric, so
// the column-major C receives the same update on the other triangle; op(A)
// is A read row-major for NoTrans and Aᵀ (A read column-major) otherwise.
func syrkRowMajor[T gemm.Scalar](impl *Implementation, ul blas.Uplo, t blas.Transpose, n, k int, alpha T, a []T, lda int, b []T, ldb int, two bool, beta T, c []T, ldc int) {
	op := func(x []T, ld int) gemm.Mat[T] {
		if t == blas.NoTrans {
			return rowMajor(x, ld)
		}
		return colMajor(x, ld)
	}
	am, bm := op(a, lda), op(a, lda)
	if two {
		bm = op(b, ldb)
	}
	w := getWork()
	defer putWork(w)
	syrk(w, impl.run, ul == blas.Upper, n, k, alpha, am, bm, two, beta, colMajor(c, ldc))
}

// syrk sets the lower (or upper) triangle of the n×n C to
// alpha·A·Bᵀ + beta·C (B = A for SYRK) or, when two,
// alpha·A·Bᵀ + alpha·B·Aᵀ + beta·C, for n×k A and B of any strides. C is
// halved: C11 and C22 recursively, C21 (or C12) by GEMM.
func syrk[T gemm.Scalar](w *work, r par.Runner, lower bool, n, k int, alpha T, a, b gemm.Mat[T], two bool, beta T, c gemm.Mat[T]) {
	if n <= syrkLeaf {
		syrkFull(w, r, lower, n, k, alpha, a, b, two, beta, c)
		return
	}
	n1 := n / 2
	n2 := n - n1
	a2, b2 := shift(a, n1, 0), shift(b, n1, 0)
	syrk(w, r, lower, n1, k, alpha, a, b, two, beta, c)
	syrk(w, r, lower, n2, k, alpha, a2, b2, two, beta, shift(c, n1, n1))
	ws := &w.lw.Gemm
	if lower {
		c21 := shift(c, n1, 0)
		gemm.Gemm(ws, r, n2, n1, k, alpha, a2, tr(b), beta, c21)
		if two {
			gemm.Gemm(ws, r, n2, n1, k, alpha, b2, tr(a), 1, c21)
		}
		return
	}
	c12 := shift(c, 0, n1)
	gemm.Gemm(ws, r, n1, n2, k, alpha, a, tr(b2), beta, c12)
	if two {
		gemm.Gemm(ws, r, n1, n2, k, alpha, b, tr(a2), 1, c12)
	}
}

// syrkFull updates a diagonal block: S = alpha·A·Bᵀ in full into scratch,
// then the triangle of C takes S (plus Sᵀ when two) plus beta·C, without
// reading C when beta = 0.
func syrkFull[T gemm.Scalar](w *work, r par.Runner, lower bool, n, k int, alpha T, a, b gemm.Mat[T], two bool, beta T, c gemm.Mat[T]) {
	s := scratch[T](w, 0, n*n)
	gemm.Gemm(&w.lw.Gemm, r, n, n, k, alpha, a, tr(b), 0, colMajor(s, n))
	for j := range n {
		lo, hi := j, n
		if !lower {
			lo, hi = 0, j+1
		}
		for i := lo; i < hi; i++ {
			v := s[i+j*n]
			if two {
				v += s[j+i*n]
			}
			p := at(c, i, j)
			if beta != 0 {
				v += beta * c.Data[p]
			}
			c.Data[p] = v
		}
	}
}
