package cpu

import (
	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/internal/kernel/lapack"
	"github.com/tenferro-go/tenferro/internal/kernel/strided"
	"github.com/tenferro-go/tenferro/internal/par"
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

// setBatch sets the per-item values v (one per batch item, in the order
// b walks them) of a destination of the batch's shape, walking b.
func (o realOut) setBatch(b *batch, v []float64) {
	for _, x := range v {
		o.set(o.batchOff(0, b.idx), x)
		b.next()
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
// copied out. Thin decompositions with min(m, n) ≤ lapack.JacobiSVDMax
// are computed by one-sided Jacobi (lapack.Gesvj), the others by Gesvd;
// values alone always come from Gesvd, so that they equal, bit for bit,
// the values Lstsq's Gelss reports.
func (k *numeric[T]) SVD(u *backend.View[T], s any, vh *backend.View[T], a *backend.View[T]) error {
	so, err := realDst("SVD", "s", s)
	if err != nil {
		return err
	}
	if err := k.checkFinite(a); err != nil {
		return err
	}
	sc := &k.sc().lin
	m, n := a.Shape[0], a.Shape[1]
	mn := min(m, n)
	job, ku, kv := lapack.SVDValues, 0, 0
	if u != nil {
		job, ku, kv = lapack.SVDThin, u.Shape[1], vh.Shape[0]
		if ku == m && kv == n && m != n {
			job = lapack.SVDFull
		}
	}
	items := prod(a.Shape[2:])
	per := m*n + m*ku + kv*n
	buf, sv := sc.spectral(per*items, mn*items)
	b := &sc.svd
	*b = svdBody[T]{u: u, vh: vh, a: a, so: so, job: job, ku: ku, kv: kv, buf: buf, sv: sv}
	defer func() { *b = svdBody[T]{} }()
	if err := k.forEach(b, items, m*n*mn); err != nil {
		return err
	}
	b.out = true
	return k.forEach(b, items, m*n)
}

// svdBody decomposes items of a into buf and sv (phase one) or copies
// them out (out).
type svdBody[T strided.Scalar] struct {
	u, vh, a *backend.View[T]
	so       realOut
	job      lapack.SVDJob
	ku, kv   int
	buf      []T
	sv       []float64
	out      bool
}

func (b *svdBody[T]) run(ws *lapack.Workspace, r par.Runner, lo, hi int) *backend.LinalgFailure {
	var room [strided.MaxRank]int
	m, n := b.a.Shape[0], b.a.Shape[1]
	mn, ku, kv := min(m, n), b.ku, b.kv
	per := m*n + m*ku + kv*n
	jacobi := mn <= lapack.JacobiSVDMax && b.job == lapack.SVDThin
	bt := startBatch(b.a.Shape[2:], room[:], lo)
	for q := lo; q < hi; q++ {
		sq := b.sv[q*mn : (q+1)*mn]
		um, vm := compact(b.buf, q*per+m*n, m), compact(b.buf, q*per+m*n+m*ku, max(kv, 1))
		if b.out {
			b.so.setVec(bt.idx, sq)
			if b.u != nil {
				copyMat(mat(b.u, itemOff(b.u, bt.idx)), um, m, ku, full)
				copyMat(mat(b.vh, itemOff(b.vh, bt.idx)), vm, kv, n, full)
			}
			bt.next()
			continue
		}
		am := mat(b.a, itemOff(b.a, bt.idx))
		var info int
		if jacobi {
			info = lapack.Gesvj(ws, true, m, n, am, sq, um, vm)
		} else {
			f := compact(b.buf, q*per, m)
			copyMat(f, am, m, n, full)
			info = lapack.Gesvd(ws, r, b.job, m, n, f, sq, um, vm)
		}
		if info != 0 {
			return &backend.LinalgFailure{Reason: backend.NoConvergence, Item: q, Index: info}
		}
		bt.next()
	}
	return nil
}

// Eigh implements backend.Linalg as [numeric.SVD] does; orders up to
// lapack.JacobiEighMax are decomposed by cyclic Jacobi (lapack.Heevj),
// larger ones by Heev.
func (k *numeric[T]) Eigh(w any, v *backend.View[T], a *backend.View[T], up bool) error {
	wo, err := realDst("Eigh", "w", w)
	if err != nil {
		return err
	}
	sc := &k.sc().lin
	n := a.Shape[0]
	p, uplo := triPart(up)
	items := prod(a.Shape[2:])
	buf, wv := sc.spectral(n*n*items, n*items)
	b := &sc.eigh
	*b = eighBody[T]{v: v, a: a, wo: wo, p: p, uplo: uplo, buf: buf, wv: wv}
	defer func() { *b = eighBody[T]{} }()
	if err := k.forEach(b, items, cube(n)); err != nil {
		return err
	}
	b.out = true
	return k.forEach(b, items, n*n)
}

// eighBody decomposes items of a into buf and wv (phase one) or copies
// them out (out).
type eighBody[T strided.Scalar] struct {
	v, a *backend.View[T]
	wo   realOut
	p    part
	uplo lapack.Uplo
	buf  []T
	wv   []float64
	out  bool
}

func (b *eighBody[T]) run(ws *lapack.Workspace, r par.Runner, lo, hi int) *backend.LinalgFailure {
	var room [strided.MaxRank]int
	n := b.a.Shape[0]
	bt := startBatch(b.a.Shape[2:], room[:], lo)
	for q := lo; q < hi; q++ {
		f, wq := compact(b.buf, q*n*n, n), b.wv[q*n:(q+1)*n]
		if b.out {
			b.wo.setVec(bt.idx, wq)
			if b.v != nil {
				copyMat(mat(b.v, itemOff(b.v, bt.idx)), f, n, n, full)
			}
			bt.next()
			continue
		}
		if fail := load(f, mat(b.a, itemOff(b.a, bt.idx)), n, n, b.p, q); fail != nil {
			return fail
		}
		var info int
		if n <= lapack.JacobiEighMax {
			info = lapack.Heevj(ws, b.v != nil, b.uplo, n, f, wq)
		} else {
			info = lapack.Heev(ws, r, b.v != nil, b.uplo, n, f, wq)
		}
		if info != 0 {
			return &backend.LinalgFailure{Reason: backend.NoConvergence, Item: q, Index: info}
		}
		bt.next()
	}
	return nil
}
