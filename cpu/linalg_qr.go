package cpu

import (
	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
	"github.com/tenferro-go/tenferro/internal/kernel/lapack"
	"github.com/tenferro-go/tenferro/internal/kernel/strided"
)

// checkFinite reports the first non-finite entry of any item of the m×n
// matrices a, before anything is written.
func (k *numeric[T]) checkFinite(a *backend.View[T]) error {
	bt := newBatch(a.Shape[2:], k.sc().lin.idx2[:])
	for q := range bt.count() {
		if fail := load(gemm.Mat[T]{}, mat(a, itemOff(a, bt.idx)), a.Shape[0], a.Shape[1], full, q); fail != nil {
			return fail
		}
		bt.next()
	}
	return nil
}

// QR implements backend.Linalg: every item is checked first; then each is
// factored in scratch, r copied out of the factors and q accumulated from
// the reflectors in place.
func (k *numeric[T]) QR(q, r *backend.View[T], perm *backend.View[int64], a *backend.View[T], positive bool) error {
	if err := k.checkFinite(a); err != nil {
		return err
	}
	e, s := k.e, &k.sc().lin
	m, n := a.Shape[0], a.Shape[1]
	mn, kr := min(m, n), r.Shape[0]
	buf, jpvt := s.factors(m*n+mn, n)
	f, tau := compact(buf, 0, m), buf[m*n:]
	bt := newBatch(r.Shape[2:], s.idx[:])
	for range bt.count() {
		copyMat(f, mat(a, itemOff(a, bt.idx)), m, n, full)
		if perm != nil {
			lapack.Geqp3(e.lapackWorkspace(), m, n, f, jpvt, tau)
			po := batchOff(perm.Shape[1:], perm.Strides[1:], perm.Off, bt.idx)
			for j, p := range jpvt {
				perm.Data[po+j*perm.Strides[0]] = int64(p)
			}
		} else {
			lapack.Geqrf(e.lapackWorkspace(), e.runner, m, n, f, tau)
		}
		rm := mat(r, itemOff(r, bt.idx))
		copyMat(rm, f, kr, n, upper)
		var qm gemm.Mat[T]
		if q != nil {
			kq := q.Shape[1]
			qm = mat(q, itemOff(q, bt.idx))
			copyMat(qm, f, m, min(mn, kq), full)
			lapack.Orgqr(e.lapackWorkspace(), e.runner, m, kq, mn, qm, tau)
		}
		if positive {
			lapack.PositiveDiag(rowsIf(q != nil, m), n, mn, qm, rm)
		}
		bt.next()
	}
	return nil
}

// LQ implements backend.Linalg as [numeric.QR] does, with the reflectors
// of Gelqf in the rows of the factors.
func (k *numeric[T]) LQ(l, q *backend.View[T], a *backend.View[T], positive bool) error {
	if err := k.checkFinite(a); err != nil {
		return err
	}
	e, s := k.e, &k.sc().lin
	m, n := a.Shape[0], a.Shape[1]
	mn, kl := min(m, n), l.Shape[1]
	buf, _ := s.factors(m*n+mn, 0)
	f, tau := compact(buf, 0, m), buf[m*n:]
	bt := newBatch(l.Shape[2:], s.idx[:])
	for range bt.count() {
		copyMat(f, mat(a, itemOff(a, bt.idx)), m, n, full)
		lapack.Gelqf(e.lapackWorkspace(), e.runner, m, n, f, tau)
		lm := mat(l, itemOff(l, bt.idx))
		copyMat(lm, f, m, kl, lower)
		var qm gemm.Mat[T]
		if q != nil {
			kq := q.Shape[0]
			qm = mat(q, itemOff(q, bt.idx))
			copyMat(qm, f, min(mn, kq), n, full)
			lapack.Orglq(e.lapackWorkspace(), e.runner, kq, n, mn, qm, tau)
		}
		if positive {
			lapack.PositiveDiag(rowsIf(q != nil, n), m, mn, transposed(qm), transposed(lm))
		}
		bt.next()
	}
	return nil
}

// rowsIf is n when there is a factor to scale alongside, 0 otherwise.
func rowsIf(ok bool, n int) int {
	if ok {
		return n
	}
	return 0
}

// transposed is the transposed view of m.
func transposed[T strided.Scalar](m gemm.Mat[T]) gemm.Mat[T] {
	m.RS, m.CS = m.CS, m.RS
	return m
}
