package backend

import (
	"strconv"

	"github.com/tenferro-go/tenferro/internal/op"
)

// Index runs the structural and indexing kernels that are not plain copies
// of views: selecting along an axis (Take, Gather), accumulating into
// selected places (ScatterAdd), selecting by a mask (CountTrue,
// MaskedSelect), padding (Pad), rotating (Roll) and keeping one triangle of
// matrices (Tri). The other structural operations (Concatenate, Stack,
// Tile, Repeat, Diag, ...) are Core.Copy calls on views.
//
// # Index values
//
// Index tensors hold int64 values; a value v addresses element v of an axis
// of extent n when 0 <= v < n and element n+v when -n <= v < 0 (NumPy's
// take). Index values are data, not shapes, so callers cannot validate them:
// Take, Gather and ScatterAdd check every value first and return an
// *IndexError, before writing anything, for the first value outside
// [-n, n) in the column-major order of the index view.
type Index[T Elem] interface {
	// Take sets dst[..., i, ...] = src[..., index[i], ...] along axis for
	// every i: dst has src's shape except along axis, where its extent is
	// the length of the 1-D index.
	Take(dst, src *View[T], axis int, index *View[int64]) error
	// Gather sets dst[i] = src[i with coordinate axis replaced by
	// index[i]] for every multi-index i of dst, which has index's shape;
	// src's extents are at least index's on the other axes (PyTorch's
	// gather).
	Gather(dst, src *View[T], axis int, index *View[int64]) error
	// ScatterAdd sets dst = base, then adds src[i] to dst[i with
	// coordinate axis replaced by index[i]] for every multi-index i of
	// index, in increasing order of the coordinate along axis (PyTorch's
	// scatter_add). dst has base's shape and may be base itself; src's
	// extents are at least index's, and dst's at least index's except
	// along axis. Engines without addition for T (bool) return an
	// ErrUnsupported error.
	ScatterAdd(dst, base *View[T], axis int, index *View[int64], src *View[T]) error
	// CountTrue returns the number of true elements of mask read at shape
	// (broadcast as in Elementwise.Binary).
	CountTrue(mask *View[bool], shape []int) int
	// MaskedSelect writes the elements of src where mask is true, both
	// read at shape (broadcast as in Elementwise.Binary), in column-major
	// order of shape to the 1-D dst, sets the rest of dst to T's zero, and
	// returns their number. dst has at least CountTrue(mask, shape)
	// elements.
	MaskedSelect(dst, src *View[T], mask *View[bool], shape []int) (int, error)
	// Pad sets dst to src with before[d] elements before it along axis d
	// and dst.Shape[d] - src.Shape[d] - before[d] after it, written as
	// mode says (value for op.PadConstant). Modes other than PadConstant
	// need a non-empty source axis wherever the axis is padded.
	Pad(dst, src *View[T], before []int, mode op.PadMode, value T) error
	// Roll sets dst[i] = src[j] with j_d = (i_d - shifts[d]) mod
	// shape[d] on every axis (len(shifts) == rank; dst and src share
	// their shape).
	Roll(dst, src *View[T], shifts []int) error
	// Tri keeps the elements of every matrix (the first two axes) on and
	// below (upper false) or on and above (upper true) diagonal k and
	// zeroes the others; dst has src's shape and may be src itself.
	Tri(dst, src *View[T], k int, upper bool) error
}

// IndexError reports an index value outside the axis it indexes. Index
// methods return it before writing anything.
type IndexError struct {
	At     int   // position of the value in the index view, column-major
	Value  int64 // the value
	Extent int   // extent of the indexed axis
}

func (e *IndexError) Error() string {
	return "index " + strconv.FormatInt(e.Value, 10) + " at position " + strconv.Itoa(e.At) +
		" outside [-" + strconv.Itoa(e.Extent) + ", " + strconv.Itoa(e.Extent) + ")"
}
