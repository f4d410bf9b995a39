package tenferro

import (
	"fmt"

	"github.com/tenferro-go/tenferro/internal/op"
)

// Views share t's storage and change only shape, strides and offset.
// Axes may be negative everywhere (-1 is the last axis), as in NumPy.

// view returns a header of rank r sharing t's storage and generation.
func (t *Tensor[T]) view(r int) *Tensor[T] {
	v := newHeader(t.st, r)
	v.gen = t.gen
	v.v.Off = t.v.Off
	return v
}

// same returns a view of t with the same shape and strides.
func (t *Tensor[T]) same() *Tensor[T] {
	v := t.view(len(t.v.Shape))
	copy(v.v.Shape, t.v.Shape)
	copy(v.v.Strides, t.v.Strides)
	return v
}

// Permute returns the view whose axis d is axis perm[d] of t (NumPy's
// transpose(perm)). No data moves.
func (t *Tensor[T]) Permute(perm ...int) (*Tensor[T], error) {
	const name = "Permute"
	if err := t.check(name, "t"); err != nil {
		return nil, err
	}
	var norm, buf [MaxRank]int
	if len(perm) > MaxRank {
		return nil, faultError(name, &op.Fault{Arg: "perm", Expected: fmt.Sprintf("a permutation of %d axes", t.Rank()), Actual: op.FmtInts(perm), Kind: ErrShape})
	}
	if _, f := op.PermuteShape(t.v.Shape, perm, norm[:len(perm)], buf[:0]); f != nil {
		return nil, faultError(name, f)
	}
	v := t.view(len(perm))
	for d, p := range norm[:len(perm)] {
		v.v.Shape[d] = t.v.Shape[p]
		v.v.Strides[d] = t.v.Strides[p]
	}
	return v, nil
}

// Transpose returns the view with the axis order reversed (for a matrix,
// the transpose Aᵀ: element (j, i) of the view is element (i, j) of t).
func (t *Tensor[T]) Transpose() (*Tensor[T], error) {
	if err := t.check("Transpose", "t"); err != nil {
		return nil, err
	}
	r := len(t.v.Shape)
	v := t.view(r)
	for d := 0; d < r; d++ {
		v.v.Shape[d] = t.v.Shape[r-1-d]
		v.v.Strides[d] = t.v.Strides[r-1-d]
	}
	return v, nil
}

// Slice returns the view of axis `axis` restricted to indices start,
// start+step, ... below stop (step > 0) or above stop (step < 0): Python's
// start:stop:step, with out-of-range bounds clamped as Python clamps them
// (so any start and stop are valid, math.MaxInt and math.MinInt included),
// except that negative bounds are not counted from the end: they lie
// before index 0. Slice(axis, 0, n, 1) is the whole axis and
// Slice(axis, n-1, -1, -1) the whole axis reversed. A zero step is an
// error.
func (t *Tensor[T]) Slice(axis, start, stop, step int) (*Tensor[T], error) {
	const name = "Slice"
	if err := t.check(name, "t"); err != nil {
		return nil, err
	}
	axis, f := op.Axis("axis", axis, len(t.v.Shape))
	if f != nil {
		return nil, faultError(name, f)
	}
	if step == 0 {
		return nil, newError(name, "step", "a non-zero step", "0", ErrArgument)
	}
	n := t.v.Shape[axis]
	count := sliceCount(n, &start, &stop, step)
	v := t.same()
	v.v.Shape[axis] = count
	if count > 1 {
		v.v.Strides[axis] = t.v.Strides[axis] * step
	}
	if count > 0 {
		v.v.Off += start * t.v.Strides[axis]
	}
	return v, nil
}

// sliceCount clamps start and stop to the axis (extent n) as Python does
// for step's sign and returns the number of indices taken. Every
// intermediate value lies in [-1, n], so nothing overflows.
func sliceCount(n int, start, stop *int, step int) int {
	lo, hi := 0, n // positive steps: bounds in [0, n]
	if step < 0 {
		lo, hi = -1, n-1
	}
	*start, *stop = min(max(*start, lo), hi), min(max(*stop, lo), hi)
	if step > 0 {
		if *stop <= *start {
			return 0
		}
		return (*stop-*start-1)/min(step, n) + 1
	}
	if *start <= *stop {
		return 0
	}
	return (*start-*stop-1)/(-max(step, -n-1)) + 1
}

// Reverse returns the view with axis `axis` in reverse order (negative
// stride).
func (t *Tensor[T]) Reverse(axis int) (*Tensor[T], error) {
	const name = "Reverse"
	if err := t.check(name, "t"); err != nil {
		return nil, err
	}
	axis, f := op.Axis("axis", axis, len(t.v.Shape))
	if f != nil {
		return nil, faultError(name, f)
	}
	if t.v.Shape[axis] == 0 {
		return t.same(), nil
	}
	return t.Slice(axis, t.v.Shape[axis]-1, -1, -1)
}

