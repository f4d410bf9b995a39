// bench grad: reverse-mode gradients (package ad) of the einsum instances,
// timed against PyTorch's forward and backward along the same path in the
// same run.
//
//	tenferro bench grad [--instances DIR] [--threads N] [--json]
//	    [--budget DURATION] [--pairwise]
//
// For every instance the loss is L = Re Σ einsum(x_1, ..., x_n), the real
// part of the sum of the einsum's output, and its gradient is taken with
// respect to every operand. The loss is traced (trace.Einsum with the
// instance's subscripts, trace.Sum, and trace.Real for complex dtypes),
// differentiated with ad.Grad and compiled once with program.Compile;
// the forward program is the einsum alone, compiled the same way. Both are
// compiled with the same program.WithEinsumOptions (einsum.Auto, the
// program default): a path given for the forward einsum could not apply to
// the gradient's einsums, which have other operands, so every einsum is
// planned by one optimizer. The forward's pairwise path is the plan of
// einsum.NewPlan for that einsum and those options, which is the plan the
// forward program evaluates.
//
// By default the einsum is one n-ary node, as a user traces it; package ad
// differentiates an einsum of three or more operands along the pairwise
// steps of its planned path, so that reverse mode walks back the same
// tree as PyTorch's autograd. --pairwise traces the forward plan's
// pairwise steps explicitly instead (one two-operand einsum per step and
// the final map), which should cost the same.
//
// --instances names a directory of instance files (default: the public
// instance data, found as the suite's tests find it, or the built-in suite
// when it is absent). Inputs are the suite's: uniform in [0, 1) (both parts
// for complex) scaled so that every output element is of order 1. Both
// programs are prepared once on a serial engine (--threads 1) or a team
// engine and timed by RunInto into preallocated outputs: the median of 3 to
// 500 calls within --budget (default 300ms) after a call that warms up and
// sizes the run.
//
// The same inputs, written to .npy files in a temporary directory, are then
// run in one Python process by PyTorch (torch.set_num_threads(N)): the
// operands as leaf tensors with requires_grad, contracted pairwise along
// the forward's path with torch.einsum (one call per step, so no
// opt_einsum is needed), L computed the same way and L.backward(); torch_ms
// is the median time of forward plus backward, timed as ours. The gradients
// are then compared (the check). When torch is missing or fails for an
// instance, torch_ms is null, a note on stderr says why, and the check
// uses central finite differences instead.
//
// # The check
//
// Against PyTorch: for each operand k, e_k = ‖g_k - t_k‖∞ / ‖t_k‖∞ (ours
// g, PyTorch's t); the error is the largest e_k. By central differences:
// along a random direction v (v_k = u_k ⊙ x_k, both parts of u uniform),
// D = (L(x + hv) - L(x - hv)) / 2h with L evaluated in float64
// (complex128) along the forward path and h = ∛ε / n (ε = 2⁻⁵²), against
// Σ_k Re⟨g_k, v_k⟩; the error is the difference over Σ_k Σ |g_k|·|v_k|,
// the larger of two directions: u in [0, 1), which sees a gradient off by
// a common factor, and u in [-1, 1), which also sees errors of either
// sign.
// The check is "ok" when the error is at most
//
//	tol = b · √n   (n operands; b = 1e-7 for float64, 1e-4 for float32,
//	                twice that for complex)
//
// and "FAIL" otherwise. The two results follow different paths (and the
// differences round and truncate), so they differ by the rounding of every
// pairwise step; the √n growth is that of n - 1 independent step errors,
// and b leaves a margin of 1e9 (float64) and 1e3 (float32) unit roundoffs
// per step, so only a wrong gradient fails. The √n scaling makes tol 1e-6
// and 1e-3 at 100 operands.
//
// A row of --json: {"name", "threads", "forward_ms", "grad_ms",
// "grad_over_forward", "torch_ms", "torch_speedup", "check"}, where
// torch_speedup = torch_ms / grad_ms (above 1: the library is faster) and
// both torch fields are null without a PyTorch time. The table's header
// names the PyTorch version and the OpenBLAS kernel it ran (threadpoolctl's
// "architecture" or openblas_get_corename after import torch; a generic
// kernel that ignores this CPU's vector units is replaced through
// OPENBLAS_CORETYPE, and the header says so); the table ends with the geometric
// means of grad/forward and torch/ours, printed on stderr with --json.
// Exit status 1 when a check fails.

