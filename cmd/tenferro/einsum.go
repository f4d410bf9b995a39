package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/cmplx"
	"os"
	"strconv"
	"strings"
	"unicode"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/einsum"
	"github.com/tenferro-go/tenferro/npy"
	"github.com/tenferro-go/tenferro/team"
)

func init() {
	register("einsum", "evaluate an einsum on .npy files and write the result as .npy", runEinsumCmd)
}

// errOutput marks a failure to write the result (exit status 1, not 2).
var errOutput = errors.New("cannot write the output")

func runEinsumCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("einsum", stderr)
	pathFlag := fs.String("path", "auto", "path strategy (greedy, optimal, auto, random, search) or a JSON file holding a linear path [[0,1],...]")
	threads := fs.Int("threads", 1, "team width (1 = serial engine)")
	outFile := fs.String("o", "", "output .npy file (required)")
	budgetFlag := fs.String("memory-budget", "", "bytes the inputs together, and the evaluation, may take (suffixes KiB, MiB, GiB, ...; 0: no budget); default: "+strconv.FormatInt(tf.DefaultMemoryBudget(), 10)+" (see tenferro.DefaultMemoryBudget)")
	limitFlag := fs.String("memory-limit", "0", "peak of the intermediates allowed, in bytes of the operands' dtype (suffixes KiB, MiB, GiB, ...; 0: none besides the budget); a contraction whose best path needs more is sliced and its slices summed")
	sliceOutput := fs.Bool("slice-output", false, "let slicing cut output labels too: each slice then computes its own part of the output")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: tenferro einsum [--path P] [--threads N] [--memory-budget BYTES] [--memory-limit BYTES] [--slice-output] -o OUT.npy SUBSCRIPTS IN.npy...")
		fmt.Fprintln(stderr, "  subscripts name the axes of each file in NumPy's order (a C-order file's a[i,j] is element (i,j))")
		fmt.Fprintln(stderr, "  the budget, less the output, bounds the intermediates too: above it the contraction runs sliced")
		fs.PrintDefaults()
	}
	rest, code, done := commandArgs(fs, args)
	if done {
		return code
	}
	switch {
	case len(rest) < 2:
		return fail(stderr, "einsum", fmt.Errorf("expected SUBSCRIPTS and at least one IN.npy, got %d argument(s)", len(rest)))
	case *outFile == "":
		return fail(stderr, "einsum", fmt.Errorf("missing -o OUT.npy"))
	case *threads < 1 || *threads > team.MaxThreads:
		return fail(stderr, "einsum", fmt.Errorf("--threads must be in [1, %d], got %d", team.MaxThreads, *threads))
	}
	opts, err := pathOptions(*pathFlag)
	if err != nil {
		return fail(stderr, "einsum", err)
	}
	limitBytes, err := parseBytes(*limitFlag)
	if err != nil {
		return fail(stderr, "einsum", fmt.Errorf("--memory-limit: %v", err))
	}
	budget := tf.DefaultMemoryBudget()
	if *budgetFlag != "" {
		if budget, err = parseBytes(*budgetFlag); err != nil {
			return fail(stderr, "einsum", fmt.Errorf("--memory-budget: %v", err))
		}
		if budget == 0 {
			budget = math.MaxInt64 // no budget
		}
	}
	// The inputs together may take the budget: each file is read with the
	// bytes the earlier ones left.
	vals := make([]tf.Value, len(rest)-1)
	left := budget
	for i, name := range rest[1:] {
		if vals[i], err = loadValue(name, left); err != nil {
			return fail(stderr, "einsum", fmt.Errorf("operand %d: %v", i, err))
		}
		left -= int64(tf.Numel(vals[i].Shape()) * vals[i].DType().Size())
	}
	if vals, err = promoteAll(vals); err != nil {
		return fail(stderr, "einsum", err)
	}
	if limitBytes > 0 {
		// In elements of the promoted dtype; a limit below one element
		// leaves room for no intermediate at all.
		opts = append(opts, tf.WithMemoryLimit(float64(limitBytes)/float64(vals[0].DType().Size())))
	}
	if *sliceOutput {
		opts = append(opts, tf.WithOutputSlicing())
	}
	e, err := newEngine(*threads)
	if err != nil {
		return fail(stderr, "einsum", err)
	}
	defer e.Close()
	if err := e.SetMemoryBudget(budget); err != nil {
		return fail(stderr, "einsum", err)
	}
	res, err := einsumValues(e, rest[0], opts, vals)
	if err != nil {
		return fail(stderr, "einsum", err)
	}
	defer res.Release()
	if err := npy.WriteValueFile(*outFile, res); err != nil {
		fmt.Fprintf(stderr, "tenferro einsum: %v %s: %v\n", errOutput, *outFile, err)
		return 1
	}
	return 0
}

