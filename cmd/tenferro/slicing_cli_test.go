package main

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/npy"
)

// The chain's best path holds a 20 × 5 intermediate: 800 bytes of f64.
var chainArgs = []string{"ij,jk,kl->il", "10x20", "20x30", "30x5"}

func pathJSONOf(t *testing.T, args ...string) pathJSON {
	t.Helper()
	code, out, errs := runCLI(t, append([]string{"path", "--json"}, args...)...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errs)
	}
	var r pathJSON
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v: %v\n%s", args, err, out)
	}
	return r
}

// TestPathMemoryLimitBytes: --memory-limit counts bytes of --dtype and
// the JSON reports the slicing.
func TestPathMemoryLimitBytes(t *testing.T) {
	r := pathJSONOf(t, chainArgs...)
	if r.Slices != 1 || len(r.SlicedLabels) != 0 || r.FlopOverhead != 1 || r.SlicePeakBytes != 800 || r.DType != "f64" {
		t.Errorf("no limit: %+v", r)
	}
	r = pathJSONOf(t, append([]string{"--memory-limit", "400"}, chainArgs...)...)
	if r.Slices < 2 || r.SlicePeakBytes > 400 || !(r.FlopOverhead >= 1) || r.TotalFlops < r.Flops*count(r.Slices) {
		t.Errorf("400 bytes: %+v", r)
	}
	for _, l := range r.SlicedLabels {
		if l == "i" || l == "l" {
			t.Errorf("output label %s sliced", l)
		}
	}
	if !slices.Equal(r.Shapes[0], []int{10, 20}) {
		t.Errorf("shapes %v, want the full ones", r.Shapes)
	}
	// c128 elements take twice the bytes: 800 bytes hold 50 of them.
	r = pathJSONOf(t, append([]string{"--memory-limit", "800", "--dtype", "c128"}, chainArgs...)...)
	if r.Slices < 2 || r.SlicePeakBytes > 800 || r.DType != "c128" {
		t.Errorf("800 bytes of c128: %+v", r)
	}
	if r := pathJSONOf(t, append([]string{"--memory-limit", "64MiB"}, chainArgs...)...); r.Slices != 1 {
		t.Errorf("64MiB: %+v", r)
	}
	code, out, errs := runCLI(t, append([]string{"path", "--memory-limit", "400"}, chainArgs...)...)
	if code != 0 || !strings.Contains(out, "Sliced labels:") || !strings.Contains(out, "One slice:") {
		t.Errorf("report: exit %d %q %q", code, out, errs)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--memory-limit", "16"}, "smallest peak one slice reaches, 40 bytes"},
		{[]string{"--memory-limit", "lots"}, "--memory-limit"},
		{[]string{"--dtype", "i64"}, "--dtype"},
		{[]string{"--dtype", "f16"}, "--dtype"},
	} {
		code, out, errs := runCLI(t, append(append([]string{"path"}, c.args...), chainArgs...)...)
		if code != 2 || out != "" || !oneLine(errs) || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q (want %q)", c.args, code, out, errs, c.want)
		}
	}
}

// TestEinsumMemoryLimit: `tenferro einsum --memory-limit` evaluates
// sliced to the unsliced result.
func TestEinsumMemoryLimit(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(1, 2))
	shapes := [][]int{{10, 20}, {20, 30}, {30, 5}}
	var files []string
	for k, s := range shapes {
		buf := make([]float64, tf.Numel(s))
		for i := range buf {
			buf[i] = 0.5 + rng.Float64()
		}
		x, _ := tf.FromSlice(buf, s...)
		name := filepath.Join(dir, string(rune('a'+k))+".npy")
		if err := npy.WriteTensorFile(name, x); err != nil {
			t.Fatal(err)
		}
		files = append(files, name)
	}
	var res [2][]float64
	for i, limit := range []string{"0", "200"} {
		out := filepath.Join(dir, "out"+limit+".npy")
		code, _, errs := runCLI(t, append([]string{"einsum", "--memory-limit", limit, "-o", out, "ij,jk,kl->il"}, files...)...)
		if code != 0 {
			t.Fatalf("--memory-limit %s: exit %d: %s", limit, code, errs)
		}
		v, err := npy.ReadTensorFile[float64](out)
		if err != nil {
			t.Fatal(err)
		}
		res[i], _ = v.Data()
	}
	for i := range res[0] {
		if d := math.Abs(res[0][i] - res[1][i]); d > 1e-12*res[0][i] {
			t.Fatalf("element %d: sliced %g, unsliced %g", i, res[1][i], res[0][i])
		}
	}
	code, _, errs := runCLI(t, append([]string{"einsum", "--memory-limit", "8", "-o", filepath.Join(dir, "x.npy"), "ij,jk,kl->il"}, files...)...)
	if code != 2 || !strings.Contains(errs, "memory") {
		t.Errorf("8 bytes: exit %d, %q", code, errs)
	}
}
