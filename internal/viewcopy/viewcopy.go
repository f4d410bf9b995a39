// Package viewcopy runs the structural operations that are copies between
// views (Concatenate, Stack, a part of Split, Tile, Repeat by a constant,
// Diag) as calls of an engine's Core.Copy and Core.Fill: it builds the
// sub-views (a range along an axis, a slab, a diagonal, an axis split in
// two with a stride-0 source) and copies. Package tenferro runs them
// eagerly and package program in compiled steps, so both build the same
// views.
//
// The views are built in a caller-held [Room], so a call allocates
// nothing. Arguments are validated by the caller (the catalog's shape
// rules): shapes fit the operation and destinations have distinct elements
// and overlap no source.
package viewcopy

import (
	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/internal/op"
)

// Room is space for the two sub-views one call builds, of up to
// 2·op.MaxRank axes each (Tile splits every axis in two).
type Room[T backend.Elem] struct {
	A, B   backend.View[T]
	shape  [2 * op.MaxRank]int
	sa, sb [2 * op.MaxRank]int
}

// Clear drops the views' references to data, so that a pooled Room does
// not keep buffers alive.
func (r *Room[T]) Clear() { r.A, r.B = backend.View[T]{}, backend.View[T]{} }

// rangeOf sets r.A to v restricted to [start, start+n) along axis.
func (r *Room[T]) rangeOf(v *backend.View[T], axis, start, n int) *backend.View[T] {
	k := len(v.Shape)
	copy(r.shape[:k], v.Shape)
	copy(r.sa[:k], v.Strides)
	r.shape[axis] = n
	off := v.Off
	if n > 0 {
		off += start * v.Strides[axis]
	}
	r.A = backend.View[T]{Data: v.Data, Off: off, Shape: r.shape[:k:k], Strides: r.sa[:k:k]}
	return &r.A
}

// Concat copies srcs, whose shapes equal dst's except along axis, into
// consecutive ranges of dst along axis (NumPy's concatenate).
func Concat[T backend.Elem](c backend.Core[T], dst *backend.View[T], axis int, srcs []*backend.View[T], r *Room[T]) error {
	start := 0
	for _, s := range srcs {
		n := s.Shape[axis]
		if err := c.Copy(r.rangeOf(dst, axis, start, n), s); err != nil {
			return err
		}
		start += n
	}
	return nil
}

// Part sets dst to the range [start, start+dst.Shape[axis]) of src along
// axis: one part of a Split.
func Part[T backend.Elem](c backend.Core[T], dst, src *backend.View[T], axis, start int, r *Room[T]) error {
	return c.Copy(dst, r.rangeOf(src, axis, start, dst.Shape[axis]))
}

// Stack copies srcs, of one shape, into the slabs of dst along its axis
// axis: dst[..., k, ...] = srcs[k] (NumPy's stack).
func Stack[T backend.Elem](c backend.Core[T], dst *backend.View[T], axis int, srcs []*backend.View[T], r *Room[T]) error {
	k := len(dst.Shape) - 1
	copy(r.shape[:axis], dst.Shape[:axis])
	copy(r.shape[axis:k], dst.Shape[axis+1:])
	copy(r.sa[:axis], dst.Strides[:axis])
	copy(r.sa[axis:k], dst.Strides[axis+1:])
	for i, s := range srcs {
		r.A = backend.View[T]{Data: dst.Data, Off: dst.Off + i*dst.Strides[axis], Shape: r.shape[:k:k], Strides: r.sa[:k:k]}
		if err := c.Copy(&r.A, s); err != nil {
			return err
		}
	}
	return nil
}

// split appends to the pieces of r one axis of dst split in two: the
// inner piece of extent n1 (strides d1 in dst, s1 in src) and the outer
// one of extent n2; pieces of extent 1 are left out.
func (r *Room[T]) split(k, n1, d1, s1, n2, d2, s2 int) int {
	for _, p := range [2][3]int{{n1, d1, s1}, {n2, d2, s2}} {
		if p[0] != 1 {
			r.shape[k], r.sa[k], r.sb[k] = p[0], p[1], p[2]
			k++
		}
	}
	return k
}

