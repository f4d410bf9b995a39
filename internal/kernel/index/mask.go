package index

import (
	"sync"

	"github.com/tenferro-go/tenferro/internal/kernel/strided"
	"github.com/tenferro-go/tenferro/internal/par"
)

// maxParts bounds the number of parts of a mask kernel (the per-part counts
// live in a fixed array).
const maxParts = 64

// maskTask is CountTrue (src unused) or MaskedSelect over a layout with
// operands mask (0) and src (1) that keeps the column-major order of the
// shape: size-1 dimensions dropped and contiguous runs fused, nothing
// reversed or sorted. Parts split the last dimension, so their shares
// follow each other in that order.
type maskTask[T strided.Elem] struct {
	l        strided.Layout
	mask     []bool
	dst, src []T
	count    bool
	n        [maxParts]int // per-part counts, or output offsets of the parts
}

func (t *maskTask[T]) RunPart(p, parts int) {
	l := t.l
	d := l.Rank - 1
	lo, hi := par.Split(l.Shape[d], p, parts)
	if lo == hi {
		if t.count {
			t.n[p] = 0
		}
		return
	}
	l.Restrict(d, lo, hi)
	if t.count {
		t.n[p] = countRun(&l, t.mask)
		return
	}
	selectRun(&l, t.dst[t.n[p]:], t.src, t.mask)
}

var maskPools [strided.NumKinds]sync.Pool

// maskLayout builds the order-keeping layout of a mask kernel. It reports
// false when shape is empty.
func maskLayout(l *strided.Layout, name string, shape []int, mask strided.Ref[bool], withSrc bool, srcOff int, src []int) bool {
	if !l.Init(shape) {
		panic("index." + name + ": more than strided.MaxRank extents differ from 1")
	}
	if l.Empty {
		return false
	}
	l.Add(mask.Off, mask.Strides)
	if withSrc {
		l.Add(srcOff, src)
	}
	l.Fuse()
	return true
}

// maskParts returns the number of parts for bytes of traffic.
func maskParts(r par.Runner, l *strided.Layout, bytes int) int {
	if l.Rank == 0 {
		return 1
	}
	return min(strided.Parts(r, bytes, ParallelBytes, l.Shape[l.Rank-1]), maxParts)
}

// getMaskTask returns a pooled task initialised to *t.
func getMaskTask[T strided.Elem](t *maskTask[T]) (*maskTask[T], *sync.Pool) {
	pool := &maskPools[strided.Kind[T]()]
	pt, _ := pool.Get().(*maskTask[T])
	if pt == nil {
		pt = new(maskTask[T])
	}
	*pt = *t
	return pt, pool
}

// CountTrue returns the number of true elements of mask over shape: the
// length of MaskedSelect's output. mask may broadcast by zero strides (a
// repeated element counts every time). r may be nil (serial).
func CountTrue(r par.Runner, shape []int, mask strided.Ref[bool]) int {
	var t maskTask[bool]
	if !maskLayout(&t.l, "CountTrue", shape, mask, false, 0, nil) {
		return 0
	}
	parts := maskParts(r, &t.l, t.l.Size())
	if parts <= 1 {
		return countRun(&t.l, mask.Data)
	}
	t.mask, t.count = mask.Data, true
	pt, pool := getMaskTask(&t)
	r.Run(pt, parts)
	n := 0
	for _, c := range pt.n[:parts] {
		n += c
	}
	pt.mask = nil
	pool.Put(pt)
	return n
}

// MaskedSelect copies the elements of src where mask is true into dst, in
// the column-major order of shape (the first index fastest: for a matrix,
// column by column), and returns their number:
//
//	dst[0:n] = [src[i] for every multi-index i of shape in column-major order if mask[i]]
//
// This is NumPy's and PyTorch's boolean-mask selection in the library's
// storage order; NumPy and PyTorch list the elements in row-major order
// instead, so for rank >= 2 the two orders differ. mask and src share shape
// and may broadcast by zero strides. len(dst) must be at least the count
// (CountTrue sizes it); MaskedSelect panics otherwise (in serial runs after
// filling dst). dst must not overlap src. r may be nil (serial); a parallel
// run reads the mask twice (counting, then copying).
func MaskedSelect[T strided.Elem](r par.Runner, shape []int, dst []T, src strided.Ref[T], mask strided.Ref[bool]) int {
	var t maskTask[T]
	if !maskLayout(&t.l, "MaskedSelect", shape, mask, true, src.Off, src.Strides) {
		return 0
	}
	parts := maskParts(r, &t.l, t.l.Size()*(1+2*strided.ElemSize[T]()))
	if parts <= 1 {
		return selectRun(&t.l, dst, src.Data, mask.Data)
	}
	t.mask, t.dst, t.src, t.count = mask.Data, dst, src.Data, true
	pt, pool := getMaskTask(&t)
	r.Run(pt, parts)
	n := 0
	for p, c := range pt.n[:parts] {
		pt.n[p] = n
		n += c
	}
	if n > len(dst) {
		pt.mask, pt.dst, pt.src = nil, nil, nil
		pool.Put(pt)
		panic("index.MaskedSelect: dst is shorter than the number of true mask elements")
	}
	pt.count = false
	r.Run(pt, parts)
	pt.mask, pt.dst, pt.src = nil, nil, nil
	pool.Put(pt)
	return n
}

// countRun counts the true elements of operand 0 over l.
func countRun(l *strided.Layout, m []bool) int {
	if l.Rank == 0 {
		return b2i(m[l.Off[0]])
	}
	n, ms := l.Shape[0], l.Strides[0][0]
	c := 0
	l.Outer(1, func() {
		o := l.Cur[0]
		if ms == 1 {
			for _, v := range m[o : o+n] {
				c += b2i(v)
			}
			return
		}
		for range n {
			c += b2i(m[o])
			o += ms
		}
	})
	return c
}

// selectRun appends to dst, from index 0, the elements of operand 1 where
// operand 0 is true over l, in l's order, and returns their number.
func selectRun[T strided.Elem](l *strided.Layout, dst, src []T, m []bool) int {
	if l.Rank == 0 {
		if !m[l.Off[0]] {
			return 0
		}
		dst[0] = src[l.Off[1]]
		return 1
	}
	n, ms, ss := l.Shape[0], l.Strides[0][0], l.Strides[1][0]
	k := 0
	l.Outer(1, func() {
		mo, so := l.Cur[0], l.Cur[1]
		for range n {
			if m[mo] {
				dst[k] = src[so]
				k++
			}
			mo += ms
			so += ss
		}
	})
	return k
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
