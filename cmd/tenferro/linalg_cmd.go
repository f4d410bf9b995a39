// linalg: the factorizations and solvers of package linalg on .npy files.
//
//	tenferro linalg OP [options] -o PREFIX IN.npy...
//
// OP is one of the operations of linalgOps (tenferro linalg lists them);
// each reads its inputs with NumPy's axis order, (..., m, n) with the
// batch axes leading, and writes every result as PREFIX.NAME.npy in C
// order with the batch axes leading again, so that numpy.load gives what
// numpy.linalg would. Between the two the matrices are views with the
// matrix axes first and the batch axes last, package linalg's layout
// (a NumPy (b, m, n) array is the library's (m, n, b) view of the same
// data, no copy). Inputs of different dtypes are promoted as NumPy
// promotes them; int64 and bool files are refused.
//
// Bad input (a missing or unreadable file, a dtype or shape the operation
// does not take, a singular or indefinite matrix, an option the operation
// does not take) prints one line "tenferro linalg OP: <error>" on standard
// error and exits with status 2; a result that cannot be written exits
// with status 1.

package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/linalg"
	"github.com/tenferro-go/tenferro/npy"
	"github.com/tenferro-go/tenferro/team"
)

func init() {
	register("linalg", "factorizations and solvers of package linalg on .npy files", runLinalgCmd)
}

// linalgFlags are the options of `tenferro linalg`; each operation takes
// the ones its table entry names.
type linalgFlags struct {
	upper    bool   // cholesky: A = Uᴴ·U
	packed   bool   // lu: the packed factors and pivots instead of P, L, U
	mode     string // qr, lq: reduced, complete, or only the triangular factor
	positive bool   // qr, lq: a real non-negative diagonal
	full     bool   // svd: the complete U and Vᴴ
	values   bool   // svd, eigh: the values alone
	maxRank  int    // svd: keep at most this many singular triplets (0: all)
	cutoff   float64
	relCut   float64
	rcond    float64 // lstsq, pinv: NaN for NumPy's default
	pivoting bool    // qr: column pivoting
	right    bool    // solve_triangular: X·A = B
	unitDiag bool    // solve_triangular: unit diagonal
	ord      linalg.NormOrder
	ordSet   bool    // --ord given (NormFro is the zero value)
	atol     float64 // matrix_rank
	rtol     float64 // matrix_rank: < 0 for NumPy's default
}

// linalgOption is one operation-specific option: its flag name, whether it
// takes a value, and what it means.
type linalgOption struct {
	name  string
	value bool
	usage string
}

var linalgOptions = []linalgOption{
	{"upper", false, "cholesky: the upper factor U with A = Uᴴ·U (written as PREFIX.u.npy); cholesky_solve: C is that U; eigh, solve_triangular: read A's upper triangle"},
	{"lower", false, "cholesky, cholesky_solve, eigh, solve_triangular: the lower triangle (the default)"},
	{"right", false, "solve_triangular: solve X·A = B instead of A·X = B"},
	{"unit-diagonal", false, "solve_triangular: take A's diagonal as ones (not read)"},
	{"packed", false, "lu: write LAPACK's packed factors PREFIX.lu.npy and 0-based pivots PREFIX.piv.npy instead of P, L, U"},
	{"mode", true, "qr, lq: reduced (default), complete, or r (qr) / l (lq) for the triangular factor alone"},
	{"positive", false, "qr, lq: make the triangular factor's diagonal real and non-negative"},
	{"full", false, "svd: the complete U (m, m) and Vᴴ (n, n) (numpy's full_matrices=True); default thin"},
	{"values-only", false, "svd, eigh: the values alone (PREFIX.s, PREFIX.w)"},
	{"max-rank", true, "svd: keep at most K singular triplets (a single matrix; linalg.TruncatedSVD)"},
	{"cutoff", true, "svd: drop the singular values σ ≤ EPS (a single matrix; linalg.TruncatedSVD)"},
	{"rel-cutoff", true, "svd: drop the singular values σ ≤ EPS·σ₀ (a single matrix; linalg.TruncatedSVD)"},
	{"pivoting", false, "qr: column pivoting, A[:, perm] = Q·R (PREFIX.perm, 0-based), as scipy.linalg.qr(pivoting=True)"},
	{"ord", true, "norm, cond: the order, fro, nuc, 1, -1, 2, -2, inf or -inf (default fro for norm, 2 for cond)"},
	{"atol", true, "matrix_rank: singular values σ ≤ max(atol, rtol·σ₀) count as zero (default 0)"},
	{"rtol", true, "matrix_rank: see --atol (default NumPy's max(m, n)·eps when --atol is unset)"},
	{"rcond", true, "lstsq, pinv: singular values σ ≤ X·σ₀ count as zero; default NumPy's (lstsq max(m, n)·eps, pinv 1e-15)"},
}

