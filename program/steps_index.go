package program

import (
	"errors"
	"fmt"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/internal/op"
	"github.com/tenferro-go/tenferro/internal/viewcopy"
)

// The steps of the structural and indexing commands (cmdStruct). Copies
// of views (Concatenate, Stack, Split parts, Tile, Repeat by one count,
// Diag) run on the engine's Core through package viewcopy, the others on
// its Index kernels. Each step owns the room its sub-views are built in,
// and rebuilds them at every run from its registers (binding a run's
// inputs and outputs rewrites them), so a run allocates nothing.

// structStep makes the step of structural command c for element type T.
func structStep[T backend.Elem](b *preparer, c *command) (step, error) {
	ks, err := kernels(b, "storage", func(ks *backend.Kernels[T]) *backend.Kernels[T] { return ks })
	if err != nil {
		return nil, err
	}
	r := regs[T](b)
	dst, a := r.at(c.dst), r.at(c.args[0])
	at := &c.attrs
	var ix backend.Index[T]
	switch c.kind {
	case op.Concatenate, op.Stack, op.Split, op.Tile, op.Diag:
	default:
		if ix, err = kernels(b, "index kernels", func(ks *backend.Kernels[T]) backend.Index[T] { return ks.Index }); err != nil {
			return nil, err
		}
	}
	switch c.kind {
	case op.Concatenate, op.Stack:
		return &joinStep[T]{core: ks.Core, stack: c.kind == op.Stack, dst: dst, axis: at.Axes[0], srcs: r.list(c.args)}, nil
	case op.Split:
		return &partStep[T]{core: ks.Core, dst: dst, src: a, axis: at.Axes[0], start: at.Ints[0]}, nil
	case op.Tile:
		return &tileStep[T]{core: ks.Core, dst: dst, src: a}, nil
	case op.Repeat:
		if len(at.Ints) == 1 {
			return &repeatStep[T]{core: ks.Core, dst: dst, src: a, axis: at.Axes[0], times: at.Ints[0]}, nil
		}
		idx := op.RepeatIndex(at.Ints, nil)
		iv := &backend.View[int64]{Data: idx, Shape: []int{len(idx)}, Strides: []int{1}}
		return &takeStep[T]{ix: ix, kind: op.Take, dst: dst, src: a, axis: at.Axes[0], index: iv}, nil
	case op.Diag:
		return &diagStep[T]{core: ks.Core, dst: dst, src: a, k: at.Ints[0], embed: len(b.p.vals[c.args[0]].shape) == 1}, nil
	case op.Pad:
		before := make([]int, (len(at.Ints)-1)/2)
		for d := range before {
			before[d] = at.Ints[1+2*d]
		}
		return &padStep[T]{ix: ix, dst: dst, src: a, before: before, mode: op.PadMode(at.Ints[0]), value: fromComplex[T](at.Alpha)}, nil
	case op.Roll:
		return &rollStep[T]{ix: ix, dst: dst, src: a, shifts: at.Ints}, nil
	case op.Tril, op.Triu:
		return &triStep[T]{ix: ix, dst: dst, src: a, k: at.Ints[0], upper: c.kind == op.Triu}, nil
	case op.Take, op.Gather:
		return &takeStep[T]{ix: ix, kind: c.kind, dst: dst, src: a, axis: at.Axes[0], index: regs[int64](b).at(c.args[1])}, nil
	case op.ScatterAdd:
		return &scatterStep[T]{ix: ix, dst: dst, base: a, axis: at.Axes[0], index: regs[int64](b).at(c.args[1]), src: r.at(c.args[2])}, nil
	case op.MaskedSelect:
		shape, f := op.MaskedSelectShape(b.p.vals[c.args[0]].shape, b.p.vals[c.args[1]].shape, nil)
		if f != nil {
			return nil, tf.Errorf(tf.ErrShape, "Prepare", "command", "shapes that broadcast", "%s", f.Actual)
		}
		return &maskedStep[T]{ix: ix, dst: dst, src: a, mask: regs[bool](b).at(c.args[1]), shape: shape}, nil
	}
	return nil, tf.Errorf(tf.ErrArgument, "Prepare", "command", "a structural operation", "%v", c.kind)
}

// fromComplex converts an attribute given as a complex128 to T: the real
// part for real T, its integer part for int64, c != 0 for bool.
func fromComplex[T backend.Elem](c complex128) T {
	var v T
	switch p := any(&v).(type) {
	case *float32:
		*p = float32(real(c))
	case *float64:
		*p = real(c)
	case *complex64:
		*p = complex64(c)
	case *complex128:
		*p = c
	case *int64:
		*p = int64(real(c))
	case *bool:
		*p = c != 0
	}
	return v
}

