package lapack

import (
	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
	"github.com/tenferro-go/tenferro/internal/par"
)

// Block sizes of the bidiagonal reduction. Set them before calls run (they
// are read without locking).
var (
	// GebrdBlock is the number of rows and columns that one blocked step
	// of Gebrd reduces before the trailing matrix is updated by two
	// products through gemm.Gemm.
	GebrdBlock = 32
	// GebrdCrossover is the order min(m, n) below which Gebrd runs the
	// unblocked reduction alone (and below which the blocked driver
	// finishes the last trailing matrix unblocked).
	GebrdCrossover = 128
)

// Gebrd reduces the m×n matrix A to real bidiagonal form by unitary
// transformations,
//
//	Qᴴ·A·P = B,  Q = H1·H2···Hq,  P = G1·G2···Gp,
//	Hi = I − tauq[i]·vi·viᴴ,  Gi = I − taup[i]·ui·uiᴴ,
//
// with B upper bidiagonal when m ≥ n and lower bidiagonal when m < n, as
// LAPACK's ?gebrd. d[:k] (k = min(m, n)) receives B's diagonal and e[:k−1]
// its off-diagonal (the superdiagonal for m ≥ n, the subdiagonal
// otherwise); both are real (float64) for every T. A is overwritten with
// B's entries and the reflectors, in LAPACK's layout:
//
//	m ≥ n: vi[0:i] = 0, vi[i] = 1, vi[i+1:m] in A[i+1:m, i];
//	       ui[0:i+1] = 0, ui[i+1] = 1, conj(ui[i+2:n]) in A[i, i+2:n];
//	m < n: ui[0:i] = 0, ui[i] = 1, conj(ui[i+1:n]) in A[i, i+1:n];
//	       vi[0:i+1] = 0, vi[i+1] = 1, vi[i+2:m] in A[i+2:m, i].
//
// tauq and taup need k elements; the unused last one of the pair (taup for
// m ≥ n, tauq for m < n) is set to 0. [Ungbr] forms Q and Pᴴ explicitly.
//
// Above [GebrdCrossover] the reduction is blocked: [GebrdBlock] rows and
// columns are reduced at a time with matrix-vector products (LAPACK's
// labrd), accumulating the two-sided update as A − V·Yᴴ − X·Uᴴ, and the
// trailing matrix is then updated by two products through gemm.Gemm.
// ws's scratch holds X and Y ((m+n)·GebrdBlock elements) plus vectors of
// GebrdBlock and n (a contiguous copy of the row being reduced); below the
// crossover neither ws nor r is used. A wide matrix
// is reduced as Aᴴ (the same routine on the conjugated transposed view).
// The kernels are fastest on a column-major A.
func Gebrd[T Scalar](ws *Workspace, r par.Runner, m, n int, a gemm.Mat[T], d, e []float64, tauq, taup []T) {
	if m <= 0 || n <= 0 {
		return
	}
	if m < n {
		// Aᴴ = Q′·B′·P′ᴴ with B′ upper bidiagonal gives A = P′·B′ᴴ·Q′ᴴ:
		// Q = P′, P = Q′, and the reflectors land in LAPACK's m < n layout.
		conjMat(m, n, a)
		gebrdUpper(ws, r, n, m, transpose(a), d, e, taup, tauq)
		conjMat(m, n, a)
		return
	}
	gebrdUpper(ws, r, m, n, a, d, e, tauq, taup)
}

// gebrdScratch returns the scratch length Gebrd needs for an m×n matrix.
func gebrdScratch(m, n int) int {
	if min(m, n) < max(GebrdCrossover, GebrdBlock) || GebrdBlock < 2 {
		return 0
	}
	return (m+n+1)*GebrdBlock + n + 2
}

