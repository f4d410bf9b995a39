package lapack

import (
	"math"

	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
)

// JacobiMaxSweeps bounds the sweeps of [Gesvj] and [Heevj]: a sweep visits
// every pair of columns once, and a decomposition that still rotates after
// this many sweeps is reported as not converged (Jacobi methods converge
// quadratically once the off-diagonal mass is small; a few sweeps, about
// 5-8 for n ≤ 32, are the rule).
const JacobiMaxSweeps = 30

// Crossovers of the batched drivers of package cpu, which choose [Gesvj]
// and [Heevj] for matrices no larger than these and the Householder
// pipelines ([Gesvd], [Heev]) above. BenchmarkSmallSpectral (one square
// matrix with vectors, shared and busy 2-vCPU AMD EPYC guest, minimum of
// 3 runs): Gesvj took 0.5-0.7× Gesvd's time at n = 4 (float64 and
// complex128), 0.9-1.1× at n = 6, 1.3-1.4× at n = 8 and 2-3.5× at n = 16;
// Heevj took 0.8-0.9× Heev's at n = 4, 1.0-1.4× at n = 6 and 1.3-1.6×
// at n = 8. A sweep costs about 6·n³ operations against a one-time
// reduction, so the crossovers are small. Set them before calls run (they
// are read without locking).
var (
	JacobiSVDMax  = 5
	JacobiEighMax = 4
)

// jacobiRot returns the real Jacobi rotation [c, s; −s, c] that makes the
// symmetric [α, g; g, β] (g > 0) diagonal as Jᵀ·[…]·J, with t = tan θ: the
// new diagonal is α − t·g and β + t·g (Golub and Van Loan's sym.schur2).
// For a Hermitian [α, γ; conj(γ), β] with |γ| = g, conjugating by
// diag(1, e^{−iφ}), γ = g·e^{iφ}, gives the complex rotation
// J = [c, sp; −conj(sp), c] with sp = s·γ/g.
func jacobiRot(alpha, beta, g float64) (c, s, t float64) {
	zeta := (beta - alpha) / (2 * g)
	az := math.Abs(zeta)
	if az < 1e150 {
		t = 1 / (az + math.Sqrt(1+zeta*zeta))
	} else {
		t = 0.5 / az
	}
	if zeta < 0 {
		t = -t
	}
	c = 1 / math.Sqrt(1+t*t)
	return c, c * t, t
}

// rotColsC sets x, y = c·x − conj(sp)·y, sp·x + c·y over two equal-length
// contiguous complex columns.
func rotColsC[C complex64 | complex128](x, y []C, c float64, sp C) {
	s := complex128(sp)
	sr, si := real(s), imag(s)
	y = y[:len(x)]
	for i, a := range x {
		a, b := complex128(a), complex128(y[i])
		ar, ai, br, bi := real(a), imag(a), real(b), imag(b)
		// conj(sp)·b and sp·a
		x[i] = C(complex(c*ar-(sr*br+si*bi), c*ai-(sr*bi-si*br)))
		y[i] = C(complex(c*br+(sr*ar-si*ai), c*bi+(sr*ai+si*ar)))
	}
}

// dotc returns xᴴ·y over two equal-length contiguous vectors.
func dotc[T Scalar](x, y []T) T {
	switch p := any(&x).(type) {
	case *[]complex128:
		var r T
		*any(&r).(*complex128) = dotcC(*p, any(y).([]complex128))
		return r
	case *[]complex64:
		var r T
		*any(&r).(*complex64) = complex64(dotcC(*p, any(y).([]complex64)))
		return r
	}
	var s T
	y = y[:len(x)]
	for i, a := range x {
		s += a * y[i]
	}
	return s
}

func dotcC[C complex64 | complex128](x, y []C) complex128 {
	var sr, si float64
	y = y[:len(x)]
	for i, a := range x {
		a, b := complex128(a), complex128(y[i])
		sr += real(a)*real(b) + imag(a)*imag(b)
		si += real(a)*imag(b) - imag(a)*real(b)
	}
	return complex(sr, si)
}

