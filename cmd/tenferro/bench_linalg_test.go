package main

import (
	"math"
	"math/cmplx"
	"slices"
	"strings"
	"testing"

	tf "github.com/tenferro-go/tenferro"
)

// linalgRowKeys is the schema of a `bench linalg --json` row.
var linalgRowKeys = []string{"batch", "dtype", "gonum_ms", "median_ms", "numpy_ms", "op", "openblas_core", "size", "threads", "torch_ms"}

// decodeLinalgRows decodes --json output, checking every row's key set.
func decodeLinalgRows(t *testing.T, out string) ([]linalgRow, []map[string]any) {
	t.Helper()
	return decodeBenchRows[linalgRow](t, out, linalgRowKeys)
}

// wantLinalgRows lists op/dtype/size for every op of the table, dtypes
// outer, then sizes, then ops (the bench's order).
func wantLinalgRows(dts []string, sizes []string) []string {
	var want []string
	for _, dt := range dts {
		for _, n := range sizes {
			for _, op := range linalgOpNames() {
				want = append(want, op+"/"+dt+"/"+n)
			}
		}
	}
	return want
}

func rowKey(r linalgRow) string {
	return r.Op + "/" + r.DType + "/" + map[int]string{1: "1", 8: "8", 9: "9"}[r.Size]
}

// TestBenchLinalgJSON runs every op in every dtype without the Python
// peers: one row each, our time positive, gonum's for float64 ops that
// have a gonum form only, the Python peers null.
func TestBenchLinalgJSON(t *testing.T) {
	code, out, errs := runCLI(t, "bench", "linalg", "--sizes", "1,8", "--dtype", "f32,f64,c64,c128", "--batch", "3",
		"--threads", "2", "--budget", "1ms", "--json", "--no-reference")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	rows, raw := decodeLinalgRows(t, out)
	var got []string
	for i, r := range rows {
		got = append(got, rowKey(r))
		if r.Threads != 2 || r.Batch != 3 || r.MedianMS <= 0 {
			t.Errorf("row %+v", r)
		}
		o, _ := findLinalgOp[float64](r.Op)
		if wantGonum := r.DType == "f64" && o.peer.gonum != nil; wantGonum != (r.GonumMS != nil) || (r.GonumMS != nil && *r.GonumMS <= 0) {
			t.Errorf("%s %s: gonum_ms %v (gonum form: %v)", r.Op, r.DType, r.GonumMS, o.peer.gonum != nil)
		}
		for _, k := range []string{"numpy_ms", "torch_ms", "openblas_core"} {
			if raw[i][k] != nil {
				t.Errorf("%s %s: %s = %v with --no-reference", r.Op, r.DType, k, raw[i][k])
			}
		}
	}
	if want := wantLinalgRows([]string{"f32", "f64", "c64", "c128"}, []string{"1", "8"}); !slices.Equal(got, want) {
		t.Errorf("rows\n%v\nwant\n%v", got, want)
	}
	if !strings.Contains(errs, "numpy/ours n/a") || !strings.Contains(errs, "gonum/ours ") {
		t.Errorf("stderr lacks the geometric means: %q", errs)
	}
}

