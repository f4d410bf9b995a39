package main

import (
	"image/png"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// checkPNG decodes the PNG at path and checks it has pixels.
func checkPNG(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if b := img.Bounds(); b.Dx() < 100 || b.Dy() < 100 {
		t.Errorf("%s: %v pixels", path, b)
	}
}

func f64(v float64) *float64 { return &v }

// syntheticCharts are the charts of the four commands on made-up rows:
// missing peer times, a failed suite instance, sizes of 1 and primes.
func syntheticCharts() map[string]chart {
	core, ver := "SkylakeX", "1.24.2"
	peer := peerResult{NumpyVersion: &ver, OpenBLASCore: &core, CoreType: "SkylakeX", ChosenCore: "Prescott"}
	gemm := []gemmRow{
		{Size: 1, DType: "f64", Threads: 2, GFlops: 0.01, Kernel: "avx512", ReferenceGFlops: f64(0.02)},
		{Size: 31, DType: "f64", Threads: 2, GFlops: 40, Kernel: "avx512"},
		{Size: 257, DType: "f64", Threads: 2, GFlops: 90, Kernel: "avx512", ReferenceGFlops: f64(70)},
		{Size: 31, DType: "c64", Threads: 2, GFlops: 60, Kernel: "avx512", ReferenceGFlops: f64(50)},
	}
	linalg := []linalgRow{
		{Op: "qr", DType: "f64", Size: 256, Batch: 1, Threads: 1, MedianMS: 2, NumpyMS: f64(3), GonumMS: f64(9), TorchMS: f64(2.5)},
		{Op: "svd", DType: "c128", Size: 7, Batch: 4096, Threads: 1, MedianMS: 4, NumpyMS: f64(1)},
		{Op: "lu", DType: "f32", Size: 13, Batch: 1, Threads: 1, MedianMS: 0.5},
	}
	ops := []opsRow{
		{Op: "exp", DType: "f32", Size: 1000000, Threads: 1, MedianMS: 0.2},
		{Op: "sum", DType: "c128", Size: 37, Threads: 1, MedianMS: 0.001},
	}
	suite := []suiteRow{
		{Name: "builtin_matmul_256", Threads: 1, MedianMS: 0.3, PlanMS: 0.02, Check: "ok"},
		{Name: "broken", Threads: 1, Check: "FAIL"},
		{Name: "builtin_batched_matmul_b16_m96_n80_k64", Threads: 1, MedianMS: 1.5, PlanMS: 0.03, Check: "ok"},
	}
	return map[string]chart{
		"gemm":       gemmChart(gemm, peer),
		"gemm-noref": gemmChart(gemm[1:2], peerResult{}),
		"linalg":     linalgChart(linalg, peer),
		"ops":        opsChart(ops, peerResult{}),
		"suite":      suiteChart(suite),
	}
}

func TestChartsWritePNG(t *testing.T) {
	dir := t.TempDir()
	for name, c := range syntheticCharts() {
		path := filepath.Join(dir, name+".png")
		if err := c.save(path); err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		checkPNG(t, path)
	}
	svg := filepath.Join(dir, "suite.svg")
	if err := syntheticCharts()["suite"].save(svg); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(svg); err != nil || !strings.Contains(string(b), "<svg") {
		t.Errorf("svg: %v, %d bytes", err, len(b))
	}
}

func TestChartContents(t *testing.T) {
	cs := syntheticCharts()
	g := cs["gemm"]
	if len(g.series) != 4 || !slices.Equal(g.xTicks, []float64{1, 31, 257}) ||
		!strings.Contains(g.series[1].name, "OpenBLAS core SkylakeX (OPENBLAS_CORETYPE=SkylakeX; OpenBLAS alone chose Prescott)") ||
		!strings.Contains(g.title, "threads=2") || !strings.Contains(g.title, cpuModel()) {
		t.Errorf("gemm chart %+v", g)
	}
	if !math.IsNaN(g.series[1].ys[1]) || g.series[1].ys[2] != 70 {
		t.Errorf("numpy f64 series %v", g.series[1].ys)
	}
	l := cs["linalg"]
	if !slices.Equal(l.cases, []string{"qr f64 256", "svd c128 7 ×4096", "lu f32 13"}) || len(l.series) != 3 || !l.unity {
		t.Errorf("linalg chart %q, %d series", l.cases, len(l.series))
	}
	if got := l.series[0].ys; got[0] != 1.5 || got[1] != 0.25 || !math.IsNaN(got[2]) {
		t.Errorf("numpy/ours %v", got)
	}
	o := cs["ops"]
	if o.unity || len(o.series) != 1 || o.series[0].ys[1] != 0.001 || !slices.Equal(o.cases, []string{"exp f32 1M", "sum c128 37"}) {
		t.Errorf("ops chart without peers %+v", o)
	}
	s := cs["suite"]
	if len(s.series) != 2 || !math.IsNaN(s.series[0].ys[1]) || s.series[1].ys[2] != 0.03 {
		t.Errorf("suite chart %+v", s)
	}
}

func TestChartErrors(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no-such-dir", "fig.png")
	err := syntheticCharts()["gemm"].save(missing)
	if err == nil || !strings.Contains(err.Error(), missing) || !strings.Contains(err.Error(), "no such file or directory") {
		t.Errorf("missing directory: %v", err)
	}
	empty := chart{cases: []string{"a"}, series: []series{{name: "x", ys: []float64{math.NaN()}}}}
	if err := empty.save(filepath.Join(t.TempDir(), "e.png")); err == nil || !strings.Contains(err.Error(), "no values to draw") {
		t.Errorf("nothing to draw: %v", err)
	}
	neg := chart{logY: true, series: []series{{name: "x", xs: []float64{1, 2}, ys: []float64{-1, 0}}}}
	if err := neg.save(filepath.Join(t.TempDir(), "n.png")); err == nil {
		t.Error("no positive value on a log axis: no error")
	}
	for _, c := range []struct{ path, want string }{
		{missing, "--plot: directory " + filepath.Dir(missing) + " of \"" + missing + "\" does not exist"},
		{filepath.Join(t.TempDir(), "fig.gif"), "--plot: want a file ending in .png, .svg, .pdf"},
		{t.TempDir(), "--plot: want a file ending in"},
	} {
		if err := (&plotFlag{c.path}).check(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("check(%q) = %v, want %q", c.path, err, c.want)
		}
	}
	if err := (&plotFlag{}).check(); err != nil {
		t.Errorf("unset --plot: %v", err)
	}
}

// TestPlotFlag runs each command with --plot: a bad path fails before
// anything is measured, a good one gets a PNG.
func TestPlotFlag(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"bench", "gemm", "--sizes", "1,5", "--budget", "1ms", "--no-reference", "--dtype", "f32"},
		{"bench", "linalg", "--ops", "det", "--sizes", "3", "--dtype", "f64", "--budget", "1ms", "--no-reference", "--json"},
		{"bench", "ops", "--ops", "exp", "--sizes", "7", "--dtype", "f32", "--budget", "1ms", "--no-reference"},
		{"suite", "--runs", "1", "builtin_matmul_256"},
	} {
		name := strings.Join(args[:2], "_")
		bad := filepath.Join(dir, "missing", name+".png")
		code, out, errs := runCLI(t, append(args, "--plot", bad)...)
		if code != 2 || out != "" || !strings.Contains(errs, "does not exist") || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v with a missing directory: exit %d, stdout %q, stderr %q", args, code, out, errs)
		}
		good := filepath.Join(dir, name+".png")
		if code, _, errs := runCLI(t, append(args, "--plot", good)...); code != 0 || !strings.Contains(errs, "figure written to "+good) {
			t.Errorf("%v: exit %d, stderr %q", args, code, errs)
			continue
		}
		checkPNG(t, good)
	}
}

func TestLogTicks(t *testing.T) {
	var labels []string
	for _, tk := range (logTicks{}).Ticks(0.3, 12) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	if !slices.Equal(labels, []string{"0.5", "1", "2", "5", "10"}) {
		t.Errorf("labels %q", labels)
	}
	labels = nil
	for _, tk := range (logTicks{}).Ticks(0.01, 200) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	if !slices.Equal(labels, []string{"0.01", "0.1", "1", "10", "100"}) {
		t.Errorf("wide labels %q", labels)
	}
}

func TestShortCount(t *testing.T) {
	for n, want := range map[int]string{1: "1", 37: "37", 1000: "1k", 1048576: "1048576", 16000000: "16M", 1500: "1500"} {
		if got := shortCount(n); got != want {
			t.Errorf("shortCount(%d) = %q, want %q", n, got, want)
		}
	}
}