// abs2 returns |x|².
func abs2[T Scalar](x T) float64 {
	switch v := any(x).(type) {
	case float32:
		return float64(v) * float64(v)
	case float64:
		return v * v
	case complex64:
		return float64(real(v))*float64(real(v)) + float64(imag(v))*float64(imag(v))
	case complex128:
		return real(v)*real(v) + imag(v)*imag(v)
	}
	return 0
}

// pow2Scale returns the power of two 2^−e that brings the largest
// magnitude amax into [0.5, 1), and e; 1 and 0 for a zero or non-finite
// amax. Scaling by it is exact (barring subnormal results).
func pow2Scale(amax float64) (float64, int) {
	if amax == 0 || math.IsInf(amax, 0) || math.IsNaN(amax) {
		return 1, 0
	}
	_, e := math.Frexp(amax)
	return math.Ldexp(1, -e), e
}

// GesvjWork returns the number of elements of T that [Gesvj] takes from
// the workspace's scratch for an m×n matrix.
func GesvjWork(m, n int) int {
	p, r := max(m, n), min(m, n)
	return p*r + r*r + p
}

// Gesvj computes the thin singular value decomposition of the m×n A by
// one-sided (Hestenes) Jacobi rotations,
//
//	A = U·diag(s)·Vᴴ,  s[0] ≥ s[1] ≥ … ≥ s[k−1] ≥ 0,  k = min(m, n),
//
// s float64 for every T, with u m×k and vt k×n when vectors (otherwise u
// and vt are not referenced). A is read, never written; u and vt must not
// overlap it. When m < n the decomposition of Aᴴ is computed and
// transposed.
//
// W = A (or Aᴴ), p×k with p = max(m, n), scaled by a power of two so that
// its largest element is in [0.5, 1), is copied to ws's scratch
// ([GesvjWork] elements). Each sweep visits the pairs (i, j), i < j, of
// W's columns in cyclic order; a pair with |wᵢᴴ·wⱼ| > p·ε·‖wᵢ‖·‖wⱼ‖ (ε
// the unit roundoff of T; the computed wᵢᴴ·wⱼ is itself only that accurate,
// so a tighter test could rotate forever) is made orthogonal by the plane rotation that
// diagonalizes its 2×2 Gram matrix, applied to W and to the accumulated V
// (the complex rotation for complex types). When a sweep rotates nothing,
// s are the column norms of W, U its normalized columns and V the
// accumulated rotations, sorted by decreasing s. Columns of W that are
// exactly zero (rank deficiency) get orthonormal completions in U by
// Gram-Schmidt on unit vectors. The relative criterion gives the singular
// values high relative accuracy (Demmel and Veselić).
//
// It returns 0 on success and 1 when [JacobiMaxSweeps] sweeps did not
// converge (s, u and vt are then written from the last iterate). It runs
// on the caller and allocates nothing on a warm ws; NaN input makes every
// comparison false, so it never loops past the sweep bound.
func Gesvj[T Scalar](ws *Workspace, vectors bool, m, n int, a gemm.Mat[T], s []float64, u, vt gemm.Mat[T]) int {
	p, k := max(m, n), min(m, n)
	if k == 0 {
		return 0
	}
	buf := scratch[T](ws, GesvjWork(m, n))
	w, v, z := buf[:p*k], buf[p*k:p*k+k*k], buf[p*k+k*k:]
	amax := maxAbs(m, n, a)
	sc, e := pow2Scale(amax)
	scT := fromReal[T](sc)
	tall := m >= n
	for j := 0; j < k; j++ {
		col := w[j*p : (j+1)*p]
		for i := range col {
			if tall {
				col[i] = scT * a.Data[a.Off+i*a.RS+j*a.CS]
			} else {
				col[i] = scT * conj(a.Data[a.Off+j*a.RS+i*a.CS])
			}
		}
	}
	if vectors {
		clear(v)
		for j := 0; j < k; j++ {
			v[j*k+j] = 1
		}
	}
	info := jacobiSweeps(w, v, p, k, vectors, s)
	// Sort by decreasing norm (selection sort: k is small), permuting the
	// columns of W and V alike.
	for i := 0; i < k; i++ {
		b := i
		for j := i + 1; j < k; j++ {
			if s[j] > s[b] {
				b = j
			}
		}
		if b != i {
			s[i], s[b] = s[b], s[i]
			swapJCols(w, p, i, b)
			if vectors {
				swapJCols(v, k, i, b)
			}
		}
	}
	if vectors {
		for j := 0; j < k; j++ {
			col := w[j*p : (j+1)*p]
			if s[j] > safeMin[T]() {
				inv := fromReal[T](1 / s[j])
				for i := range col {
					col[i] *= inv
				}
			} else {
				completeCol(w, p, j, z)
			}
		}
	}
	scale := math.Ldexp(1, e)
	for j := range s[:k] {
		s[j] *= scale
	}
	if !vectors {
		return info
	}
	// W holds U (tall) or V′ of Aᴴ = V′·Σ·U′ᴴ; v holds V (tall) or U′.
	if tall {
		for j := 0; j < k; j++ {
			for i := 0; i < m; i++ {
				u.Data[u.Off+i*u.RS+j*u.CS] = w[j*p+i]
			}
			for i := 0; i < n; i++ { // vt[j, i] = conj(V[i, j])
				vt.Data[vt.Off+j*vt.RS+i*vt.CS] = conj(v[j*k+i])
			}
		}
		return info
	}
	for j := 0; j < k; j++ {
		for i := 0; i < m; i++ { // U = U′ (k = m)
			u.Data[u.Off+i*u.RS+j*u.CS] = v[j*k+i]
		}
		for i := 0; i < n; i++ { // vt[j, i] = conj(V′[i, j])
			vt.Data[vt.Off+j*vt.RS+i*vt.CS] = conj(w[j*p+i])
		}
	}
	return info
}

