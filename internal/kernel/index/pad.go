package index

import (
	"math"

	"github.com/tenferro-go/tenferro/internal/kernel/strided"
	"github.com/tenferro-go/tenferro/internal/par"
)

// Mode selects what Pad writes outside the source. Along an axis with
// source extent s, a destination coordinate at offset u from the first
// source element (u < 0 before it, u >= s after it) takes, by mode:
//
//	Constant:  the value v
//	Edge:      source coordinate 0 for u < 0, s-1 for u >= s
//	Reflect:   the mirror image without repeating the edge, periodic with
//	           period 2(s-1): t = u mod 2(s-1), then 2(s-1)-t if t >= s
//	           (s == 1 repeats the single element)
//	Symmetric: the mirror image repeating the edge, period 2s:
//	           t = u mod 2s, then 2s-1-t if t >= s
//	Wrap:      periodic, u mod s
//
// These are NumPy's pad modes 'constant', 'edge', 'reflect', 'symmetric'
// and 'wrap', applied along every axis (so corners take the composition of
// the per-axis mappings). Pads longer than a period repeat the pattern
// periodically from the source's edges, the documented meaning of these
// modes; NumPy before 2.0 drifted from it for long pads of unequal widths
// on the two sides of an axis (numpy/numpy#22464, #25926).
type Mode uint8

// The pad modes (see Mode).
const (
	Constant Mode = iota
	Edge
	Reflect
	Symmetric
	Wrap
)

var modeNames = [...]string{"Constant", "Edge", "Reflect", "Symmetric", "Wrap"}

func (m Mode) String() string {
	if int(m) < len(modeNames) {
		return modeNames[m]
	}
	return "Mode(?)"
}

// Pad sets dst, of shape shape, to src, of shape srcShape, surrounded by
// pads: along axis d there are before[d] elements before the source and
// shape[d] - srcShape[d] - before[d] after it, written as mode says (v for
// Constant, ignored otherwise):
//
//	dst[i] = src[m_0(i_0 - before[0]), ..., m_{k-1}(i_{k-1} - before[k-1])]
//
// with m_d the identity on [0, srcShape[d]) and the mapping of mode outside
// (Constant writes v wherever some coordinate lies outside). Preconditions
// besides the package's: len(srcShape) == len(before) == len(shape),
// before[d] >= 0 and srcShape[d] + before[d] <= shape[d]; for the modes
// other than Constant, srcShape[d] >= 1 wherever shape[d] > srcShape[d]
// (an empty axis cannot be extended; Pad panics). dst must not overlap src.
// r may be nil (serial).
func Pad[T strided.Elem](r par.Runner, mode Mode, shape []int, dst strided.Ref[T], srcShape []int, src strided.Ref[T], before []int, v T) {
	if empty(shape) {
		return
	}
	var t gridTask[T]
	g := &t.g
	for d, e := range shape {
		s, b := srcShape[d], before[d]
		if s == e {
			if e != 1 {
				g.add("Pad", e, dst.Strides[d], src.Strides[d], kIdent, 0, 0)
			}
			continue
		}
		if s == 0 && mode != Constant {
			panic("index.Pad: mode " + mode.String() + " cannot extend an empty axis")
		}
		if e == 1 {
			// s == 0: the only coordinate is outside.
			g.out++
			continue
		}
		g.add("Pad", e, dst.Strides[d], src.Strides[d], kPad, b, s)
	}
	g.dOff += dst.Off
	g.sOff += src.Off
	g.normalize()
	t.op, t.mode, t.value, t.dst, t.src = opPad, mode, v, dst.Data, src.Data
	runGrid(r, &t)
}

// Roll sets dst[i] = src[j] with j_d = (i_d - shifts[d]) mod shape[d] for
// every multi-index i of shape, the shape of both: every axis is rotated
// by its shift (NumPy's roll with one shift per axis; shifts may be any
// integers, negative ones rotate towards lower indices). dst must not
// overlap src. See the package comment for the other preconditions; r may be
// nil (serial).
func Roll[T strided.Elem](r par.Runner, shape []int, dst, src strided.Ref[T], shifts []int) {
	if empty(shape) {
		return
	}
	var t gridTask[T]
	g := &t.g
	for d, e := range shape {
		if e == 1 {
			continue
		}
		if sh := mod(shifts[d], e); sh != 0 {
			// A wrapped pad of the whole extent, the source starting at
			// the shift.
			g.add("Roll", e, dst.Strides[d], src.Strides[d], kPad, sh, e)
			continue
		}
		g.add("Roll", e, dst.Strides[d], src.Strides[d], kIdent, 0, 0)
	}
	g.dOff += dst.Off
	g.sOff += src.Off
	g.normalize()
	t.op, t.mode, t.dst, t.src = opPad, Wrap, dst.Data, src.Data
	runGrid(r, &t)
}

// segment maps the offset u (outside [0, s)) of a destination coordinate
// from the first source element to its source coordinate t under mode (not
// Constant), and returns with it the direction of the source run that
// follows (+1, -1, or 0 for a repeated element) and the number of
// destination elements, at least 1, before the mapping turns.
func segment(mode Mode, u, s int) (t, dir, n int) {
	switch mode {
	case Edge:
		if u < 0 {
			return 0, 0, -u
		}
		return s - 1, 0, math.MaxInt
	case Reflect:
		if s == 1 {
			return 0, 0, math.MaxInt
		}
		p := 2 * (s - 1)
		u = mod(u, p)
		if u < s-1 {
			return u, 1, s - 1 - u
		}
		return p - u, -1, p - u
	case Symmetric:
		p := 2 * s
		u = mod(u, p)
		if u < s {
			return u, 1, s - u
		}
		return p - 1 - u, -1, p - u
	default: // Wrap
		u = mod(u, s)
		return u, 1, s - u
	}
}

// PadSource returns the source coordinate of offset u (the destination
// coordinate minus the pad before) under mode with source extent s, or -1
// when it lies outside the source in Constant mode.
func PadSource(mode Mode, u, s int) int { return padSrc(mode, u, s) }

// padSrc returns the source coordinate of offset u under mode with source
// extent s, or -1 when it lies outside the source in Constant mode.
func padSrc(mode Mode, u, s int) int {
	if u >= 0 && u < s {
		return u
	}
	if mode == Constant {
		return -1
	}
	t, _, _ := segment(mode, u, s)
	return t
}

// padRow writes the row [j0, j1) of a padded dimension with before b and
// source extent s: the source interior by one copy, each pad in runs that
// follow the mapping (or filled with the value).
func (t *gridTask[T]) padRow(j0, j1, do, D, so, S, b, s int) {
	a, e := min(max(b, j0), j1), min(max(b+s, j0), j1)
	if t.mode == Constant {
		fillRow(a-j0, t.dst, do+j0*D, D, t.value)
		copyRow(e-a, t.dst, do+a*D, D, t.src, so+(a-b)*S, S)
		fillRow(j1-e, t.dst, do+e*D, D, t.value)
		return
	}
	t.padRuns(j0, a, do, D, so, S, b, s)
	copyRow(e-a, t.dst, do+a*D, D, t.src, so+(a-b)*S, S)
	t.padRuns(e, j1, do, D, so, S, b, s)
}

func (t *gridTask[T]) padRuns(j0, j1, do, D, so, S, b, s int) {
	for j := j0; j < j1; {
		u, dir, m := segment(t.mode, j-b, s)
		m = min(m, j1-j)
		copyRow(m, t.dst, do+j*D, D, t.src, so+u*S, dir*S)
		j += m
	}
}
