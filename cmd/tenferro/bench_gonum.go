// bench gonum: gonum's own mat and LAPACK code timed on gonum's BLAS and
// then on package gonumx's BLAS, in the same run.
//
//	tenferro bench gonum [--ops LIST] [--sizes LIST] [--threads N] [--json]
//	    [--budget DURATION]
//
// --ops selects from mul (mat.Dense.Mul, C = A·B), cholesky
// (lapack64.Potrf, upper), lu (lapack64.Getrf), qr (lapack64.Geqrf) and
// eigh (lapack64.Syev with eigenvectors), default all; --sizes the matrix
// orders n (default 512,1024); --threads the goroutines each BLAS call may
// use (default 1: gonumx serial). gonum's own Dgemm runs on GOMAXPROCS
// goroutines, so the command sets GOMAXPROCS to --threads for the run:
// both BLAS get the same processors.
//
// Inputs are drawn once per (op, n) with entries uniform in [-1, 1): A and
// B for mul, the symmetric positive definite (R + Rᵀ)/2 + 2n·I for
// cholesky, R for lu and qr, the symmetric (R + Rᵀ)/2 for eigh. Each case
// runs first with gonum.Implementation installed (blas64.Use) and then
// with gonumx's: one untimed call, then the median of repeated calls
// within --budget (default 300ms; at least 3), each on a fresh copy of the
// input made outside the timing. The factorizations' workspace is queried
// once beforehand.
//
// A row of --json: {"op", "size", "threads", "kernel", "gonum_ms",
// "gonumx_ms", "speedup", "max_rel_diff"}: speedup is gonum_ms/gonumx_ms
// (above 1: gonumx is faster), kernel the GEMM kernel family that ran,
// and max_rel_diff is max|x − y| / max|y| between gonumx's result x and
// gonum's y (the product; the packed factors and tau or pivots; the
// eigenvalues), which rounding alone keeps near n·eps. The table ends with
// the geometric mean of the speedups, printed on stderr with --json.

package main

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/blas/gonum"
	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"

	"github.com/tenferro-go/tenferro/gonumx"
	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
	"github.com/tenferro-go/tenferro/team"
)

func init() {
	registerBench("gonum", "gonum's mat and lapack64 on gonum's BLAS and on gonumx's, in the same run", benchGonum)
}

// gonumRow is one row of `bench gonum --json`.
type gonumRow struct {
	Op         string  `json:"op"`
	Size       int     `json:"size"`
	Threads    int     `json:"threads"`
	Kernel     string  `json:"kernel"`
	GonumMS    float64 `json:"gonum_ms"`
	GonumxMS   float64 `json:"gonumx_ms"`
	Speedup    float64 `json:"speedup"`
	MaxRelDiff float64 `json:"max_rel_diff"`
}

// gonumWork is one prepared case: reset restores the input the call
// overwrites (untimed; nil when it overwrites none), run is the timed
// call, and result returns a copy of what it computed, or an error when
// the call failed.
type gonumWork struct {
	reset  func()
	run    func()
	result func() ([]float64, error)
}

// gonumCases prepares each op for order n from a generator seeded by it.
var gonumCases = []struct {
	name    string
	prepare func(rng *rand.Rand, n int) gonumWork
}{
	{"mul", prepareMul},
	{"cholesky", preparePotrf},
	{"lu", prepareGetrf},
	{"qr", prepareGeqrf},
	{"eigh", prepareSyev},
}

func gonumOpNames() []string {
	var s []string
	for _, c := range gonumCases {
		s = append(s, c.name)
	}
	return s
}

// maxGonumOrder bounds --sizes.
const maxGonumOrder = 8192

