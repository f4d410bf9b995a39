package index

import (
	"sync"

	"github.com/tenferro-go/tenferro/internal/kernel/strided"
	"github.com/tenferro-go/tenferro/internal/par"
)

// Take sets, along axis,
//
//	dst[i_0, ..., i_axis, ..., i_{k-1}] = src[i_0, ..., idx[i_axis], ..., i_{k-1}]
//
// for every multi-index of shape, the shape of dst (NumPy's take with an
// axis, PyTorch's index_select). src has dst's shape except along axis,
// where its extent is srcExtent; shape[axis] == len(idx). Every index must
// lie in [0, srcExtent) (callers normalise negative ones); Take panics
// otherwise, before writing anything. Repeated indices copy the same source
// slice several times. See the package comment for the other
// preconditions; r may be nil (serial).
func Take[T strided.Elem](r par.Runner, shape []int, axis int, dst, src strided.Ref[T], idx []int64, srcExtent int) {
	if len(idx) != shape[axis] {
		panic("index.Take: len(idx) differs from the extent of dst along axis")
	}
	for _, k := range idx {
		if uint64(k) >= uint64(srcExtent) {
			badIndex("Take", k, srcExtent)
		}
	}
	if empty(shape) {
		return
	}
	var t gridTask[T]
	g := &t.g
	for d, e := range shape {
		switch {
		case d == axis && e == 1:
			g.sOff += int(idx[0]) * src.Strides[d]
		case d == axis:
			g.add("Take", e, dst.Strides[d], src.Strides[d], kTake, 0, 0)
		case e != 1:
			g.add("Take", e, dst.Strides[d], src.Strides[d], kIdent, 0, 0)
		}
	}
	g.dOff += dst.Off
	g.sOff += src.Off
	g.normalize()
	t.op, t.dst, t.src, t.idx = opTake, dst.Data, src.Data, idx
	runGrid(r, &t)
}

// takeRow sets dst[do+j*D] = src[so+idx[j]*S] for j in [j0, j1).
func takeRow[T strided.Elem](dst []T, do, D int, src []T, so, S int, idx []int64, j0, j1 int) {
	ids := idx[j0:j1]
	if D == 1 {
		d := dst[do+j0 : do+j1]
		for i, k := range ids[:len(d)] {
			d[i] = src[so+int(k)*S]
		}
		return
	}
	do += j0 * D
	for _, k := range ids {
		dst[do] = src[so+int(k)*S]
		do += D
	}
}

// axisTask is Gather or ScatterAdd (operands dst, index, src) over a
// layout in which the indexed operand has stride 0 along axis; its stride
// along axis is sa, its extent there ext.
type axisTask[T strided.Elem] struct {
	l        strided.Layout
	dst, src []T
	index    []int64
	sa, ext  int
	split    int
}

// share returns the layout of part p of parts, or false when it is empty.
func (t *axisTask[T]) share(p, parts int) (strided.Layout, bool) {
	l := t.l
	lo, hi := par.Split(l.Shape[t.split], p, parts)
	l.Restrict(t.split, lo, hi)
	return l, lo < hi
}

// plan returns the dimension to split (one along which dst moves) and the
// number of parts on r.
func (t *axisTask[T]) plan(r par.Runner) (split, parts int) {
	split = t.l.SplitDim(0)
	if split < 0 {
		return 0, 1
	}
	return split, strided.Parts(r, t.l.Size()*(3*strided.ElemSize[T]()+8), ParallelBytes, t.l.Shape[split])
}

type gatherTask[T strided.Elem] struct{ axisTask[T] }

func (t *gatherTask[T]) RunPart(p, parts int) {
	if l, ok := t.share(p, parts); ok {
		gatherRun(&l, t.dst, t.src, t.index, t.sa, t.ext)
	}
}

type scatterTask[T Number] struct{ axisTask[T] }

func (t *scatterTask[T]) RunPart(p, parts int) {
	if l, ok := t.share(p, parts); ok {
		scatterRun(&l, t.dst, t.src, t.index, t.sa, t.ext)
	}
}

var gatherPools, scatterPools [strided.NumKinds]sync.Pool

// axisLayout builds the layout of Gather or ScatterAdd with operands dst,
// index, src over shape, with operand op's stride along axis set to 0. It
// reports false when shape is empty.
func axisLayout[T strided.Elem](l *strided.Layout, name string, shape []int, axis, op int, dst strided.Ref[T], index strided.Ref[int64], src strided.Ref[T]) bool {
	if !l.Init(shape) {
		panic("index." + name + ": more than strided.MaxRank extents differ from 1")
	}
	if l.Empty {
		return false
	}
	l.Add(dst.Off, dst.Strides)
	l.Add(index.Off, index.Strides)
	l.Add(src.Off, src.Strides)
	if shape[axis] != 1 {
		pos := 0
		for _, e := range shape[:axis] {
			if e != 1 {
				pos++
			}
		}
		l.Strides[op][pos] = 0
	}
	return true
}

