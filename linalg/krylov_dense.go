package linalg

import "math"

// symEig computes the eigendecomposition A = Z·diag(w)·Zᵀ of the n×n real
// symmetric A (column-major, leading dimension n, both triangles set) by
// cyclic Jacobi rotations: each sweep annihilates every off-diagonal pair
// (p, q) in turn by the rotation that diagonalizes the 2×2 block, until the
// off-diagonal mass is below the unit roundoff times ‖A‖_F. A is
// overwritten; w gets the eigenvalues ascending and z (n×n, column-major)
// the orthonormal eigenvectors as columns. The iteration stops after
// symEigSweeps sweeps (quadratic convergence needs well under 20 for the
// small projected matrices of the Krylov solvers); it returns false then,
// and at once when A holds a NaN or an infinity.
func symEig(n int, a, w, z []float64) bool {
	for j := 0; j < n; j++ {
		for i := 0; i < n; i++ {
			z[i+j*n] = 0
		}
		z[j+j*n] = 1
	}
	total := 0.0
	for _, v := range a[:n*n] {
		total += v * v
	}
	if math.IsNaN(total) || math.IsInf(total, 0) {
		return false
	}
	ok := false
	for sweep := 0; sweep < symEigSweeps; sweep++ {
		off := 0.0
		for j := 0; j < n; j++ {
			for i := 0; i < j; i++ {
				off += a[i+j*n] * a[i+j*n]
			}
		}
		if off <= 0x1p-106*total || off == 0 {
			ok = true
			break
		}
		for q := 1; q < n; q++ {
			for p := 0; p < q; p++ {
				apq := a[p+q*n]
				if apq == 0 {
					continue
				}
				app, aqq := a[p+p*n], a[q+q*n]
				// tan of the rotation angle: the smaller root of
				// t² + 2τt − 1 = 0 with τ = (aqq − app)/(2apq).
				tau := (aqq - app) / (2 * apq)
				t := 1 / (math.Abs(tau) + math.Sqrt(1+tau*tau))
				if tau < 0 {
					t = -t
				}
				if math.IsInf(tau, 0) {
					t = 0
				}
				c := 1 / math.Sqrt(1+t*t)
				s := t * c
				for k := 0; k < n; k++ {
					akp, akq := a[k+p*n], a[k+q*n]
					a[k+p*n], a[k+q*n] = c*akp-s*akq, s*akp+c*akq
				}
				for k := 0; k < n; k++ {
					apk, aqk := a[p+k*n], a[q+k*n]
					a[p+k*n], a[q+k*n] = c*apk-s*aqk, s*apk+c*aqk
				}
				a[p+q*n], a[q+p*n] = 0, 0
				for k := 0; k < n; k++ {
					zkp, zkq := z[k+p*n], z[k+q*n]
					z[k+p*n], z[k+q*n] = c*zkp-s*zkq, s*zkp+c*zkq
				}
			}
		}
	}
	for i := 0; i < n; i++ {
		w[i] = a[i+i*n]
	}
	// Sort ascending by insertion, moving the vectors along.
	for i := 1; i < n; i++ {
		for k := i; k > 0 && w[k] < w[k-1]; k-- {
			w[k], w[k-1] = w[k-1], w[k]
			for r := 0; r < n; r++ {
				z[r+k*n], z[r+(k-1)*n] = z[r+(k-1)*n], z[r+k*n]
			}
		}
	}
	return ok
}

// symEigSweeps bounds the Jacobi sweeps of symEig.
const symEigSweeps = 50
