package tenferro

import (
	"strconv"

	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/internal/op"
)

// Shape changes: the views Squeeze, Unsqueeze, Split and SplitAt, and the
// copies Flatten, ReshapeCopy and Contiguous.

// Squeeze returns the view of t without the given axes, which must have
// extent 1 (NumPy's squeeze): any order, negative axes count from the end.
// Without axes it removes every axis of extent 1. No data moves.
func (t *Tensor[T]) Squeeze(axes ...int) (*Tensor[T], error) {
	const name = "Squeeze"
	if err := t.check(name, "a"); err != nil {
		return nil, err
	}
	var buf [MaxRank]int
	out, m, f := op.SqueezeShape(t.v.Shape, axes, buf[:0])
	if f != nil {
		return nil, faultError(name, f)
	}
	v := t.view(len(out))
	copy(v.v.Shape, out)
	k := 0
	for d, s := range t.v.Strides {
		if m&(1<<uint(d)) == 0 {
			v.v.Strides[k] = s
			k++
		}
	}
	return v, nil
}

// Unsqueeze returns the view of t with new axes of extent 1 at the given
// positions of the result (NumPy's expand_dims, PyTorch's unsqueeze): the
// result has rank t.Rank()+len(axes), axes are distinct positions in it
// (negative ones count from its end) and t's axes fill the other
// positions in order. At least one axis is needed. No data moves.
func (t *Tensor[T]) Unsqueeze(axes ...int) (*Tensor[T], error) {
	const name = "Unsqueeze"
	if err := t.check(name, "a"); err != nil {
		return nil, err
	}
	var buf [MaxRank]int
	out, m, f := op.UnsqueezeShape(t.v.Shape, axes, buf[:0])
	if f != nil {
		return nil, faultError(name, f)
	}
	v := t.view(len(out))
	copy(v.v.Shape, out)
	j, s := 0, 1
	for d := range out {
		if m&(1<<uint(d)) == 0 {
			s = t.v.Strides[j]
			j++
		}
		v.v.Strides[d] = s // a new axis repeats its neighbour's stride
	}
	return v, nil
}

// Split returns n views of t that divide axis into n parts of equal
// extent (NumPy's split with a count): part k holds indices
// [k·m, (k+1)·m) of the axis, m = extent/n. n must divide the extent. The
// parts share t's storage.
func (t *Tensor[T]) Split(axis, n int) ([]*Tensor[T], error) {
	const name = "Split"
	if err := t.check(name, "a"); err != nil {
		return nil, err
	}
	ax, bounds, f := op.SplitEqual(t.v.Shape, axis, n, nil)
	if f != nil {
		return nil, faultError(name, f)
	}
	return t.parts(ax, bounds), nil
}

// SplitAt returns the len(indices)+1 views of t between the given indices
// of axis (NumPy's split with a list): t[:i0], t[i0:i1], ..., t[ik:] along
// axis, each bound taken as Python slices take it (a negative index counts
// from the end, an index beyond the extent is clamped, and a section
// whose start lies after its stop is empty). The parts share t's storage.
func (t *Tensor[T]) SplitAt(axis int, indices ...int) ([]*Tensor[T], error) {
	const name = "SplitAt"
	if err := t.check(name, "a"); err != nil {
		return nil, err
	}
	ax, bounds, f := op.SplitAtBounds(t.v.Shape, axis, indices, nil)
	if f != nil {
		return nil, faultError(name, f)
	}
	return t.parts(ax, bounds), nil
}

// parts returns the views of t's ranges (start, stop pairs) along axis.
func (t *Tensor[T]) parts(axis int, bounds []int) []*Tensor[T] {
	out := make([]*Tensor[T], len(bounds)/2)
	for k := range out {
		start, stop := bounds[2*k], bounds[2*k+1]
		v := t.same()
		v.v.Shape[axis] = stop - start
		if stop > start {
			v.v.Off += start * t.v.Strides[axis]
		}
		out[k] = v
	}
	return out
}

// Flatten returns a copy of a as one axis of its elements in column-major
// order (NumPy's flatten, in this library's order), with storage from e's
// buffer pool. a.Reshape(-1) is the view form, when a's strides allow it.
func Flatten[T Elem](e Engine, a *Tensor[T]) (*Tensor[T], error) {
	const name = "Flatten"
	if err := a.check(name, "a"); err != nil {
		return nil, err
	}
	var buf [1]int
	shape, f := op.FlattenShape(a.v.Shape, buf[:0])
	if f != nil {
		return nil, faultError(name, f)
	}
	return reshapeCopy(e, name, a, shape)
}

// FlattenInto is the Into form of [Flatten]: dst is 1-D with a's element
// count and does not overlap a.
func FlattenInto[T Elem](e Engine, dst, a *Tensor[T]) error {
	const name = "FlattenInto"
	if err := a.check(name, "a"); err != nil {
		return err
	}
	var buf [1]int
	shape, f := op.FlattenShape(a.v.Shape, buf[:0])
	if f != nil {
		return faultError(name, f)
	}
	return reshapeCopyInto(e, name, dst, a, shape)
}

