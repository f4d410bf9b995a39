package op

import "strconv"

// The shape rules of the structural operations that repeat, pad, rotate or
// mask elements: Tile, Repeat, Pad, Roll, Tril and Triu, Diag, Contiguous.

// maxPieces is the fault of a Tile or Repeat whose copy would walk more
// than MaxRank axes of extent above 1 (each axis of the result splits into
// a source part and a repetition part; at least 2^33 elements).
func maxPieces(arg string, pieces int) *Fault {
	if pieces <= MaxRank {
		return nil
	}
	return faultf(ErrShape, arg, "at most "+strconv.Itoa(MaxRank)+" source and repetition extents above 1", "%d", pieces)
}

// TileShape is the rule of Tile (NumPy's tile): reps (non-negative) and
// a's shape are aligned on their last axes, the shorter one extended with
// leading 1s; extent d of the result is a's times reps'. It appends the
// output shape and returns the repetitions of every output axis in reps of
// the same length (the shorter reps extended with 1s) in norm, which has
// room for MaxRank entries.
func TileShape(a, reps, norm, buf []int) ([]int, []int, *Fault) {
	if _, f := Numel("a", a); f != nil {
		return nil, nil, f
	}
	if len(reps) > MaxRank {
		return nil, nil, faultf(ErrShape, "reps", "at most "+strconv.Itoa(MaxRank)+" repetitions", "%d", len(reps))
	}
	r := max(len(a), len(reps))
	norm = norm[:0]
	base := len(buf)
	pieces := 0
	for d := range r {
		m, x := extentFromEnd(a, r-d), extentFromEnd(reps, r-d)
		if x < 0 {
			return nil, nil, faultf(ErrArgument, "reps", "non-negative repetitions", "%s", FmtInts(reps))
		}
		if x > MaxElements || m != 0 && x > MaxElements/m {
			return nil, nil, fault(ErrShape, "reps", "at most 2^46 elements", "shape "+FmtInts(a)+" tiled "+FmtInts(reps))
		}
		pieces += b2i(m > 1) + b2i(x > 1)
		norm = append(norm, x)
		buf = append(buf, m*x)
	}
	if _, f := Numel("reps", buf[base:]); f != nil {
		return nil, nil, f
	}
	if Count(buf[base:]) > 0 {
		if f := maxPieces("reps", pieces); f != nil {
			return nil, nil, f
		}
	}
	return buf, norm, nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// RepeatShape is the rule of Repeat (NumPy's repeat along an axis):
// repeats is one count for every element or one count per element of axis
// (negative from the end), all non-negative; the extent of axis becomes
// their total. It returns the normalized axis and the output shape.
func RepeatShape(a []int, axis int, repeats, buf []int) (int, []int, *Fault) {
	ax, f := splitAxis(a, axis)
	if f != nil {
		return 0, nil, f
	}
	ext := a[ax]
	if len(repeats) != 1 && len(repeats) != ext {
		return 0, nil, faultf(ErrShape, "repeats", "1 count or "+strconv.Itoa(ext)+" (one per element of axis "+strconv.Itoa(ax)+")", "%d counts", len(repeats))
	}
	total := 0
	for _, x := range repeats {
		if x < 0 {
			return 0, nil, faultf(ErrArgument, "repeats", "non-negative counts", "%s", FmtInts(repeats))
		}
		if x > MaxElements-total || len(repeats) == 1 && ext != 0 && x > MaxElements/ext {
			return 0, nil, fault(ErrShape, "repeats", "at most 2^46 elements", "counts adding up beyond it")
		}
		total += x
	}
	if len(repeats) == 1 {
		total = repeats[0] * ext
	}
	base := len(buf)
	buf = append(buf, a...)
	buf[base+ax] = total
	if _, f := Numel("repeats", buf[base:]); f != nil {
		return 0, nil, f
	}
	if len(repeats) == 1 && total > 0 {
		pieces := b2i(repeats[0] > 1)
		for _, n := range a {
			pieces += b2i(n > 1)
		}
		if f := maxPieces("repeats", pieces); f != nil {
			return 0, nil, f
		}
	}
	return ax, buf, nil
}

// RepeatIndex writes to out the source index of every element of an axis
// repeated by per-element counts: counts[i] times i, in order.
func RepeatIndex(counts []int, out []int64) []int64 {
	out = out[:0]
	for i, c := range counts {
		for range c {
			out = append(out, int64(i))
		}
	}
	return out
}

// PadShape is the rule of Pad: widths holds a (before, after) pair of
// non-negative widths per axis of a, and mode is a pad mode; modes other
// than PadConstant cannot pad an empty axis. Extent d of the result is
// before + a[d] + after.
func PadShape(a []int, widths [][2]int, mode PadMode, buf []int) ([]int, *Fault) {
	if _, f := Numel("a", a); f != nil {
		return nil, f
	}
	if mode >= NumPadModes {
		return nil, fault(ErrArgument, "mode", "constant, edge, reflect, symmetric or wrap", mode.String())
	}
	if len(widths) != len(a) {
		return nil, faultf(ErrShape, "widths", strconv.Itoa(len(a))+" (before, after) pairs, one per axis", "%d pairs", len(widths))
	}
	base := len(buf)
	for d, n := range a {
		b, e := widths[d][0], widths[d][1]
		if b < 0 || e < 0 {
			return nil, faultf(ErrArgument, "widths", "non-negative widths", "(%d, %d) at axis %d", b, e, d)
		}
		if b > MaxElements || e > MaxElements {
			return nil, faultf(ErrShape, "widths", "at most 2^46 elements", "(%d, %d) at axis %d", b, e, d)
		}
		if n == 0 && b+e > 0 && mode != PadConstant {
			return nil, faultf(ErrShape, "a", "non-empty axes where mode "+mode.String()+" pads (only constant pads an empty axis)", "extent 0 at axis %d", d)
		}
		buf = append(buf, b+n+e)
	}
	if _, f := Numel("widths", buf[base:]); f != nil {
		return nil, f
	}
	return buf, nil
}

// TriShape is the rule of Tril and Triu: rank >= 2, the matrix axes
// first and batch axes after (as in Matmul). The result has a's shape.
func TriShape(a, buf []int) ([]int, *Fault) {
	if _, f := Numel("a", a); f != nil {
		return nil, f
	}
	if len(a) < 2 {
		return nil, faultf(ErrShape, "a", "rank >= 2 (rows, columns, batch...)", "rank %d", len(a))
	}
	return append(buf, a...), nil
}

// RollShifts is the rule of Roll: axes (at least one, negative from the
// end; a repeated axis adds its shifts, as in NumPy) and shifts (one for
// every axis, or one per axis) of any sign. It writes the shift of every
// axis of a, reduced to [0, extent), to out (len(a) entries).
func RollShifts(a, shifts, axes, out []int) *Fault {
	if _, f := Numel("a", a); f != nil {
		return f
	}
	if len(axes) == 0 {
		return fault(ErrArgument, "axes", "at least one axis", "none")
	}
	if len(shifts) != 1 && len(shifts) != len(axes) {
		return faultf(ErrShape, "shifts", "1 shift or "+strconv.Itoa(len(axes))+" (one per axis)", "%d shifts", len(shifts))
	}
	clear(out)
	for i, ax := range axes {
		d, f := Axis("axes", ax, len(a))
		if f != nil {
			return f
		}
		if n := a[d]; n > 0 {
			s := shifts[min(i, len(shifts)-1)] % n
			if s < 0 {
				s += n
			}
			out[d] = (out[d] + s) % n
		}
	}
	return nil
}

// DiagShape is the rule of Diag (NumPy's diag): a vector of n elements
// gives the square matrix of extent n + |k| with the vector on diagonal k
// (k > 0 above the main diagonal, k < 0 below); a matrix gives its
// diagonal k as a vector (empty when k lies outside the matrix).
func DiagShape(a []int, k int, buf []int) ([]int, *Fault) {
	if _, f := Numel("a", a); f != nil {
		return nil, f
	}
	switch len(a) {
	case 1:
		if k < -MaxElements || k > MaxElements {
			return nil, faultf(ErrShape, "k", "a diagonal giving at most 2^46 elements", "%d", k)
		}
		n := a[0] + max(k, -k)
		base := len(buf)
		buf = append(buf, n, n)
		if _, f := Numel("k", buf[base:]); f != nil {
			return nil, f
		}
		return buf, nil
	case 2:
		m, n := a[0], a[1]
		if k >= 0 {
			return append(buf, max(0, min(m, n-k))), nil
		}
		return append(buf, max(0, min(m+k, n))), nil
	}
	return nil, faultf(ErrShape, "a", "rank 1 (a vector) or 2 (a matrix)", "rank %d", len(a))
}

// ContiguousOrder checks the storage order of Contiguous: 0 (column-major)
// or 1 (row-major).
func ContiguousOrder(order int) *Fault {
	if order != 0 && order != 1 {
		return faultf(ErrArgument, "order", "ColumnMajor or RowMajor", "%d", order)
	}
	return nil
}
