package lapack

import (
	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
	"github.com/tenferro-go/tenferro/internal/par"
)

// Block sizes of the tridiagonal reduction. Set them before calls run (they
// are read without locking). BenchmarkHetrdBlock on a shared 2-vCPU AMD
// EPYC (Zen 5) guest (float64, GFLOP per CPU-second, noisy): at n = 256,
// nb = 32 gave 9 against 6-7.5 for 16 and 4.5-5 for 64; at n = 1024 all of
// nb = 16, 32, 64 with crossovers 32 and 128 gave 11-14, within the noise.
// The Hermitian products, which gain nothing from blocking, take most of
// the time.
var (
	// HetrdBlock is the number of columns reduced per panel by the blocked
	// Hetrd before the trailing matrix is updated by one rank-2k product.
	HetrdBlock = 32
	// HetrdCross is the order of the trailing matrix at and below which
	// Hetrd finishes unblocked.
	HetrdCross = 64
)

// Hetrd reduces the n×n Hermitian (real symmetric) matrix A to real
// symmetric tridiagonal form by a unitary similarity,
//
//	Qᴴ·A·Q = T,  Q = H0·H1···H(n−2),  Hi = I − τi·vi·viᴴ,
//
// reading only the uplo triangle of a. T's diagonal is written to d[0:n]
// and its off-diagonal to e[0:n−1], both float64 for every T; the
// imaginary part of A's diagonal is ignored. τ is written to tau[0:n−1].
//
// For Lower, vi has vi[0:i+1] = 0, vi[i+1] = 1 (not stored) and
// vi[i+2:n] in A[i+2:n, i], as LAPACK's ?hetrd. For Upper the reduction
// runs on the transposed view (the upper triangle of a Hermitian A read as
// the lower triangle of Aᵀ = conj(A)), so vi is stored along row i:
// vi[i+2:n] in A[i, i+2:n]; unlike LAPACK's upper convention Q is still
// H0·H1···H(n−2), and [Ungtr] knows where to find the vectors. The
// diagonal and the first off-diagonal of the uplo triangle are
// overwritten with d and e; the opposite triangle is never touched.
//
// The reduction is blocked as LAPACK's (Latrd panels): while more than
// [HetrdCross] rows remain, [HetrdBlock] columns are reduced against the
// not yet updated trailing matrix, their reflectors V and the products W
// kept in ws's scratch, and the trailing lower triangle is updated by
// A −= V·Wᴴ + W·Vᴴ through gemm.Gemm; the rest is reduced one column at
// a time. The Hermitian matrix-vector products, half the flops, make one
// pass over the triangle each, fused (each stored element is read once for
// both its own and its mirrored product). ws's scratch holds about
// 2·n·HetrdBlock elements (twice that for complex types).
func Hetrd[T Scalar](ws *Workspace, r par.Runner, uplo Uplo, n int, a gemm.Mat[T], d, e []float64, tau []T) {
	if n <= 0 {
		return
	}
	hetrd(ws, r, uplo, n, a, d, e, tau, scratch[T](ws, hetrdSize[T](n)))
}

// hetrdBlocks returns the panel width and crossover order in use.
func hetrdBlocks() (nb, nx int) {
	nb = max(HetrdBlock, 1)
	return nb, max(HetrdCross, nb, 1)
}

// hetrdSize returns the scratch length hetrd needs for order n.
func hetrdSize[T Scalar](n int) int {
	nb, nx := hetrdBlocks()
	s := 2 * n
	if n > nx && nb > 1 {
		p := 2 * n * nb
		if isComplex[T]() {
			p *= 2
		}
		s = max(s, p+2*nb+her2kLeaf*her2kLeaf)
	}
	return s
}

// hetrd is Hetrd with its scratch s of length hetrdSize(n) given.
func hetrd[T Scalar](ws *Workspace, r par.Runner, uplo Uplo, n int, a gemm.Mat[T], d, e []float64, tau []T, s []T) {
	b := a
	if uplo == Upper {
		// B = conj(A), whose lower triangle is A's upper triangle read
		// through the transposed view; conj(A) = Q_B·T·Q_Bᴴ gives
		// A = conj(Q_B)·T·conj(Q_B)ᴴ, so the reflectors are conjugated
		// afterwards.
		b = transpose(a)
	}
	hetrdLower(ws, r, n, b, d, e, tau, s)
	if uplo == Upper && isComplex[T]() {
		for j := 0; j+2 < n; j++ {
			conjVec(b.Data, b.Off+(j+2)*b.RS+j*b.CS, n-j-2, b.RS)
		}
		conjVec(tau, 0, n-1, 1)
	}
}

