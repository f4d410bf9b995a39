package reduce

import (
	"sync"

	"github.com/tenferro-go/tenferro/internal/kernel/elementwise"
	"github.com/tenferro-go/tenferro/internal/kernel/permute"
	"github.com/tenferro-go/tenferro/internal/kernel/strided"
	"github.com/tenferro-go/tenferro/internal/op"
	"github.com/tenferro-go/tenferro/internal/par"
)

// ParallelBytes is the number of input bytes read above which the kernels
// fan out to the runner (see the package elementwise for the reasoning).
var ParallelBytes = 1 << 20

// chunk is the number of kept elements accumulated together when the
// input is fastest along a kept axis; flush is the number of reduced index
// points summed into a partial accumulator before it is flushed.
const (
	chunk = 4096
	flush = 64
)

// maxParts bounds the number of partial results of a full reduction.
const maxParts = 64

type task[T strided.Scalar] struct {
	kl, rl  strided.Layout // kept axes (ops dst, a, b); reduced axes (ops 0, a, b)
	d, a, b []T
	prod    bool
	full    bool // no kept axes: parts reduce shares of rl into part
	split   int
	part    [maxParts]T
}

func (t *task[T]) RunPart(p, parts int) {
	if t.full {
		rl := t.rl
		lo, hi := par.Split(rl.Shape[t.split], p, parts)
		t.part[p] = 0
		if lo == hi {
			return
		}
		rl.Restrict(t.split, lo, hi)
		t.part[p] = reduceAll(&rl, t.kl.Off[1], t.kl.Off[2], t.a, t.b, t.prod)
		return
	}
	kl := t.kl
	lo, hi := par.Split(kl.Shape[t.split], p, parts)
	if lo == hi {
		return
	}
	kl.Restrict(t.split, lo, hi)
	rl := t.rl
	runKept(&kl, &rl, t.d, t.a, t.b, t.prod)
}

var pools [4]sync.Pool

// Sum sets dst[i] = sum over the reduced axes of src (see the package
// comment). r may be nil (serial).
func Sum[T strided.Scalar](r par.Runner, shape []int, dst, src strided.Ref[T]) {
	run(r, "Sum", shape, dst, src, src, false)
}

// SumProduct sets dst[i] = sum over the reduced axes of a*b (see the package
// comment). r may be nil (serial).
func SumProduct[T strided.Scalar](r par.Runner, shape []int, dst, a, b strided.Ref[T]) {
	run(r, "SumProduct", shape, dst, a, b, true)
}

func run[T strided.Scalar](r par.Runner, name string, shape []int, dst, a, b strided.Ref[T], prod bool) {
	var l strided.Layout
	if !l.Init(shape) {
		panic("reduce." + name + ": more than strided.MaxRank extents differ from 1")
	}
	if l.Empty {
		zeroEmpty(r, shape, dst)
		return
	}
	l.Add(dst.Off, dst.Strides)
	l.Add(a.Off, a.Strides)
	l.Add(b.Off, b.Strides)
	reduced := false
	for d := 0; d < l.Rank; d++ {
		reduced = reduced || l.Strides[0][d] == 0
	}
	if !reduced {
		if prod {
			elementwise.Binary(r, op.Mul, shape, dst, a, b)
		} else {
			permute.Copy(r, shape, dst, a)
		}
		return
	}
	pool := &pools[strided.Kind[T]()]
	t, _ := pool.Get().(*task[T])
	if t == nil {
		t = new(task[T])
	}
	t.d, t.a, t.b, t.prod = dst.Data, a.Data, b.Data, prod
	l.FlipNegative(0)
	split(&l, &t.kl, &t.rl)
	t.kl.SortBy(0)
	t.kl.Fuse()
	t.rl.SortBy(1)
	t.rl.Fuse()
	nops := 1
	if prod {
		nops = 2
	}
	bytes := nops * l.Size() * strided.ElemSize[T]()
	t.full = t.kl.Rank == 0
	var parts int
	if t.full {
		t.split = t.rl.SplitDim(1)
		if t.split < 0 {
			t.split = 0
		}
		parts = min(maxParts, strided.Parts(r, bytes, ParallelBytes, t.rl.Shape[t.split]))
	} else {
		t.split = t.kl.SplitDim(0)
		parts = strided.Parts(r, bytes, ParallelBytes, t.kl.Shape[t.split])
	}
	switch {
	case parts > 1 && t.full:
		r.Run(t, parts)
		var s T
		for p := 0; p < parts; p++ {
			s += t.part[p]
		}
		t.d[t.kl.Off[0]] = s
	case parts > 1:
		r.Run(t, parts)
	case t.full:
		t.d[t.kl.Off[0]] = reduceAll(&t.rl, t.kl.Off[1], t.kl.Off[2], t.a, t.b, prod)
	default:
		runKept(&t.kl, &t.rl, t.d, t.a, t.b, prod)
	}
	t.d, t.a, t.b = nil, nil, nil
	pool.Put(t)
}

