package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/einsum"
)

func init() {
	register("path", "print the contraction path of an einsum (like numpy.einsum_path)", runPath)
}

// pathJSON is the object `tenferro path --json` prints. Flops is the
// path's cost (one multiply and one add per point of a step's iteration
// space when the step sums something), NaiveFlops the cost of one nested
// loop over all labels, LargestIntermediate the element count of the
// largest pairwise result. Counts beyond float64 print as the strings
// "+Inf" (and an unknown speedup as "NaN"): JSON has no such numbers.
//
// The slicing fields: SlicedLabels and SlicedExtents are the labels the
// contraction is sliced on (empty when it is not), SlicedWidths the values
// of each label one slice takes (1 unless it is cut into wider chunks),
// SlicedOutput how many of the labels, at the end of the list, are output
// labels (--slice-output), Slices their number of slices, FlopOverhead the FLOPs of all slices over those of the unsliced
// contraction, SlicePeakBytes the planned peak of one slice's
// intermediates in bytes of the dtype, TotalFlops the FLOPs of all slices.
// When the contraction is sliced, Path, Steps, Flops, NaiveFlops,
// Speedup, LargestIntermediate and the scalings describe one slice (its
// shapes have the widths on the sliced labels' axes); Shapes are the
// full ones.
type pathJSON struct {
	Subscripts          string     `json:"subscripts"`
	Shapes              [][]int    `json:"shapes"`
	Strategy            string     `json:"strategy"`
	Path                [][2]int   `json:"path"`
	Flops               count      `json:"flops"`
	NaiveFlops          count      `json:"naive_flops"`
	Speedup             count      `json:"speedup"`
	LargestIntermediate count      `json:"largest_intermediate"`
	NaiveScaling        int        `json:"naive_scaling"`
	OptimizedScaling    int        `json:"optimized_scaling"`
	Steps               []stepJSON `json:"steps"`
	Final               string     `json:"final"`
	DType               string     `json:"dtype"`
	SlicedLabels        []string   `json:"sliced_labels"`
	SlicedExtents       []int      `json:"sliced_extents"`
	SlicedWidths        []int      `json:"sliced_widths"`
	SlicedOutput        int        `json:"sliced_output_labels"`
	Slices              int        `json:"slices"`
	FlopOverhead        count      `json:"flop_overhead"`
	SlicePeakBytes      count      `json:"slice_peak_bytes"`
	TotalFlops          count      `json:"total_flops"`
}

// stepJSON is einsum.ReportStep with counts that survive JSON.
type stepJSON struct {
	Pair       [2]int `json:"pair"`
	Subscripts string `json:"subscripts"`
	Remaining  string `json:"remaining"`
	Kind       string `json:"kind"`
	Scaling    int    `json:"scaling"`
	Flops      count  `json:"flops"`
	Size       count  `json:"size"`
}

// count is a float64 that marshals an infinity or NaN as a string.
type count float64

func (c count) MarshalJSON() ([]byte, error) {
	f := float64(c)
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return []byte(`"` + strconv.FormatFloat(f, 'g', -1, 64) + `"`), nil
	}
	return json.Marshal(f)
}

