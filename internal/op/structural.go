package op

import (
	"slices"
	"strconv"
)

// PadMode selects what Pad writes outside the source, NumPy's pad modes.
// Along an axis with source extent s, a destination coordinate at offset u
// from the first source element (u < 0 before it, u >= s after it) takes:
//
//	PadConstant:  the pad value
//	PadEdge:      source coordinate 0 for u < 0, s-1 for u >= s
//	PadReflect:   the mirror image without repeating the edge (period 2(s-1); s = 1 repeats the element)
//	PadSymmetric: the mirror image repeating the edge (period 2s)
//	PadWrap:      periodic, u mod s
//
// Corners take the composition of the per-axis mappings.
type PadMode uint8

// The pad modes.
const (
	PadConstant PadMode = iota
	PadEdge
	PadReflect
	PadSymmetric
	PadWrap
	NumPadModes
)

var padModeNames = [NumPadModes]string{"constant", "edge", "reflect", "symmetric", "wrap"}

// String returns NumPy's name of the mode ("constant", "edge", ...).
func (m PadMode) String() string {
	if m < NumPadModes {
		return padModeNames[m]
	}
	return "PadMode(" + strconv.Itoa(int(m)) + ")"
}

// The shape rules of the structural operations. Like the rules of
// infer.go they check their inputs, append the output shape to buf and
// report a *Fault naming the argument; the eager operations call them with
// stack buffers and Kind.Shape calls them for traces (structuralShape).
//
// Attributes of the structural operations in a trace (Attrs, IntsAttr),
// normalized by Kind.Shape:
//
//	Squeeze, Unsqueeze   Axes: the removed / inserted axes, increasing
//	Concatenate, Stack   Axes: [axis]
//	Split                Axes: [axis]; Ints: [start, stop], the part's range
//	Tile                 Ints: the repetitions, one per axis of the result
//	Repeat               Axes: [axis]; Ints: one count, or one per element
//	Pad                  Ints: [mode, before_0, after_0, before_1, ...]; Alpha: the value
//	Tril, Triu, Diag     Ints: [k]
//	Roll                 Axes: every axis, increasing; Ints: the shift of each, in [0, extent)
//	Contiguous           Ints: [order] (0 column-major, 1 row-major)
//	Take, Gather         Axes: [axis]
//	ScatterAdd           Axes: [axis]
//	MaskedSelect         Ints: [size], the length of the result

// SqueezeShape is the rule of Squeeze: the given axes (any order, negative
// from the end, no repeats) must have extent 1 and are removed; no axes
// removes every axis of extent 1. It returns the output shape and the set
// of removed axes.
func SqueezeShape(a, axes, buf []int) ([]int, uint64, *Fault) {
	if _, f := Numel("a", a); f != nil {
		return nil, 0, f
	}
	var m uint64
	if len(axes) == 0 {
		for d, n := range a {
			if n == 1 {
				m |= 1 << uint(d)
			}
		}
	} else {
		var f *Fault
		if m, f = AxisMask("axes", axes, len(a)); f != nil {
			return nil, 0, f
		}
		for d, n := range a {
			if m&(1<<uint(d)) != 0 && n != 1 {
				return nil, 0, faultf(ErrShape, "axes", "axes of extent 1", "axis %d of extent %d (a is %s)", d, n, FmtInts(a))
			}
		}
	}
	for d, n := range a {
		if m&(1<<uint(d)) == 0 {
			buf = append(buf, n)
		}
	}
	return buf, m, nil
}

// UnsqueezeShape is the rule of Unsqueeze (NumPy's expand_dims): axes (at
// least one, any order, negative from the end, no repeats) are positions
// in the result, of rank len(a) + len(axes), that get extent 1; a's axes
// fill the others in order. It returns the output shape and the set of
// new axes.
func UnsqueezeShape(a, axes, buf []int) ([]int, uint64, *Fault) {
	if _, f := Numel("a", a); f != nil {
		return nil, 0, f
	}
	if len(axes) == 0 {
		return nil, 0, fault(ErrArgument, "axes", "at least one axis", "none")
	}
	r := len(a) + len(axes)
	if r > MaxRank {
		return nil, 0, faultf(ErrShape, "axes", "a result of rank <= "+strconv.Itoa(MaxRank), "rank %d", r)
	}
	m, f := AxisMask("axes", axes, r)
	if f != nil {
		return nil, 0, f
	}
	j := 0
	for d := range r {
		if m&(1<<uint(d)) != 0 {
			buf = append(buf, 1)
			continue
		}
		buf = append(buf, a[j])
		j++
	}
	return buf, m, nil
}