// copyPieces copies the k pieces of r: dst and src read through the
// piece strides.
func (r *Room[T]) copyPieces(c backend.Core[T], dst, src *backend.View[T], k int) error {
	r.A = backend.View[T]{Data: dst.Data, Off: dst.Off, Shape: r.shape[:k:k], Strides: r.sa[:k:k]}
	r.B = backend.View[T]{Data: src.Data, Off: src.Off, Shape: r.shape[:k:k], Strides: r.sb[:k:k]}
	return c.Copy(&r.A, &r.B)
}

// Tile sets dst to src repeated along every axis (NumPy's tile): src's
// axes align with dst's last ones, and along axis d, dst[i] = src[i mod m]
// with m src's extent there (1 for dst's leading axes that src lacks).
// Each axis of dst is an inner piece of extent m, read from src, and an
// outer piece of extent dst/m, read with stride 0.
func Tile[T backend.Elem](c backend.Core[T], dst, src *backend.View[T], r *Room[T]) error {
	if op.Count(dst.Shape) == 0 {
		return nil
	}
	lead := len(dst.Shape) - len(src.Shape)
	k := 0
	for d, n := range dst.Shape {
		m, ss := 1, 0
		if s := d - lead; s >= 0 {
			m, ss = src.Shape[s], src.Strides[s]
		}
		k = r.split(k, m, dst.Strides[d], ss, n/m, dst.Strides[d]*m, 0)
	}
	return r.copyPieces(c, dst, src, k)
}

// Repeat sets dst to every element of src repeated times times along axis
// (NumPy's repeat with one count): dst[..., i, ...] = src[..., i div
// times, ...]. The axis of dst is an inner piece of extent times, read
// with stride 0, and an outer one of src's extent.
func Repeat[T backend.Elem](c backend.Core[T], dst, src *backend.View[T], axis, times int, r *Room[T]) error {
	if op.Count(dst.Shape) == 0 {
		return nil
	}
	k := 0
	for d, n := range dst.Shape {
		if d == axis {
			k = r.split(k, times, dst.Strides[d], 0, src.Shape[d], dst.Strides[d]*times, src.Strides[d])
			continue
		}
		k = r.split(k, n, dst.Strides[d], src.Strides[d], 1, 0, 0)
	}
	return r.copyPieces(c, dst, src, k)
}

// diagonal sets r.A to diagonal k of matrix m (k > 0 above the main
// diagonal, k < 0 below), n elements long.
func (r *Room[T]) diagonal(m *backend.View[T], k, n int) *backend.View[T] {
	off := m.Off
	if n > 0 {
		if k >= 0 {
			off += k * m.Strides[1]
		} else {
			off -= k * m.Strides[0]
		}
	}
	r.shape[0], r.sa[0] = n, m.Strides[0]+m.Strides[1]
	r.A = backend.View[T]{Data: m.Data, Off: off, Shape: r.shape[:1:1], Strides: r.sa[:1:1]}
	return &r.A
}

// DiagPart sets the vector dst to diagonal k of the matrix src (NumPy's
// diag of a 2-D array).
func DiagPart[T backend.Elem](c backend.Core[T], dst, src *backend.View[T], k int, r *Room[T]) error {
	return c.Copy(dst, r.diagonal(src, k, dst.Shape[0]))
}

// DiagEmbed sets the matrix dst to zeros with the vector src on diagonal k
// (NumPy's diag of a 1-D array).
func DiagEmbed[T backend.Elem](c backend.Core[T], dst, src *backend.View[T], k int, r *Room[T]) error {
	var zero T
	if err := c.Fill(dst, zero); err != nil {
		return err
	}
	return c.Copy(r.diagonal(dst, k, src.Shape[0]), src)
}