// jacobiSweeps orthogonalizes the k columns (length p) of the compact w by
// cyclic one-sided Jacobi rotations, accumulating them in the k×k v when
// vectors, and leaves the column norms in s[:k]. It returns 0 when a sweep
// rotated nothing, 1 after JacobiMaxSweeps sweeps otherwise. The sweeps
// run as typed loops, real ([sweepsR]) or complex ([sweepsC]): for the
// small orders Jacobi is used at, per-pair conversions through the
// generic helpers would cost as much as the rotations.
func jacobiSweeps[T Scalar](w, v []T, p, k int, vectors bool, s []float64) int {
	tol := float64(p) * machEps[T]()
	var info int
	switch x := any(w).(type) {
	case []float64:
		info = sweepsR(x, any(v).([]float64), p, k, vectors, s, tol)
	case []float32:
		info = sweepsR(x, any(v).([]float32), p, k, vectors, s, tol)
	case []complex128:
		info = sweepsC(x, any(v).([]complex128), p, k, vectors, s, tol)
	case []complex64:
		info = sweepsC(x, any(v).([]complex64), p, k, vectors, s, tol)
	}
	for j := 0; j < k; j++ {
		s[j] = math.Sqrt(sumAbsSq(w, j*p, p, 1))
	}
	return info
}

// sweepsR is jacobiSweeps for real types: the pair (i, j) with Gram matrix
// [α, γ; γ, β] is rotated when γ² > tol²·α·β, by [c, s; −s, c].
func sweepsR[F float32 | float64](w, v []F, p, k int, vectors bool, s []float64, tol float64) int {
	tol2 := tol * tol
	for sweep := 0; sweep < JacobiMaxSweeps; sweep++ {
		for j := 0; j < k; j++ {
			s[j] = sumSqR(w, j*p, p, 1)
		}
		rotated := false
		for i := 0; i < k-1; i++ {
			wi := w[i*p : (i+1)*p]
			for j := i + 1; j < k; j++ {
				alpha, beta := s[i], s[j]
				if alpha == 0 || beta == 0 {
					continue
				}
				wj := w[j*p : (j+1)*p][:len(wi)]
				var gamma float64
				for r, x := range wi {
					gamma += float64(x) * float64(wj[r])
				}
				if !(gamma*gamma > tol2*alpha*beta) {
					continue
				}
				rotated = true
				g := math.Abs(gamma)
				c, sn, t := jacobiRot(alpha, beta, g)
				if gamma < 0 {
					sn = -sn
				}
				rotPairR(wi, wj, F(c), F(sn))
				if vectors {
					rotPairR(v[i*k:(i+1)*k], v[j*k:(j+1)*k], F(c), F(sn))
				}
				s[i], s[j] = updatedNorms(w, p, i, j, alpha, beta, t*g)
			}
		}
		if !rotated {
			return 0
		}
	}
	return 1
}

