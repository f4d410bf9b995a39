package lapack

import (
	"math"

	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
	"github.com/tenferro-go/tenferro/internal/par"
)

// HeevDCMin is the order from which Heev computes eigenvectors by divide
// and conquer ([Stedc], then Q·S applied by [Unmtr]) rather than by
// Steqr's rotations on the explicit Q. Set it before calls run (it is read
// without locking). BenchmarkHeevDCMin on a shared 2-vCPU AMD EPYC (Zen 5)
// guest (noisy): the two were even at n = 32 (float64; Steqr 2x faster
// for complex128), and divide and conquer was 2-3x faster at n = 64 and
// 96 and 2-4x at 128 and 192 for both types; faer's threshold is 128.
var HeevDCMin = 48

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
// tridiagonal form T = Qᴴ·A·Q by [Hetrd]. The eigenvalues alone come from
// [Steqr] without rotations (O(n²)). With vectors and n ≥ [HeevDCMin],
// T = S·Λ·Sᵀ is solved by [Stedc] and V = Q·S formed by [Unmtr] (S
// converted to T for complex types), as LAPACK's ?heevd; below it, Q is
// formed by [Ungtr] and Steqr's rotations applied to it. ws's scratch
// holds the buffers of those routines, τ, the tridiagonal, S and Stedc's
// workspace (about 4·n² float64s on the divide-and-conquer path, and n²
// elements of T for complex types); a warm ws allocates nothing.
//
// It returns 0 on success, the Steqr info when its iteration bound runs
// out (a is then not a valid V; a failed Stedc falls back to Ungtr and
// Steqr), and n when the referenced triangle holds NaN or ±Inf, the
// diagonal's imaginary part included (w is then all NaN, and a is left as
// it was).
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
	// Scratch: [Hetrd's, Ungtr's or Unmtr's head | τ | e, work or S and
	// Stedc's scratch], the float64 part in its own slice unless T is
	// float64, and then a T copy of S for complex T. The Householder
	// routines take their buffers from the head of the same slice, so the
	// tail survives them.
	dc := vectors && n >= HeevDCMin
	head := max(hetrdSize[T](n), ungtrSize[T](n))
	nf := 3 * n
	if dc {
		nf = n + n*n + stedcSize(n) + 2*n
	}
	var s []T
	var f []float64
	_, real64 := any(a.Data).([]float64)
	if real64 {
		s = scratch[T](ws, head+n+nf)
		f = any(s[head+n:]).([]float64)
	} else {
		nt := head + n
		if dc {
			nt += n * n
		}
		s = scratch[T](ws, nt)
		f = scratch[float64](ws, nf)
	}
	tau := s[head : head+n]
	e := f[:n]
	hetrd(ws, r, uplo, n, a, w, e, tau, s[:head])
	var info int
	switch {
	case dc:
		zs := f[n : n+n*n]
		z := gemm.Mat[float64]{Data: zs, RS: 1, CS: n}
		// A copy of T, for Steqr should Stedc fail (a root's iteration
		// bound running out; T is finite here).
		t0 := f[n+n*n+stedcSize(n):]
		copy(t0[:n], w)
		copy(t0[n:2*n-1], e[:n-1])
		if stedc(ws, r, n, w, e, z, f[n+n*n:n+n*n+stedcSize(n)]) != 0 {
			copy(w, t0[:n])
			copy(e, t0[n:2*n-1])
			Ungtr(ws, r, uplo, n, a, tau)
			info = Steqr(n, w, e, a, f[n:3*n])
			break
		}
		var c gemm.Mat[T]
		if real64 {
			c = any(z).(gemm.Mat[T])
		} else {
			cs := s[head+n : head+n+n*n]
			switch v := any(cs).(type) {
			case []complex128:
				for i, x := range zs {
					v[i] = complex(x, 0)
				}
			case []complex64:
				for i, x := range zs {
					v[i] = complex(float32(x), 0)
				}
			case []float32:
				for i, x := range zs {
					v[i] = float32(x)
				}
			}
			c = gemm.Mat[T]{Data: cs, RS: 1, CS: n}
		}
		Unmtr(ws, r, uplo, NoTrans, n, n, a, tau, c)
		copyMat(n, n, c, a)
	case vectors:
		Ungtr(ws, r, uplo, n, a, tau)
		info = Steqr(n, w, e, a, f[n:3*n])
	default:
		info = Steqr(n, w, e, gemm.Mat[T]{}, f[n:3*n])
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
		o := a.Off + j*a.CS + i0*a.RS
		var x float64
		switch d := any(a.Data).(type) {
		case []float64:
			x = maxAbsR(d, o, i1-i0, a.RS)
		case []float32:
			x = maxAbsR(d, o, i1-i0, a.RS)
		case []complex128:
			x = maxAbsC(d, o, i1-i0, a.RS)
		case []complex64:
			x = maxAbsC(d, o, i1-i0, a.RS)
		}
		if x != x {
			return x
		}
		m = max(m, x)
	}
	return m
}

// maxAbsR returns max |x[off+i*inc]| over n elements, NaN if one is NaN.
func maxAbsR[F float32 | float64](x []F, off, n, inc int) float64 {
	m := 0.0
	for i := 0; i < n; i++ {
		v := math.Abs(float64(x[off+i*inc]))
		if !(v <= m) {
			if v != v {
				return v
			}
			m = v
		}
	}
	return m
}

// maxAbsC is maxAbsR for complex elements (the modulus).
func maxAbsC[C complex64 | complex128](x []C, off, n, inc int) float64 {
	m := 0.0
	for i := 0; i < n; i++ {
		z := complex128(x[off+i*inc])
		v := math.Hypot(real(z), imag(z))
		if !(v <= m) {
			if v != v {
				return v
			}
			m = v
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
