package strided

import "github.com/tenferro-go/tenferro/internal/par"

// Layout is a normalised iteration space shared by up to MaxOps operands:
// Rank dimensions of extents Shape[:Rank] (each at least 2 after Init), and
// for operand o the offset Off[o] and strides Strides[o][:Rank]. Operand 0 is
// by convention the destination.
//
// A Layout lives in fixed-size arrays; building and walking one allocates
// nothing.
type Layout struct {
	Rank  int
	NOps  int
	Empty bool // some extent is 0: there is nothing to do
	Shape [MaxRank]int
	Off   [MaxOps]int
	// Strides[o][d] is the stride of operand o along dimension d.
	Strides [MaxOps][MaxRank]int
	// Cur holds the operand offsets of the current index point while Outer
	// runs.
	Cur  [MaxOps]int
	keep [MaxRank]int32 // original axis of each kept dimension
}

// Init resets l to the shape with size-1 dimensions dropped and no operands.
// It reports false when more than MaxRank dimensions remain. A shape with an
// extent 0 sets Empty.
func (l *Layout) Init(shape []int) bool {
	l.Rank, l.NOps, l.Empty = 0, 0, false
	for d, e := range shape {
		if e == 0 {
			l.Empty = true
		}
		if e == 1 {
			continue
		}
		if l.Rank == MaxRank {
			return false
		}
		l.Shape[l.Rank] = e
		l.keep[l.Rank] = int32(d)
		l.Rank++
	}
	return true
}

// Add appends an operand with offset off and strides over the shape given to
// Init (len(strides) == len(shape)), and returns its operand index.
func (l *Layout) Add(off int, strides []int) int {
	o := l.NOps
	l.Off[o] = off
	for d := 0; d < l.Rank; d++ {
		l.Strides[o][d] = strides[l.keep[d]]
	}
	l.NOps++
	return o
}

// Size returns the number of index points (product of the extents).
func (l *Layout) Size() int {
	if l.Empty {
		return 0
	}
	n := 1
	for d := 0; d < l.Rank; d++ {
		n *= l.Shape[d]
	}
	return n
}

// FlipNegative reverses every dimension along which operand op has a
// negative stride, in all operands at once, so that op's strides become
// non-negative. It changes the order in which index points are visited, not
// the pairing of elements between operands.
func (l *Layout) FlipNegative(op int) {
	for d := 0; d < l.Rank; d++ {
		if l.Strides[op][d] >= 0 {
			continue
		}
		m := l.Shape[d] - 1
		for o := 0; o < l.NOps; o++ {
			l.Off[o] += m * l.Strides[o][d]
			l.Strides[o][d] = -l.Strides[o][d]
		}
	}
}

// less orders dimensions by |stride| of op, then by the other operands in
// order.
func (l *Layout) less(op, a, b int) bool {
	x, y := abs(l.Strides[op][a]), abs(l.Strides[op][b])
	if x != y {
		return x < y
	}
	for o := 0; o < l.NOps; o++ {
		x, y = abs(l.Strides[o][a]), abs(l.Strides[o][b])
		if x != y {
			return x < y
		}
	}
	return false
}

// Swap exchanges dimensions a and b.
func (l *Layout) Swap(a, b int) {
	l.Shape[a], l.Shape[b] = l.Shape[b], l.Shape[a]
	for o := 0; o < l.NOps; o++ {
		l.Strides[o][a], l.Strides[o][b] = l.Strides[o][b], l.Strides[o][a]
	}
}

// SortBy sorts the dimensions by increasing |stride| of operand op (ties
// broken by the other operands), a stable insertion sort.
func (l *Layout) SortBy(op int) {
	for i := 1; i < l.Rank; i++ {
		for j := i; j > 0 && l.less(op, j, j-1); j-- {
			l.Swap(j, j-1)
		}
	}
}

// Fuse merges dimension d+1 into d wherever Strides[o][d+1] ==
// Strides[o][d]*Shape[d] for every operand o, so that a run of dimensions
// that is contiguous in all operands becomes one.
func (l *Layout) Fuse() {
	if l.Rank < 2 {
		return
	}
	w := 0
	for d := 1; d < l.Rank; d++ {
		ok := true
		for o := 0; o < l.NOps; o++ {
			if l.Strides[o][d] != l.Strides[o][w]*l.Shape[w] {
				ok = false
				break
			}
		}
		if ok {
			l.Shape[w] *= l.Shape[d]
			continue
		}
		w++
		l.Shape[w] = l.Shape[d]
		for o := 0; o < l.NOps; o++ {
			l.Strides[o][w] = l.Strides[o][d]
		}
	}
	l.Rank = w + 1
}

// Normalize is the usual preparation for a kernel whose destination (operand
// 0) has no repeated elements: flip operand 0's negative strides, sort by
// operand 0's strides, fuse.
func (l *Layout) Normalize() {
	l.FlipNegative(0)
	l.SortBy(0)
	l.Fuse()
}

// Outer calls fn once for every index point of dimensions [from, Rank), in
// column-major order, with l.Cur holding the operand offsets of that point
// (dimensions below from at index 0). l must not be Empty.
func (l *Layout) Outer(from int, fn func()) {
	var idx [MaxRank]int
	off := &l.Cur
	*off = l.Off
	n := l.NOps
	for {
		fn()
		d := from
		for ; d < l.Rank; d++ {
			idx[d]++
			if idx[d] < l.Shape[d] {
				for o := 0; o < n; o++ {
					off[o] += l.Strides[o][d]
				}
				break
			}
			m := l.Shape[d] - 1
			for o := 0; o < n; o++ {
				off[o] -= m * l.Strides[o][d]
			}
			idx[d] = 0
		}
		if d >= l.Rank {
			return
		}
	}
}

// Restrict narrows dimension d to the index range [lo, hi), shifting the
// offsets accordingly. It is how a parallel kernel hands each part its share.
func (l *Layout) Restrict(d, lo, hi int) {
	for o := 0; o < l.NOps; o++ {
		l.Off[o] += lo * l.Strides[o][d]
	}
	l.Shape[d] = hi - lo
}

// SplitDim returns the dimension with the largest extent among those along
// which operand op has a non-zero stride (the outermost on ties), or -1 when
// there is none. Splitting it gives parts that write disjoint parts of op.
func (l *Layout) SplitDim(op int) int {
	best := -1
	for d := l.Rank - 1; d >= 0; d-- {
		if l.Strides[op][d] == 0 {
			continue
		}
		if best < 0 || l.Shape[d] > l.Shape[best] {
			best = d
		}
	}
	return best
}

// Parts returns the number of parts a kernel that touches bytes bytes
// should split into on r: 1 below threshold bytes or on a serial runner,
// else min(Width(r), bytes/threshold+1, extent) where extent bounds the
// number of useful parts (the extent of the split dimension).
func Parts(r par.Runner, bytes, threshold, extent int) int {
	w := par.Width(r)
	if w <= 1 || bytes < threshold || extent < 2 {
		return 1
	}
	p := bytes/threshold + 1
	return min(w, p, extent)
}
