package cpu

import (
	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/internal/kernel/lapack"
	"github.com/tenferro-go/tenferro/internal/kernel/strided"
	"github.com/tenferro-go/tenferro/internal/par"
)

// luBatch factors every item of the square a (n, n, batch...) into
// scratch (item q at buf[q·n²:], its pivots at piv[q·n:]) and reports the
// first non-finite entry or zero pivot.
func (k *numeric[T]) luBatch(a *backend.View[T]) ([]T, []int, error) {
	s := &k.sc().lin
	n := a.Shape[0]
	items := prod(a.Shape[2:])
	buf, piv := s.factors(n*n*items, n*items)
	b := &s.solve
	*b = solveBody[T]{a: a, n: n, buf: buf, piv: piv}
	defer func() { *b = solveBody[T]{} }()
	if err := k.forEach(b, items, cube(n)); err != nil {
		return nil, nil, err
	}
	return buf, piv, nil
}

// solveKind is what a solveBody does with its items.
type solveKind int8

const (
	luFactor  solveKind = iota // factor items of a into buf and piv
	luSolve                    // x = a⁻¹·b from the factors
	luInverse                  // x = a⁻¹ from the factors
	gjInvert                   // invert items of a into buf (Gauss-Jordan)
	gjStore                    // x = the inverses in buf
)

// gjMaxOrder is the largest order Inv inverts by Gauss-Jordan elimination
// (lapack.Gjinv, one pass of contiguous column updates) instead of LU
// factors and Getri, whose solves cost more in setup than such matrices
// cost in arithmetic.
const gjMaxOrder = 16

// solveBody runs one phase of Solve or Inv over items (of a's batch for
// luFactor, of x's otherwise).
type solveBody[T strided.Scalar] struct {
	kind    solveKind
	x, a, b *backend.View[T]
	n       int
	buf     []T
	piv     []int
}

func (b *solveBody[T]) run(ws *lapack.Workspace, r par.Runner, lo, hi int) *backend.LinalgFailure {
	var room [strided.MaxRank]int
	n := b.n
	if b.kind == luFactor || b.kind == gjInvert {
		bt := startBatch(b.a.Shape[2:], room[:], lo)
		for q := lo; q < hi; q++ {
			f := compact(b.buf, q*n*n, n)
			if fail := load(f, mat(b.a, itemOff(b.a, bt.idx)), n, n, full, q); fail != nil {
				return fail
			}
			ip := b.piv[q*n : (q+1)*n]
			var info int
			if b.kind == gjInvert {
				info = lapack.Gjinv(n, f, ip)
			} else {
				info = lapack.Getrf(ws, r, n, n, f, ip)
			}
			if info != 0 {
				return &backend.LinalgFailure{Reason: backend.Singular, Item: q, Index: info - 1}
			}
			bt.next()
		}
		return nil
	}
	bt := startBatch(b.x.Shape[2:], room[:], lo)
	for range hi - lo {
		q := bt.item(b.a.Shape[2:])
		lu, ip := compact(b.buf, q*n*n, n), b.piv[q*n:(q+1)*n]
		xm := mat(b.x, itemOff(b.x, bt.idx))
		switch b.kind {
		case luSolve:
			nrhs := b.x.Shape[1]
			copyMat(xm, mat(b.b, itemOff(b.b, bt.idx)), n, nrhs, full)
			lapack.Getrs(ws, r, lapack.NoTrans, n, nrhs, lu, ip, xm)
		case gjStore:
			copyMat(xm, lu, n, n, full)
		default:
			lapack.Getri(ws, r, n, lu, ip, xm)
		}
		bt.next()
	}
	return nil
}

// Solve implements backend.Linalg: every item of a is factored first, then
// each item of x is set to b's and solved in place.
func (k *numeric[T]) Solve(x, a, b *backend.View[T]) error {
	buf, piv, err := k.luBatch(a)
	if err != nil {
		return err
	}
	n, nrhs := x.Shape[0], x.Shape[1]
	sb := &k.sc().lin.solve
	*sb = solveBody[T]{kind: luSolve, x: x, a: a, b: b, n: n, buf: buf, piv: piv}
	defer func() { *sb = solveBody[T]{} }()
	return k.forEach(sb, prod(x.Shape[2:]), n*n*nrhs)
}

// Inv implements backend.Linalg: every item is factored first, then
// inverted into dst. Up to gjMaxOrder, every item is inverted into scratch
// by Gauss-Jordan elimination first (the same pivots, so the same errors),
// then stored into dst.
func (k *numeric[T]) Inv(dst, a *backend.View[T]) error {
	if n := a.Shape[0]; n <= gjMaxOrder {
		s := &k.sc().lin
		items := prod(a.Shape[2:])
		buf, piv := s.factors(n*n*items, n*items)
		sb := &s.solve
		*sb = solveBody[T]{kind: gjInvert, a: a, n: n, buf: buf, piv: piv}
		defer func() { *sb = solveBody[T]{} }()
		if err := k.forEach(sb, items, cube(n)); err != nil {
			return err
		}
		sb.kind, sb.x = gjStore, dst
		return k.forEach(sb, prod(dst.Shape[2:]), n*n)
	}
	buf, piv, err := k.luBatch(a)
	if err != nil {
		return err
	}
	n := a.Shape[0]
	sb := &k.sc().lin.solve
	*sb = solveBody[T]{kind: luInverse, x: dst, a: a, n: n, buf: buf, piv: piv}
	defer func() { *sb = solveBody[T]{} }()
	return k.forEach(sb, prod(dst.Shape[2:]), cube(n))
}

