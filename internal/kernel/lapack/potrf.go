package lapack

import (
	"math"

	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
	"github.com/tenferro-go/tenferro/internal/par"
)

// Potrf computes the Cholesky factorization of the n×n Hermitian positive
// definite matrix A,
//
//	A = L·Lᴴ (uplo Lower)  or  A = Uᴴ·U (uplo Upper),
//
// overwriting the referenced triangle of A with L or U (real, positive
// diagonal). Only that triangle is read and written; the imaginary parts of
// the diagonal are taken as zero.
//
// It returns 0 on success and k ≥ 1 when the leading minor of order k is not
// positive definite (its pivot is zero, negative, NaN or +Inf): then the
// leading k-1 columns (rows for Upper) hold that minor's factor, element
// (k-1, k-1) holds the failed pivot, and the rest of the triangle is
// partly updated.
//
// The driver halves A recursively: factor A11, solve L21 = A21·L11⁻ᴴ by
// [Trsm], update A22 −= L21·L21ᴴ by gemm.Gemm over its lower triangle only,
// factor A22. For n ≤ [PotrfLeaf] it runs [Potf2] and uses neither ws nor r.
// Complex types copy the conjugated L21 into ws's scratch (at most n²/4
// elements).
func Potrf[T Scalar](ws *Workspace, r par.Runner, uplo Uplo, n int, a gemm.Mat[T]) int {
	if n <= 0 {
		return 0
	}
	// The upper triangle of A, read through the transposed view, is the
	// lower triangle of conj(A) = conj(U)ᵀ·conj(U)ᵀᴴ, whose factor conj(U)ᵀ
	// lands in the view as U lands in the storage.
	if uplo == Upper {
		a = transpose(a)
	}
	if n <= max(PotrfLeaf, 1) {
		return potf2Lower(n, a)
	}
	hl := min(max(herkLeaf, 1), n)
	need := hl * hl
	if isComplex[T]() {
		n1 := split(n)
		need += n1 * (n - n1)
	}
	s := scratch[T](ws, need)
	return potrfRec(ws, r, n, a, s[:hl*hl], s[hl*hl:])
}

// Potf2 is the unblocked Cholesky factorization behind [Potrf], with the
// same contract; it allocates nothing and runs on the caller. It is meant
// for small matrices (n up to a few dozen).
func Potf2[T Scalar](uplo Uplo, n int, a gemm.Mat[T]) int {
	if uplo == Upper {
		a = transpose(a)
	}
	return potf2Lower(n, a)
}

// potrfRec factors the lower triangle of a recursively; dsq holds a
// herkLeaf² block product, cc a conjugated panel copy (complex only).
func potrfRec[T Scalar](ws *Workspace, r par.Runner, n int, a gemm.Mat[T], dsq, cc []T) int {
	if n <= max(PotrfLeaf, 1) {
		return potf2Lower(n, a)
	}
	n1 := split(n)
	n2 := n - n1
	if info := potrfRec(ws, r, n1, a, dsq, cc); info != 0 {
		return info
	}
	a21, a22 := shift(a, n1, 0), shift(a, n1, n1)
	// L21·L11ᴴ = A21.
	Trsm(ws, r, Right, Lower, ConjTrans, NonUnit, n2, n1, 1, a, a21)
	// A22 −= L21·L21ᴴ, with B = (conj L21)ᵀ read from a copy for complex T.
	c := a21
	if isComplex[T]() {
		c = gemm.Mat[T]{Data: cc[:n2*n1], RS: 1, CS: n2}
		for j := 0; j < n1; j++ {
			col := cc[j*n2 : (j+1)*n2]
			for i := range col {
				col[i] = a21.Data[a21.Off+i*a21.RS+j*a21.CS]
			}
			conjVec(col, 0, n2, 1)
		}
	}
	herkSplit(ws, r, n2, n1, a21, c, a22, dsq)
	if info := potrfRec(ws, r, n2, a22, dsq, cc); info != 0 {
		return info + n1
	}
	return 0
}

// herkMinFlops is the work (real flops of the triangle) from which
// herkSplit shares the columns among a runner's workers.
var herkMinFlops = 1 << 21

// herkSplit is herkLower with the columns of C shared among r's workers,
// each part (a diagonal block and the rectangle below it) computed
// serially on a workspace of its own: herkLower's recursion splits only
// its large products, and its leaves and small products would otherwise
// run on one core.
func herkSplit[T Scalar](ws *Workspace, r par.Runner, n, k int, a, c, cm gemm.Mat[T], dsq []T) {
	w := par.Width(r)
	if w < 2 || n < 2*w*8 || n*n*k*flopsPer[T]()/2 < herkMinFlops {
		herkLower(ws, r, n, k, a, c, cm, dsq)
		return
	}
	t := columnTaskFor[T](ws)
	*t = columnTask[T]{kind: columnHerk, ws: ws.parts(w), n: n, k: k, a: a, c: c, cm: cm, dsq: dsq}
	par.Run(r, t, w)
	*t = columnTask[T]{}
}

