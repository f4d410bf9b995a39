package main

import (
	"math"
	"math/cmplx"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/internal/op"
)

// opsRowKeys is the schema of a `bench ops --json` row.
var opsRowKeys = []string{"copy_ratio", "dtype", "gbps", "median_ms", "numpy_ms", "op", "openblas_core", "size", "threads", "torch_ms"}

func opNamesOf(dt tf.DType) []string { return opNamesByDType[dt]() }

// decodeOpsRows decodes --json output, checking every row's key set.
func decodeOpsRows(t *testing.T, out string) ([]opsRow, []map[string]any) {
	t.Helper()
	return decodeBenchRows[opsRow](t, out, opsRowKeys)
}

func TestBenchOpsJSONEveryOp(t *testing.T) {
	code, out, errs := runCLI(t, "bench", "ops", "--sizes", "1,37", "--dtype", "f32,f64,c64,c128", "--budget", "1ms", "--json", "--no-reference")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	rows, raw := decodeOpsRows(t, out)
	var want, got []string
	for _, dt := range []tf.DType{tf.Float32, tf.Float64, tf.Complex64, tf.Complex128} {
		for _, n := range []string{"1", "37"} {
			for _, name := range opNamesOf(dt) {
				want = append(want, name+"/"+dt.String()+"/"+n)
			}
		}
	}
	for i, r := range rows {
		got = append(got, r.Op+"/"+r.DType+"/"+map[int]string{1: "1", 37: "37"}[r.Size])
		if r.Threads != 1 || r.MedianMS <= 0 || r.GBps <= 0 || r.CopyRatio <= 0 {
			t.Errorf("row %+v", r)
		}
		for _, k := range []string{"numpy_ms", "torch_ms", "openblas_core"} {
			if raw[i][k] != nil {
				t.Errorf("%s %s: %s = %v with --no-reference", r.Op, r.DType, k, raw[i][k])
			}
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("rows\n%v\nwant\n%v", got, want)
	}
	if len(opNamesOf(tf.Complex64)) >= len(opNamesOf(tf.Float32)) || !slices.Contains(opNamesOf(tf.Float32), "relu") {
		t.Errorf("real-only ops missing: f32 %v, c64 %v", opNamesOf(tf.Float32), opNamesOf(tf.Complex64))
	}
	if !strings.Contains(errs, "numpy/ours n/a; torch/ours n/a") {
		t.Errorf("stderr lacks the geometric means: %q", errs)
	}
}

// TestBenchOpsBytes checks GB/s against the bytes each kind of op moves.
func TestBenchOpsBytes(t *testing.T) {
	code, out, errs := runCLI(t, "bench", "ops", "--ops", "exp,add,sum", "--sizes", "1000", "--dtype", "c128", "--budget", "1ms", "--json", "--no-reference")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	rows, _ := decodeOpsRows(t, out)
	wantBytes := map[string]float64{"exp": 2 * 1000 * 16, "add": 3 * 1000 * 16, "sum": 1001 * 16}
	if len(rows) != 3 {
		t.Fatalf("rows %+v", rows)
	}
	for _, r := range rows {
		if b := r.GBps * r.MedianMS * 1e6; math.Abs(b-wantBytes[r.Op]) > 1e-6*wantBytes[r.Op] {
			t.Errorf("%s: %v bytes, want %v", r.Op, b, wantBytes[r.Op])
		}
	}
}

func TestBenchOpsTableSelection(t *testing.T) {
	code, out, errs := runCLI(t, "bench", "ops", "--ops", "EXP,Add,sum,exp", "--sizes", "1e3,2048", "--dtype", "c64", "--threads", "2", "--budget", "1ms", "--no-reference")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 1+1+6+1 || !strings.Contains(lines[0], "threads=2; peers: none") || !strings.Contains(lines[1], "copy/op") {
		t.Fatalf("table:\n%s", out)
	}
	for i, want := range []string{"exp c64 1000", "add c64 1000", "sum c64 1000", "exp c64 2048", "add c64 2048", "sum c64 2048"} {
		if got := strings.Join(strings.Fields(lines[2+i])[:3], " "); got != want {
			t.Errorf("line %d: %q, want %q", i, got, want)
		}
	}
	if !strings.HasPrefix(lines[len(lines)-1], "geometric mean: numpy/ours n/a") {
		t.Errorf("summary %q", lines[len(lines)-1])
	}
}

func TestBenchOpsBadFlags(t *testing.T) {
	for _, bad := range [][]string{
		{"--sizes", "0"}, {"--sizes", "1.5"}, {"--sizes", "abc"}, {"--sizes", "1e9"}, {"--sizes", "5,"},
		{"--dtype", "i64"}, {"--dtype", "f16"}, {"--ops", "nope"}, {"--ops", ""}, {"--threads", "0"},
		{"--threads", "5000"}, {"--budget", "0"}, {"--budget", "-1s"}, {"--bogus"}, {"--sizes", "4", "extra"},
		{"--ops", "relu", "--dtype", "c64", "--sizes", "4", "--no-reference"},
	} {
		code, out, errs := runCLI(t, append([]string{"bench", "ops"}, bad...)...)
		if code != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.HasPrefix(errs, "tenferro bench ops: ") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", bad, code, out, errs)
		}
	}
	if code, _, errs := runCLI(t, "bench", "ops", "-h"); code != 0 || !strings.Contains(errs, "-no-reference") {
		t.Errorf("-h: exit %d, %q", code, errs)
	}
}