// rotPairR sets x, y = c·x − s·y, s·x + c·y.
func rotPairR[F float32 | float64](x, y []F, c, s F) {
	y = y[:len(x)]
	for i, a := range x {
		b := y[i]
		x[i] = c*a - s*b
		y[i] = s*a + c*b
	}
}

// sweepsC is jacobiSweeps for complex types, with the complex rotation of
// [jacobiRot].
func sweepsC[C complex64 | complex128](w, v []C, p, k int, vectors bool, s []float64, tol float64) int {
	tol2 := tol * tol
	for sweep := 0; sweep < JacobiMaxSweeps; sweep++ {
		for j := 0; j < k; j++ {
			s[j] = sumSqC(w, j*p, p, 1)
		}
		rotated := false
		for i := 0; i < k-1; i++ {
			wi := w[i*p : (i+1)*p]
			for j := i + 1; j < k; j++ {
				alpha, beta := s[i], s[j]
				if alpha == 0 || beta == 0 {
					continue
				}
				wj := w[j*p : (j+1)*p]
				gamma := dotcC(wi, wj)
				g2 := real(gamma)*real(gamma) + imag(gamma)*imag(gamma)
				if !(g2 > tol2*alpha*beta) {
					continue
				}
				rotated = true
				g := math.Sqrt(g2)
				c, sn, t := jacobiRot(alpha, beta, g)
				sp := C(gamma * complex(sn/g, 0))
				rotColsC(wi, wj, c, sp)
				if vectors {
					rotColsC(v[i*k:(i+1)*k], v[j*k:(j+1)*k], c, sp)
				}
				s[i], s[j] = updatedNorms(w, p, i, j, alpha, beta, t*g)
			}
		}
		if !rotated {
			return 0
		}
	}
	return 1
}

// updatedNorms returns the squared norms α − d and β + d of columns i and
// j after their rotation, recomputed where cancellation makes the update
// inaccurate.
func updatedNorms[T Scalar](w []T, p, i, j int, alpha, beta, d float64) (float64, float64) {
	na, nb := alpha-d, beta+d
	if na < alpha/4 {
		na = sumAbsSq(w, i*p, p, 1)
	}
	if nb < beta/4 {
		nb = sumAbsSq(w, j*p, p, 1)
	}
	return na, nb
}

// swapJCols swaps columns i and j of the compact matrix a with p rows.
func swapJCols[T Scalar](a []T, p, i, j int) {
	x, y := a[i*p:(i+1)*p], a[j*p:(j+1)*p]
	for r := range x {
		x[r], y[r] = y[r], x[r]
	}
}

// completeCol sets column j of the compact p-row w, whose other columns
// with index < j and the nonzero ones after it are orthonormal, to a unit
// vector orthogonal to them: the first unit vector eᵢ whose component
// orthogonal to them (two Gram-Schmidt passes) has norm² ≥ 1/(2p),
// normalized. Columns after j that are zero are skipped. z is room for p
// elements.
func completeCol[T Scalar](w []T, p, j int, z []T) {
	k := len(w) / p
	for e := 0; e < p; e++ {
		clear(z[:p])
		z[e] = 1
		for pass := 0; pass < 2; pass++ {
			for c := 0; c < k; c++ {
				if c == j {
					continue
				}
				col := w[c*p : (c+1)*p]
				if c > j && sumAbsSq(col, 0, p, 1) == 0 {
					continue
				}
				d := dotc(col, z[:p])
				for r := range col {
					z[r] -= d * col[r]
				}
			}
		}
		nz := sumAbsSq(z, 0, p, 1)
		if nz >= 1/(2*float64(p)) {
			inv := fromReal[T](1 / math.Sqrt(nz))
			col := w[j*p : (j+1)*p]
			for r := range col {
				col[r] = z[r] * inv
			}
			return
		}
	}
}

