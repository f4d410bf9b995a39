package cpu

import (
	"strconv"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/einsum"
	"github.com/tenferro-go/tenferro/internal/kernel/elementwise"
	"github.com/tenferro-go/tenferro/internal/kernel/permute"
	"github.com/tenferro-go/tenferro/internal/kernel/strided"
	"github.com/tenferro-go/tenferro/internal/op"
)

// data holds the kernels every dtype has: storage, copies and the index
// kernels (index.go).
type data[T backend.Elem] struct {
	e    *Engine
	ks   backend.Kernels[T] // what Kernels hands out: Core, Where, Index, All and Any
	fill [1]T               // Fill's source, here so that it does not escape per call
}

func (k *data[T]) init(e *Engine) *backend.Kernels[T] {
	k.e, k.ks = e, backend.Kernels[T]{Core: k, Elementwise: k, Reduction: k, Index: k}
	return &k.ks
}

// numeric holds the kernels of an arithmetic dtype: every capability of
// the contract. Its scratch is made on first use, so that building an
// engine stays cheap.
type numeric[T strided.Scalar] struct {
	data[T]
	s *scratch[T]
}

// scratch is what numeric's kernels reuse from call to call, so that a
// warm engine allocates nothing.
type scratch[T strided.Scalar] struct {
	ein      einsumState[T]
	operands []*backend.View[T]
	acc      accumulator[T] // dst = alpha·x + beta·dst
	// strides is room for kernel arguments built per call (broadcast and
	// reduction strides).
	strides [2][strided.MaxRank]int
	// reduced is a compact result of a complex reduction with a real
	// result (ReduceReal), before its real parts are copied out; one is
	// the 0-d operand of a scalar power. The views live here so that
	// passing them to the kernels allocates nothing.
	reduced        []T
	reducedView    backend.View[T]
	reducedStrides [strided.MaxRank]int
	partsView      backend.View[T] // as the R of a complex type's reduceToReal
	one            [1]T
	oneView        backend.View[T]
	// batch holds a batched Matmul's fused batch extents, the strides of
	// its three operands and the odometer.
	batch [5][strided.MaxRank]int
	lin   linalgScratch[T]
	// cursor positions the operands of a sliced contraction on its
	// slices; slices is its fork over the team and partialStrides the
	// strides of its workers' partial results.
	cursor         backend.SliceCursor[T]
	slices         sliceTask[T]
	partialStrides []int
}

// sc returns k's scratch, made on first use.
func (k *numeric[T]) sc() *scratch[T] {
	if k.s == nil {
		k.s = new(scratch[T])
	}
	return k.s
}

func (k *numeric[T]) init(e *Engine) *backend.Kernels[T] {
	k.e = e
	k.ks = backend.Kernels[T]{Core: k, Elementwise: k, Reduction: k, Contraction: k, Fusion: k, Index: k, Linalg: k}
	return &k.ks
}

// The capabilities of the CPU engine, per dtype class.
var (
	_ tf.Engine                          = (*Engine)(nil)
	_ backend.Core[bool]                 = (*data[bool])(nil)
	_ backend.Elementwise[float64]       = (*numeric[float64])(nil)
	_ backend.Reduction[float64]         = (*numeric[float64])(nil)
	_ backend.SlicedContraction[float64] = (*numeric[float64])(nil)
	_ backend.Contraction[float64]       = (*numeric[float64])(nil)
	_ backend.Fusion[float64]            = (*numeric[float64])(nil)
	_ backend.Linalg[complex64]          = (*numeric[complex64])(nil)
)

// ref describes a view for the strided kernels.
func ref[T backend.Elem](v *backend.View[T]) strided.Ref[T] {
	return strided.Ref[T]{Data: v.Data, Off: v.Off, Strides: v.Strides}
}

// Alloc implements backend.Core.
func (k *data[T]) Alloc(n int) *backend.Storage[T] { return poolAlloc[T](k.e.pool, n) }

// Copy implements backend.Core.
func (k *data[T]) Copy(dst, src *backend.View[T]) error {
	permute.Copy(k.e.runner, dst.Shape, ref(dst), ref(src))
	return nil
}

// Fill implements backend.Core: a copy from v read with stride 0 along
// every axis.
func (k *data[T]) Fill(dst *backend.View[T], v T) error {
	k.fill[0] = v
	st := &k.e.fillStrides
	permute.Copy(k.e.runner, dst.Shape, ref(dst), strided.Ref[T]{Data: k.fill[:], Strides: st[:len(dst.Shape)]})
	return nil
}

// Unary implements backend.Elementwise for int64 and bool: LogicalNot of
// a bool tensor.
func (k *data[T]) Unary(kind op.Kind, _, _ T, dst, x *backend.View[T]) error {
	d, a, ok := boolViews(dst, x)
	if !ok || kind != op.LogicalNot {
		return unsupported("Unary", kind)
	}
	elementwise.Logical(k.e.runner, kind, d.Shape, ref(d), ref(a), ref(a))
	return nil
}

// Binary implements backend.Elementwise for int64 and bool: the logical
// operations of bool tensors.
func (k *data[T]) Binary(kind op.Kind, dst, x, y *backend.View[T]) error {
	d, a, ok := boolViews(dst, x)
	_, b, _ := boolViews(dst, y)
	if !ok || !elementwise.IsLogical(kind) || kind == op.LogicalNot {
		return unsupported("Binary", kind)
	}
	shape := d.Shape
	st := &k.e.dataStrides
	elementwise.Logical(k.e.runner, kind, shape, ref(d), broadcastRef(a, shape, st[0][:]), broadcastRef(b, shape, st[1][:]))
	return nil
}

