package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"text/tabwriter"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/einsum"
)

// slicedRow is what `tenferro suite --memory-fraction F` adds to a row:
// the instance planned again with a memory limit of F times the peak of
// the unsliced plan (Plan.Peak) and evaluated sliced on the same engine.
// Slices and FlopOverhead describe the sliced plan; MedianMS times one
// sliced evaluation and Ratio is MedianMS over the unsliced median;
// AtOnce is the number of slices the engine evaluates at once (the plan is
// made for the engine's threads); PlannedPeakBytes is the planned peak of
// one slice, or of AtOnce slices together (einsum.SlicedPlan's
// ConcurrentPeak, an upper bound), and MeasuredPeakBytes the most the
// engine's pool handed out at once during a sliced evaluation. Check compares the sliced result with the unsliced one.
// Note says why nothing was timed (no slicing fits, or the slices would
// take too long).
type slicedRow struct {
	Fraction          float64 `json:"fraction"`
	LimitBytes        int64   `json:"limit_bytes"`
	Slices            int     `json:"slices,omitempty"`
	AtOnce            int     `json:"at_once,omitempty"`
	FlopOverhead      float64 `json:"flop_overhead,omitempty"`
	MedianMS          float64 `json:"median_ms,omitempty"`
	Ratio             float64 `json:"ratio,omitempty"`
	PlannedPeakBytes  int64   `json:"planned_peak_bytes,omitempty"`
	MeasuredPeakBytes int64   `json:"measured_peak_bytes,omitempty"`
	Check             string  `json:"check,omitempty"`
	Note              string  `json:"note,omitempty"`
}

// maxSlicedOverhead bounds the FLOP overhead of a sliced plan the suite
// still times: beyond it one evaluation would take over a hundred times
// the unsliced one.
const maxSlicedOverhead = 100

// runSliced plans the instance under frac of the unsliced plan's peak and
// times it on e, comparing with the unsliced result first. The slicing
// search chooses the path of one slice itself (a shipped path is made for
// the unsliced problem: kept through the slicing, it forces far more
// slices than a path replanned around them).
func runSliced[T tf.Scalar](e *cpu.Engine, plan *tf.EinsumPlan, subs string, shapes [][]int, ops []*tf.Tensor[T], first *tf.Tensor[T], unslicedMS float64, frac float64, output bool, runs int) *slicedRow {
	size := plan.DType().Size()
	limit := math.Floor(plan.Plan().Peak * frac)
	r := &slicedRow{Fraction: frac, LimitBytes: int64(limit) * int64(size)}
	if limit < 1 {
		r.Note = "nothing to slice: the plan holds no intermediate"
		return r
	}
	opts := []tf.Option{tf.WithMemoryLimit(limit), tf.WithSliceWorkers(e.Threads())}
	if output {
		opts = append(opts, tf.WithOutputSlicing())
	}
	sp, err := tf.PrepareEinsum(plan.DType(), subs, shapes, opts...)
	switch {
	case errors.Is(err, einsum.ErrLimitTooSmall) || errors.Is(err, einsum.ErrMemoryLimit):
		r.Note = err.Error()
		return r
	case err != nil:
		r.Check, r.Note = "FAIL", err.Error()
		return r
	}
	r.Slices, r.PlannedPeakBytes = sp.Slices(), int64(sp.Peak())*int64(size)
	r.FlopOverhead, r.AtOnce = 1, e.ConcurrentSlices(sp)
	if s := sp.Sliced(); s != nil {
		r.FlopOverhead = s.FlopOverhead
		r.PlannedPeakBytes = int64(s.ConcurrentPeak(r.AtOnce)) * int64(size)
	}
	if r.FlopOverhead > maxSlicedOverhead {
		r.Note = fmt.Sprintf("not timed: FLOP overhead %.3g", r.FlopOverhead)
		return r
	}
	dst, err := tf.Zeros[T](sp.OutputShape()...)
	if err != nil {
		r.Check, r.Note = "FAIL", err.Error()
		return r
	}
	// The unsliced result is still out: count what the sliced evaluation
	// takes beyond it.
	e.ResetAllocationPeak()
	held := e.AllocationStats().InUseBytes
	if err := tf.EinsumPlannedInto(e, dst, sp, ops...); err != nil {
		r.Check, r.Note = "FAIL", err.Error()
		return r
	}
	r.MeasuredPeakBytes = e.AllocationStats().PeakInUseBytes - held
	r.Check, r.Note = checkSliced(e, plan, sp, ops, first, dst)
	var runErr error
	s := measure(0, runs, func() {
		if err := tf.EinsumPlannedInto(e, dst, sp, ops...); err != nil {
			runErr = err
		}
	})
	if runErr != nil {
		r.Check, r.Note = "FAIL", runErr.Error()
		return r
	}
	r.MedianMS = ms(s.median())
	if unslicedMS > 0 {
		r.Ratio = r.MedianMS / unslicedMS
	}
	return r
}

// checkSliced compares the sliced result with the unsliced one: each sums
// the same products in another order, so they agree within the rounding
// bound of both plans plus one addition per slice.
func checkSliced[T tf.Scalar](e *cpu.Engine, plan, sp *tf.EinsumPlan, ops []*tf.Tensor[T], first, got *tf.Tensor[T]) (string, string) {
	cb, fail := newCheckBasis(e, plan, ops, first)
	if fail != "" {
		return "FAIL", fail
	}
	have, err := got.Data()
	if err != nil {
		return "FAIL", err.Error()
	}
	worst := cb.worst(have, roundingTerms(plan.Plan())+roundingTerms(sp.Plan())+float64(sp.Slices()))
	note := fmt.Sprintf("vs unsliced: err/tol %.2g", worst)
	if !(worst <= 1) {
		return "FAIL", note
	}
	return "ok", note
}

// printSlicedTable prints the sliced measurements of the rows that have
// them.
func printSlicedTable(w io.Writer, rows []suiteRow) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "instance\tlimit MiB\tslices\tat once\tFLOP overhead\tunsliced ms\tsliced ms\tsliced/unsliced\tplanned peak MiB\tmeasured peak MiB\tcheck\tnote\t")
	for _, r := range rows {
		s := r.Sliced
		if s == nil {
			continue
		}
		fmt.Fprintf(tw, "%s\t%.3f\t%d\t%d\t%.3g\t%.3f\t%.3f\t%.2f\t%.3f\t%.3f\t%s\t%s\t\n", r.Name, mib(s.LimitBytes), s.Slices, s.AtOnce, s.FlopOverhead,
			r.MedianMS, s.MedianMS, s.Ratio, mib(s.PlannedPeakBytes), mib(s.MeasuredPeakBytes), s.Check, s.Note)
	}
	tw.Flush()
}

func mib(b int64) float64 { return float64(b) / (1 << 20) }
