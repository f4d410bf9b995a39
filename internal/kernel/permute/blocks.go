package permute

import (
	"unsafe"

	"github.com/tenferro-go/tenferro/internal/kernel/strided"
)

// maxDstBlock and maxSrcBlock bound the number of elements of the combined
// blocks (and so the length of their offset tables, which live on the stack).
const (
	maxDstBlock = 256
	maxSrcBlock = 1024
)

// Block spans: the dst block covers at least dstBlockBytes of dst's fastest
// dimensions (one 64-byte line, written whole per src element column), the
// src block at least srcBlockBytes of src's (four lines read as runs).
// Measured on the 22-axis reversal and the 6-D rotation (docs/permute.md).
const (
	dstBlockBytes = 512
	srcBlockBytes = 1024
)

// minStripCols is the extent of src's fastest dimension from which the
// strip transpose is used rather than combined blocks: a 6-D rotation whose
// transposed pair is 8 x 16 (the rest outer) ran twice as fast in blocks.
const minStripCols = 64

// blockPlan decides whether a normalised layout (sorted by dst stride) is
// better copied in combined blocks, and if so reorders its dimensions so
// that [0, a) is the dst block (dst's fastest dimensions, spanning up to
// dstBlockBytes) and [a, b) the src block (src's fastest dimensions among the
// rest, spanning at least srcBlockBytes). A dst block that spans a 64-byte
// line stops before src's fastest dimension (which belongs in the src block)
// and before exceeding maxDstBlock. Dimensions [b, Rank) are walked by
// the outer odometer. It reports false, leaving l unchanged, when dst's
// fastest dimension spans a line and src's has at least minStripCols
// elements (the row and strip paths then run long enough), or when a block
// would exceed maxDstBlock or maxSrcBlock elements.
func blockPlan[T strided.Elem](l *strided.Layout) (a, b int, ok bool) {
	target := dstBlockBytes / strided.ElemSize[T]()
	targetS := srcBlockBytes / strided.ElemSize[T]()
	if l.Rank < 2 {
		return 0, 0, false
	}
	// The source's fastest dimension.
	p := 0
	for d := 1; d < l.Rank; d++ {
		if abs(l.Strides[1][d]) < abs(l.Strides[1][p]) {
			p = d
		}
	}
	line := 64 / strided.ElemSize[T]()
	if l.Shape[0] >= line && l.Shape[p] >= minStripCols {
		return 0, 0, false
	}
	pd := 1
	for a < l.Rank && pd < target {
		if pd >= line && (a == p || pd*l.Shape[a] > maxDstBlock) {
			break
		}
		pd *= l.Shape[a]
		a++
	}
	if pd > maxDstBlock {
		return 0, 0, false
	}
	// Choose the src block among [a, Rank) by increasing |src stride|
	// without moving anything yet.
	var pick [strided.MaxRank]bool
	var order [strided.MaxRank]int
	n := 0
	ps := 1
	for ps < targetS && a+n < l.Rank {
		best := -1
		for d := a; d < l.Rank; d++ {
			if pick[d] {
				continue
			}
			if best < 0 || abs(l.Strides[1][d]) < abs(l.Strides[1][best]) {
				best = d
			}
		}
		pick[best] = true
		order[n] = best
		n++
		ps *= l.Shape[best]
	}
	if ps > maxSrcBlock {
		return 0, 0, false
	}
	// Move the chosen dimensions to a, a+1, ... in order. Swapping keeps
	// the pairing of elements; only the visiting order of the outer
	// dimensions changes.
	for k := 0; k < n; k++ {
		d := order[k]
		if d != a+k {
			l.Swap(a+k, d)
			// A later pick that sat at a+k has moved to d.
			for m := k + 1; m < n; m++ {
				if order[m] == a+k {
					order[m] = d
				}
			}
		}
	}
	return a, a + n, true
}

// offsets fills dt and st with the dst and src offsets of every index point
// of dimensions [lo, hi) of l (column-major order) and returns their count.
func offsets(l *strided.Layout, lo, hi int, dt, st []int) int {
	dt[0], st[0] = 0, 0
	n := 1
	for d := lo; d < hi; d++ {
		e := l.Shape[d]
		dd, sd := l.Strides[0][d], l.Strides[1][d]
		for k := 1; k < e; k++ {
			for i := 0; i < n; i++ {
				dt[k*n+i] = dt[i] + k*dd
				st[k*n+i] = st[i] + k*sd
			}
		}
		n *= e
	}
	return n
}

// blocks copies a layout prepared by blockPlan: for every point of the
// outer dimensions [b, Rank) it copies the (dst block x src block) tile,
// walking the dst block innermost so that writes run along dst and each
// src line of the tile is reused from L1.
func blocks[T strided.Elem](l *strided.Layout, a, b int, dst, src []T) {
	var da, sa [maxDstBlock]int
	var db, sb [maxSrcBlock]int
	na := offsets(l, 0, a, da[:], sa[:])
	nb := offsets(l, a, b, db[:], sb[:])
	dA, sA := da[:na], sa[:na]
	dB, sB := db[:nb], sb[:nb]
	// The dst block is contiguous when its offsets are 0, 1, 2, ...
	contig := true
	for i, v := range dA {
		if v != i {
			contig = false
			break
		}
	}
	// The src block is contiguous in src when its offsets are 0, 1, 2, ...
	rows := contig
	for j, v := range sB {
		if v != j {
			rows = false
			break
		}
	}
	if b == l.Rank {
		l.Cur = l.Off
	}
	fn := func() {
		if rows {
			rowBlock(dst, src, l.Cur[0], l.Cur[1], sA, dB)
		} else {
			tileBlock(contig, dst, src, l.Cur[0], l.Cur[1], dA, sA, dB, sB)
		}
	}
	if b == l.Rank {
		fn()
		return
	}
	l.Outer(b, fn)
}