// heevjR runs Heevj's sweeps on the full n×n real symmetric h (and v),
// as typed loops: the pair (p, q) is rotated when
// h[p,q]² > max(eps2·|h[p,p]·h[q,q]|, floor2).
func heevjR[F float32 | float64](h, v []F, n int, vectors bool, eps2, floor2 float64) int {
	for sweep := 0; sweep < JacobiMaxSweeps; sweep++ {
		rotated := false
		for p := 0; p < n-1; p++ {
			for q := p + 1; q < n; q++ {
				gamma := float64(h[p+q*n])
				g2 := gamma * gamma
				app, aqq := float64(h[p+p*n]), float64(h[q+q*n])
				if !(g2 > eps2*math.Abs(app*aqq) && g2 > floor2) {
					continue
				}
				rotated = true
				g := math.Abs(gamma)
				c, sn, t := jacobiRot(app, aqq, g)
				if gamma < 0 {
					sn = -sn
				}
				cf, sf := F(c), F(sn)
				rotPairR(h[p*n:(p+1)*n], h[q*n:(q+1)*n], cf, sf)
				for j := 0; j < n; j++ {
					x, y := h[p+j*n], h[q+j*n]
					h[p+j*n] = cf*x - sf*y
					h[q+j*n] = sf*x + cf*y
				}
				h[p+q*n], h[q+p*n] = 0, 0
				h[p+p*n], h[q+q*n] = F(app-t*g), F(aqq+t*g)
				if vectors {
					rotPairR(v[p*n:(p+1)*n], v[q*n:(q+1)*n], cf, sf)
				}
			}
		}
		if !rotated {
			return 0
		}
	}
	return 1
}

// heevjC is heevjR for complex Hermitian h, with the complex rotation.
func heevjC[C complex64 | complex128](h, v []C, n int, vectors bool, eps2, floor2 float64) int {
	for sweep := 0; sweep < JacobiMaxSweeps; sweep++ {
		rotated := false
		for p := 0; p < n-1; p++ {
			for q := p + 1; q < n; q++ {
				gamma := complex128(h[p+q*n])
				g2 := real(gamma)*real(gamma) + imag(gamma)*imag(gamma)
				app, aqq := real(complex128(h[p+p*n])), real(complex128(h[q+q*n]))
				if !(g2 > eps2*math.Abs(app*aqq) && g2 > floor2) {
					continue
				}
				rotated = true
				g := math.Sqrt(g2)
				c, sn, t := jacobiRot(app, aqq, g)
				sp := gamma * complex(sn/g, 0)
				rotColsC(h[p*n:(p+1)*n], h[q*n:(q+1)*n], c, C(sp))
				csp := complex(real(sp), -imag(sp))
				for j := 0; j < n; j++ {
					x, y := complex128(h[p+j*n]), complex128(h[q+j*n])
					h[p+j*n] = C(complex(c*real(x), c*imag(x)) - sp*y)
					h[q+j*n] = C(csp*x + complex(c*real(y), c*imag(y)))
				}
				h[p+q*n], h[q+p*n] = 0, 0
				h[p+p*n], h[q+q*n] = C(complex(app-t*g, 0)), C(complex(aqq+t*g, 0))
				if vectors {
					rotColsC(v[p*n:(p+1)*n], v[q*n:(q+1)*n], c, C(sp))
				}
			}
		}
		if !rotated {
			return 0
		}
	}
	return 1
}

// HeevjWork returns the number of elements of T that [Heevj] takes from
// the workspace's scratch for order n.
func HeevjWork(n int) int { return 2 * n * n }

