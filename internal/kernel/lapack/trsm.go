package lapack

import (
	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
	"github.com/tenferro-go/tenferro/internal/par"
)

// Trsm solves op(A)·X = α·B (side Left, A m×m) or X·op(A) = α·B (side
// Right, A n×n) for X, overwriting the m×n matrix B with X. A is upper or
// lower triangular as uplo says (only that triangle is read), with a unit
// diagonal that is not read when diag is Unit; op is NoTrans, Trans or
// ConjTrans.
//
// When α == 0, A is not read and B is set to zero. B must not overlap A. A
// singular A gives Inf or NaN in X; Trsm does not check. Products with the
// off-diagonal blocks run through gemm.Gemm with ws.Gemm and r; when the
// triangle's order is at most [TrsmLeaf], neither ws nor r is used.
func Trsm[T Scalar](ws *Workspace, r par.Runner, side Side, uplo Uplo, op Op, diag Diag, m, n int, alpha T, a, b gemm.Mat[T]) {
	if m <= 0 || n <= 0 {
		return
	}
	lower, cj := uplo == Lower, false
	if side == Right {
		// X·op(A) = αB  ⇔  op(A)ᵀ·Xᵀ = αBᵀ.
		b = transpose(b)
		m, n = n, m
		switch op {
		case NoTrans:
			a, lower = transpose(a), !lower
		case ConjTrans:
			cj = true
		}
	} else if op != NoTrans {
		a, lower, cj = transpose(a), !lower, op == ConjTrans
	}
	// conj(A)·X = αB  ⇔  A·conj(X) = conj(α)·conj(B).
	cj = cj && isComplex[T]()
	if cj {
		conjMat(m, n, b)
		alpha = conj(alpha)
	}
	if alpha != 1 {
		scaleMat(m, n, alpha, b)
	}
	if alpha != 0 {
		trsmLeft(ws, r, lower, diag == Unit, m, n, a, b)
	}
	if cj {
		conjMat(m, n, b)
	}
}

// scaleMat sets B = α·B over the m×n range (B = 0 without reading it when
// α == 0).
func scaleMat[T Scalar](m, n int, alpha T, b gemm.Mat[T]) {
	if b.RS != 1 && b.CS == 1 {
		b = transpose(b)
		m, n = n, m
	}
	for j := 0; j < n; j++ {
		o := b.Off + j*b.CS
		for i := 0; i < m; i++ {
			if alpha == 0 {
				b.Data[o+i*b.RS] = 0
			} else {
				b.Data[o+i*b.RS] *= alpha
			}
		}
	}
}

// trsmLeft solves A·X = B in place for m×m triangular A (no conjugation),
// halving A recursively down to TrsmLeaf. With a runner of width w > 1 and
// at least gemm.ParallelThreshold flops, the right-hand sides are split
// into w column blocks solved side by side, each by the serial recursion
// with a workspace of its own (the small products and the leaves of the
// recursion would otherwise run on one core).
func trsmLeft[T Scalar](ws *Workspace, r par.Runner, lower, unit bool, m, n int, a, b gemm.Mat[T]) {
	if w := par.Width(r); w > 1 && n >= 2*w*8 && m*m*n*flopsPer[T]() >= gemm.ParallelThreshold {
		t := columnTaskFor[T](ws)
		*t = columnTask[T]{kind: columnSolve, ws: ws.parts(w), lower: lower, unit: unit, m: m, n: n, a: a, b: b}
		par.Run(r, t, w)
		*t = columnTask[T]{}
		return
	}
	trsmLeftSerial(ws, r, lower, unit, m, n, a, b)
}

// columnKind is what a columnTask does to its block of columns.
type columnKind uint8

const (
	columnSolve columnKind = iota // the triangular solve a·X = b
	columnSwap                    // the row interchanges ipiv[k1:k2] of Laswp
	columnHerk                    // herkLower's update of the columns of cm
)

// columnTask works on a block of the n columns of b (cm for columnHerk)
// per part, each part on a workspace of its own.
type columnTask[T Scalar] struct {
	kind        columnKind
	ws          []*Workspace
	lower, unit bool
	m, n        int
	a, b        gemm.Mat[T]
	k1, k2      int
	ipiv        []int
	// columnHerk: cm −= a·cᵀ over the lower triangle of the n×n cm, a and c
	// n×k; dsq is part 0's leaf block (the other parts take their
	// workspace's scratch).
	k     int
	c, cm gemm.Mat[T]
	dsq   []T
}

