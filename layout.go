package tenferro

import "strconv"

// span returns the storage index range [lo, hi] t can touch (hi < lo when
// t is empty).
func span[T Scalar](t *Tensor[T]) (lo, hi int) {
	lo, hi = t.off, t.off
	for d, n := range t.shape {
		if n == 0 {
			return 1, 0
		}
		s := t.strides[d] * (n - 1)
		if s < 0 {
			lo += s
		} else {
			hi += s
		}
	}
	return lo, hi
}

// overlaps reports whether a and b share storage and their index ranges
// intersect. It is conservative: interleaved views with disjoint elements
// still count as overlapping.
func overlaps[T Scalar](a, b *Tensor[T]) bool {
	if a.st != b.st {
		return false
	}
	alo, ahi := span(a)
	blo, bhi := span(b)
	if ahi < alo || bhi < blo {
		return false
	}
	return alo <= bhi && blo <= ahi
}

// checkWritable rejects destinations in which two indices reach the same
// element (zero strides or other self-overlap), which would make the result
// depend on the write order. It accepts every layout in which the axes,
// sorted by |stride|, nest without overlap.
func checkWritable[T Scalar](op string, dst *Tensor[T]) error {
	if dst.Len() <= 1 {
		return nil
	}
	r := len(dst.shape)
	var buf [16]int
	idx := buf[:0]
	for d := 0; d < r; d++ {
		if dst.shape[d] > 1 {
			idx = append(idx, d)
		}
	}
	// Insertion sort by |stride| (ranks are small).
	for i := 1; i < len(idx); i++ {
		for j := i; j > 0 && iabs(dst.strides[idx[j]]) < iabs(dst.strides[idx[j-1]]); j-- {
			idx[j], idx[j-1] = idx[j-1], idx[j]
		}
	}
	reach := 0 // largest index offset reachable by the smaller axes
	for _, d := range idx {
		s := iabs(dst.strides[d])
		if s <= reach {
			return newError(op, "dst", "a view whose elements are distinct (no zero or overlapping strides)", "strides "+fmtInts(dst.strides)+" for shape "+fmtInts(dst.shape), ErrLayout)
		}
		reach += s * (dst.shape[d] - 1)
	}
	return nil
}

func iabs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func fmtInts(s []int) string {
	b := make([]byte, 0, 2+4*len(s))
	b = append(b, '[')
	for i, v := range s {
		if i > 0 {
			b = append(b, ' ')
		}
		b = strconv.AppendInt(b, int64(v), 10)
	}
	return string(append(b, ']'))
}

// MaxRank is the largest rank the elementwise, reduction and copy
// operations accept (matmul and einsum handle their own limits).
const MaxRank = 32

func checkRank[T Scalar](op, arg string, t *Tensor[T]) error {
	if t.Rank() > MaxRank {
		return newError(op, arg, "rank <= "+strconv.Itoa(MaxRank), strconv.Itoa(t.Rank()), ErrShape)
	}
	return nil
}