package main

import (
	_ "embed"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/ad"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/einsum"
	"github.com/tenferro-go/tenferro/internal/instances"
	"github.com/tenferro-go/tenferro/npy"
	"github.com/tenferro-go/tenferro/program"
	"github.com/tenferro-go/tenferro/team"
	"github.com/tenferro-go/tenferro/trace"
)

func init() {
	registerBench("grad", "gradients of the einsum instances (package ad) against PyTorch's backward in the same run", benchGrad)
}

// gradRow is one row of `bench grad --json`.
type gradRow struct {
	Name            string   `json:"name"`
	Threads         int      `json:"threads"`
	ForwardMS       float64  `json:"forward_ms"`
	GradMS          float64  `json:"grad_ms"`
	GradOverForward float64  `json:"grad_over_forward"`
	TorchMS         *float64 `json:"torch_ms"`
	TorchSpeedup    *float64 `json:"torch_speedup"`
	Check           string   `json:"check"`
}

// gradCase is what the peer script runs for one instance: the operands in
// .npy files (C order, so every axis list is the column-major one
// reversed), the label ids of every operand's axes and of the output in
// that order, the forward's linear path, and the files it writes the
// gradients to.
type gradCase struct {
	Name   string   `json:"name"`
	DType  string   `json:"dtype"` // NumPy's name
	Files  []string `json:"files"`
	Grads  []string `json:"grads"`
	Inputs [][]int  `json:"inputs"`
	Output []int    `json:"output"`
	Path   [][2]int `json:"path"`
}

// gradConfig holds the parsed flags.
type gradConfig struct {
	threads  int
	budget   time.Duration
	pairwise bool
	dir      string // where the peer's files go ("": no peer)
	seed     uint64
}

// gradOpts are the planning options of every einsum of both programs.
var gradOpts = einsum.Options{}

// gradChecker compares the library's gradients of one instance with the
// peer's gradient files, or with central differences when files is nil.
// It returns the error over the tolerance and what it compared against.
type gradChecker func(files []string) (ratio float64, against string, err error)

