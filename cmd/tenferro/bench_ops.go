// bench ops: the elementwise operations and reductions of the catalog,
// timed against NumPy and PyTorch in the same run.
//
//	tenferro bench ops [--ops LIST] [--sizes LIST] [--dtype f32,f64,...]
//	    [--threads N] [--json] [--budget DURATION] [--no-reference] [--plot FILE]
//
// --ops selects operations by case-insensitive catalog name (exp,log,add,
// sum; default all), --sizes the element counts (1e6 or 1048576 style,
// default 1e6,16e6), --dtype the element types (f32, f64, c64, c128;
// default f32,f64; real-only operations run for f32 and f64 only). Every
// case times the Into form into a preallocated destination on contiguous
// 1-D inputs (two of the same size for binary operations; reductions reduce
// everything to a scalar), on a serial engine for --threads 1 and a team
// engine otherwise: the median of repeated calls within --budget (default
// 300ms) after a warm-up. The same cases then run in one Python process
// with NumPy (out= where it exists; its ufuncs run on one thread) and
// PyTorch (torch.set_num_threads(N), out= where it exists), timed the same
// way on inputs drawn from the same ranges.
//
// A row of --json: {"op", "dtype", "size", "threads", "median_ms",
// "numpy_ms", "torch_ms", "gbps", "copy_ratio", "openblas_core"}, where
// gbps counts the bytes read plus written per second, copy_ratio is the
// time of tf.CopyInto of the same size and dtype divided by the op's time
// (1 = the op runs at copy bandwidth), and openblas_core is the OpenBLAS
// kernel NumPy ran (threadpoolctl, or openblas_get_corename; when OpenBLAS
// picks a generic kernel that ignores this CPU's vector units, the peers
// run with OPENBLAS_CORETYPE set to the CPU's, and a note and the header
// say so). Peer fields are null where a peer
// is missing, has no expression for the op, or failed (a note on stderr
// says why); --no-reference skips the peers. The table ends with the
// geometric means of numpy_ms/median_ms and torch_ms/median_ms (above 1:
// the library is faster), printed on stderr with --json. --plot FILE also
// draws each peer's time over ours per case (see opsChart).

package main

import (
	_ "embed"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/internal/op"
	"github.com/tenferro-go/tenferro/internal/optest"
	"github.com/tenferro-go/tenferro/team"
)

func init() {
	registerBench("ops", "elementwise ops and reductions against NumPy and PyTorch in the same run", benchOps)
}

// opsRow is one row of `bench ops --json`.
type opsRow struct {
	Op           string   `json:"op"`
	DType        string   `json:"dtype"`
	Size         int      `json:"size"`
	Threads      int      `json:"threads"`
	MedianMS     float64  `json:"median_ms"`
	NumpyMS      *float64 `json:"numpy_ms"`
	TorchMS      *float64 `json:"torch_ms"`
	GBps         float64  `json:"gbps"`
	CopyRatio    float64  `json:"copy_ratio"`
	OpenBLASCore *string  `json:"openblas_core"`
}

// opPeer is how one operation is fed and run by the peers: the ranges
// [lo, hi) its inputs are drawn from (both parts for complex dtypes), its
// attributes, and a NumPy and a PyTorch expression over np/torch, the
// inputs a and b, the preallocated destination out (0-d for reductions)
// and the attributes alpha and beta. An empty expression means no peer
// form: the case is still timed, with a null peer time.
type opPeer struct {
	a, b        [2]float64
	alpha, beta float64
	numpy       string
	torch       string
	torchReal   bool // torch (1.13) has the op for real dtypes only
}

var (
	unitRange = [2]float64{-1, 1}          // moderate: exp, trig, arithmetic
	posRange  = [2]float64{0.5, 2}         // positive: log, sqrt, divisors
	wideRange = [2]float64{-10, 10}        // rounding crosses many integers
	nearOne   = [2]float64{0.9999, 1.0001} // products stay normal
)