func benchGonum(args []string, stdout, stderr io.Writer) int {
	const name = "bench gonum"
	fs := newFlags(name, io.Discard)
	opsFlag := fs.String("ops", "all", "comma-separated operations ("+strings.Join(gonumOpNames(), ", ")+"), or all")
	sizesFlag := fs.String("sizes", "512,1024", "comma-separated matrix orders n")
	threads := fs.Int("threads", 1, "goroutines per BLAS call (and GOMAXPROCS for the run)")
	asJSON := fs.Bool("json", false, "print JSON rows instead of a table")
	budget := fs.Duration("budget", 300*time.Millisecond, "timing budget per case and BLAS")
	if code, done := parseBenchFlags(fs, name, args, stderr); done {
		return code
	}
	ops := gonumOpNames()
	if !strings.EqualFold(strings.TrimSpace(*opsFlag), "all") {
		var err error
		ops, err = parseList("ops", "all or operations from "+strings.Join(ops, ", "), *opsFlag, func(f string) (string, bool) {
			return strings.ToLower(f), slices.Contains(ops, strings.ToLower(f))
		})
		if err != nil {
			return fail(stderr, name, err)
		}
	}
	sizes, err := parseList("sizes", fmt.Sprintf("matrix orders in [1, %d]", maxGonumOrder), *sizesFlag, func(f string) (int, bool) {
		var n int
		_, err := fmt.Sscan(f, &n)
		return n, err == nil && fmt.Sprint(n) == f && n >= 1 && n <= maxGonumOrder
	})
	if err != nil {
		return fail(stderr, name, err)
	}
	switch {
	case *threads < 1 || *threads > team.MaxThreads:
		return fail(stderr, name, fmt.Errorf("--threads must be in [1, %d], got %d", team.MaxThreads, *threads))
	case *budget <= 0:
		return fail(stderr, name, fmt.Errorf("--budget must be positive, got %v", *budget))
	}
	impl, err := gonumx.New(gonumx.Threads(*threads))
	if err != nil {
		return fail(stderr, name, err)
	}
	defer impl.Close()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(*threads))
	defer blas64.Use(gonum.Implementation{})

	var rows []gonumRow
	for _, n := range sizes {
		for _, c := range gonumCases {
			if !slices.Contains(ops, c.name) {
				continue
			}
			fmt.Fprintf(stderr, "bench gonum: %s, n=%d\n", c.name, n)
			row, err := runGonumCase(impl, c.prepare(rand.New(rand.NewPCG(uint64(n), 7)), n), *budget)
			if err != nil {
				fmt.Fprintf(stderr, "tenferro %s: %s n=%d: %v\n", name, c.name, n, err)
				return 1
			}
			row.Op, row.Size, row.Threads, row.Kernel = c.name, n, *threads, gemm.ActiveVariant()
			rows = append(rows, row)
		}
	}
	summary := gonumSummary(rows)
	if *asJSON {
		fmt.Fprintln(stderr, summary)
		return writeJSONPlain(stdout, stderr, rows)
	}
	fmt.Fprintf(stdout, "== gonum's mat and lapack64 on gonum's BLAS and on gonumx's, threads=%d, kernel %s\n", *threads, gemm.ActiveVariant())
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "op\tn\tgonum\tgonumx\tspeedup\tmax rel diff\t")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%.2fx\t%.1e\t\n", r.Op, r.Size, fmtDur(time.Duration(r.GonumMS*1e6)), fmtDur(time.Duration(r.GonumxMS*1e6)), r.Speedup, r.MaxRelDiff)
	}
	tw.Flush()
	fmt.Fprintln(stdout, summary)
	return 0
}

// runGonumCase times w on gonum's BLAS and then on impl, and compares the
// results.
func runGonumCase(impl *gonumx.Implementation, w gonumWork, budget time.Duration) (gonumRow, error) {
	var row gonumRow
	var results [2][]float64
	for i, b := range []blas.Float64{gonum.Implementation{}, impl} {
		blas64.Use(b)
		if w.reset != nil {
			w.reset()
		}
		w.run()
		res, err := w.result()
		if err != nil {
			return row, err
		}
		results[i] = res
		m := ms(max(measureReset(budget, w.reset, w.run).median(), time.Nanosecond))
		if i == 0 {
			row.GonumMS = m
		} else {
			row.GonumxMS = m
		}
	}
	blas64.Use(gonum.Implementation{})
	row.Speedup = row.GonumMS / row.GonumxMS
	row.MaxRelDiff = maxRelDiff(results[1], results[0])
	return row, nil
}

// measureReset is measureLinalg for calls that overwrite their input:
// reset (when not nil) runs before every call, outside the timing.
func measureReset(budget time.Duration, reset, fn func()) samples {
	if reset == nil {
		return measureLinalg(budget, fn)
	}
	reset()
	t0 := time.Now()
	fn()
	one := max(time.Since(t0), time.Microsecond)
	s := make(samples, min(max(int(budget/one), 3), 500))
	for i := range s {
		reset()
		t0 := time.Now()
		fn()
		s[i] = time.Since(t0)
	}
	sortDurations(s)
	return s
}

