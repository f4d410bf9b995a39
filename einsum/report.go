package einsum

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// Report is a JSON-friendly summary of a plan, the data behind
// (*Plan).Report.
type Report struct {
	Subscripts          string       `json:"subscripts"`
	Shapes              [][]int      `json:"shapes"`
	Strategy            string       `json:"strategy"`
	Path                [][2]int     `json:"path"`
	NaiveScaling        int          `json:"naive_scaling"`
	OptimizedScaling    int          `json:"optimized_scaling"`
	NaiveFlops          float64      `json:"naive_flops"`
	OptimizedFlops      float64      `json:"optimized_flops"`
	Speedup             float64      `json:"speedup"` // NaN when both counts are +Inf
	LargestIntermediate float64      `json:"largest_intermediate"`
	Steps               []ReportStep `json:"steps"`
	Final               string       `json:"final"`
}

// ReportStep is one row of the per-step table.
type ReportStep struct {
	Pair       [2]int  `json:"pair"`       // positions in the current operand list
	Subscripts string  `json:"subscripts"` // e.g. "ij,jk->ik"
	Remaining  string  `json:"remaining"`  // operand list after the step (elided past RemainingWidth bytes)
	Kind       string  `json:"kind"`
	Scaling    int     `json:"scaling"`
	Flops      float64 `json:"flops"`
	Size       float64 `json:"size"`
}

// RemainingWidth bounds the length of a step's Remaining list: past it the
// list ends with ",...(+N)" counting the operands left out, so that a
// report stays linear in the number of operands.
const RemainingWidth = 200

// remaining renders the operand list terms -> out, eliding the operands
// past RemainingWidth bytes.
func remaining(terms []string, out string) string {
	var b strings.Builder
	for k, t := range terms {
		if k > 0 {
			if b.Len()+1+len(t) > RemainingWidth {
				fmt.Fprintf(&b, ",...(+%d)", len(terms)-k)
				break
			}
			b.WriteByte(',')
		}
		b.WriteString(t)
	}
	return b.String() + "->" + out
}

// Summary returns the plan's report data.
func (pl *Plan) Summary() Report {
	p := pl.Problem
	r := Report{
		Subscripts:          p.Subscripts(),
		Shapes:              p.Shapes,
		Strategy:            pl.Strategy.String(),
		Path:                pl.Path,
		NaiveScaling:        p.NumLabels,
		NaiveFlops:          pl.NaiveFlops,
		OptimizedFlops:      pl.Flops,
		LargestIntermediate: pl.Largest,
		Steps:               []ReportStep{},
	}
	if pl.Flops > 0 {
		r.Speedup = pl.NaiveFlops / pl.Flops
	}
	terms := make([]string, len(p.Inputs))
	for k := range p.Inputs {
		terms[k] = p.Term(p.Inputs[k])
	}
	if len(pl.Steps) == 0 {
		r.OptimizedScaling = len(p.Unique[0])
	}
	for _, st := range pl.Steps {
		lt, rt := terms[st.Left], terms[st.Right]
		lo, hi := min(st.Left, st.Right), max(st.Left, st.Right)
		terms = slices.Delete(terms, hi, hi+1)
		terms = slices.Delete(terms, lo, lo+1)
		terms = append(terms, p.Term(st.Out))
		r.Steps = append(r.Steps, ReportStep{
			Pair:       [2]int{st.Left, st.Right},
			Subscripts: lt + "," + rt + "->" + p.Term(st.Out),
			Remaining:  remaining(terms, p.Term(p.Output)),
			Kind:       st.Kind.String(),
			Scaling:    st.Scaling,
			Flops:      st.Flops,
			Size:       st.Size,
		})
		r.OptimizedScaling = max(r.OptimizedScaling, st.Scaling)
	}
	f := pl.Final
	r.Final = p.Term(f.Labels) + "->" + p.Term(f.Output)
	switch {
	case f.Identity:
		r.Final += " (identity)"
	case len(f.Reduce) > 0:
		r.Final += " (sum " + p.Term(f.Reduce) + ")"
	}
	return r
}

// Report renders the plan like numpy.einsum_path: the complete
// contraction, naive and optimized scaling and FLOPs, the theoretical
// speedup, the largest intermediate and one row per pairwise step.
func (pl *Plan) Report() string {
	r := pl.Summary()
	var b strings.Builder
	fmt.Fprintf(&b, "  Complete contraction:  %s\n", r.Subscripts)
	fmt.Fprintf(&b, "              Strategy:  %s\n", r.Strategy)
	fmt.Fprintf(&b, "         Naive scaling:  %d\n", r.NaiveScaling)
	fmt.Fprintf(&b, "     Optimized scaling:  %d\n", r.OptimizedScaling)
	fmt.Fprintf(&b, "      Naive FLOP count:  %.3e\n", r.NaiveFlops)
	fmt.Fprintf(&b, "  Optimized FLOP count:  %.3e\n", r.OptimizedFlops)
	if math.IsNaN(r.Speedup) {
		b.WriteString("   Theoretical speedup:  unknown (both counts overflow float64)\n")
	} else {
		fmt.Fprintf(&b, "   Theoretical speedup:  %.3f\n", r.Speedup)
	}
	fmt.Fprintf(&b, "  Largest intermediate:  %.3e elements\n", r.LargestIntermediate)
	line := strings.Repeat("-", 78) + "\n"
	b.WriteString(line)
	fmt.Fprintf(&b, "%-9s %-7s %-10s %-10s %-13s %s\n", "pair", "scaling", "flops", "size", "kind", "current -> remaining")
	b.WriteString(line)
	for _, s := range r.Steps {
		fmt.Fprintf(&b, "%-9s %-7d %-10.3e %-10.3e %-13s %s   %s\n",
			fmt.Sprintf("(%d,%d)", s.Pair[0], s.Pair[1]), s.Scaling, s.Flops, s.Size, s.Kind, s.Subscripts, s.Remaining)
	}
	fmt.Fprintf(&b, "final: %s\n", r.Final)
	return b.String()
}

