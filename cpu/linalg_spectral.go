package cpu

import (
	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/internal/kernel/lapack"
)

// realOut is a destination of real values: a float32 or a float64 view
// (the real type of the operation's element type).
type realOut struct {
	r32 *backend.View[float32]
	r64 *backend.View[float64]
}

// realDst reads x as a real destination of operation name.
func realDst(name, arg string, x any) (realOut, error) {
	o := realOut{}
	o.r32, _ = x.(*backend.View[float32])
	o.r64, _ = x.(*backend.View[float64])
	if o.r32 == nil && o.r64 == nil {
		return o, tf.Errorf(tf.ErrDType, name, arg, "a float32 or float64 view", "%T", x)
	}
	return o, nil
}

// batchOff returns the offset of element (i, batch idx) of a view with
// lead leading axes (0 or 1) before its batch axes.
func (o realOut) batchOff(lead int, idx []int) int {
	sh, st, off := o.layout()
	return batchOff(sh[lead:], st[lead:], off, idx)
}

// stride is the stride of the leading axis.
func (o realOut) stride() int {
	_, st, _ := o.layout()
	return st[0]
}

func (o realOut) layout() ([]int, []int, int) {
	if o.r32 != nil {
		return o.r32.Shape, o.r32.Strides, o.r32.Off
	}
	return o.r64.Shape, o.r64.Strides, o.r64.Off
}

func (o realOut) set(off int, v float64) {
	if o.r32 != nil {
		o.r32.Data[off] = float32(v)
	} else {
		o.r64.Data[off] = v
	}
}

// setVec sets the n elements of o's leading axis at batch index idx.
func (o realOut) setVec(idx []int, v []float64) {
	off, st := o.batchOff(1, idx), o.stride()
	for i, x := range v {
		o.set(off+i*st, x)
	}
}

// spectral grows the scratch a batch of spectral decompositions needs:
// room for n elements and nr reals.
func (s *linalgScratch[T]) spectral(n, nr int) ([]T, []float64) {
	buf, _ := s.factors(n, 0)
	if cap(s.reals) < nr {
		s.reals = make([]float64, nr+nr/4)
	}
	return buf, s.reals[:nr]
}

// SVD implements backend.Linalg: every item is checked, then decomposed
// into scratch (so that a failure leaves the destinations untouched), then
// copied out.
func (k *numeric[T]) SVD(u *backend.View[T], s any, vh *backend.View[T], a *backend.View[T]) error {
	so, err := realDst("SVD", "s", s)
	if err != nil {
		return err
	}
	if err := k.checkFinite(a); err != nil {
		return err
	}
	e, sc := k.e, &k.sc().lin
	m, n := a.Shape[0], a.Shape[1]
	mn := min(m, n)
	job, ku, kv := lapack.SVDValues, 0, 0
	if u != nil {
		job, ku, kv = lapack.SVDThin, u.Shape[1], vh.Shape[0]
		if ku == m && kv == n && m != n {
			job = lapack.SVDFull
		}
	}
	bt := newBatch(a.Shape[2:], sc.idx[:])
	items := bt.count()
	per := m*n + m*ku + kv*n
	buf, sv := sc.spectral(per*items, mn*items)
	for q := range items {
		f := compact(buf, q*per, m)
		um, vm := compact(buf, q*per+m*n, m), compact(buf, q*per+m*n+m*ku, max(kv, 1))
		copyMat(f, mat(a, itemOff(a, bt.idx)), m, n, full)
		if info := lapack.Gesvd(e.lapackWorkspace(), e.runner, job, m, n, f, sv[q*mn:(q+1)*mn], um, vm); info != 0 {
			return &backend.LinalgFailure{Reason: backend.NoConvergence, Item: q, Index: info}
		}
		bt.next()
	}
	for q := range items {
		so.setVec(bt.idx, sv[q*mn:(q+1)*mn])
		if u != nil {
			copyMat(mat(u, itemOff(u, bt.idx)), compact(buf, q*per+m*n, m), m, ku, full)
			copyMat(mat(vh, itemOff(vh, bt.idx)), compact(buf, q*per+m*n+m*ku, max(kv, 1)), kv, n, full)
		}
		bt.next()
	}
	return nil
}

// Eigh implements backend.Linalg as [numeric.SVD] does.
func (k *numeric[T]) Eigh(w any, v *backend.View[T], a *backend.View[T], up bool) error {
	wo, err := realDst("Eigh", "w", w)
	if err != nil {
		return err
	}
	e, sc := k.e, &k.sc().lin
	n := a.Shape[0]
	p, uplo := triPart(up)
	bt := newBatch(a.Shape[2:], sc.idx[:])
	items := bt.count()
	buf, wv := sc.spectral(n*n*items, n*items)
	for q := range items {
		f := compact(buf, q*n*n, n)
		if fail := load(f, mat(a, itemOff(a, bt.idx)), n, n, p, q); fail != nil {
			return fail
		}
		if info := lapack.Heev(e.lapackWorkspace(), e.runner, v != nil, uplo, n, f, wv[q*n:(q+1)*n]); info != 0 {
			return &backend.LinalgFailure{Reason: backend.NoConvergence, Item: q, Index: info}
		}
		bt.next()
	}
	for q := range items {
		wo.setVec(bt.idx, wv[q*n:(q+1)*n])
		if v != nil {
			copyMat(mat(v, itemOff(v, bt.idx)), compact(buf, q*n*n, n), n, n, full)
		}
		bt.next()
	}
	return nil
}
