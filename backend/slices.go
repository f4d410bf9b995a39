package backend

import "github.com/tenferro-go/tenferro/einsum"

// SlicedContraction is implemented by the contraction kernels of an engine
// that evaluates the slices of a sliced plan itself, for example several
// slices at once on different workers:
//
//	dst = alpha·Σ_{lo <= s < hi} slice_s(operands) + beta·dst
//
// (with output labels sliced, each slice in its part of dst, and the parts
// no slice of the range writes left as they are, as [EachSlice] does);
// operands are views of the whole operands (sp.Problem's shapes);
// 0 <= lo < hi <= sp.Slices. An engine without it gets the slices one
// after another through Contraction.Einsum, each positioned by a
// [SliceCursor].
type SlicedContraction[T Elem] interface {
	// SliceWorkers is the most slices the engine evaluates at once, which
	// plans may be made for (einsum.Options.Workers).
	SliceWorkers() int
	EinsumSlices(dst *View[T], sp *einsum.SlicedPlan, operands []*View[T], lo, hi int, alpha, beta T) error
}

// SliceCursor positions views of a sliced contraction's operands on one
// slice at a time. Slice s of operand k is a view with the shape of
// operand k of the slice's plan (Plan: sp.Plan, or sp.Tail for a slice
// that takes a shorter last chunk), the operand's storage and strides,
// and the offset
//
//	Off_k + Σ_j idx_j · c_kj,
//
// where idx = sp.SliceIndex(s) and c_kj is sp.Widths[j] times the sum of
// operand k's strides over the axes that carry sliced label j (broadcast
// axes excluded). Moving
// to the next slice only changes offsets, so a cursor reset once walks any
// number of slices without allocating. A cursor is used by one goroutine.
type SliceCursor[T Elem] struct {
	sp     *einsum.SlicedPlan
	plan   *einsum.Plan // the current slice's plan
	views  []View[T]
	ptrs   []*View[T]
	base   []int     // operand offsets
	coef   []int     // coef[k*m+j]: offset per unit of sliced label j in operand k
	idx    []int     // the current slice's values of the sliced labels
	part   []View[T] // one view: Dst's result (a slice, so that a cursor on the stack stays there)
	pshape []int     // the shape of part[0]
}

// Reset points the cursor at operands (views of sp.Problem's shapes) and
// at slice 0. It reuses the cursor's memory.
func (c *SliceCursor[T]) Reset(sp *einsum.SlicedPlan, operands []*View[T]) {
	n, m := len(operands), len(sp.Labels)
	c.sp = sp
	c.views = resize(c.views, n)
	c.ptrs = resize(c.ptrs, n)
	c.base = resize(c.base, n)
	c.coef = resize(c.coef, n*m)
	c.idx = resize(c.idx, m)
	clear(c.coef)
	clear(c.idx)
	full := sp.Problem
	for k, t := range operands {
		c.views[k] = View[T]{Data: t.Data, Strides: t.Strides}
		c.ptrs[k] = &c.views[k]
		c.base[k] = t.Off
		for a, l := range full.Inputs[k] {
			if full.Broadcast[k][a] {
				continue // a stretched axis of extent 1 stays at 0
			}
			for j, s := range sp.Labels {
				if s == l {
					c.coef[k*m+j] += sp.Widths[j] * t.Strides[a]
				}
			}
		}
	}
	c.place()
}

// Seek moves the cursor to slice s (0 <= s < sp.Slices).
func (c *SliceCursor[T]) Seek(s int) {
	c.sp.SliceIndex(s, c.idx)
	c.place()
}

// Next moves the cursor to the following slice (the first sliced label
// varies fastest), wrapping to slice 0 after the last.
func (c *SliceCursor[T]) Next() {
	for j := range c.idx {
		if c.idx[j]++; c.idx[j] < c.sp.Chunks(j) {
			break
		}
		c.idx[j] = 0
	}
	c.place()
}