// rowBlock copies dst[do+dB[j]+i] = src[so+sA[i]+j] for i < len(sA), j <
// len(dB): the dst block is contiguous in dst and the src block in src, so
// src is read as len(sA) rows of len(dB) elements. Rows are taken eight at
// a time and walked together, each step writing eight adjacent dst elements.
func rowBlock[T strided.Elem](dst, src []T, do, so int, sA, dB []int) {
	m := len(dB)
	i := 0
	if haveStrip8 && m >= 4 && strided.ElemSize[T]() == 8 && len(sA) >= 8 {
		// The assembly kernel's accesses: dB is non-negative and largest
		// at its end (offsets of non-negative dst strides), and every
		// src row so+sA[i] .. so+sA[i]+m-1 is checked below.
		m4 := m &^ 3
		_ = dst[do]
		_ = dst[do+dB[m-1]+len(sA)-1]
		for ; i+8 <= len(sA); i += 8 {
			for k := i; k < i+8; k++ {
				_ = src[so+sA[k]]
				_ = src[so+sA[k]+m-1]
			}
			rows8x8((*uint64)(unsafe.Pointer(&dst[do+i])), &dB[0],
				(*uint64)(unsafe.Pointer(&src[so])), &sA[i], m4)
			if m4 < m {
				rowBlockGo(dst, src, do+i, so, sA[i:i+8], dB[m4:], m4)
			}
		}
	}
	rowBlockGo(dst, src, do+i, so, sA[i:], dB, 0)
}

// rowBlockGo is rowBlock in Go for rows sA and columns dB, whose first
// column is src column j0.
func rowBlockGo[T strided.Elem](dst, src []T, do, so int, sA, dB []int, j0 int) {
	so += j0
	m := len(dB)
	i := 0
	for ; i+8 <= len(sA); i += 8 {
		r0 := src[so+sA[i]:][:m]
		r1 := src[so+sA[i+1]:][:m]
		r2 := src[so+sA[i+2]:][:m]
		r3 := src[so+sA[i+3]:][:m]
		r4 := src[so+sA[i+4]:][:m]
		r5 := src[so+sA[i+5]:][:m]
		r6 := src[so+sA[i+6]:][:m]
		r7 := src[so+sA[i+7]:][:m]
		o := do + i
		for j, dj := range dB[:len(r0)] {
			d := (*[8]T)(dst[o+dj:])
			d[0], d[1], d[2], d[3] = r0[j], r1[j], r2[j], r3[j]
			d[4], d[5], d[6], d[7] = r4[j], r5[j], r6[j], r7[j]
		}
	}
	for ; i < len(sA); i++ {
		r := src[so+sA[i]:][:m]
		o := do + i
		for j, dj := range dB[:len(r)] {
			dst[o+dj] = r[j]
		}
	}
}

// tileBlock copies dst[do+dB[j]+dA[i]] = src[so+sB[j]+sA[i]] for all i, j.
// contig reports dA[i] == i.
func tileBlock[T strided.Elem](contig bool, dst, src []T, do, so int, dA, sA, dB, sB []int) {
	if contig {
		n := len(sA)
		for j, dj := range dB {
			d := dst[do+dj:][:n]
			s := so + sB[j]
			for i, o := range sA[:len(d)] {
				d[i] = src[s+o]
			}
		}
		return
	}
	for j, dj := range dB {
		d := dst[do+dj:]
		s := so + sB[j]
		for i, o := range sA {
			d[dA[i]] = src[s+o]
		}
	}
}

// shortRow is the row length (elements) below which rows contiguous in both
// views are copied in groups (shortRows) rather than one odometer step each.
const shortRow = 64

// shortRows copies a normalised layout whose dimension 0 is unit-stride in
// both views and short: the offsets of up to maxDstBlock points of the next
// dimensions are tabulated, and each odometer step copies that many rows.
func shortRows[T strided.Elem](l *strided.Layout, dst, src []T) {
	n0 := l.Shape[0]
	b, nb := 1, 1
	for b < l.Rank && nb*l.Shape[b] <= maxDstBlock {
		nb *= l.Shape[b]
		b++
	}
	if b == 1 {
		l.Outer(1, func() {
			copy(dst[l.Cur[0]:][:n0], src[l.Cur[1]:][:n0])
		})
		return
	}
	var dt, st [maxDstBlock]int
	nb = offsets(l, 1, b, dt[:], st[:])
	dB, sB := dt[:nb], st[:nb]
	fn := func() {
		do, so := l.Cur[0], l.Cur[1]
		for j, o := range dB {
			copy(dst[do+o:][:n0], src[so+sB[j]:][:n0])
		}
	}
	if b == l.Rank {
		l.Cur = l.Off
		fn()
		return
	}
	l.Outer(b, fn)
}