// RunPart implements par.Task: part p takes columns [lo, hi), a multiple
// of 8 wide (the GEMM register tile) except at the end; columnHerk's
// parts cover equal areas of the triangle.
func (t *columnTask[T]) RunPart(part, parts int) {
	if t.kind == columnHerk {
		t.herkPart(part, parts)
		return
	}
	blocks := (t.n + 7) / 8
	lo, hi := par.Split(blocks, part, parts)
	lo, hi = lo*8, min(hi*8, t.n)
	if lo >= hi {
		return
	}
	if t.kind == columnSwap {
		Laswp(hi-lo, shift(t.b, 0, lo), t.k1, t.k2, t.ipiv)
		return
	}
	trsmLeftSerial(t.ws[part], nil, t.lower, t.unit, t.m, hi-lo, t.a, shift(t.b, 0, lo))
}

// flopsPer is the real flops of one multiply-add of T.
func flopsPer[T Scalar]() int {
	if isComplex[T]() {
		return 8
	}
	return 2
}

func trsmLeftSerial[T Scalar](ws *Workspace, r par.Runner, lower, unit bool, m, n int, a, b gemm.Mat[T]) {
	if m <= max(TrsmLeaf, 1) {
		trsmLeftUnblocked(lower, unit, m, n, a, b)
		return
	}
	m1 := split(m)
	m2 := m - m1
	if lower {
		// [A11 0; A21 A22]·[X1; X2] = [B1; B2].
		trsmLeftSerial(ws, r, lower, unit, m1, n, a, b)
		gemmC(ws, r, m2, n, m1, -1, shift(a, m1, 0), b, shift(b, m1, 0))
		trsmLeftSerial(ws, r, lower, unit, m2, n, shift(a, m1, m1), shift(b, m1, 0))
		return
	}
	// [A11 A12; 0 A22]·[X1; X2] = [B1; B2].
	trsmLeftSerial(ws, r, lower, unit, m2, n, shift(a, m1, m1), shift(b, m1, 0))
	gemmC(ws, r, m1, n, m2, -1, shift(a, 0, m1), shift(b, m1, 0), b)
	trsmLeftSerial(ws, r, lower, unit, m1, n, a, b)
}

// gemmC computes C += alpha·A·B (m×n, inner k) by gemm.Gemm, through the
// transposed product Cᵀ += alpha·Bᵀ·Aᵀ when C is row-oriented, so that gemm
// writes C directly rather than through its edge tile.
func gemmC[T Scalar](ws *Workspace, r par.Runner, m, n, k int, alpha T, a, b, c gemm.Mat[T]) {
	if c.RS != 1 && c.CS == 1 {
		gemm.Gemm(&ws.Gemm, r, n, m, k, alpha, transpose(b), transpose(a), 1, transpose(c))
		return
	}
	gemm.Gemm(&ws.Gemm, r, m, n, k, alpha, a, b, 1, c)
}

// rowChunk is the number of columns of a row-oriented right-hand side that
// the unblocked solve updates at a time, so that its rows stay in L1.
const rowChunk = 256

// trsmLeftUnblocked solves A·X = B in place for m×m triangular A by
// column-oriented substitution, four right-hand sides at a time.
func trsmLeftUnblocked[T Scalar](lower, unit bool, m, n int, a, b gemm.Mat[T]) {
	if b.RS != 1 && b.CS == 1 {
		for j := 0; j < n; j += rowChunk {
			trsmRows(lower, unit, m, min(rowChunk, n-j), a, shift(b, 0, j))
		}
		return
	}
	if b.RS != 1 {
		for j := 0; j < n; j++ {
			trsvCol(lower, unit, m, a, b.Data, b.Off+j*b.CS, b.RS)
		}
		return
	}
	j := 0
	for ; j+4 <= n; j += 4 {
		trsv4(lower, unit, m, a, b.Data, b.Off+j*b.CS, b.CS)
	}
	for ; j < n; j++ {
		trsvCol(lower, unit, m, a, b.Data, b.Off+j*b.CS, 1)
	}
}