// gebrdUpper is Gebrd for m ≥ n.
func gebrdUpper[T Scalar](ws *Workspace, r par.Runner, m, n int, a gemm.Mat[T], d, e []float64, tauq, taup []T) {
	nb := GebrdBlock
	nx := max(GebrdCrossover, nb)
	i := 0
	if nb >= 2 && n >= nx {
		s := scratch[T](ws, gebrdScratch(m, n))
		x := gemm.Mat[T]{Data: s[:m*nb], RS: 1, CS: m}
		y := gemm.Mat[T]{Data: s[m*nb : (m+n)*nb], RS: 1, CS: n}
		t := s[(m+n)*nb : (m+n+1)*nb+2]
		wbuf := s[(m+n+1)*nb+2:]
		for ; n-i > nx; i += nb {
			ai := shift(a, i, i)
			mi, ni := m-i, n-i
			labrd(mi, ni, nb, ai, d[i:], e[i:], tauq[i:], taup[i:], x, y, t, wbuf)
			// A[nb:, nb:] −= V·Yᴴ + X·Uᴴ, with Uᴴ stored in the rows.
			c := shift(ai, nb, nb)
			yc := shift(y, nb, 0)
			conjMat(ni-nb, nb, yc)
			gemmC(ws, r, mi-nb, ni-nb, nb, -1, shift(ai, nb, 0), transpose(yc), c)
			gemmC(ws, r, mi-nb, ni-nb, nb, -1, shift(x, nb, 0), shift(ai, 0, nb), c)
			for j := i; j < i+nb; j++ {
				a.Data[a.Off+j*a.RS+j*a.CS] = fromReal[T](d[j])
				a.Data[a.Off+j*a.RS+(j+1)*a.CS] = fromReal[T](e[j])
			}
		}
	}
	gebd2(m-i, n-i, shift(a, i, i), d[i:], e[i:], tauq[i:], taup[i:])
}

// gebd2 is the unblocked reduction of the m×n A (m ≥ n) to upper
// bidiagonal form: for each i, Hi from A[i:m, i] is applied from the left
// and then Gi from A[i, i+1:n] (conjugated) from the right.
func gebd2[T Scalar](m, n int, a gemm.Mat[T], d, e []float64, tauq, taup []T) {
	for i := 0; i < n; i++ {
		di := a.Off + i*a.RS + i*a.CS
		beta, tq := Larfg(m-i, a.Data[di], a.Data, di+a.RS, a.RS)
		d[i], tauq[i] = re(beta), tq
		a.Data[di] = beta
		if i+1 < n && tq != 0 {
			larfLeft(false, m-i, n-i-1, 1, a.Data, di+a.RS, a.RS, conj(tq), shift(a, i, i+1))
		}
		if i+1 >= n {
			taup[i] = 0
			continue
		}
		ri := di + a.CS
		conjVec(a.Data, ri, n-i-1, a.CS)
		beta, tp := Larfg(n-i-1, a.Data[ri], a.Data, ri+a.CS, a.CS)
		e[i], taup[i] = re(beta), tp
		a.Data[ri] = 1
		Larf(Right, m-i-1, n-i-1, a.Data, ri, a.CS, tp, shift(a, i+1, i+1))
		conjVec(a.Data, ri, n-i-1, a.CS)
		a.Data[ri] = beta
	}
}

