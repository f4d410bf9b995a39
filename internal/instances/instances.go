// Package instances loads einsum benchmark workloads and generates the
// built-in ones.
//
// # Instances
//
// An [Instance] is one einsum problem: column-major subscripts and operand
// shapes, the element type, and optionally precomputed linear contraction
// paths in the NumPy/opt_einsum format (each step names two positions in
// the current operand list; the two operands are removed and their result
// is appended). The row-major form (NumPy's C order) of the same problem
// has every operand's labels and extents reversed.
//
// [Load] and [LoadDir] read the JSON files of the public einsum benchmark
// suite ("format_string", "format_string_colmajor", "shapes",
// "shapes_colmajor", "dtype", "paths"). The data is read by path and never
// copied into this repository: [FindDir] locates it. [Builtin] generates a
// suite the project owns, so that users without the data still have
// meaningful workloads.
//
// # Labels
//
// A label is any rune other than ',', '-', '>', '.' and white space; the
// public data uses letters from many scripts and a few other symbols
// (digits, '×', '÷'). Subscripts always carry an explicit "->" output in
// instances made here.
package instances

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Instance is one einsum workload.
type Instance struct {
	Name        string
	Description string // what the workload measures, when known

	// Subscripts and Shapes describe the problem for column-major (first
	// index fastest) operands, the layout of this module.
	Subscripts string
	Shapes     [][]int
	// RowMajorSubscripts and RowMajorShapes describe the same problem for
	// row-major operands: each operand's labels and extents reversed.
	RowMajorSubscripts string
	RowMajorShapes     [][]int

	DType string // "float32", "float64", "complex64" or "complex128"

	// Paths maps a path name ("opt_flops", "opt_size") to a linear pairwise
	// contraction path. Empty for built-in instances.
	Paths map[string][][2]int
	// PathCosts holds the costs the data states for each path, if any.
	PathCosts map[string]PathCost
}

// PathCost is the cost of a contraction path as stated by the data.
type PathCost struct {
	Log10Flops float64 // log10 of the floating-point operations
	Log2Size   float64 // log2 of the largest intermediate's element count
}

// ErrInvalid is matched (errors.Is) by every error reporting malformed
// instance or permutation data.
var ErrInvalid = errors.New("invalid instance data")

func invalidf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, args...))
}

type rawPath struct {
	Path       [][]int  `json:"path"`
	Log10Flops *float64 `json:"log10_flops"`
	Log2Size   *float64 `json:"log2_size"`
}

type rawInstance struct {
	Name           string             `json:"name"`
	Intent         string             `json:"intent"`
	FormatString   string             `json:"format_string"`
	FormatRowMajor string             `json:"format_string_rowmajor"`
	FormatColMajor string             `json:"format_string_colmajor"`
	Shapes         [][]int            `json:"shapes"`
	ShapesColMajor [][]int            `json:"shapes_colmajor"`
	DType          string             `json:"dtype"`
	NumTensors     *int               `json:"num_tensors"`
	Paths          map[string]rawPath `json:"paths"`
}

// maxFileBytes bounds the size of a file Load accepts.
const maxFileBytes = 64 << 20

// Load reads one instance file. The column-major fields are used when
// present; otherwise they are derived from the row-major ones by reversing
// each operand. The name defaults to the file name without ".json". The
// result is validated with [Instance.Validate].
func Load(path string) (Instance, error) {
	b, err := readBounded(path)
	if err != nil {
		return Instance{}, err
	}
	var r rawInstance
	if err := json.Unmarshal(b, &r); err != nil {
		return Instance{}, fmt.Errorf("instances: %s: %w: %v", path, ErrInvalid, err)
	}
	inst, err := r.instance(strings.TrimSuffix(filepath.Base(path), ".json"))
	if err != nil {
		return Instance{}, fmt.Errorf("instances: %s: %w", path, err)
	}
	return inst, nil
}

func readBounded(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("instances: %w", err)
	}
	if fi.Size() > maxFileBytes {
		return nil, fmt.Errorf("instances: %s: %w: %d bytes, over the limit of %d", path, ErrInvalid, fi.Size(), maxFileBytes)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("instances: %w", err)
	}
	return b, nil
}

