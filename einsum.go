package tenferro

import (
	"strconv"
	"strings"

	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/einsum"
	"github.com/tenferro-go/tenferro/internal/op"
)

// EinsumPlan is a prepared einsum: subscripts bound to operand shapes and a
// dtype, with its contraction path and per-step layouts. It is immutable
// and may be used by many engines at once. Execute it with [EinsumPlanned]
// or [EinsumPlannedInto]. A plan made under a memory limit that the
// unsliced contraction exceeds is sliced (see [WithMemoryLimit] and
// [EinsumPlan.Sliced]); executing it sums its slices.
type EinsumPlan struct {
	plan   *einsum.Plan       // the whole contraction, or one slice of it
	sliced *einsum.SlicedPlan // nil: not sliced
	dtype  DType
	out    []int
}

// PrepareEinsum parses subscripts, binds them to shapes and plans the
// contraction for element type dt (planning options only). With
// [WithMemoryLimit] the plan is sliced when the unsliced contraction's
// peak exceeds the limit.
func PrepareEinsum(dt DType, subscripts string, shapes [][]int, opts ...Option) (*EinsumPlan, error) {
	const name = "PrepareEinsum"
	if !dt.IsNumber() {
		return nil, newError(name, "dtype", "f32, f64, c64 or c128", dt.String(), ErrDType)
	}
	s, err := gather(name, dt, acceptPlanning, opts)
	if err != nil {
		return nil, err
	}
	return planEinsum(name, dt, subscripts, shapes, s.einsum, 0)
}

// planEinsum plans subscripts on shapes. The peak of the contraction (of
// one slice, when it is sliced) is bounded by o.MemoryLimit and by
// budget elements less the output (budget 0: none); without either bound
// the plan is never sliced.
func planEinsum(name string, dt DType, subscripts string, shapes [][]int, o einsum.Options, budget float64) (*EinsumPlan, error) {
	prob, out, f := op.EinsumShape(subscripts, shapes)
	if f != nil {
		return nil, faultError(name, f)
	}
	if budget > 0 {
		room := budget - float64(Numel(out))
		if room < 1 {
			room = budget // the output alone exceeds it: checkPeak reports that
		}
		if o.MemoryLimit == 0 || room < o.MemoryLimit {
			o.MemoryLimit = room
		}
	}
	if o.MemoryLimit == 0 {
		pl, err := einsum.NewPlan(prob, o)
		if err != nil {
			return nil, faultError(name, op.EinsumFault(err))
		}
		return &EinsumPlan{plan: pl, dtype: dt, out: out}, nil
	}
	sp, err := einsum.NewSlicedPlan(prob, o)
	if err != nil {
		return nil, faultError(name, op.EinsumFault(err))
	}
	p := &EinsumPlan{plan: sp.Plan, dtype: dt, out: out}
	if sp.Slices > 1 {
		p.sliced = sp
	}
	return p, nil
}

// Plan returns the underlying contraction plan (path, steps, costs): of
// one slice when the plan is sliced (its problem has the sliced labels'
// widths as their extents).
func (p *EinsumPlan) Plan() *einsum.Plan { return p.plan }

// Peak returns the planned peak of the intermediates, in elements (see
// einsum.Plan.Peak): of the plan, or the largest of one slice's for a
// sliced plan (einsum.SlicedPlan.PeakPerSlice).
func (p *EinsumPlan) Peak() float64 {
	if p.sliced != nil {
		return p.sliced.PeakPerSlice
	}
	return p.plan.Peak
}

// Sliced returns the slicing of a sliced plan, nil for a plan that runs
// in one piece.
func (p *EinsumPlan) Sliced() *einsum.SlicedPlan { return p.sliced }

// Slices returns the number of slices (1 for a plan that is not sliced).
func (p *EinsumPlan) Slices() int {
	if p.sliced == nil {
		return 1
	}
	return p.sliced.Slices
}

// shapes returns the operand shapes the plan takes (the unsliced ones).
func (p *EinsumPlan) shapes() [][]int {
	if p.sliced != nil {
		return p.sliced.Problem.Shapes
	}
	return p.plan.Problem.Shapes
}

// DType returns the element type the plan was made for.
func (p *EinsumPlan) DType() DType { return p.dtype }

// OutputShape returns the result's extents. Do not modify the slice.
func (p *EinsumPlan) OutputShape() []int { return p.out }

// Report renders the plan like numpy.einsum_path, after the slicing of a
// sliced plan.
func (p *EinsumPlan) Report() string {
	if p.sliced != nil {
		return p.sliced.Report()
	}
	return p.plan.Report()
}