func benchGrad(args []string, stdout, stderr io.Writer) int {
	const name = "bench grad"
	fs := newFlags(name, io.Discard)
	dir := fs.String("instances", "", "directory of einsum instance files (JSON); default: the public instance data, else the built-in suite")
	threads := fs.Int("threads", 1, "team width (1 = serial engine); also PyTorch's thread count")
	asJSON := fs.Bool("json", false, "print a JSON array of rows instead of a table")
	budget := fs.Duration("budget", 300*time.Millisecond, "timing budget per instance and program")
	pairwise := fs.Bool("pairwise", false, "trace the forward path's pairwise einsums instead of one n-ary einsum")
	if code, done := parseBenchFlags(fs, name, args, stderr); done {
		return code
	}
	switch {
	case *threads < 1 || *threads > team.MaxThreads:
		return fail(stderr, name, fmt.Errorf("--threads must be in [1, %d], got %d", team.MaxThreads, *threads))
	case *budget <= 0:
		return fail(stderr, name, fmt.Errorf("--budget must be positive, got %v", *budget))
	}
	insts, err := gradInstances(*dir, stderr)
	if err != nil {
		return fail(stderr, name, err)
	}
	e, err := benchEngineWidth(*threads)
	if err != nil {
		return fail(stderr, name, err)
	}
	defer e.Close()
	tmp, err := os.MkdirTemp("", "tenferro-bench-grad-")
	if err != nil {
		fmt.Fprintf(stderr, "tenferro %s: %v\n", name, err)
		return 1
	}
	defer os.RemoveAll(tmp)
	cfg := gradConfig{threads: *threads, budget: *budget, pairwise: *pairwise, dir: tmp, seed: 1}
	rows := make([]gradRow, len(insts))
	cases := make([]gradCase, 0, len(insts))
	checks := make([]gradChecker, len(insts))
	peerIndex := make([]int, len(insts)) // index into cases, -1: none
	for i, in := range insts {
		fmt.Fprintf(stderr, "bench grad [%d/%d] %s (%s, %d operands)\n", i+1, len(insts), in.Name, in.DType, len(in.Shapes))
		row, c, check, err := gradInstance(e, in, cfg, stderr)
		peerIndex[i] = -1
		if err != nil {
			fmt.Fprintf(stderr, "bench grad: %s: FAIL: %v\n", in.Name, err)
			row = gradRow{Name: in.Name, Check: "FAIL"}
		} else {
			peerIndex[i] = len(cases)
			cases = append(cases, c)
		}
		row.Threads = *threads
		rows[i], checks[i] = row, check
	}
	peer := runGradPeer(cases, *threads, *budget)
	for _, note := range peer.Notes {
		fmt.Fprintf(stderr, "bench grad: %s\n", note)
	}
	failed := false
	for i := range rows {
		r := &rows[i]
		if k := peerIndex[i]; k >= 0 {
			var files []string
			if r.TorchMS = peer.TorchMS[k]; r.TorchMS != nil {
				r.TorchSpeedup = timeRatio(r.TorchMS, r.GradMS)
				files = cases[k].Grads
			}
			ratio, against, err := checks[i](files)
			switch {
			case err != nil:
				r.Check = "FAIL"
				fmt.Fprintf(stderr, "bench grad: %s: check: %v\n", r.Name, err)
			case !(ratio <= 1):
				r.Check = "FAIL"
			default:
				r.Check = "ok"
			}
			if err == nil {
				fmt.Fprintf(stderr, "bench grad: %s: %s: vs %s: err/tol %.2g\n", r.Name, r.Check, against, ratio)
			}
		}
		failed = failed || r.Check == "FAIL"
	}
	summary := gradSummary(rows)
	if *asJSON {
		fmt.Fprintln(stderr, summary)
		if code := writeJSONPlain(stdout, stderr, rows); code != 0 {
			return code
		}
	} else {
		form := "one n-ary einsum"
		if *pairwise {
			form = "pairwise einsums along the forward path"
		}
		fmt.Fprintf(stdout, "== gradients of L = Re sum(einsum) by ad.Grad (%s), threads=%d; %s\n", form, *threads, describeGradPeer(peer))
		printGradTable(stdout, rows)
		fmt.Fprintln(stdout, summary)
	}
	if failed {
		return 1
	}
	return 0
}

// gradInstances loads the instances of dir, or of the public data (the
// built-in suite when it is absent) for dir "".
func gradInstances(dir string, stderr io.Writer) ([]instances.Instance, error) {
	if dir == "" {
		d, ok := instances.FindDir()
		if !ok {
			fmt.Fprintf(stderr, "bench grad: public instance data not found (set %s): using the built-in suite\n", instances.EnvDir)
			return instances.Builtin(1), nil
		}
		dir = d
	}
	return loadInstanceDir(dir)
}

func gradInstance(e *cpu.Engine, in instances.Instance, cfg gradConfig, stderr io.Writer) (gradRow, gradCase, gradChecker, error) {
	dt, err := tf.ParseDType(in.DType)
	if err != nil {
		return gradRow{}, gradCase{}, nil, err
	}
	if !dt.IsNumber() {
		return gradRow{}, gradCase{}, nil, fmt.Errorf("instance dtype %v is not a number type", dt)
	}
	return gradByDType[dt](e, in, cfg, stderr)
}

// gradByDType runs an instance in one dtype.
var gradByDType = map[tf.DType]func(*cpu.Engine, instances.Instance, gradConfig, io.Writer) (gradRow, gradCase, gradChecker, error){
	tf.Float32:    gradTyped[float32],
	tf.Float64:    gradTyped[float64],
	tf.Complex64:  gradTyped[complex64],
	tf.Complex128: gradTyped[complex128],
}

// gradPrograms are the compiled forward and gradient programs of one
// instance, with the forward einsum's plan.
type gradPrograms struct {
	plan       *einsum.Plan
	fwd, grad  *program.Program
	compileFwd time.Duration
	compileGrd time.Duration
}

