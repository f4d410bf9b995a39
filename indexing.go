package tenferro

import (
	"errors"
	"fmt"

	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/internal/op"
)

// The indexing operations: Take, Gather, ScatterAdd and MaskedSelect.
//
// Index tensors are int64. A value v addresses element v of an axis of
// extent n when 0 <= v < n and element n+v when -n <= v < 0 (NumPy's
// take); any other value is an ErrArgument error naming its position in
// the index tensor, reported before anything is written.

// indexError turns an engine's *backend.IndexError into the error of
// operation name, naming the value's position in index.
func indexError(name string, index *Tensor[int64], err error) error {
	if err == nil {
		return nil
	}
	var ie *backend.IndexError
	if !errors.As(err, &ie) {
		return err
	}
	pos := make([]int, index.Rank())
	p := ie.At
	for d, n := range index.v.Shape {
		pos[d] = p % n
		p /= n
	}
	return newError(name, "index", fmt.Sprintf("values in [-%d, %d) (the extent of the indexed axis)", ie.Extent, ie.Extent),
		fmt.Sprintf("%d at %v", ie.Value, pos), ErrArgument)
}

// indexKernels returns be's index kernels for T, or an ErrUnsupported
// error.
// claimIndex claims e for operation name and returns its index kernels
// for T; the caller ends the claim (claimIndex ends it itself when it
// fails).
func claimIndex[T Elem](e Engine, name string) (backend.Engine, backend.Index[T], error) {
	be, err := begin(e, name)
	if err != nil {
		return nil, nil, err
	}
	ix, err := indexKernels[T](be, name)
	if err != nil {
		be.End()
		return nil, nil, err
	}
	return be, ix, nil
}

func indexKernels[T Elem](be backend.Engine, name string) (backend.Index[T], error) {
	if ks := backend.KernelsOf[T](be); ks != nil && ks.Index != nil {
		return ks.Index, nil
	}
	return nil, unsupported[T](name, "index kernels")
}

// checkIndexDst applies the destination rule with the value inputs ins
// and, when T is int64 (or bool), the index (or mask) second too; names
// are the arguments' names, second's last.
func checkIndexDst[T Elem, I Elem](name string, dst *Tensor[T], shape []int, names []string, second *Tensor[I], ins ...*Tensor[T]) error {
	s, ok := any(second).(*Tensor[T])
	if !ok {
		return checkDst(name, false, dst, shape, names, ins...)
	}
	var all [3]*Tensor[T]
	n := copy(all[:], ins)
	all[n] = s
	return checkDst(name, false, dst, shape, names, all[:n+1]...)
}

// takeShape validates the operands of Take (gather false) or Gather.
func takeShape[T Elem](name string, gather bool, a *Tensor[T], axis int, index *Tensor[int64], buf []int) (int, []int, error) {
	if err := a.check(name, "a"); err != nil {
		return 0, nil, err
	}
	if err := index.check(name, "index"); err != nil {
		return 0, nil, err
	}
	var ax int
	var shape []int
	var f *op.Fault
	if gather {
		ax, shape, f = op.GatherShape(a.v.Shape, axis, index.v.Shape, buf)
	} else {
		ax, shape, f = op.TakeShape(a.v.Shape, axis, index.v.Shape, buf)
	}
	if f != nil {
		return 0, nil, faultError(name, f)
	}
	return ax, shape, nil
}

func runTake[T Elem](ix backend.Index[T], gather bool, dst, a *Tensor[T], axis int, index *Tensor[int64]) error {
	if gather {
		return ix.Gather(dst.desc(), a.desc(), axis, index.desc())
	}
	return ix.Take(dst.desc(), a.desc(), axis, index.desc())
}

func take[T Elem](e Engine, kind op.Kind, a *Tensor[T], axis int, index *Tensor[int64]) (*Tensor[T], error) {
	name := kind.Info().Name
	var buf [MaxRank]int
	ax, shape, err := takeShape(name, kind == op.Gather, a, axis, index, buf[:0])
	if err != nil {
		return nil, err
	}
	return produce(e, name, shape, func(be backend.Engine, out *Tensor[T]) error {
		ix, err := indexKernels[T](be, name)
		if err != nil {
			return err
		}
		return indexError(name, index, runTake(ix, kind == op.Gather, out, a, ax, index))
	})
}

