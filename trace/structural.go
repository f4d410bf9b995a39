package trace

import (
	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/internal/op"
)

// The structural operations: each records the operation of the same name
// in package tenferro (the view methods Squeeze, Unsqueeze, Split and
// SplitAt of tenferro.Tensor; the engine functions for the others), with
// the same rules and errors. Compiled programs realize Squeeze, Unsqueeze
// and Flatten as views where the layout allows, and copy the others.

// Squeeze records tenferro.Tensor.Squeeze: a without the given axes of
// extent 1 (every axis of extent 1 when none are given).
func (t *Trace) Squeeze(a Var, axes ...int) (Var, error) {
	return t.record(op.Squeeze, op.Attrs{Axes: axes}, a)
}

// Unsqueeze records tenferro.Tensor.Unsqueeze: a with new axes of extent 1
// at the given positions of the result.
func (t *Trace) Unsqueeze(a Var, axes ...int) (Var, error) {
	return t.record(op.Unsqueeze, op.Attrs{Axes: axes}, a)
}

// Flatten records tenferro.Flatten: a as one axis of its elements in
// column-major order.
func (t *Trace) Flatten(a Var) (Var, error) { return t.record(op.Flatten, op.Attrs{}, a) }

// Concatenate records tenferro.Concatenate: the operands joined along an
// existing axis.
func (t *Trace) Concatenate(axis int, operands ...Var) (Var, error) {
	return t.record(op.Concatenate, op.Attrs{Axes: []int{axis}}, operands...)
}

// Stack records tenferro.Stack: the operands, of one shape, joined along a
// new axis.
func (t *Trace) Stack(axis int, operands ...Var) (Var, error) {
	return t.record(op.Stack, op.Attrs{Axes: []int{axis}}, operands...)
}

// Split records tenferro.Tensor.Split: n parts of a of equal extent along
// axis, one variable each.
func (t *Trace) Split(a Var, axis, n int) ([]Var, error) {
	const name = "Split"
	if err := t.check(name, "a", a); err != nil {
		return nil, err
	}
	ax, bounds, f := op.SplitEqual(a.shape, axis, n, nil)
	if f != nil {
		return nil, faultError(name, f)
	}
	return t.parts(a, ax, bounds)
}

// SplitAt records tenferro.Tensor.SplitAt: the parts of a between the
// given indices of axis, one variable each.
func (t *Trace) SplitAt(a Var, axis int, indices ...int) ([]Var, error) {
	const name = "SplitAt"
	if err := t.check(name, "a", a); err != nil {
		return nil, err
	}
	ax, bounds, f := op.SplitAtBounds(a.shape, axis, indices, nil)
	if f != nil {
		return nil, faultError(name, f)
	}
	return t.parts(a, ax, bounds)
}

// parts records one Split node per (start, stop) range of bounds.
func (t *Trace) parts(a Var, axis int, bounds []int) ([]Var, error) {
	out := make([]Var, len(bounds)/2)
	for k := range out {
		v, err := t.record(op.Split, op.Attrs{Axes: []int{axis}, Ints: bounds[2*k : 2*k+2]}, a)
		if err != nil {
			return nil, err
		}
		out[k] = v
	}
	return out, nil
}

// Tile records tenferro.Tile: a repeated as a whole reps[d] times along
// axis d (reps and a's shape aligned on their last axes).
func (t *Trace) Tile(a Var, reps ...int) (Var, error) {
	return t.record(op.Tile, op.Attrs{Ints: reps}, a)
}

// Repeat records tenferro.Repeat: every element of a repeated along axis,
// by one count or one count per element.
func (t *Trace) Repeat(a Var, axis int, repeats ...int) (Var, error) {
	return t.record(op.Repeat, op.Attrs{Axes: []int{axis}, Ints: repeats}, a)
}

// Pad records tenferro.Pad: a with widths[d] = {before, after} elements
// added along axis d, filled as mode says. value fills PadConstant pads:
// its real part for real dtypes (which refuse an imaginary part with
// ErrDType), the integer part for int64, value != 0 for bool.
func (t *Trace) Pad(a Var, widths [][2]int, mode tf.PadMode, value complex128) (Var, error) {
	const name = "Pad"
	if err := t.check(name, "a", a); err != nil {
		return Var{}, err
	}
	if !a.dt.IsComplex() && imag(value) != 0 {
		return Var{}, tf.Errorf(tf.ErrDType, name, "value", "a real value for "+a.dt.String(), "%v", value)
	}
	ints := make([]int, 1, 1+2*len(widths))
	ints[0] = int(mode)
	for _, w := range widths {
		ints = append(ints, w[0], w[1])
	}
	return t.record(op.Pad, op.Attrs{Ints: ints, Alpha: value}, a)
}

// Roll records tenferro.Roll: a rotated along axes by shifts.
func (t *Trace) Roll(a Var, shifts, axes []int) (Var, error) {
	return t.record(op.Roll, op.Attrs{Axes: axes, Ints: shifts}, a)
}

// Tril records tenferro.Tril: the elements above diagonal k of every
// matrix (the first two axes) set to zero.
func (t *Trace) Tril(a Var, k int) (Var, error) {
	return t.record(op.Tril, op.Attrs{Ints: []int{k}}, a)
}

// Triu records tenferro.Triu: the elements below diagonal k of every
// matrix (the first two axes) set to zero.
func (t *Trace) Triu(a Var, k int) (Var, error) {
	return t.record(op.Triu, op.Attrs{Ints: []int{k}}, a)
}

// Diag records tenferro.Diag: the square matrix with vector a on diagonal
// k, or diagonal k of matrix a.
func (t *Trace) Diag(a Var, k int) (Var, error) {
	return t.record(op.Diag, op.Attrs{Ints: []int{k}}, a)
}

// Contiguous records tenferro.Contiguous. Values carry no layout in a
// program: this is a copy, and a program's outputs have the strides of
// the caller's tensors (RunInto) or are column-major (Run).
func (t *Trace) Contiguous(a Var, order tf.Order) (Var, error) {
	return t.record(op.Contiguous, op.Attrs{Ints: []int{int(order)}}, a)
}

// Take records tenferro.Take: the slices of a along axis at the positions
// a 1-D int64 index lists.
func (t *Trace) Take(a Var, axis int, index Var) (Var, error) {
	return t.record(op.Take, op.Attrs{Axes: []int{axis}}, a, index)
}

// Gather records tenferro.Gather: the elements of a picked along axis by
// an int64 index of the result's shape.
func (t *Trace) Gather(a Var, axis int, index Var) (Var, error) {
	return t.record(op.Gather, op.Attrs{Axes: []int{axis}}, a, index)
}

// ScatterAdd records tenferro.ScatterAdd: a with src added at the places
// an int64 index gives along axis.
func (t *Trace) ScatterAdd(a Var, axis int, index, src Var) (Var, error) {
	return t.record(op.ScatterAdd, op.Attrs{Axes: []int{axis}}, a, index, src)
}

// MaskedSelect records tenferro.MaskedSelect with a static length: the
// result has size elements, the selected ones (in column-major order of
// the broadcast of a and mask) followed by zeros. A run whose mask selects
// more than size elements fails with ErrShape (see package program).
func (t *Trace) MaskedSelect(a, mask Var, size int) (Var, error) {
	return t.record(op.MaskedSelect, op.Attrs{Ints: []int{size}}, a, mask)
}