func runPath(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("path", stderr)
	optimize := fs.String("optimize", "auto", "path strategy: greedy, optimal, auto, random or search")
	memLimit := fs.String("memory-limit", "0", "peak of one slice's intermediates allowed, in bytes of --dtype (suffixes KiB, MiB, GiB, ...; 0: no limit); a contraction whose best path needs more is sliced")
	dtypeFlag := fs.String("dtype", "f64", "element type the memory limit counts bytes of: f32, f64, c64 or c128")
	asJSON := fs.Bool("json", false, "print a JSON object instead of the report")
	sliceOutput := fs.Bool("slice-output", false, "let slicing cut output labels too: each slice then computes its own part of the output")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: tenferro path [--optimize S] [--memory-limit BYTES] [--slice-output] [--dtype D] [--json] SUBSCRIPTS SHAPE...")
		fmt.Fprintln(stderr, "  SHAPE is like 2x3 (column-major extents), 5, or scalar (or '') for rank 0")
		fmt.Fprintln(stderr, "  with --memory-limit the report shows the sliced labels, the number of slices, the peak")
		fmt.Fprintln(stderr, "  of one slice and the FLOP overhead of slicing, then the plan of one slice")
		fs.PrintDefaults()
	}
	rest, code, done := commandArgs(fs, args)
	if done {
		return code
	}
	var err error
	if len(rest) < 1 {
		return fail(stderr, "path", fmt.Errorf("missing SUBSCRIPTS (usage: tenferro path [flags] SUBSCRIPTS SHAPE...)"))
	}
	strategy, serr := einsum.ParseStrategy(*optimize)
	if serr != nil || strategy == einsum.Given {
		return fail(stderr, "path", fmt.Errorf("--optimize: expected greedy, optimal, auto, random or search, got %q", *optimize))
	}
	limitBytes, err := parseBytes(*memLimit)
	if err != nil {
		return fail(stderr, "path", fmt.Errorf("--memory-limit: %v", err))
	}
	dt, err := tf.ParseDType(*dtypeFlag)
	if err != nil || !dt.IsNumber() {
		return fail(stderr, "path", fmt.Errorf("--dtype: expected f32, f64, c64 or c128, got %q", *dtypeFlag))
	}
	shapes := make([][]int, len(rest)-1)
	for i, s := range rest[1:] {
		if shapes[i], err = parseShape(s); err != nil {
			return fail(stderr, "path", fmt.Errorf("shape of operand %d: %v", i, err))
		}
	}
	size := float64(dt.Size())
	sp, err := planPath(rest[0], shapes, einsum.Options{Strategy: strategy, MemoryLimit: float64(limitBytes) / size, SliceOutput: *sliceOutput})
	if err != nil {
		var ee *einsum.Error
		if errors.Is(err, einsum.ErrLimitTooSmall) && errors.As(err, &ee) && len(ee.Extents) == 2 {
			return fail(stderr, "path", fmt.Errorf("--memory-limit: %d bytes is below the smallest peak one slice reaches, %.0f bytes of %s (memory limit too small)", limitBytes, float64(ee.Extents[1])*size, dt))
		}
		return fail(stderr, "path", err)
	}
	if *asJSON {
		r := sp.Plan.Summary()
		steps := make([]stepJSON, len(r.Steps))
		for i, st := range r.Steps {
			steps[i] = stepJSON{Pair: st.Pair, Subscripts: st.Subscripts, Remaining: st.Remaining, Kind: st.Kind,
				Scaling: st.Scaling, Flops: count(st.Flops), Size: count(st.Size)}
		}
		return writeJSONPlain(stdout, stderr, pathJSON{
			Subscripts: sp.Problem.Subscripts(), Shapes: sp.Problem.Shapes, Strategy: r.Strategy, Path: nonNilPath(r.Path),
			Flops: count(r.OptimizedFlops), NaiveFlops: count(r.NaiveFlops), Speedup: count(r.Speedup),
			LargestIntermediate: count(r.LargestIntermediate), NaiveScaling: r.NaiveScaling,
			OptimizedScaling: r.OptimizedScaling, Steps: steps, Final: r.Final,
			DType: dt.String(), SlicedLabels: sp.LabelNames(), SlicedExtents: sp.Extents, SlicedWidths: sp.Widths, SlicedOutput: len(sp.Labels) - sp.Summed, Slices: sp.Slices,
			FlopOverhead: count(sp.FlopOverhead), SlicePeakBytes: count(sp.PeakPerSlice * size), TotalFlops: count(sp.Flops),
		})
	}
	report := sp.Plan.Report()
	if limitBytes > 0 {
		report = sp.Report()
	}
	fmt.Fprint(stdout, report)
	if !strings.HasSuffix(report, "\n") {
		fmt.Fprintln(stdout)
	}
	return 0
}

// planPath parses, binds and plans subscripts with the library's grammar
// (the one Einsum uses), sliced when opts.MemoryLimit (in elements) is
// below the best path's peak.
func planPath(subscripts string, shapes [][]int, opts einsum.Options) (*einsum.SlicedPlan, error) {
	expr, err := einsum.Parse(subscripts)
	if err != nil {
		return nil, err
	}
	prob, err := expr.Bind(shapes)
	if err != nil {
		return nil, err
	}
	return einsum.NewSlicedPlan(prob, opts)
}

// writeJSONPlain prints v as indented JSON without HTML escaping, so
// subscripts keep their "->"; a failure is reported on stderr.
func writeJSONPlain(w, stderr io.Writer, v any) int {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		fmt.Fprintf(stderr, "tenferro: writing JSON: %v\n", err)
		return 1
	}
	return 0
}

func nonNilPath(p [][2]int) [][2]int {
	if p == nil {
		return [][2]int{}
	}
	return p
}

// parseShape reads a shape written as extents joined by 'x' ("2x3x4"),
// a single extent ("5"), or "" / "scalar" for rank 0.
func parseShape(s string) ([]int, error) {
	s = strings.TrimSpace(s)
	if s == "" || s == "scalar" || s == "()" {
		return []int{}, nil
	}
	parts := strings.Split(s, "x")
	shape := make([]int, len(parts))
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("expected extents >= 0 joined by 'x' (like 2x3), 'scalar' or '', got %q", s)
		}
		shape[i] = n
	}
	return shape, nil
}