// unaryPeer is the entry of a unary op: np.<np>(a, out=out) and
// torch.<torch>(a, out=out) on inputs drawn from r.
func unaryPeer(r [2]float64, np, torch string) opPeer {
	return opPeer{a: r, numpy: "np." + np + "(a, out=out)", torch: "torch." + torch + "(a, out=out)"}
}

// binaryPeer is the entry of a binary op, a drawn from ra and b from rb.
func binaryPeer(ra, rb [2]float64, np, torch string) opPeer {
	return opPeer{a: ra, b: rb, numpy: "np." + np + "(a, b, out=out)", torch: "torch." + torch + "(a, b, out=out)"}
}

func torchRealOnly(p opPeer) opPeer { p.torchReal = true; return p }

// opsPeers has one entry per generated elementwise operation and
// reduction, keyed by lower-case catalog name; TestOpsPeerTableComplete
// fails when the catalog gains an operation without one.
var opsPeers = map[string]opPeer{
	"scale":      {a: unitRange, alpha: 1.5, numpy: "np.multiply(a, alpha, out=out)", torch: "torch.mul(a, alpha, out=out)"},
	"negate":     unaryPeer(unitRange, "negative", "neg"),
	"conj":       unaryPeer(unitRange, "conjugate", "conj_physical"),
	"sqrt":       unaryPeer(posRange, "sqrt", "sqrt"),
	"rsqrt":      {a: posRange, numpy: "np.divide(1, np.sqrt(a, out=out), out=out)", torch: "torch.rsqrt(a, out=out)"},
	"square":     unaryPeer(unitRange, "square", "square"),
	"reciprocal": unaryPeer(posRange, "reciprocal", "reciprocal"),
	// NumPy 1.x's complex sign is the sign of the real part, not a/|a|;
	// torch.sgn is a/|a| (and sign for reals).
	"sign":  unaryPeer(unitRange, "sign", "sgn"),
	"exp":   unaryPeer(unitRange, "exp", "exp"),
	"expm1": torchRealOnly(unaryPeer(unitRange, "expm1", "expm1")),
	"log":   unaryPeer(posRange, "log", "log"),
	"log1p": torchRealOnly(unaryPeer(posRange, "log1p", "log1p")),
	"sin":   unaryPeer(unitRange, "sin", "sin"),
	"cos":   unaryPeer(unitRange, "cos", "cos"),
	"tan":   unaryPeer(unitRange, "tan", "tan"),
	"tanh":  unaryPeer(unitRange, "tanh", "tanh"),
	"sinh":  unaryPeer(unitRange, "sinh", "sinh"),
	"cosh":  unaryPeer(unitRange, "cosh", "cosh"),
	"asin":  unaryPeer(unitRange, "arcsin", "asin"),
	"acos":  unaryPeer(unitRange, "arccos", "acos"),
	"atan":  unaryPeer(unitRange, "arctan", "atan"),
	// NumPy has no sigmoid: the in-place chain 1/(1+e^-a) is how it is
	// written with ufuncs.
	"sigmoid": {a: unitRange, torch: "torch.sigmoid(a, out=out)",
		numpy: "np.reciprocal(np.add(1, np.exp(np.negative(a, out=out), out=out), out=out), out=out)"},
	"relu": {a: unitRange, numpy: "np.maximum(a, 0, out=out)", torch: "torch.clamp(a, min=0, out=out)"},
	// NumPy has no gelu, erf or erfc; torch's gelu (exact erf form) has no
	// out=.
	"gelu":  {a: unitRange, torch: "torch.nn.functional.gelu(a)"},
	"erf":   {a: unitRange, torch: "torch.erf(a, out=out)"},
	"erfc":  {a: unitRange, torch: "torch.erfc(a, out=out)"},
	"floor": unaryPeer(wideRange, "floor", "floor"),
	"ceil":  unaryPeer(wideRange, "ceil", "ceil"),
	"round": unaryPeer(wideRange, "rint", "round"),
	"trunc": unaryPeer(wideRange, "trunc", "trunc"),
	"clip": {a: unitRange, alpha: -0.5, beta: 0.5,
		numpy: "np.clip(a, alpha, beta, out=out)", torch: "torch.clamp(a, alpha, beta, out=out)"},
	"add":     binaryPeer(unitRange, unitRange, "add", "add"),
	"sub":     binaryPeer(unitRange, unitRange, "subtract", "sub"),
	"mul":     binaryPeer(unitRange, unitRange, "multiply", "mul"),
	"div":     binaryPeer(unitRange, posRange, "divide", "div"),
	"pow":     binaryPeer(posRange, unitRange, "power", "pow"),
	"maximum": binaryPeer(unitRange, unitRange, "maximum", "maximum"),
	"minimum": binaryPeer(unitRange, unitRange, "minimum", "minimum"),
	"atan2":   binaryPeer(unitRange, unitRange, "arctan2", "atan2"),
	"hypot":   binaryPeer(unitRange, unitRange, "hypot", "hypot"),
	"sum":     {a: unitRange, numpy: "np.sum(a, out=out)", torch: "torch.sum(a, dim=0, out=out)"},
	"prod":    {a: nearOne, numpy: "np.prod(a, out=out)", torch: "torch.prod(a, dim=0, out=out)"},
	"mean":    {a: unitRange, numpy: "np.mean(a, out=out)", torch: "torch.mean(a, dim=0, out=out)"},
	"var":     {a: unitRange, numpy: "np.var(a)", torch: "torch.var(a, unbiased=False)"},
	"std":     {a: unitRange, numpy: "np.std(a)", torch: "torch.std(a, unbiased=False)"},
	"max":     {a: unitRange, numpy: "np.max(a, out=out)", torch: "torch.amax(a, dim=0, out=out)"},
	"min":     {a: unitRange, numpy: "np.min(a, out=out)", torch: "torch.amin(a, dim=0, out=out)"},
	"logsumexp": {a: unitRange, numpy: "(lambda m: m + np.log(np.sum(np.exp(a - m))))(np.max(a))",
		torch: "torch.logsumexp(a, dim=0, out=out)"},
	"norm":    {a: unitRange, alpha: 2, numpy: "np.linalg.norm(a)", torch: "torch.linalg.vector_norm(a, out=out.real)"},
	"argmax":  {a: unitRange, numpy: "np.argmax(a)", torch: "torch.argmax(a)"},
	"argmin":  {a: unitRange, numpy: "np.argmin(a)", torch: "torch.argmin(a)"},
	"cumsum":  {a: unitRange, numpy: "np.cumsum(a, out=out)", torch: "torch.cumsum(a, dim=0, out=out)"},
	"cumprod": {a: nearOne, numpy: "np.cumprod(a, out=out)", torch: "torch.cumprod(a, dim=0, out=out)"},
}

