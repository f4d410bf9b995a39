package program

import (
	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/einsum"
	"github.com/tenferro-go/tenferro/internal/op"
)

// builder makes the slots, registers, steps and binders of one dtype.
type builder interface {
	slot(elems int) any // a []T of elems elements
	// view sets register id to a view of shape (the value's) and strides
	// over slot.
	view(b *preparer, id int, slot any, strides []int)
	step(b *preparer, c *command) (step, error)
	binder(b *preparer, id int) binder
}

// builders is the per-dtype dispatch table of Prepare.
var builders = [...]builder{
	tf.Float32:    numberBuilder[float32]{},
	tf.Float64:    numberBuilder[float64]{},
	tf.Complex64:  numberBuilder[complex64]{},
	tf.Complex128: numberBuilder[complex128]{},
	tf.Int64:      dataBuilder[int64]{},
	tf.Bool:       dataBuilder[bool]{},
}

// registers is the register file of one dtype: a view per value id (only
// the values of this dtype are used).
type registers[T backend.Elem] struct {
	views []backend.View[T]
}

// regs returns b's register file of T, made on first use.
func regs[T backend.Elem](b *preparer) *registers[T] {
	dt := backend.DTypeOf[T]()
	if r, ok := b.files[dt].(*registers[T]); ok {
		return r
	}
	r := &registers[T]{views: make([]backend.View[T], len(b.p.vals))}
	b.files[dt] = r
	return r
}

// kernels returns the engine's kernels of T as capability C.
func kernels[C any, T backend.Elem](b *preparer, what string) (C, error) {
	k, ok := b.be.Kernels(backend.DTypeOf[T]()).(C)
	if !ok {
		var zero C
		return zero, tf.Errorf(tf.ErrUnsupported, "Prepare", "e", "an engine with "+what+" for "+tf.DTypeOf[T]().String(), "an engine that lacks them")
	}
	return k, nil
}

// dataBuilder builds the programs of a dtype without arithmetic: copies.
type dataBuilder[T backend.Elem] struct{}

func (dataBuilder[T]) slot(elems int) any { return make([]T, elems) }

func (dataBuilder[T]) view(b *preparer, id int, slot any, strides []int) {
	regs[T](b).views[id] = backend.View[T]{Data: slot.([]T), Shape: b.p.vals[id].shape, Strides: strides}
}

func (dataBuilder[T]) binder(b *preparer, id int) binder {
	return &bound[T]{r: regs[T](b), id: id, shape: b.p.vals[id].shape}
}

func (dataBuilder[T]) step(b *preparer, c *command) (step, error) {
	if c.op != cmdCopy {
		return nil, tf.Errorf(tf.ErrUnsupported, "Prepare", "command", "a copy for "+tf.DTypeOf[T]().String(), "%s", opcodeNames[c.op])
	}
	core, err := kernels[backend.Core[T], T](b, "storage")
	if err != nil {
		return nil, err
	}
	return &copyStep[T]{core, regs[T](b), c.dst, c.args[0]}, nil
}

// numberBuilder builds the programs of an arithmetic dtype.
type numberBuilder[T backend.Number] struct {
	dataBuilder[T]
}

func (nb numberBuilder[T]) step(b *preparer, c *command) (step, error) {
	r := regs[T](b)
	switch c.op {
	case cmdCopy:
		return nb.dataBuilder.step(b, c)
	case cmdUnary, cmdBinary:
		k, err := kernels[backend.Elementwise[T], T](b, "elementwise kernels")
		if err != nil {
			return nil, err
		}
		if c.op == cmdUnary {
			return &unaryStep[T]{k, c.kind, backend.FromComplex[T](c.alpha), r, c.dst, c.args[0]}, nil
		}
		return &binaryStep[T]{k, c.kind, r, c.dst, c.args[0], c.args[1]}, nil
	case cmdReduce:
		k, err := kernels[backend.Reduction[T], T](b, "reduction kernels")
		if err != nil {
			return nil, err
		}
		return &reduceStep[T]{k, c.kind, c.mask, r, c.dst, c.args[0]}, nil
	case cmdMatmul, cmdEinsum:
		k, err := kernels[backend.Contraction[T], T](b, "contraction kernels")
		if err != nil {
			return nil, err
		}
		if c.op == cmdMatmul {
			return &matmulStep[T]{k, r, c.dst, c.args[0], c.args[1]}, nil
		}
		return &einsumStep[T]{k, c.plan, r, c.dst, c.args, make([]backend.View[T], len(c.args))}, nil
	case cmdFused:
		k, err := kernels[backend.Fusion[T], T](b, "fusion")
		if err != nil {
			return nil, err
		}
		f, err := k.Fuse(c.code, len(c.args))
		if err != nil {
			return nil, err
		}
		return &fusedStep[T]{f, r, c.dst, c.args, make([]backend.View[T], len(c.args))}, nil
	}
	return nil, tf.Errorf(tf.ErrArgument, "Prepare", "command", "a known command", "%d", c.op)
}