// Heevj computes the eigenvalues, and optionally the eigenvectors, of the
// n×n Hermitian (real symmetric) A by the cyclic two-sided Jacobi method,
// reading only the uplo triangle of a, with Heev's contract:
//
//	A = V·diag(w)·Vᴴ,  V unitary,  w[0] ≤ w[1] ≤ … ≤ w[n−1],
//
// w float64 for every T; when vectors, a is overwritten with V (column j
// the eigenvector of w[j]), otherwise a is left as it was. The imaginary
// part of A's diagonal is ignored.
//
// The full Hermitian matrix, scaled by a power of two so that its largest
// element is in [0.5, 1), is copied to ws's scratch ([HeevjWork]
// elements, the second half holding V). Each sweep visits the pairs
// (p, q), p < q, in cyclic order and annihilates A[p, q] by the rotation
// J of [p, q] that diagonalizes the 2×2 block (A ← Jᴴ·A·J, V ← V·J) when
// |A[p, q]| exceeds ε·max(√|A[p,p]·A[q,q]|, ‖A‖_F) (ε the unit roundoff of
// T), so the eigenvalues carry the backward error of the Householder
// pipeline. A sweep that rotates nothing ends the iteration; w is the
// diagonal, sorted ascending with V's columns.
//
// Every column of V takes part in about n rotations a sweep, whose
// rounding accumulates: ‖VᴴV − I‖ stays below 10·n·ε up to n ≈ 16 and
// grows past it for larger n (about 12·n·ε at n = 32 on clustered
// spectra), so Heevj is meant for small orders.
//
// It returns 0 on success and 1 when [JacobiMaxSweeps] sweeps did not
// converge (w and a are then written from the last iterate). It runs on
// the caller and allocates nothing on a warm ws; NaN input never loops
// past the sweep bound.
func Heevj[T Scalar](ws *Workspace, vectors bool, uplo Uplo, n int, a gemm.Mat[T], w []float64) int {
	if n <= 0 {
		return 0
	}
	buf := scratch[T](ws, HeevjWork(n))
	h, v := buf[:n*n], buf[n*n:2*n*n]
	amax := maxAbsTri(uplo, n, a)
	sc, e := pow2Scale(amax)
	scT := fromReal[T](sc)
	fro := 0.0
	for j := 0; j < n; j++ {
		for i := j; i < n; i++ {
			var x T
			if uplo == Lower {
				x = a.Data[a.Off+i*a.RS+j*a.CS]
			} else {
				x = conj(a.Data[a.Off+j*a.RS+i*a.CS])
			}
			x *= scT
			if i == j {
				x = fromReal[T](re(x))
				fro += re(x) * re(x)
			} else {
				fro += 2 * abs2(x)
			}
			h[i+j*n] = x
			h[j+i*n] = conj(x)
		}
	}
	fro = math.Sqrt(fro)
	if vectors {
		clear(v)
		for j := 0; j < n; j++ {
			v[j*n+j] = 1
		}
	}
	eps := machEps[T]()
	eps2, floor2 := eps*eps, eps*fro*eps*fro
	var info int
	switch x := any(h).(type) {
	case []float64:
		info = heevjR(x, any(v).([]float64), n, vectors, eps2, floor2)
	case []float32:
		info = heevjR(x, any(v).([]float32), n, vectors, eps2, floor2)
	case []complex128:
		info = heevjC(x, any(v).([]complex128), n, vectors, eps2, floor2)
	case []complex64:
		info = heevjC(x, any(v).([]complex64), n, vectors, eps2, floor2)
	}
	for i := 0; i < n; i++ {
		w[i] = re(h[i+i*n])
	}
	for i := 0; i < n; i++ {
		b := i
		for j := i + 1; j < n; j++ {
			if w[j] < w[b] {
				b = j
			}
		}
		if b != i {
			w[i], w[b] = w[b], w[i]
			if vectors {
				swapJCols(v, n, i, b)
			}
		}
	}
	scale := math.Ldexp(1, e)
	for i := range w[:n] {
		w[i] *= scale
	}
	if vectors {
		for j := 0; j < n; j++ {
			for i := 0; i < n; i++ {
				a.Data[a.Off+i*a.RS+j*a.CS] = v[j*n+i]
			}
		}
	}
	return info
}
