package op

import (
	"math/bits"
	"strconv"
)

// Limits shared by every operation.
const (
	// MaxRank is the largest rank an operation accepts (matmul and einsum
	// included); a larger rank with every extent at least 2 would need at
	// least 2^33 elements.
	MaxRank = 32
	// MaxElements bounds the element count of every tensor, so that byte
	// sizes and offsets never overflow.
	MaxElements = 1 << 46
)

// Numel returns the element count of shape (1 for rank 0) after checking
// that every extent is non-negative, the rank is at most MaxRank and the
// count, and every extent, is at most MaxElements (so that no arithmetic on
// extents, strides or offsets overflows, even next to a zero extent). arg
// names the shape in the fault.
func Numel(arg string, shape []int) (int, *Fault) {
	if len(shape) > MaxRank {
		return 0, faultf(ErrShape, arg, "rank <= "+strconv.Itoa(MaxRank), "rank %d", len(shape))
	}
	n := 1
	for d, e := range shape {
		if e < 0 {
			return 0, faultf(ErrShape, arg, "non-negative extents", "extent %d at axis %d", e, d)
		}
		if e > MaxElements {
			return 0, fault(ErrShape, arg, "at most 2^46 elements", "shape "+FmtInts(shape))
		}
	}
	for _, e := range shape {
		hi, lo := bits.Mul64(uint64(n), uint64(e))
		if hi != 0 || lo > MaxElements {
			return 0, fault(ErrShape, arg, "at most 2^46 elements", "shape "+FmtInts(shape))
		}
		n = int(lo)
	}
	return n, nil
}

// Count returns the element count of a shape already checked by Numel.
func Count(shape []int) int {
	n := 1
	for _, e := range shape {
		n *= e
	}
	return n
}

// Axis returns axis ax of a rank-r tensor with negative values counting
// from the end (-1 is the last axis), as NumPy does. arg names the axis in
// the fault.
func Axis(arg string, ax, r int) (int, *Fault) {
	if ax < -r || ax >= r {
		return 0, faultf(ErrArgument, arg, "an axis in [-"+strconv.Itoa(r)+", "+strconv.Itoa(r)+")", "%d", ax)
	}
	if ax < 0 {
		ax += r
	}
	return ax, nil
}

// AxisMask returns the set of axes (bit d for axis d) of a rank-r tensor.
// Axes may come in any order and may be negative; a repeated axis is an
// error. No axes at all means every axis.
func AxisMask(arg string, axes []int, r int) (uint64, *Fault) {
	if len(axes) == 0 {
		if r == 64 {
			return ^uint64(0), nil
		}
		return 1<<uint(r) - 1, nil
	}
	var m uint64
	for _, a := range axes {
		d, f := Axis(arg, a, r)
		if f != nil {
			return 0, f
		}
		if m&(1<<uint(d)) != 0 {
			return 0, faultf(ErrArgument, arg, "distinct axes", "%s (axis %d twice)", FmtInts(axes), d)
		}
		m |= 1 << uint(d)
	}
	return m, nil
}

// Perm checks that perm is a permutation of the r axes (negative entries
// count from the end) and writes it, normalized, to out (len r).
func Perm(arg string, perm []int, r int, out []int) *Fault {
	want := "a permutation of " + strconv.Itoa(r) + " axes"
	if len(perm) != r {
		return fault(ErrShape, arg, want, FmtInts(perm))
	}
	var seen uint64
	for i, p := range perm {
		d, f := Axis(arg, p, r)
		if f != nil {
			return fault(ErrArgument, arg, want, FmtInts(perm))
		}
		if seen&(1<<uint(d)) != 0 {
			return faultf(ErrArgument, arg, want, "%s (repeats %d)", FmtInts(perm), d)
		}
		seen |= 1 << uint(d)
		out[i] = d
	}
	return nil
}

// Distinct reports whether a view with these extents and strides reaches
// every element at most once: with the axes of extent > 1 ordered by
// |stride|, each stride exceeds the span of the smaller ones. It is exact
// for the views that permutations, slices, reversals and reshapes give,
// and rejects zero strides (broadcasts) and diagonals.
func Distinct(shape, strides []int) bool {
	// The common case first: compact column-major strides.
	st, compact := 1, true
	for d, x := range shape {
		if x != 1 && strides[d] != st {
			compact = false
			break
		}
		st *= x
	}
	if compact {
		return true
	}
	var ext, str [MaxRank]int
	n := 0
	for d, x := range shape {
		if x == 0 {
			return true
		}
		if x == 1 {
			continue
		}
		if n == MaxRank {
			return false
		}
		s := strides[d]
		if s < 0 {
			s = -s
		}
		i := n
		for i > 0 && str[i-1] > s {
			ext[i], str[i] = ext[i-1], str[i-1]
			i--
		}
		ext[i], str[i] = x, s
		n++
	}
	reach := 0
	for i := range n {
		if str[i] <= reach {
			return false
		}
		reach += str[i] * (ext[i] - 1)
	}
	return true
}

// Span returns the smallest and largest storage index a view reaches, and
// false for an empty view (some extent 0).
func Span(shape, strides []int, off int) (lo, hi int, ok bool) {
	lo, hi = off, off
	for d, n := range shape {
		if n == 0 {
			return 0, 0, false
		}
		s := strides[d] * (n - 1)
		if s < 0 {
			lo += s
		} else {
			hi += s
		}
	}
	return lo, hi, true
}

// BroadcastStrides writes to out (len(shape) entries) the strides that
// read a view of extents from and strides fromStrides at shape under
// NumPy's broadcasting: its axes align with the last ones of shape, and an
// axis it lacks or has with extent 1 gets stride 0 (unless shape's extent
// is 1 too). from must broadcast to shape.
func BroadcastStrides(shape, from, fromStrides, out []int) []int {
	lead := len(shape) - len(from)
	out = out[:len(shape)]
	for d := range shape {
		out[d] = 0
		if s := d - lead; s >= 0 && (from[s] != 1 || shape[d] == 1) {
			out[d] = fromStrides[s]
		}
	}
	return out
}

// FmtInts renders s as [a b c], like fmt's %v, without reflection.
func FmtInts(s []int) string {
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
