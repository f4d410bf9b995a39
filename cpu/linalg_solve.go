package cpu

import (
	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
	"github.com/tenferro-go/tenferro/internal/kernel/lapack"
)

// luBatch factors every item of the square a (n, n, batch...) into
// scratch (item q at buf[q·n²:], its pivots at piv[q·n:]) and reports the
// first non-finite entry or zero pivot.
func (k *numeric[T]) luBatch(a *backend.View[T]) ([]T, []int, error) {
	e, s := k.e, &k.sc().lin
	n := a.Shape[0]
	bt := newBatch(a.Shape[2:], s.idx2[:])
	items := bt.count()
	buf, piv := s.factors(n*n*items, n*items)
	for q := range items {
		f := compact(buf, q*n*n, n)
		if fail := load(f, mat(a, itemOff(a, bt.idx)), n, n, full, q); fail != nil {
			return nil, nil, fail
		}
		if info := lapack.Getrf(e.lapackWorkspace(), e.runner, n, n, f, piv[q*n:(q+1)*n]); info != 0 {
			return nil, nil, &backend.LinalgFailure{Reason: backend.Singular, Item: q, Index: info - 1}
		}
		bt.next()
	}
	return buf, piv, nil
}

// Solve implements backend.Linalg: every item of a is factored first, then
// each item of x is set to b's and solved in place.
func (k *numeric[T]) Solve(x, a, b *backend.View[T]) error {
	buf, piv, err := k.luBatch(a)
	if err != nil {
		return err
	}
	e, s := k.e, &k.sc().lin
	n, nrhs := x.Shape[0], x.Shape[1]
	bt := newBatch(x.Shape[2:], s.idx[:])
	for range bt.count() {
		q := bt.item(a.Shape[2:])
		xm := mat(x, itemOff(x, bt.idx))
		copyMat(xm, mat(b, itemOff(b, bt.idx)), n, nrhs, full)
		lapack.Getrs(e.lapackWorkspace(), e.runner, lapack.NoTrans, n, nrhs, compact(buf, q*n*n, n), piv[q*n:(q+1)*n], xm)
		bt.next()
	}
	return nil
}

// Inv implements backend.Linalg: every item is factored first, then
// inverted into dst.
func (k *numeric[T]) Inv(dst, a *backend.View[T]) error {
	buf, piv, err := k.luBatch(a)
	if err != nil {
		return err
	}
	e, s := k.e, &k.sc().lin
	n := a.Shape[0]
	bt := newBatch(dst.Shape[2:], s.idx[:])
	for range bt.count() {
		q := bt.item(a.Shape[2:])
		lapack.Getri(e.lapackWorkspace(), e.runner, n, compact(buf, q*n*n, n), piv[q*n:(q+1)*n], mat(dst, itemOff(dst, bt.idx)))
		bt.next()
	}
	return nil
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

// factorItem copies the current item of the square a (at batch index
// idx) into the compact scratch lu and factors it there.
func (k *numeric[T]) factorItem(a *backend.View[T], idx []int, lu gemm.Mat[T], piv []int) {
	n := a.Shape[0]
	copyMat(lu, mat(a, itemOff(a, idx)), n, n, full)
	lapack.Getrf(k.e.lapackWorkspace(), k.e.runner, n, n, lu, piv)
}

// Det implements backend.Linalg: each item is factored into scratch and
// its determinant is the signed product of U's diagonal.
func (k *numeric[T]) Det(dst, a *backend.View[T]) error {
	s := &k.sc().lin
	n := a.Shape[0]
	buf, piv := s.factors(n*n, n)
	lu := compact(buf, 0, n)
	bt := newBatch(a.Shape[2:], s.idx[:])
	for range bt.count() {
		k.factorItem(a, bt.idx, lu, piv)
		dst.Data[batchOff(dst.Shape, dst.Strides, dst.Off, bt.idx)] = lapack.Det(n, lu, piv)
		bt.next()
	}
	return nil
}

// SlogDet implements backend.Linalg.
func (k *numeric[T]) SlogDet(sign *backend.View[T], logabs any, a *backend.View[T]) error {
	la, err := realDst("SlogDet", "logabs", logabs)
	if err != nil {
		return err
	}
	s := &k.sc().lin
	n := a.Shape[0]
	buf, piv := s.factors(n*n, n)
	lu := compact(buf, 0, n)
	bt := newBatch(a.Shape[2:], s.idx[:])
	for range bt.count() {
		k.factorItem(a, bt.idx, lu, piv)
		sg, l := lapack.Slogdet(n, lu, piv)
		sign.Data[batchOff(sign.Shape, sign.Strides, sign.Off, bt.idx)] = sg
		la.set(la.batchOff(0, bt.idx), l)
		bt.next()
	}
	return nil
}
