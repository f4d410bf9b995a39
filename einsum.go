package tenferro

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tenferro-go/tenferro/einsum"
)

// Contractor is the part of the Engine contract that evaluates einsum
// plans.
type Contractor interface {
	// Einsum evaluates plan into dst. operands[k] is a *Tensor[T] of shape
	// plan.Problem.Shapes[k] and dst a *Tensor[T] of the plan's output
	// shape, all of one T; dst does not overlap any operand. Intermediates
	// come from the engine's pool and return to it as soon as they are
	// consumed.
	Einsum(dst any, plan *einsum.Plan, operands []any) error
	// Plans returns the engine's plan cache.
	Plans() PlanStore
	// Scratch returns argument storage owned by the engine, reused by the
	// public operations so that passing operand lists allocates nothing.
	Scratch() *Scratch
}

// PlanStore is a concurrent map from plan keys to immutable plans.
type PlanStore interface {
	Get(key string) (any, bool)
	// Put stores plan unless key is present and returns the stored plan.
	Put(key string, plan any) any
}

// Scratch is reusable argument storage owned by an engine (see
// Contractor.Scratch). Only the goroutine holding the engine uses it.
type Scratch struct {
	Operands []any
	Shapes   [][]int
}

// EinsumOption configures how an einsum is planned.
type EinsumOption func(*einsum.Options)

// WithStrategy selects the path optimizer (default einsum.Auto).
func WithStrategy(s einsum.Strategy) EinsumOption {
	return func(o *einsum.Options) { o.Strategy = s }
}

// WithPath supplies a linear contraction path in NumPy/opt_einsum format
// (pairs of positions into the current operand list; the pair is removed
// and its result appended). It is validated against the operands.
func WithPath(path [][2]int) EinsumOption {
	return func(o *einsum.Options) {
		o.Strategy = einsum.Given
		o.Path = path
	}
}

// WithMemoryLimit bounds every intermediate to at most elements elements;
// planning fails with an error when no path respects it.
func WithMemoryLimit(elements float64) EinsumOption {
	return func(o *einsum.Options) { o.MemoryLimit = elements }
}

// WithSeed seeds the randomized path search (default 0).
func WithSeed(seed uint64) EinsumOption {
	return func(o *einsum.Options) { o.Seed = seed }
}

// EinsumPlan is a prepared einsum: subscripts bound to operand shapes and a
// dtype, with its contraction path and per-step layouts. It is immutable
// and may be used by many engines at once. Execute it with [EinsumPlanned]
// or [EinsumPlannedInto].
type EinsumPlan struct {
	plan  *einsum.Plan
	dtype DType
	out   []int
}

// PrepareEinsum parses subscripts, binds them to shapes and plans the
// contraction for element type dt.
func PrepareEinsum(dt DType, subscripts string, shapes [][]int, opts ...EinsumOption) (*EinsumPlan, error) {
	if !dt.Valid() {
		return nil, newError("PrepareEinsum", "dtype", "f32, f64, c64 or c128", dt.String(), ErrDType)
	}
	var o einsum.Options
	for _, opt := range opts {
		opt(&o)
	}
	return planEinsum("PrepareEinsum", dt, subscripts, shapes, o)
}

func planEinsum(op string, dt DType, subscripts string, shapes [][]int, o einsum.Options) (*EinsumPlan, error) {
	expr, err := einsum.Parse(subscripts)
	if err != nil {
		return nil, wrapEinsum(op, err)
	}
	prob, err := expr.Bind(shapes)
	if err != nil {
		return nil, wrapEinsum(op, err)
	}
	pl, err := einsum.NewPlan(prob, o)
	if err != nil {
		return nil, wrapEinsum(op, err)
	}
	out := make([]int, len(prob.Output))
	for i, l := range prob.Output {
		out[i] = prob.Extents[l]
	}
	if _, err := checkShape(op, out); err != nil {
		return nil, err
	}
	return &EinsumPlan{plan: pl, dtype: dt, out: out}, nil
}