// split divides l's dimensions into kept (dst stride non-zero; all three
// operands, offsets from l) and reduced (dst stride zero; operand 0 unused,
// offsets 0).
func split(l, kl, rl *strided.Layout) {
	kl.Rank, kl.NOps, kl.Empty = 0, 3, false
	rl.Rank, rl.NOps, rl.Empty = 0, 3, false
	kl.Off = l.Off
	rl.Off = [strided.MaxOps]int{}
	for d := 0; d < l.Rank; d++ {
		x := kl
		if l.Strides[0][d] == 0 {
			x = rl
		}
		k := x.Rank
		x.Shape[k] = l.Shape[d]
		for o := 0; o < 3; o++ {
			x.Strides[o][k] = l.Strides[o][d]
		}
		x.Rank++
	}
}

// zeroEmpty writes zeros into dst for an empty iteration space whose kept
// axes are all non-empty (the reduction of nothing).
func zeroEmpty[T strided.Scalar](r par.Runner, shape []int, dst strided.Ref[T]) {
	var buf [2 * strided.MaxRank]int
	s := buf[:0]
	if len(shape) > len(buf) {
		s = make([]int, 0, len(shape))
	}
	for d, e := range shape {
		if dst.Strides[d] == 0 {
			e = 1 // a reduced axis
		}
		if e == 0 {
			return
		}
		s = append(s, e)
	}
	elementwise.Fill(r, s, dst, 0)
}

// reduceAll returns the sum over every index point of rl of a (times b when
// prod), with rl's operand 1 and 2 offsets shifted by ao and bo.
func reduceAll[T strided.Scalar](rl *strided.Layout, ao, bo int, a, b []T, prod bool) T {
	n := rl.Shape[0]
	as, bs := rl.Strides[1][0], rl.Strides[2][0]
	if rl.Rank == 1 {
		if prod {
			return dotRow(n, a, rl.Off[1]+ao, as, b, rl.Off[2]+bo, bs)
		}
		return sumRow(n, a, rl.Off[1]+ao, as)
	}
	var total, partial T
	cnt := 0
	rows := max(1, 4*pairBase/n)
	rl.Outer(1, func() {
		if prod {
			partial += dotRow(n, a, rl.Cur[1]+ao, as, b, rl.Cur[2]+bo, bs)
		} else {
			partial += sumRow(n, a, rl.Cur[1]+ao, as)
		}
		if cnt++; cnt == rows {
			total += partial
			partial, cnt = 0, 0
		}
	})
	return total + partial
}

// runKept computes every kept point of kl.
func runKept[T strided.Scalar](kl, rl *strided.Layout, d, a, b []T, prod bool) {
	// Vector accumulation when the input is faster along the first kept
	// axis than along the first reduced one.
	if abs(kl.Strides[1][0]) < abs(rl.Strides[1][0]) && kl.Shape[0] >= 4 {
		n0 := kl.Shape[0]
		ds, as, bs := kl.Strides[0][0], kl.Strides[1][0], kl.Strides[2][0]
		var accBuf, partBuf [chunk]T
		kl.Outer(1, func() {
			for lo := 0; lo < n0; lo += chunk {
				m := min(chunk, n0-lo)
				acc, part := accBuf[:m], partBuf[:m]
				clear(acc)
				clear(part)
				ao, bo := kl.Cur[1]+lo*as, kl.Cur[2]+lo*bs
				cnt := 0
				rl.Outer(0, func() {
					accRow(part, a, ao+rl.Cur[1], as, b, bo+rl.Cur[2], bs, prod)
					if cnt++; cnt == flush {
						for i := range acc {
							acc[i] += part[i]
						}
						clear(part)
						cnt = 0
					}
				})
				o := kl.Cur[0] + lo*ds
				for i := range acc {
					d[o] = acc[i] + part[i]
					o += ds
				}
			}
		})
		return
	}
	if kl.Rank == 0 {
		d[kl.Off[0]] = reduceAll(rl, kl.Off[1], kl.Off[2], a, b, prod)
		return
	}
	kl.Outer(0, func() {
		d[kl.Cur[0]] = reduceAll(rl, kl.Cur[1], kl.Cur[2], a, b, prod)
	})
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
