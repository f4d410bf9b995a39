package tenferro

import "fmt"

// view returns a header of rank r sharing t's storage and generation.
func (t *Tensor[T]) view(r int) *Tensor[T] {
	v := newHeader(t.st, r)
	v.gen = t.gen
	v.off = t.off
	return v
}

// Permute returns the view whose axis d is axis perm[d] of t (NumPy's
// transpose(perm)). No data moves.
func (t *Tensor[T]) Permute(perm ...int) (*Tensor[T], error) {
	if err := t.check("Permute", "t"); err != nil {
		return nil, err
	}
	if err := checkPerm("Permute", perm, len(t.shape)); err != nil {
		return nil, err
	}
	v := t.view(len(perm))
	for d, p := range perm {
		v.shape[d] = t.shape[p]
		v.strides[d] = t.strides[p]
	}
	return v, nil
}

func checkPerm(op string, perm []int, r int) error {
	if len(perm) != r {
		return newError(op, "perm", fmt.Sprintf("a permutation of %d axes", r), fmt.Sprintf("%v", perm), ErrShape)
	}
	var seen uint64
	var seenBig map[int]bool
	for _, p := range perm {
		if p < 0 || p >= r {
			return newError(op, "perm", fmt.Sprintf("a permutation of %d axes", r), fmt.Sprintf("%v", perm), ErrArgument)
		}
		if r <= 64 {
			if seen&(1<<p) != 0 {
				return newError(op, "perm", fmt.Sprintf("a permutation of %d axes", r), fmt.Sprintf("%v (repeats %d)", perm, p), ErrArgument)
			}
			seen |= 1 << p
			continue
		}
		if seenBig == nil {
			seenBig = map[int]bool{}
		}
		if seenBig[p] {
			return newError(op, "perm", fmt.Sprintf("a permutation of %d axes", r), fmt.Sprintf("%v (repeats %d)", perm, p), ErrArgument)
		}
		seenBig[p] = true
	}
	return nil
}

// Transpose returns the view with the axis order reversed (for a matrix,
// the transpose Aᵀ: element (j, i) of the view is element (i, j) of t).
func (t *Tensor[T]) Transpose() (*Tensor[T], error) {
	if err := t.check("Transpose", "t"); err != nil {
		return nil, err
	}
	r := len(t.shape)
	v := t.view(r)
	for d := 0; d < r; d++ {
		v.shape[d] = t.shape[r-1-d]
		v.strides[d] = t.strides[r-1-d]
	}
	return v, nil
}

// Slice returns the view of axis `axis` restricted to indices start,
// start+step, ... below stop (step > 0) or above stop (step < 0), like
// Python's start:stop:step with explicit bounds. 0 <= start <= extent is
// required for positive steps, and -1 <= stop <= start < extent for
// negative ones.
func (t *Tensor[T]) Slice(axis, start, stop, step int) (*Tensor[T], error) {
	if err := t.check("Slice", "t"); err != nil {
		return nil, err
	}
	if axis < 0 || axis >= len(t.shape) {
		return nil, newError("Slice", "axis", fmt.Sprintf("0 <= axis < %d", len(t.shape)), fmt.Sprint(axis), ErrArgument)
	}
	n := t.shape[axis]
	var count int
	switch {
	case step > 0:
		if start < 0 || stop < start || stop > n {
			return nil, newError("Slice", "range", fmt.Sprintf("0 <= start <= stop <= %d", n), fmt.Sprintf("%d:%d", start, stop), ErrArgument)
		}
		count = (stop - start + step - 1) / step
	case step < 0:
		if start >= n || stop < -1 || stop > start {
			return nil, newError("Slice", "range", fmt.Sprintf("-1 <= stop <= start < %d", n), fmt.Sprintf("%d:%d", start, stop), ErrArgument)
		}
		count = (start - stop + (-step) - 1) / (-step)
	default:
		return nil, newError("Slice", "step", "a non-zero step", "0", ErrArgument)
	}
	v := t.view(len(t.shape))
	copy(v.shape, t.shape)
	copy(v.strides, t.strides)
	v.shape[axis] = count
	v.strides[axis] = t.strides[axis] * step
	if count > 0 {
		v.off += start * t.strides[axis]
	}
	return v, nil
}

// Reverse returns the view with axis `axis` in reverse order (negative
// stride).
func (t *Tensor[T]) Reverse(axis int) (*Tensor[T], error) {
	if err := t.check("Reverse", "t"); err != nil {
		return nil, err
	}
	if axis < 0 || axis >= len(t.shape) {
		return nil, newError("Reverse", "axis", fmt.Sprintf("0 <= axis < %d", len(t.shape)), fmt.Sprint(axis), ErrArgument)
	}
	if t.shape[axis] == 0 {
		return t.view0()
	}
	return t.Slice(axis, t.shape[axis]-1, -1, -1)
}

func (t *Tensor[T]) view0() (*Tensor[T], error) {
	v := t.view(len(t.shape))
	copy(v.shape, t.shape)
	copy(v.strides, t.strides)
	return v, nil
}