// output is one result: the file suffix NAME, the value in the library's
// layout, and how many of its leading axes are matrix (or vector) axes;
// the others are batch axes, moved to the front when written.
type output struct {
	name string
	v    tf.Value
	mat  int
}

// checkInputs checks the NumPy-order shapes of the inputs of o that must
// be (batches of) square matrices, so that a bad shape is reported as
// NumPy's (..., n, n) rather than in the library's layout.
func checkInputs(kinds []inputKind, vals []tf.Value) error {
	for i, k := range kinds {
		s := vals[i].Shape()
		if k.square() && (len(s) < 2 || s[len(s)-1] != s[len(s)-2]) {
			return fmt.Errorf("input %d has shape %s, expected square matrices (..., n, n)", i+1, fmtShape(s))
		}
	}
	return nil
}

// fmtShape prints a shape as NumPy does: (3,), (2, 3).
func fmtShape(s []int) string {
	if len(s) == 1 {
		return fmt.Sprintf("(%d,)", s[0])
	}
	return "(" + strings.Trim(strings.Join(strings.Fields(fmt.Sprint(s)), ", "), "[]") + ")"
}

// libView returns the library-layout view (m, n, batch...) of a NumPy-order
// tensor (batch..., m, n); tensors of rank below 2 are returned as they
// are (the operation rejects them).
func libView[E tf.Elem](t *tf.Tensor[E]) (*tf.Tensor[E], error) {
	r := t.Rank()
	if r <= 2 {
		return t, nil
	}
	perm := make([]int, 0, r)
	perm = append(perm, r-2, r-1)
	for d := range r - 2 {
		perm = append(perm, d)
	}
	return t.Permute(perm...)
}

// numpyView returns the NumPy-order view of a library-layout tensor whose
// first mat axes are matrix (or vector) axes: those move behind the batch
// axes.
func numpyView[E tf.Elem](t *tf.Tensor[E], mat int) (*tf.Tensor[E], error) {
	r := t.Rank()
	if mat == 0 || mat >= r {
		return t, nil
	}
	perm := make([]int, 0, r)
	for d := mat; d < r; d++ {
		perm = append(perm, d)
	}
	for d := range mat {
		perm = append(perm, d)
	}
	return t.Permute(perm...)
}

// writeNumPy writes the library-layout t (mat leading matrix axes) to
// path as a C-order .npy array in NumPy's axis order.
func writeNumPy[E tf.Elem](e tf.Engine, path string, t *tf.Tensor[E], mat int) error {
	v, err := numpyView(t, mat)
	if err != nil {
		return err
	}
	c, err := tf.Contiguous(e, v, tf.RowMajor)
	if err != nil {
		return err
	}
	defer c.Release()
	data := c.Storage()[c.Offset() : c.Offset()+c.Len()]
	return writeNPYFile(path, &npy.Array{Shape: c.Shape(), Fortran: false, Data: data})
}

// writeNPYFile writes a to a new file at path.
func writeNPYFile(path string, a *npy.Array) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := npy.WriteArray(f, a); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// writeOutput writes one output value; see writeNumPy.
func writeOutput(e tf.Engine, path string, o output) error {
	switch t := o.v.Tensor().(type) {
	case *tf.Tensor[float32]:
		return writeNumPy(e, path, t, o.mat)
	case *tf.Tensor[float64]:
		return writeNumPy(e, path, t, o.mat)
	case *tf.Tensor[complex64]:
		return writeNumPy(e, path, t, o.mat)
	case *tf.Tensor[complex128]:
		return writeNumPy(e, path, t, o.mat)
	case *tf.Tensor[int64]:
		return writeNumPy(e, path, t, o.mat)
	}
	return fmt.Errorf("output %s holds no tensor", o.name)
}

