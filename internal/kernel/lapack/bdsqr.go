package lapack

import (
	"math"

	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
)

// bdsqrTol is Bdsqr's relative tolerance, LAPACK's max(10, min(100,
// ε^(−1/8)))·ε.
var bdsqrTol = max(10, min(100, math.Pow(0x1p-53, -0.125))) * 0x1p-53

// bdsqrMaxIter is the iteration bound of Bdsqr per n² (LAPACK's MAXITR):
// at most bdsqrMaxIter·n² inner QR steps are taken.
const bdsqrMaxIter = 6

// BdsqrWork returns the length of work with which [Bdsqr] of order n
// batches the application of its rotations: 4·n plus room for the
// rotations of about 40 full sweeps.
func BdsqrWork(n int) int { return 4*n + 40*(3+4*n) }

// Bdsqr computes the singular value decomposition of the n×n real
// bidiagonal matrix B,
//
//	B = Q·S·Pᵀ,  S = diag(σ1 ≥ σ2 ≥ … ≥ σn ≥ 0),
//
// by the implicit zero-shift and shifted QR iteration of Demmel and Kahan
// (LAPACK's ?bdsqr): each singular value is found to high relative
// accuracy (the values of a bidiagonal matrix are determined to high
// relative accuracy by its entries), and the iteration chases from the
// larger end of each unreduced block toward the smaller one, switching to
// the zero shift when the shift would be negligible against the smallest
// singular value; 2×2 blocks are diagonalized directly.
//
// B is upper bidiagonal when upper (d its diagonal, e[:n−1] its
// superdiagonal) and lower otherwise (e its subdiagonal; it is first
// rotated to upper form). On return d holds the singular values in
// descending order and e is destroyed. The rotations are accumulated:
//
//	vt (n×ncvt) ← Pᵀ·vt   (rows of vt are rotated),
//	u  (nru×n)  ← u·Q     (columns of u are rotated),
//
// so that with vt and u set to Pᴴ and Q of a reduction A = Q·B·Pᴴ on entry
// they hold the singular vectors on return; the rows of vt and the columns
// of u are permuted with the sort and signs are moved into vt. ncvt = 0 or
// nru = 0 (or nil Data) skips that matrix: the values alone cost O(n²).
// work needs 4·n elements (none when ncvt = nru = 0); with
// [BdsqrWork](n) elements the rotations of many sweeps are recorded and
// applied together, a cache-sized panel of u's rows (vt's columns) at a
// time, which is several times faster for large u and vt and gives the
// same result.
//
// It returns 0 on success; k > 0 when k off-diagonals did not converge in
// bdsqrMaxIter·n² = 6·n² inner steps (d and e then hold a bidiagonal
// matrix orthogonally equivalent to B, unsorted); and n when d or e holds
// NaN or ±Inf, which is checked before any iteration.
func Bdsqr[T Scalar](upper bool, n, ncvt, nru int, d, e []float64, vt, u gemm.Mat[T], work []float64) int {
	if n <= 0 {
		return 0
	}
	if vt.Data == nil {
		ncvt = 0
	}
	if u.Data == nil {
		nru = 0
	}
	for i := 0; i < n; i++ {
		if math.IsNaN(d[i]) || math.IsInf(d[i], 0) || i < n-1 && (math.IsNaN(e[i]) || math.IsInf(e[i], 0)) {
			return n
		}
	}
	if n > 1 {
		if !upper {
			// B = R·B′ with B′ upper: rotate the subdiagonal away from the
			// left, u ← u·Rᵀ.
			for i := 0; i < n-1; i++ {
				cs, sn, r := Lartg(d[i], e[i])
				d[i] = r
				e[i] = sn * d[i+1]
				d[i+1] *= cs
				if nru > 0 {
					work[i], work[n-1+i] = cs, sn
				}
			}
			if nru > 0 {
				Lasr(true, nru, u, 0, work[:n-1], work[n-1:2*n-2])
			}
		}
		if info := bdsqrIterate(n, ncvt, nru, d, e, vt, u, work); info != 0 {
			return info
		}
	}
	// Positive values, the sign moved into vt; then sort descending.
	for i := 0; i < n; i++ {
		if d[i] < 0 {
			d[i] = -d[i]
			if ncvt > 0 {
				scaleVec(vt.Data, vt.Off+i*vt.RS, ncvt, vt.CS, -1)
			}
		} else if d[i] == 0 {
			d[i] = 0 // −0 → +0
		}
	}
	for i := 0; i < n-1; i++ {
		// Move the least of d[0:n−i] to the end of that range.
		last := n - 1 - i
		p, smin := 0, d[0]
		for j := 1; j <= last; j++ {
			if d[j] <= smin {
				p, smin = j, d[j]
			}
		}
		if p != last {
			d[p], d[last] = d[last], smin
			if ncvt > 0 {
				swapVec(ncvt, vt.Data, vt.Off+p*vt.RS, vt.Off+last*vt.RS, vt.CS)
			}
			if nru > 0 {
				swapVec(nru, u.Data, u.Off+p*u.CS, u.Off+last*u.CS, u.RS)
			}
		}
	}
	return 0
}

