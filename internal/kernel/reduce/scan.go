package reduce

import (
	"sync"

	"github.com/tenferro-go/tenferro/internal/kernel/strided"
	"github.com/tenferro-go/tenferro/internal/par"
)

var scanPools [4]sync.Pool

// scanTask is the pooled state of one Scan call: kl holds the axes other
// than the scanned one (ops dst, src); the scanned axis has extent n and
// strides ds, ss.
type scanTask[T strided.Scalar] struct {
	kl        strided.Layout
	d, s      []T
	n, ds, ss int
	prod      bool
	split     int
}

func (t *scanTask[T]) RunPart(p, parts int) {
	kl := t.kl
	lo, hi := par.Split(kl.Shape[t.split], p, parts)
	if lo == hi {
		return
	}
	kl.Restrict(t.split, lo, hi)
	scanKept(&kl, t.d, t.s, t.n, t.ds, t.ss, t.prod)
}

// Scan sets dst to the inclusive cumulative sum (the cumulative product when
// prod) of src along axis:
//
//	dst[..., k, ...] = sum_{j <= k} src[..., j, ...]
//
// dst has src's shape; both views may have any strides (dst none that
// repeat elements). dst may be src itself (the same Data, offset and
// strides) for an in-place scan; otherwise the two must not overlap.
//
// Each fibre is accumulated sequentially in T, in index order, so the k-th
// cumulative sum has an error of at most about k*eps*sum_{j<=k}|src_j| (and
// the k-th product a relative error of about k*eps); the fibres are spread
// over r above ParallelBytes. r may be nil (serial).
func Scan[T strided.Scalar](r par.Runner, prod bool, shape []int, axis int, dst, src strided.Ref[T]) {
	if axis < 0 || axis >= len(shape) {
		panic("reduce.Scan: axis out of range")
	}
	// The kept space is shape with the scanned axis of extent 1.
	var buf [2 * strided.MaxRank]int
	ks := buf[:0]
	if len(shape) > len(buf) {
		ks = make([]int, 0, len(shape))
	}
	for d, e := range shape {
		if d == axis {
			e = 1
		}
		ks = append(ks, e)
	}
	n := shape[axis]
	pool := &scanPools[strided.Kind[T]()]
	t, _ := pool.Get().(*scanTask[T])
	if t == nil {
		t = new(scanTask[T])
	}
	kl := &t.kl
	if !kl.Init(ks) {
		panic("reduce.Scan: more than strided.MaxRank extents differ from 1")
	}
	if kl.Empty || n == 0 {
		pool.Put(t)
		return
	}
	kl.Add(dst.Off, dst.Strides)
	kl.Add(src.Off, src.Strides)
	kl.Normalize()
	t.d, t.s, t.n, t.ds, t.ss, t.prod = dst.Data, src.Data, n, dst.Strides[axis], src.Strides[axis], prod
	parts := 1
	if kl.Rank > 0 {
		t.split = kl.SplitDim(0)
		bytes := 2 * n * kl.Size() * strided.ElemSize[T]()
		parts = strided.Parts(r, bytes, ParallelBytes, kl.Shape[t.split])
	}
	if parts > 1 {
		r.Run(t, parts)
	} else {
		scanKept(kl, t.d, t.s, n, t.ds, t.ss, prod)
	}
	t.d, t.s = nil, nil
	pool.Put(t)
}

// scanKept scans every fibre of kl: fibre by fibre, or chunk by chunk of
// the first kept axis when the views are faster along it than along the
// scanned axis.
func scanKept[T strided.Scalar](kl *strided.Layout, d, s []T, n, ds, ss int, prod bool) {
	if kl.Rank == 0 || kl.Shape[0] < 4 || abs(kl.Strides[1][0]) >= abs(ss) {
		kl.Outer(0, func() { scanRow(n, d, kl.Cur[0], ds, s, kl.Cur[1], ss, prod) })
		return
	}
	n0 := kl.Shape[0]
	d0, s0 := kl.Strides[0][0], kl.Strides[1][0]
	var accBuf [chunk]T
	kl.Outer(1, func() {
		for lo := 0; lo < n0; lo += chunk {
			acc := accBuf[:min(chunk, n0-lo)]
			do, so := kl.Cur[0]+lo*d0, kl.Cur[1]+lo*s0
			o, p := do, so
			for i := range acc {
				acc[i] = s[p]
				d[o] = acc[i]
				o += d0
				p += s0
			}
			for k := 1; k < n; k++ {
				do += ds
				so += ss
				o, p := do, so
				if prod {
					for i := range acc {
						acc[i] *= s[p]
						d[o] = acc[i]
						o += d0
						p += s0
					}
					continue
				}
				for i := range acc {
					acc[i] += s[p]
					d[o] = acc[i]
					o += d0
					p += s0
				}
			}
		}
	})
}

// scanRow scans one fibre of n elements.
func scanRow[T strided.Scalar](n int, d []T, do, ds int, s []T, so, ss int, prod bool) {
	acc := s[so]
	d[do] = acc
	if prod {
		for k := 1; k < n; k++ {
			do += ds
			so += ss
			acc *= s[so]
			d[do] = acc
		}
		return
	}
	for k := 1; k < n; k++ {
		do += ds
		so += ss
		acc += s[so]
		d[do] = acc
	}
}