// indexErr names the operation of a bad index value an engine reported.
func indexErr(kind op.Kind, err error) error {
	if err == nil {
		return nil // before ie, which escapes: no allocation on success
	}
	var ie *backend.IndexError
	if !errors.As(err, &ie) {
		return err
	}
	return tf.Errorf(tf.ErrArgument, kind.String(), "index", fmt.Sprintf("values in [-%d, %d) (the extent of the indexed axis)", ie.Extent, ie.Extent),
		"%d at position %d (column-major)", ie.Value, ie.At)
}

type joinStep[T backend.Elem] struct {
	core  backend.Core[T]
	stack bool
	dst   *backend.View[T]
	axis  int
	srcs  []*backend.View[T]
	room  viewcopy.Room[T]
}

func (s *joinStep[T]) run() error {
	if s.stack {
		return viewcopy.Stack(s.core, s.dst, s.axis, s.srcs, &s.room)
	}
	return viewcopy.Concat(s.core, s.dst, s.axis, s.srcs, &s.room)
}

type partStep[T backend.Elem] struct {
	core        backend.Core[T]
	dst, src    *backend.View[T]
	axis, start int
	room        viewcopy.Room[T]
}

func (s *partStep[T]) run() error {
	return viewcopy.Part(s.core, s.dst, s.src, s.axis, s.start, &s.room)
}

type tileStep[T backend.Elem] struct {
	core     backend.Core[T]
	dst, src *backend.View[T]
	room     viewcopy.Room[T]
}

func (s *tileStep[T]) run() error { return viewcopy.Tile(s.core, s.dst, s.src, &s.room) }

type repeatStep[T backend.Elem] struct {
	core        backend.Core[T]
	dst, src    *backend.View[T]
	axis, times int
	room        viewcopy.Room[T]
}

func (s *repeatStep[T]) run() error {
	return viewcopy.Repeat(s.core, s.dst, s.src, s.axis, s.times, &s.room)
}

type diagStep[T backend.Elem] struct {
	core     backend.Core[T]
	dst, src *backend.View[T]
	k        int
	embed    bool // a vector into a matrix
	room     viewcopy.Room[T]
}

func (s *diagStep[T]) run() error {
	if s.embed {
		return viewcopy.DiagEmbed(s.core, s.dst, s.src, s.k, &s.room)
	}
	return viewcopy.DiagPart(s.core, s.dst, s.src, s.k, &s.room)
}

// The steps on the index kernels.

type padStep[T backend.Elem] struct {
	ix       backend.Index[T]
	dst, src *backend.View[T]
	before   []int
	mode     op.PadMode
	value    T
}

func (s *padStep[T]) run() error {
	return s.ix.Pad(s.dst, s.src, s.before, s.mode, s.value)
}

type rollStep[T backend.Elem] struct {
	ix       backend.Index[T]
	dst, src *backend.View[T]
	shifts   []int
}

func (s *rollStep[T]) run() error {
	return s.ix.Roll(s.dst, s.src, s.shifts)
}

type triStep[T backend.Elem] struct {
	ix       backend.Index[T]
	dst, src *backend.View[T]
	k        int
	upper    bool
}

func (s *triStep[T]) run() error {
	return s.ix.Tri(s.dst, s.src, s.k, s.upper)
}

// takeStep runs Take or Gather (and Repeat by counts per element, a Take
// by a fixed index).
type takeStep[T backend.Elem] struct {
	ix       backend.Index[T]
	kind     op.Kind
	dst, src *backend.View[T]
	axis     int
	index    *backend.View[int64]
}

func (s *takeStep[T]) run() error {
	if s.kind == op.Gather {
		return indexErr(s.kind, s.ix.Gather(s.dst, s.src, s.axis, s.index))
	}
	return indexErr(s.kind, s.ix.Take(s.dst, s.src, s.axis, s.index))
}

type scatterStep[T backend.Elem] struct {
	ix             backend.Index[T]
	dst, base, src *backend.View[T]
	axis           int
	index          *backend.View[int64]
}

func (s *scatterStep[T]) run() error {
	return indexErr(op.ScatterAdd, s.ix.ScatterAdd(s.dst, s.base, s.axis, s.index, s.src))
}

// maskedStep runs a MaskedSelect of a static length: a mask that selects
// more elements fails before anything is written.
type maskedStep[T backend.Elem] struct {
	ix       backend.Index[T]
	dst, src *backend.View[T]
	mask     *backend.View[bool]
	shape    []int // of the selection: src and mask broadcast
}

func (s *maskedStep[T]) run() error {
	if n := s.ix.CountTrue(s.mask, s.shape); n > s.dst.Shape[0] {
		return tf.Errorf(tf.ErrShape, "MaskedSelect", "mask", fmt.Sprintf("at most %d true elements (the traced size)", s.dst.Shape[0]), "%d", n)
	}
	_, err := s.ix.MaskedSelect(s.dst, s.src, s.mask, s.shape)
	return err
}