// swapVec swaps the n elements x[a+i*inc] and x[b+i*inc].
func swapVec[T Scalar](n int, x []T, a, b, inc int) {
	for i := 0; i < n; i++ {
		x[a+i*inc], x[b+i*inc] = x[b+i*inc], x[a+i*inc]
	}
}

// bdsqrIterate runs the QR iteration on the upper bidiagonal (d, e) of
// order n ≥ 2 until every off-diagonal is negligible, and returns 0, or
// the number of nonzero off-diagonals left after the iteration bound.
func bdsqrIterate[T Scalar](n, ncvt, nru int, d, e []float64, vt, u gemm.Mat[T], work []float64) int {
	const (
		eps    = 0x1p-53
		unfl   = 0x1p-1022
		hndrth = 0.01
	)
	tol := bdsqrTol
	// Threshold for negligible off-diagonals: tol times an estimate of the
	// least singular value (the relative criterion), or a tiny absolute
	// floor when that estimate is 0.
	smax := 0.0
	for i := 0; i < n; i++ {
		smax = max(smax, math.Abs(d[i]))
	}
	for i := 0; i < n-1; i++ {
		smax = max(smax, math.Abs(e[i]))
	}
	sminoa := math.Abs(d[0])
	if sminoa != 0 {
		mu := sminoa
		for i := 1; i < n; i++ {
			mu = math.Abs(d[i]) * (mu / (mu + math.Abs(e[i-1])))
			sminoa = min(sminoa, mu)
			if sminoa == 0 {
				break
			}
		}
	}
	sminoa /= math.Sqrt(float64(n))
	thresh := max(tol*sminoa, bdsqrMaxIter*float64(n)*float64(n)*unfl)
	maxit := bdsqrMaxIter * n * n
	nm1 := n - 1
	vecs := ncvt > 0 || nru > 0
	var cr, sr, cl, sl []float64 // the right (vt) and left (u) rotations
	if vecs {
		cr, sr = work[:nm1], work[nm1:2*nm1]
		cl, sl = work[2*nm1:3*nm1], work[3*nm1:4*nm1]
	}
	rl := rotLog[T]{ncvt: ncvt, nru: nru, rowsVT: transpose(vt), u: u}
	if vecs && len(work) > 4*nm1 {
		rl.buf = work[4*nm1:]
	}
	defer rl.flush()
	iter := 0
	oldll, oldm := -1, -1
	idir := 0
	m := n - 1 // the block ends at d[m]
	for m > 0 {
		if iter > maxit {
			nz := 0
			for i := 0; i < n-1; i++ {
				if e[i] != 0 {
					nz++
				}
			}
			return nz
		}
		// Find the unreduced block d[ll..m]: the last negligible e above m.
		smax = math.Abs(d[m])
		ll := -1
		for l := m - 1; l >= 0; l-- {
			abss, abse := math.Abs(d[l]), math.Abs(e[l])
			if abse <= thresh {
				e[l] = 0
				ll = l
				break
			}
			smax = max(smax, abss, abse)
		}
		if ll == m-1 {
			m--
			continue
		}
		ll++
		if ll == m-1 {
			// A 2×2 block: diagonalize it directly.
			smin, smx, sinr, cosr, sinl, cosl := lasv2(d[m-1], e[m-1], d[m])
			d[m-1], e[m-1], d[m] = smx, 0, smin
			if vecs {
				rs := [4]float64{cosr, sinr, cosl, sinl}
				rl.add(true, m-1, rs[0:1], rs[1:2], rs[2:3], rs[3:4])
			}
			m -= 2
			continue
		}
		// A new block: chase from its larger end.
		if ll > oldm || m < oldll {
			if math.Abs(d[ll]) >= math.Abs(d[m]) {
				idir = 1 // top to bottom
			} else {
				idir = 2 // bottom to top
			}
		}
		// Convergence tests, the relative criterion along the chase
		// direction with the running estimate mu of the least singular
		// value of the leading (trailing) part.
		var sminl float64
		converged := false
		if idir == 1 {
			if math.Abs(e[m-1]) <= tol*math.Abs(d[m]) {
				e[m-1] = 0
				continue
			}
			mu := math.Abs(d[ll])
			sminl = mu
			for l := ll; l < m; l++ {
				if math.Abs(e[l]) <= tol*mu {
					e[l] = 0
					converged = true
					break
				}
				mu = math.Abs(d[l+1]) * (mu / (mu + math.Abs(e[l])))
				sminl = min(sminl, mu)
			}
		} else {
			if math.Abs(e[ll]) <= tol*math.Abs(d[ll]) {
				e[ll] = 0
				continue
			}
			mu := math.Abs(d[m])
			sminl = mu
			for l := m - 1; l >= ll; l-- {
				if math.Abs(e[l]) <= tol*mu {
					e[l] = 0
					converged = true
					break
				}
				mu = math.Abs(d[l]) * (mu / (mu + math.Abs(e[l])))
				sminl = min(sminl, mu)
			}
		}
		if converged {
			continue
		}
		oldll, oldm = ll, m
		// The shift: the least singular value of the trailing (leading)
		// 2×2, or zero when it is negligible against sminl.
		shift := 0.0
		if !(float64(n)*tol*(sminl/smax) <= max(eps, hndrth*tol)) {
			var sll float64
			if idir == 1 {
				sll = math.Abs(d[ll])
				shift, _ = las2(d[m-1], e[m-1], d[m])
			} else {
				sll = math.Abs(d[m])
				shift, _ = las2(d[ll], e[ll], d[ll+1])
			}
			if sll > 0 && (shift/sll)*(shift/sll) < eps {
				shift = 0
			}
		}
		iter += m - ll
		k := m - ll // rotations in this sweep
		if shift == 0 {
			if idir == 1 {
				cs, oldcs, oldsn := 1.0, 1.0, 0.0
				for i := ll; i < m; i++ {
					var sn, r float64
					cs, sn, r = Lartg(d[i]*cs, e[i])
					if i > ll {
						e[i-1] = oldsn * r
					}
					oldcs, oldsn, d[i] = Lartg(oldcs*r, d[i+1]*sn)
					if vecs {
						cr[i-ll], sr[i-ll], cl[i-ll], sl[i-ll] = cs, sn, oldcs, oldsn
					}
				}
				h := d[m] * cs
				d[m] = h * oldcs
				e[m-1] = h * oldsn
				if vecs {
					rl.add(true, ll, cr[:k], sr[:k], cl[:k], sl[:k])
				}
				if math.Abs(e[m-1]) <= thresh {
					e[m-1] = 0
				}
			} else {
				cs, oldcs, oldsn := 1.0, 1.0, 0.0
				for i := m; i > ll; i-- {
					var sn, r float64
					cs, sn, r = Lartg(d[i]*cs, e[i-1])
					if i < m {
						e[i] = oldsn * r
					}
					oldcs, oldsn, d[i] = Lartg(oldcs*r, d[i-1]*sn)
					if vecs {
						j := i - ll - 1
						cr[j], sr[j], cl[j], sl[j] = cs, -sn, oldcs, -oldsn
					}
				}
				h := d[ll] * cs
				d[ll] = h * oldcs
				e[ll] = h * oldsn
				if vecs {
					rl.add(false, ll, cl[:k], sl[:k], cr[:k], sr[:k])
				}
				if math.Abs(e[ll]) <= thresh {
					e[ll] = 0
				}
			}
			continue
		}
		if idir == 1 {
			f := (math.Abs(d[ll]) - shift) * (math.Copysign(1, d[ll]) + shift/d[ll])
			g := e[ll]
			for i := ll; i < m; i++ {
				cosr, sinr, r := Lartg(f, g)
				if i > ll {
					e[i-1] = r
				}
				f = cosr*d[i] + sinr*e[i]
				e[i] = cosr*e[i] - sinr*d[i]
				g = sinr * d[i+1]
				d[i+1] *= cosr
				cosl, sinl, r := Lartg(f, g)
				d[i] = r
				f = cosl*e[i] + sinl*d[i+1]
				d[i+1] = cosl*d[i+1] - sinl*e[i]
				if i < m-1 {
					g = sinl * e[i+1]
					e[i+1] *= cosl
				}
				if vecs {
					cr[i-ll], sr[i-ll], cl[i-ll], sl[i-ll] = cosr, sinr, cosl, sinl
				}
			}
			e[m-1] = f
			if vecs {
				rl.add(true, ll, cr[:k], sr[:k], cl[:k], sl[:k])
			}
			if math.Abs(e[m-1]) <= thresh {
				e[m-1] = 0
			}
			continue
		}
		f := (math.Abs(d[m]) - shift) * (math.Copysign(1, d[m]) + shift/d[m])
		g := e[m-1]
		for i := m; i > ll; i-- {
			cosr, sinr, r := Lartg(f, g)
			if i < m {
				e[i] = r
			}
			f = cosr*d[i] + sinr*e[i-1]
			e[i-1] = cosr*e[i-1] - sinr*d[i]
			g = sinr * d[i-1]
			d[i-1] *= cosr
			cosl, sinl, r := Lartg(f, g)
			d[i] = r
			f = cosl*e[i-1] + sinl*d[i-1]
			d[i-1] = cosl*d[i-1] - sinl*e[i-1]
			if i > ll+1 {
				g = sinl * e[i-2]
				e[i-2] *= cosl
			}
			if vecs {
				j := i - ll - 1
				cr[j], sr[j], cl[j], sl[j] = cosr, -sinr, cosl, -sinl
			}
		}
		e[ll] = f
		if math.Abs(e[ll]) <= thresh {
			e[ll] = 0
		}
		if vecs {
			rl.add(false, ll, cl[:k], sl[:k], cr[:k], sr[:k])
		}
	}
	return 0
}