// compileGrad traces, differentiates and compiles the programs of the
// einsum subs on operands of dtype dt and the given shapes.
func compileGrad(dt tf.DType, subs string, shapes [][]int, pairwise bool) (*gradPrograms, error) {
	expr, err := einsum.Parse(subs)
	if err != nil {
		return nil, err
	}
	prob, err := expr.Bind(shapes)
	if err != nil {
		return nil, err
	}
	// The plan program.Compile makes for the forward einsum: same problem,
	// same options.
	pl, err := einsum.NewPlan(prob, gradOpts)
	if err != nil {
		return nil, err
	}
	gp := &gradPrograms{plan: pl}
	t0 := time.Now()
	tr := trace.New()
	xs, err := traceInputs(tr, dt, shapes)
	if err != nil {
		return nil, err
	}
	y, err := tr.Einsum(subs, xs...)
	if err != nil {
		return nil, err
	}
	g, err := tr.Finish(y)
	if err != nil {
		return nil, err
	}
	if gp.fwd, err = program.Compile(g, program.WithEinsumOptions(gradOpts)); err != nil {
		return nil, fmt.Errorf("compile forward: %w", err)
	}
	gp.compileFwd = time.Since(t0)

	t0 = time.Now()
	tr = trace.New()
	if xs, err = traceInputs(tr, dt, shapes); err != nil {
		return nil, err
	}
	if pairwise {
		y, err = tracePairwise(tr, pl, xs)
	} else {
		y, err = tr.Einsum(subs, xs...)
	}
	if err != nil {
		return nil, err
	}
	l, err := tr.Sum(y)
	if err == nil && dt.IsComplex() {
		l, err = tr.Real(l)
	}
	if err != nil {
		return nil, err
	}
	if g, err = tr.Finish(l); err != nil {
		return nil, err
	}
	wrt := make([]int, len(shapes))
	for k := range wrt {
		wrt[k] = k
	}
	gg, err := ad.Grad(g, wrt...)
	if err != nil {
		return nil, fmt.Errorf("ad.Grad: %w", err)
	}
	if gp.grad, err = program.Compile(gg, program.WithEinsumOptions(gradOpts)); err != nil {
		return nil, fmt.Errorf("compile gradient: %w", err)
	}
	gp.compileGrd = time.Since(t0)
	return gp, nil
}

func traceInputs(tr *trace.Trace, dt tf.DType, shapes [][]int) ([]trace.Var, error) {
	xs := make([]trace.Var, len(shapes))
	for k, s := range shapes {
		x, err := tr.Input(dt, s...)
		if err != nil {
			return nil, err
		}
		xs[k] = x
	}
	return xs, nil
}

// tracePairwise records the contraction of xs along pl's steps: one
// two-operand einsum per step, from each side's labels to the step's
// result labels, then the final map to the output (skipped when it is the
// identity).
func tracePairwise(tr *trace.Trace, pl *einsum.Plan, xs []trace.Var) (trace.Var, error) {
	p := pl.Problem
	name := func(ls []int) string {
		var b strings.Builder
		for _, l := range ls {
			b.WriteString(p.Names[l])
		}
		return b.String()
	}
	vals := append([]trace.Var(nil), xs...) // by tensor id
	labels := append([][]int(nil), p.Inputs...)
	for _, st := range pl.Steps {
		subs := name(labels[st.LeftID]) + "," + name(labels[st.RightID]) + "->" + name(st.Out)
		v, err := tr.Einsum(subs, vals[st.LeftID], vals[st.RightID])
		if err != nil {
			return trace.Var{}, fmt.Errorf("pairwise step %q: %w", subs, err)
		}
		vals, labels = append(vals, v), append(labels, st.Out)
	}
	last := pl.Final.From
	if len(pl.Steps) > 0 && pl.Final.Identity {
		return vals[last], nil
	}
	return tr.Einsum(name(labels[last])+"->"+name(p.Output), vals[last])
}