func takeInto[T Elem](e Engine, kind op.Kind, dst, a *Tensor[T], axis int, index *Tensor[int64]) error {
	name := kind.Info().Into
	var buf [MaxRank]int
	ax, shape, err := takeShape(name, kind == op.Gather, a, axis, index, buf[:0])
	if err != nil {
		return err
	}
	if err := checkIndexDst(name, dst, shape, []string{"a", "index"}, index, a); err != nil {
		return err
	}
	be, ix, err := claimIndex[T](e, name)
	if err != nil {
		return err
	}
	defer be.End()
	return indexError(name, index, runTake(ix, kind == op.Gather, dst, a, ax, index))
}

// Take returns the slices of a along axis at the positions index lists
// (NumPy's take with an axis, PyTorch's index_select): index is a 1-D
// int64 tensor (negative values count from the end) whose length becomes
// the extent of axis, and result[..., i, ...] = a[..., index[i], ...].
// Positions may repeat. Any dtype. The result's storage comes from e's
// buffer pool.
func Take[T Elem](e Engine, a *Tensor[T], axis int, index *Tensor[int64]) (*Tensor[T], error) {
	return take(e, op.Take, a, axis, index)
}

// TakeInto is the Into form of [Take]: dst has the result's shape and
// overlaps neither a nor index.
func TakeInto[T Elem](e Engine, dst, a *Tensor[T], axis int, index *Tensor[int64]) error {
	return takeInto(e, op.Take, dst, a, axis, index)
}

// Gather returns the elements of a picked along axis by index (PyTorch's
// gather, NumPy's take_along_axis): index is an int64 tensor of a's rank,
// at most a's extent on every other axis, and the result has index's
// shape with result[i] = a[i with its coordinate along axis replaced by
// index[i]] (negative values count from the end). Any dtype. The result's
// storage comes from e's buffer pool.
func Gather[T Elem](e Engine, a *Tensor[T], axis int, index *Tensor[int64]) (*Tensor[T], error) {
	return take(e, op.Gather, a, axis, index)
}

// GatherInto is the Into form of [Gather]: dst has index's shape and
// overlaps neither a nor index.
func GatherInto[T Elem](e Engine, dst, a *Tensor[T], axis int, index *Tensor[int64]) error {
	return takeInto(e, op.Gather, dst, a, axis, index)
}

// scatterShape validates the operands of ScatterAdd.
func scatterShape[T Scalar | int64](name string, a *Tensor[T], axis int, index *Tensor[int64], src *Tensor[T], buf []int) (int, []int, error) {
	if err := a.check(name, "a"); err != nil {
		return 0, nil, err
	}
	if err := index.check(name, "index"); err != nil {
		return 0, nil, err
	}
	if err := src.check(name, "src"); err != nil {
		return 0, nil, err
	}
	ax, shape, f := op.ScatterAddShape(a.v.Shape, axis, index.v.Shape, src.v.Shape, buf)
	if f != nil {
		return 0, nil, faultError(name, f)
	}
	return ax, shape, nil
}

// ScatterAdd returns a copy of a with src added at the places index
// gives along axis (PyTorch's scatter_add): for every multi-index i of
// index, result[i with its coordinate along axis replaced by index[i]] +=
// src[i]. index and src have a's rank; index's extents are at most src's
// on every axis and at most a's on the others than axis; negative values
// count from the end. Repeated places accumulate, in increasing order of
// the coordinate along axis, so results do not depend on threads. The
// result's storage comes from e's buffer pool.
func ScatterAdd[T Scalar | int64](e Engine, a *Tensor[T], axis int, index *Tensor[int64], src *Tensor[T]) (*Tensor[T], error) {
	const name = "ScatterAdd"
	var buf [MaxRank]int
	ax, shape, err := scatterShape(name, a, axis, index, src, buf[:0])
	if err != nil {
		return nil, err
	}
	return produce(e, name, shape, func(be backend.Engine, out *Tensor[T]) error {
		ix, err := indexKernels[T](be, name)
		if err != nil {
			return err
		}
		return indexError(name, index, ix.ScatterAdd(out.desc(), a.desc(), ax, index.desc(), src.desc()))
	})
}

