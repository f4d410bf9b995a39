package elementwise

import (
	"github.com/tenferro-go/tenferro/internal/kernel/strided"
	"github.com/tenferro-go/tenferro/internal/op"
)

// TileElems bounds the number of elements of one tile of the tiled
// path (see binaryTiled): a tile is at most TileElems elements of every
// input, kept in a fixed array on the stack (4 KiB per input for
// complex128).
const TileElems = 256

// minTile is the smallest tile worth the tiled path: below it the rows
// stay short and a gather per tile costs more than it saves.
const minTile = 32

// tileDims returns the number m of leading dimensions of l over which the
// destination (operand 0) is contiguous with unit stride and whose extents
// multiply to p <= TileElems, or m = 0 when fewer than two such dimensions
// exist or p < minTile.
func tileDims(l *strided.Layout) (m, p int) {
	if l.Rank < 2 || l.Strides[0][0] != 1 || l.Shape[0] > TileElems {
		return 0, 0
	}
	p, m = l.Shape[0], 1
	for m < l.Rank && l.Strides[0][m] == p && p*l.Shape[m] <= TileElems {
		p *= l.Shape[m]
		m++
	}
	if m < 2 || p < minTile {
		return 0, 0
	}
	return m, p
}

// flatOver reports whether operand o walks dimensions [0, m) of l as one
// row of stride Strides[o][0], that is Strides[o][d] ==
// Strides[o][0]*(Shape[0]*...*Shape[d-1]) for 0 < d < m.
func flatOver(l *strided.Layout, o, m int) bool {
	s, q := l.Strides[o][0], l.Shape[0]
	for d := 1; d < m; d++ {
		if l.Strides[o][d] != s*q {
			return false
		}
		q *= l.Shape[d]
	}
	return true
}

// gatherTile copies the elements of operand o of l over dimensions [0, m),
// starting at offset off of src, into buf in column-major order of those
// dimensions (the destination's order); len(buf) is their product.
func gatherTile[T strided.Scalar](l *strided.Layout, o, m int, src []T, off int, buf []T) {
	n0, s0 := l.Shape[0], l.Strides[o][0]
	var idx [strided.MaxRank]int
	for w := 0; w+n0 <= len(buf); w += n0 {
		row := buf[w : w+n0]
		x := off
		for i := range row {
			row[i] = src[x]
			x += s0
		}
		for d := 1; d < m; d++ {
			idx[d]++
			off += l.Strides[o][d]
			if idx[d] < l.Shape[d] {
				break
			}
			off -= l.Shape[d] * l.Strides[o][d]
			idx[d] = 0
		}
	}
}

// binaryTiled runs Binary over l when its leading dimensions form a tile
// (tileDims) that some input does not walk as one row, and reports whether
// it did. Each such input is gathered tile by tile into a contiguous stack
// buffer in the destination's order, so that every tile becomes one row of
// p elements for binaryRow's unit-stride loops. A gathered tile is reused
// while the input's offset stays put, as it does along dimensions where the
// input broadcasts (stride 0): in the batched outer product
// C[j,k,o,t] = A[k,j,t]*B[o,t] a tile of A is gathered once per t and
// serves all o.
//
// Reuse is sound because an input that is not flat over the tile differs
// from the destination, and so, by the package precondition, does not
// overlap it: its elements do not change while the kernel runs.
func binaryTiled[T strided.Scalar](l *strided.Layout, k op.Kind, d, a, b []T) bool {
	m, p := tileDims(l)
	if m == 0 {
		return false
	}
	ga, gb := !flatOver(l, 1, m), !flatOver(l, 2, m)
	if !ga && !gb {
		return false
	}
	var bufA, bufB [TileElems]T
	ta, tb := bufA[:p], bufB[:p]
	as, bs := l.Strides[1][0], l.Strides[2][0]
	lastA, lastB := 0, 0
	fresh := true
	l.Outer(m, func() {
		aa, ao, sa := a, l.Cur[1], as
		bb, bo, sb := b, l.Cur[2], bs
		if ga {
			if fresh || ao != lastA {
				gatherTile(l, 1, m, a, ao, ta)
				lastA = ao
			}
			aa, ao, sa = ta, 0, 1
		}
		if gb {
			if fresh || bo != lastB {
				gatherTile(l, 2, m, b, bo, tb)
				lastB = bo
			}
			bb, bo, sb = tb, 0, 1
		}
		fresh = false
		binaryRow(k, p, d, l.Cur[0], 1, aa, ao, sa, bb, bo, sb)
	})
	return true
}