// hetrdLower reduces the Hermitian matrix whose lower triangle is in a.
func hetrdLower[T Scalar](ws *Workspace, r par.Runner, n int, a gemm.Mat[T], d, e []float64, tau []T, s []T) {
	nb, nx := hetrdBlocks()
	j := 0
	if nb > 1 && n > nx {
		for ; n-j > nx; j += nb {
			m := n - j
			latrd(m, nb, shift(a, j, j), d[j:], e[j:], tau[j:], s)
			// Trailing update A22 −= V2·W2ᴴ + W2·V2ᴴ from rows nb.. of the
			// panel's V and W (column-major m×nb in s).
			v := gemm.Mat[T]{Data: s, Off: nb, RS: 1, CS: m}
			w := gemm.Mat[T]{Data: s, Off: m*nb + nb, RS: 1, CS: m}
			vc, wc := v, w
			rest := s[2*m*nb:]
			if isComplex[T]() {
				cv := rest[:2*m*nb]
				copy(cv, s[:2*m*nb])
				conjVec(cv, 0, 2*m*nb, 1)
				vc = gemm.Mat[T]{Data: cv, Off: nb, RS: 1, CS: m}
				wc = gemm.Mat[T]{Data: cv, Off: m*nb + nb, RS: 1, CS: m}
				rest = rest[2*m*nb:]
			}
			her2kLower(ws, r, m-nb, nb, v, w, vc, wc, shift(a, j+nb, j+nb), rest[2*nb:])
		}
	}
	hetd2(n-j, shift(a, j, j), d[j:], e[j:], tau[j:], s)
}

// latrd reduces the first nb columns of the m×m Hermitian matrix whose
// lower triangle is in a (m > nb), as LAPACK's ?latrd: column i is first
// brought up to date, A[i:m, i] −= V·Wᴴ + W·Vᴴ over the earlier columns,
// then its reflector Hi = I − τ·v·vᴴ is formed, and
//
//	x = τ·(A − V·Wᴴ − W·Vᴴ)·v,  wi = x − ½·τ·(xᴴ·v)·v,
//
// A being the trailing matrix as it was before this panel, so that the
// panel's whole update is A −= V·Wᴴ + W·Vᴴ. V and W are left column-major
// (m×nb, leading dimension m) in s[0:m·nb] and s[m·nb:2·m·nb], V with its
// zeros and unit entries explicit; s holds 2·nb temporaries after them.
func latrd[T Scalar](m, nb int, a gemm.Mat[T], d, e []float64, tau []T, s []T) {
	vd, wd := s[:m*nb], s[m*nb:2*m*nb]
	t1, t2 := s[2*m*nb:2*m*nb+nb], s[2*m*nb+nb:2*m*nb+2*nb]
	for i := 0; i < nb; i++ {
		// Column i of A − V·Wᴴ − W·Vᴴ, rows i..m−1.
		co := a.Off + i*a.CS
		if i > 0 {
			for p := 0; p < i; p++ {
				t1[p], t2[p] = conj(wd[i+p*m]), conj(vd[i+p*m])
			}
			if a.RS == 1 {
				mvSub(m-i, i, vd, wd, i, m, t1, t2, a.Data[co+i:co+m])
			} else {
				for p := 0; p < i; p++ {
					axpy(false, m-i, -t1[p], vd, i+p*m, 1, a.Data, co+i*a.RS, a.RS)
					axpy(false, m-i, -t2[p], wd, i+p*m, 1, a.Data, co+i*a.RS, a.RS)
				}
			}
		}
		dg := co + i*a.RS
		d[i] = re(a.Data[dg])
		a.Data[dg] = fromReal[T](d[i])
		// Hi annihilates A[i+2:m, i].
		sub := dg + a.RS
		beta, t := Larfg(m-i-1, a.Data[sub], a.Data, sub+a.RS, a.RS)
		e[i], tau[i] = re(beta), t
		vi := vd[i*m : (i+1)*m]
		clear(vi[:i+1])
		vi[i+1] = 1
		for k := i + 2; k < m; k++ {
			vi[k] = a.Data[co+k*a.RS]
		}
		a.Data[sub] = beta
		wi := wd[i*m : (i+1)*m]
		clear(wi[:i+1])
		if t == 0 {
			clear(wi[i+1:])
			continue
		}
		// wi = A22·v − V·(Wᴴ·v) − W·(Vᴴ·v), then wi = τ·wi −
		// ½·τ·(τ·wi)ᴴ·v·v.
		q := m - i - 1
		hemvLower(q, shift(a, i+1, i+1), vi[i+1:], wi[i+1:])
		if i > 0 {
			mvConjT(q, i, wd, i+1, m, vi[i+1:], t1)
			mvConjT(q, i, vd, i+1, m, vi[i+1:], t2)
			mvSub(q, i, vd, wd, i+1, m, t1, t2, wi[i+1:])
		}
		scaleVec(wi, i+1, q, 1, t)
		alpha := fromReal[T](-0.5) * t * dot(true, q, wi, i+1, 1, vi, i+1, 1)
		axpy(false, q, alpha, vi, i+1, 1, wi, i+1, 1)
	}
}