// trsvCol solves A·x = b in place for one right-hand side b[off+i*inc].
func trsvCol[T Scalar](lower, unit bool, m int, a gemm.Mat[T], x []T, off, inc int) {
	if lower {
		for p := 0; p < m; p++ {
			ap := a.Off + p*a.CS
			v := x[off+p*inc]
			if !unit {
				v /= a.Data[ap+p*a.RS]
				x[off+p*inc] = v
			}
			if v == 0 {
				continue
			}
			for i := p + 1; i < m; i++ {
				x[off+i*inc] -= v * a.Data[ap+i*a.RS]
			}
		}
		return
	}
	for p := m - 1; p >= 0; p-- {
		ap := a.Off + p*a.CS
		v := x[off+p*inc]
		if !unit {
			v /= a.Data[ap+p*a.RS]
			x[off+p*inc] = v
		}
		if v == 0 {
			continue
		}
		for i := 0; i < p; i++ {
			x[off+i*inc] -= v * a.Data[ap+i*a.RS]
		}
	}
}

// trsv4 solves A·X = B in place for the four contiguous columns of B that
// start at x[off] and are ld apart.
func trsv4[T Scalar](lower, unit bool, m int, a gemm.Mat[T], x []T, off, ld int) {
	b0 := x[off : off+m]
	b1 := x[off+ld : off+ld+m]
	b2 := x[off+2*ld : off+2*ld+m]
	b3 := x[off+3*ld : off+3*ld+m]
	if lower {
		for p := 0; p < m; p++ {
			ap := a.Off + p*a.CS
			v0, v1, v2, v3 := b0[p], b1[p], b2[p], b3[p]
			if !unit {
				d := 1 / a.Data[ap+p*a.RS]
				v0, v1, v2, v3 = v0*d, v1*d, v2*d, v3*d
				b0[p], b1[p], b2[p], b3[p] = v0, v1, v2, v3
			}
			if a.RS == 1 {
				col := a.Data[ap+p+1 : ap+m]
				k := len(col)
				c0, c1, c2, c3 := b0[p+1:][:k], b1[p+1:][:k], b2[p+1:][:k], b3[p+1:][:k]
				for i, t := range col {
					c0[i] -= v0 * t
					c1[i] -= v1 * t
					c2[i] -= v2 * t
					c3[i] -= v3 * t
				}
				continue
			}
			for i := p + 1; i < m; i++ {
				t := a.Data[ap+i*a.RS]
				b0[i] -= v0 * t
				b1[i] -= v1 * t
				b2[i] -= v2 * t
				b3[i] -= v3 * t
			}
		}
		return
	}
	for p := m - 1; p >= 0; p-- {
		ap := a.Off + p*a.CS
		v0, v1, v2, v3 := b0[p], b1[p], b2[p], b3[p]
		if !unit {
			d := 1 / a.Data[ap+p*a.RS]
			v0, v1, v2, v3 = v0*d, v1*d, v2*d, v3*d
			b0[p], b1[p], b2[p], b3[p] = v0, v1, v2, v3
		}
		if a.RS == 1 {
			col := a.Data[ap : ap+p]
			k := len(col)
			c0, c1, c2, c3 := b0[:k], b1[:k], b2[:k], b3[:k]
			for i, t := range col {
				c0[i] -= v0 * t
				c1[i] -= v1 * t
				c2[i] -= v2 * t
				c3[i] -= v3 * t
			}
			continue
		}
		for i := 0; i < p; i++ {
			t := a.Data[ap+i*a.RS]
			b0[i] -= v0 * t
			b1[i] -= v1 * t
			b2[i] -= v2 * t
			b3[i] -= v3 * t
		}
	}
}

// trsmRows solves A·X = B in place for a row-oriented B (CS = 1) by
// row operations: each solved row, scaled by the reciprocal pivot, is
// subtracted from the rows still to be solved.
func trsmRows[T Scalar](lower, unit bool, m, n int, a, b gemm.Mat[T]) {
	for q := 0; q < m; q++ {
		p := q
		if !lower {
			p = m - 1 - q
		}
		rp := b.Data[b.Off+p*b.RS : b.Off+p*b.RS+n]
		if !unit {
			inv := 1 / a.Data[a.Off+p*a.RS+p*a.CS]
			for j := range rp {
				rp[j] *= inv
			}
		}
		lo, hi := p+1, m
		if !lower {
			lo, hi = 0, p
		}
		for i := lo; i < hi; i++ {
			t := a.Data[a.Off+i*a.RS+p*a.CS]
			if t == 0 {
				continue
			}
			ri := b.Data[b.Off+i*b.RS : b.Off+i*b.RS+n]
			for j, v := range rp {
				ri[j] -= v * t
			}
		}
	}
}