// libOp is one catalog operation bound to T: run computes dst from a (and
// b for binary operations) with the op's Into form.
type libOp[T tf.Scalar] struct {
	name string
	cat  op.Category
	run  func(e tf.Engine, dst, a, b *tf.Tensor[T], alpha, beta T) error
}

// libOps lists the generated unary and binary operations, the reductions
// and the scans that accept T, in catalog order.
func libOps[T tf.Scalar]() []libOp[T] {
	var ops []libOp[T]
	for _, u := range optest.UnaryOps[T]() {
		ops = append(ops, libOp[T]{opName(u.Kind), op.Unary, func(e tf.Engine, dst, a, _ *tf.Tensor[T], alpha, beta T) error {
			return u.Into(e, dst, alpha, beta, a)
		}})
	}
	for _, bo := range optest.BinaryOps[T]() {
		ops = append(ops, libOp[T]{opName(bo.Kind), op.Binary, func(e tf.Engine, dst, a, b *tf.Tensor[T], _, _ T) error {
			return bo.Into(e, dst, a, b)
		}})
	}
	for _, r := range optest.AllReductions[T]() {
		ops = append(ops, libOp[T]{opName(r.Kind), r.Kind.Category(), reductionRun(r)})
	}
	return ops
}

// reductionRun adapts a reduction or scan over every axis (axis 0 for the
// one-axis forms) to libOp: the first call allocates the result, later
// calls write it again with the Into form. The attribute is the peer
// table's alpha (the order of Norm; ddof 0).
func reductionRun[T tf.Scalar](r optest.AnyReduction[T]) func(e tf.Engine, dst, a, b *tf.Tensor[T], alpha, beta T) error {
	var out tf.Value
	var axes []int
	if k := r.Kind.Info(); k.Attr == op.AxisAttr {
		axes = []int{0}
	}
	p := opsPeers[opName(r.Kind)].alpha
	return func(e tf.Engine, _, a, _ *tf.Tensor[T], _, _ T) error {
		if out.Tensor() == nil {
			v, err := r.Eager(e, a, p, axes)
			out = v
			return err
		}
		return r.Into(e, out, a, p, axes)
	}
}