// newEngine returns a serial engine for threads == 1 and an engine over a
// team of that width otherwise.
func newEngine(threads int) (*cpu.Engine, error) {
	if threads == 1 {
		return cpu.Serial(), nil
	}
	tm, err := team.New(team.Threads(threads))
	if err != nil {
		return nil, err
	}
	return cpu.New(tm)
}

// pathOptions maps --path to planning options: a strategy name, or a file
// holding a linear path as a JSON array of pairs (or an object with a
// "path" field, as `tenferro path --json` prints).
func pathOptions(s string) ([]tf.Option, error) {
	if st, err := einsum.ParseStrategy(s); err == nil && st != einsum.Given {
		return []tf.Option{tf.WithStrategy(st)}, nil
	}
	path, err := readPathFile(s)
	if err != nil {
		return nil, fmt.Errorf("--path %q: not a strategy (greedy, optimal, auto, random, search) and %v", s, err)
	}
	return []tf.Option{tf.WithPath(path)}, nil
}

// maxPathFileBytes bounds what --path reads from a file (a path for a
// million operands fits).
const maxPathFileBytes = 16 << 20

func readPathFile(name string) ([][2]int, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("not a readable path file: %v", missingFile(name, err))
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxPathFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("not a readable path file: %v", err)
	}
	if len(data) > maxPathFileBytes {
		return nil, fmt.Errorf("path file larger than %d bytes", maxPathFileBytes)
	}
	var raw json.RawMessage = data
	var obj struct {
		Path json.RawMessage `json:"path"`
	}
	if json.Unmarshal(data, &obj) == nil && obj.Path != nil {
		raw = obj.Path
	}
	var pairs [][]int
	if err := json.Unmarshal(raw, &pairs); err != nil {
		return nil, fmt.Errorf("path file: expected a JSON array of pairs like [[0,1],[0,1]]: %v", err)
	}
	path := make([][2]int, len(pairs))
	for i, p := range pairs {
		if len(p) != 2 {
			return nil, fmt.Errorf("path file: step %d has %d positions, expected 2", i, len(p))
		}
		path[i] = [2]int{p[0], p[1]}
	}
	return path, nil
}

// loadValue reads a .npy file of at most maxBytes of data as a
// column-major tensor of the same shape (element (i, j, ...) equals NumPy's
// a[i, j, ...] whatever the file's order) of one of the arithmetic dtypes
// einsum takes.
func loadValue(name string, maxBytes int64) (tf.Value, error) {
	v, err := npy.ReadValueFile(name, npy.MaxBytes(max(maxBytes, 0)))
	if err != nil {
		return tf.Value{}, missingFile(name, err)
	}
	if !v.DType().IsNumber() {
		return tf.Value{}, fmt.Errorf("%s: dtype %v, expected f32, f64, c64 or c128", name, v.DType())
	}
	return v, err
}

// promoteAll converts every value to the common dtype NumPy would pick.
func promoteAll(vals []tf.Value) ([]tf.Value, error) {
	dt := vals[0].DType()
	for _, v := range vals[1:] {
		dt = tf.Promote(dt, v.DType())
	}
	out := make([]tf.Value, len(vals))
	for i, v := range vals {
		c, err := tf.Convert(v, dt)
		if err != nil {
			return nil, fmt.Errorf("operand %d: %v", i, err)
		}
		out[i] = c
	}
	return out, nil
}