// releaseOutputs gives the results back to the engine's pool.
func releaseOutputs(os []output) {
	for _, o := range os {
		if o.v.Tensor() != nil {
			_ = o.v.Release()
		}
	}
}

// linalgByDType runs operation name on inputs of one dtype.
var linalgByDType = [...]func(e tf.Engine, name string, vals []tf.Value, f linalgFlags) ([]output, error){
	tf.Float32:    linalgTyped[float32],
	tf.Float64:    linalgTyped[float64],
	tf.Complex64:  linalgTyped[complex64],
	tf.Complex128: linalgTyped[complex128],
}

func linalgTyped[T tf.Scalar](e tf.Engine, name string, vals []tf.Value, f linalgFlags) ([]output, error) {
	o, _ := findLinalgOp[T](name)
	in := make([]*tf.Tensor[T], len(vals))
	for i, v := range vals {
		t, err := tf.As[T](v)
		if err != nil {
			return nil, err
		}
		if !o.numpyIn {
			if t, err = libView(t); err != nil {
				return nil, err
			}
		}
		in[i] = t
	}
	return o.run(e, in, f)
}

func linalgUsage(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprintln(w, "usage: tenferro linalg OP [options] -o PREFIX IN.npy...")
	fmt.Fprintln(w, "  inputs in NumPy's axis order (..., m, n), batch axes first; results written as PREFIX.NAME.npy, C order")
	fmt.Fprintln(w, "operations:")
	for _, o := range linalgOps[float64]() {
		fmt.Fprintf(w, "  %-16s %d input(s): %s\n", o.name, len(o.in), o.summary)
	}
	if fs != nil {
		fmt.Fprintln(w, "options:")
		fs.SetOutput(w)
		fs.PrintDefaults()
	}
}

func runLinalgCmd(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		linalgUsage(stderr, nil)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	opName := args[0]
	name := "linalg " + opName
	o, ok := findLinalgOp[float64](opName)
	if !ok {
		return fail(stderr, name, fmt.Errorf("unknown operation %q (have %s)", opName, strings.Join(linalgOpNames(), ", ")))
	}
	fs := newFlags(name, io.Discard)
	prefix := fs.String("o", "", "output prefix: results go to PREFIX.NAME.npy (required)")
	threads := fs.Int("threads", 1, "team width (1 = serial engine)")
	bools, strs := map[string]*bool{}, map[string]*string{}
	for _, opt := range linalgOptions {
		if opt.value {
			strs[opt.name] = fs.String(opt.name, "", opt.usage)
		} else {
			bools[opt.name] = fs.Bool(opt.name, false, opt.usage)
		}
	}
	rest, err := parseArgs(fs, args[1:])
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			linalgUsage(stderr, fs)
			return 0
		}
		return fail(stderr, name, err)
	}
	var bad []string
	fs.Visit(func(fl *flag.Flag) {
		if _, b := bools[fl.Name]; (b || strs[fl.Name] != nil) && !slices.Contains(o.opts, fl.Name) {
			bad = append(bad, "--"+fl.Name)
		}
	})
	switch {
	case len(bad) > 0:
		return fail(stderr, name, fmt.Errorf("option %s does not apply to %s", strings.Join(bad, ", "), opName))
	case *bools["upper"] && *bools["lower"]:
		return fail(stderr, name, errors.New("--upper and --lower exclude each other"))
	case len(rest) != len(o.in):
		return fail(stderr, name, fmt.Errorf("expected %d input file(s), got %d", len(o.in), len(rest)))
	case *prefix == "":
		return fail(stderr, name, errors.New("missing -o PREFIX"))
	case *threads < 1 || *threads > team.MaxThreads:
		return fail(stderr, name, fmt.Errorf("--threads must be in [1, %d], got %d", team.MaxThreads, *threads))
	}
	f := linalgFlags{upper: *bools["upper"], packed: *bools["packed"], mode: *strs["mode"], positive: *bools["positive"],
		full: *bools["full"], values: *bools["values-only"], pivoting: *bools["pivoting"],
		right: *bools["right"], unitDiag: *bools["unit-diagonal"]}
	if err := checkMode(opName, f.mode); err != nil {
		return fail(stderr, name, err)
	}
	if err := parseNumbers(&f, strs); err != nil {
		return fail(stderr, name, err)
	}
	vals := make([]tf.Value, len(rest))
	for i, file := range rest {
		if vals[i], err = loadValue(file, tf.DefaultMemoryBudget()); err != nil {
			return fail(stderr, name, singleLine(err))
		}
	}
	if vals, err = promoteAll(vals); err != nil {
		return fail(stderr, name, err)
	}
	if err := checkInputs(o.in, vals); err != nil {
		return fail(stderr, name, err)
	}
	e, err := newEngine(*threads)
	if err != nil {
		return fail(stderr, name, err)
	}
	defer e.Close()
	res, err := linalgByDType[vals[0].DType()](e, opName, vals, f)
	if err != nil {
		return fail(stderr, name, singleLine(err))
	}
	defer releaseOutputs(res)
	for _, r := range res {
		path := *prefix + "." + r.name + ".npy"
		if err := writeOutput(e, path, r); err != nil {
			fmt.Fprintf(stderr, "tenferro %s: %v %s: %v\n", name, errOutput, path, singleLine(err))
			return 1
		}
	}
	return 0
}