// Dst returns the part of dst (a view of the whole output, of
// sp.Problem's output shape) that the current slice writes: dst itself
// when no output label is sliced, else a view of dst's storage with the
// output shape of the slice's plan, offset along the axis of each sliced
// output label j by idx_j·Widths[j]. The view belongs to the cursor, like
// Views'.
func (c *SliceCursor[T]) Dst(dst *View[T]) *View[T] {
	sp := c.sp
	if sp.Summed == len(sp.Labels) {
		return dst
	}
	out := c.plan.Problem
	c.pshape = resize(c.pshape, len(out.Output))
	off := dst.Off
	for a, l := range out.Output {
		c.pshape[a] = out.Extents[l]
		for j := sp.Summed; j < len(sp.Labels); j++ {
			if sp.Labels[j] == l {
				off += c.idx[j] * sp.Widths[j] * dst.Strides[a]
			}
		}
	}
	c.part = resize(c.part, 1)
	c.part[0] = View[T]{Data: dst.Data, Shape: c.pshape, Strides: dst.Strides, Off: off}
	return &c.part[0]
}

// Views returns the operands of the current slice. The slice and its
// views belong to the cursor; they change with Seek, Next and Reset.
func (c *SliceCursor[T]) Views() []*View[T] { return c.ptrs }

// Plan returns the plan that contracts the current slice's views.
func (c *SliceCursor[T]) Plan() *einsum.Plan { return c.plan }

// Release drops the cursor's references to the operands' storage.
func (c *SliceCursor[T]) Release() {
	clear(c.views)
	clear(c.ptrs)
	clear(c.part)
}

func (c *SliceCursor[T]) place() {
	m := len(c.idx)
	c.plan = c.sp.PlanOf(c.idx)
	for k := range c.views {
		c.views[k].Shape = c.plan.Problem.Shapes[k]
		off := c.base[k]
		for j, v := range c.idx {
			off += v * c.coef[k*m+j]
		}
		c.views[k].Off = off
	}
}

func resize[E any](s []E, n int) []E {
	if cap(s) < n {
		return make([]E, n)
	}
	return s[:n]
}

// EinsumSliced evaluates slices lo..hi-1 of sp into dst,
//
//	dst = alpha·Σ_{lo <= s < hi} slice_s(operands) + beta·dst,
//
// through k's own EinsumSlices when k is a [SlicedContraction], and
// otherwise one slice after another through k.Einsum ([EachSlice]).
// operands are views of the whole operands (sp.Problem's shapes). c is
// reset here; a cursor kept by the caller makes repeated calls allocate
// nothing.
func EinsumSliced[T Number](k Contraction[T], c *SliceCursor[T], dst *View[T], sp *einsum.SlicedPlan, operands []*View[T], lo, hi int, alpha, beta T) error {
	if sc, ok := k.(SlicedContraction[T]); ok {
		return sc.EinsumSlices(dst, sp, operands, lo, hi, alpha, beta)
	}
	return EachSlice(k.Einsum, c, dst, sp, operands, lo, hi, alpha, beta)
}

// EachSlice contracts slices lo..hi-1 of sp one after another with
// contract, each positioned by c, into its part of dst (SliceCursor.Dst):
// the first slice of the range that writes a part scales it by beta and
// the others add with beta 1, so dst = alpha·Σ slices + beta·dst. With
// output labels sliced, the parts of dst that no slice of the range writes
// are left as they are (a range of all the slices writes every part).
// c is reset here and released at the end.
func EachSlice[T Number](contract func(dst *View[T], plan *einsum.Plan, operands []*View[T], alpha, beta T) error, c *SliceCursor[T], dst *View[T], sp *einsum.SlicedPlan, operands []*View[T], lo, hi int, alpha, beta T) error {
	c.Reset(sp, operands)
	defer c.Release()
	c.Seek(lo)
	per := sp.PartSlices()
	for s := lo; s < hi; s++ {
		b := beta
		if s > lo {
			c.Next()
			if s%per != 0 {
				b = 1
			}
		}
		if err := contract(c.Dst(dst), c.Plan(), c.Views(), alpha, b); err != nil {
			return err
		}
	}
	return nil
}
