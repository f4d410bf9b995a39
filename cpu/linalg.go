package cpu

import (
	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
	"github.com/tenferro-go/tenferro/internal/kernel/lapack"
	"github.com/tenferro-go/tenferro/internal/kernel/strided"
	"github.com/tenferro-go/tenferro/internal/par"

	"github.com/tenferro-go/tenferro/internal/hugepage"
)

// linalgScratch is what the Linalg kernels of one dtype reuse: the
// factors of a whole batch (so that destinations are written only once
// every item has succeeded), the pivots, and the batch odometer.
type linalgScratch[T strided.Scalar] struct {
	buf   []T
	piv   []int
	reals []float64
	idx   [strided.MaxRank]int
	idx2  [strided.MaxRank]int
	// ws are the workers' workspaces and fails their failures when a
	// batch is spread over the team (see forEach); task is the fork.
	ws    []*lapack.Workspace
	fails []*backend.LinalgFailure
	task  batchTask
	// The bodies of the batched operations, kept here so that passing
	// them to forEach allocates nothing.
	chol  cholBody[T]
	lu    luBody[T]
	solve solveBody[T]
	det   detBody[T]
	qr    qrBody[T]
	svd   svdBody[T]
	eigh  eighBody[T]
}

// factors returns room for n elements and np pivots, grown once.
func (s *linalgScratch[T]) factors(n, np int) ([]T, []int) {
	if cap(s.buf) < n {
		s.buf = hugepage.Make[T](n + n/4)
	}
	if cap(s.piv) < np {
		s.piv = make([]int, np+np/4)
	}
	return s.buf[:n], s.piv[:np]
}

// batch walks the items of a batch shape in column-major order.
type batch struct {
	shape []int // the batch extents
	idx   []int // the current item's index
}

func newBatch(shape, room []int) batch {
	b := batch{shape: shape, idx: room[:len(shape)]}
	clear(b.idx)
	return b
}

// count returns the number of items.
func (b *batch) count() int {
	n := 1
	for _, x := range b.shape {
		n *= x
	}
	return n
}

// next advances to the following item.
func (b *batch) next() {
	for d := range b.idx {
		b.idx[d]++
		if b.idx[d] < b.shape[d] {
			return
		}
		b.idx[d] = 0
	}
}

// itemOff returns the offset of the matrix of v (rank 2 + len(idx)) at
// batch index idx, reading extent-1 batch axes as broadcast.
func itemOff[T backend.Elem](v *backend.View[T], idx []int) int {
	return batchOff(v.Shape[2:], v.Strides[2:], v.Off, idx)
}

func batchOff(shape, strides []int, off int, idx []int) int {
	for d, i := range idx {
		if shape[d] != 1 {
			off += i * strides[d]
		}
	}
	return off
}

// item returns the linear index, in v's own batch shape, of the current
// item (extent-1 axes of v read as index 0).
func (b *batch) item(shape []int) int {
	p, s := 0, 1
	for d, i := range b.idx {
		if shape[d] != 1 {
			p += i * s
		}
		s *= shape[d]
	}
	return p
}

// mat is the matrix of view v at offset off.
func mat[T strided.Scalar](v *backend.View[T], off int) gemm.Mat[T] {
	return gemm.Mat[T]{Data: v.Data, Off: off, RS: v.Strides[0], CS: v.Strides[1]}
}

// at returns element (i, j) of m.
func at[T strided.Scalar](m gemm.Mat[T], i, j int) *T { return &m.Data[m.Off+i*m.RS+j*m.CS] }

// finite reports whether v has finite parts: v − v is 0 exactly then.
func finite[T strided.Scalar](v T) bool { return v-v == 0 }

// part selects the elements of a matrix that a routine reads.
type part int8

const (
	full part = iota
	lower
	upper
)

func (p part) has(i, j int) bool {
	return p == full || p == lower && i >= j || p == upper && i <= j
}

// rows returns the row range [i0, i1) of column j of an m-row matrix
// that part p holds.
func (p part) rows(j, m int) (int, int) {
	switch p {
	case lower:
		return min(j, m), m
	case upper:
		return 0, min(j+1, m)
	}
	return 0, m
}