// parseNumbers reads the numeric options into f: --max-rank K ≥ 1,
// --cutoff and --rel-cutoff ≥ 0, --rcond (NaN when unset).
func parseNumbers(f *linalgFlags, strs map[string]*string) error {
	f.rcond, f.rtol = math.NaN(), -1
	if s := *strs["ord"]; s != "" {
		o, ok := normOrders[s]
		if !ok {
			return fmt.Errorf("--ord: want fro, nuc, 1, -1, 2, -2, inf or -inf, got %q", s)
		}
		f.ord, f.ordSet = o, true
	}
	if s := *strs["max-rank"]; s != "" {
		k, err := strconv.Atoi(s)
		if err != nil || k < 1 {
			return fmt.Errorf("--max-rank: want a rank ≥ 1, got %q", s)
		}
		f.maxRank = k
	}
	for _, c := range []struct {
		name string
		dst  *float64
	}{{"cutoff", &f.cutoff}, {"rel-cutoff", &f.relCut}, {"rcond", &f.rcond}, {"atol", &f.atol}, {"rtol", &f.rtol}} {
		s := *strs[c.name]
		if s == "" {
			continue
		}
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || (v < 0 && c.name != "rcond") {
			return fmt.Errorf("--%s: want a finite number%s, got %q", c.name, map[bool]string{true: " ≥ 0"}[c.name != "rcond"], s)
		}
		*c.dst = v
	}
	if f.values && (f.full || f.maxRank > 0 || f.cutoff > 0 || f.relCut > 0) {
		return errors.New("--values-only excludes --full, --max-rank, --cutoff and --rel-cutoff")
	}
	if f.full && (f.maxRank > 0 || f.cutoff > 0 || f.relCut > 0) {
		return errors.New("--full excludes --max-rank, --cutoff and --rel-cutoff")
	}
	return nil
}

// checkMode validates --mode for operation op.
func checkMode(op, mode string) error {
	tri := map[string]string{"qr": "r", "lq": "l"}[op]
	if mode == "" || mode == "reduced" || mode == "complete" || mode == tri {
		return nil
	}
	return fmt.Errorf("--mode: want reduced, complete or %s, got %q", tri, mode)
}

// singleLine folds a multi-line error message onto one line.
func singleLine(err error) error {
	if s := err.Error(); strings.ContainsAny(s, "\r\n") {
		return errors.New(strings.Join(strings.Fields(strings.ReplaceAll(s, "\r", "")), " "))
	}
	return err
}