// FlattenShape is the rule of Flatten: one axis of a's element count.
func FlattenShape(a, buf []int) ([]int, *Fault) {
	n, f := Numel("a", a)
	if f != nil {
		return nil, f
	}
	return append(buf, n), nil
}

// ConcatShape is the rule of Concatenate: at least one operand, all of
// one rank >= 1 and equal extents except along axis (negative from the
// end), whose extents add up. It returns the normalized axis and the
// output shape.
func ConcatShape(axis int, shapes [][]int, buf []int) (int, []int, *Fault) {
	s0, f := operands(shapes)
	if f != nil {
		return 0, nil, f
	}
	if len(s0) == 0 {
		return 0, nil, fault(ErrShape, OperandName(0), "rank >= 1", "rank 0")
	}
	ax, f := Axis("axis", axis, len(s0))
	if f != nil {
		return 0, nil, f
	}
	total := 0
	for k, s := range shapes {
		if len(s) != len(s0) {
			return 0, nil, faultf(ErrShape, OperandName(k), "rank "+strconv.Itoa(len(s0))+" like operands[0]", "rank %d", len(s))
		}
		for d, n := range s {
			if d != ax && n != s0[d] {
				return 0, nil, faultf(ErrShape, OperandName(k), "extent "+strconv.Itoa(s0[d])+" at axis "+strconv.Itoa(d)+" (operands[0] is "+FmtInts(s0)+", joined along axis "+strconv.Itoa(ax)+")", "%d (%s)", n, FmtInts(s))
			}
		}
		if total += s[ax]; total > MaxElements {
			return 0, nil, fault(ErrShape, OperandName(k), "at most 2^46 elements in the result", "extents adding up beyond it")
		}
	}
	base := len(buf)
	buf = append(buf, s0...)
	buf[base+ax] = total
	if _, f := Numel("operands", buf[base:]); f != nil {
		return 0, nil, f
	}
	return ax, buf, nil
}

// operands checks the shapes of a variadic operation and returns the
// first.
func operands(shapes [][]int) ([]int, *Fault) {
	if len(shapes) == 0 {
		return nil, fault(ErrArgument, "operands", "at least one tensor", "none")
	}
	for k, s := range shapes {
		if _, f := Numel("", s); f != nil {
			f.Arg = OperandName(k) // named on failure only: no allocation otherwise
			return nil, f
		}
	}
	return shapes[0], nil
}

// StackShape is the rule of Stack: at least one operand, all of one
// shape; the result has a new axis of extent len(shapes) at axis, a
// position in the result (negative from the end). It returns the
// normalized axis and the output shape.
func StackShape(axis int, shapes [][]int, buf []int) (int, []int, *Fault) {
	s0, f := operands(shapes)
	if f != nil {
		return 0, nil, f
	}
	for k, s := range shapes {
		if !slices.Equal(s, s0) {
			return 0, nil, faultf(ErrShape, OperandName(k), "shape "+FmtInts(s0)+" like operands[0]", "%s", FmtInts(s))
		}
	}
	r := len(s0) + 1
	if r > MaxRank {
		return 0, nil, faultf(ErrShape, "operands", "rank <= "+strconv.Itoa(MaxRank-1), "rank %d", len(s0))
	}
	ax, f := Axis("axis", axis, r)
	if f != nil {
		return 0, nil, f
	}
	base := len(buf)
	buf = append(append(append(buf, s0[:ax]...), len(shapes)), s0[ax:]...)
	if _, f := Numel("operands", buf[base:]); f != nil {
		return 0, nil, f
	}
	return ax, buf, nil
}