func opName(k op.Kind) string { return strings.ToLower(k.String()) }

// libOpNames lists the names of libOps[T].
func libOpNames[T tf.Scalar]() []string {
	var names []string
	for _, o := range libOps[T]() {
		names = append(names, o.name)
	}
	return names
}

// opNamesByDType lists the operation names of each dtype.
var opNamesByDType = map[tf.DType]func() []string{
	tf.Float32: libOpNames[float32], tf.Float64: libOpNames[float64],
	tf.Complex64: libOpNames[complex64], tf.Complex128: libOpNames[complex128],
}

// allOpNames is every operation name over the four dtypes, in catalog
// order.
func allOpNames() []string {
	var names []string
	for _, dt := range []tf.DType{tf.Float64, tf.Complex128, tf.Float32, tf.Complex64} {
		for _, n := range opNamesByDType[dt]() {
			if !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	return names
}

// opsCase is one (op, dtype, size) measurement; it is also what the peer
// script reads.
type opsCase struct {
	Op     string     `json:"op"`
	DType  string     `json:"dtype"` // NumPy's name: float32, ...
	Size   int        `json:"size"`
	Reduce bool       `json:"reduce"`
	Binary bool       `json:"binary"`
	A      [2]float64 `json:"a"`
	B      [2]float64 `json:"b"`
	Alpha  float64    `json:"alpha"`
	Beta   float64    `json:"beta"`
	Numpy  string     `json:"np"`
	Torch  string     `json:"torch"`
}

func benchOps(args []string, stdout, stderr io.Writer) int {
	const name = "bench ops"
	fs := newFlags(name, io.Discard)
	opsFlag := fs.String("ops", "all", "comma-separated operation names (case-insensitive), or all")
	sizesFlag := fs.String("sizes", "1e6,16e6", "comma-separated element counts (1e6 or 1048576 style)")
	dtFlag := fs.String("dtype", "f32,f64", "comma-separated element types: f32, f64, c64, c128")
	threads := fs.Int("threads", 1, "team width (1 = serial engine)")
	asJSON := fs.Bool("json", false, "print JSON rows instead of a table")
	budget := fs.Duration("budget", 300*time.Millisecond, "timing budget per case")
	noRef := fs.Bool("no-reference", false, "skip the NumPy and PyTorch peers")
	plotTo := addPlotFlag(fs)
	if code, done := parseBenchFlags(fs, name, args, stderr); done {
		return code
	}
	if err := plotTo.check(); err != nil {
		return fail(stderr, name, err)
	}
	ops, err := parseOpList(*opsFlag)
	if err != nil {
		return fail(stderr, name, err)
	}
	sizes, err := parseElemCounts(*sizesFlag)
	if err != nil {
		return fail(stderr, name, err)
	}
	dts, err := parseDTypeList(*dtFlag)
	if err != nil {
		return fail(stderr, name, err)
	}
	if *threads < 1 || *threads > team.MaxThreads {
		return fail(stderr, name, fmt.Errorf("--threads must be in [1, %d], got %d", team.MaxThreads, *threads))
	}
	if *budget <= 0 {
		return fail(stderr, name, fmt.Errorf("--budget must be positive, got %v", *budget))
	}
	if ops != nil && !slices.ContainsFunc(dts, func(dt tf.DType) bool {
		return slices.ContainsFunc(opNamesByDType[dt](), func(n string) bool { return slices.Contains(ops, n) })
	}) {
		return fail(stderr, name, fmt.Errorf("no operation of --ops %q accepts --dtype %q", *opsFlag, *dtFlag))
	}
	e, err := benchEngineWidth(*threads)
	if err != nil {
		return fail(stderr, name, err)
	}
	defer e.Close()
	var rows []opsRow
	var cases []opsCase
	for _, dt := range dts {
		for _, n := range sizes {
			fmt.Fprintf(stderr, "bench ops: %s, %d elements\n", dt, n)
			r, c, err := opsByDType[dt](e, ops, n, *budget)
			if err != nil {
				fmt.Fprintf(stderr, "tenferro %s: %v\n", name, err)
				return 1
			}
			rows, cases = append(rows, r...), append(cases, c...)
		}
	}
	for i := range rows {
		rows[i].Threads = *threads
	}
	var peer peerResult
	if !*noRef {
		peer = runOpsPeers(cases, *threads, *budget, nil)
		for i := range rows {
			rows[i].NumpyMS, rows[i].TorchMS, rows[i].OpenBLASCore = peer.NumpyMS[i], peer.TorchMS[i], peer.OpenBLASCore
		}
		for _, note := range peer.Notes {
			fmt.Fprintf(stderr, "bench ops: %s\n", note)
		}
	}
	summary := opsSummary(rows)
	if *asJSON {
		fmt.Fprintln(stderr, summary)
		if code := writeJSONPlain(stdout, stderr, rows); code != 0 {
			return code
		}
	} else {
		fmt.Fprintf(stdout, "== elementwise ops and reductions, threads=%d; %s\n", *threads, peer.describe("ufuncs on one thread"))
		printOpsTable(stdout, rows)
		fmt.Fprintln(stdout, summary)
	}
	return plotTo.draw(stderr, name, opsChart(rows, peer))
}

// opsByDType measures the selected operations in one dtype at one size.
var opsByDType = map[tf.DType]func(e *cpu.Engine, ops []string, n int, budget time.Duration) ([]opsRow, []opsCase, error){
	tf.Float32:    opsCases[float32],
	tf.Float64:    opsCases[float64],
	tf.Complex64:  opsCases[complex64],
	tf.Complex128: opsCases[complex128],
}

// opsCases times a plain copy of n elements and then every operation of
// T named in ops (all for nil), and returns the rows with the cases the
// peers run. Bytes moved: 2n elements for unary ops and the copy, 3n for
// binary ops, n+1 for reductions.
func opsCases[T tf.Scalar](e *cpu.Engine, ops []string, n int, budget time.Duration) ([]opsRow, []opsCase, error) {
	dt := tf.DTypeOf[T]()
	inputs := map[[3]float64]*tf.Tensor[T]{} // (lo, hi, slot) -> input
	input := func(r [2]float64, slot int) (*tf.Tensor[T], error) {
		k := [3]float64{r[0], r[1], float64(slot)}
		if t, ok := inputs[k]; ok {
			return t, nil
		}
		// The library's own tensor, allocated as a user's tf.Zeros would be
		// (large ones on huge pages, as NumPy's arrays are).
		t, err := tf.Zeros[T](n)
		if err != nil {
			return nil, err
		}
		d, err := t.Data()
		if err != nil {
			return nil, err
		}
		fillRange(d, uint64(len(inputs)+1), r)
		inputs[k] = t
		return t, nil
	}
	src, err := input(unitRange, 0)
	if err != nil {
		return nil, nil, err
	}
	dst, err := tf.Zeros[T](n)
	if err != nil {
		return nil, nil, err
	}
	scalar, err := tf.Zeros[T]()
	if err != nil {
		return nil, nil, err
	}
	cp := measureFor(budget, func() { tf.CopyInto(e, dst, src) }).median()
	es := float64(dt.Size())
	var rows []opsRow
	var cases []opsCase
	for _, o := range libOps[T]() {
		if ops != nil && !slices.Contains(ops, o.name) {
			continue
		}
		p, ok := opsPeers[o.name]
		if !ok {
			return nil, nil, fmt.Errorf("operation %s has no entry in the peer table", o.name)
		}
		a, err := input(p.a, 0)
		if err != nil {
			return nil, nil, err
		}
		b, out, bytes := a, dst, 2*float64(n)*es
		switch o.cat {
		case op.Binary:
			if b, err = input(p.b, 1); err != nil {
				return nil, nil, err
			}
			bytes = 3 * float64(n) * es
		case op.Reduction:
			out, bytes = scalar, float64(n+1)*es
		case op.Scan:
			bytes = 2 * float64(n) * es
		}
		alpha, beta := fromReal[T](p.alpha), fromReal[T](p.beta)
		if err := o.run(e, out, a, b, alpha, beta); err != nil {
			return nil, nil, fmt.Errorf("%s %s: %v", o.name, dt, err)
		}
		m := measureFor(budget, func() { o.run(e, out, a, b, alpha, beta) }).median()
		m = max(m, time.Nanosecond)
		rows = append(rows, opsRow{Op: o.name, DType: dt.String(), Size: n, MedianMS: ms(m),
			GBps: bytes / m.Seconds() / 1e9, CopyRatio: float64(cp) / float64(m)})
		cases = append(cases, opsCase{Op: o.name, DType: numpyDType[dt], Size: n, Reduce: o.cat == op.Reduction,
			Binary: o.cat == op.Binary, A: p.a, B: p.b, Alpha: p.alpha, Beta: p.beta, Numpy: p.numpy, Torch: p.torch})
		if p.torchReal && dt.IsComplex() {
			cases[len(cases)-1].Torch = ""
		}
	}
	return rows, cases, nil
}

// drawRange returns n values uniform in [r[0], r[1]) (both parts for
// complex T), reproducible from seed.
func drawRange[T tf.Scalar](seed uint64, n int, r [2]float64) []T {
	return fillRange(make([]T, n), seed, r)
}

// fillRange sets buf to the values drawRange(seed, len(buf), r) returns
// and returns it.
func fillRange[T tf.Scalar](buf []T, seed uint64, r [2]float64) []T {
	tf.FillRand(rand.New(rand.NewPCG(seed, 0x6f7073)), buf)
	lo, w := r[0], r[1]-r[0]
	switch b := any(buf).(type) {
	case []float32:
		for i, x := range b {
			b[i] = float32(lo + w*float64(x))
		}
	case []float64:
		for i, x := range b {
			b[i] = lo + w*x
		}
	case []complex64:
		for i, x := range b {
			b[i] = complex64(complex(lo+w*float64(real(x)), lo+w*float64(imag(x))))
		}
	case []complex128:
		for i, x := range b {
			b[i] = complex(lo+w*real(x), lo+w*imag(x))
		}
	}
	return buf
}

// parseList splits a comma-separated flag value and parses each field
// (duplicates dropped); the error names the flag and what it wants.
func parseList[E comparable](flag, want, s string, parse func(string) (E, bool)) ([]E, error) {
	var out []E
	for _, f := range strings.Split(s, ",") {
		v, ok := parse(strings.TrimSpace(f))
		if !ok {
			return nil, fmt.Errorf("--%s: want %s, got %q", flag, want, f)
		}
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out, nil
}

// parseOpList reads --ops: "all" (nil) or catalog names in any case.
func parseOpList(s string) ([]string, error) {
	if strings.EqualFold(strings.TrimSpace(s), "all") {
		return nil, nil
	}
	known := allOpNames()
	return parseList("ops", "all or operation names from "+strings.Join(known, ", "), s, func(f string) (string, bool) {
		return strings.ToLower(f), slices.Contains(known, strings.ToLower(f))
	})
}

// maxOpsElems bounds --sizes (2 GiB per float64 tensor).
const maxOpsElems = 1 << 28

// parseElemCounts reads --sizes: integers such as 1048576, or decimal
// exponent forms such as 1e6 and 16e6 that denote integers.
func parseElemCounts(s string) ([]int, error) {
	return parseList("sizes", fmt.Sprintf("element counts in [1, %d] such as 1e6 or 1048576", maxOpsElems), s, func(f string) (int, bool) {
		v, err := strconv.ParseFloat(f, 64)
		return int(v), err == nil && v == math.Trunc(v) && v >= 1 && v <= maxOpsElems
	})
}

// parseDTypeList reads --dtype: arithmetic dtypes.
func parseDTypeList(s string) ([]tf.DType, error) {
	return parseList("dtype", "f32, f64, c64 or c128", s, func(f string) (tf.DType, bool) {
		dt, err := tf.ParseDType(f)
		return dt, err == nil && dt.IsNumber()
	})
}

// peerMS returns the row's time of peer "numpy" or "torch".
func (r opsRow) peerMS(peer string) *float64 {
	if peer == "numpy" {
		return r.NumpyMS
	}
	return r.TorchMS
}

// peerRatio is the row's peer time over ours (see timeRatio).
func (r opsRow) peerRatio(peer string) *float64 { return timeRatio(r.peerMS(peer), r.MedianMS) }

func printOpsTable(w io.Writer, rows []opsRow) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "op\tdtype\tsize\tours ms\tnumpy ms\ttorch ms\tnumpy/ours\ttorch/ours\tGB/s\tcopy/op\t")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%.4f\t%s\t%s\t%s\t%s\t%.1f\t%.2f\t\n", r.Op, r.DType, r.Size, r.MedianMS,
			orDash(r.NumpyMS, "%.4f"), orDash(r.TorchMS, "%.4f"), orDash(r.peerRatio("numpy"), "%.2f"),
			orDash(r.peerRatio("torch"), "%.2f"), r.GBps, r.CopyRatio)
	}
	tw.Flush()
}