// herkPart computes part p of herkSplit: the columns [c0, c1) of the lower
// triangle, chosen so that every part has about the same area (the
// triangle's columns left of x·n hold 1 - (1-x)² of it), rounded to
// multiples of 8.
func (t *columnTask[T]) herkPart(part, parts int) {
	bound := func(p int) int {
		if p >= parts {
			return t.n
		}
		x := 1 - math.Sqrt(1-float64(p)/float64(parts))
		return min(int(math.Round(x*float64(t.n)/8))*8, t.n)
	}
	c0, c1 := bound(part), bound(part+1)
	if c0 >= c1 {
		return
	}
	ws := t.ws[part]
	dsq := t.dsq
	if part > 0 {
		hl := min(max(herkLeaf, 1), t.n)
		dsq = scratch[T](ws, hl*hl)
	}
	herkLower(ws, nil, c1-c0, t.k, shift(t.a, c0, 0), shift(t.c, c0, 0), shift(t.cm, c0, c0), dsq)
	if c1 < t.n {
		gemm.Gemm(&ws.Gemm, nil, t.n-c1, c1-c0, t.k, -1, shift(t.a, c1, 0), transpose(shift(t.c, c0, 0)), 1, shift(t.cm, c1, c0))
	}
}

// herkLower computes C −= A·B over the lower triangle of the n×n C, where A
// is n×k and B = cᵀ (c holds conj(A), or A itself for real types). Diagonal
// blocks of order ≤ herkLeaf are computed in full into dsq and subtracted
// below the diagonal only, so the strict upper triangle of C is never
// written.
func herkLower[T Scalar](ws *Workspace, r par.Runner, n, k int, a, c, cm gemm.Mat[T], dsq []T) {
	if n <= max(herkLeaf, 1) {
		p := gemm.Mat[T]{Data: dsq[:n*n], RS: 1, CS: n}
		gemm.Gemm(&ws.Gemm, r, n, n, k, 1, a, transpose(c), 0, p)
		for j := 0; j < n; j++ {
			o := cm.Off + j*cm.CS
			for i := j; i < n; i++ {
				cm.Data[o+i*cm.RS] -= dsq[i+j*n]
			}
		}
		return
	}
	n1 := split(n)
	n2 := n - n1
	herkLower(ws, r, n1, k, a, c, cm, dsq)
	// C21 −= A2·A1ᴴ.
	gemm.Gemm(&ws.Gemm, r, n2, n1, k, -1, shift(a, n1, 0), transpose(c), 1, shift(cm, n1, 0))
	herkLower(ws, r, n2, k, shift(a, n1, 0), shift(c, n1, 0), shift(cm, n1, n1), dsq)
}

// potf2Lower factors the lower triangle of a column by column (the
// left-looking dot form): l_jj = sqrt(a_jj − Σ|l_jk|²), then column j below
// the diagonal is (a_·j − L_·,0:j · conj(l_j,0:j)ᵀ) / l_jj. Row j of L is
// conjugated in place for the product and restored afterwards.
func potf2Lower[T Scalar](n int, a gemm.Mat[T]) int {
	for j := 0; j < n; j++ {
		rj := a.Off + j*a.RS
		djj := rj + j*a.CS
		d := re(a.Data[djj]) - sumAbsSq(a.Data, rj, j, a.CS)
		if !(d > 0) || math.IsInf(d, 1) {
			a.Data[djj] = fromReal[T](d)
			return j + 1
		}
		d = math.Sqrt(d)
		a.Data[djj] = fromReal[T](d)
		if j+1 == n {
			break
		}
		conjVec(a.Data, rj, j, a.CS)
		for k := 0; k < j; k++ {
			ck := a.Data[rj+k*a.CS]
			if ck == 0 {
				continue
			}
			src, dst := a.Off+k*a.CS, a.Off+j*a.CS
			if a.RS == 1 {
				s := a.Data[src+j+1 : src+n]
				t := a.Data[dst+j+1 : dst+n]
				for i, v := range s {
					t[i] -= v * ck
				}
				continue
			}
			for i := j + 1; i < n; i++ {
				a.Data[dst+i*a.RS] -= a.Data[src+i*a.RS] * ck
			}
		}
		conjVec(a.Data, rj, j, a.CS)
		inv := fromReal[T](1 / d)
		for i := j + 1; i < n; i++ {
			a.Data[a.Off+i*a.RS+j*a.CS] *= inv
		}
	}
	return 0
}

// Potrs solves A·X = B for X, overwriting the n×nrhs matrix B, where A's
// Cholesky factor from [Potrf] (uplo as given to it) is in a: two
// triangular solves, L·Y = B then Lᴴ·X = Y (or Uᴴ then U).
func Potrs[T Scalar](ws *Workspace, r par.Runner, uplo Uplo, n, nrhs int, a, b gemm.Mat[T]) {
	if uplo == Lower {
		Trsm(ws, r, Left, Lower, NoTrans, NonUnit, n, nrhs, 1, a, b)
		Trsm(ws, r, Left, Lower, ConjTrans, NonUnit, n, nrhs, 1, a, b)
		return
	}
	Trsm(ws, r, Left, Upper, ConjTrans, NonUnit, n, nrhs, 1, a, b)
	Trsm(ws, r, Left, Upper, NoTrans, NonUnit, n, nrhs, 1, a, b)
}
