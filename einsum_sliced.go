package tenferro

import (
	"strconv"

	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/einsum"
	"github.com/tenferro-go/tenferro/internal/op"
)

// PrepareSlicedEinsum wraps a sliced plan made by einsum.NewSlicedPlan or
// einsum.SliceWith (on an expression of the einsum grammar) for element
// type dt, so that [EinsumPlanned], [EinsumPlannedInto] and
// [EinsumSlicesInto] execute it. A plan of one slice runs unsliced.
func PrepareSlicedEinsum(dt DType, sp *einsum.SlicedPlan) (*EinsumPlan, error) {
	const name = "PrepareSlicedEinsum"
	if !dt.IsNumber() {
		return nil, newError(name, "dtype", "f32, f64, c64 or c128", dt.String(), ErrDType)
	}
	if sp == nil || sp.Problem == nil || sp.Plan == nil || sp.Plan.Problem == nil || sp.Slices < 1 ||
		len(sp.Plan.Problem.Inputs) != len(sp.Problem.Inputs) {
		return nil, newError(name, "sp", "a sliced plan made by einsum.NewSlicedPlan or einsum.SliceWith", "an incomplete one", ErrArgument)
	}
	p := sp.Problem
	for k, s := range p.Shapes {
		if _, f := op.Numel(op.OperandName(k), s); f != nil {
			return nil, faultError(name, f)
		}
	}
	out := make([]int, len(p.Output))
	for i, l := range p.Output {
		out[i] = p.Extents[l]
	}
	if _, f := op.Numel("output", out); f != nil {
		return nil, faultError(name, f)
	}
	ep := &EinsumPlan{plan: sp.Plan, dtype: dt, out: out}
	if sp.Slices > 1 {
		ep.sliced = sp
	}
	return ep, nil
}

// EinsumSlicesInto sets dst to the sum of slices lo, ..., hi-1 of a
// prepared plan (0 <= lo < hi <= p.Slices(); a plan that is not sliced
// has the one slice 0), evaluated on the full operands of the shapes the
// plan was prepared for:
//
//	dst = Σ_{lo <= s < hi} slice_s(operands).
//
// Slice s fixes the sliced labels to the values einsum.SlicedPlan.SliceIndex
// gives; each slice reads views of the operands (no copies) and adds into
// dst (the first overwrites it), reusing the engine's pooled intermediates.
// With output labels sliced, a slice adds into its part of dst only, and
// the parts that no slice of the range writes are zero.
// Summing the partial results of disjoint ranges that cover every slice
// gives the contraction. dst must have the output shape, distinct elements
// and no overlap with any operand; everything is validated before
// anything is written.
func EinsumSlicesInto[T Scalar](e Engine, dst *Tensor[T], p *EinsumPlan, lo, hi int, operands ...*Tensor[T]) error {
	const name = "EinsumSlicesInto"
	if err := checkPlanned(name, p, operands); err != nil {
		return err
	}
	if n := p.Slices(); lo < 0 || lo >= hi || hi > n {
		return newError(name, "lo, hi", "a slice range 0 <= lo < hi <= "+strconv.Itoa(n), strconv.Itoa(lo)+", "+strconv.Itoa(hi), ErrArgument)
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
			switch {
			case p.sliced == nil:
				err = runEinsum(ks.Contraction, p, dst, operands, 1, 0)
			case p.sliced.Summed < len(p.sliced.Labels) && hi-lo < p.sliced.Slices:
				// The range writes only its parts of the output: the
				// others are zero.
				if err = ks.Core.Fill(dst.desc(), 0); err == nil {
					err = runSlices(ks.Contraction, p, dst, operands, lo, hi, 1, 1)
				}
			default:
				err = runSlices(ks.Contraction, p, dst, operands, lo, hi, 1, 0)
			}
		}
	}
	be.End()
	return err
}

// runSlices evaluates slices lo..hi-1 of a sliced plan into dst: dst =
// alpha·Σ slices + beta·dst, by backend.EinsumSliced (the engine's own
// evaluation of slices, or one slice after another).
func runSlices[T Scalar](kern backend.Contraction[T], p *EinsumPlan, dst *Tensor[T], operands []*Tensor[T], lo, hi int, alpha, beta T) error {
	views := kern.Operands(len(operands))
	for k, t := range operands {
		views[k] = t.desc()
	}
	defer clear(views)
	var c backend.SliceCursor[T]
	return backend.EinsumSliced(kern, &c, dst.desc(), p.sliced, views, lo, hi, alpha, beta)
}