// bound binds register id to the caller's tensors of one input or output.
type bound[T backend.Elem] struct {
	r     *registers[T]
	id    int
	shape []int
}

func (b *bound[T]) bind(v tf.Value) {
	t := v.Tensor().(*tf.Tensor[T]) // the signature was checked
	b.r.views[b.id] = backend.View[T]{Data: t.Storage(), Off: t.Offset(), Shape: t.Shape(), Strides: t.Strides()}
}

func (b *bound[T]) unbind() { b.r.views[b.id] = backend.View[T]{} }

func (b *bound[T]) alloc(e tf.Engine) (tf.Value, error) {
	t, err := tf.NewTensor[T](e, b.shape...)
	if err != nil {
		return tf.Value{}, err
	}
	return tf.ValueOf(t), nil
}

// The steps: each holds its kernels, its register file and value ids.

type copyStep[T backend.Elem] struct {
	k      backend.Core[T]
	r      *registers[T]
	dst, a int
}

func (s *copyStep[T]) run() error { return s.k.Copy(s.r.views[s.dst], s.r.views[s.a]) }

type unaryStep[T backend.Number] struct {
	k      backend.Elementwise[T]
	kind   op.Kind
	alpha  T
	r      *registers[T]
	dst, a int
}

func (s *unaryStep[T]) run() error {
	return s.k.Unary(s.kind, s.alpha, s.r.views[s.dst], s.r.views[s.a])
}

type binaryStep[T backend.Number] struct {
	k         backend.Elementwise[T]
	kind      op.Kind
	r         *registers[T]
	dst, a, b int
}

func (s *binaryStep[T]) run() error {
	v := s.r.views
	return s.k.Binary(s.kind, v[s.dst], v[s.a], v[s.b])
}

type reduceStep[T backend.Number] struct {
	k      backend.Reduction[T]
	kind   op.Kind
	mask   uint64
	r      *registers[T]
	dst, a int
}

func (s *reduceStep[T]) run() error {
	return s.k.Reduce(s.kind, s.r.views[s.dst], s.r.views[s.a], s.mask)
}

type matmulStep[T backend.Number] struct {
	k         backend.Contraction[T]
	r         *registers[T]
	dst, a, b int
}

func (s *matmulStep[T]) run() error {
	v := s.r.views
	return s.k.Matmul(v[s.dst], v[s.a], v[s.b], 1, 0)
}

type einsumStep[T backend.Number] struct {
	k    backend.Contraction[T]
	plan *einsum.Plan
	r    *registers[T]
	dst  int
	ids  []int
	ops  []backend.View[T] // refreshed per run
}

func (s *einsumStep[T]) run() error {
	for k, id := range s.ids {
		s.ops[k] = s.r.views[id]
	}
	err := s.k.Einsum(s.r.views[s.dst], s.plan, s.ops, 1, 0)
	clear(s.ops)
	return err
}

type fusedStep[T backend.Number] struct {
	f   backend.FusedKernel[T]
	r   *registers[T]
	dst int
	ids []int
	ins []backend.View[T] // refreshed per run
}

func (s *fusedStep[T]) run() error {
	for k, id := range s.ids {
		s.ins[k] = s.r.views[id]
	}
	err := s.f.Eval(s.r.views[s.dst], s.ins)
	clear(s.ins)
	return err
}
