// bench linalg: the factorizations and solvers of package linalg, timed
// against NumPy, gonum and PyTorch in the same run.
//
//	tenferro bench linalg [--ops LIST] [--sizes LIST] [--dtype f32,f64,c64,c128]
//	    [--batch N] [--threads N] [--json] [--budget DURATION] [--no-reference]
//	    [--plot FILE]
//
// --ops selects operations of the linalg command's table by name (default
// all: qr, lq, svd, eigh, solve, cholesky_solve, solve_triangular,
// cholesky, inv, det, slogdet, lstsq, pinv, expm, norm, cond,
// matrix_rank, lu), --sizes the matrix orders n
// (default 256,512,1024), --dtype the element types (default f64,c128),
// --batch the number of stacked matrices (default 1: one matrix; N: the
// library's (n, n, N) batch and NumPy's (N, n, n) stacked call).
//
// Inputs are drawn once per (dtype, n, batch), with R uniform in [-1, 1)
// (both parts for complex): the well-conditioned R + √n·I for solve, inv,
// det, slogdet and lu; R for qr, lq, svd, lstsq, pinv, norm, cond and
// matrix_rank; R/√n for expm; the Hermitian positive definite
// (R + Rᴴ)/2 + 2n·I for cholesky, and its lower triangle as the factor
// of cholesky_solve and the matrix of solve_triangular; the Hermitian
// (R + Rᴴ)/2 for eigh; n right sides R for the solves and lstsq. Every
// case times the Into form in its default mode (thin SVD, reduced QR, eigenvectors included,
// Frobenius norm, 2-norm condition, NumPy's rcond) into preallocated
// destinations, on a serial engine for --threads 1 and a team engine
// otherwise: the median of repeated calls within --budget (default 300ms;
// at least 3) after a warm-up.
//
// The same inputs, written to .npy files in a temporary directory, are
// then timed in one Python process by NumPy (numpy.linalg under
// OPENBLAS_NUM_THREADS=N; lstsq per matrix with rcond=None; lu is
// scipy.linalg.lu_factor per matrix, the packed factors the library's LU
// returns, expm scipy.linalg.expm, cholesky_solve scipy.linalg.cho_solve
// and solve_triangular scipy.linalg.solve_triangular, per matrix, when
// SciPy is importable) and
// PyTorch (torch.linalg with torch.set_num_threads(N), lstsq by the
// SVD-based gelsd driver as the library's; when `import torch` fails
// torch_ms is null and a note on stderr says why: set PYTHONPATH where
// torch lives outside the interpreter's path), and in this process by
// gonum (gonum.org/v1/gonum/mat, float64 only: QR, LQ, SVD, EigenSym,
// Cholesky, LU, Solve, Solve on a TriDense, Inverse, Det, LogDet, Exp,
// Norm, Cond; one call
// per matrix of the batch), each timed the same way. --no-reference skips
// NumPy and PyTorch.
//
// A row of --json: {"op", "dtype", "size", "batch", "threads", "median_ms",
// "numpy_ms", "gonum_ms", "torch_ms", "openblas_core"}, null where a peer
// is missing, lacks the op or dtype, or failed (a note on stderr says
// why); openblas_core is the OpenBLAS kernel NumPy ran (threadpoolctl's
// "architecture", or openblas_get_corename; a generic kernel that ignores
// this CPU's vector units is replaced through OPENBLAS_CORETYPE, and a
// note and the header say so). The table adds the ratios numpy/ours, gonum/ours and
// torch/ours (above 1: the library is faster) and ends with their
// geometric means, printed on stderr with --json. --plot FILE also draws
// each peer's time over ours per case (see linalgChart).

package main

import (
	_ "embed"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/team"
	"gonum.org/v1/gonum/mat"
)

func init() {
	registerBench("linalg", "factorizations and solvers against NumPy, gonum and PyTorch in the same run", benchLinalg)
}