// Diagonal returns the view of elements whose indices on axes a1 and a2 are
// equal. Both axes are removed and the diagonal becomes the last axis, of
// extent min(shape[a1], shape[a2]) (NumPy's diagonal with offset 0).
func (t *Tensor[T]) Diagonal(a1, a2 int) (*Tensor[T], error) {
	const name = "Diagonal"
	if err := t.check(name, "t"); err != nil {
		return nil, err
	}
	r := len(t.v.Shape)
	a1, f1 := op.Axis("axes", a1, r)
	a2, f2 := op.Axis("axes", a2, r)
	if f1 != nil || f2 != nil || a1 == a2 {
		return nil, newError(name, "axes", fmt.Sprintf("two distinct axes in [-%d, %d)", r, r), fmt.Sprintf("%d, %d", a1, a2), ErrArgument)
	}
	v := t.view(r - 1)
	k := 0
	for d := 0; d < r; d++ {
		if d == a1 || d == a2 {
			continue
		}
		v.v.Shape[k], v.v.Strides[k] = t.v.Shape[d], t.v.Strides[d]
		k++
	}
	v.v.Shape[k] = min(t.v.Shape[a1], t.v.Shape[a2])
	v.v.Strides[k] = t.v.Strides[a1] + t.v.Strides[a2]
	return v, nil
}

// Broadcast returns the view of t stretched to shape, as NumPy's
// broadcast_to: t's axes align with the last t.Rank() axes of shape, an
// axis of extent 1 stretches to any extent with stride 0, and leading new
// axes get stride 0 (see Broadcasting in the package documentation).
// Writing through a broadcast view writes shared elements.
func (t *Tensor[T]) Broadcast(shape ...int) (*Tensor[T], error) {
	const name = "Broadcast"
	if err := t.check(name, "t"); err != nil {
		return nil, err
	}
	if _, err := checkShape(name, shape); err != nil {
		return nil, err
	}
	if len(shape) < len(t.v.Shape) {
		return nil, newError(name, "shape", fmt.Sprintf("rank >= %d", len(t.v.Shape)), fmt.Sprint(shape), ErrShape)
	}
	lead := len(shape) - len(t.v.Shape)
	v := t.view(len(shape))
	for d, n := range shape {
		s := d - lead
		switch {
		case s < 0:
			v.v.Shape[d], v.v.Strides[d] = n, 0
		case t.v.Shape[s] == n:
			v.v.Shape[d], v.v.Strides[d] = n, t.v.Strides[s]
		case t.v.Shape[s] == 1:
			v.v.Shape[d], v.v.Strides[d] = n, 0
		default:
			return nil, newError(name, "shape", fmt.Sprintf("extent %d or 1 at axis %d", n, d), fmt.Sprintf("%d (tensor shape %v, aligned on the last axis)", t.v.Shape[s], t.v.Shape), ErrShape)
		}
	}
	return v, nil
}

// Reshape returns a view of t with a new shape and the same column-major
// element order, without copying. One extent may be -1 (inferred). It fails
// with ErrLayout when t's strides cannot express the new shape (reshape a
// Copy instead) and ErrShape when the element counts differ.
func (t *Tensor[T]) Reshape(shape ...int) (*Tensor[T], error) {
	const name = "Reshape"
	if err := t.check(name, "t"); err != nil {
		return nil, err
	}
	var buf [MaxRank]int
	out, f := op.ReshapeShape(t.v.Shape, shape, buf[:0])
	if f != nil {
		return nil, faultError(name, f)
	}
	v := t.view(len(out))
	copy(v.v.Shape, out)
	if !reshapeStrides(t.v.Shape, t.v.Strides, out, v.v.Strides) {
		return nil, newError(name, "t", fmt.Sprintf("strides that can be viewed as shape %v", out), fmt.Sprintf("shape %v strides %v", t.v.Shape, t.v.Strides), ErrLayout)
	}
	return v, nil
}

// reshapeStrides computes column-major strides for newShape over a view
// with (shape, strides), writing them to out, and reports whether it is
// possible without a copy. Axes are grouped into runs whose element counts
// match; each old run must be contiguous in column-major sense.
func reshapeStrides(shape, strides, newShape, out []int) bool {
	if Numel(shape) == 0 {
		s := 1
		for d, e := range newShape {
			out[d] = s
			s *= max(e, 1)
		}
		return true
	}
	// Drop extent-1 axes of the old view; they carry no layout.
	var osBuf, ostBuf [MaxRank]int
	os, ost := osBuf[:0], ostBuf[:0]
	for d, e := range shape {
		if e != 1 {
			os = append(os, e)
			ost = append(ost, strides[d])
		}
	}
	i, j := 0, 0
	for j < len(newShape) || i < len(os) {
		if j < len(newShape) && newShape[j] == 1 {
			// Any stride works; keep it tidy.
			if i < len(os) {
				out[j] = ost[i]
			} else {
				out[j] = 1
			}
			j++
			continue
		}
		if i >= len(os) || j >= len(newShape) {
			return false
		}
		// Grow a group until both sides have the same element count.
		i0, j0 := i, j
		po, pn := os[i], newShape[j]
		i++
		j++
		for po != pn {
			if po < pn {
				if i >= len(os) {
					return false
				}
				po *= os[i]
				i++
			} else {
				if j >= len(newShape) {
					return false
				}
				if newShape[j] != 1 {
					pn *= newShape[j]
				}
				j++
			}
		}
		// The old run must be column-major contiguous.
		for k := i0 + 1; k < i; k++ {
			if ost[k] != ost[k-1]*os[k-1] {
				return false
			}
		}
		s := ost[i0]
		for k := j0; k < j; k++ {
			out[k] = s
			s *= newShape[k]
		}
	}
	return true
}
