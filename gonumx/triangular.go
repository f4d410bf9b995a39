package gonumx

import (
	"gonum.org/v1/gonum/blas"

	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
	"github.com/tenferro-go/tenferro/internal/kernel/lapack"
	"github.com/tenferro-go/tenferro/internal/par"
)

// trmmLeaf is the order of the triangles that TRMM multiplies as full
// matrices (the other triangle zero) in one GEMM.
const trmmLeaf = 64

// Dtrsm solves op(A)·X = alpha·B (side Left, A m×m) or X·op(A) = alpha·B
// (side Right, A n×n) for the m×n X, overwriting B, with A triangular as ul
// says (unit diagonal, not read, when d is Unit). Large solves run the
// recursive blocked solver of this module, whose off-diagonal updates are
// GEMMs; small ones, alpha = 0 and invalid arguments run gonum's Dtrsm.
func (impl *Implementation) Dtrsm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int) {
	if alpha == 0 || !triArgs(s, ul, tA, d, m, n, len(a), lda, len(b), ldb) || impl.small(triWork(s, m, n)) {
		impl.Implementation.Dtrsm(s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
		return
	}
	trsmRowMajor(impl, s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
}

// Strsm is [Implementation.Dtrsm] for float32.
func (impl *Implementation) Strsm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float32, a []float32, lda int, b []float32, ldb int) {
	if alpha == 0 || !triArgs(s, ul, tA, d, m, n, len(a), lda, len(b), ldb) || impl.small(triWork(s, m, n)) {
		impl.Implementation.Strsm(s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
		return
	}
	trsmRowMajor(impl, s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
}

// Ztrsm is [Implementation.Dtrsm] for complex128 (op may be Aᴴ too).
func (impl *Implementation) Ztrsm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha complex128, a []complex128, lda int, b []complex128, ldb int) {
	if alpha == 0 || !triArgs(s, ul, tA, d, m, n, len(a), lda, len(b), ldb) || impl.small(triWork(s, m, n)) {
		impl.Implementation.Ztrsm(s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
		return
	}
	trsmRowMajor(impl, s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
}

// Ctrsm is [Implementation.Ztrsm] for complex64.
func (impl *Implementation) Ctrsm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha complex64, a []complex64, lda int, b []complex64, ldb int) {
	if alpha == 0 || !triArgs(s, ul, tA, d, m, n, len(a), lda, len(b), ldb) || impl.small(triWork(s, m, n)) {
		impl.Implementation.Ctrsm(s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
		return
	}
	trsmRowMajor(impl, s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
}

// Dtrmm computes B = alpha·op(A)·B (side Left, A m×m) or B = alpha·B·op(A)
// (side Right, A n×n) for the m×n B, with A triangular as ul says (unit
// diagonal, not read, when d is Unit). Large products are halved
// recursively into GEMMs down to triangles of order 64, which are
// multiplied as full matrices; small ones, alpha = 0 and invalid arguments
// run gonum's Dtrmm.
func (impl *Implementation) Dtrmm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int) {
	if alpha == 0 || !triArgs(s, ul, tA, d, m, n, len(a), lda, len(b), ldb) || impl.small(triWork(s, m, n)) {
		impl.Implementation.Dtrmm(s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
		return
	}
	trmmRowMajor(impl, s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
}

// Strmm is [Implementation.Dtrmm] for float32.
func (impl *Implementation) Strmm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float32, a []float32, lda int, b []float32, ldb int) {
	if alpha == 0 || !triArgs(s, ul, tA, d, m, n, len(a), lda, len(b), ldb) || impl.small(triWork(s, m, n)) {
		impl.Implementation.Strmm(s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
		return
	}
	trmmRowMajor(impl, s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
}

// Ztrmm is [Implementation.Dtrmm] for complex128 (op may be Aᴴ too).
func (impl *Implementation) Ztrmm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha complex128, a []complex128, lda int, b []complex128, ldb int) {
	if alpha == 0 || !triArgs(s, ul, tA, d, m, n, len(a), lda, len(b), ldb) || impl.small(triWork(s, m, n)) {
		impl.Implementation.Ztrmm(s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
		return
	}
	trmmRowMajor(impl, s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
}

// Ctrmm is [Implementation.Ztrmm] for complex64.
func (impl *Implementation) Ctrmm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha complex64, a []complex64, lda int, b []complex64, ldb int) {
	if alpha == 0 || !triArgs(s, ul, tA, d, m, n, len(a), lda, len(b), ldb) || impl.small(triWork(s, m, n)) {
		impl.Implementation.Ctrmm(s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
		return
	}
	trmmRowMajor(impl, s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
}

// triWork is the multiply-add count of a triangular solve or product on
// the m×n B: half the triangle times the other dimension.
func triWork(s blas.Side, m, n int) float64 {
	t, o := float64(m), float64(n)
	if s == blas.Right {
		t, o = o, t
	}
	return t * t * o / 2
}

// colMajorTri restates a row-major triangular call on the column-major
// matrices that the same memory holds: the row-major B is the column-major
// Bᵀ and the row-major A the column-major Aᵀ, so op(A)·X = αB is
// Xᵀ·op(Aᵀ) = αBᵀ (op(A)ᵀ = op(Aᵀ) for op = N, T and H): the side and the
// triangle swap, the operation stays, and m and n trade places.
func colMajorTri(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag) (left, lower bool, op lapack.Op, unit bool) {
	op = lapack.NoTrans
	switch tA {
	case blas.Trans:
		op = lapack.Trans
	case blas.ConjTrans:
		op = lapack.ConjTrans
	}
	return s == blas.Right, ul == blas.Upper, op, d == blas.Unit
}

// trsmRowMajor runs a checked row-major TRSM on lapack.Trsm.
func trsmRowMajor[T gemm.Scalar](impl *Implementation, s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha T, a []T, lda int, b []T, ldb int) {
	left, lower, op, unit := colMajorTri(s, ul, tA, d)
	side, uplo, diag := lapack.Right, lapack.Upper, lapack.NonUnit
	if left {
		side = lapack.Left
	}
	if lower {
		uplo = lapack.Lower
	}
	if unit {
		diag = lapack.Unit
	}
	w := getWork()
	defer putWork(w)
	lapack.Trsm(&w.lw, impl.run, side, uplo, op, diag, n, m, alpha, colMajor(a, lda), colMajor(b, ldb))
}

// trmmRowMajor runs a checked row-major TRMM on trmm.
func trmmRowMajor[T gemm.Scalar](impl *Implementation, s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha T, a []T, lda int, b []T, ldb int) {
	left, lower, op, unit := colMajorTri(s, ul, tA, d)
	w := getWork()
	defer putWork(w)
	trmm(w, impl.run, left, lower, op, unit, n, m, alpha, colMajor(a, lda), colMajor(b, ldb))
}

// trmm sets the m×n B to alpha·op(A)·B (left) or alpha·B·op(A), A
// triangular (lower or upper, unit diagonal not read when unit), for any
// strides. A right product is the left product of the transposes, and a
// product with conj(A) (what Aᴴ leaves after a transpose) is computed as
// conj(A·conj(B)), so that only trmmLeft's B = A·B remains.
func trmm[T gemm.Scalar](w *work, r par.Runner, left, lower bool, op lapack.Op, unit bool, m, n int, alpha T, a, b gemm.Mat[T]) {
	cj := false
	if !left {
		// B·op(A) = (op(A)ᵀ·Bᵀ)ᵀ with op(A)ᵀ = Aᵀ, A or conj(A).
		b, m, n = tr(b), n, m
		switch op {
		case lapack.NoTrans:
			a, lower = tr(a), !lower
		case lapack.ConjTrans:
			cj = true
		}
	} else if op != lapack.NoTrans {
		a, lower, cj = tr(a), !lower, op == lapack.ConjTrans
	}
	cj = cj && isComplex[T]()
	if cj {
		conjMat(m, n, b)
		alpha = conj(alpha)
	}
	if alpha != 1 {
		scaleMat(m, n, alpha, b)
	}
	trmmLeft(w, r, lower, unit, m, n, a, b)
	if cj {
		conjMat(m, n, b)
	}
}

// trmmLeft sets the m×n B to A·B for the m×m triangular A by halving A:
// with A = [A11 0; A21 A22] the new B2 is A22·B2 + A21·B1 and the new B1 is
// A11·B1, computed in that order so that B1 is read before it changes (the
// upper case mirrors it).
func trmmLeft[T gemm.Scalar](w *work, r par.Runner, lower, unit bool, m, n int, a, b gemm.Mat[T]) {
	if m <= trmmLeaf {
		trmmFull(w, r, lower, unit, m, n, a, b)
		return
	}
	m1 := m / 2
	m2 := m - m1
	a22, b2 := shift(a, m1, m1), shift(b, m1, 0)
	if lower {
		trmmLeft(w, r, lower, unit, m2, n, a22, b2)
		gemm.Gemm(&w.lw.Gemm, r, m2, n, m1, 1, shift(a, m1, 0), b, 1, b2)
		trmmLeft(w, r, lower, unit, m1, n, a, b)
		return
	}
	trmmLeft(w, r, lower, unit, m1, n, a, b)
	gemm.Gemm(&w.lw.Gemm, r, m1, n, m2, 1, shift(a, 0, m1), b2, 1, b)
	trmmLeft(w, r, lower, unit, m2, n, a22, b2)
}

// trmmFull sets B = A·B for a small triangle by one GEMM: the triangle is
// copied into a full m×m matrix (zeros across the diagonal, ones on it when
// unit) and B into a panel in its own orientation.
func trmmFull[T gemm.Scalar](w *work, r par.Runner, lower, unit bool, m, n int, a, b gemm.Mat[T]) {
	t := scratch[T](w, 0, m*m)
	for j := range m {
		for i := range m {
			var v T
			switch {
			case i == j && unit:
				v = 1
			case i == j || lower && i > j || !lower && i < j:
				v = a.Data[at(a, i, j)]
			}
			t[i+j*m] = v
		}
	}
	x := scratch[T](w, 1, m*n)
	var xm gemm.Mat[T]
	if b.RS != 1 && b.CS == 1 {
		xm = rowMajor(x, n)
		for i := range m {
			p := at(b, i, 0)
			copy(x[i*n:(i+1)*n], b.Data[p:p+n])
		}
	} else {
		xm = colMajor(x, m)
		for j := range n {
			for i := range m {
				x[i+j*m] = b.Data[at(b, i, j)]
			}
		}
	}
	gemm.Gemm(&w.lw.Gemm, r, m, n, m, 1, colMajor(t, m), xm, 0, b)
}
