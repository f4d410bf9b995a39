package main

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/npy"
	"github.com/tenferro-go/tenferro/program"
)

// gradRowKeys is the schema of a `bench grad --json` row.
var gradRowKeys = []string{"check", "forward_ms", "grad_ms", "grad_over_forward", "name", "threads", "torch_ms", "torch_speedup"}

// gradTestInstances writes a tiny instance set to a new directory: every
// dtype, a chain, a closed (scalar) network, a repeated label (diagonal)
// and an operand with a label only it has (summed by the forward).
func gradTestInstances(t *testing.T) (string, []string) {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"a_matmul":  `{"format_string": "ij,jk->ik", "shapes": [[3, 4], [4, 5]], "dtype": "float64"}`,
		"b_chain":   `{"format_string": "ab,bc,cd->ad", "shapes": [[6, 7], [7, 8], [8, 5]], "dtype": "float32"}`,
		"c_trace":   `{"format_string": "ij,jk,ki->", "shapes": [[4, 5], [5, 6], [6, 4]], "dtype": "complex128"}`,
		"d_diag":    `{"format_string": "iij,jkl->ik", "shapes": [[3, 3, 4], [4, 2, 3]], "dtype": "complex64"}`,
		"e_network": `{"format_string": "abc,cde,efa,bdf->", "shapes": [[2, 3, 4], [4, 3, 2], [2, 3, 2], [3, 3, 3]], "dtype": "float64"}`,
	}
	var names []string
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name+".json"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
	}
	slices.Sort(names)
	return dir, names
}

func decodeGradRows(t *testing.T, out string) []gradRow {
	t.Helper()
	rows, _ := decodeBenchRows[gradRow](t, out, gradRowKeys)
	return rows
}

// TestBenchGradJSON runs the command on the tiny set, traced both ways:
// one row per instance in name order, positive times, grad_over_forward
// the ratio of the two, and the check "ok" (against PyTorch when it is
// installed, by central differences otherwise).
func TestBenchGradJSON(t *testing.T) {
	dir, names := gradTestInstances(t)
	torch := haveTorch()
	if torch && testing.Short() {
		t.Skip("importing torch takes seconds; run without -short")
	}
	for _, form := range [][]string{nil, {"--pairwise"}} {
		args := append([]string{"bench", "grad", "--instances", dir, "--budget", "1ms", "--threads", "2", "--json"}, form...)
		code, out, errs := runCLI(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", form, code, errs)
		}
		rows := decodeGradRows(t, out)
		if len(rows) != len(names) {
			t.Fatalf("%v: %d rows for %d instances", form, len(rows), len(names))
		}
		for i, r := range rows {
			if r.Name != names[i] || r.Threads != 2 || r.Check != "ok" {
				t.Errorf("%v: row %+v", form, r)
			}
			if r.ForwardMS <= 0 || r.GradMS <= 0 || math.Abs(r.GradOverForward-r.GradMS/r.ForwardMS) > 1e-9*r.GradOverForward {
				t.Errorf("%v: %s: times %+v", form, r.Name, r)
			}
			if (r.TorchMS == nil) != (r.TorchSpeedup == nil) || r.TorchMS != nil && math.Abs(*r.TorchSpeedup-*r.TorchMS/r.GradMS) > 1e-9**r.TorchSpeedup {
				t.Errorf("%v: %s: torch fields %v %v", form, r.Name, r.TorchMS, r.TorchSpeedup)
			}
			if !torch && r.TorchMS != nil {
				t.Errorf("%v: %s: a torch time without torch", form, r.Name)
			}
		}
		against := "central differences"
		if torch {
			against = "torch"
		}
		if strings.Count(errs, "ok: vs "+against) != len(names) || !strings.Contains(errs, "grad/forward ") {
			t.Errorf("%v: stderr:\n%s", form, errs)
		}
	}
}

// TestBenchGradTable checks the table: the header naming the peer, one
// line per instance and the geometric means.
func TestBenchGradTable(t *testing.T) {
	if haveTorch() && testing.Short() {
		t.Skip("importing torch takes seconds; run without -short")
	}
	dir, names := gradTestInstances(t)
	code, out, errs := runCLI(t, "bench", "grad", "--instances", dir, "--budget", "1ms")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != len(names)+3 || !strings.HasPrefix(lines[0], "== gradients") || !strings.Contains(lines[0], "torch") {
		t.Fatalf("table:\n%s", out)
	}
	for _, h := range []string{"name", "threads", "forward ms", "grad ms", "grad/forward", "torch ms", "torch speedup", "check"} {
		if !strings.Contains(lines[1], h) {
			t.Errorf("header lacks %q: %s", h, lines[1])
		}
	}
	for i, n := range names {
		if f := strings.Fields(lines[2+i]); f[0] != n || f[len(f)-1] != "ok" {
			t.Errorf("row %q", lines[2+i])
		}
	}
	if last := lines[len(lines)-1]; !strings.HasPrefix(last, "geometric mean: torch/ours ") || !strings.Contains(last, "grad/forward ") {
		t.Errorf("summary %q", last)
	}
}