func gradTyped[T tf.Scalar](e *cpu.Engine, in instances.Instance, cfg gradConfig, stderr io.Writer) (gradRow, gradCase, gradChecker, error) {
	subs, err := letterSubscripts(in.Subscripts)
	if err != nil {
		return gradRow{}, gradCase{}, nil, err
	}
	dt := tf.DTypeOf[T]()
	gp, err := compileGrad(dt, subs, in.Shapes, cfg.pairwise)
	if err != nil {
		return gradRow{}, gradCase{}, nil, err
	}
	ops, err := suiteInputs[T](gp.plan.Problem, in.Shapes, cfg.seed)
	if err != nil {
		return gradRow{}, gradCase{}, nil, err
	}
	vals := make([]tf.Value, len(ops))
	for k, t := range ops {
		vals[k] = tf.ValueOf(t)
	}
	fwd, err := program.Prepare(gp.fwd, e)
	if err != nil {
		return gradRow{}, gradCase{}, nil, err
	}
	grad, err := program.Prepare(gp.grad, e)
	if err != nil {
		return gradRow{}, gradCase{}, nil, err
	}
	_, outShape := gp.fwd.OutputSignature(0)
	out, err := tf.Zeros[T](outShape...)
	if err != nil {
		return gradRow{}, gradCase{}, nil, err
	}
	outs := []tf.Value{tf.ValueOf(out)}
	grads := make([]*tf.Tensor[T], len(ops))
	gouts := make([]tf.Value, len(ops))
	for k, t := range ops {
		if grads[k], err = tf.Zeros[T](t.Shape()...); err != nil {
			return gradRow{}, gradCase{}, nil, err
		}
		gouts[k] = tf.ValueOf(grads[k])
	}
	var runErr error
	keep := func(err error) {
		if err != nil && runErr == nil {
			runErr = err
		}
	}
	fm := max(measureLinalg(cfg.budget, func() { keep(fwd.RunInto(outs, vals...)) }).median(), time.Nanosecond)
	gm := max(measureLinalg(cfg.budget, func() { keep(grad.RunInto(gouts, vals...)) }).median(), time.Nanosecond)
	if runErr != nil {
		return gradRow{}, gradCase{}, nil, runErr
	}
	fmt.Fprintf(stderr, "bench grad: %s: compiled in %s (forward) and %s (gradient, %d commands)\n",
		in.Name, fmtDur(gp.compileFwd), fmtDur(gp.compileGrd), gp.grad.NumCommands())
	row := gradRow{Name: in.Name, ForwardMS: ms(fm), GradMS: ms(gm), GradOverForward: float64(gm) / float64(fm)}

	p := gp.plan.Problem
	c := gradCase{Name: in.Name, DType: numpyDType[dt], Path: nonNilPath(gp.plan.Path), Output: reversed(p.Output)}
	for k, t := range ops {
		c.Inputs = append(c.Inputs, reversed(p.Inputs[k]))
		base := filepath.Join(cfg.dir, fmt.Sprintf("%s_%d", sanitize(in.Name), k))
		c.Files, c.Grads = append(c.Files, base+".npy"), append(c.Grads, base+"_grad.npy")
		d, err := t.Data()
		if err != nil {
			return gradRow{}, gradCase{}, nil, err
		}
		if err := writeNPYFile(base+".npy", &npy.Array{Shape: reversed(t.Shape()), Data: d}); err != nil {
			return gradRow{}, gradCase{}, nil, err
		}
	}
	tol := gradTolerance[T](len(ops))
	check := func(files []string) (float64, string, error) {
		if files != nil {
			r, err := compareGradFiles(grads, files)
			if err == nil {
				return r / tol, "torch", nil
			}
			fmt.Fprintf(stderr, "bench grad: %s: torch gradients unreadable (%v): central differences instead\n", in.Name, err)
		}
		r, err := centralDiffError(e, subs, in.Shapes, ops, grads)
		return r / tol, "central differences", err
	}
	return row, c, check, nil
}

// gradTolerance is tol of the command's doc for n operands of T.
func gradTolerance[T tf.Scalar](n int) float64 {
	b := 1e-7
	if eps, _ := epsOf[T](); eps > 0x1p-30 {
		b = 1e-4
	}
	if tf.DTypeOf[T]().IsComplex() {
		b *= 2
	}
	return b * math.Sqrt(float64(n))
}

