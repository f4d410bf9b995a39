package reduce

import (
	"sync"

	"github.com/tenferro-go/tenferro/internal/kernel/strided"
	"github.com/tenferro-go/tenferro/internal/par"
)

// folder is one reduction as the driver [fold] sees it. For every kept index
// point the driver folds the elements of the input a over the reduced index
// points into a state S and stores that state as one destination element of
// type D. c is the value at the kept point of the center operand b, which has
// dst's layout (stride 0 along the reduced axes); a kernel without a center
// passes a for b and ignores c.
//
// States are merged in index order: merge(x, y) folds the later state y
// into the earlier x, so that order-sensitive folds (Arg) keep the first
// winner across blocks and parallel parts.
type folder[D, T strided.Elem, S any] interface {
	// identity returns the state of the empty set.
	identity() S
	// row folds a[ao+i*as] for i < n. base is the index of a[ao] along the
	// reduced dimension when the reduced layout has rank 1, else 0.
	row(n int, a []T, ao, as int, c T, base int) S
	// vec folds reduced index point number k into the states of len(acc)
	// consecutive kept points: acc[i] takes a[ao+i*as] with center
	// b[bo+i*bs].
	vec(acc []S, a []T, ao, as int, b []T, bo, bs int, k int)
	// merge returns the state of x's elements followed by y's.
	merge(x, y S) S
	// store returns the destination value of state s for center c.
	store(s S, c T) D
	// emptyOK reports whether the fold of the empty set is defined (the
	// maximum of nothing is not; the driver panics).
	emptyOK() bool
	// weight is the cost of one element relative to an addition; it scales
	// the bytes compared with ParallelBytes.
	weight() int
}

// foldTask is the pooled state of one fold call.
type foldTask[D, T strided.Elem, S any, F folder[D, T, S]] struct {
	f      F
	kl, rl strided.Layout // kept axes (ops dst, a, b); reduced axes (ops 0, a, b)
	d      []D
	a, b   []T
	full   bool // no kept axes: parts fold shares of rl into part
	split  int
	part   [maxParts]S
	// bufs[p] is part p's scratch for vector accumulation (2*chunk
	// states), made on first use and kept with the pooled task: the
	// states go to the folder through an indirect call, so they cannot
	// live on the stack.
	bufs [maxParts][]S
}

// buf returns part p's scratch.
func (t *foldTask[D, T, S, F]) buf(p int) []S {
	if t.bufs[p] == nil {
		t.bufs[p] = make([]S, 2*chunk)
	}
	return t.bufs[p]
}

func (t *foldTask[D, T, S, F]) RunPart(p, parts int) {
	if t.full {
		rl := t.rl
		lo, hi := par.Split(rl.Shape[t.split], p, parts)
		t.part[p] = t.f.identity()
		if lo == hi {
			return
		}
		base := 0
		if rl.Rank == 1 {
			base = lo
		}
		rl.Restrict(t.split, lo, hi)
		t.part[p] = foldAll(t.f, &rl, t.kl.Off[1], t.b[t.kl.Off[2]], t.a, base)
		return
	}
	kl := t.kl
	lo, hi := par.Split(kl.Shape[t.split], p, parts)
	if lo == hi {
		return
	}
	kl.Restrict(t.split, lo, hi)
	rl := t.rl
	foldKept(t.f, &kl, &rl, t.d, t.a, t.b, t.buf(p))
}

// fold runs f over shape: dst (stride 0 along the reduced axes) gets the
// fold of a over the reduced axes; b is the center operand (see folder).
// pool holds the tasks of this instantiation; name prefixes panics.
func fold[D, T strided.Elem, S any, F folder[D, T, S]](r par.Runner, pool *sync.Pool, name string, f F, shape []int, dst strided.Ref[D], a, b strided.Ref[T]) {
	var l strided.Layout
	if !l.Init(shape) {
		panic("reduce." + name + ": more than strided.MaxRank extents differ from 1")
	}
	l.Add(dst.Off, dst.Strides)
	l.Add(a.Off, a.Strides)
	l.Add(b.Off, b.Strides)
	if l.Empty {
		if keptOnly(&l) {
			if !f.emptyOK() {
				panic("reduce." + name + ": reduction of an empty set")
			}
			var zero T
			fillKept(&l, dst.Data, f.store(f.identity(), zero))
		}
		return
	}
	l.FlipNegative(0)
	t, _ := pool.Get().(*foldTask[D, T, S, F])
	if t == nil {
		t = new(foldTask[D, T, S, F])
	}
	t.f, t.d, t.a, t.b = f, dst.Data, a.Data, b.Data
	split(&l, &t.kl, &t.rl)
	if t.rl.Rank == 0 {
		// Nothing reduced: every kept point folds its single element.
		t.rl.Rank, t.rl.Shape[0] = 1, 1
		for o := range 3 {
			t.rl.Strides[o][0] = 0
		}
	}
	t.kl.SortBy(0)
	t.kl.Fuse()
	t.rl.SortBy(1)
	t.rl.Fuse()
	bytes := l.Size() * strided.ElemSize[T]() * f.weight()
	t.full = t.kl.Rank == 0
	var parts int
	if t.full {
		t.split = max(0, t.rl.SplitDim(1))
		parts = min(maxParts, strided.Parts(r, bytes, ParallelBytes, t.rl.Shape[t.split]))
	} else {
		t.split = t.kl.SplitDim(0)
		parts = strided.Parts(r, bytes, ParallelBytes, t.kl.Shape[t.split])
	}
	switch {
	case parts > 1 && t.full:
		r.Run(t, parts)
		s := t.part[0]
		for p := 1; p < parts; p++ {
			s = f.merge(s, t.part[p])
		}
		t.d[t.kl.Off[0]] = f.store(s, t.b[t.kl.Off[2]])
	case parts > 1:
		r.Run(t, parts)
	case t.full:
		c := t.b[t.kl.Off[2]]
		t.d[t.kl.Off[0]] = f.store(foldAll(f, &t.rl, t.kl.Off[1], c, t.a, 0), c)
	default:
		foldKept(f, &t.kl, &t.rl, t.d, t.a, t.b, t.buf(0))
	}
	var zf F
	t.f, t.d, t.a, t.b = zf, nil, nil, nil
	pool.Put(t)
}