// Diagonal returns the view of elements whose indices on axes a1 and a2 are
// equal. Both axes are removed and the diagonal becomes the last axis, of
// extent min(shape[a1], shape[a2]) (NumPy's diagonal with offset 0).
func (t *Tensor[T]) Diagonal(a1, a2 int) (*Tensor[T], error) {
	if err := t.check("Diagonal", "t"); err != nil {
		return nil, err
	}
	r := len(t.shape)
	if a1 < 0 || a1 >= r || a2 < 0 || a2 >= r || a1 == a2 {
		return nil, newError("Diagonal", "axes", fmt.Sprintf("two distinct axes in [0, %d)", r), fmt.Sprintf("%d, %d", a1, a2), ErrArgument)
	}
	v := t.view(r - 1)
	k := 0
	for d := 0; d < r; d++ {
		if d == a1 || d == a2 {
			continue
		}
		v.shape[k], v.strides[k] = t.shape[d], t.strides[d]
		k++
	}
	v.shape[k] = min(t.shape[a1], t.shape[a2])
	v.strides[k] = t.strides[a1] + t.strides[a2]
	return v, nil
}

// Broadcast returns the view of t stretched to shape: t's axes align with
// the first t.Rank() axes of shape (column-major, batch axes last), an axis
// of extent 1 stretches to any extent with stride 0, and trailing new axes
// get stride 0. Writing through a broadcast view writes shared elements.
func (t *Tensor[T]) Broadcast(shape ...int) (*Tensor[T], error) {
	if err := t.check("Broadcast", "t"); err != nil {
		return nil, err
	}
	if _, err := checkShape("Broadcast", shape); err != nil {
		return nil, err
	}
	if len(shape) < len(t.shape) {
		return nil, newError("Broadcast", "shape", fmt.Sprintf("rank >= %d", len(t.shape)), fmt.Sprint(shape), ErrShape)
	}
	v := t.view(len(shape))
	for d, n := range shape {
		switch {
		case d >= len(t.shape):
			v.shape[d], v.strides[d] = n, 0
		case t.shape[d] == n:
			v.shape[d], v.strides[d] = n, t.strides[d]
		case t.shape[d] == 1:
			v.shape[d], v.strides[d] = n, 0
		default:
			return nil, newError("Broadcast", "shape", fmt.Sprintf("extent %d or 1 at axis %d", n, d), fmt.Sprintf("%d (tensor shape %v)", t.shape[d], t.shape), ErrShape)
		}
	}
	return v, nil
}

// Reshape returns a view of t with a new shape and the same column-major
// element order, without copying. One extent may be -1 (inferred). It fails
// with ErrLayout when t's strides cannot express the new shape (reshape a
// Contiguous copy instead) and ErrShape when the element counts differ.
func (t *Tensor[T]) Reshape(shape ...int) (*Tensor[T], error) {
	if err := t.check("Reshape", "t"); err != nil {
		return nil, err
	}
	n := t.Len()
	shape, err := inferShape(shape, n)
	if err != nil {
		return nil, err
	}
	v := t.view(len(shape))
	copy(v.shape, shape)
	if !reshapeStrides(t.shape, t.strides, shape, v.strides) {
		return nil, newError("Reshape", "t", fmt.Sprintf("strides that can be viewed as shape %v", shape), fmt.Sprintf("shape %v strides %v", t.shape, t.strides), ErrLayout)
	}
	return v, nil
}

func inferShape(shape []int, n int) ([]int, error) {
	infer := -1
	known := 1
	for d, e := range shape {
		switch {
		case e == -1 && infer < 0:
			infer = d
		case e < 0:
			return nil, newError("Reshape", "shape", "non-negative extents and at most one -1", fmt.Sprint(shape), ErrShape)
		default:
			known *= e
		}
	}
	if infer >= 0 {
		if known == 0 || n%known != 0 {
			return nil, newError("Reshape", "shape", fmt.Sprintf("a shape of %d elements", n), fmt.Sprint(shape), ErrShape)
		}
		s := append([]int(nil), shape...)
		s[infer] = n / known
		return s, nil
	}
	if _, err := checkShape("Reshape", shape); err != nil {
		return nil, err
	}
	if known != n {
		return nil, newError("Reshape", "shape", fmt.Sprintf("a shape of %d elements", n), fmt.Sprintf("%v (%d elements)", shape, known), ErrShape)
	}
	return shape, nil
}

// reshapeStrides computes column-major strides for newShape over a view
// with (shape, strides), writing them to out, and reports whether it is
// possible without a copy. Axes are grouped into runs whose element counts
// match; each old run must be contiguous in column-major sense.
func reshapeStrides(shape, strides, newShape, out []int) bool {
	// Drop extent-1 axes of the old view; they carry no layout.
	if Numel(shape) == 0 {
		s := 1
		for d, e := range newShape {
			out[d] = s
			s *= max(e, 1)
		}
		return true
	}
	var os, ost []int
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
