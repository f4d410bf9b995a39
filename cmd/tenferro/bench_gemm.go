package main

import (
	_ "embed"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
	"github.com/tenferro-go/tenferro/team"
)

func init() {
	registerBench("gemm", "GEMM GFLOP/s per size against NumPy/OpenBLAS in the same run", benchGemm)
}

// gemmRow is one row of `bench gemm --json`. ReferenceGFlops is
// numpy.matmul's, Ratio ours over it, and OpenBLASCore the OpenBLAS kernel
// NumPy ran (null without the reference or without OpenBLAS); when
// OpenBLAS chose a generic kernel that ignores this CPU's vector units,
// NumPy runs with OPENBLAS_CORETYPE set to the CPU's and a note on stderr
// says so.
type gemmRow struct {
	Size            int      `json:"size"`
	DType           string   `json:"dtype"`
	Threads         int      `json:"threads"`
	GFlops          float64  `json:"gflops"`
	MedianNS        int64    `json:"median_ns"`
	Kernel          string   `json:"kernel"`
	ReferenceGFlops *float64 `json:"reference_gflops"`
	Ratio           *float64 `json:"ratio"`
	Reference       string   `json:"reference,omitempty"`
	OpenBLASCore    *string  `json:"openblas_core"`
}

// gemmPeerScript times numpy.matmul on C-ordered n×n operands for each
// size of the input's "cases" and prints {"openblas_core",
// "numpy_version", "numpy_ms", "torch_ms" (null), "notes"}. NumPy sends
// C-ordered arrays straight to BLAS (some Fortran-ordered out=
// combinations fall back to a slow loop), and the cost of a GEMM does not
// depend on which of the two equivalent layouts holds it. Input:
// {"cases": sizes, "dtype": "float64", "budget": seconds per size,
// "coretype": OPENBLAS_CORETYPE or absent}.
//
//go:embed bench_gemm_peer.py
var gemmPeerBody string

var gemmPeerScript = peerScript(gemmPeerBody)

// runGemmPeer times numpy.matmul on the sizes in dtype dt with threads
// BLAS threads (see runPeerTimes: OpenBLAS probed, and forced onto the
// CPU's kernel when it chose a generic one).
func runGemmPeer(sizes []int, dt tf.DType, threads int, budget time.Duration) peerResult {
	in := map[string]any{"cases": sizes, "dtype": numpyDType[dt], "budget": budget.Seconds()}
	return runPeerTimes(gemmPeerScript, threads, in, len(sizes))
}

// describeGemmPeer is the reference part of bench gemm's header.
func describeGemmPeer(p peerResult, threads int) string {
	if p.NumpyVersion == nil {
		return "skipped: " + strings.Join(p.Notes, "; ")
	}
	return fmt.Sprintf("numpy %s matmul, %s, OPENBLAS_NUM_THREADS=%d", *p.NumpyVersion, p.openblasDesc(), threads)
}

var numpyDType = map[tf.DType]string{tf.Float32: "float32", tf.Float64: "float64", tf.Complex64: "complex64", tf.Complex128: "complex128"}

func benchGemm(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("bench gemm", io.Discard)
	sizesFlag := fs.String("sizes", "32,64,128,256,512,1024,2048", "comma-separated square sizes")
	dtFlag := fs.String("dtype", "f64", "element type: f64, f32, c64 or c128")
	threads := fs.Int("threads", 1, "team width (1 = serial engine)")
	asJSON := fs.Bool("json", false, "print JSON rows instead of a table")
	noRef := fs.Bool("no-reference", false, "skip the NumPy reference")
	budget := fs.Duration("budget", 400*time.Millisecond, "timing budget per size")
	plotTo := addPlotFlag(fs)
	if code, done := parseBenchFlags(fs, "bench gemm", args, stderr); done {
		return code
	}
	if err := plotTo.check(); err != nil {
		return fail(stderr, "bench gemm", err)
	}
	dt, err := tf.ParseDType(*dtFlag)
	if err == nil && !dt.IsNumber() {
		err = fmt.Errorf("--dtype: want f32, f64, c64 or c128, got %v", dt)
	}
	if err != nil {
		return fail(stderr, "bench gemm", err)
	}
	sizes, err := parseSizes(*sizesFlag)
	if err != nil {
		return fail(stderr, "bench gemm", err)
	}
	if *threads < 1 {
		return fail(stderr, "bench gemm", fmt.Errorf("--threads must be >= 1, got %d", *threads))
	}
	e, err := benchEngineWidth(*threads)
	if err != nil {
		return fail(stderr, "bench gemm", err)
	}
	defer e.Close()
	var rows []gemmRow
	for _, n := range sizes {
		med := timeMatmulByDType[dt](e, n, *budget)
		rows = append(rows, gemmRow{Size: n, DType: dt.String(), Threads: *threads, MedianNS: int64(med),
			GFlops: gemmFlops(dt, n) / med.Seconds() / 1e9, Kernel: gemm.ActiveVariant()})
	}
	refNote := "not run (--no-reference)"
	var peer peerResult
	if !*noRef {
		peer = runGemmPeer(sizes, dt, *threads, *budget)
		for _, note := range peer.Notes {
			fmt.Fprintf(stderr, "bench gemm: %s\n", note)
		}
		refNote = describeGemmPeer(peer, *threads)
		for i := range rows {
			rows[i].OpenBLASCore = peer.OpenBLASCore
			if t := peer.NumpyMS[i]; t != nil && *t > 0 {
				g := gemmFlops(dt, rows[i].Size) / (*t * 1e-3) / 1e9
				r := rows[i].GFlops / g
				rows[i].ReferenceGFlops, rows[i].Ratio = &g, &r
				rows[i].Reference = "numpy"
			}
		}
	}
	var disp *dispatchCheck
	if dt == tf.Float64 && *threads == 1 {
		d := measureDispatch32(e)
		disp = &d
	}
	if *asJSON {
		out := make([]any, 0, len(rows)+1)
		for _, r := range rows {
			out = append(out, r)
		}
		if disp != nil {
			out = append(out, disp)
		}
		if code := writeJSON(stdout, out); code != 0 {
			return code
		}
		return plotTo.draw(stderr, "bench gemm", gemmChart(rows, peer))
	}
	fmt.Fprintf(stdout, "== C = A·B, %s, threads=%d, kernel %s; reference: %s\n", dt, *threads, gemm.ActiveVariant(), refNote)
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "size\tmedian\tGFLOP/s\treference GFLOP/s\tratio\t")
	for _, r := range rows {
		refs, ratio := "-", "-"
		if r.Ratio != nil {
			refs, ratio = fmt.Sprintf("%.1f", *r.ReferenceGFlops), fmt.Sprintf("%.2fx", *r.Ratio)
		}
		fmt.Fprintf(tw, "%d\t%s\t%.1f\t%s\t%s\t\n", r.Size, fmtDur(time.Duration(r.MedianNS)), r.GFlops, refs, ratio)
	}
	tw.Flush()
	if disp != nil {
		fmt.Fprintf(stdout, "32x32x32 f64: MatmulInto on a reused serial engine %s, bare micro-kernel loop (pre-packed) %s: %.2fx\n",
			fmtDur(time.Duration(disp.EngineNS)), fmtDur(time.Duration(disp.LoopNS)), disp.Ratio)
	}
	return plotTo.draw(stderr, "bench gemm", gemmChart(rows, peer))
}

