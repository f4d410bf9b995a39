package main

import (
	"fmt"
	"io"
	"math/rand/v2"
	"text/tabwriter"
	"time"

	"github.com/tenferro-go/tenferro/internal/hugepage"
	"github.com/tenferro-go/tenferro/internal/instances"
	"github.com/tenferro-go/tenferro/internal/kernel/permute"
	"github.com/tenferro-go/tenferro/internal/kernel/strided"
	"github.com/tenferro-go/tenferro/internal/par"
	"github.com/tenferro-go/tenferro/team"
)

func init() {
	registerBench("permute", "tensor permutation time against a plain copy of the same bytes", benchPermute)
}

// permuteRow is one row of `bench permute --json`. MedianMS and IQRMS time
// one permutation; CopyMS is a plain copy of the same number of elements
// with the same threads, and CopyRatio = CopyMS / MedianMS (1 means the
// permutation runs at copy bandwidth). GBs counts the bytes read plus the
// bytes written per second. Check is "ok" when sampled destination
// elements equal their source elements.
type permuteRow struct {
	ID        string  `json:"id"`
	Label     string  `json:"label,omitempty"`
	DType     string  `json:"dtype"`
	Shape     []int   `json:"shape"`
	Perm      []int   `json:"perm"`
	Threads   int     `json:"threads"`
	Bytes     int64   `json:"bytes"`
	Reps      int     `json:"reps"`
	MedianMS  float64 `json:"median_ms"`
	IQRMS     float64 `json:"iqr_ms"`
	CopyMS    float64 `json:"copy_ms"`
	CopyRatio float64 `json:"copy_ratio"`
	GBs       float64 `json:"gb_per_s"`
	Check     string  `json:"check"`
}

func benchPermute(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("bench permute", io.Discard)
	patterns := fs.String("patterns", "", "permutation pattern file (JSON); default: the built-in patterns")
	threads := fs.Int("threads", 1, "team width (1 = serial)")
	budget := fs.Duration("budget", 300*time.Millisecond, "time spent measuring each of the permutation and the copy")
	asJSON := fs.Bool("json", false, "print JSON rows instead of a table")
	if code, done := parseBenchFlags(fs, "bench permute", args, stderr); done {
		return code
	}
	if *threads < 1 || *threads > team.MaxThreads {
		return fail(stderr, "bench permute", fmt.Errorf("--threads must be in [1, %d], got %d", team.MaxThreads, *threads))
	}
	if *budget <= 0 {
		return fail(stderr, "bench permute", fmt.Errorf("--budget must be positive, got %v", *budget))
	}
	pats := instances.BuiltinPermutations()
	if *patterns != "" {
		var err error
		if pats, err = instances.LoadPermutations(*patterns); err != nil {
			return fail(stderr, "bench permute", missingFile(*patterns, err))
		}
	}
	var runner par.Runner
	if *threads > 1 {
		tm, err := team.New(team.Threads(*threads))
		if err != nil {
			return fail(stderr, "bench permute", err)
		}
		defer tm.Close()
		runner = tm
	}
	rows := make([]permuteRow, 0, len(pats))
	for _, p := range pats {
		fmt.Fprintf(stderr, "bench permute: %s\n", p.ID)
		var row permuteRow
		var err error
		switch p.DType {
		case "float32":
			row, err = permuteCase[float32](p, runner, *budget)
		case "float64":
			row, err = permuteCase[float64](p, runner, *budget)
		case "complex64":
			row, err = permuteCase[complex64](p, runner, *budget)
		case "complex128":
			row, err = permuteCase[complex128](p, runner, *budget)
		default:
			err = fmt.Errorf("pattern %s: dtype %q, expected float32, float64, complex64 or complex128", p.ID, p.DType)
		}
		if err != nil {
			return fail(stderr, "bench permute", err)
		}
		row.Threads = *threads
		rows = append(rows, row)
	}
	if *asJSON {
		return writeJSONPlain(stdout, stderr, rows)
	}
	printPermuteTable(stdout, rows)
	for _, r := range rows {
		if r.Check != "ok" {
			return 1
		}
	}
	return 0
}

// permView is the memory one side of a permutation needs: a buffer of
// span elements with element (0, ..., 0) at off.
type permView struct {
	strides   []int
	off, span int
}

// layoutView sizes the buffer of a view of shape with the given strides
// (nil: compact column-major).
func layoutView(shape, strides []int) permView {
	if strides == nil {
		strides = make([]int, len(shape))
		s := 1
		for d, n := range shape {
			strides[d] = s
			s *= n
		}
	}
	v := permView{strides: strides}
	lo, hi := 0, 0
	for d, n := range shape {
		if n == 0 {
			return v
		}
		if st := strides[d]; st < 0 {
			lo += (n - 1) * st
		} else {
			hi += (n - 1) * st
		}
	}
	v.off, v.span = -lo, hi-lo+1
	return v
}