// splitAxis checks a and axis for the split rules and returns the
// normalized axis.
func splitAxis(a []int, axis int) (int, *Fault) {
	if _, f := Numel("a", a); f != nil {
		return 0, f
	}
	if len(a) == 0 {
		return 0, fault(ErrShape, "a", "rank >= 1", "rank 0")
	}
	return Axis("axis", axis, len(a))
}

// SplitEqual is the rule of Split into n equal parts (NumPy's split with
// a count): n >= 1 divides the extent of axis. It returns the normalized
// axis and the parts' ranges as (start, stop) pairs appended to buf.
func SplitEqual(a []int, axis, n int, buf []int) (int, []int, *Fault) {
	ax, f := splitAxis(a, axis)
	if f != nil {
		return 0, nil, f
	}
	if n < 1 {
		return 0, nil, faultf(ErrArgument, "n", "at least 1 part", "%d", n)
	}
	ext := a[ax]
	if ext%n != 0 {
		return 0, nil, faultf(ErrShape, "n", "a number of parts dividing "+strconv.Itoa(ext)+" (the extent of axis "+strconv.Itoa(ax)+")", "%d", n)
	}
	step := ext / n
	for k := range n {
		buf = append(buf, k*step, (k+1)*step)
	}
	return ax, buf, nil
}

// SplitAtBounds is the rule of Split at indices (NumPy's split with a list
// of indices): the sections are a[i_{k-1}:i_k] along axis for k = 0..len
// (i_{-1} = 0, i_len = the extent), bounds taken as Python slices take
// them: negative ones count from the end, out-of-range ones are clamped,
// and a section whose start lies after its stop is empty. It returns the
// normalized axis and the sections' ranges as (start, stop) pairs,
// start <= stop, appended to buf.
func SplitAtBounds(a []int, axis int, indices, buf []int) (int, []int, *Fault) {
	ax, f := splitAxis(a, axis)
	if f != nil {
		return 0, nil, f
	}
	ext := a[ax]
	bound := func(i int) int {
		if i < 0 {
			i += ext
		}
		return min(max(i, 0), ext)
	}
	start := 0
	for k := 0; k <= len(indices); k++ {
		stop := ext
		if k < len(indices) {
			stop = bound(indices[k])
		}
		buf = append(buf, start, max(start, stop))
		start = stop
	}
	return ax, buf, nil
}

// SplitPartShape is the rule of one recorded part of a Split: axis
// (negative from the end) of a has the range [start, stop) with
// 0 <= start <= stop <= extent. It returns the normalized axis and the
// part's shape.
func SplitPartShape(a []int, axis, start, stop int, buf []int) (int, []int, *Fault) {
	ax, f := splitAxis(a, axis)
	if f != nil {
		return 0, nil, f
	}
	if start < 0 || stop < start || stop > a[ax] {
		return 0, nil, faultf(ErrArgument, "range", "0 <= start <= stop <= "+strconv.Itoa(a[ax]), "%d, %d", start, stop)
	}
	base := len(buf)
	buf = append(buf, a...)
	buf[base+ax] = stop - start
	return ax, buf, nil
}

// attrInts returns the first n entries of a.Ints, or a fault when a trace
// recorded fewer.
func attrInts(a *Attrs, arg string, n int) ([]int, *Fault) {
	if len(a.Ints) < n {
		return nil, faultf(ErrArgument, arg, strconv.Itoa(n)+" parameters", "%d", len(a.Ints))
	}
	return a.Ints[:n], nil
}

// attrAxis returns the single axis of a.
func attrAxis(a *Attrs) (int, *Fault) {
	if len(a.Axes) != 1 {
		return 0, faultf(ErrArgument, "axis", "one axis", "%s", FmtInts(a.Axes))
	}
	return a.Axes[0], nil
}