func TestParseOpsLists(t *testing.T) {
	if n, err := parseElemCounts("1e6, 16e6,1048576,7,7"); err != nil || !slices.Equal(n, []int{1000000, 16000000, 1048576, 7}) {
		t.Errorf("sizes %v %v", n, err)
	}
	if d, err := parseDTypeList("c128,f32,float32"); err != nil || !slices.Equal(d, []tf.DType{tf.Complex128, tf.Float32}) {
		t.Errorf("dtypes %v %v", d, err)
	}
	if o, err := parseOpList(" ALL "); err != nil || o != nil {
		t.Errorf("all: %v %v", o, err)
	}
	if o, err := parseOpList("Log, exp"); err != nil || !slices.Equal(o, []string{"log", "exp"}) {
		t.Errorf("ops %v %v", o, err)
	}
}

// catalogKind returns the catalog operation with lower-case name n.
func catalogKind(n string) (op.Kind, bool) {
	for _, k := range op.Kinds() {
		if opName(k) == n {
			return k, true
		}
	}
	return op.None, false
}

// TestOpsPeerTableComplete fails when an operation lacks a peer entry (add
// its NumPy and PyTorch expressions to opsPeers), when an entry names no
// generated operation, and when an entry's input ranges give non-finite
// results (the reference of the catalog at the ranges' ends and middle).
func TestOpsPeerTableComplete(t *testing.T) {
	names := allOpNames()
	for _, dt := range []tf.DType{tf.Float32, tf.Float64, tf.Complex64, tf.Complex128} {
		for _, n := range opNamesOf(dt) {
			if _, ok := opsPeers[n]; !ok {
				t.Errorf("operation %s (%s) has no entry in opsPeers", n, dt)
			}
		}
	}
	for n, p := range opsPeers {
		k, ok := catalogKind(n)
		if !ok || !slices.Contains(names, n) {
			t.Errorf("opsPeers entry %q is not a generated operation", n)
			continue
		}
		in := k.Info()
		binary := in.Category == op.Binary
		if p.a[0] >= p.a[1] || binary != (p.b[0] < p.b[1]) {
			t.Errorf("%s: ranges a %v b %v", n, p.a, p.b)
		}
		if p.numpy == "" && p.torch == "" {
			t.Errorf("%s: no peer expression at all", n)
		}
		pts := func(r [2]float64) []float64 { return []float64{r[0], (r[0] + r[1]) / 2, math.Nextafter(r[1], r[0])} }
		bs := []float64{0}
		if binary {
			bs = pts(p.b)
		}
		for _, x := range pts(p.a) {
			for _, y := range bs {
				var v complex128
				switch {
				case in.Category == op.Reduction || in.Category == op.Scan:
					v = in.RefReduce([]complex128{complex(x, 0), complex(y, 0)}, p.alpha)
				case in.RefReal != nil:
					v = complex(in.RefReal(x, y, p.alpha, p.beta), 0)
				default:
					v = in.Ref(complex(x, 0), complex(y, 0), complex(p.alpha, 0), complex(p.beta, 0))
				}
				if in.Ref != nil && in.Category != op.Reduction && in.Category != op.Scan {
					// Complex inputs draw both parts from the range.
					if w := in.Ref(complex(x, x), complex(y, y), complex(p.alpha, 0), complex(p.beta, 0)); cmplx.IsNaN(w) || cmplx.IsInf(w) {
						v = w
					}
				}
				if cmplx.IsNaN(v) || cmplx.IsInf(v) {
					t.Errorf("%s(%v, %v) = %v: the input range is outside the domain", n, x, y, v)
				}
			}
		}
	}
}