// her2kLeaf is the order of the diagonal blocks of the rank-2k update that
// are computed as full products into scratch.
const her2kLeaf = 64

// her2kLower sets the lower triangle of the m×m c to c − V·Wᴴ − W·Vᴴ for
// m×k column-major V and W, given vc = conj(V) and wc = conj(W) (the same
// matrices for real types). Off-diagonal blocks are products through
// gemm.Gemm, halving recursively; diagonal blocks up to her2kLeaf are
// formed in tmp (her2kLeaf² elements) and their lower triangle subtracted,
// the diagonal kept real.
func her2kLower[T Scalar](ws *Workspace, r par.Runner, m, k int, v, w, vc, wc, c gemm.Mat[T], tmp []T) {
	if m <= 0 {
		return
	}
	if m <= her2kLeaf {
		p := gemm.Mat[T]{Data: tmp[:m*m], RS: 1, CS: m}
		gemm.Gemm(&ws.Gemm, r, m, m, k, 1, v, transpose(wc), 0, p)
		gemm.Gemm(&ws.Gemm, r, m, m, k, 1, w, transpose(vc), 1, p)
		for j := 0; j < m; j++ {
			o := c.Off + j*c.CS
			dg := o + j*c.RS
			c.Data[dg] = fromReal[T](re(c.Data[dg]) - re(p.Data[j+j*m]))
			for i := j + 1; i < m; i++ {
				c.Data[o+i*c.RS] -= p.Data[i+j*m]
			}
		}
		return
	}
	m1 := split(m)
	her2kLower(ws, r, m1, k, v, w, vc, wc, c, tmp)
	c21 := shift(c, m1, 0)
	gemmC(ws, r, m-m1, m1, k, -1, shift(v, m1, 0), transpose(wc), c21)
	gemmC(ws, r, m-m1, m1, k, -1, shift(w, m1, 0), transpose(vc), c21)
	her2kLower(ws, r, m-m1, k, shift(v, m1, 0), shift(w, m1, 0), shift(vc, m1, 0), shift(wc, m1, 0), shift(c, m1, m1), tmp)
}

// hetd2 reduces the m×m Hermitian matrix whose lower triangle is in a one
// column at a time (LAPACK's ?hetd2): Hi from A[i+1:m, i], then
// A22 = Hiᴴ·A22·Hi as the rank-2 update A22 −= v·wᴴ + w·vᴴ with
// w = τ·A22·v − ½·τ·(τ·A22·v)ᴴ·v·v. s holds 2·m elements (v and w).
func hetd2[T Scalar](m int, a gemm.Mat[T], d, e []float64, tau []T, s []T) {
	vv, ww := s[:m], s[m:2*m]
	for i := 0; i < m-1; i++ {
		dg := a.Off + i*a.RS + i*a.CS
		d[i] = re(a.Data[dg])
		a.Data[dg] = fromReal[T](d[i])
		sub := dg + a.RS
		beta, t := Larfg(m-i-1, a.Data[sub], a.Data, sub+a.RS, a.RS)
		e[i], tau[i] = re(beta), t
		q := m - i - 1
		if t != 0 {
			v, w := vv[:q], ww[:q]
			v[0] = 1
			for k := 1; k < q; k++ {
				v[k] = a.Data[sub+k*a.RS]
			}
			a22 := shift(a, i+1, i+1)
			hemvLower(q, a22, v, w)
			scaleVec(w, 0, q, 1, t)
			alpha := fromReal[T](-0.5) * t * dot(true, q, w, 0, 1, v, 0, 1)
			axpy(false, q, alpha, v, 0, 1, w, 0, 1)
			her2Lower(q, a22, v, w)
		}
		a.Data[sub] = beta
	}
	if m > 0 {
		dg := a.Off + (m-1)*(a.RS+a.CS)
		d[m-1] = re(a.Data[dg])
		a.Data[dg] = fromReal[T](d[m-1])
	}
}