// TestBenchLinalgPeers runs every op with the peers that are installed:
// NumPy times for the ops with a NumPy form (SciPy's where it needs
// SciPy), torch times only when torch imports, openblas_core when NumPy
// loads OpenBLAS, and a note when torch is missing.
func TestBenchLinalgPeers(t *testing.T) {
	if !havePython("numpy") {
		t.Skip("python3 with numpy not installed")
	}
	torch, tpc, scipy := haveTorch(), numpyOpenBLAS(), havePython("scipy.linalg")
	if torch && testing.Short() {
		t.Skip("importing torch takes seconds; run without -short")
	}
	code, out, errs := runCLI(t, "bench", "linalg", "--sizes", "8", "--dtype", "f64,c64", "--batch", "2", "--budget", "1ms", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	rows, _ := decodeLinalgRows(t, out)
	var got []string
	for _, r := range rows {
		got = append(got, rowKey(r))
		o, _ := findLinalgOp[float64](r.Op)
		wantNumpy := o.peer.numpy != "" && (!o.peer.needsScipy || scipy)
		if wantNumpy != (r.NumpyMS != nil) || (r.NumpyMS != nil && *r.NumpyMS <= 0) {
			t.Errorf("%s %s: numpy expression %q (scipy %v), time %v", r.Op, r.DType, o.peer.numpy, scipy, r.NumpyMS)
		}
		if wantTorch := torch && o.peer.torch != ""; wantTorch != (r.TorchMS != nil) {
			t.Errorf("%s %s: torch expression %q (torch installed: %v), time %v", r.Op, r.DType, o.peer.torch, torch, r.TorchMS)
		}
		if tpc != (r.OpenBLASCore != nil) {
			t.Errorf("%s %s: openblas_core %v, NumPy loads OpenBLAS: %v", r.Op, r.DType, r.OpenBLASCore, tpc)
		}
	}
	if want := wantLinalgRows([]string{"f64", "c64"}, []string{"8"}); !slices.Equal(got, want) {
		t.Errorf("rows\n%v\nwant\n%v", got, want)
	}
	if !torch && !strings.Contains(errs, "torch not available") {
		t.Errorf("no note on the missing torch: %q", errs)
	}
	if strings.Contains(errs, "bench linalg: numpy ") {
		t.Errorf("a NumPy case failed: %q", errs)
	}
}

func TestBenchLinalgTable(t *testing.T) {
	code, out, errs := runCLI(t, "bench", "linalg", "--ops", "Det,lu,det", "--sizes", "9", "--dtype", "c128", "--budget", "1ms", "--no-reference")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 1+1+2+1 || !strings.Contains(lines[0], "batch 1, threads=1; peers: none, gonum") || !strings.Contains(lines[1], "gonum/ours") {
		t.Fatalf("table:\n%s", out)
	}
	for i, want := range []string{"det c128 9 1", "lu c128 9 1"} {
		if got := strings.Join(strings.Fields(lines[2+i])[:4], " "); got != want {
			t.Errorf("line %d: %q, want %q", i, got, want)
		}
	}
	if !strings.HasPrefix(lines[len(lines)-1], "geometric mean: numpy/ours n/a; gonum/ours n/a") {
		t.Errorf("summary %q", lines[len(lines)-1])
	}
}

func TestBenchLinalgBadFlags(t *testing.T) {
	for _, bad := range [][]string{
		{"--sizes", "0"}, {"--sizes", "1.5"}, {"--sizes", "abc"}, {"--sizes", "99999"}, {"--sizes", "5,"},
		{"--dtype", "i64"}, {"--ops", "nope"}, {"--ops", ""}, {"--threads", "0"}, {"--batch", "0"},
		{"--budget", "0"}, {"--bogus"}, {"--sizes", "4", "extra"},
	} {
		code, out, errs := runCLI(t, append([]string{"bench", "linalg"}, bad...)...)
		if code != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.HasPrefix(errs, "tenferro bench linalg: ") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", bad, code, out, errs)
		}
	}
	if code, _, errs := runCLI(t, "bench", "linalg", "-h"); code != 0 || !strings.Contains(errs, "-batch") {
		t.Errorf("-h: exit %d, %q", code, errs)
	}
}

// TestDrawInput checks the benchmark's inputs: Hermitian where asked,
// positive definite by diagonal dominance, the general ones shifted.
func TestDrawInput(t *testing.T) {
	const n, batch = 9, 2
	for _, k := range []inputKind{spdIn, hermitianIn} {
		d := drawInput[complex128](k, n, batch)
		for b := range batch {
			m := d[b*n*n : (b+1)*n*n]
			for j := range n {
				off := 0.0
				for i := range n {
					if m[j*n+i] != cmplx.Conj(m[i*n+j]) {
						t.Fatalf("kind %d: (%d, %d) = %v, (%d, %d) = %v", k, i, j, m[j*n+i], j, i, m[i*n+j])
					}
					if i != j {
						off += cmplx.Abs(m[j*n+i])
					}
				}
				if k == spdIn && real(m[j*n+j]) <= off {
					t.Errorf("spd: column %d not diagonally dominant", j)
				}
			}
		}
	}
	g := drawInput[float64](generalIn, n, 1)
	for i := range n {
		if g[i*n+i] < math.Sqrt(n)-1 {
			t.Errorf("general: diagonal %d = %v", i, g[i*n+i])
		}
	}
	if r := drawInput[float32](rhsIn, n, 1); r[0] == r[1] || slices.Equal(drawInput[float32](generalIn, n, 1), r) {
		t.Error("inputs repeat")
	}
}

// TestLinalgTableComplete checks that every op of the table has a run, an
// Into form, at least one peer, and is known to the command and the
// benchmark in every dtype, and that its Into form runs on a small batch.
func TestLinalgTableComplete(t *testing.T) {
	names := linalgOpNames()
	if len(names) == 0 || len(linalgOps[complex64]()) != len(names) {
		t.Fatalf("ops %v", names)
	}
	e, _ := benchEngineWidth(1)
	for _, o := range linalgOps[float64]() {
		if o.run == nil || o.into == nil || len(o.in) == 0 || o.summary == "" {
			t.Errorf("%s: incomplete entry", o.name)
		}
		if o.peer.numpy == "" && o.peer.torch == "" && o.peer.gonum == nil {
			t.Errorf("%s: no peer at all", o.name)
		}
		for _, opt := range o.opts {
			if !slices.ContainsFunc(linalgOptions, func(l linalgOption) bool { return l.name == opt }) {
				t.Errorf("%s: option %q is not declared", o.name, opt)
			}
		}
		ins := make([]*tf.Tensor[float64], len(o.in))
		for i, k := range o.in {
			ins[i], _ = tf.FromSlice(drawInput[float64](k, 5, 2), 5, 5, 2)
		}
		call, done, err := o.into(e, ins)
		if err != nil {
			t.Fatalf("%s: %v", o.name, err)
		}
		if err := call(); err != nil {
			t.Errorf("%s: Into form: %v", o.name, err)
		}
		done()
	}
}