// maxRelDiff returns max|x − y| / max|y| (0 for y all zero and x == y).
func maxRelDiff(x, y []float64) float64 {
	var d, s float64
	for i := range y {
		d = math.Max(d, math.Abs(x[i]-y[i]))
		s = math.Max(s, math.Abs(y[i]))
	}
	if s == 0 {
		return d
	}
	return d / s
}

func gonumSummary(rows []gonumRow) string {
	if len(rows) == 0 {
		return "geometric mean gonum/gonumx: n/a"
	}
	var l float64
	for _, r := range rows {
		l += math.Log(r.Speedup)
	}
	return fmt.Sprintf("geometric mean gonum/gonumx: %.2fx over %d cases", math.Exp(l/float64(len(rows))), len(rows))
}

// uniform returns n values uniform in [-1, 1).
func uniform(rng *rand.Rand, n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = 2*rng.Float64() - 1
	}
	return x
}

// symmetric returns (R + Rᵀ)/2 + shift·I, row-major.
func symmetric(rng *rand.Rand, n int, shift float64) []float64 {
	a := uniform(rng, n*n)
	for i := range n {
		for j := range i {
			h := (a[i*n+j] + a[j*n+i]) / 2
			a[i*n+j], a[j*n+i] = h, h
		}
		a[i*n+i] += shift
	}
	return a
}

func prepareMul(rng *rand.Rand, n int) gonumWork {
	a, b := mat.NewDense(n, n, uniform(rng, n*n)), mat.NewDense(n, n, uniform(rng, n*n))
	c := mat.NewDense(n, n, nil)
	return gonumWork{
		run:    func() { c.Mul(a, b) },
		result: func() ([]float64, error) { return slices.Clone(c.RawMatrix().Data), nil },
	}
}

// overwrite returns the reset that copies in into a (the working copy).
func overwrite(a, in []float64) func() { return func() { copy(a, in) } }

func preparePotrf(rng *rand.Rand, n int) gonumWork {
	in := symmetric(rng, n, 2*float64(n))
	a := slices.Clone(in)
	ok := false
	return gonumWork{
		reset: overwrite(a, in),
		run: func() {
			_, ok = lapack64.Potrf(blas64.Symmetric{N: n, Stride: n, Data: a, Uplo: blas.Upper})
		},
		result: func() ([]float64, error) {
			if !ok {
				return nil, fmt.Errorf("Potrf: the matrix is not positive definite")
			}
			return slices.Clone(a), nil
		},
	}
}

func prepareGetrf(rng *rand.Rand, n int) gonumWork {
	in := uniform(rng, n*n)
	a := slices.Clone(in)
	ipiv := make([]int, n)
	return gonumWork{
		reset: overwrite(a, in),
		run:   func() { lapack64.Getrf(blas64.General{Rows: n, Cols: n, Stride: n, Data: a}, ipiv) },
		result: func() ([]float64, error) {
			r := slices.Clone(a)
			for _, p := range ipiv {
				r = append(r, float64(p))
			}
			return r, nil
		},
	}
}

func prepareGeqrf(rng *rand.Rand, n int) gonumWork {
	in := uniform(rng, n*n)
	a := slices.Clone(in)
	tau := make([]float64, n)
	g := blas64.General{Rows: n, Cols: n, Stride: n, Data: a}
	work := make([]float64, 1)
	lapack64.Geqrf(g, tau, work, -1)
	work = make([]float64, int(work[0]))
	return gonumWork{
		reset:  overwrite(a, in),
		run:    func() { lapack64.Geqrf(g, tau, work, len(work)) },
		result: func() ([]float64, error) { return append(slices.Clone(a), tau...), nil },
	}
}

func prepareSyev(rng *rand.Rand, n int) gonumWork {
	in := symmetric(rng, n, 0)
	a := slices.Clone(in)
	w := make([]float64, n)
	sym := blas64.Symmetric{N: n, Stride: n, Data: a, Uplo: blas.Upper}
	work := make([]float64, 1)
	lapack64.Syev(lapack.EVCompute, sym, w, work, -1)
	work = make([]float64, int(work[0]))
	ok := false
	return gonumWork{
		reset: overwrite(a, in),
		run:   func() { ok = lapack64.Syev(lapack.EVCompute, sym, w, work, len(work)) },
		result: func() ([]float64, error) {
			if !ok {
				return nil, fmt.Errorf("Syev: no convergence")
			}
			return slices.Clone(w), nil
		},
	}
}
