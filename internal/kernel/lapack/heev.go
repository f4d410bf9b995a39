package lapack

import (
	"math"

	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
	"github.com/tenferro-go/tenferro/internal/par"
)

// Heev computes the eigenvalues, and optionally the eigenvectors, of the
// n×n Hermitian (real symmetric) matrix A, reading only the uplo triangle
// of a:
//
//	A = V·diag(w)·Vᴴ,  V unitary,  w[0] ≤ w[1] ≤ … ≤ w[n−1],
//
// w float64 for every T. When vectors, a is overwritten with V (column j
// the eigenvector of w[j]); otherwise a is destroyed. The imaginary part of
// A's diagonal is ignored.
//
// A whose largest element lies outside [sqrt(s), 1/sqrt(s)], s the safe
// minimum over the unit roundoff of T's precision, is scaled into that
// range first and w scaled back, as LAPACK's ?heev. A is reduced to real
// tridiagonal form by [Hetrd]; the eigenvalues alone come from [Steqr]
// without rotations (O(n²)); with vectors, Q is formed by [Ungtr] and
// Steqr's rotations are applied to it. ws's scratch holds Hetrd's and
// Ungtr's buffers, τ and the tridiagonal; a warm ws allocates nothing.
//
// It returns 0 on success, Steqr's count of unconverged off-diagonal
// elements when its iteration bound runs out, and n when A holds NaN or
// ±Inf (w is then all NaN, and a is left as it was).
func Heev[T Scalar](ws *Workspace, r par.Runner, vectors bool, uplo Uplo, n int, a gemm.Mat[T], w []float64) int {
	if n <= 0 {
		return 0
	}
	anrm := maxAbsTri(uplo, n, a)
	if math.IsNaN(anrm) || math.IsInf(anrm, 0) {
		for i := range w[:n] {
			w[i] = math.NaN()
		}
		return n
	}
	if n == 1 {
		w[0] = re(a.Data[a.Off])
		if vectors {
			a.Data[a.Off] = 1
		}
		return 0
	}
	smlnum := safeMin[T]()
	rmin, rmax := math.Sqrt(smlnum), math.Sqrt(1/smlnum)
	sigma := 1.0
	if anrm > 0 && anrm < rmin {
		sigma = rmin / anrm
	} else if anrm > rmax {
		sigma = rmax / anrm
	}
	if sigma != 1 {
		scaleTriangle(uplo, n, a, sigma)
	}
	// Scratch: [Hetrd's and Ungtr's head | τ | e, work], the float64 part
	// in its own slice unless T is float64. Ungtr's Orgqr takes its
	// buffers from the head of the same slice, so the tail survives it.
	head := max(hetrdSize[T](n), ungtrSize[T](n))
	var s []T
	var f []float64
	if _, ok := any(a.Data).([]float64); ok {
		s = scratch[T](ws, head+4*n)
		f = any(s[head+n:]).([]float64)
	} else {
		s = scratch[T](ws, head+n)
		f = scratch[float64](ws, 3*n)
	}
	tau := s[head : head+n]
	e, work := f[:n], f[n:3*n]
	hetrd(ws, r, uplo, n, a, w, e, tau, s[:head])
	var info int
	if vectors {
		Ungtr(ws, r, uplo, n, a, tau)
		info = Steqr(n, w, e, a, work)
	} else {
		info = Steqr(n, w, e, gemm.Mat[T]{}, work)
	}
	if sigma != 1 {
		for i := range w[:n] {
			w[i] /= sigma
		}
	}
	return info
}

// maxAbsTri returns the largest |a(i, j)| over the uplo triangle of the
// n×n a (NaN if any element is NaN).
func maxAbsTri[T Scalar](uplo Uplo, n int, a gemm.Mat[T]) float64 {
	m := 0.0
	for j := 0; j < n; j++ {
		i0, i1 := j, n
		if uplo == Upper {
			i0, i1 = 0, j+1
		}
		o := a.Off + j*a.CS
		for i := i0; i < i1; i++ {
			x := abs(a.Data[o+i*a.RS])
			if x > m || x != x {
				m = x
				if x != x {
					return x
				}
			}
		}
	}
	return m
}

// scaleTriangle multiplies the uplo triangle of the n×n a by s.
func scaleTriangle[T Scalar](uplo Uplo, n int, a gemm.Mat[T], s float64) {
	st := fromReal[T](s)
	for j := 0; j < n; j++ {
		i0, i1 := j, n
		if uplo == Upper {
			i0, i1 = 0, j+1
		}
		scaleVec(a.Data, a.Off+j*a.CS+i0*a.RS, i1-i0, a.RS, st)
	}
}
