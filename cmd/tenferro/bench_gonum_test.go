package main

import (
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/blas/gonum"
)

// gonumRowKeys is the schema of a `bench gonum --json` row.
var gonumRowKeys = []string{"gonum_ms", "gonumx_ms", "kernel", "max_rel_diff", "op", "size", "speedup", "threads"}

// TestBenchGonumJSON runs every op at two small orders: one row each, in
// order, positive times, a consistent speedup and results that agree to
// rounding; gonum's own BLAS is installed again afterwards.
func TestBenchGonumJSON(t *testing.T) {
	code, out, errs := runCLI(t, "bench", "gonum", "--sizes", "7,67", "--threads", "2", "--budget", "1ms", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	rows, _ := decodeBenchRows[gonumRow](t, out, gonumRowKeys)
	var got, want []string
	for _, n := range []string{"7", "67"} {
		for _, op := range gonumOpNames() {
			want = append(want, op+"/"+n)
		}
	}
	for _, r := range rows {
		got = append(got, r.Op+"/"+map[int]string{7: "7", 67: "67"}[r.Size])
		if r.Threads != 2 || r.Kernel == "" || r.GonumMS <= 0 || r.GonumxMS <= 0 {
			t.Errorf("row %+v", r)
		}
		if d := r.Speedup - r.GonumMS/r.GonumxMS; d > 1e-9*r.Speedup || -d > 1e-9*r.Speedup {
			t.Errorf("%s n=%d: speedup %v, want gonum_ms/gonumx_ms", r.Op, r.Size, r.Speedup)
		}
		if !(r.MaxRelDiff < 1e-10) {
			t.Errorf("%s n=%d: results differ by %v", r.Op, r.Size, r.MaxRelDiff)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("rows %v, want %v", got, want)
	}
	if !strings.Contains(errs, "geometric mean gonum/gonumx") {
		t.Errorf("stderr lacks the summary: %q", errs)
	}
	if _, ok := blas64.Implementation().(gonum.Implementation); !ok {
		t.Errorf("blas64 left on %T", blas64.Implementation())
	}
}

func TestBenchGonumTable(t *testing.T) {
	code, out, errs := runCLI(t, "bench", "gonum", "--ops", "mul,LU", "--sizes", "5", "--budget", "1ms")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, s := range []string{"threads=1", "speedup", "max rel diff", "mul", "lu", "geometric mean gonum/gonumx"} {
		if !strings.Contains(out, s) {
			t.Errorf("table lacks %q:\n%s", s, out)
		}
	}
	if strings.Contains(out, "cholesky") {
		t.Errorf("--ops mul,LU ran cholesky:\n%s", out)
	}
}

func TestBenchGonumBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"--sizes", "0"}, {"--sizes", "x"}, {"--ops", "svd"}, {"--threads", "0"}, {"--budget", "0s"}, {"extra"},
	} {
		code, _, errs := runCLI(t, append([]string{"bench", "gonum"}, args...)...)
		if code != 2 || !strings.HasPrefix(errs, "tenferro bench gonum: ") {
			t.Errorf("%v: exit %d, stderr %q", args, code, errs)
		}
	}
}