// wrapEinsum turns an einsum planning error into an *Error of the matching
// kind, keeping the planner's message (operand, label, extents).
func wrapEinsum(op string, err error) error {
	kind := ErrArgument
	switch {
	case isKind(err, einsum.ErrShape), isKind(err, einsum.ErrRank):
		kind = ErrShape
	}
	return &Error{Op: op, Arg: "subscripts", Kind: kind, Err: err}
}

func isKind(err, kind error) bool {
	for e := err; e != nil; {
		if e == kind {
			return true
		}
		u, ok := e.(interface{ Unwrap() error })
		if !ok {
			return false
		}
		e = u.Unwrap()
	}
	return false
}

// Plan returns the underlying contraction plan (path, steps, costs).
func (p *EinsumPlan) Plan() *einsum.Plan { return p.plan }

// DType returns the element type the plan was made for.
func (p *EinsumPlan) DType() DType { return p.dtype }

// OutputShape returns the result's extents. Do not modify the slice.
func (p *EinsumPlan) OutputShape() []int { return p.out }

// Report renders the plan like numpy.einsum_path.
func (p *EinsumPlan) Report() string { return p.plan.Report() }

// Einsum evaluates the Einstein summation given by subscripts (for example
// "ij,jk->ik", "bij,bjk->bik", "ii->i", "...ij,...jk") on the operands, with
// a contraction path chosen by the options (default einsum.Auto), and
// returns the result with storage from e's pool.
//
// Subscripts are read against column-major tensors: the k-th label of an
// operand names its axis k. The plan for (subscripts, shapes, dtype,
// options) is cached in e's plan cache, so repeated calls skip planning.
// See package einsum for the grammar and the broadcasting rules.
func Einsum[T Scalar](e Engine, subscripts string, operands ...*Tensor[T]) (*Tensor[T], error) {
	return EinsumWith(e, subscripts, nil, operands...)
}

// EinsumWith is Einsum with planning options.
func EinsumWith[T Scalar](e Engine, subscripts string, opts []EinsumOption, operands ...*Tensor[T]) (*Tensor[T], error) {
	const op = "Einsum"
	if err := checkOperands(op, operands); err != nil {
		return nil, err
	}
	if err := claim(e, op); err != nil {
		return nil, err
	}
	defer e.End()
	p, err := cachedPlan(e, op, DTypeOf[T](), subscripts, operands, opts)
	if err != nil {
		return nil, err
	}
	out := alloc[T](e, p.out)
	if err := runEinsum(e, p, out, operands); err != nil {
		out.Release()
		return nil, err
	}
	return out, nil
}

// EinsumInto evaluates subscripts into dst (see [Einsum]). dst must have
// the output shape, distinct elements and no overlap with any operand;
// everything is validated before anything is written.
func EinsumInto[T Scalar](e Engine, dst *Tensor[T], subscripts string, operands ...*Tensor[T]) error {
	const op = "EinsumInto"
	if err := checkOperands(op, operands); err != nil {
		return err
	}
	if err := claim(e, op); err != nil {
		return err
	}
	defer e.End()
	p, err := cachedPlan(e, op, DTypeOf[T](), subscripts, operands, nil)
	if err != nil {
		return err
	}
	if err := checkEinsumDst(op, p, dst, operands); err != nil {
		return err
	}
	return runEinsum(e, p, dst, operands)
}

// EinsumPlanned evaluates a prepared plan on operands whose shapes match
// the ones it was prepared for, returning a result from e's pool.
func EinsumPlanned[T Scalar](e Engine, p *EinsumPlan, operands ...*Tensor[T]) (*Tensor[T], error) {
	const op = "EinsumPlanned"
	if err := checkPlanned(op, p, operands); err != nil {
		return nil, err
	}
	return produce(e, op, p.out, func(out *Tensor[T]) error { return runEinsum(e, p, out, operands) })
}

// EinsumPlannedInto evaluates a prepared plan into dst. With a reused
// engine it allocates nothing.
func EinsumPlannedInto[T Scalar](e Engine, p *EinsumPlan, dst *Tensor[T], operands ...*Tensor[T]) error {
	const op = "EinsumPlannedInto"
	if err := checkPlanned(op, p, operands); err != nil {
		return err
	}
	if err := checkEinsumDst(op, p, dst, operands); err != nil {
		return err
	}
	if err := claim(e, op); err != nil {
		return err
	}
	defer e.End()
	return runEinsum(e, p, dst, operands)
}

