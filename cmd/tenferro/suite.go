package main

import (
	"fmt"
	"io"
	"math"
	"math/cmplx"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/einsum"
	"github.com/tenferro-go/tenferro/internal/instances"
	"github.com/tenferro-go/tenferro/team"
)

func init() {
	register("suite", "run the einsum instance suite: time, GFLOP/s, planning time, memory and a correctness check", runSuite)
}

// suiteRow is one row of `tenferro suite --json`.
//
// MedianMS and IQRMS time one evaluation of the prepared plan; GFlops is
// the plan's FLOP count (NumPy's convention) over the median; PlanMS is the
// time PrepareEinsum took. PeakBytes is the largest total size of the
// pairwise results alive at once along the path; PoolBytes is measured:
// the storage a fresh engine's buffer pool holds after one evaluation (all
// intermediates and scratch the executor took from it). Check is "ok" or
// "FAIL" (CheckNote says against what and by how much), or "skip" when no
// independent evaluation was affordable.
type suiteRow struct {
	Name     string `json:"name"`
	DType    string `json:"dtype"`
	Strategy string `json:"strategy"`
	Threads  int    `json:"threads"`
	Operands int    `json:"operands"`
	// Subscripts and Shapes are the instance's column-major form; Path is
	// the linear path evaluated (NumPy format).
	Subscripts string   `json:"subscripts"`
	Shapes     [][]int  `json:"shapes"`
	Path       [][2]int `json:"path"`
	Flops      float64  `json:"flops"`
	Runs       int      `json:"runs"`
	MedianMS   float64  `json:"median_ms"`
	IQRMS      float64  `json:"iqr_ms"`
	GFlops     float64  `json:"gflops"`
	PlanMS     float64  `json:"plan_ms"`
	PeakBytes  int64    `json:"peak_bytes"`
	PoolBytes  int64    `json:"pool_bytes"`
	Check      string   `json:"check"`
	CheckNote  string   `json:"check_note,omitempty"`
	// Sliced is set with --memory-fraction (see slicedRow).
	Sliced *slicedRow `json:"sliced,omitempty"`
}

// suiteConfig holds the parsed flags.
type suiteConfig struct {
	strategy string // "", "opt_flops", "opt_size" or "auto"
	threads  int
	runs     int
	seed     uint64
	fraction float64 // --memory-fraction (0: none)
	output   bool    // --slice-output
}