// triPart is the part of a triangular factor a solve reads.
func triPart(up bool) (part, lapack.Uplo) {
	if up {
		return upper, lapack.Upper
	}
	return lower, lapack.Lower
}

// checkTriangles runs checkTriangle on every item of a.
func (k *numeric[T]) checkTriangles(a *backend.View[T], p part, unit bool) error {
	n := a.Shape[0]
	bt := newBatch(a.Shape[2:], k.sc().lin.idx2[:])
	for q := range bt.count() {
		if fail := checkTriangle(mat(a, itemOff(a, bt.idx)), n, p, unit, q); fail != nil {
			return fail
		}
		bt.next()
	}
	return nil
}

// SolveTriangular implements backend.Linalg: a is checked, then each item
// of x is set to b's and solved in place by Trsm reading a where it lies.
func (k *numeric[T]) SolveTriangular(x, a, b *backend.View[T], up, left, unit bool) error {
	p, uplo := triPart(up)
	if err := k.checkTriangles(a, p, unit); err != nil {
		return err
	}
	side, diag := lapack.Right, lapack.NonUnit
	if left {
		side = lapack.Left
	}
	if unit {
		diag = lapack.Unit
	}
	e := k.e
	m, n := x.Shape[0], x.Shape[1]
	bt := newBatch(x.Shape[2:], k.sc().lin.idx[:])
	for range bt.count() {
		xm := mat(x, itemOff(x, bt.idx))
		copyMat(xm, mat(b, itemOff(b, bt.idx)), m, n, full)
		lapack.Trsm(e.lapackWorkspace(), e.runner, side, uplo, lapack.NoTrans, diag, m, n, 1, mat(a, itemOff(a, bt.idx)), xm)
		bt.next()
	}
	return nil
}

// CholeskySolve implements backend.Linalg: c is checked, then each item of
// x is set to b's and solved in place by Potrs.
func (k *numeric[T]) CholeskySolve(x, c, b *backend.View[T], up bool) error {
	p, uplo := triPart(up)
	if err := k.checkTriangles(c, p, false); err != nil {
		return err
	}
	e := k.e
	n, nrhs := x.Shape[0], x.Shape[1]
	bt := newBatch(x.Shape[2:], k.sc().lin.idx[:])
	for range bt.count() {
		xm := mat(x, itemOff(x, bt.idx))
		copyMat(xm, mat(b, itemOff(b, bt.idx)), n, nrhs, full)
		lapack.Potrs(e.lapackWorkspace(), e.runner, uplo, n, nrhs, mat(c, itemOff(c, bt.idx)), xm)
		bt.next()
	}
	return nil
}

// detBody factors items of the square a, each in its own n² of buf, and
// writes det(a) to dst (or sign and log|det| to sign and la).
type detBody[T strided.Scalar] struct {
	dst, sign, a *backend.View[T]
	la           realOut
	buf          []T
	piv          []int
}

func (b *detBody[T]) run(ws *lapack.Workspace, r par.Runner, lo, hi int) *backend.LinalgFailure {
	var room [strided.MaxRank]int
	n := b.a.Shape[0]
	bt := startBatch(b.a.Shape[2:], room[:], lo)
	for q := lo; q < hi; q++ {
		lu, ip := compact(b.buf, q*n*n, n), b.piv[q*n:(q+1)*n]
		copyMat(lu, mat(b.a, itemOff(b.a, bt.idx)), n, n, full)
		lapack.Getrf(ws, r, n, n, lu, ip)
		if b.dst != nil {
			b.dst.Data[batchOff(b.dst.Shape, b.dst.Strides, b.dst.Off, bt.idx)] = lapack.Det(n, lu, ip)
		} else {
			sg, l := lapack.Slogdet(n, lu, ip)
			b.sign.Data[batchOff(b.sign.Shape, b.sign.Strides, b.sign.Off, bt.idx)] = sg
			b.la.set(b.la.batchOff(0, bt.idx), l)
		}
		bt.next()
	}
	return nil
}

// determinants runs b over every item of b.a.
func (k *numeric[T]) determinants(b *detBody[T]) error {
	s := &k.sc().lin
	n := b.a.Shape[0]
	items := prod(b.a.Shape[2:])
	b.buf, b.piv = s.factors(n*n*items, n*items)
	defer func() { *b = detBody[T]{} }()
	return k.forEach(b, items, cube(n))
}

// Det implements backend.Linalg: each item is factored into scratch and
// its determinant is the signed product of U's diagonal.
func (k *numeric[T]) Det(dst, a *backend.View[T]) error {
	b := &k.sc().lin.det
	*b = detBody[T]{dst: dst, a: a}
	return k.determinants(b)
}

// SlogDet implements backend.Linalg.
func (k *numeric[T]) SlogDet(sign *backend.View[T], logabs any, a *backend.View[T]) error {
	la, err := realDst("SlogDet", "logabs", logabs)
	if err != nil {
		return err
	}
	b := &k.sc().lin.det
	*b = detBody[T]{sign: sign, la: la, a: a}
	return k.determinants(b)
}
