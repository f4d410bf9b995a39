package tenferro

import (
	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/internal/op"
)

// The operations on the engine's index kernels that move elements without
// index tensors: Pad, Roll, Tril and Triu.

// PadMode selects what [Pad] writes outside the source: NumPy's pad modes.
// Along an axis of extent s, a padded position at offset u from the first
// element (u < 0 before it, u >= s after it) takes:
//
//	PadConstant   the pad value
//	PadEdge       element 0 before the axis, element s-1 after it
//	PadReflect    the mirror image without repeating the edge (period 2(s-1); s = 1 repeats the element)
//	PadSymmetric  the mirror image repeating the edge (period 2s)
//	PadWrap       element u mod s (periodic)
//
// Corners take the composition of the per-axis rules, as in NumPy. Pads
// longer than a period continue the pattern periodically.
type PadMode uint8

// The pad modes.
const (
	PadConstant  = PadMode(op.PadConstant)
	PadEdge      = PadMode(op.PadEdge)
	PadReflect   = PadMode(op.PadReflect)
	PadSymmetric = PadMode(op.PadSymmetric)
	PadWrap      = PadMode(op.PadWrap)
)

// String returns NumPy's name of the mode ("constant", "edge", ...).
func (m PadMode) String() string { return op.PadMode(m).String() }

// Pad returns a surrounded by pads (NumPy's pad): widths[d] = {before,
// after} gives the number of elements added before and after axis d (one
// pair per axis, non-negative), filled as mode says; value fills
// PadConstant pads and is ignored by the other modes, which cannot pad an
// empty axis. Any dtype. The result's storage comes from e's buffer pool.
func Pad[T Elem](e Engine, a *Tensor[T], widths [][2]int, mode PadMode, value T) (*Tensor[T], error) {
	const name = "Pad"
	var buf [MaxRank]int
	shape, err := padShape(name, a, widths, mode, buf[:0])
	if err != nil {
		return nil, err
	}
	return produce(e, name, shape, func(be backend.Engine, out *Tensor[T]) error {
		ks := backend.KernelsOf[T](be)
		if ks == nil || ks.Index == nil {
			return unsupported[T](name, "index kernels")
		}
		return runPad(ks.Index, out, a, widths, mode, value)
	})
}

// PadInto is the Into form of [Pad]: dst has the result's shape and does
// not overlap a.
func PadInto[T Elem](e Engine, dst, a *Tensor[T], widths [][2]int, mode PadMode, value T) error {
	const name = "PadInto"
	var buf [MaxRank]int
	shape, err := padShape(name, a, widths, mode, buf[:0])
	if err != nil {
		return err
	}
	be, ks, err := claimInto(e, name, dst, a, shape)
	if err != nil {
		return err
	}
	defer be.End()
	if ks.Index == nil {
		return unsupported[T](name, "index kernels")
	}
	return runPad(ks.Index, dst, a, widths, mode, value)
}

func padShape[T Elem](name string, a *Tensor[T], widths [][2]int, mode PadMode, buf []int) ([]int, error) {
	if err := a.check(name, "a"); err != nil {
		return nil, err
	}
	shape, f := op.PadShape(a.v.Shape, widths, op.PadMode(mode), buf)
	if f != nil {
		return nil, faultError(name, f)
	}
	return shape, nil
}

func runPad[T Elem](ix backend.Index[T], dst, a *Tensor[T], widths [][2]int, mode PadMode, value T) error {
	sc := getScratch[T]()
	defer sc.put()
	before := sc.ints[:len(widths)]
	for d, w := range widths {
		before[d] = w[0]
	}
	return ix.Pad(dst.desc(), a.desc(), before, op.PadMode(mode), value)
}

// Roll returns a rotated along axes (NumPy's roll with axes): along axis
// axes[i], result[j] = a[(j - shifts[i]) mod extent], so a positive shift
// moves elements towards higher indices and those pushed past the end
// come back at the start. shifts is one shift for every axis or one per
// axis, of any size and sign; a repeated axis adds its shifts. At least one
// axis is needed. Any dtype. The result's storage comes from e's buffer
// pool.
func Roll[T Elem](e Engine, a *Tensor[T], shifts, axes []int) (*Tensor[T], error) {
	const name = "Roll"
	sc := getScratch[T]()
	defer sc.put()
	if err := rollShifts(name, a, shifts, axes, sc); err != nil {
		return nil, err
	}
	return produce(e, name, a.v.Shape, func(be backend.Engine, out *Tensor[T]) error {
		ks := backend.KernelsOf[T](be)
		if ks == nil || ks.Index == nil {
			return unsupported[T](name, "index kernels")
		}
		return ks.Index.Roll(out.desc(), a.desc(), sc.ints[:a.Rank()])
	})
}