func runSuite(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("suite", stderr)
	dir := fs.String("instances", "", "directory of einsum instance files (JSON); default: the built-in suite")
	strategy := fs.String("strategy", "", "opt_flops or opt_size (the instance's shipped path; auto when it has none) or auto (plan here); default opt_flops")
	threads := fs.Int("threads", 1, "team width (1 = serial engine)")
	runs := fs.Int("runs", 5, "timed evaluations per instance (after one untimed)")
	seed := fs.Uint64("seed", 1, "seed of the built-in suite and of the random inputs")
	asJSON := fs.Bool("json", false, "print a JSON array of rows instead of a table")
	sliceOutput := fs.Bool("slice-output", false, "with --memory-fraction, let slicing cut output labels too (each slice computes its own part of the output)")
	fraction := fs.Float64("memory-fraction", 0, "also plan each instance under this fraction (0 < F < 1) of its unsliced peak, evaluate it sliced and report slices, FLOP overhead, time and peak against the plan")
	plotTo := addPlotFlag(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: tenferro suite [--instances DIR] [--strategy opt_flops|opt_size|auto] [--threads N] [--runs N] [--memory-fraction F [--slice-output]] [--json] [--plot FILE] [NAME...]")
		fs.PrintDefaults()
	}
	names, code, done := commandArgs(fs, args)
	if done {
		return code
	}
	var err error
	switch *strategy {
	case "", "opt_flops", "opt_size", "auto":
	default:
		return fail(stderr, "suite", fmt.Errorf("--strategy: expected opt_flops, opt_size or auto, got %q", *strategy))
	}
	if *threads < 1 || *threads > team.MaxThreads {
		return fail(stderr, "suite", fmt.Errorf("--threads must be in [1, %d], got %d", team.MaxThreads, *threads))
	}
	if *runs < 1 {
		return fail(stderr, "suite", fmt.Errorf("--runs must be >= 1, got %d", *runs))
	}
	if !(*fraction >= 0 && *fraction < 1) {
		return fail(stderr, "suite", fmt.Errorf("--memory-fraction must be in (0, 1), or 0 for none, got %g", *fraction))
	}
	if err := plotTo.check(); err != nil {
		return fail(stderr, "suite", err)
	}
	var insts []instances.Instance
	if *dir != "" {
		if insts, err = loadInstanceDir(*dir); err != nil {
			return fail(stderr, "suite", err)
		}
	} else {
		insts = instances.Builtin(*seed)
	}
	if insts, err = selectInstances(insts, names); err != nil {
		return fail(stderr, "suite", err)
	}
	cfg := suiteConfig{strategy: *strategy, threads: *threads, runs: *runs, seed: *seed, fraction: *fraction, output: *sliceOutput}
	rows := make([]suiteRow, 0, len(insts))
	failed := false
	for i, in := range insts {
		fmt.Fprintf(stderr, "suite [%d/%d] %s (%s, %d operands)\n", i+1, len(insts), in.Name, in.DType, len(in.Shapes))
		row, err := runInstance(in, cfg)
		if err != nil {
			row = suiteRow{Name: in.Name, DType: in.DType, Threads: cfg.threads, Operands: len(in.Shapes),
				Check: "FAIL", CheckNote: err.Error()}
		}
		if row.Check == "FAIL" {
			failed = true
			fmt.Fprintf(stderr, "suite: %s: FAIL: %s\n", in.Name, row.CheckNote)
		}
		if row.Sliced != nil && row.Sliced.Check == "FAIL" {
			failed = true
			fmt.Fprintf(stderr, "suite: %s sliced: FAIL: %s\n", in.Name, row.Sliced.Note)
		}
		rows = append(rows, row)
	}
	if *asJSON {
		if code := writeJSONPlain(stdout, stderr, rows); code != 0 {
			return code
		}
	} else {
		printSuiteTable(stdout, rows)
		if cfg.fraction > 0 {
			fmt.Fprintf(stdout, "\nsliced under %g of each unsliced peak:\n", cfg.fraction)
			printSlicedTable(stdout, rows)
		}
	}
	if code := plotTo.draw(stderr, "suite", suiteChart(rows)); code != 0 {
		return code
	}
	if failed {
		return 1
	}
	return 0
}

// selectInstances keeps the named instances, in the order given; no names
// keeps all.
func selectInstances(all []instances.Instance, names []string) ([]instances.Instance, error) {
	if len(names) == 0 {
		return all, nil
	}
	var out []instances.Instance
	for _, n := range names {
		i := slices.IndexFunc(all, func(in instances.Instance) bool { return in.Name == n })
		if i < 0 {
			have := make([]string, len(all))
			for k := range all {
				have[k] = all[k].Name
			}
			return nil, fmt.Errorf("no instance named %q (have %s)", n, strings.Join(have, ", "))
		}
		out = append(out, all[i])
	}
	return out, nil
}

func runInstance(in instances.Instance, cfg suiteConfig) (suiteRow, error) {
	dt, err := tf.ParseDType(in.DType)
	if err != nil {
		return suiteRow{}, err
	}
	if !dt.IsNumber() {
		return suiteRow{}, fmt.Errorf("instance dtype %v is not a number type", dt)
	}
	return runByDType[dt](in, cfg)
}

// runByDType runs an instance in one dtype.
var runByDType = [...]func(instances.Instance, suiteConfig) (suiteRow, error){
	tf.Float32:    runTyped[float32],
	tf.Float64:    runTyped[float64],
	tf.Complex64:  runTyped[complex64],
	tf.Complex128: runTyped[complex128],
}

// pathChoice is one way to pick a contraction path.
type pathChoice struct {
	name string
	opts []tf.Option
}