func checkOperands[T Scalar](op string, operands []*Tensor[T]) error {
	for k, t := range operands {
		if !t.Valid() {
			// Build the argument name only on failure: no allocation on
			// the hot path.
			return t.check(op, "operand "+strconv.Itoa(k))
		}
	}
	return nil
}

func checkPlanned[T Scalar](op string, p *EinsumPlan, operands []*Tensor[T]) error {
	if p == nil {
		return newError(op, "plan", "a prepared plan", "nil", ErrArgument)
	}
	if p.dtype != DTypeOf[T]() {
		return newError(op, "operands", p.dtype.String()+" tensors (the plan's dtype)", DTypeOf[T]().String()+" tensors", ErrDType)
	}
	if err := checkOperands(op, operands); err != nil {
		return err
	}
	shapes := p.plan.Problem.Shapes
	if len(operands) != len(shapes) {
		return newError(op, "operands", fmt.Sprintf("%d operands", len(shapes)), strconv.Itoa(len(operands)), ErrShape)
	}
	for k, t := range operands {
		if !equalInts(t.shape, shapes[k]) {
			return shapeError(op, "operand "+strconv.Itoa(k), shapes[k], t.shape)
		}
	}
	return nil
}

func checkEinsumDst[T Scalar](op string, p *EinsumPlan, dst *Tensor[T], operands []*Tensor[T]) error {
	if err := dst.check(op, "dst"); err != nil {
		return err
	}
	if !equalInts(dst.shape, p.out) {
		return shapeError(op, "dst", p.out, dst.shape)
	}
	if err := checkWritable(op, dst); err != nil {
		return err
	}
	for k, t := range operands {
		if overlaps(dst, t) {
			return newError(op, "dst", "storage disjoint from every operand", "a view overlapping operand "+strconv.Itoa(k), ErrAlias)
		}
	}
	return nil
}

// defaultOptionsKey is the key of the zero options, computed once: most
// calls pass no options, and rendering a key is not free.
var defaultOptionsKey = einsum.Options{}.Key()

// cachedPlan returns the plan for these operands from e's plan cache,
// planning and inserting it on a miss.
func cachedPlan[T Scalar](e Engine, op string, dt DType, subscripts string, operands []*Tensor[T], opts []EinsumOption) (*EinsumPlan, error) {
	var o einsum.Options
	for _, opt := range opts {
		opt(&o)
	}
	var kb strings.Builder
	n := len(subscripts) + 8 + len(defaultOptionsKey)
	for _, t := range operands {
		n += 1 + 4*len(t.shape)
	}
	kb.Grow(n)
	kb.WriteString(subscripts)
	kb.WriteByte('|')
	kb.WriteString(dt.String())
	for _, t := range operands {
		kb.WriteByte('|')
		for d, n := range t.shape {
			if d > 0 {
				kb.WriteByte('x')
			}
			var nb [20]byte
			kb.Write(strconv.AppendInt(nb[:0], int64(n), 10))
		}
	}
	kb.WriteByte('|')
	if len(opts) == 0 {
		kb.WriteString(defaultOptionsKey)
	} else {
		kb.WriteString(o.Key())
	}
	key := kb.String()
	store := e.Plans()
	if v, ok := store.Get(key); ok {
		return v.(*EinsumPlan), nil
	}
	shapes := make([][]int, len(operands))
	for k, t := range operands {
		shapes[k] = t.shape
	}
	p, err := planEinsum(op, dt, subscripts, shapes, o)
	if err != nil {
		return nil, err
	}
	return store.Put(key, p).(*EinsumPlan), nil
}

// runEinsum passes the operands through the engine's scratch (no
// allocation) to its Einsum method.
func runEinsum[T Scalar](e Engine, p *EinsumPlan, dst *Tensor[T], operands []*Tensor[T]) error {
	s := e.Scratch()
	s.Operands = s.Operands[:0]
	for _, t := range operands {
		s.Operands = append(s.Operands, t)
	}
	err := e.Einsum(dst, p.plan, s.Operands)
	clear(s.Operands)
	return err
}