// boolViews reports whether T is bool and returns the views as such.
func boolViews[T backend.Elem](dst, x *backend.View[T]) (*backend.View[bool], *backend.View[bool], bool) {
	d, ok := any(dst).(*backend.View[bool])
	if !ok {
		return nil, nil, false
	}
	return d, any(x).(*backend.View[bool]), true
}

// Predicate implements backend.Elementwise: int64 and bool have none.
func (k *data[T]) Predicate(kind op.Kind, _ *backend.View[bool], _ *backend.View[T]) error {
	return unsupported("Predicate", kind)
}

// Compare implements backend.Elementwise: int64 and bool have none.
func (k *data[T]) Compare(kind op.Kind, _ *backend.View[bool], _, _ *backend.View[T]) error {
	return unsupported("Compare", kind)
}

// Where implements backend.Elementwise.
func (k *data[T]) Where(dst *backend.View[T], mask *backend.View[bool], x, y *backend.View[T]) error {
	return where(k.e, dst, mask, x, y)
}

// where runs Select with every input read at dst's shape.
func where[T backend.Elem](e *Engine, dst *backend.View[T], mask *backend.View[bool], x, y *backend.View[T]) error {
	shape := dst.Shape
	st := &e.dataStrides
	elementwise.Select(e.runner, shape, ref(dst), broadcastRef(mask, shape, st[0][:]), broadcastRef(x, shape, st[1][:]), broadcastRef(y, shape, st[2][:]))
	return nil
}

func unsupported(name string, kind op.Kind) error {
	return tf.Errorf(tf.ErrUnsupported, name, "op", "an operation the CPU engine implements", "%v", kind)
}

// Unary implements backend.Elementwise.
func (k *numeric[T]) Unary(kind op.Kind, alpha, beta T, dst, x *backend.View[T]) error {
	if kind.Category() != op.Unary || !elementwise.Supports(kind) {
		return unsupported("Unary", kind)
	}
	elementwise.Unary(k.e.runner, kind, elementwise.Params[T]{A: alpha, B: beta}, dst.Shape, ref(dst), ref(x))
	return nil
}

// Binary implements backend.Elementwise.
func (k *numeric[T]) Binary(kind op.Kind, dst, x, y *backend.View[T]) error {
	if kind.Category() != op.Binary || !elementwise.Supports(kind) {
		return unsupported("Binary", kind)
	}
	shape := dst.Shape
	e := k.e
	st := &k.sc().strides
	sx, sy := st[0][:len(shape)], st[1][:len(shape)]
	elementwise.Binary(e.runner, kind, shape, ref(dst), broadcastRef(x, shape, sx), broadcastRef(y, shape, sy))
	return nil
}

// Predicate implements backend.Elementwise.
func (k *numeric[T]) Predicate(kind op.Kind, dst *backend.View[bool], x *backend.View[T]) error {
	if !elementwise.IsPredicate(kind) {
		return unsupported("Predicate", kind)
	}
	elementwise.Predicate(k.e.runner, kind, dst.Shape, ref(dst), ref(x))
	return nil
}

// Compare implements backend.Elementwise.
func (k *numeric[T]) Compare(kind op.Kind, dst *backend.View[bool], x, y *backend.View[T]) error {
	if !elementwise.IsComparison(kind) || (kind != op.Equal && kind != op.NotEqual && isComplex[T]()) {
		return unsupported("Compare", kind)
	}
	shape := dst.Shape
	st := &k.sc().strides
	elementwise.Compare(k.e.runner, kind, shape, ref(dst), broadcastRef(x, shape, st[0][:len(shape)]), broadcastRef(y, shape, st[1][:len(shape)]))
	return nil
}

// Where implements backend.Elementwise.
func (k *numeric[T]) Where(dst *backend.View[T], mask *backend.View[bool], x, y *backend.View[T]) error {
	return where(k.e, dst, mask, x, y)
}

func isComplex[T backend.Elem]() bool { return backend.DTypeOf[T]().IsComplex() }

// broadcastRef describes v read at shape, NumPy's way: v's axes align
// with the last axes of shape, and missing leading axes and axes where v
// has extent 1 and shape does not get stride 0. strides is caller-provided
// room for len(shape) strides.
func broadcastRef[T backend.Elem](v *backend.View[T], shape, strides []int) strided.Ref[T] {
	lead := len(shape) - len(v.Shape)
	for d := range shape {
		strides[d] = 0
		if s := d - lead; s >= 0 && (v.Shape[s] != 1 || shape[d] == 1) {
			strides[d] = v.Strides[s]
		}
	}
	return strided.Ref[T]{Data: v.Data, Off: v.Off, Strides: strides[:len(shape)]}
}

// Operands implements backend.Contraction.
func (k *numeric[T]) Operands(n int) []*backend.View[T] {
	s := k.sc()
	if cap(s.operands) < n {
		s.operands = make([]*backend.View[T], n)
	}
	return s.operands[:n]
}

// Plans implements backend.Contraction.
func (k *numeric[T]) Plans() backend.PlanStore { return (*planStore)(k.e.plans) }

// Einsum implements backend.Contraction.
func (k *numeric[T]) Einsum(dst *backend.View[T], plan *einsum.Plan, operands []*backend.View[T], alpha, beta T) error {
	if plan == nil {
		return tf.Errorf(tf.ErrArgument, "Einsum", "plan", "a plan", "nil")
	}
	if len(operands) != len(plan.Problem.Inputs) {
		return tf.Errorf(tf.ErrShape, "Einsum", "operands", strconv.Itoa(len(plan.Problem.Inputs))+" operands", "%d", len(operands))
	}
	return execEinsum(k, &k.sc().ein, dst, plan, operands, alpha, beta)
}