// choices returns the chosen way to plan and the alternatives, in order of
// preference, that the correctness check may evaluate.
func choices(in instances.Instance, strategy string) (pathChoice, []pathChoice) {
	shipped := func(name string) (pathChoice, bool) {
		p, ok := in.Paths[name]
		return pathChoice{name, []tf.Option{tf.WithPath(p)}}, ok
	}
	auto := pathChoice{"auto", []tf.Option{tf.WithStrategy(einsum.Auto)}}
	greedy := pathChoice{"greedy", []tf.Option{tf.WithStrategy(einsum.Greedy)}}
	random := pathChoice{"random-greedy", []tf.Option{tf.WithStrategy(einsum.RandomGreedy), tf.WithSeed(7)}}
	search := pathChoice{"search", []tf.Option{tf.WithStrategy(einsum.Search), tf.WithSeed(11)}}
	if strategy == "" {
		strategy = "opt_flops"
	}
	chosen := auto
	if c, ok := shipped(strategy); ok {
		chosen = c
	}
	var alts []pathChoice
	for _, name := range []string{"opt_flops", "opt_size"} {
		if c, ok := shipped(name); ok && name != chosen.name {
			alts = append(alts, c)
		}
	}
	if chosen.name != "auto" {
		alts = append(alts, auto)
	}
	return chosen, append(alts, greedy, random, search)
}

func runTyped[T tf.Scalar](in instances.Instance, cfg suiteConfig) (suiteRow, error) {
	subs, err := letterSubscripts(in.Subscripts)
	if err != nil {
		return suiteRow{}, err
	}
	dt := tf.DTypeOf[T]()
	chosen, alts := choices(in, cfg.strategy)
	t0 := time.Now()
	plan, err := tf.PrepareEinsum(dt, subs, in.Shapes, chosen.opts...)
	planTime := time.Since(t0)
	if err != nil {
		return suiteRow{}, fmt.Errorf("plan (%s): %v", chosen.name, err)
	}
	ops, err := suiteInputs[T](plan.Plan().Problem, in.Shapes, cfg.seed)
	if err != nil {
		return suiteRow{}, err
	}
	e, err := suiteEngine(cfg.threads)
	if err != nil {
		return suiteRow{}, err
	}
	defer e.Close()
	// The first evaluation, on a fresh engine, gives the pool measurement
	// and the result the check inspects; it also warms the engine.
	first, err := tf.EinsumPlanned(e, plan, ops...)
	if err != nil {
		return suiteRow{}, fmt.Errorf("evaluate (%s): %v", chosen.name, err)
	}
	pool := e.BufferPoolStats().CapacityBytes
	var runErr error
	s := measure(0, cfg.runs, func() {
		r, err := tf.EinsumPlanned(e, plan, ops...)
		if err != nil {
			runErr = err
			return
		}
		r.Release()
	})
	if runErr != nil {
		return suiteRow{}, runErr
	}
	pl := plan.Plan()
	row := suiteRow{
		Name: in.Name, DType: in.DType, Strategy: chosen.name, Threads: cfg.threads, Operands: len(in.Shapes),
		Subscripts: in.Subscripts, Shapes: in.Shapes, Path: nonNilPath(pl.Path), Flops: pl.Flops, Runs: cfg.runs, MedianMS: ms(s.median()), IQRMS: ms(s.iqr()),
		PlanMS: ms(planTime), PeakBytes: int64(peakElements(pl)) * int64(dt.Size()), PoolBytes: pool,
	}
	if m := s.median(); m > 0 {
		row.GFlops = pl.Flops / float64(m)
	}
	row.Check, row.CheckNote = checkResult(e, plan, subs, in.Shapes, alts, ops, first)
	if cfg.fraction > 0 {
		row.Sliced = runSliced(e, plan, subs, in.Shapes, ops, first, row.MedianMS, cfg.fraction, cfg.output, cfg.runs)
	}
	first.Release()
	return row, nil
}

