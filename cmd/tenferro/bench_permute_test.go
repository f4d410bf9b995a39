package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tenferro-go/tenferro/internal/kernel/strided"
)

// smallPatterns covers every layout kind of the pattern format, a
// negative source stride, a one-based file and the dtypes.
const smallPatterns = `{
  "index_base": 1,
  "patterns": [
    {"id": "t2", "dtype": "f64", "shape": [37, 29], "perm": [2, 1]},
    {"id": "r3", "dtype": "f32", "shape": [5, 7, 11], "perm": [3, 1, 2],
     "src_layout": {"kind": "row_major"}, "dst_layout": {"kind": "col_major"}},
    {"id": "neg", "dtype": "c128", "shape": [4, 3, 2], "perm": [2, 3, 1],
     "src_layout": {"kind": "explicit_strides", "strides": [-1, 8, 32]}},
    {"id": "c64", "dtype": "c64", "shape": [6, 1, 5], "perm": [3, 2, 1],
     "dst_layout": {"kind": "row_major"}},
    {"id": "empty", "dtype": "f64", "shape": [3, 0, 2], "perm": [2, 3, 1]}
  ]
}`

func writeTemp(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestBenchPermutePatternsJSON(t *testing.T) {
	file := writeTemp(t, "patterns.json", smallPatterns)
	for _, threads := range []string{"1", "2"} {
		code, out, errs := runCLI(t, "bench", "permute", "--json", "--budget", "2ms", "--threads", threads, "--patterns", file)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		var rows []permuteRow
		if err := json.Unmarshal([]byte(out), &rows); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		ids := []string{}
		for _, r := range rows {
			ids = append(ids, r.ID)
			if r.Check != "ok" || r.Reps < 5 || r.MedianMS < 0 || r.CopyMS < 0 {
				t.Errorf("row %+v", r)
			}
			if r.Bytes > 0 && (r.CopyRatio <= 0 || r.GBs <= 0) {
				t.Errorf("row %s: copy ratio %v, GB/s %v", r.ID, r.CopyRatio, r.GBs)
			}
		}
		if !slices.Equal(ids, []string{"t2", "r3", "neg", "c64", "empty"}) {
			t.Errorf("ids %v", ids)
		}
		if rows[0].Bytes != 37*29*8 || !slices.Equal(rows[0].Perm, []int{1, 0}) {
			t.Errorf("t2: bytes %d perm %v", rows[0].Bytes, rows[0].Perm)
		}
	}
}

func TestBenchPermuteTable(t *testing.T) {
	file := writeTemp(t, "patterns.json", smallPatterns)
	code, out, errs := runCLI(t, "bench", "permute", "--budget", "1ms", "--patterns", file)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "copy/perm") || strings.Count(out, " ok") != 5 {
		t.Errorf("table:\n%s", out)
	}
}

// TestCheckPermutedDetects makes sure the sampled check can fail: a
// destination with one element moved is reported.
func TestCheckPermutedDetects(t *testing.T) {
	shape := []int{3, 4}
	src := make([]float64, 12)
	for i := range src {
		src[i] = indexValue[float64](i)
	}
	dst := make([]float64, 12)
	// dst (j, i) layout: dst[i + 3j] = src[j + 4i] (a transpose).
	for i := 0; i < 3; i++ {
		for j := 0; j < 4; j++ {
			dst[i+3*j] = src[j+4*i]
		}
	}
	d := strided.Ref[float64]{Data: dst, Strides: []int{1, 3}}
	s := strided.Ref[float64]{Data: src, Strides: []int{4, 1}}
	if got := checkPermuted(shape, d, s); got != "ok" {
		t.Fatalf("correct transpose: %s", got)
	}
	dst[11], dst[10] = dst[10], dst[11]
	if got := checkPermuted(shape, d, s); !strings.HasPrefix(got, "FAIL") {
		t.Fatalf("swapped elements not detected: %s", got)
	}
}

func TestLayoutView(t *testing.T) {
	v := layoutView([]int{4, 3}, []int{-1, 8})
	if v.off != 3 || v.span != 20 {
		t.Errorf("negative stride: %+v", v)
	}
	v = layoutView([]int{2, 5}, nil)
	if v.off != 0 || v.span != 10 || !slices.Equal(v.strides, []int{1, 2}) {
		t.Errorf("compact: %+v", v)
	}
	if v = layoutView([]int{2, 0}, nil); v.span != 0 {
		t.Errorf("empty: %+v", v)
	}
}

func TestBenchPermuteBadInput(t *testing.T) {
	bad := writeTemp(t, "bad.json", `{"index_base": 0, "patterns": [{"id": "x", "dtype": "f64", "shape": [2, 3], "perm": [0, 0]}]}`)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"bench", "permute", "--patterns", filepath.Join(t.TempDir(), "missing.json")}, "missing.json"},
		{[]string{"bench", "permute", "--patterns", bad}, "perm"},
		{[]string{"bench", "permute", "--threads", "0"}, "--threads"},
		{[]string{"bench", "permute", "--budget", "0s"}, "--budget"},
		{[]string{"bench", "permute", "extra"}, "unexpected argument"},
	} {
		code, out, errs := runCLI(t, c.args...)
		if code != 2 || out != "" || !oneLine(errs) || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q (want one line with %q)", c.args, code, out, errs, c.want)
		}
	}
}