// Einsum evaluates the Einstein summation given by subscripts (for example
// "ij,jk->ik", "bij,bjk->bik", "ii->i", "...ij,...jk") on the operands, with
// a contraction path chosen by einsum.Auto, and returns the result with
// storage from e's pool.
//
// The peak of the intermediates is bounded by e's memory budget (less the
// output) and by [WithMemoryLimit]: a contraction whose best path exceeds
// the bound is sliced (einsum.NewSlicedPlan) and evaluated slice by slice,
// each slice on views of the operands with the sliced labels fixed (no
// copies) accumulating into the result, so that only one slice's
// intermediates are held at a time. On an engine with a team the plan is
// made for the team's width (see [WithSliceWorkers]), and the engine
// evaluates as many slices at once as fit the bound together, each worker
// summing its share into a result of its own (einsum.SlicedPlan's
// ConcurrentPeak); otherwise slices run one after another on the calling
// goroutine, with the team inside each slice.
//
// Subscripts are read against column-major tensors: the k-th label of an
// operand names its axis k. The plan for (subscripts, shapes, dtype,
// options) is cached in e's plan cache, so repeated calls skip planning.
// See package einsum for the grammar and the broadcasting rules. Networks
// built in code number their bonds instead: [einsum.Subscripts] turns
// integer labels (NumPy's sublist form) into subscripts for every einsum
// entry point.
func Einsum[T Scalar](e Engine, subscripts string, operands ...*Tensor[T]) (*Tensor[T], error) {
	return einsumNew(e, "Einsum", subscripts, operands, nil)
}

// EinsumWith is [Einsum] with planning options.
func EinsumWith[T Scalar](e Engine, subscripts string, operands []*Tensor[T], opts ...Option) (*Tensor[T], error) {
	return einsumNew(e, "EinsumWith", subscripts, operands, opts)
}

// EinsumInto evaluates subscripts into dst (see [Einsum]). dst must have
// the output shape, distinct elements and no overlap with any operand;
// everything is validated before anything is written.
func EinsumInto[T Scalar](e Engine, dst *Tensor[T], subscripts string, operands ...*Tensor[T]) error {
	return einsumInto(e, "EinsumInto", dst, subscripts, operands, nil)
}

// EinsumWithInto is [EinsumInto] with options: planning options and
// Accumulate(alpha, beta), which makes it compute dst = alpha·result +
// beta·dst.
func EinsumWithInto[T Scalar](e Engine, dst *Tensor[T], subscripts string, operands []*Tensor[T], opts ...Option) error {
	return einsumInto(e, "EinsumWithInto", dst, subscripts, operands, opts)
}

func einsumNew[T Scalar](e Engine, name, subscripts string, operands []*Tensor[T], opts []Option) (*Tensor[T], error) {
	if err := checkOperands(name, operands); err != nil {
		return nil, err
	}
	s, err := gather(name, DTypeOf[T](), acceptPlanning, opts)
	if err != nil {
		return nil, err
	}
	be, err := begin(e, name)
	if err != nil {
		return nil, err
	}
	defer be.End()
	kern, err := contractionOf[T](be, name)
	if err != nil {
		return nil, err
	}
	p, err := cachedPlan(kern, name, DTypeOf[T](), subscripts, operands, s, be.MemoryBudget())
	if err != nil {
		return nil, err
	}
	if err := checkPeak(name, p.Peak()+float64(Numel(p.out)), DTypeOf[T]().Size(), be.MemoryBudget()); err != nil {
		return nil, err
	}
	out, err := alloc[T](be, name, p.out)
	if err != nil {
		return nil, err
	}
	if err := runEinsum(kern, p, out, operands, 1, 0); err != nil {
		out.Release()
		return nil, err
	}
	return out, nil
}

func einsumInto[T Scalar](e Engine, name string, dst *Tensor[T], subscripts string, operands []*Tensor[T], opts []Option) error {
	if err := checkOperands(name, operands); err != nil {
		return err
	}
	s, err := gather(name, DTypeOf[T](), acceptPlanning|acceptAccumulate, opts)
	if err != nil {
		return err
	}
	be, err := begin(e, name)
	if err != nil {
		return err
	}
	defer be.End()
	kern, err := contractionOf[T](be, name)
	if err != nil {
		return err
	}
	p, err := cachedPlan(kern, name, DTypeOf[T](), subscripts, operands, s, be.MemoryBudget())
	if err != nil {
		return err
	}
	if err := checkDst(name, false, dst, p.out, nil, operands...); err != nil {
		return err
	}
	if err := checkPeak(name, p.Peak(), DTypeOf[T]().Size(), be.MemoryBudget()); err != nil {
		return err
	}
	return runEinsum(kern, p, dst, operands, castFrom[T](s.alpha), castFrom[T](s.beta))
}

// EinsumPlanned evaluates a prepared plan on operands whose shapes match
// the ones it was prepared for, returning a result from e's pool.
func EinsumPlanned[T Scalar](e Engine, p *EinsumPlan, operands ...*Tensor[T]) (*Tensor[T], error) {
	const name = "EinsumPlanned"
	if err := checkPlanned(name, p, operands); err != nil {
		return nil, err
	}
	return produce(e, name, p.out, func(be backend.Engine, out *Tensor[T]) error {
		kern, err := contractionOf[T](be, name)
		if err != nil {
			return err
		}
		if err := checkPeak(name, p.Peak()+float64(Numel(p.out)), DTypeOf[T]().Size(), be.MemoryBudget()); err != nil {
			return err
		}
		return runEinsum(kern, p, out, operands, 1, 0)
	})
}

