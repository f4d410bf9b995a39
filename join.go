package tenferro

import (
	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/internal/op"
	"github.com/tenferro-go/tenferro/internal/viewcopy"
)

// Joins and repetitions: Concatenate, Stack, Tile, Repeat and Diag, each a
// set of copies between views (package internal/viewcopy).

// joinShape validates the operands of Concatenate (stack false) or Stack
// and returns the normalized axis and the result shape; s lists the
// operands' views.
func joinShape[T Elem](name string, stack bool, axis int, tensors []*Tensor[T], s *scratch[T], buf []int) (int, []int, error) {
	if err := s.operands(name, tensors); err != nil {
		return 0, nil, err
	}
	var ax int
	var shape []int
	var f *op.Fault
	if stack { // direct calls: a func value would move buf to the heap
		ax, shape, f = op.StackShape(axis, s.shapes, buf)
	} else {
		ax, shape, f = op.ConcatShape(axis, s.shapes, buf)
	}
	if f != nil {
		return 0, nil, faultError(name, f)
	}
	return ax, shape, nil
}

// join runs Concatenate or Stack with storage from e's pool.
func join[T Elem](e Engine, name string, stack bool, axis int, tensors []*Tensor[T]) (*Tensor[T], error) {
	sc := getScratch[T]()
	defer sc.put()
	var buf [MaxRank]int
	ax, shape, err := joinShape(name, stack, axis, tensors, sc, buf[:0])
	if err != nil {
		return nil, err
	}
	return produce(e, name, shape, func(be backend.Engine, out *Tensor[T]) error {
		core, err := coreOf[T](be, name)
		if err != nil {
			return err
		}
		return runJoin(core, stack, out, ax, sc)
	})
}

func joinInto[T Elem](e Engine, name string, stack bool, dst *Tensor[T], axis int, tensors []*Tensor[T]) error {
	sc := getScratch[T]()
	defer sc.put()
	var buf [MaxRank]int
	ax, shape, err := joinShape(name, stack, axis, tensors, sc, buf[:0])
	if err != nil {
		return err
	}
	if err := checkDst(name, false, dst, shape, nil, tensors...); err != nil {
		return err
	}
	be, ks, err := claim[T](e, name)
	if err != nil {
		return err
	}
	defer be.End()
	return runJoin(ks.Core, stack, dst, ax, sc)
}

func runJoin[T Elem](core backend.Core[T], stack bool, dst *Tensor[T], axis int, sc *scratch[T]) error {
	if stack {
		return viewcopy.Stack(core, dst.desc(), axis, sc.views, &sc.room)
	}
	return viewcopy.Concat(core, dst.desc(), axis, sc.views, &sc.room)
}

// Concatenate joins tensors along an existing axis (NumPy's concatenate):
// they have one rank >= 1 and equal extents except along axis (negative
// from the end), where the result's extent is their sum, in argument
// order. Any dtype. The result's storage comes from e's buffer pool.
func Concatenate[T Elem](e Engine, axis int, tensors ...*Tensor[T]) (*Tensor[T], error) {
	return join(e, "Concatenate", false, axis, tensors)
}

// ConcatenateInto is the Into form of [Concatenate]: dst has the result's
// shape and overlaps none of the tensors.
func ConcatenateInto[T Elem](e Engine, dst *Tensor[T], axis int, tensors ...*Tensor[T]) error {
	return joinInto(e, "ConcatenateInto", false, dst, axis, tensors)
}

// Stack joins tensors of one shape along a new axis (NumPy's stack): axis
// is a position in the result, of rank one more (negative from the end),
// and result[..., k, ...] (k at axis) is tensors[k]. Any dtype. The
// result's storage comes from e's buffer pool.
func Stack[T Elem](e Engine, axis int, tensors ...*Tensor[T]) (*Tensor[T], error) {
	return join(e, "Stack", true, axis, tensors)
}

// StackInto is the Into form of [Stack]: dst has the result's shape and
// overlaps none of the tensors.
func StackInto[T Elem](e Engine, dst *Tensor[T], axis int, tensors ...*Tensor[T]) error {
	return joinInto(e, "StackInto", true, dst, axis, tensors)
}

// Tile returns a repeated as a whole reps[d] times along axis d (NumPy's
// tile): reps and a's shape align on their last axes and the shorter is
// extended with leading 1s, so a (2, 3) tensor tiled (2, 2, 2) is read as
// (1, 2, 3) and gives (2, 4, 6); along every axis result[i] = a[i mod
// extent]. Any dtype. The result's storage comes from e's buffer pool.
func Tile[T Elem](e Engine, a *Tensor[T], reps ...int) (*Tensor[T], error) {
	const name = "Tile"
	var buf, norm [MaxRank]int
	shape, err := tileShape(name, a, reps, norm[:], buf[:0])
	if err != nil {
		return nil, err
	}
	return produce(e, name, shape, func(be backend.Engine, out *Tensor[T]) error {
		core, err := coreOf[T](be, name)
		if err != nil {
			return err
		}
		return runTile(core, out, a)
	})
}

// TileInto is the Into form of [Tile]: dst has the result's shape and does
// not overlap a.
func TileInto[T Elem](e Engine, dst, a *Tensor[T], reps ...int) error {
	const name = "TileInto"
	var buf, norm [MaxRank]int
	shape, err := tileShape(name, a, reps, norm[:], buf[:0])
	if err != nil {
		return err
	}
	be, ks, err := claimInto(e, name, dst, a, shape)
	if err != nil {
		return err
	}
	defer be.End()
	return runTile(ks.Core, dst, a)
}