// labrd reduces the first nb rows and columns of the m×n A (m ≥ n > nb)
// to upper bidiagonal form and returns in x (m×nb) and y (n×nb) the
// matrices for which the trailing matrix of (H1···Hnb)ᴴ·A·(G1···Gnb) is
// A − V·Yᴴ − X·Uᴴ, V and U the reflectors (LAPACK's labrd). On return the
// unit elements of the reflectors are stored at A[i, i] and A[i, i+1]
// (the caller restores d and e there after the trailing update), and the
// rows hold conj(U)ᵀ = Uᴴ. t is scratch of at least nb+1 elements and
// wbuf of n, the current row.
func labrd[T Scalar](m, n, nb int, a gemm.Mat[T], d, e []float64, tauq, taup []T, x, y gemm.Mat[T], t, wbuf []T) {
	at := func(i, j int) int { return a.Off + i*a.RS + j*a.CS }
	for i := 0; i < nb; i++ {
		// Column i: A[i:m, i] −= V[i:m, :i]·Y[i, :i]ᴴ + X[i:m, :i]·Uᴴ[:i, i].
		ci := at(i, i)
		for j := 0; j < i; j++ {
			t[j] = conj(y.Data[y.Off+i*y.RS+j*y.CS])
		}
		gemvN(m-i, i, -1, shift(a, i, 0), t, 0, 1, a.Data, ci, a.RS)
		gemvN(m-i, i, -1, shift(x, i, 0), a.Data, at(0, i), a.RS, a.Data, ci, a.RS)
		beta, tq := Larfg(m-i, a.Data[ci], a.Data, ci+a.RS, a.RS)
		d[i], tauq[i] = re(beta), tq
		a.Data[ci] = 1
		if i+1 >= n {
			taup[i] = 0
			continue
		}
		// Y[i+1:n, i] = τq·(A[i:m, i+1:n]ᴴ·v − Y·(Vᴴ·v) − U·(Xᴴ·v)).
		yi := y.Off + (i+1)*y.RS + i*y.CS
		ni := n - i - 1
		clearVec(y.Data, yi, ni, y.RS)
		gemvC(m-i, ni, 1, shift(a, i, i+1), a.Data, ci, a.RS, y.Data, yi, y.RS)
		clear(t[:i])
		gemvC(m-i, i, 1, shift(a, i, 0), a.Data, ci, a.RS, t, 0, 1)
		gemvN(ni, i, -1, shift(y, i+1, 0), t, 0, 1, y.Data, yi, y.RS)
		clear(t[:i])
		gemvC(m-i, i, 1, shift(x, i, 0), a.Data, ci, a.RS, t, 0, 1)
		gemvC(i, ni, -1, shift(a, 0, i+1), t, 0, 1, y.Data, yi, y.RS)
		scaleVec(y.Data, yi, ni, y.RS, tq)
		// Row i, conjugated, in the contiguous w: conj(A[i, i+1:n]) −=
		// Y[i+1:n, :i+1]·conj(V[i, :i+1]) + Uᴴ[:i, i+1:n]ᴴ·conj(X[i, :i]).
		ri := at(i, i+1)
		w := wbuf[:ni]
		for j := range w {
			w[j] = conj(a.Data[ri+j*a.CS])
		}
		for j := 0; j <= i; j++ {
			t[j] = conj(a.Data[at(i, j)])
		}
		gemvN(ni, i+1, -1, shift(y, i+1, 0), t, 0, 1, w, 0, 1)
		for j := 0; j < i; j++ {
			t[j] = conj(x.Data[x.Off+i*x.RS+j*x.CS])
		}
		gemvC(i, ni, -1, shift(a, 0, i+1), t, 0, 1, w, 0, 1)
		beta, tp := Larfg(ni, w[0], w, 1, 1)
		e[i], taup[i] = re(beta), tp
		w[0] = 1
		// X[i+1:m, i] = τp·(A[i+1:m, i+1:n]·u − V·(Yᴴ·u) − X·(Uᴴ·u)), u = w.
		xi := x.Off + (i+1)*x.RS + i*x.CS
		mi := m - i - 1
		clearVec(x.Data, xi, mi, x.RS)
		gemvN(mi, ni, 1, shift(a, i+1, i+1), w, 0, 1, x.Data, xi, x.RS)
		clear(t[:i+1])
		gemvC(ni, i+1, 1, shift(y, i+1, 0), w, 0, 1, t, 0, 1)
		gemvN(mi, i+1, -1, shift(a, i+1, 0), t, 0, 1, x.Data, xi, x.RS)
		clear(t[:i])
		gemvN(i, ni, 1, shift(a, 0, i+1), w, 0, 1, t, 0, 1)
		gemvN(mi, i, -1, shift(x, i+1, 0), t, 0, 1, x.Data, xi, x.RS)
		scaleVec(x.Data, xi, mi, x.RS, tp)
		// Store Uᴴ's row: conj(u), with the unit element kept.
		for j, v := range w {
			a.Data[ri+j*a.CS] = conj(v)
		}
	}
}

// clearVec sets the n elements x[off+i*inc] to zero.
func clearVec[T Scalar](x []T, off, n, inc int) {
	if inc == 1 {
		clear(x[off : off+n])
		return
	}
	for i := 0; i < n; i++ {
		x[off+i*inc] = 0
	}
}

// gemvN computes y += α·A·x for the m×n A, x and y given as (slice,
// offset, increment). It runs along A's columns when they are the
// contiguous direction and along its rows otherwise.
func gemvN[T Scalar](m, n int, alpha T, a gemm.Mat[T], x []T, xo, xi int, y []T, yo, yi int) {
	if m <= 0 || n <= 0 {
		return
	}
	if a.RS == 1 && yi == 1 {
		switch ad := any(a.Data).(type) {
		case []float64:
			gemvNColF64(m, n, any(alpha).(float64), ad, a.Off, a.CS, any(x).([]float64), xo, xi, any(y).([]float64)[yo:])
			return
		case []complex128:
			gemvNColC128(m, n, any(alpha).(complex128), ad, a.Off, a.CS, any(x).([]complex128), xo, xi, any(y).([]complex128)[yo:])
			return
		}
	}
	if a.CS == 1 && a.RS != 1 {
		for i := 0; i < m; i++ {
			y[yo+i*yi] += alpha * dot(false, n, a.Data, a.Off+i*a.RS, 1, x, xo, xi)
		}
		return
	}
	for j := 0; j < n; j++ {
		if v := x[xo+j*xi]; v != 0 {
			axpy(false, m, alpha*v, a.Data, a.Off+j*a.CS, a.RS, y, yo, yi)
		}
	}
}

