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
// largest pairwise result.
type pathJSON struct {
	Subscripts          string              `json:"subscripts"`
	Shapes              [][]int             `json:"shapes"`
	Strategy            string              `json:"strategy"`
	Path                [][2]int            `json:"path"`
	Flops               float64             `json:"flops"`
	NaiveFlops          float64             `json:"naive_flops"`
	Speedup             float64             `json:"speedup"`
	LargestIntermediate float64             `json:"largest_intermediate"`
	NaiveScaling        int                 `json:"naive_scaling"`
	OptimizedScaling    int                 `json:"optimized_scaling"`
	Steps               []einsum.ReportStep `json:"steps"`
	Final               string              `json:"final"`
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
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return 2
	}
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
		return writeJSONPlain(stdout, pathJSON{
			Subscripts: r.Subscripts, Shapes: r.Shapes, Strategy: r.Strategy, Path: nonNilPath(r.Path),
			Flops: r.OptimizedFlops, NaiveFlops: r.NaiveFlops, Speedup: r.Speedup,
			LargestIntermediate: r.LargestIntermediate, NaiveScaling: r.NaiveScaling,
			OptimizedScaling: r.OptimizedScaling, Steps: r.Steps, Final: r.Final,
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
// subscripts keep their "->".
func writeJSONPlain(w io.Writer, v any) int {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
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
