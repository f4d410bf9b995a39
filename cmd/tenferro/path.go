package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

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
	memLimit := fs.Float64("memory-limit", 0, "largest intermediate allowed, in elements (0: no limit)")
	asJSON := fs.Bool("json", false, "print a JSON object instead of the report")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: tenferro path [--optimize S] [--memory-limit N] [--json] SUBSCRIPTS SHAPE...")
		fmt.Fprintln(stderr, "  SHAPE is like 2x3 (column-major extents), 5, or scalar (or '') for rank 0")
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
	if !(*memLimit >= 0) || math.IsInf(*memLimit, 0) {
		return fail(stderr, "path", fmt.Errorf("--memory-limit: expected a finite number >= 0, got %v", *memLimit))
	}
	shapes := make([][]int, len(rest)-1)
	for i, s := range rest[1:] {
		if shapes[i], err = parseShape(s); err != nil {
			return fail(stderr, "path", fmt.Errorf("shape of operand %d: %v", i, err))
		}
	}
	pl, err := planPath(rest[0], shapes, einsum.Options{Strategy: strategy, MemoryLimit: *memLimit})
	if err != nil {
		return fail(stderr, "path", err)
	}
	if *asJSON {
		r := pl.Summary()
		steps := make([]stepJSON, len(r.Steps))
		for i, st := range r.Steps {
			steps[i] = stepJSON{Pair: st.Pair, Subscripts: st.Subscripts, Remaining: st.Remaining, Kind: st.Kind,
				Scaling: st.Scaling, Flops: count(st.Flops), Size: count(st.Size)}
		}
		return writeJSONPlain(stdout, stderr, pathJSON{
			Subscripts: r.Subscripts, Shapes: r.Shapes, Strategy: r.Strategy, Path: nonNilPath(r.Path),
			Flops: count(r.OptimizedFlops), NaiveFlops: count(r.NaiveFlops), Speedup: count(r.Speedup),
			LargestIntermediate: count(r.LargestIntermediate), NaiveScaling: r.NaiveScaling,
			OptimizedScaling: r.OptimizedScaling, Steps: steps, Final: r.Final,
		})
	}
	report := pl.Report()
	fmt.Fprint(stdout, report)
	if !strings.HasSuffix(report, "\n") {
		fmt.Fprintln(stdout)
	}
	return 0
}

// planPath parses, binds and plans subscripts with the library's grammar
// (the one Einsum uses).
func planPath(subscripts string, shapes [][]int, opts einsum.Options) (*einsum.Plan, error) {
	expr, err := einsum.Parse(subscripts)
	if err != nil {
		return nil, err
	}
	prob, err := expr.Bind(shapes)
	if err != nil {
		return nil, err
	}
	return einsum.NewPlan(prob, opts)
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