// opsSummary is the closing line: for each peer the geometric mean of its
// time over ours across the rows it ran (above 1: the library is faster).
func opsSummary(rows []opsRow) string {
	peers := []string{"numpy", "torch"}
	return geomeanSummary(peers, len(rows), func(p, i int) *float64 { return rows[i].peerRatio(peers[p]) })
}

// opsPeerScript times the cases with NumPy and PyTorch (those of the
// input's "peers", default both; each optional), and
// prints {"openblas_core", "numpy_version", "torch_version", "numpy_ms",
// "torch_ms", "notes"}, the times a list parallel to the cases (null: no
// expression, peer missing or failed). Each case is timed like the
// library: one sizing call, one warm-up, then 5 to 500 calls within the
// budget, median. OPENBLAS_CORETYPE is set from the input before NumPy
// loads OpenBLAS, only when the caller found that OpenBLAS does not
// recognize this CPU.
//
//go:embed bench_ops_peer.py
var opsPeerBody string

var opsPeerScript = peerScript(opsPeerBody)

// runOpsPeers runs the peer script on the cases with the given peers
// ("numpy", "torch"; nil for both). A missing interpreter or a failed run
// gives null times and a note, never an error.
func runOpsPeers(cases []opsCase, threads int, budget time.Duration, peers []string) peerResult {
	in := map[string]any{"cases": cases, "threads": threads, "budget": budget.Seconds()}
	if peers != nil {
		in["peers"] = peers
	}
	return runPeerTimes(opsPeerScript, threads, in, len(cases))
}