func TestDrawRange(t *testing.T) {
	r := [2]float64{0.5, 2}
	check := func(dt string, v float64) {
		if v < r[0] || v >= r[1] {
			t.Fatalf("%s: %v outside %v", dt, v, r)
		}
	}
	for _, x := range drawRange[float32](1, 257, r) {
		check("f32", float64(x))
	}
	for _, x := range drawRange[float64](1, 257, r) {
		check("f64", x)
	}
	for _, x := range drawRange[complex64](1, 257, r) {
		check("c64", float64(real(x)))
		check("c64", float64(imag(x)))
	}
	c := drawRange[complex128](1, 257, r)
	for _, x := range c {
		check("c128", real(x))
		check("c128", imag(x))
	}
	if c[0] == c[1] || real(c[0]) == imag(c[0]) {
		t.Errorf("values repeat: %v", c[:2])
	}
}

// havePython reports whether the peer interpreter imports all modules.
func havePython(modules ...string) bool {
	return exec.Command(pythonPath, "-c", "import "+strings.Join(modules, ", ")).Run() == nil
}

// haveTorch reports whether the peer interpreter finds torch (without
// importing it, which takes seconds).
func haveTorch() bool {
	return exec.Command(pythonPath, "-c", "import importlib.util, sys; sys.exit(importlib.util.find_spec('torch') is None)").Run() == nil
}