// compareGradFiles returns the largest ‖g_k - t_k‖∞ / ‖t_k‖∞ over the
// operands, t_k read from files[k] (C order with the axes reversed, so its
// data is g_k's column-major order). NaN gives +Inf.
func compareGradFiles[T tf.Scalar](grads []*tf.Tensor[T], files []string) (float64, error) {
	worst := 0.0
	for k, g := range grads {
		a, err := npy.ReadFile(files[k], npy.MaxBytes(1<<40))
		if err != nil {
			return 0, err
		}
		t, ok := a.Data.([]T)
		if want := reversed(g.Shape()); !ok || !slices.Equal(a.Shape, want) || a.Fortran && len(want) > 1 {
			return 0, fmt.Errorf("%s: %v %v, want %v %v", filepath.Base(files[k]), a.DType, a.Shape, tf.DTypeOf[T](), want)
		}
		d, err := g.Data()
		if err != nil {
			return 0, err
		}
		diff, norm := 0.0, 0.0
		for i := range d {
			diff = max(diff, nanInf(absDiff(d[i], t[i])))
			norm = max(norm, toAbs(t[i]))
		}
		_, tiny := epsOf[T]()
		worst = max(worst, diff/(norm+tiny))
	}
	return worst, nil
}

func nanInf(x float64) float64 {
	if x != x {
		return math.Inf(1)
	}
	return x
}

// centralDiffError is the central-difference error of the command's doc:
// the larger over two directions v of |D - Σ_k Re⟨g_k, v_k⟩| /
// Σ_k Σ |g_k|·|v_k|, with L evaluated in float64 (complex128 for complex
// T).
func centralDiffError[T tf.Scalar](e *cpu.Engine, subs string, shapes [][]int, ops, grads []*tf.Tensor[T]) (float64, error) {
	if tf.DTypeOf[T]().IsComplex() {
		return centralDiff[T, complex128](e, subs, shapes, ops, grads)
	}
	return centralDiff[T, float64](e, subs, shapes, ops, grads)
}

func centralDiff[T, W tf.Scalar](e *cpu.Engine, subs string, shapes [][]int, ops, grads []*tf.Tensor[T]) (float64, error) {
	plan, err := tf.PrepareEinsum(tf.DTypeOf[W](), subs, shapes, tf.WithStrategy(gradOpts.Strategy))
	if err != nil {
		return 0, err
	}
	n := len(ops)
	h := math.Cbrt(0x1p-52) / float64(n)
	xs := make([][]complex128, n)
	gs := make([][]complex128, n)
	for k, t := range ops {
		d, err := t.Data()
		if err != nil {
			return 0, err
		}
		g, err := grads[k].Data()
		if err != nil {
			return 0, err
		}
		xs[k], gs[k] = make([]complex128, len(d)), make([]complex128, len(d))
		for i := range d {
			xs[k][i], gs[k][i] = toC128(d[i]), toC128(g[i])
		}
	}
	// loss returns L(x + s·h·v), summing the output's real parts with
	// Neumaier's compensation.
	loss := func(vs [][]complex128, s float64) (float64, error) {
		in := make([]*tf.Tensor[W], n)
		for k := range xs {
			w := make([]W, len(xs[k]))
			for i, x := range xs[k] {
				w[i] = fromComplex[W](x + complex(s*h, 0)*vs[k][i])
			}
			t, err := tf.FromSlice(w, shapes[k]...)
			if err != nil {
				return 0, err
			}
			in[k] = t
		}
		r, err := tf.EinsumPlanned(e, plan, in...)
		if err != nil {
			return 0, err
		}
		defer r.Release()
		d, err := r.Data()
		if err != nil {
			return 0, err
		}
		var sum, comp float64
		for _, v := range d {
			x := real(toC128(v))
			t := sum + x
			if math.Abs(sum) >= math.Abs(x) {
				comp += (sum - t) + x
			} else {
				comp += (x - t) + sum
			}
			sum = t
		}
		return sum + comp, nil
	}
	cplx := tf.DTypeOf[T]().IsComplex()
	rng := rand.New(rand.NewPCG(0x6772, 0x6164))
	worst := 0.0
	for _, lo := range []float64{0, -1} { // u in [0, 1), then in [-1, 1)
		draw := func() float64 { return lo + (1-lo)*rng.Float64() }
		vs := make([][]complex128, n)
		var dAD, scale float64
		for k := range xs {
			vs[k] = make([]complex128, len(xs[k]))
			for i, x := range xs[k] {
				u := complex(draw(), 0)
				if cplx {
					u = complex(real(u), draw())
				}
				v := u * x
				vs[k][i] = v
				g := gs[k][i]
				dAD += real(g)*real(v) + imag(g)*imag(v) // Re(conj(g)·v)
				scale += absC(g) * absC(v)
			}
		}
		lp, err := loss(vs, 1)
		if err != nil {
			return 0, err
		}
		lm, err := loss(vs, -1)
		if err != nil {
			return 0, err
		}
		dFD := (lp - lm) / (2 * h)
		worst = max(worst, nanInf(math.Abs(dFD-dAD))/(scale+0x1p-1022))
	}
	return worst, nil
}