func TestBenchGradBadInput(t *testing.T) {
	empty := t.TempDir()
	bad := t.TempDir()
	os.WriteFile(filepath.Join(bad, "x.json"), []byte(`{"format_string": "ij,jk->ik", "shapes": [[2, 3], [4, 5]], "dtype": "float64"}`), 0o644)
	file := filepath.Join(bad, "x.json")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--instances", filepath.Join(empty, "missing")}, "no such directory"},
		{[]string{"--instances", file}, "not a directory"},
		{[]string{"--instances", empty}, "no instance files"},
		{[]string{"--instances", bad}, "x.json"},
		{[]string{"--threads", "0"}, "--threads"},
		{[]string{"--budget", "0s"}, "--budget"},
		{[]string{"--budget", "soon"}, "budget"},
		{[]string{"--bogus"}, "bogus"},
		{[]string{"--instances", empty, "extra"}, "unexpected argument"},
	} {
		code, out, errs := runCLI(t, append([]string{"bench", "grad"}, c.args...)...)
		if code != 2 || out != "" || !oneLine(errs) || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stderr %q (want exit 2 and one line with %q)", c.args, code, errs, c.want)
		}
	}
}

// TestGradChecksDetectErrors computes a correct gradient and checks that
// both checks pass it and fail it once perturbed: the comparison with a
// peer's files (here written from our own gradient) by one element off
// by a relative 1e-5, central differences by one operand's gradient
// scaled by 1 + 1e-4 (a directional test sees the sum over all elements).
func TestGradChecksDetectErrors(t *testing.T) {
	subs, shapes := "abc,cde,efa,bdf->", [][]int{{2, 3, 4}, {4, 3, 2}, {2, 3, 2}, {3, 3, 3}}
	for _, pairwise := range []bool{false, true} {
		gp, err := compileGrad(tf.Float64, subs, shapes, pairwise)
		if err != nil {
			t.Fatal(err)
		}
		ops, err := suiteInputs[float64](gp.plan.Problem, shapes, 5)
		if err != nil {
			t.Fatal(err)
		}
		e := cpu.Serial()
		pp, err := program.Prepare(gp.grad, e)
		if err != nil {
			t.Fatal(err)
		}
		vals := make([]tf.Value, len(ops))
		for k := range ops {
			vals[k] = tf.ValueOf(ops[k])
		}
		res, err := pp.Run(vals...)
		if err != nil {
			t.Fatal(err)
		}
		grads := make([]*tf.Tensor[float64], len(res))
		files := make([]string, len(res))
		dir := t.TempDir()
		for k, v := range res {
			grads[k] = v.Tensor().(*tf.Tensor[float64])
			d, _ := grads[k].Data()
			files[k] = filepath.Join(dir, string(rune('a'+k))+".npy")
			if err := writeNPYFile(files[k], &npy.Array{Shape: reversed(grads[k].Shape()), Data: slices.Clone(d)}); err != nil {
				t.Fatal(err)
			}
		}
		tol := gradTolerance[float64](len(ops))
		if r, err := compareGradFiles(grads, files); err != nil || r != 0 {
			t.Fatalf("pairwise %v: own files: %v %v", pairwise, r, err)
		}
		if r, err := centralDiffError(e, subs, shapes, ops, grads); err != nil || !(r <= tol) {
			t.Fatalf("pairwise %v: central differences on a correct gradient: err %v (tol %v) %v", pairwise, r, tol, err)
		}
		d, _ := grads[1].Data()
		i := 0
		for j := range d {
			if math.Abs(d[j]) > math.Abs(d[i]) {
				i = j
			}
		}
		d[i] *= 1 + 1e-5
		if r, err := compareGradFiles(grads, files); err != nil || !(r > tol) {
			t.Errorf("pairwise %v: an element off by 1e-5 passed: %v (tol %v) %v", pairwise, r, tol, err)
		}
		d[i] /= 1 + 1e-5
		for j := range d {
			d[j] *= 1 + 1e-4
		}
		if r, err := centralDiffError(e, subs, shapes, ops, grads); err != nil || !(r > tol) {
			t.Errorf("pairwise %v: a gradient scaled by 1+1e-4 passed central differences: %v (tol %v) %v", pairwise, r, tol, err)
		}
		// A peer file of the wrong shape is an error, not a pass.
		if _, err := compareGradFiles(grads[:1], files[1:2]); err == nil {
			t.Errorf("pairwise %v: a gradient file of another operand was accepted", pairwise)
		}
		e.Close()
	}
}

// TestGradTolerance pins the documented bounds.
func TestGradTolerance(t *testing.T) {
	for _, c := range []struct {
		got, want float64
	}{
		{gradTolerance[float64](1), 1e-7},
		{gradTolerance[float64](100), 1e-6},
		{gradTolerance[float32](100), 1e-3},
		{gradTolerance[complex128](4), 4e-7},
		{gradTolerance[complex64](1), 2e-4},
	} {
		if math.Abs(c.got-c.want) > 1e-12*c.want {
			t.Errorf("tol %v, want %v", c.got, c.want)
		}
	}
}