// load copies the part of the m×n matrix src into dst (when dst.Data is
// not nil) and reports the first non-finite entry read, or nil. Columns of
// a column-major src (RS = 1) are read as contiguous runs.
func load[T strided.Scalar](dst, src gemm.Mat[T], m, n int, p part, item int) *backend.LinalgFailure {
	for j := range n {
		i0, i1 := p.rows(j, m)
		if i0 >= i1 {
			continue
		}
		so := src.Off + j*src.CS
		if src.RS == 1 {
			col := src.Data[so+i0 : so+i1]
			for i, v := range col {
				if v-v != 0 {
					return &backend.LinalgFailure{Reason: backend.NonFinite, Item: item, Index: i0 + i, Col: j}
				}
			}
			if dst.Data == nil {
				continue
			}
			do := dst.Off + j*dst.CS
			if dst.RS == 1 {
				copy(dst.Data[do+i0:do+i1], col)
				continue
			}
			for i, v := range col {
				dst.Data[do+(i0+i)*dst.RS] = v
			}
			continue
		}
		for i := i0; i < i1; i++ {
			v := src.Data[so+i*src.RS]
			if v-v != 0 {
				return &backend.LinalgFailure{Reason: backend.NonFinite, Item: item, Index: i, Col: j}
			}
			if dst.Data != nil {
				dst.Data[dst.Off+i*dst.RS+j*dst.CS] = v
			}
		}
	}
	return nil
}

// copyMat sets the m×n dst = src; with p not full, the elements outside
// part p of dst are set to zero and only part p of src is read. Columns of
// column-major operands are copied as contiguous runs.
func copyMat[T strided.Scalar](dst, src gemm.Mat[T], m, n int, p part) {
	if m == 0 {
		return // no rows: the columns of an empty buffer must not be sliced
	}
	for j := range n {
		i0, i1 := p.rows(j, m)
		do, so := dst.Off+j*dst.CS, src.Off+j*src.CS
		if dst.RS == 1 {
			d := dst.Data[do : do+m]
			clear(d[:i0])
			if i1 > i0 {
				if src.RS == 1 {
					copy(d[i0:i1], src.Data[so+i0:so+i1])
				} else {
					for i := i0; i < i1; i++ {
						d[i] = src.Data[so+i*src.RS]
					}
				}
			}
			clear(d[max(i1, i0):])
			continue
		}
		for i := range m {
			var v T
			if i >= i0 && i < i1 {
				v = src.Data[so+i*src.RS]
			}
			dst.Data[do+i*dst.RS] = v
		}
	}
}

// checkTriangle reports the first non-finite entry of the triangle of the
// n×n a that a triangular solve reads, or else its first zero diagonal
// entry (unless unit).
func checkTriangle[T strided.Scalar](a gemm.Mat[T], n int, p part, unit bool, item int) *backend.LinalgFailure {
	for j := range n {
		for i := range n {
			if i == j && unit || !p.has(i, j) {
				continue
			}
			if v := *at(a, i, j); !finite(v) {
				return &backend.LinalgFailure{Reason: backend.NonFinite, Item: item, Index: i, Col: j}
			}
		}
	}
	if !unit {
		for i := range n {
			if *at(a, i, i) == 0 {
				return &backend.LinalgFailure{Reason: backend.Singular, Item: item, Index: i}
			}
		}
	}
	return nil
}

func compact[T strided.Scalar](buf []T, off, ld int) gemm.Mat[T] {
	return gemm.Mat[T]{Data: buf, Off: off, RS: 1, CS: ld}
}

// Cholesky implements backend.Linalg: every item is factored into scratch,
// then the factors are copied out with the other triangle zeroed.
func (k *numeric[T]) Cholesky(dst, a *backend.View[T], up bool) error {
	s := &k.sc().lin
	n := a.Shape[0]
	items := prod(a.Shape[2:])
	buf, _ := s.factors(n*n*items, 0)
	b := &s.chol
	*b = cholBody[T]{dst: dst, a: a, n: n, p: lower, uplo: lapack.Lower, buf: buf}
	if up {
		b.p, b.uplo = upper, lapack.Upper
	}
	defer func() { *b = cholBody[T]{} }()
	if err := k.forEach(b, items, cube(n)); err != nil {
		return err
	}
	b.out = true
	return k.forEach(b, items, n*n)
}

// cholBody factors items into buf (phase one) or copies them out to dst
// (out).
type cholBody[T strided.Scalar] struct {
	dst, a *backend.View[T]
	n      int
	p      part
	uplo   lapack.Uplo
	buf    []T
	out    bool
}

func (b *cholBody[T]) run(ws *lapack.Workspace, r par.Runner, lo, hi int) *backend.LinalgFailure {
	var room [strided.MaxRank]int
	n := b.n
	bt := startBatch(b.a.Shape[2:], room[:], lo)
	for q := lo; q < hi; q++ {
		f := compact(b.buf, q*n*n, n)
		if b.out {
			copyMat(mat(b.dst, itemOff(b.dst, bt.idx)), f, n, n, b.p)
		} else {
			if fail := load(f, mat(b.a, itemOff(b.a, bt.idx)), n, n, b.p, q); fail != nil {
				return fail
			}
			if info := lapack.Potrf(ws, r, b.uplo, n, f); info != 0 {
				return &backend.LinalgFailure{Reason: backend.NotPositiveDefinite, Item: q, Index: info}
			}
		}
		bt.next()
	}
	return nil
}