// structuralShape is Kind.Shape for the structural operations: it applies
// k's rule to the input shapes and normalizes a (see the table of
// attributes above). ok is false for the kinds it does not handle.
func structuralShape(k Kind, a *Attrs, in [][]int) (out []int, f *Fault, ok bool) {
	var m uint64
	var ax int
	switch k {
	case Squeeze:
		if out, m, f = SqueezeShape(in[0], a.Axes, nil); f == nil {
			a.Axes = MaskAxes(m, len(in[0]))
		}
	case Unsqueeze:
		if out, m, f = UnsqueezeShape(in[0], a.Axes, nil); f == nil {
			a.Axes = MaskAxes(m, len(out))
		}
	case Flatten:
		out, f = FlattenShape(in[0], nil)
	case Concatenate, Stack:
		if ax, f = attrAxis(a); f != nil {
			break
		}
		rule := ConcatShape
		if k == Stack {
			rule = StackShape
		}
		if ax, out, f = rule(ax, in, nil); f == nil {
			a.Axes = []int{ax}
		}
	case Split:
		var r []int
		if ax, f = attrAxis(a); f == nil {
			if r, f = attrInts(a, "range", 2); f == nil {
				ax, out, f = SplitPartShape(in[0], ax, r[0], r[1], nil)
				a.Axes = []int{ax}
			}
		}
	case Tile:
		var norm [MaxRank]int
		var reps []int
		if out, reps, f = TileShape(in[0], a.Ints, norm[:], nil); f == nil {
			a.Ints = slices.Clone(reps)
		}
	case Repeat:
		if ax, f = attrAxis(a); f == nil {
			if ax, out, f = RepeatShape(in[0], ax, a.Ints, nil); f == nil {
				a.Axes = []int{ax}
			}
		}
	case Pad:
		var mode []int
		if mode, f = attrInts(a, "mode", 1); f == nil {
			pm := NumPadModes
			if mode[0] >= 0 && mode[0] <= 255 {
				pm = PadMode(mode[0])
			}
			out, f = PadShape(in[0], PadPairs(a.Ints[1:]), pm, nil)
		}
	case Tril, Triu:
		if _, f = attrInts(a, "k", 1); f == nil {
			out, f = TriShape(in[0], nil)
		}
	case Roll:
		norm := make([]int, len(in[0]))
		if f = RollShifts(in[0], a.Ints, a.Axes, norm); f == nil {
			out, a.Ints, a.Axes = slices.Clone(in[0]), norm, allAxes(len(in[0]))
		}
	case Diag:
		var kk []int
		if kk, f = attrInts(a, "k", 1); f == nil {
			out, f = DiagShape(in[0], kk[0], nil)
		}
	case Contiguous:
		var o []int
		if o, f = attrInts(a, "order", 1); f == nil {
			if f = ContiguousOrder(o[0]); f == nil {
				_, f = Numel("a", in[0])
				out = slices.Clone(in[0])
			}
		}
	default:
		return indexingShape(k, a, in)
	}
	if f != nil {
		return nil, f, true
	}
	return out, nil, true
}

// PadPairs returns the (before, after) pairs of flat widths (a trailing
// odd entry is dropped, which PadShape then reports as a missing pair).
func PadPairs(flat []int) [][2]int {
	w := make([][2]int, len(flat)/2)
	for d := range w {
		w[d] = [2]int{flat[2*d], flat[2*d+1]}
	}
	return w
}

// intsKey is Attrs.Key for IntsAttr: "axes=[...] ints=[...] value=v",
// each part left out when empty (zero).
func intsKey(a *Attrs) string {
	k := ""
	add := func(part string) {
		if k != "" {
			k += " "
		}
		k += part
	}
	if len(a.Axes) > 0 {
		add("axes=" + FmtInts(a.Axes))
	}
	if len(a.Ints) > 0 {
		add("ints=" + FmtInts(a.Ints))
	}
	if a.Alpha != 0 {
		add("value=" + strconv.FormatComplex(a.Alpha, 'g', -1, 128))
	}
	return k
}

// allAxes returns 0, 1, ..., r-1.
func allAxes(r int) []int {
	axes := make([]int, r)
	for d := range axes {
		axes[d] = d
	}
	return axes
}