// ScatterAddInto is the Into form of [ScatterAdd]: dst = a with src added.
// dst has a's shape and may be a itself (accumulating in place); it must
// not otherwise overlap a, and must not overlap index or src.
func ScatterAddInto[T Scalar | int64](e Engine, dst, a *Tensor[T], axis int, index *Tensor[int64], src *Tensor[T]) error {
	const name = "ScatterAddInto"
	var buf [MaxRank]int
	ax, shape, err := scatterShape(name, a, axis, index, src, buf[:0])
	if err != nil {
		return err
	}
	if sameView(dst, a) {
		err = checkIndexDst(name, dst, shape, []string{"src", "index"}, index, src)
	} else {
		err = checkIndexDst(name, dst, shape, []string{"a", "src", "index"}, index, a, src)
	}
	if err != nil {
		return err
	}
	be, ix, err := claimIndex[T](e, name)
	if err != nil {
		return err
	}
	defer be.End()
	return indexError(name, index, ix.ScatterAdd(dst.desc(), a.desc(), ax, index.desc(), src.desc()))
}

// maskedShape validates the operands of MaskedSelect and writes the shape
// of the selection (a and mask broadcast) to s.ints.
func maskedShape[T Elem](name string, a *Tensor[T], mask *Tensor[bool], s *scratch[T]) ([]int, error) {
	if err := a.check(name, "a"); err != nil {
		return nil, err
	}
	if err := mask.check(name, "mask"); err != nil {
		return nil, err
	}
	shape, f := op.MaskedSelectShape(a.v.Shape, mask.v.Shape, s.ints[:0])
	if f != nil {
		return nil, faultError(name, f)
	}
	return shape, nil
}

// MaskedSelect returns the elements of a where mask is true, as a 1-D
// tensor (PyTorch's masked_select, NumPy's a[mask]): a and mask broadcast
// against each other as in NumPy, and the elements come in column-major
// order of their common shape (the first index fastest: for matrices,
// column by column), the storage order of this library, where NumPy and
// PyTorch list them in row-major order. Any dtype. The result's storage
// comes from e's buffer pool; its length is the number of true elements
// of the broadcast mask.
func MaskedSelect[T Elem](e Engine, a *Tensor[T], mask *Tensor[bool]) (*Tensor[T], error) {
	const name = "MaskedSelect"
	sc := getScratch[T]()
	defer sc.put()
	shape, err := maskedShape(name, a, mask, sc)
	if err != nil {
		return nil, err
	}
	be, ix, err := claimIndex[T](e, name)
	if err != nil {
		return nil, err
	}
	defer be.End()
	n := ix.CountTrue(mask.desc(), shape)
	out, err := alloc[T](be, name, []int{n})
	if err != nil {
		return nil, err
	}
	if _, err := ix.MaskedSelect(out.desc(), a.desc(), mask.desc(), shape); err != nil {
		out.Release()
		return nil, err
	}
	return out, nil
}

// MaskedSelectInto is the Into form of [MaskedSelect]: it writes the n
// selected elements to dst[0:n], sets the rest of dst to zero (false for
// bool) and returns n. dst is 1-D with at least n elements (else
// ErrShape, with dst untouched) and overlaps neither a nor mask.
func MaskedSelectInto[T Elem](e Engine, dst, a *Tensor[T], mask *Tensor[bool]) (int, error) {
	const name = "MaskedSelectInto"
	sc := getScratch[T]()
	defer sc.put()
	shape, err := maskedShape(name, a, mask, sc)
	if err != nil {
		return 0, err
	}
	if err := dst.check(name, "dst"); err != nil {
		return 0, err
	}
	if dst.Rank() != 1 {
		return 0, newError(name, "dst", "a 1-D tensor", "shape "+op.FmtInts(dst.v.Shape), ErrShape)
	}
	if err := checkIndexDst(name, dst, dst.v.Shape, []string{"a", "mask"}, mask, a); err != nil {
		return 0, err
	}
	be, ix, err := claimIndex[T](e, name)
	if err != nil {
		return 0, err
	}
	defer be.End()
	if n := ix.CountTrue(mask.desc(), shape); n > dst.Len() {
		return 0, newError(name, "dst", fmt.Sprintf("at least %d elements (the true elements of the broadcast mask)", n), fmt.Sprintf("%d", dst.Len()), ErrShape)
	}
	return ix.MaskedSelect(dst.desc(), a.desc(), mask.desc(), shape)
}