func absC(c complex128) float64 { return math.Hypot(real(c), imag(c)) }

// fromComplex converts c to W: its real part for a real W.
func fromComplex[W tf.Scalar](c complex128) W {
	var z W
	switch any(z).(type) {
	case float32:
		return any(float32(real(c))).(W)
	case float64:
		return any(real(c)).(W)
	case complex64:
		return any(complex64(c)).(W)
	}
	return any(c).(W)
}

func reversed(s []int) []int {
	r := make([]int, len(s))
	for i, v := range s {
		r[len(s)-1-i] = v
	}
	return r
}

// sanitize keeps the letters, digits, '-' and '_' of a file name.
func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return r
		}
		return '_'
	}, s)
}

// gradPeerScript runs the cases with PyTorch: forward along the path and
// backward, timed as the library (the median of 3 to 500 calls within the
// budget after a sizing call), writing the gradients of the last call to
// the cases' gradient files. It prints {"openblas_core", "torch_version",
// "numpy_ms" (all null), "torch_ms", "notes"}, the times parallel to the
// cases (null: torch missing or failed). OPENBLAS_CORETYPE is set from the
// input before PyTorch loads OpenBLAS, only when the caller found that
// OpenBLAS does not recognize this CPU.
//
//go:embed bench_grad_peer.py
var gradPeerBody string

var gradPeerScript = peerScript(gradPeerBody)

// runGradPeer runs the peer script on the cases. A missing interpreter or
// a failed run gives null times and a note, never an error.
func runGradPeer(cases []gradCase, threads int, budget time.Duration) peerResult {
	if len(cases) == 0 {
		return peerResult{}
	}
	in := map[string]any{"cases": cases, "threads": threads, "budget": budget.Seconds()}
	return runPeerTimes(gradPeerScript, threads, in, len(cases))
}

// describeGradPeer names PyTorch and the OpenBLAS kernel it ran.
func describeGradPeer(p peerResult) string {
	if p.TorchVersion == nil {
		return "torch: absent (checks by central differences)"
	}
	return "torch " + *p.TorchVersion + ", " + p.openblasDesc()
}

func printGradTable(w io.Writer, rows []gradRow) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "name\tthreads\tforward ms\tgrad ms\tgrad/forward\ttorch ms\ttorch speedup\tcheck\t")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%d\t%.4f\t%.4f\t%.2f\t%s\t%s\t%s\t\n", r.Name, r.Threads, r.ForwardMS, r.GradMS, r.GradOverForward,
			orDash(r.TorchMS, "%.4f"), orDash(r.TorchSpeedup, "%.2f"), r.Check)
	}
	tw.Flush()
}

// gradSummary is the closing line: the geometric means of grad/forward
// and of torch_ms / grad_ms over the rows that have them.
func gradSummary(rows []gradRow) string {
	s := geomeanSummary([]string{"torch"}, len(rows), func(_, i int) *float64 { return rows[i].TorchSpeedup })
	sum, k := 0.0, 0
	for _, r := range rows {
		if r.GradOverForward > 0 {
			sum, k = sum+math.Log(r.GradOverForward), k+1
		}
	}
	if k == 0 {
		return s + "; grad/forward n/a"
	}
	return fmt.Sprintf("%s; grad/forward %.2f over %d cases", s, math.Exp(sum/float64(k)), k)
}