// her2Lower sets the lower triangle of the n×n a to a − v·wᴴ − w·vᴴ,
// keeping the diagonal real.
func her2Lower[T Scalar](n int, a gemm.Mat[T], v, w []T) {
	for j := 0; j < n; j++ {
		cw, cv := -conj(w[j]), -conj(v[j])
		o := a.Off + j*a.CS
		dg := o + j*a.RS
		a.Data[dg] = fromReal[T](re(a.Data[dg] + v[j]*cw + w[j]*cv))
		if a.RS == 1 {
			col := a.Data[dg+1 : dg+n-j]
			vs, ws := v[j+1:n], w[j+1:n]
			vs, ws = vs[:len(col)], ws[:len(col)]
			for k := range col {
				col[k] += vs[k]*cw + ws[k]*cv
			}
			continue
		}
		for i := j + 1; i < n; i++ {
			a.Data[o+i*a.RS] += v[i]*cw + w[i]*cv
		}
	}
}

// Ungtr overwrites the n×n a, holding the reflectors that [Hetrd] with
// the same uplo left in it and tau[0:n−1], with the unitary
// Q = H0·H1···H(n−2) of Qᴴ·A·Q = T (Orgtr and Ungtr are one routine here).
// Q[0, :] and Q[:, 0] are those of the identity; the rest is [Orgqr] of
// the n−1 reflectors moved one column right, as LAPACK's ?ungtr does. For
// Upper the vectors lie along rows, so Q is formed in the transposed view
// and transposed in place. ws's scratch is used as Orgqr uses it.
func Ungtr[T Scalar](ws *Workspace, r par.Runner, uplo Uplo, n int, a gemm.Mat[T], tau []T) {
	if n <= 0 {
		return
	}
	b := a
	if uplo == Upper {
		b = transpose(a)
	}
	at := func(i, j int) int { return b.Off + i*b.RS + j*b.CS }
	for j := n - 1; j >= 1; j-- {
		b.Data[at(0, j)] = 0
		for i := j + 1; i < n; i++ {
			b.Data[at(i, j)] = b.Data[at(i, j-1)]
		}
	}
	b.Data[at(0, 0)] = 1
	for i := 1; i < n; i++ {
		b.Data[at(i, 0)] = 0
	}
	Orgqr(ws, r, n-1, n-1, n-1, shift(b, 1, 1), tau)
	if uplo == Upper {
		for j := 0; j < n; j++ {
			for i := j + 1; i < n; i++ {
				p, q := at(i, j), at(j, i)
				b.Data[p], b.Data[q] = b.Data[q], b.Data[p]
			}
		}
	}
}

// Unmtr overwrites the n×nc matrix C with op(Q)·C, op NoTrans or
// ConjTrans (Trans is read as ConjTrans), where Q = H0·H1···H(n−2) is the
// unitary matrix of [Hetrd] with the same uplo, held as reflectors in a
// and tau[0:n−1]; Q is never formed. Q's first row and column are those
// of the identity, and the rest is applied by [Ormqr] to C's rows 1..n−1
// (2·n²·nc flops for n ≫ 1, half of forming Q and multiplying). C must not
// overlap a; ws's scratch is used as Ormqr uses it.
func Unmtr[T Scalar](ws *Workspace, r par.Runner, uplo Uplo, op Op, n, nc int, a gemm.Mat[T], tau []T, c gemm.Mat[T]) {
	if n <= 1 || nc <= 0 {
		return
	}
	b := a
	if uplo == Upper {
		b = transpose(a)
	}
	Ormqr(ws, r, Left, op, n-1, nc, n-1, shift(b, 1, 0), tau, shift(c, 1, 0))
}

// ungtrSize bounds the scratch length Ungtr's Orgqr takes for order n.
func ungtrSize[T Scalar](n int) int {
	return reflSize[T](n, min(n, 64), n)
}