// Gather sets, along axis,
//
//	dst[i_0, ..., i_axis, ..., i_{k-1}] = src[i_0, ..., index[i_0, ..., i_{k-1}], ..., i_{k-1}]
//
// for every multi-index of shape, the shape of dst and index (PyTorch's
// gather; NumPy's take_along_axis). src is read over shape except along
// axis, where its extent is srcExtent (PyTorch lets src be larger than index
// along the other axes: pass the leading sub-view). Every index must lie in
// [0, srcExtent); Gather panics at the first one outside it (elements
// before it in its walk may have been written). index and src may broadcast
// by zero strides. See the package comment for the other preconditions; r
// may be nil (serial).
func Gather[T strided.Elem](r par.Runner, shape []int, axis int, dst, src strided.Ref[T], index strided.Ref[int64], srcExtent int) {
	var t axisTask[T]
	if !axisLayout(&t.l, "Gather", shape, axis, 2, dst, index, src) {
		return
	}
	t.l.Normalize()
	t.dst, t.src, t.index, t.sa, t.ext = dst.Data, src.Data, index.Data, src.Strides[axis], srcExtent
	split, parts := t.plan(r)
	if parts <= 1 {
		gatherRun(&t.l, t.dst, t.src, t.index, t.sa, t.ext)
		return
	}
	pool := &gatherPools[strided.Kind[T]()]
	pt, _ := pool.Get().(*gatherTask[T])
	if pt == nil {
		pt = new(gatherTask[T])
	}
	pt.axisTask = t
	pt.split = split
	r.Run(pt, parts)
	pt.dst, pt.src, pt.index = nil, nil, nil
	pool.Put(pt)
}

func gatherRun[T strided.Elem](l *strided.Layout, dst, src []T, index []int64, sa, ext int) {
	if l.Rank == 0 {
		k := index[l.Off[1]]
		if uint64(k) >= uint64(ext) {
			badIndex("Gather", k, ext)
		}
		dst[l.Off[0]] = src[l.Off[2]+int(k)*sa]
		return
	}
	n, ds, is, ss := l.Shape[0], l.Strides[0][0], l.Strides[1][0], l.Strides[2][0]
	l.Outer(1, func() {
		do, io, so := l.Cur[0], l.Cur[1], l.Cur[2]
		for range n {
			k := index[io]
			if uint64(k) >= uint64(ext) {
				badIndex("Gather", k, ext)
			}
			dst[do] = src[so+int(k)*sa]
			do, io, so = do+ds, io+is, so+ss
		}
	})
}

// ScatterAdd adds, along axis,
//
//	dst[i_0, ..., index[i_0, ..., i_{k-1}], ..., i_{k-1}] += src[i_0, ..., i_{k-1}]
//
// for every multi-index of shape, the shape of index and src (PyTorch's
// scatter_add_; NumPy's add.at along an axis). dst is addressed over shape
// except along axis, where its extent is dstExtent. Repeated indices
// accumulate: the contributions to one dst element are added one by one in
// increasing order of their coordinate along axis, serially and in parallel
// alike (workers split the other axes, so no two write the same element).
// Every index must lie in [0, dstExtent); ScatterAdd panics at the first one
// outside it (contributions before it in its walk have been added). index
// and src may broadcast by zero strides. See the package comment for the
// other preconditions; r may be nil (serial).
func ScatterAdd[T Number](r par.Runner, shape []int, axis int, dst strided.Ref[T], index strided.Ref[int64], src strided.Ref[T], dstExtent int) {
	var t axisTask[T]
	if !axisLayout(&t.l, "ScatterAdd", shape, axis, 0, dst, index, src) {
		return
	}
	// dst has stride 0 along axis: flipping never reverses the axis, so
	// each element's contributions arrive in increasing axis order; the
	// inner loop follows index.
	t.l.FlipNegative(0)
	t.l.SortBy(1)
	t.l.Fuse()
	t.dst, t.src, t.index, t.sa, t.ext = dst.Data, src.Data, index.Data, dst.Strides[axis], dstExtent
	split, parts := t.plan(r)
	if parts <= 1 {
		scatterRun(&t.l, t.dst, t.src, t.index, t.sa, t.ext)
		return
	}
	pool := &scatterPools[strided.Kind[T]()]
	pt, _ := pool.Get().(*scatterTask[T])
	if pt == nil {
		pt = new(scatterTask[T])
	}
	pt.axisTask = t
	pt.split = split
	r.Run(pt, parts)
	pt.dst, pt.src, pt.index = nil, nil, nil
	pool.Put(pt)
}

func scatterRun[T Number](l *strided.Layout, dst, src []T, index []int64, sa, ext int) {
	if l.Rank == 0 {
		k := index[l.Off[1]]
		if uint64(k) >= uint64(ext) {
			badIndex("ScatterAdd", k, ext)
		}
		dst[l.Off[0]+int(k)*sa] += src[l.Off[2]]
		return
	}
	n, ds, is, ss := l.Shape[0], l.Strides[0][0], l.Strides[1][0], l.Strides[2][0]
	l.Outer(1, func() {
		do, io, so := l.Cur[0], l.Cur[1], l.Cur[2]
		for range n {
			k := index[io]
			if uint64(k) >= uint64(ext) {
				badIndex("ScatterAdd", k, ext)
			}
			dst[do+int(k)*sa] += src[so]
			do, io, so = do+ds, io+is, so+ss
		}
	})
}