// einsumByDType evaluates an einsum on values of one dtype.
var einsumByDType = [...]func(e tf.Engine, subscripts string, opts []tf.Option, vals []tf.Value) (tf.Value, error){
	tf.Float32:    einsumTyped[float32],
	tf.Float64:    einsumTyped[float64],
	tf.Complex64:  einsumTyped[complex64],
	tf.Complex128: einsumTyped[complex128],
}

// einsumValues evaluates subscripts on values of one dtype.
func einsumValues(e tf.Engine, subscripts string, opts []tf.Option, vals []tf.Value) (tf.Value, error) {
	if dt := vals[0].DType(); int(dt) < len(einsumByDType) && einsumByDType[dt] != nil {
		return einsumByDType[dt](e, subscripts, opts, vals)
	}
	return tf.Value{}, fmt.Errorf("unsupported dtype %v", vals[0].DType())
}

func einsumTyped[T tf.Scalar](e tf.Engine, subscripts string, opts []tf.Option, vals []tf.Value) (tf.Value, error) {
	ops := make([]*tf.Tensor[T], len(vals))
	for i, v := range vals {
		t, err := tf.As[T](v)
		if err != nil {
			return tf.Value{}, err
		}
		ops[i] = t
	}
	r, err := tf.EinsumWith(e, subscripts, ops, opts...)
	if err != nil {
		return tf.Value{}, err
	}
	return tf.ValueOf(r), nil
}

// letterSubscripts returns subscripts whose labels are all letters, as
// Einsum's grammar requires: the public instances also use digits and
// symbols ('×', '÷', ...), which are mapped one to one onto CJK ideographs
// (letters) that the expression does not use. Structure and output order
// are unchanged (instances always have an explicit output).
func letterSubscripts(s string) (string, error) {
	isLabel := func(r rune) bool {
		return !unicode.IsSpace(r) && !unicode.IsControl(r) && !strings.ContainsRune(",->.", r)
	}
	used := map[rune]bool{}
	for _, r := range s {
		used[r] = true
	}
	mapping := map[rune]rune{}
	next := rune(0x4E00)
	var b strings.Builder
	for _, r := range s {
		if isLabel(r) && !unicode.IsLetter(r) {
			m, ok := mapping[r]
			if !ok {
				for used[next] || !unicode.IsLetter(next) {
					next++
				}
				m = next
				used[m], mapping[r] = true, m
			}
			r = m
		}
		b.WriteRune(r)
	}
	if len(mapping) > 0 && !strings.Contains(s, "->") {
		return "", errors.New("subscripts with non-letter labels need an explicit output")
	}
	return b.String(), nil
}

// Scalar helpers shared by the commands.

func epsOf[T tf.Scalar]() (eps, tiny float64) {
	var z T
	switch any(z).(type) {
	case float32, complex64:
		return 0x1p-24, 0x1p-126
	}
	return 0x1p-53, 0x1p-1022
}

func toC128[T tf.Scalar](v T) complex128 {
	switch x := any(v).(type) {
	case float32:
		return complex(float64(x), 0)
	case float64:
		return complex(x, 0)
	case complex64:
		return complex128(x)
	}
	return any(v).(complex128)
}

func fromReal[T tf.Scalar](x float64) T {
	var z T
	switch any(z).(type) {
	case float32:
		return any(float32(x)).(T)
	case float64:
		return any(x).(T)
	case complex64:
		return any(complex64(complex(x, 0))).(T)
	}
	return any(complex(x, 0)).(T)
}

func toAbs[T tf.Scalar](v T) float64 { return cmplx.Abs(toC128(v)) }

func absDiff[T tf.Scalar](a, b T) float64 { return cmplx.Abs(toC128(a) - toC128(b)) }