// TestBenchOpsPeers runs every operation and dtype with the peers that are
// installed: every case with an expression gets a time, the others none.
func TestBenchOpsPeers(t *testing.T) {
	if !havePython("numpy") {
		t.Skip("python3 with numpy not installed")
	}
	torch, tpc := haveTorch(), numpyOpenBLAS()
	if torch && testing.Short() {
		t.Skip("importing torch takes seconds; run without -short")
	}
	code, out, errs := runCLI(t, "bench", "ops", "--sizes", "16", "--dtype", "f32,f64,c64,c128", "--budget", "1ms", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	rows, _ := decodeOpsRows(t, out)
	if len(rows) == 0 {
		t.Fatal("no rows")
	}
	for _, r := range rows {
		p := opsPeers[r.Op]
		if (p.numpy != "") != (r.NumpyMS != nil) || (r.NumpyMS != nil && *r.NumpyMS <= 0) {
			t.Errorf("%s %s: numpy expression %q, time %v", r.Op, r.DType, p.numpy, r.NumpyMS)
		}
		wantTorch := torch && p.torch != "" && !(p.torchReal && strings.HasPrefix(r.DType, "c"))
		if wantTorch != (r.TorchMS != nil) {
			t.Errorf("%s %s: torch expression %q (torch installed: %v), time %v", r.Op, r.DType, p.torch, torch, r.TorchMS)
		}
		if tpc != (r.OpenBLASCore != nil) {
			t.Errorf("%s %s: openblas_core %v, NumPy loads OpenBLAS: %v", r.Op, r.DType, r.OpenBLASCore, tpc)
		}
	}
	if !torch && !strings.Contains(errs, "torch not available") {
		t.Errorf("no note on the missing torch: %q", errs)
	}
}

// TestOpsPeerCoreType checks that the peer applies OPENBLAS_CORETYPE
// before OpenBLAS loads and reports the kernel that ran.
func TestOpsPeerCoreType(t *testing.T) {
	if runtime.GOARCH != "amd64" || !havePython("numpy") || !numpyOpenBLAS() {
		t.Skip("needs amd64 and python3 with numpy on OpenBLAS")
	}
	c := opsCase{Op: "exp", DType: "float64", Size: 8, A: unitRange, Numpy: opsPeers["exp"].numpy}
	var res peerResult
	in := map[string]any{"cases": []opsCase{c}, "threads": 1, "budget": 0.001, "coretype": "Prescott", "peers": []string{"numpy"}}
	if err := runPeer(opsPeerScript, 1, in, &res); err != nil {
		t.Fatal(err)
	}
	if res.OpenBLASCore == nil || *res.OpenBLASCore != "Prescott" || len(res.NumpyMS) != 1 || res.NumpyMS[0] == nil {
		t.Errorf("core %v, numpy %v, notes %v", res.OpenBLASCore, res.NumpyMS, res.Notes)
	}
}

// TestOpsPeerFailures checks that a case the peer cannot run gets a null
// time and a note while the others still run.
func TestOpsPeerFailures(t *testing.T) {
	if !havePython("numpy") {
		t.Skip("python3 with numpy not installed")
	}
	cases := []opsCase{
		{Op: "exp", DType: "nope", Size: 4, A: unitRange, Numpy: "np.exp(a, out=out)"},
		{Op: "bad", DType: "float64", Size: 4, A: unitRange, Numpy: "np.no_such_function(a, out=out)"},
		{Op: "exp", DType: "float64", Size: 4, A: unitRange, Numpy: "np.exp(a, out=out)"},
		{Op: "none", DType: "float64", Size: 4, A: unitRange},
	}
	res := runOpsPeers(cases, 1, time.Millisecond, []string{"numpy"})
	if len(res.NumpyMS) != 4 || res.NumpyMS[0] != nil || res.NumpyMS[1] != nil || res.NumpyMS[2] == nil || res.NumpyMS[3] != nil {
		t.Fatalf("times %v, notes %v", res.NumpyMS, res.Notes)
	}
	if notes := strings.Join(res.Notes, "\n"); !strings.Contains(notes, "numpy exp nope") || !strings.Contains(notes, "numpy bad float64") ||
		strings.Contains(notes, "torch") || strings.Contains(notes, "none") {
		t.Errorf("notes %q", notes)
	}
}

func TestOpsSummary(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	rows := []opsRow{{MedianMS: 1, NumpyMS: f(2)}, {MedianMS: 0.5, NumpyMS: f(4)}, {MedianMS: 3}}
	if got, want := opsSummary(rows), "geometric mean: numpy/ours 4.00 over 2 cases; torch/ours n/a"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	rows[2].TorchMS = f(1.5)
	if got := opsSummary(rows); !strings.HasSuffix(got, "torch/ours 0.50 over 1 cases") {
		t.Errorf("%q", got)
	}
}

// TestBenchOpsPeerForced stands in for a CPU that OpenBLAS does not
// recognize: the peers must then run the CPU's optimized kernel, named in
// the rows, the header and a note.
func TestBenchOpsPeerForced(t *testing.T) {
	if !havePython("numpy") || !numpyOpenBLAS() {
		t.Skip("needs python3 with numpy on OpenBLAS")
	}
	if haveTorch() && testing.Short() {
		t.Skip("importing torch takes seconds; run without -short")
	}
	want := pretendGenericOpenBLAS(t)
	code, out, errs := runCLI(t, "bench", "ops", "--ops", "exp,sum", "--sizes", "16", "--dtype", "f64", "--budget", "1ms", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if note := "OPENBLAS_CORETYPE=" + want + " set for the peer"; !strings.Contains(errs, note) {
		t.Errorf("stderr %q lacks %q", errs, note)
	}
	rows, _ := decodeOpsRows(t, out)
	for _, r := range rows {
		if r.OpenBLASCore == nil || *r.OpenBLASCore != want || r.NumpyMS == nil {
			t.Errorf("%s: openblas_core %v, numpy %v; want %s", r.Op, r.OpenBLASCore, r.NumpyMS, want)
		}
	}
	code, out, _ = runCLI(t, "bench", "ops", "--ops", "exp", "--sizes", "16", "--dtype", "f32", "--budget", "1ms")
	header, _, _ := strings.Cut(out, "\n")
	if wantHeader := "OpenBLAS core " + want + " (OPENBLAS_CORETYPE=" + want + "; OpenBLAS alone chose Prescott)"; code != 0 || !strings.Contains(header, wantHeader) {
		t.Errorf("header %q lacks %q", header, wantHeader)
	}
}