func tileShape[T Elem](name string, a *Tensor[T], reps, norm, buf []int) ([]int, error) {
	if err := a.check(name, "a"); err != nil {
		return nil, err
	}
	shape, _, f := op.TileShape(a.v.Shape, reps, norm, buf)
	if f != nil {
		return nil, faultError(name, f)
	}
	return shape, nil
}

func runTile[T Elem](core backend.Core[T], dst, a *Tensor[T]) error {
	sc := getScratch[T]()
	defer sc.put()
	return viewcopy.Tile(core, dst.desc(), a.desc(), &sc.room)
}

// Repeat returns a with every element repeated along axis (NumPy's repeat
// with an axis, PyTorch's repeat_interleave): repeats is one count for
// every element, or one count per element of the axis (non-negative), and
// the elements stay in order, element i of the axis appearing repeats[i]
// times. Any dtype. The result's storage comes from e's buffer pool.
func Repeat[T Elem](e Engine, a *Tensor[T], axis int, repeats ...int) (*Tensor[T], error) {
	const name = "Repeat"
	var buf [MaxRank]int
	ax, shape, err := repeatShape(name, a, axis, repeats, buf[:0])
	if err != nil {
		return nil, err
	}
	return produce(e, name, shape, func(be backend.Engine, out *Tensor[T]) error {
		ks := backend.KernelsOf[T](be)
		if ks == nil {
			return unsupported[T](name, "kernels")
		}
		return runRepeat(name, ks, out, a, ax, repeats)
	})
}

// RepeatInto is the Into form of [Repeat]: dst has the result's shape and
// does not overlap a.
func RepeatInto[T Elem](e Engine, dst, a *Tensor[T], axis int, repeats ...int) error {
	const name = "RepeatInto"
	var buf [MaxRank]int
	ax, shape, err := repeatShape(name, a, axis, repeats, buf[:0])
	if err != nil {
		return err
	}
	be, ks, err := claimInto(e, name, dst, a, shape)
	if err != nil {
		return err
	}
	defer be.End()
	return runRepeat(name, ks, dst, a, ax, repeats)
}

func repeatShape[T Elem](name string, a *Tensor[T], axis int, repeats, buf []int) (int, []int, error) {
	if err := a.check(name, "a"); err != nil {
		return 0, nil, err
	}
	ax, shape, f := op.RepeatShape(a.v.Shape, axis, repeats, buf)
	if f != nil {
		return 0, nil, faultError(name, f)
	}
	return ax, shape, nil
}

// runRepeat copies through a split view for one count, or takes the
// elements by an index list for counts per element.
func runRepeat[T Elem](name string, ks *backend.Kernels[T], dst, a *Tensor[T], axis int, repeats []int) error {
	sc := getScratch[T]()
	defer sc.put()
	if len(repeats) == 1 {
		return viewcopy.Repeat(ks.Core, dst.desc(), a.desc(), axis, repeats[0], &sc.room)
	}
	if ks.Index == nil {
		return unsupported[T](name, "index kernels")
	}
	sc.idx = op.RepeatIndex(repeats, sc.idx)
	return ks.Index.Take(dst.desc(), a.desc(), axis, sc.indexView())
}

// Diag returns, for a vector a of n elements, the (n+|k|, n+|k|) matrix of
// zeros with a on diagonal k, and for a matrix a its diagonal k as a
// vector (NumPy's diag): k = 0 is the main diagonal, k > 0 lies above it
// (elements (i, i+k)), k < 0 below it (elements (i-k, i)); a diagonal
// outside the matrix is empty. Any dtype. The result's storage comes from
// e's buffer pool.
func Diag[T Elem](e Engine, a *Tensor[T], k int) (*Tensor[T], error) {
	const name = "Diag"
	var buf [2]int
	shape, err := diagShape(name, a, k, buf[:0])
	if err != nil {
		return nil, err
	}
	return produce(e, name, shape, func(be backend.Engine, out *Tensor[T]) error {
		core, err := coreOf[T](be, name)
		if err != nil {
			return err
		}
		return runDiag(core, out, a, k)
	})
}

// DiagInto is the Into form of [Diag]: dst has the result's shape and does
// not overlap a.
func DiagInto[T Elem](e Engine, dst, a *Tensor[T], k int) error {
	const name = "DiagInto"
	var buf [2]int
	shape, err := diagShape(name, a, k, buf[:0])
	if err != nil {
		return err
	}
	be, ks, err := claimInto(e, name, dst, a, shape)
	if err != nil {
		return err
	}
	defer be.End()
	return runDiag(ks.Core, dst, a, k)
}

func diagShape[T Elem](name string, a *Tensor[T], k int, buf []int) ([]int, error) {
	if err := a.check(name, "a"); err != nil {
		return nil, err
	}
	shape, f := op.DiagShape(a.v.Shape, k, buf)
	if f != nil {
		return nil, faultError(name, f)
	}
	return shape, nil
}

func runDiag[T Elem](core backend.Core[T], dst, a *Tensor[T], k int) error {
	sc := getScratch[T]()
	defer sc.put()
	if a.Rank() == 1 {
		return viewcopy.DiagEmbed(core, dst.desc(), a.desc(), k, &sc.room)
	}
	return viewcopy.DiagPart(core, dst.desc(), a.desc(), k, &sc.room)
}
