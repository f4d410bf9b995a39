package gonumx

import (
	"math/cmplx"

	"gonum.org/v1/gonum/blas"

	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
)

// Dgemm computes C = alpha·op(A)·op(B) + beta·C (row-major, as every gonum
// BLAS routine) with op(A) m×k, op(B) k×n and op(X) = X or Xᵀ, on the packed
// GEMM kernel. When beta = 0, C is not read. Invalid arguments panic with
// gonum's message.
func (impl *Implementation) Dgemm(tA, tB blas.Transpose, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	if alpha == 0 || !gemmArgs(tA, tB, m, n, k, len(a), lda, len(b), ldb, len(c), ldc) {
		impl.Implementation.Dgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	gemmRowMajor(impl, tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// Sgemm is [Implementation.Dgemm] for float32.
func (impl *Implementation) Sgemm(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	if alpha == 0 || !gemmArgs(tA, tB, m, n, k, len(a), lda, len(b), ldb, len(c), ldc) {
		impl.Implementation.Sgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	gemmRowMajor(impl, tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// Zgemm is [Implementation.Dgemm] for complex128, where op(X) may also be
// the conjugate transpose Xᴴ (taken from a conjugated copy of X).
func (impl *Implementation) Zgemm(tA, tB blas.Transpose, m, n, k int, alpha complex128, a []complex128, lda int, b []complex128, ldb int, beta complex128, c []complex128, ldc int) {
	if alpha == 0 || !gemmArgs(tA, tB, m, n, k, len(a), lda, len(b), ldb, len(c), ldc) {
		impl.Implementation.Zgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	gemmRowMajor(impl, tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// Cgemm is [Implementation.Zgemm] for complex64.
func (impl *Implementation) Cgemm(tA, tB blas.Transpose, m, n, k int, alpha complex64, a []complex64, lda int, b []complex64, ldb int, beta complex64, c []complex64, ldc int) {
	if alpha == 0 || !gemmArgs(tA, tB, m, n, k, len(a), lda, len(b), ldb, len(c), ldc) {
		impl.Implementation.Cgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	gemmRowMajor(impl, tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// gemmRowMajor computes the row-major C = alpha·op(A)·op(B) + beta·C for
// checked, non-degenerate arguments. The row-major C is the column-major
// Cᵀ = op(B)ᵀ·op(A)ᵀ, so the column-major kernel runs with the operands
// swapped and C written in its preferred orientation. A conjugate
// transpose (complex only) reads a conjugated copy of the operand.
func gemmRowMajor[T gemm.Scalar](impl *Implementation, tA, tB blas.Transpose, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) {
	w := getWork()
	defer putWork(w)
	if isComplex[T]() {
		if tA == blas.ConjTrans { // A is stored k×m
			a, lda, tA = conjCopy(scratch[T](w, 0, k*m), k, m, a, lda), m, blas.Trans
		}
		if tB == blas.ConjTrans { // B is stored n×k
			b, ldb, tB = conjCopy(scratch[T](w, 1, n*k), n, k, b, ldb), k, blas.Trans
		}
	}
	gemm.Gemm(&w.lw.Gemm, impl.run, n, m, k, alpha, opT(tB, b, ldb), opT(tA, a, lda), beta, colMajor(c, ldc))
}

// opT returns the column-major view of op(X)ᵀ for a row-major X with
// leading dimension ld (op is NoTrans or Trans): a row-major X is the
// column-major Xᵀ, and Xᵀᵀ = X is X read row-major.
func opT[T gemm.Scalar](t blas.Transpose, x []T, ld int) gemm.Mat[T] {
	if t == blas.NoTrans {
		return colMajor(x, ld)
	}
	return rowMajor(x, ld)
}

// colMajor and rowMajor view x as a matrix with leading dimension ld.
func colMajor[T gemm.Scalar](x []T, ld int) gemm.Mat[T] {
	return gemm.Mat[T]{Data: x, RS: 1, CS: ld}
}

func rowMajor[T gemm.Scalar](x []T, ld int) gemm.Mat[T] {
	return gemm.Mat[T]{Data: x, RS: ld, CS: 1}
}

// tr returns the transposed view of x.
func tr[T gemm.Scalar](x gemm.Mat[T]) gemm.Mat[T] {
	x.RS, x.CS = x.CS, x.RS
	return x
}

// shift returns x with its origin moved to element (i, j).
func shift[T gemm.Scalar](x gemm.Mat[T], i, j int) gemm.Mat[T] {
	x.Off += i*x.RS + j*x.CS
	return x
}

// at returns the storage index of element (i, j) of x.
func at[T gemm.Scalar](x gemm.Mat[T], i, j int) int { return x.Off + i*x.RS + j*x.CS }

// conjCopy writes the conjugate of the row-major rows×cols matrix src
// (leading dimension ld) to dst as a compact row-major matrix and returns
// dst.
func conjCopy[T gemm.Scalar](dst []T, rows, cols int, src []T, ld int) []T {
	for i := range rows {
		d, s := dst[i*cols:(i+1)*cols], src[i*ld:i*ld+cols]
		for j, v := range s {
			d[j] = conj(v)
		}
	}
	return dst
}

func isComplex[T gemm.Scalar]() bool {
	var z T
	switch any(z).(type) {
	case complex64, complex128:
		return true
	}
	return false
}

// conj returns the complex conjugate of x (x itself for real T).
func conj[T gemm.Scalar](x T) T {
	switch v := any(x).(type) {
	case complex128:
		return any(cmplx.Conj(v)).(T)
	case complex64:
		return any(complex(real(v), -imag(v))).(T)
	}
	return x
}

// conjMat conjugates the m×n matrix x in place (complex T only).
func conjMat[T gemm.Scalar](m, n int, x gemm.Mat[T]) {
	for j := range n {
		for i := range m {
			p := at(x, i, j)
			x.Data[p] = conj(x.Data[p])
		}
	}
}

// scaleMat sets the m×n matrix x to alpha·x.
func scaleMat[T gemm.Scalar](m, n int, alpha T, x gemm.Mat[T]) {
	if x.RS != 1 && x.CS == 1 {
		x, m, n = tr(x), n, m
	}
	for j := range n {
		for i := range m {
			x.Data[at(x, i, j)] *= alpha
		}
	}
}