// permuteCase measures one pattern: dst[i0, ..., ik] = src[i_perm0, ...].
func permuteCase[T strided.Scalar](p instances.Permutation, r par.Runner, budget time.Duration) (permuteRow, error) {
	rank := len(p.Shape)
	dstShape := make([]int, rank)
	for k, a := range p.Perm {
		dstShape[k] = p.Shape[a]
	}
	sv := layoutView(p.Shape, p.SrcStrides)
	dv := layoutView(dstShape, p.DstStrides)
	// The source read in destination order: axis k of the iteration is
	// source axis perm[k].
	srcIter := make([]int, rank)
	for k, a := range p.Perm {
		srcIter[k] = sv.strides[a]
	}
	// Buffers as the library allocates a tensor's storage (large ones on
	// huge pages); the copy reference runs on the same buffers.
	src := hugepage.Make[T](sv.span)
	for i := range src {
		src[i] = indexValue[T](i)
	}
	dst := hugepage.Make[T](dv.span)
	dref := strided.Ref[T]{Data: dst, Off: dv.off, Strides: dv.strides}
	sref := strided.Ref[T]{Data: src, Off: sv.off, Strides: srcIter}
	if err := dref.Validate("bench permute", "destination", dstShape); err != nil {
		return permuteRow{}, fmt.Errorf("pattern %s: %v", p.ID, err)
	}
	if err := sref.Validate("bench permute", "source", dstShape); err != nil {
		return permuteRow{}, fmt.Errorf("pattern %s: %v", p.ID, err)
	}
	n := 1
	for _, e := range p.Shape {
		n *= e
	}
	perm := measureFor(budget, func() { permute.Copy(r, dstShape, dref, sref) })
	check := checkPermuted(dstShape, dref, sref)
	cp := &copyTask[T]{dst: dst[:min(n, len(dst))], src: src[:min(n, len(src))]}
	plain := measureFor(budget, func() { par.Run(r, cp, par.Width(r)) })
	size := int64(n) * int64(elemSize[T]())
	row := permuteRow{
		ID: p.ID, Label: p.Label, DType: p.DType, Shape: p.Shape, Perm: p.Perm, Bytes: size,
		Reps: len(perm), MedianMS: ms(perm.median()), IQRMS: ms(perm.iqr()), CopyMS: ms(plain.median()),
		Check: check,
	}
	if m := perm.median(); m > 0 {
		row.CopyRatio = float64(plain.median()) / float64(m)
		row.GBs = 2 * float64(size) / float64(m)
	}
	return row, nil
}

// measureFor times fn once to size the run, then repeats it for about
// budget (at least 5 and at most 500 timed calls, after one warm-up).
func measureFor(budget time.Duration, fn func()) samples {
	t0 := time.Now()
	fn()
	one := max(time.Since(t0), time.Microsecond)
	reps := min(max(int(budget/one), 5), 500)
	return measure(1, reps, fn)
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }

// copyTask copies src into dst split into contiguous parts.
type copyTask[T any] struct{ dst, src []T }

func (c *copyTask[T]) RunPart(part, parts int) {
	lo, hi := par.Split(len(c.dst), part, parts)
	copy(c.dst[lo:hi], c.src[lo:hi])
}

func elemSize[T strided.Scalar]() int {
	var z T
	switch any(z).(type) {
	case float32:
		return 4
	case float64, complex64:
		return 8
	}
	return 16
}

// indexValue is the value stored at buffer index i: distinct for every
// index below 2^24 in every dtype (and every index for float64 and
// complex128), so a misplaced element is detected.
func indexValue[T strided.Scalar](i int) T {
	var z T
	switch any(z).(type) {
	case float32:
		return any(float32(i % (1 << 24))).(T)
	case float64:
		return any(float64(i)).(T)
	case complex64:
		return any(complex64(complex(float64(i%(1<<24)), -float64(i>>24)))).(T)
	}
	return any(complex(float64(i), 0)).(T)
}

// checkPermuted compares 256 sampled (and the first and last) destination
// elements with the source elements they must hold.
func checkPermuted[T strided.Scalar](shape []int, dst, src strided.Ref[T]) string {
	total := 1
	for _, n := range shape {
		total *= n
	}
	if total == 0 {
		return "ok"
	}
	rng := rand.New(rand.NewPCG(1, 2))
	idx := make([]int, len(shape))
	for s := 0; s < 258; s++ {
		lin := rng.IntN(total)
		switch s {
		case 0:
			lin = 0
		case 1:
			lin = total - 1
		}
		do, so := dst.Off, src.Off
		for d, n := range shape {
			idx[d] = lin % n
			lin /= n
			do += idx[d] * dst.Strides[d]
			so += idx[d] * src.Strides[d]
		}
		if dst.Data[do] != src.Data[so] {
			return fmt.Sprintf("FAIL at %v", idx)
		}
	}
	return "ok"
}

func printPermuteTable(w io.Writer, rows []permuteRow) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "pattern\tdtype\tMiB\tthreads\tmedian ms\tIQR ms\tcopy ms\tcopy/perm\tGB/s\tcheck\t")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%.0f\t%d\t%.3f\t%.3f\t%.3f\t%.2f\t%.1f\t%s\t\n", r.ID, shortDType(r.DType),
			float64(r.Bytes)/(1<<20), r.Threads, r.MedianMS, r.IQRMS, r.CopyMS, r.CopyRatio, r.GBs, r.Check)
	}
	tw.Flush()
}

func shortDType(s string) string {
	switch s {
	case "float32":
		return "f32"
	case "float64":
		return "f64"
	case "complex64":
		return "c64"
	case "complex128":
		return "c128"
	}
	return s
}