// suiteInputs returns the operands of an instance: uniform random values
// in [0, 1) (both parts for complex), operand k scaled by
//
//	c · Π_{l summed, l in k} extent(l)^(-1/m(l))
//
// where m(l) is the number of operands with label l and c = 1/|E[x]| (2,
// or √2 for complex): each summed label's term count is then shared among
// its operands, so every output element is of order 1 however large the
// network, and no value overflows or underflows.
func suiteInputs[T tf.Scalar](p *einsum.Problem, shapes [][]int, seed uint64) ([]*tf.Tensor[T], error) {
	m := make([]int, len(p.Extents))
	for _, u := range p.Unique {
		for _, l := range u {
			m[l]++
		}
	}
	c := 2.0
	if tf.DTypeOf[T]().IsComplex() {
		c = math.Sqrt2
	}
	ops := make([]*tf.Tensor[T], len(shapes))
	for k, s := range shapes {
		t, err := tf.Rand[T](seed+uint64(k)*0x9e37, s...)
		if err != nil {
			return nil, fmt.Errorf("operand %d: %v", k, err)
		}
		f := c
		for _, l := range p.Unique[k] {
			if n := p.Extents[l]; n > 0 && !slices.Contains(p.OutputUnique, l) {
				f *= math.Pow(float64(n), -1/float64(m[l]))
			}
		}
		d, _ := t.Data()
		for i := range d {
			d[i] *= fromReal[T](f)
		}
		ops[k] = t
	}
	return ops, nil
}

// suiteEngine builds the engine of one instance with a pool cap large
// enough that nothing is evicted, so that the pool measurement is exact.
func suiteEngine(threads int) (*cpu.Engine, error) {
	lim := cpu.WithBufferPoolLimit(1 << 40)
	if threads == 1 {
		return cpu.Serial(lim), nil
	}
	tm, err := team.New(team.Threads(threads))
	if err != nil {
		return nil, err
	}
	return cpu.New(tm, lim)
}

// peakElements returns the largest total element count of pairwise results
// alive at once when the plan's steps run in order and each intermediate
// is freed after its consumer.
func peakElements(pl *einsum.Plan) float64 {
	n := len(pl.Problem.Inputs)
	size := map[int]float64{}
	cur, peak := 0.0, 0.0
	for s, st := range pl.Steps {
		cur += st.Size
		peak = max(peak, cur)
		for _, id := range []int{st.LeftID, st.RightID} {
			if id >= n {
				cur -= size[id]
				delete(size, id)
			}
		}
		size[n+s] = st.Size
	}
	return peak
}

func printSuiteTable(w io.Writer, rows []suiteRow) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "instance\tdtype\tstrategy\tthreads\tmedian ms\tIQR ms\tGFLOP/s\tplan ms\tpeak MiB\tpool MiB\tcheck\t")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%.3f\t%.3f\t%.2f\t%.2f\t%.2f\t%.2f\t%s\t\n", r.Name, shortDType(r.DType), r.Strategy,
			r.Threads, r.MedianMS, r.IQRMS, r.GFlops, r.PlanMS, float64(r.PeakBytes)/(1<<20), float64(r.PoolBytes)/(1<<20), r.Check)
	}
	tw.Flush()
}

// The correctness check. A result computed along a path differs from the
// exact value, element by element, by at most B·eps·S, where S is the same
// contraction of the operands' absolute values and B adds, over the steps,
// the number of terms each sum has (contracted and pre-reduced extents) plus
// a few roundings per product: the standard bound for inner products,
// propagated through the tree (each step's error is relative to the absolute
// values it combines). Two evaluations along different paths must therefore
// agree within (B1 + B2)·eps·S; complex arithmetic doubles the constant.
// Inputs are uniform in [0, 1) (both parts for complex), so for real dtypes
// S is the result itself; for complex ones it is computed by evaluating the
// plan on the absolute values.

// samplesChecked is the number of output elements the direct check sums.
const samplesChecked = 64

// directLimit bounds the multiply-adds of the direct check.
const directLimit = 2e7