// foldAll returns the fold over every index point of rl of a, with rl's
// operand 1 offsets shifted by ao; rows along rl's first dimension are
// merged into a partial state that is flushed into the total every few rows
// (the blocked scheme of reduceAll).
func foldAll[D, T strided.Elem, S any, F folder[D, T, S]](f F, rl *strided.Layout, ao int, c T, a []T, base int) S {
	n, as := rl.Shape[0], rl.Strides[1][0]
	if rl.Rank == 1 {
		return f.row(n, a, rl.Off[1]+ao, as, c, base)
	}
	total, partial := f.identity(), f.identity()
	cnt := 0
	rows := max(1, 4*pairBase/n)
	rl.Outer(1, func() {
		partial = f.merge(partial, f.row(n, a, rl.Cur[1]+ao, as, c, 0))
		if cnt++; cnt == rows {
			total = f.merge(total, partial)
			partial, cnt = f.identity(), 0
		}
	})
	return f.merge(total, partial)
}

// foldKept computes every kept point of kl (rank at least 1); buf holds
// 2*chunk states of scratch.
func foldKept[D, T strided.Elem, S any, F folder[D, T, S]](f F, kl, rl *strided.Layout, d []D, a, b []T, buf []S) {
	// Vector accumulation when the input is faster along the first kept
	// axis than along the first reduced one (or nothing is reduced).
	if kl.Shape[0] >= 4 && (rl.Shape[0] == 1 || abs(kl.Strides[1][0]) < abs(rl.Strides[1][0])) {
		n0 := kl.Shape[0]
		ds, as, bs := kl.Strides[0][0], kl.Strides[1][0], kl.Strides[2][0]
		id := f.identity()
		accBuf, partBuf := buf[:chunk], buf[chunk:2*chunk]
		kl.Outer(1, func() {
			for lo := 0; lo < n0; lo += chunk {
				m := min(chunk, n0-lo)
				acc, part := accBuf[:m], partBuf[:m]
				for i := range acc {
					acc[i], part[i] = id, id
				}
				ao, bo := kl.Cur[1]+lo*as, kl.Cur[2]+lo*bs
				cnt, k := 0, 0
				rl.Outer(0, func() {
					f.vec(part, a, ao+rl.Cur[1], as, b, bo+rl.Cur[2], bs, k)
					k++
					if cnt++; cnt == flush {
						for i := range acc {
							acc[i], part[i] = f.merge(acc[i], part[i]), id
						}
						cnt = 0
					}
				})
				o := kl.Cur[0] + lo*ds
				for i := range acc {
					d[o] = f.store(f.merge(acc[i], part[i]), b[bo])
					o += ds
					bo += bs
				}
			}
		})
		return
	}
	kl.Outer(0, func() {
		c := b[kl.Cur[2]]
		d[kl.Cur[0]] = f.store(foldAll(f, rl, kl.Cur[1], c, a, 0), c)
	})
}

// keptOnly turns l (an empty iteration space with the destination as
// operand 0) into the space of its kept index points: every dimension along
// which the destination has stride 0 gets extent 1. It reports false when a
// kept extent is 0, so that there is nothing to write.
func keptOnly(l *strided.Layout) bool {
	for d := 0; d < l.Rank; d++ {
		if l.Strides[0][d] == 0 {
			l.Shape[d] = 1
		} else if l.Shape[d] == 0 {
			return false
		}
	}
	l.Empty = false
	return true
}

// fillKept writes v at every index point of l into operand 0 (serially:
// it serves empty reductions, whose cost is the output alone).
func fillKept[D strided.Elem](l *strided.Layout, d []D, v D) {
	l.Outer(0, func() { d[l.Cur[0]] = v })
}

// pairwise returns the merge of the states that leaf returns for
// consecutive blocks of at most pairBase of the n elements from offset ao
// (stride as), combined in halves as in sumRow, so that the rounding error
// of a sum grows like log2(n/pairBase) rather than n.
func pairwise[S any](n, ao, as int, leaf func(n, ao int) S, merge func(x, y S) S) S {
	if n <= pairBase {
		return leaf(n, ao)
	}
	h := n / 2
	return merge(pairwise(h, ao, as, leaf, merge), pairwise(n-h, ao+h*as, as, leaf, merge))
}