// gemvC computes y += α·Aᴴ·x for the m×n A (x of length m, y of length n).
func gemvC[T Scalar](m, n int, alpha T, a gemm.Mat[T], x []T, xo, xi int, y []T, yo, yi int) {
	if m <= 0 || n <= 0 {
		return
	}
	if a.RS == 1 && xi == 1 {
		switch ad := any(a.Data).(type) {
		case []float64:
			gemvCColF64(m, n, any(alpha).(float64), ad, a.Off, a.CS, any(x).([]float64)[xo:], any(y).([]float64), yo, yi)
			return
		case []complex128:
			gemvCColC128(m, n, any(alpha).(complex128), ad, a.Off, a.CS, any(x).([]complex128)[xo:], any(y).([]complex128), yo, yi)
			return
		}
	}
	if a.CS == 1 && a.RS != 1 {
		for i := 0; i < m; i++ {
			if v := x[xo+i*xi]; v != 0 {
				axpy(true, n, alpha*v, a.Data, a.Off+i*a.RS, 1, y, yo, yi)
			}
		}
		return
	}
	for j := 0; j < n; j++ {
		y[yo+j*yi] += alpha * dot(true, m, a.Data, a.Off+j*a.CS, a.RS, x, xo, xi)
	}
}

// BrVect selects the factor of a bidiagonal reduction that [Ungbr] forms.
type BrVect int8

const (
	BrQ  BrVect = iota // Q, from Gebrd's tauq
	BrPH               // Pᴴ, from Gebrd's taup
)

// Ungbr overwrites the m×n matrix A with the explicit factor Q or Pᴴ of
// the reduction Qᴴ·A₀·P = B that [Gebrd] of an m₀×n₀ matrix A₀ left in A's
// storage (LAPACK's ?orgbr/?ungbr):
//
//	vect BrQ,  k = n₀, tau = tauq:
//	  m ≥ k: the first n columns of Q = H1···Hk (m ≥ n ≥ k; n = k the
//	         thin Q, n = m the full one); A holds the reflectors in its
//	         first k columns;
//	  m < k: Q = H1···H(m−1), m×m (n = m), from A₀'s lower bidiagonal
//	         reduction, reflectors below the subdiagonal.
//	vect BrPH, k = m₀, tau = taup:
//	  k < n: the first m rows of Pᴴ = Gkᴴ···G1ᴴ (n ≥ m ≥ k);
//	  k ≥ n: Pᴴ = G(n−1)ᴴ···G1ᴴ, n×n (m = n), from A₀'s upper
//	         bidiagonal reduction, reflectors right of the superdiagonal.
//
// The first cases are [Orgqr] and [Orglq]; the shifted ones move the
// reflectors one column right (one row down) and run them on A[1:, 1:],
// as LAPACK does. ws and r serve those routines.
func Ungbr[T Scalar](ws *Workspace, r par.Runner, vect BrVect, m, n, k int, a gemm.Mat[T], tau []T) {
	if m <= 0 || n <= 0 {
		return
	}
	at := func(i, j int) int { return a.Off + i*a.RS + j*a.CS }
	if vect == BrQ {
		if m >= k {
			Orgqr(ws, r, m, n, k, a, tau)
			return
		}
		for j := m - 1; j >= 1; j-- {
			a.Data[at(0, j)] = 0
			for i := j + 1; i < m; i++ {
				a.Data[at(i, j)] = a.Data[at(i, j-1)]
			}
		}
		for i := 0; i < m; i++ {
			a.Data[at(i, 0)] = 0
		}
		a.Data[at(0, 0)] = 1
		Orgqr(ws, r, m-1, m-1, m-1, shift(a, 1, 1), tau)
		return
	}
	if k < n {
		Orglq(ws, r, m, n, k, a, tau)
		return
	}
	for i := n - 1; i >= 1; i-- {
		a.Data[at(i, 0)] = 0
		for j := i + 1; j < n; j++ {
			a.Data[at(i, j)] = a.Data[at(i-1, j)]
		}
	}
	for j := 0; j < n; j++ {
		a.Data[at(0, j)] = 0
	}
	a.Data[at(0, 0)] = 1
	Orglq(ws, r, n-1, n-1, n-1, shift(a, 1, 1), tau)
}

// orgSmall is the number of columns up to which Orgqr (and so Orglq,
// Ungbr, Ungtr) forms Q by the unblocked [Org2r]: the block reflector's
// products do not pay off on so few columns.
const orgSmall = 32

// Orgbr is [Ungbr] (the real name of the same routine).
func Orgbr[T Scalar](ws *Workspace, r par.Runner, vect BrVect, m, n, k int, a gemm.Mat[T], tau []T) {
	Ungbr(ws, r, vect, m, n, k, a, tau)
}
