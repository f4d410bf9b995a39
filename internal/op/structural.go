package op

import "strconv"

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