// ReshapeCopy returns a with a new shape and the same column-major element
// order, as a new compact tensor with storage from e's buffer pool,
// whatever a's strides: the copying form of the view [Tensor.Reshape],
// which fails with ErrLayout when a's strides cannot express the shape.
// One extent may be -1 (inferred). The result never shares a's storage,
// so releasing it is always right (a result that is sometimes a view of a
// could not be released safely); use Reshape where a view is wanted.
func ReshapeCopy[T Elem](e Engine, a *Tensor[T], shape ...int) (*Tensor[T], error) {
	const name = "ReshapeCopy"
	if err := a.check(name, "a"); err != nil {
		return nil, err
	}
	var buf [MaxRank]int
	out, f := op.ReshapeShape(a.v.Shape, shape, buf[:0])
	if f != nil {
		return nil, faultError(name, f)
	}
	return reshapeCopy(e, name, a, out)
}

// ReshapeCopyInto copies a's elements, in column-major order, to dst in
// column-major order: dst may have any shape with a's element count (and
// any strides with distinct elements) and must not overlap a.
func ReshapeCopyInto[T Elem](e Engine, dst, a *Tensor[T]) error {
	const name = "ReshapeCopyInto"
	if err := a.check(name, "a"); err != nil {
		return err
	}
	if err := dst.check(name, "dst"); err != nil {
		return err
	}
	if dst.Len() != a.Len() {
		return newError(name, "dst", "a shape of "+strconv.Itoa(a.Len())+" elements (a is "+op.FmtInts(a.v.Shape)+")", "shape "+op.FmtInts(dst.v.Shape), ErrShape)
	}
	return reshapeCopyInto(e, name, dst, a, dst.v.Shape)
}

// reshapeCopy copies a into a new compact tensor of shape.
func reshapeCopy[T Elem](e Engine, name string, a *Tensor[T], shape []int) (*Tensor[T], error) {
	return produce(e, name, shape, func(be backend.Engine, out *Tensor[T]) error {
		sc := getScratch[T]()
		defer sc.put()
		core, err := coreOf[T](be, name)
		if err != nil {
			return err
		}
		return linearCopy(be, name, core, out, a, sc)
	})
}

func reshapeCopyInto[T Elem](e Engine, name string, dst, a *Tensor[T], shape []int) error {
	be, ks, err := claimInto(e, name, dst, a, shape)
	if err != nil {
		return err
	}
	defer be.End()
	sc := getScratch[T]()
	defer sc.put()
	return linearCopy(be, name, ks.Core, dst, a, sc)
}

// linearCopy copies src to dst (equal element counts) in column-major
// order: through a view of one at the other's shape when strides allow,
// else through a compact buffer from the pool.
func linearCopy[T Elem](be backend.Engine, name string, core backend.Core[T], dst, src *Tensor[T], sc *scratch[T]) error {
	v := &sc.v[0]
	if st := sc.st[0][:len(src.v.Shape)]; reshapeStrides(dst.v.Shape, dst.v.Strides, src.v.Shape, st) {
		*v = backend.View[T]{Data: dst.v.Data, Off: dst.v.Off, Shape: src.v.Shape, Strides: st}
		return core.Copy(v, src.desc())
	}
	if st := sc.st[0][:len(dst.v.Shape)]; reshapeStrides(src.v.Shape, src.v.Strides, dst.v.Shape, st) {
		*v = backend.View[T]{Data: src.v.Data, Off: src.v.Off, Shape: dst.v.Shape, Strides: st}
		return core.Copy(dst.desc(), v)
	}
	n := src.Len()
	if err := checkBudget(name, n, DTypeOf[T]().Size(), be.MemoryBudget()); err != nil {
		return err
	}
	tmp := core.Alloc(n)
	defer tmp.Release()
	*v = backend.View[T]{Data: tmp.Buf(), Shape: src.v.Shape, Strides: compactStrides(src.v.Shape, sc.st[0][:])}
	if err := core.Copy(v, src.desc()); err != nil {
		return err
	}
	w := &sc.v[1]
	*w = backend.View[T]{Data: tmp.Buf(), Shape: dst.v.Shape, Strides: compactStrides(dst.v.Shape, sc.st[1][:])}
	return core.Copy(dst.desc(), w)
}

// Order is a storage order of a compact tensor.
type Order uint8

// The storage orders.
const (
	// ColumnMajor: the first index fastest (Fortran order), the layout of
	// every tensor this library makes.
	ColumnMajor Order = iota
	// RowMajor: the last index fastest (C order, NumPy's default).
	RowMajor
)

// Contiguous returns a copy of a with the same logical shape and elements,
// stored compact in the given order, with storage from e's buffer pool:
// ColumnMajor gives what Copy gives; RowMajor gives strides that fall from
// the first axis to the last (the last axis has stride 1), so that
// Storage()[Offset():Offset()+Len()] lists the elements in C order, as
// NumPy's ascontiguousarray does. Data refuses a row-major result of rank
// >= 2 (it is not column-major) with ErrLayout. The result is always a new
// tensor, even when a already has the order.
func Contiguous[T Elem](e Engine, a *Tensor[T], order Order) (*Tensor[T], error) {
	const name = "Contiguous"
	if err := a.check(name, "a"); err != nil {
		return nil, err
	}
	if f := op.ContiguousOrder(int(order)); f != nil {
		return nil, faultError(name, f)
	}
	if f := op.UnaryShape(a.v.Shape); f != nil {
		return nil, faultError(name, f)
	}
	return produce(e, name, a.v.Shape, func(be backend.Engine, out *Tensor[T]) error {
		core, err := coreOf[T](be, name)
		if err != nil {
			return err
		}
		if order == RowMajor {
			s := 1
			for d := len(out.v.Shape) - 1; d >= 0; d-- {
				out.v.Strides[d] = s
				s *= out.v.Shape[d]
			}
		}
		return core.Copy(out.desc(), a.desc())
	})
}