func checkResult[T tf.Scalar](e *cpu.Engine, plan *tf.EinsumPlan, subs string, shapes [][]int, alts []pathChoice, ops []*tf.Tensor[T], first *tf.Tensor[T]) (string, string) {
	pl := plan.Plan()
	cb, fail := newCheckBasis(e, plan, ops, first)
	if fail != "" {
		return "FAIL", fail
	}
	var notes []string
	worst := 0.0
	for _, a := range alts {
		ap, err := tf.PrepareEinsum(plan.DType(), subs, shapes, a.opts...)
		if err != nil || samePath(ap.Plan().Path, pl.Path) {
			continue
		}
		if q := ap.Plan(); q.Flops > 4*pl.Flops+1e6 || q.Largest > 4*pl.Largest+1e6 {
			continue // too costly to be worth evaluating
		}
		r2, err := tf.EinsumPlanned(e, ap, ops...)
		if err != nil {
			return "FAIL", fmt.Sprintf("evaluate (%s): %v", a.name, err)
		}
		alt, _ := r2.Data()
		ratio := cb.worst(alt, roundingTerms(pl)+roundingTerms(ap.Plan()))
		r2.Release()
		notes = append(notes, fmt.Sprintf("vs %s path: err/tol %.2g", a.name, ratio))
		worst = max(worst, ratio)
		break
	}
	p := pl.Problem
	if terms := summedTerms(p); terms*float64(samplesChecked*len(ops)) <= directLimit {
		ratio := directCheck(p, ops, first, 1.01*(roundingTerms(pl)+terms+float64(len(ops))+2)*cb.unit, cb.tiny)
		notes = append(notes, fmt.Sprintf("vs direct sums at %d elements: err/tol %.2g", samplesChecked, ratio))
		worst = max(worst, ratio)
	}
	switch {
	case len(notes) == 0:
		return "skip", "no other path and too many terms per element for direct sums"
	case !(worst <= 1):
		return "FAIL", strings.Join(notes, "; ")
	}
	return "ok", strings.Join(notes, "; ")
}

// checkBasis is what every check of a result compares against: the
// result's elements, their scale S (see absScale), the rounding unit c·eps
// of T (c = 2 for complex arithmetic) and the smallest tolerance.
type checkBasis[T tf.Scalar] struct {
	got        []T
	scale      []float64
	unit, tiny float64
}

// newCheckBasis reads first and computes its scale; a non-empty string
// says why it could not.
func newCheckBasis[T tf.Scalar](e *cpu.Engine, plan *tf.EinsumPlan, ops []*tf.Tensor[T], first *tf.Tensor[T]) (checkBasis[T], string) {
	eps, tiny := epsOf[T]()
	if tf.DTypeOf[T]().IsComplex() {
		eps *= 2
	}
	got, err := first.Data()
	if err != nil {
		return checkBasis[T]{}, err.Error()
	}
	scale, err := absScale(e, plan, ops, got)
	if err != nil {
		return checkBasis[T]{}, "absolute-value evaluation: " + err.Error()
	}
	return checkBasis[T]{got: got, scale: scale, unit: eps, tiny: tiny}, ""
}

// worst returns the largest error of other against the result over its
// tolerance, 1.01·terms·unit·S + tiny per element (terms: the rounding
// terms of both evaluations).
func (cb checkBasis[T]) worst(other []T, terms float64) float64 {
	b := 1.01 * terms * cb.unit
	ratio := 0.0
	for i := range cb.got {
		ratio = max(ratio, errRatio(absDiff(cb.got[i], other[i]), b*cb.scale[i]+cb.tiny))
	}
	return ratio
}

// errRatio is err/tol, +Inf when err is NaN.
func errRatio(err, tol float64) float64 {
	if err != err {
		return math.Inf(1)
	}
	return err / tol
}

// absScale returns S per element of got: |got| for real dtypes (inputs are
// non-negative), the plan evaluated on absolute values for complex ones.
func absScale[T tf.Scalar](e *cpu.Engine, plan *tf.EinsumPlan, ops []*tf.Tensor[T], got []T) ([]float64, error) {
	s := make([]float64, len(got))
	if !tf.DTypeOf[T]().IsComplex() {
		for i, v := range got {
			s[i] = toAbs(v)
		}
		return s, nil
	}
	abs := make([]*tf.Tensor[T], len(ops))
	for k, t := range ops {
		d, err := t.Data()
		if err != nil {
			return nil, err
		}
		a := make([]T, len(d))
		for i, v := range d {
			a[i] = fromReal[T](toAbs(v))
		}
		if abs[k], err = tf.FromSlice(a, t.Shape()...); err != nil {
			return nil, err
		}
	}
	r, err := tf.EinsumPlanned(e, plan, abs...)
	if err != nil {
		return nil, err
	}
	defer r.Release()
	d, _ := r.Data()
	for i, v := range d {
		s[i] = toAbs(v)
	}
	return s, nil
}