// SlicedReport is a JSON-friendly summary of a sliced plan, the data
// behind (*SlicedPlan).Report: the report of one slice's plan and the
// slicing.
type SlicedReport struct {
	// Slice is the report of one slice's plan (its shapes have extent 1
	// on the sliced labels' axes).
	Slice         Report   `json:"slice"`
	Subscripts    string   `json:"subscripts"`
	Shapes        [][]int  `json:"shapes"`
	SlicedLabels  []string `json:"sliced_labels"`
	SlicedExtents []int    `json:"sliced_extents"`
	// SlicedWidths holds the values of each sliced label one slice takes
	// (1 unless the label is cut into chunks of several values).
	SlicedWidths []int `json:"sliced_widths"`
	// SlicedOutput counts the output labels at the end of SlicedLabels
	// (each slice computes a part of the output on them).
	SlicedOutput int `json:"sliced_output_labels"`
	Slices       int `json:"slices"`
	// Limit is the memory limit the plan was made for, in elements (0:
	// none); PeakPerSlice is what one slice needs. Workers is the number
	// of slices planned to run at once within Limit, and ConcurrentPeak
	// their peak together.
	Limit          float64 `json:"memory_limit"`
	PeakPerSlice   float64 `json:"peak_per_slice"`
	Workers        int     `json:"workers"`
	ConcurrentPeak float64 `json:"concurrent_peak"`
	TotalFlops     float64 `json:"total_flops"`
	UnslicedFlops  float64 `json:"unsliced_flops"`
	FlopOverhead   float64 `json:"flop_overhead"`
}

// Summary returns the sliced plan's report data.
func (sp *SlicedPlan) Summary() SlicedReport {
	return SlicedReport{
		Slice:          sp.Plan.Summary(),
		Subscripts:     sp.Problem.Subscripts(),
		Shapes:         sp.Problem.Shapes,
		SlicedLabels:   sp.LabelNames(),
		SlicedExtents:  sp.Extents,
		SlicedWidths:   sp.Widths,
		SlicedOutput:   len(sp.Labels) - sp.Summed,
		Slices:         sp.Slices,
		Limit:          sp.Limit,
		PeakPerSlice:   sp.PeakPerSlice,
		Workers:        sp.Workers,
		ConcurrentPeak: sp.ConcurrentPeak(sp.Workers),
		TotalFlops:     sp.Flops,
		UnslicedFlops:  sp.UnslicedFlops,
		FlopOverhead:   sp.FlopOverhead,
	}
}

// Report renders the slicing (labels and extents, number of slices, peak
// per slice against the limit, total FLOPs and their overhead over the
// unsliced cost) followed by the report of one slice's plan.
func (sp *SlicedPlan) Report() string {
	r := sp.Summary()
	var b strings.Builder
	fmt.Fprintf(&b, "  Complete contraction:  %s\n", r.Subscripts)
	if len(r.SlicedLabels) == 0 {
		b.WriteString("         Sliced labels:  none\n")
	} else {
		parts := make([]string, len(r.SlicedLabels))
		for j, name := range r.SlicedLabels {
			parts[j] = fmt.Sprintf("%s (%d)", name, r.SlicedExtents[j])
			if w := r.SlicedWidths[j]; w > 1 {
				parts[j] = fmt.Sprintf("%s (%d, in %d chunks of %d)", name, r.SlicedExtents[j], r.SlicedExtents[j]/w, w)
			}
			if j >= len(r.SlicedLabels)-r.SlicedOutput {
				parts[j] += " [output]"
			}
		}
		fmt.Fprintf(&b, "         Sliced labels:  %s\n", strings.Join(parts, ", "))
	}
	fmt.Fprintf(&b, "                Slices:  %d\n", r.Slices)
	if r.Limit > 0 {
		fmt.Fprintf(&b, "        Peak per slice:  %.3e elements (limit %.3e)\n", r.PeakPerSlice, r.Limit)
	} else {
		fmt.Fprintf(&b, "        Peak per slice:  %.3e elements (no limit)\n", r.PeakPerSlice)
	}
	if r.Workers > 1 {
		fmt.Fprintf(&b, "     Concurrent slices:  %d (peak together %.3e elements)\n", r.Workers, r.ConcurrentPeak)
	}
	fmt.Fprintf(&b, "     Total FLOP count:  %.3e (%.4gx the unsliced %.3e)\n", r.TotalFlops, r.FlopOverhead, r.UnslicedFlops)
	b.WriteString("  One slice:\n")
	b.WriteString(sp.Plan.Report())
	return b.String()
}