// RollInto is the Into form of [Roll]: dst has a's shape and does not
// overlap a.
func RollInto[T Elem](e Engine, dst, a *Tensor[T], shifts, axes []int) error {
	const name = "RollInto"
	sc := getScratch[T]()
	defer sc.put()
	if err := rollShifts(name, a, shifts, axes, sc); err != nil {
		return err
	}
	if err := checkDst(name, false, dst, a.v.Shape, []string{"a"}, a); err != nil {
		return err
	}
	be, ix, err := claimIndex[T](e, name)
	if err != nil {
		return err
	}
	defer be.End()
	return ix.Roll(dst.desc(), a.desc(), sc.ints[:a.Rank()])
}

// rollShifts validates Roll's arguments and writes the shift of every axis
// to sc.ints.
func rollShifts[T Elem](name string, a *Tensor[T], shifts, axes []int, sc *scratch[T]) error {
	if err := a.check(name, "a"); err != nil {
		return err
	}
	if f := op.RollShifts(a.v.Shape, shifts, axes, sc.ints[:a.Rank()]); f != nil {
		return faultError(name, f)
	}
	return nil
}

// Tril returns a with the elements above diagonal k of every matrix set to
// zero (false for bool): element (i, j, batch...) is kept where j - i <= k
// (NumPy's tril; k = 0 keeps the main diagonal, k > 0 more, k < 0 less).
// The matrices are the first two axes and further axes index the batch, as
// in Matmul; NumPy's tril uses the last two. Any dtype. The result's
// storage comes from e's buffer pool.
func Tril[T Elem](e Engine, a *Tensor[T], k int) (*Tensor[T], error) {
	return tri(e, op.Tril, a, k)
}

// TrilInto is the Into form of [Tril]: dst has a's shape and may be a
// itself (in place) but must not otherwise overlap it.
func TrilInto[T Elem](e Engine, dst, a *Tensor[T], k int) error {
	return triInto(e, op.Tril, dst, a, k)
}

// Triu returns a with the elements below diagonal k of every matrix set to
// zero (false for bool): element (i, j, batch...) is kept where j - i >= k
// (NumPy's triu). The matrices are the first two axes, as in [Tril]. Any
// dtype. The result's storage comes from e's buffer pool.
func Triu[T Elem](e Engine, a *Tensor[T], k int) (*Tensor[T], error) {
	return tri(e, op.Triu, a, k)
}

// TriuInto is the Into form of [Triu]: dst has a's shape and may be a
// itself (in place) but must not otherwise overlap it.
func TriuInto[T Elem](e Engine, dst, a *Tensor[T], k int) error {
	return triInto(e, op.Triu, dst, a, k)
}

func tri[T Elem](e Engine, kind op.Kind, a *Tensor[T], k int) (*Tensor[T], error) {
	name := kind.Info().Name
	if err := triShape(name, a); err != nil {
		return nil, err
	}
	return produce(e, name, a.v.Shape, func(be backend.Engine, out *Tensor[T]) error {
		ks := backend.KernelsOf[T](be)
		if ks == nil || ks.Index == nil {
			return unsupported[T](name, "index kernels")
		}
		return ks.Index.Tri(out.desc(), a.desc(), k, kind == op.Triu)
	})
}

func triInto[T Elem](e Engine, kind op.Kind, dst, a *Tensor[T], k int) error {
	name := kind.Info().Into
	if err := triShape(name, a); err != nil {
		return err
	}
	if err := checkDst(name, true, dst, a.v.Shape, []string{"a"}, a); err != nil {
		return err
	}
	be, ix, err := claimIndex[T](e, name)
	if err != nil {
		return err
	}
	defer be.End()
	return ix.Tri(dst.desc(), a.desc(), k, kind == op.Triu)
}

func triShape[T Elem](name string, a *Tensor[T]) error {
	if err := a.check(name, "a"); err != nil {
		return err
	}
	var buf [MaxRank]int
	if _, f := op.TriShape(a.v.Shape, buf[:0]); f != nil {
		return faultError(name, f)
	}
	return nil
}