// linalgRow is one row of `bench linalg --json`.
type linalgRow struct {
	Op           string   `json:"op"`
	DType        string   `json:"dtype"`
	Size         int      `json:"size"`
	Batch        int      `json:"batch"`
	Threads      int      `json:"threads"`
	MedianMS     float64  `json:"median_ms"`
	NumpyMS      *float64 `json:"numpy_ms"`
	GonumMS      *float64 `json:"gonum_ms"`
	TorchMS      *float64 `json:"torch_ms"`
	OpenBLASCore *string  `json:"openblas_core"`
}

// linalgCase is what the peer script runs for one row: the op's
// expressions over the inputs stored in files (NumPy order).
type linalgCase struct {
	Op    string   `json:"op"`
	DType string   `json:"dtype"` // NumPy's name
	Files []string `json:"files"`
	Numpy string   `json:"np"`
	Scipy bool     `json:"scipy"`
	Torch string   `json:"torch"`
}

// maxLinalgOrder bounds --sizes.
const maxLinalgOrder = 16384

func benchLinalg(args []string, stdout, stderr io.Writer) int {
	const name = "bench linalg"
	fs := newFlags(name, io.Discard)
	opsFlag := fs.String("ops", "all", "comma-separated operations ("+strings.Join(linalgOpNames(), ", ")+"), or all")
	sizesFlag := fs.String("sizes", "256,512,1024", "comma-separated matrix orders n")
	dtFlag := fs.String("dtype", "f64,c128", "comma-separated element types: f32, f64, c64, c128")
	batch := fs.Int("batch", 1, "stacked matrices per call (1: a single matrix)")
	threads := fs.Int("threads", 1, "team width (1 = serial engine); also the peers' thread count")
	asJSON := fs.Bool("json", false, "print JSON rows instead of a table")
	budget := fs.Duration("budget", 300*time.Millisecond, "timing budget per case and implementation")
	noRef := fs.Bool("no-reference", false, "skip the NumPy and PyTorch peers (gonum still runs)")
	plotTo := addPlotFlag(fs)
	if code, done := parseBenchFlags(fs, name, args, stderr); done {
		return code
	}
	if err := plotTo.check(); err != nil {
		return fail(stderr, name, err)
	}
	ops, err := parseLinalgOps(*opsFlag)
	if err != nil {
		return fail(stderr, name, err)
	}
	sizes, err := parseList("sizes", fmt.Sprintf("matrix orders in [1, %d]", maxLinalgOrder), *sizesFlag, func(f string) (int, bool) {
		var n int
		_, err := fmt.Sscan(f, &n)
		return n, err == nil && fmt.Sprint(n) == f && n >= 1 && n <= maxLinalgOrder
	})
	if err != nil {
		return fail(stderr, name, err)
	}
	dts, err := parseDTypeList(*dtFlag)
	if err != nil {
		return fail(stderr, name, err)
	}
	switch {
	case *batch < 1 || *batch > 1<<20:
		return fail(stderr, name, fmt.Errorf("--batch must be in [1, %d], got %d", 1<<20, *batch))
	case *threads < 1 || *threads > team.MaxThreads:
		return fail(stderr, name, fmt.Errorf("--threads must be in [1, %d], got %d", team.MaxThreads, *threads))
	case *budget <= 0:
		return fail(stderr, name, fmt.Errorf("--budget must be positive, got %v", *budget))
	}
	e, err := benchEngineWidth(*threads)
	if err != nil {
		return fail(stderr, name, err)
	}
	defer e.Close()
	dir := ""
	if !*noRef {
		if dir, err = os.MkdirTemp("", "tenferro-bench-linalg-"); err != nil {
			fmt.Fprintf(stderr, "tenferro %s: %v\n", name, err)
			return 1
		}
		defer os.RemoveAll(dir)
	}
	var rows []linalgRow
	var cases []linalgCase
	for _, dt := range dts {
		for _, n := range sizes {
			fmt.Fprintf(stderr, "bench linalg: %s, n=%d, batch %d\n", dt, n, *batch)
			r, c, err := linalgCasesByDType[dt](e, ops, n, *batch, *budget, dir)
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
		peer = runLinalgPeers(cases, *threads, *budget)
		for i := range rows {
			rows[i].NumpyMS, rows[i].TorchMS, rows[i].OpenBLASCore = peer.NumpyMS[i], peer.TorchMS[i], peer.OpenBLASCore
		}
		for _, note := range peer.Notes {
			fmt.Fprintf(stderr, "bench linalg: %s\n", note)
		}
	}
	summary := linalgSummary(rows)
	if *asJSON {
		fmt.Fprintln(stderr, summary)
		if code := writeJSONPlain(stdout, stderr, rows); code != 0 {
			return code
		}
	} else {
		fmt.Fprintf(stdout, "== linalg Into forms, batch %d, threads=%d; %s\n", *batch, *threads, peer.describe(fmt.Sprintf("OPENBLAS_NUM_THREADS=%d", *threads))+", gonum (float64)")
		printLinalgTable(stdout, rows)
		fmt.Fprintln(stdout, summary)
	}
	return plotTo.draw(stderr, name, linalgChart(rows, peer))
}

// parseLinalgOps reads --ops: "all" (nil) or names of the linalg table.
func parseLinalgOps(s string) ([]string, error) {
	if strings.EqualFold(strings.TrimSpace(s), "all") {
		return nil, nil
	}
	known := linalgOpNames()
	return parseList("ops", "all or operations from "+strings.Join(known, ", "), s, func(f string) (string, bool) {
		return strings.ToLower(f), slices.Contains(known, strings.ToLower(f))
	})
}

// linalgCasesByDType measures the selected operations in one dtype.
var linalgCasesByDType = map[tf.DType]func(e tf.Engine, ops []string, n, batch int, budget time.Duration, dir string) ([]linalgRow, []linalgCase, error){
	tf.Float32:    linalgCases[float32],
	tf.Float64:    linalgCases[float64],
	tf.Complex64:  linalgCases[complex64],
	tf.Complex128: linalgCases[complex128],
}

// benchInput is one drawn input: the tensor in the library's layout, its
// compact column-major data, and the .npy file the peers load ("" without
// peers).
type benchInput[T tf.Scalar] struct {
	t    *tf.Tensor[T]
	data []T
	file string
}

// linalgCases times every operation of T named in ops (all for nil) at
// order n on batch matrices, with gonum for float64, and returns the rows
// with the cases the peers run; dir receives the peers' input files ("":
// no peers).
func linalgCases[T tf.Scalar](e tf.Engine, ops []string, n, batch int, budget time.Duration, dir string) ([]linalgRow, []linalgCase, error) {
	dt := tf.DTypeOf[T]()
	shape := []int{n, n}
	if batch > 1 {
		shape = append(shape, batch)
	}
	inputs := map[inputKind]benchInput[T]{}
	input := func(k inputKind) (benchInput[T], error) {
		if in, ok := inputs[k]; ok {
			return in, nil
		}
		data := drawInput[T](k, n, batch)
		t, err := tf.FromSlice(data, shape...)
		if err != nil {
			return benchInput[T]{}, err
		}
		in := benchInput[T]{t: t, data: data}
		if dir != "" {
			in.file = filepath.Join(dir, fmt.Sprintf("%d_%s_%d_%d.npy", k, dt, n, batch))
			if err := writeNumPy(e, in.file, t, 2); err != nil {
				return benchInput[T]{}, err
			}
		}
		inputs[k] = in
		return in, nil
	}
	var rows []linalgRow
	var cases []linalgCase
	for _, o := range linalgOps[T]() {
		if ops != nil && !slices.Contains(ops, o.name) {
			continue
		}
		ins := make([]benchInput[T], len(o.in))
		ts := make([]*tf.Tensor[T], len(o.in))
		var files []string
		for i, k := range o.in {
			in, err := input(k)
			if err != nil {
				return nil, nil, err
			}
			ins[i], ts[i], files = in, in.t, append(files, in.file)
		}
		call, done, err := o.into(e, ts)
		if err != nil {
			return nil, nil, fmt.Errorf("%s %s: %v", o.name, dt, err)
		}
		if err := call(); err != nil {
			done()
			return nil, nil, fmt.Errorf("%s %s n=%d: %v", o.name, dt, n, err)
		}
		m := max(measureLinalg(budget, func() { _ = call() }).median(), time.Nanosecond)
		done()
		row := linalgRow{Op: o.name, DType: dt.String(), Size: n, Batch: batch, MedianMS: ms(m)}
		if data, ok := any(ins).([]benchInput[float64]); ok && o.peer.gonum != nil {
			g := o.peer.gonum(gonumInputs(data, n, batch))
			v := ms(max(measureLinalg(budget, g).median(), time.Nanosecond))
			row.GonumMS = &v
		}
		rows = append(rows, row)
		cases = append(cases, linalgCase{Op: o.name, DType: numpyDType[dt], Files: files,
			Numpy: o.peer.numpy, Scipy: o.peer.needsScipy, Torch: o.peer.torch})
	}
	return rows, cases, nil
}

// measureLinalg times fn once as the warm-up, which also sizes the run,
// then repeats it for about budget: at least 3 and at most 500 timed
// calls (factorizations of large matrices take seconds each, so fewer
// than measureFor's 5).
func measureLinalg(budget time.Duration, fn func()) samples {
	t0 := time.Now()
	fn()
	one := max(time.Since(t0), time.Microsecond)
	return measure(0, min(max(int(budget/one), 3), 500), fn)
}

// drawInput returns the column-major data of batch n×n matrices of kind k
// (see the command's doc), reproducible for (k, n, batch).
func drawInput[T tf.Scalar](k inputKind, n, batch int) []T {
	r := drawRange[T](uint64(k)*1_000_003+uint64(n)*7+uint64(batch), n*n*batch, unitRange)
	nn := n * n
	for b := range batch {
		m := r[b*nn : (b+1)*nn]
		switch k {
		case generalIn:
			for i := range n {
				m[i*n+i] += fromReal[T](math.Sqrt(float64(n)))
			}
		case scaledIn:
			for i := range m {
				m[i] /= fromReal[T](math.Sqrt(float64(n)))
			}
		case spdIn, hermitianIn:
			for j := range n {
				for i := j; i < n; i++ {
					h := (m[j*n+i] + conjOf(m[i*n+j])) / 2
					m[j*n+i], m[i*n+j] = h, conjOf(h)
				}
				if k == spdIn {
					m[j*n+j] += fromReal[T](2 * float64(n))
				}
			}
		}
	}
	return r
}

// conjOf returns the complex conjugate of v (v itself for reals).
func conjOf[T tf.Scalar](v T) T {
	switch x := any(v).(type) {
	case complex64:
		return any(complex(real(x), -imag(x))).(T)
	case complex128:
		return any(complex(real(x), -imag(x))).(T)
	}
	return v
}

// gonumRun prepares gonum's form of an operation on in[b][k], input k of
// batch item b, and returns the call that runs it on every item.
type gonumRun func(in [][]*mat.Dense) func()

// gonumInputs converts the drawn float64 inputs to gonum matrices, one
// per input and batch item.
func gonumInputs(ins []benchInput[float64], n, batch int) [][]*mat.Dense {
	out := make([][]*mat.Dense, batch)
	for b := range batch {
		for _, in := range ins {
			d := mat.NewDense(n, n, nil)
			m := in.data[b*n*n : (b+1)*n*n]
			for j := range n {
				for i := range n {
					d.Set(i, j, m[j*n+i])
				}
			}
			out[b] = append(out[b], d)
		}
	}
	return out
}

// sym returns the symmetric matrix whose upper triangle is a's.
func sym(a *mat.Dense) *mat.SymDense {
	n, _ := a.Dims()
	return mat.NewSymDense(n, slices.Clone(a.RawMatrix().Data))
}

// perItem returns the call that runs f on every batch item.
func perItem[S any](in [][]*mat.Dense, prep func(x []*mat.Dense) S, f func(S)) func() {
	st := make([]S, len(in))
	for b, x := range in {
		st[b] = prep(x)
	}
	return func() {
		for _, s := range st {
			f(s)
		}
	}
}

// gonumQR factors A = Q·R and forms the reduced Q and R.
func gonumQR(in [][]*mat.Dense) func() {
	return perItem(in, func(x []*mat.Dense) gonumPair { return gonumPair{&mat.Dense{}, x[0], &mat.Dense{}} },
		func(s gonumPair) {
			var qr mat.QR
			qr.Factorize(s.a)
			qr.QTo(s.dst)
			qr.RTo(s.b)
		})
}

// gonumLQ factors A = L·Q and forms L and Q.
func gonumLQ(in [][]*mat.Dense) func() {
	return perItem(in, func(x []*mat.Dense) gonumPair { return gonumPair{&mat.Dense{}, x[0], &mat.Dense{}} },
		func(s gonumPair) {
			var lq mat.LQ
			lq.Factorize(s.a)
			lq.LTo(s.b)
			lq.QTo(s.dst)
		})
}

// gonumSVD computes the thin SVD with U and V.
func gonumSVD(in [][]*mat.Dense) func() {
	return perItem(in, func(x []*mat.Dense) gonumPair { return gonumPair{&mat.Dense{}, x[0], &mat.Dense{}} },
		func(s gonumPair) {
			var svd mat.SVD
			svd.Factorize(s.a, mat.SVDThin)
			svd.UTo(s.dst)
			svd.VTo(s.b)
		})
}

// gonumEigenSym computes the eigenvalues and eigenvectors of a symmetric
// matrix.
func gonumEigenSym(in [][]*mat.Dense) func() {
	type st struct {
		a *mat.SymDense
		v *mat.Dense
	}
	return perItem(in, func(x []*mat.Dense) st { return st{sym(x[0]), &mat.Dense{}} },
		func(s st) {
			var es mat.EigenSym
			es.Factorize(s.a, true)
			es.VectorsTo(s.v)
		})
}

// gonumExp computes exp(A).
func gonumExp(in [][]*mat.Dense) func() {
	return perItem(in, func(x []*mat.Dense) gonumPair { return gonumPair{&mat.Dense{}, x[0], nil} },
		func(s gonumPair) { s.dst.Exp(s.a) })
}

// gonumNorm computes the Frobenius norm.
func gonumNorm(in [][]*mat.Dense) func() {
	return perItem(in, func(x []*mat.Dense) *mat.Dense { return x[0] }, func(a *mat.Dense) { mat.Norm(a, 2) })
}

// gonumCond computes the 2-norm condition number.
func gonumCond(in [][]*mat.Dense) func() {
	return perItem(in, func(x []*mat.Dense) *mat.Dense { return x[0] }, func(a *mat.Dense) { mat.Cond(a, 2) })
}

// gonumSolveTri solves L·X = B with the lower triangle L of A (a
// TriDense, so that Dense.Solve takes the triangular solver).
func gonumSolveTri(in [][]*mat.Dense) func() {
	type st struct {
		x, b *mat.Dense
		l    *mat.TriDense
	}
	return perItem(in, func(x []*mat.Dense) st {
		n, _ := x[0].Dims()
		l := mat.NewTriDense(n, mat.Lower, nil)
		l.Copy(x[0])
		return st{&mat.Dense{}, x[1], l}
	}, func(s st) { _ = s.x.Solve(s.l, s.b) })
}

type gonumPair struct{ dst, a, b *mat.Dense }

func gonumSolve(in [][]*mat.Dense) func() {
	return perItem(in, func(x []*mat.Dense) gonumPair { return gonumPair{&mat.Dense{}, x[0], x[1]} },
		func(s gonumPair) { _ = s.dst.Solve(s.a, s.b) })
}

func gonumInverse(in [][]*mat.Dense) func() {
	return perItem(in, func(x []*mat.Dense) gonumPair { return gonumPair{&mat.Dense{}, x[0], nil} },
		func(s gonumPair) { _ = s.dst.Inverse(s.a) })
}

func gonumCholesky(in [][]*mat.Dense) func() {
	return perItem(in, func(x []*mat.Dense) *mat.SymDense { return sym(x[0]) },
		func(a *mat.SymDense) { var c mat.Cholesky; c.Factorize(a) })
}

func gonumDet(in [][]*mat.Dense) func() {
	return perItem(in, func(x []*mat.Dense) *mat.Dense { return x[0] }, func(a *mat.Dense) { mat.Det(a) })
}

func gonumLogDet(in [][]*mat.Dense) func() {
	return perItem(in, func(x []*mat.Dense) *mat.Dense { return x[0] }, func(a *mat.Dense) { mat.LogDet(a) })
}

func gonumLU(in [][]*mat.Dense) func() {
	return perItem(in, func(x []*mat.Dense) *mat.Dense { return x[0] }, func(a *mat.Dense) { var lu mat.LU; lu.Factorize(a) })
}

// linalgPeerScript times the cases with NumPy (and SciPy) and PyTorch on
// the inputs in the cases' files and prints {"openblas_core",
// "numpy_version", "scipy_version", "torch_version", "numpy_ms",
// "torch_ms", "notes"}, the times lists parallel to the cases (null: no
// expression, peer missing or failed), each the median of 3 to 500 calls
// within the budget after a warm-up that also sizes the run. OPENBLAS_CORETYPE
// is set from the input before NumPy loads OpenBLAS, only when the caller
// found that OpenBLAS does not recognize this CPU.
//
//go:embed bench_linalg_peer.py
var linalgPeerBody string

var linalgPeerScript = peerScript(linalgPeerBody)

// runLinalgPeers runs the peer script on the cases. A missing interpreter
// or a failed run gives null times and a note, never an error.
func runLinalgPeers(cases []linalgCase, threads int, budget time.Duration) peerResult {
	in := map[string]any{"cases": cases, "threads": threads, "budget": budget.Seconds()}
	return runPeerTimes(linalgPeerScript, threads, in, len(cases))
}

// linalgPeers are the peer columns: name and the row's time.
var linalgPeers = []struct {
	name string
	ms   func(r linalgRow) *float64
}{
	{"numpy", func(r linalgRow) *float64 { return r.NumpyMS }},
	{"gonum", func(r linalgRow) *float64 { return r.GonumMS }},
	{"torch", func(r linalgRow) *float64 { return r.TorchMS }},
}

func printLinalgTable(w io.Writer, rows []linalgRow) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "op\tdtype\tsize\tbatch\tours ms\tnumpy ms\tgonum ms\ttorch ms\tnumpy/ours\tgonum/ours\ttorch/ours\t")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%.4f\t", r.Op, r.DType, r.Size, r.Batch, r.MedianMS)
		for _, p := range linalgPeers {
			fmt.Fprintf(tw, "%s\t", orDash(p.ms(r), "%.4f"))
		}
		for _, p := range linalgPeers {
			fmt.Fprintf(tw, "%s\t", orDash(timeRatio(p.ms(r), r.MedianMS), "%.2f"))
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
}

// linalgSummary is the closing line: for each peer the geometric mean of
// its time over ours across the rows it ran.
func linalgSummary(rows []linalgRow) string {
	names := make([]string, len(linalgPeers))
	for p, lp := range linalgPeers {
		names[p] = lp.name
	}
	return geomeanSummary(names, len(rows), func(p, i int) *float64 { return timeRatio(linalgPeers[p].ms(rows[i]), rows[i].MedianMS) })
}