// dispatchCheck compares a whole 32x32x32 product through the engine with
// the bare macro-kernel loop over pre-packed operands (the floor).
type dispatchCheck struct {
	Case     string  `json:"case"` // "dispatch32"
	EngineNS float64 `json:"engine_ns"`
	LoopNS   float64 `json:"loop_ns"`
	Ratio    float64 `json:"engine_over_loop"`
}

func measureDispatch32(e *cpu.Engine) dispatchCheck {
	a, _ := tf.Rand[float64](1, 32, 32)
	b, _ := tf.Rand[float64](2, 32, 32)
	c, _ := tf.Zeros[float64](32, 32)
	loop := gemm.NewMicroLoop32()
	var eng, bare samples
	// Interleave the two so that load changes hit both alike.
	for range 15 {
		eng = append(eng, measureBatch(50, 1, 2000, func() { tf.MatmulInto(e, c, a, b) })...)
		bare = append(bare, measureBatch(50, 1, 2000, loop.Run)...)
	}
	eng.sort()
	bare.sort()
	return dispatchCheck{Case: "dispatch32", EngineNS: float64(eng.median()), LoopNS: float64(bare.median()), Ratio: float64(eng.median()) / float64(bare.median())}
}

// benchEngineWidth returns a serial engine for width 1 and a team engine
// otherwise.
func benchEngineWidth(threads int) (*cpu.Engine, error) {
	if threads == 1 {
		return cpu.Serial(), nil
	}
	t, err := team.New(team.Threads(threads))
	if err != nil {
		return nil, err
	}
	return cpu.New(t)
}

// gemmFlops counts 2n³ real flops, 8n³ for complex (4 multiplies and 4
// adds per complex multiply-add).
func gemmFlops(dt tf.DType, n int) float64 {
	f := 2 * float64(n) * float64(n) * float64(n)
	if dt.IsComplex() {
		f *= 4
	}
	return f
}

// timeMatmul returns the median time of MatmulInto on n×n operands,
// batching short calls so each sample lasts about a millisecond.
func timeMatmul[T tf.Scalar](e *cpu.Engine, n int, budget time.Duration) time.Duration {
	a, _ := tf.Rand[T](1, n, n)
	b, _ := tf.Rand[T](2, n, n)
	c, _ := tf.Zeros[T](n, n)
	call := func() { tf.MatmulInto(e, c, a, b) }
	t0 := time.Now()
	call()
	one := max(time.Since(t0), time.Microsecond)
	inner := max(1, int(time.Millisecond/one))
	reps := max(5, min(200, int(budget/(one*time.Duration(inner)))))
	return measureBatch(2, reps, inner, call).median()
}

func parseSizes(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 || n > 16384 {
			return nil, fmt.Errorf("--sizes: want positive integers up to 16384, got %q", f)
		}
		out = append(out, n)
	}
	return out, nil
}

// timeMatmulByDType times Matmul in one dtype.
var timeMatmulByDType = [...]func(e *cpu.Engine, n int, budget time.Duration) time.Duration{
	tf.Float32:    timeMatmul[float32],
	tf.Float64:    timeMatmul[float64],
	tf.Complex64:  timeMatmul[complex64],
	tf.Complex128: timeMatmul[complex128],
}
