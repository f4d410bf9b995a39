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
	// constant sets register id to a view of constant c (read only).
	constant(b *preparer, id int, c tf.Value)
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

// at returns the register of value id.
func (r *registers[T]) at(id int) *backend.View[T] { return &r.views[id] }

// list returns the registers of values ids.
func (r *registers[T]) list(ids []int) []*backend.View[T] {
	out := make([]*backend.View[T], len(ids))
	for i, id := range ids {
		out[i] = &r.views[id]
	}
	return out
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

// kernels returns capability C of the engine's kernels for T (get picks
// it), or an ErrUnsupported error naming it.
func kernels[C comparable, T backend.Elem](b *preparer, what string, get func(*backend.Kernels[T]) C) (C, error) {
	var zero C
	if ks := backend.KernelsOf[T](b.be); ks != nil {
		if c := get(ks); c != zero {
			return c, nil
		}
	}
	return zero, tf.Errorf(tf.ErrUnsupported, "Prepare", "e", "an engine with "+what+" for "+tf.DTypeOf[T]().String(), "an engine that lacks them")
}

// dataBuilder builds the programs of a dtype without arithmetic: copies.
type dataBuilder[T backend.Elem] struct{}

func (dataBuilder[T]) slot(elems int) any { return make([]T, elems) }

func (dataBuilder[T]) view(b *preparer, id int, slot any, strides []int) {
	regs[T](b).views[id] = backend.View[T]{Data: slot.([]T), Shape: b.p.vals[id].shape, Strides: strides}
}

func (dataBuilder[T]) constant(b *preparer, id int, c tf.Value) {
	t := c.Tensor().(*tf.Tensor[T])
	regs[T](b).views[id] = backend.View[T]{Data: t.Storage(), Off: t.Offset(), Shape: t.Shape(), Strides: t.Strides()}
}

func (dataBuilder[T]) binder(b *preparer, id int) binder {
	return &bound[T]{r: regs[T](b), id: id, shape: b.p.vals[id].shape}
}

func (dataBuilder[T]) step(b *preparer, c *command) (step, error) {
	r := regs[T](b)
	switch {
	case c.op == cmdCopy:
		core, err := kernels(b, "storage", func(ks *backend.Kernels[T]) backend.Core[T] { return ks.Core })
		if err != nil {
			return nil, err
		}
		return &copyStep[T]{core, r.at(c.dst), r.at(c.args[0])}, nil
	case c.op == cmdStruct:
		return structStep[T](b, c)
	case c.op == cmdConvert:
		return convertStep[T](b, c)
	case c.op == cmdWhere:
		k, err := kernels(b, "elementwise kernels", func(ks *backend.Kernels[T]) backend.Elementwise[T] { return ks.Elementwise })
		if err != nil {
			return nil, err
		}
		return &whereStep[T]{k, r.at(c.dst), regs[bool](b).at(c.args[0]), r.at(c.args[1]), r.at(c.args[2])}, nil
	case c.op == cmdReduce && tf.DTypeOf[T]() == tf.Bool:
		return reductionStep[T](b, c) // All, Any
	case (c.op == cmdUnary || c.op == cmdBinary) && tf.DTypeOf[T]() == tf.Bool:
		// The logical operations.
		k, err := kernels(b, "elementwise kernels", func(ks *backend.Kernels[T]) backend.Elementwise[T] { return ks.Elementwise })
		if err != nil {
			return nil, err
		}
		if c.op == cmdUnary {
			return &logicalStep[T]{k, c.kind, r.at(c.dst), r.at(c.args[0]), nil}, nil
		}
		return &logicalStep[T]{k, c.kind, r.at(c.dst), r.at(c.args[0]), r.at(c.args[1])}, nil
	}
	return nil, tf.Errorf(tf.ErrUnsupported, "Prepare", "command", "a copy or Where for "+tf.DTypeOf[T]().String(), "%s", opcodeNames[c.op])
}

// numberBuilder builds the programs of an arithmetic dtype.
type numberBuilder[T backend.Number] struct {
	dataBuilder[T]
}

func (nb numberBuilder[T]) step(b *preparer, c *command) (step, error) {
	r := regs[T](b)
	switch c.op {
	case cmdCopy, cmdWhere, cmdStruct, cmdConvert:
		return nb.dataBuilder.step(b, c)
	case cmdPredicate, cmdCompare:
		k, err := kernels(b, "elementwise kernels", func(ks *backend.Kernels[T]) backend.Elementwise[T] { return ks.Elementwise })
		if err != nil {
			return nil, err
		}
		dst := regs[bool](b).at(c.dst)
		if c.op == cmdPredicate {
			return &predicateStep[T]{k, c.kind, dst, r.at(c.args[0])}, nil
		}
		return &compareStep[T]{k, c.kind, dst, r.at(c.args[0]), r.at(c.args[1])}, nil
	case cmdReal:
		return realStep[T](b, c)
	case cmdLinalg:
		return linalgStep[T](b, c)
	case cmdComplex:
		return complexStep[T](b, c)
	case cmdUnary, cmdBinary:
		k, err := kernels(b, "elementwise kernels", func(ks *backend.Kernels[T]) backend.Elementwise[T] { return ks.Elementwise })
		if err != nil {
			return nil, err
		}
		if c.op == cmdUnary {
			return &unaryStep[T]{k, c.kind, backend.FromComplex[T](c.alpha), backend.FromComplex[T](c.beta), r.at(c.dst), r.at(c.args[0])}, nil
		}
		return &binaryStep[T]{k, c.kind, r.at(c.dst), r.at(c.args[0]), r.at(c.args[1])}, nil
	case cmdReduce, cmdReduceReal, cmdArg, cmdScan:
		return reductionStep[T](b, c)
	case cmdTiled:
		return tiledStep[T](b, c)
	case cmdMatmul, cmdEinsum:
		k, err := kernels(b, "contraction kernels", func(ks *backend.Kernels[T]) backend.Contraction[T] { return ks.Contraction })
		if err != nil {
			return nil, err
		}
		if c.op == cmdMatmul {
			return &matmulStep[T]{k, r.at(c.dst), r.at(c.args[0]), r.at(c.args[1])}, nil
		}
		if c.sliced != nil {
			return &slicedEinsumStep[T]{k: k, sp: c.sliced, dst: r.at(c.dst), ops: r.list(c.args)}, nil
		}
		return &einsumStep[T]{k, c.plan, r.at(c.dst), r.list(c.args)}, nil
	case cmdFused:
		f, err := fusedKernel[T](b, c)
		if err != nil {
			return nil, err
		}
		return &fusedStep[T]{f, r.at(c.dst), r.list(c.args)}, nil
	case cmdFusedReduce:
		f, err := fusedKernel[T](b, c)
		if err != nil {
			return nil, err
		}
		var store *backend.View[T]
		if c.storing {
			store = r.at(c.store)
		}
		return &fusedReduceStep[T]{f, c.kind, c.mask, r.at(c.dst), store, r.list(c.args)}, nil
	}
	return nil, tf.Errorf(tf.ErrArgument, "Prepare", "command", "a known command", "%d", c.op)
}

// fusedKernel binds the fused program of command c to the engine.
func fusedKernel[T backend.Number](b *preparer, c *command) (backend.FusedKernel[T], error) {
	k, err := kernels(b, "fusion", func(ks *backend.Kernels[T]) backend.Fusion[T] { return ks.Fusion })
	if err != nil {
		return nil, err
	}
	return k.Fuse(c.code, len(c.args))
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

// The steps: each holds its kernels and pointers to its registers (the
// register files never grow, so the pointers stay valid; binding a run's
// inputs and outputs rewrites the registers they point to).

type copyStep[T backend.Elem] struct {
	k      backend.Core[T]
	dst, a *backend.View[T]
}

func (s *copyStep[T]) run() error { return s.k.Copy(s.dst, s.a) }

type unaryStep[T backend.Number] struct {
	k           backend.Elementwise[T]
	kind        op.Kind
	alpha, beta T
	dst, a      *backend.View[T]
}

func (s *unaryStep[T]) run() error { return s.k.Unary(s.kind, s.alpha, s.beta, s.dst, s.a) }

type binaryStep[T backend.Number] struct {
	k         backend.Elementwise[T]
	kind      op.Kind
	dst, a, b *backend.View[T]
}

func (s *binaryStep[T]) run() error { return s.k.Binary(s.kind, s.dst, s.a, s.b) }

type matmulStep[T backend.Number] struct {
	k         backend.Contraction[T]
	dst, a, b *backend.View[T]
}

func (s *matmulStep[T]) run() error { return s.k.Matmul(s.dst, s.a, s.b, 1, 0) }

type einsumStep[T backend.Number] struct {
	k    backend.Contraction[T]
	plan *einsum.Plan
	dst  *backend.View[T]
	ops  []*backend.View[T]
}

func (s *einsumStep[T]) run() error { return s.k.Einsum(s.dst, s.plan, s.ops, 1, 0) }

// slicedEinsumStep evaluates a contraction that no path fits within the
// memory limit slice by slice (or as the engine evaluates slices), with a
// cursor of its own so that a run allocates nothing.
type slicedEinsumStep[T backend.Number] struct {
	k   backend.Contraction[T]
	sp  *einsum.SlicedPlan
	dst *backend.View[T]
	ops []*backend.View[T]
	cur backend.SliceCursor[T]
}

func (s *slicedEinsumStep[T]) run() error {
	return backend.EinsumSliced(s.k, &s.cur, s.dst, s.sp, s.ops, 0, s.sp.Slices, 1, 0)
}

type fusedStep[T backend.Number] struct {
	f   backend.FusedKernel[T]
	dst *backend.View[T]
	ins []*backend.View[T]
}

func (s *fusedStep[T]) run() error { return s.f.Eval(s.dst, s.ins) }

type fusedReduceStep[T backend.Number] struct {
	f          backend.FusedKernel[T]
	kind       op.Kind
	mask       uint64
	dst, store *backend.View[T] // store nil: the tree's result is not kept
	ins        []*backend.View[T]
}

func (s *fusedReduceStep[T]) run() error { return s.f.Reduce(s.kind, s.dst, s.store, s.ins, s.mask) }