// EinsumPlannedInto evaluates a prepared plan into dst. With a reused
// engine it allocates nothing.
func EinsumPlannedInto[T Scalar](e Engine, dst *Tensor[T], p *EinsumPlan, operands ...*Tensor[T]) error {
	const name = "EinsumPlannedInto"
	if err := checkPlanned(name, p, operands); err != nil {
		return err
	}
	if err := checkDst(name, false, dst, p.out, nil, operands...); err != nil {
		return err
	}
	be, ks, err := claim[T](e, name)
	if err != nil {
		return err
	}
	switch {
	case ks.Contraction == nil:
		err = unsupported[T](name, "contraction kernels")
	default:
		if err = checkPeak(name, p.Peak(), DTypeOf[T]().Size(), be.MemoryBudget()); err == nil {
			err = runEinsum(ks.Contraction, p, dst, operands, 1, 0)
		}
	}
	be.End()
	return err
}

func checkOperands[T Scalar](name string, operands []*Tensor[T]) error {
	for k, t := range operands {
		if !t.Valid() {
			// Build the argument name only on failure: no allocation on
			// the hot path.
			return t.check(name, op.OperandName(k))
		}
	}
	return nil
}

func checkPlanned[T Scalar](name string, p *EinsumPlan, operands []*Tensor[T]) error {
	if p == nil {
		return newError(name, "plan", "a prepared plan", "nil", ErrArgument)
	}
	if p.dtype != DTypeOf[T]() {
		return newError(name, "operands", p.dtype.String()+" tensors (the plan's dtype)", DTypeOf[T]().String()+" tensors", ErrDType)
	}
	if err := checkOperands(name, operands); err != nil {
		return err
	}
	shapes := p.shapes()
	if len(operands) != len(shapes) {
		return newError(name, "operands", strconv.Itoa(len(shapes))+" operands", strconv.Itoa(len(operands)), ErrShape)
	}
	for k, t := range operands {
		if !equalInts(t.v.Shape, shapes[k]) {
			return shapeError(name, op.OperandName(k), shapes[k], t.v.Shape)
		}
	}
	return nil
}

// defaultOptionsKey is the key of the zero options, computed once: most
// calls pass no options, and rendering a key is not free.
var defaultOptionsKey = einsum.Options{}.Key()

// cachedPlan returns the plan for these operands from the plan cache,
// planning and inserting it on a miss. The engine's memory budget bounds
// the peak the planner allows (see planEinsum) and enters the key.
//
// Unless the caller chose, the plan is made for as many concurrent slices
// as kern evaluates at once (backend.SlicedContraction).
func cachedPlan[T Scalar](kern backend.Contraction[T], name string, dt DType, subscripts string, operands []*Tensor[T], s settings, budget int64) (*EinsumPlan, error) {
	store := kern.Plans()
	if sc, ok := kern.(backend.SlicedContraction[T]); ok && s.einsum.Workers == 0 {
		if w := sc.SliceWorkers(); w > 1 {
			s.einsum.Workers = w
		}
	}
	var kb strings.Builder
	n := len(subscripts) + 28 + len(defaultOptionsKey)
	for _, t := range operands {
		n += 1 + 4*len(t.v.Shape)
	}
	kb.Grow(n)
	kb.WriteString(subscripts)
	kb.WriteByte('|')
	kb.WriteString(dt.String())
	for _, t := range operands {
		kb.WriteByte('|')
		for d, n := range t.v.Shape {
			if d > 0 {
				kb.WriteByte('x')
			}
			var nb [20]byte
			kb.Write(strconv.AppendInt(nb[:0], int64(n), 10))
		}
	}
	kb.WriteByte('|')
	if !s.planning && s.einsum.Workers == 0 {
		kb.WriteString(defaultOptionsKey)
	} else {
		kb.WriteString(s.einsum.Key())
	}
	var nb [20]byte
	kb.WriteString("|b")
	kb.Write(strconv.AppendInt(nb[:0], budget, 10))
	key := kb.String()
	if v, ok := store.Get(key); ok {
		return v.(*EinsumPlan), nil
	}
	shapes := make([][]int, len(operands))
	for k, t := range operands {
		shapes[k] = t.v.Shape
	}
	p, err := planEinsum(name, dt, subscripts, shapes, s.einsum, budgetElems(budget, dt.Size()))
	if err != nil {
		return nil, err
	}
	return store.Put(key, p).(*EinsumPlan), nil
}

// runEinsum passes the operands through the engine's room for operand
// views (no allocation) to its Einsum method; a sliced plan runs all its
// slices.
func runEinsum[T Scalar](kern backend.Contraction[T], p *EinsumPlan, dst *Tensor[T], operands []*Tensor[T], alpha, beta T) error {
	if p.sliced != nil {
		return runSlices(kern, p, dst, operands, 0, p.sliced.Slices, alpha, beta)
	}
	views := kern.Operands(len(operands))
	for k, t := range operands {
		views[k] = t.desc()
	}
	err := kern.Einsum(dst.desc(), p.plan, views, alpha, beta)
	clear(views)
	return err
}