// roundingTerms is B of the comment above for one plan: the operand count,
// plus per step the terms of each sum it does (none for an empty label
// list) and two roundings for the product, plus the final sums.
func roundingTerms(pl *einsum.Plan) float64 {
	ext := pl.Problem.Extents
	terms := func(ls []int) float64 {
		if len(ls) == 0 {
			return 0
		}
		p := 1.0
		for _, l := range ls {
			p *= float64(ext[l])
		}
		return p
	}
	b := float64(len(pl.Problem.Inputs)) + terms(pl.Final.Reduce)
	for _, st := range pl.Steps {
		b += terms(st.Contracted) + terms(st.LeftReduce) + terms(st.RightReduce) + 2
	}
	return b
}

// summedTerms is the number of products summed into one output element.
func summedTerms(p *einsum.Problem) float64 {
	terms := 1.0
	for l, n := range p.Extents {
		if !slices.Contains(p.OutputUnique, l) {
			terms *= float64(n)
		}
	}
	return terms
}

// samePath reports whether two linear paths contract the same pairs.
func samePath(a, b [][2]int) bool {
	return slices.EqualFunc(a, b, func(x, y [2]int) bool {
		return min(x[0], x[1]) == min(y[0], y[1]) && max(x[0], x[1]) == max(y[0], y[1])
	})
}

// directCheck sums the products of the operands directly, in complex128,
// at sampled output elements (the first one and random others) and returns
// the largest ratio of |result - direct| to b·Σ|product| + tiny.
func directCheck[T tf.Scalar](p *einsum.Problem, ops []*tf.Tensor[T], res *tf.Tensor[T], b, tiny float64) float64 {
	out, _ := res.Data()
	if len(out) == 0 {
		return 0
	}
	data := make([][]T, len(ops))
	strides := make([][]int, len(ops))
	for k, t := range ops {
		data[k], _ = t.Data()
		strides[k] = make([]int, t.Rank())
		st := 1
		for d := range strides[k] {
			if !p.Broadcast[k][d] {
				strides[k][d] = st
			}
			st *= t.Shape()[d]
		}
	}
	var summed []int
	for l := range p.Extents {
		if !slices.Contains(p.OutputUnique, l) {
			summed = append(summed, l)
		}
	}
	idx := make([]int, len(p.Extents))
	rng := uint64(0x243F6A8885A308D3)
	worst := 0.0
	for s := 0; s < samplesChecked; s++ {
		for _, l := range p.OutputUnique {
			rng = rng*6364136223846793005 + 1442695040888963407
			idx[l] = 0
			if s > 0 {
				idx[l] = int((rng >> 33) % uint64(p.Extents[l]))
			}
		}
		off, st := 0, 1
		for a, l := range p.Output {
			off += idx[l] * st
			st *= res.Shape()[a]
		}
		var sum complex128
		var sumAbs float64
		forEach(p.Extents, summed, idx, func() {
			prod := complex(1, 0)
			for k := range ops {
				o := 0
				for d, l := range p.Inputs[k] {
					o += idx[l] * strides[k][d]
				}
				prod *= toC128(data[k][o])
			}
			sum += prod
			sumAbs += cmplx.Abs(prod)
		})
		worst = max(worst, errRatio(cmplx.Abs(toC128(out[off])-sum), b*sumAbs+tiny))
	}
	return worst
}

// forEach runs fn for every assignment of the labels ls within their
// extents (none when an extent is 0), writing the indices into idx.
func forEach(ext []int, ls []int, idx []int, fn func()) {
	for _, l := range ls {
		if ext[l] == 0 {
			return
		}
		idx[l] = 0
	}
	for {
		fn()
		k := 0
		for ; k < len(ls); k++ {
			l := ls[k]
			if idx[l]++; idx[l] < ext[l] {
				break
			}
			idx[l] = 0
		}
		if k == len(ls) {
			return
		}
	}
}