// prod returns the product of shape's extents (the item count of a batch
// shape).
func prod(shape []int) int {
	n := 1
	for _, x := range shape {
		n *= x
	}
	return n
}

// LU implements backend.Linalg: a is checked, then every item copied into
// lu and factored there in place.
func (k *numeric[T]) LU(lu *backend.View[T], piv *backend.View[int64], a *backend.View[T]) error {
	s := &k.sc().lin
	m, n := a.Shape[0], a.Shape[1]
	mn := min(m, n)
	bt := newBatch(a.Shape[2:], s.idx[:])
	items := bt.count()
	for q := range items {
		if fail := load(gemm.Mat[T]{}, mat(a, itemOff(a, bt.idx)), m, n, full, q); fail != nil {
			return fail
		}
		bt.next()
	}
	_, ipiv := s.factors(0, mn*items)
	b := &s.lu
	*b = luBody[T]{lu: lu, piv: piv, a: a, ipiv: ipiv}
	defer func() { *b = luBody[T]{} }()
	return k.forEach(b, items, m*n*mn)
}

// luBody factors items of a into lu, their pivots into piv (through ipiv,
// min(m, n) per item).
type luBody[T strided.Scalar] struct {
	lu, a *backend.View[T]
	piv   *backend.View[int64]
	ipiv  []int
}

func (b *luBody[T]) run(ws *lapack.Workspace, r par.Runner, lo, hi int) *backend.LinalgFailure {
	var room [strided.MaxRank]int
	m, n := b.a.Shape[0], b.a.Shape[1]
	mn := min(m, n)
	bt := startBatch(b.a.Shape[2:], room[:], lo)
	for q := lo; q < hi; q++ {
		f := mat(b.lu, itemOff(b.lu, bt.idx))
		copyMat(f, mat(b.a, itemOff(b.a, bt.idx)), m, n, full)
		ip := b.ipiv[q*mn : (q+1)*mn]
		lapack.Getrf(ws, r, m, n, f, ip)
		po := batchOff(b.piv.Shape[1:], b.piv.Strides[1:], b.piv.Off, bt.idx)
		for i, x := range ip {
			b.piv.Data[po+i*b.piv.Strides[0]] = int64(x)
		}
		bt.next()
	}
	return nil
}

// LUUnpack implements backend.Linalg: the pivots are checked first, then
// each item's permutation is built in scratch and the three matrices are
// written.
func (k *numeric[T]) LUUnpack(p, l, u *backend.View[T], lu *backend.View[T], piv *backend.View[int64]) error {
	s := &k.sc().lin
	m, n := lu.Shape[0], lu.Shape[1]
	r := min(m, n)
	bt := newBatch(lu.Shape[2:], s.idx[:])
	items := bt.count()
	for q := range items {
		po := batchOff(piv.Shape[1:], piv.Strides[1:], piv.Off, bt.idx)
		for i := range r {
			if v := piv.Data[po+i*piv.Strides[0]]; v < int64(i) || v >= int64(m) {
				return tf.Errorf(tf.ErrArgument, "LUUnpack", "piv", "pivots with i <= piv[i] < m, as LU returns them", "piv[%d] = %d in batch item %d (m = %d)", i, v, q, m)
			}
		}
		bt.next()
	}
	_, perm := s.factors(0, m)
	for range items {
		f := mat(lu, itemOff(lu, bt.idx))
		lm, um, pm := mat(l, itemOff(l, bt.idx)), mat(u, itemOff(u, bt.idx)), mat(p, itemOff(p, bt.idx))
		for j := range r {
			for i := range m {
				var v T
				switch {
				case i == j:
					v = 1
				case i > j:
					v = *at(f, i, j)
				}
				*at(lm, i, j) = v
			}
		}
		copyMat(um, f, r, n, upper)
		// P·a = l·u with (P·a)[i] = a[perm[i]], so a = Pᵀ·l·u: p[perm[i], i] = 1.
		for i := range m {
			perm[i] = i
		}
		po := batchOff(piv.Shape[1:], piv.Strides[1:], piv.Off, bt.idx)
		for i := range r {
			j := int(piv.Data[po+i*piv.Strides[0]])
			perm[i], perm[j] = perm[j], perm[i]
		}
		for j := range m {
			for i := range m {
				*at(pm, i, j) = 0
			}
			*at(pm, perm[j], j) = 1
		}
		bt.next()
	}
	return nil
}