func (r *rawInstance) instance(defaultName string) (Instance, error) {
	inst := Instance{Name: r.Name, Description: r.Intent}
	if inst.Name == "" {
		inst.Name = defaultName
	}
	row := r.FormatRowMajor
	if row == "" {
		row = r.FormatString
	}
	switch {
	case r.FormatColMajor != "":
		inst.Subscripts, inst.Shapes = r.FormatColMajor, r.ShapesColMajor
		inst.RowMajorSubscripts, inst.RowMajorShapes = row, r.Shapes
		if row == "" {
			inst.RowMajorSubscripts, inst.RowMajorShapes = reverseOperands(inst.Subscripts), reverseShapes(inst.Shapes)
		}
	case row != "":
		inst.RowMajorSubscripts, inst.RowMajorShapes = row, r.Shapes
		inst.Subscripts, inst.Shapes = reverseOperands(row), reverseShapes(r.Shapes)
	default:
		return Instance{}, invalidf("no format_string or format_string_colmajor")
	}
	if inst.Shapes == nil {
		inst.Shapes = reverseShapes(inst.RowMajorShapes)
	}
	if inst.RowMajorShapes == nil {
		inst.RowMajorShapes = reverseShapes(inst.Shapes)
	}
	dt, err := canonicalDType(r.DType)
	if err != nil {
		return Instance{}, err
	}
	inst.DType = dt
	if r.NumTensors != nil && *r.NumTensors != len(inst.Shapes) {
		return Instance{}, invalidf("num_tensors = %d but %d shapes", *r.NumTensors, len(inst.Shapes))
	}
	if len(r.Paths) > 0 {
		inst.Paths = make(map[string][][2]int, len(r.Paths))
		for name, p := range r.Paths {
			steps := make([][2]int, len(p.Path))
			for i, s := range p.Path {
				if len(s) != 2 {
					return Instance{}, invalidf("path %q step %d has %d operands, expected 2", name, i, len(s))
				}
				steps[i] = [2]int{s[0], s[1]}
			}
			inst.Paths[name] = steps
			if p.Log10Flops != nil || p.Log2Size != nil {
				if inst.PathCosts == nil {
					inst.PathCosts = make(map[string]PathCost)
				}
				var c PathCost
				if p.Log10Flops != nil {
					c.Log10Flops = *p.Log10Flops
				}
				if p.Log2Size != nil {
					c.Log2Size = *p.Log2Size
				}
				inst.PathCosts[name] = c
			}
		}
	}
	if err := inst.Validate(); err != nil {
		return Instance{}, err
	}
	return inst, nil
}

// canonicalDType maps the dtype spellings of the data ("float64", "f64",
// ...) to the long Go names.
func canonicalDType(s string) (string, error) {
	switch s {
	case "float32", "f32":
		return "float32", nil
	case "float64", "f64", "":
		return "float64", nil
	case "complex64", "c64":
		return "complex64", nil
	case "complex128", "c128":
		return "complex128", nil
	}
	return "", invalidf("dtype %q, expected float32, float64, complex64 or complex128", s)
}

// LoadDir loads every instance file (*.json) in dir, sorted by name. Files
// holding permutation patterns (a top-level "patterns" key) are skipped;
// load them with [LoadPermutations]. Names must be unique.
func LoadDir(dir string) ([]Instance, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, fmt.Errorf("instances: %w", err)
	}
	var out []Instance
	for _, f := range files {
		b, err := readBounded(f)
		if err != nil {
			return nil, err
		}
		var probe map[string]json.RawMessage
		if err := json.Unmarshal(b, &probe); err != nil {
			return nil, fmt.Errorf("instances: %s: %w: %v", f, ErrInvalid, err)
		}
		if _, ok := probe["patterns"]; ok {
			continue
		}
		inst, err := Load(f)
		if err != nil {
			return nil, err
		}
		out = append(out, inst)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	for i := 1; i < len(out); i++ {
		if out[i].Name == out[i-1].Name {
			return nil, fmt.Errorf("instances: %s: %w: duplicate instance name %q", dir, ErrInvalid, out[i].Name)
		}
	}
	return out, nil
}

// EnvDir is the environment variable that overrides where [FindDir] looks.
const EnvDir = "TENFERRO_INSTANCES"

// FindDir locates the public instance data: the directory named by the
// TENFERRO_INSTANCES environment variable if it is set, otherwise
// ../shared/einsum-instances relative to the module root (the nearest
// directory at or above the working directory holding go.mod). ok is false
// when the directory does not exist.
func FindDir() (dir string, ok bool) {
	if d := os.Getenv(EnvDir); d != "" {
		return d, isDir(d)
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", false
	}
	for d := wd; ; {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			cand := filepath.Join(d, "..", "shared", "einsum-instances")
			return cand, isDir(cand)
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", false
		}
		d = parent
	}
}

func isDir(d string) bool {
	fi, err := os.Stat(d)
	return err == nil && fi.IsDir()
}
