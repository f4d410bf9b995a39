package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/einsum"
	"github.com/tenferro-go/tenferro/internal/instances"
)

func decodeRows(t *testing.T, out string) []suiteRow {
	t.Helper()
	var rows []suiteRow
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	// The documented field names are present.
	var raw []map[string]any
	json.Unmarshal([]byte(out), &raw)
	for _, r := range raw {
		for _, k := range []string{"name", "strategy", "threads", "median_ms", "iqr_ms", "gflops", "plan_ms", "peak_bytes", "check"} {
			if _, ok := r[k]; !ok {
				t.Errorf("row lacks %q: %v", k, r)
			}
		}
	}
	return rows
}

func TestSuiteBuiltinJSON(t *testing.T) {
	names := []string{"builtin_permuted_contraction_5d", "builtin_mera_closed_8", "builtin_matmul_256"}
	args := append([]string{"suite", "--json", "--runs", "2", "--threads", "2"}, names...)
	code, out, errs := runCLI(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if strings.Count(errs, "suite [") != len(names) {
		t.Errorf("want one progress line per instance:\n%s", errs)
	}
	rows := decodeRows(t, out)
	if len(rows) != len(names) {
		t.Fatalf("%d rows", len(rows))
	}
	for i, r := range rows {
		if r.Name != names[i] || r.Check != "ok" || r.Strategy != "auto" || r.Threads != 2 || r.Runs != 2 {
			t.Errorf("row %+v", r)
		}
		if r.MedianMS <= 0 || r.GFlops <= 0 || r.Flops <= 0 || r.PeakBytes <= 0 || len(r.Path) != r.Operands-1 {
			t.Errorf("%s: numbers %+v", r.Name, r)
		}
		if r.Subscripts == "" || len(r.Shapes) != r.Operands {
			t.Errorf("%s: subscripts %q shapes %v", r.Name, r.Subscripts, r.Shapes)
		}
	}
	// The MERA has many steps: its intermediates come from the pool, and a
	// different path was evaluated for the check.
	if m := rows[1]; m.PoolBytes <= 0 || !strings.Contains(m.CheckNote, "path") {
		t.Errorf("mera: pool %d, note %q", m.PoolBytes, m.CheckNote)
	}
	// Two operands have only one path: the direct sums check it.
	if m := rows[2]; !strings.Contains(m.CheckNote, "direct") {
		t.Errorf("matmul: note %q", m.CheckNote)
	}
}

// TestSuiteMemoryFraction: with --memory-fraction each row carries the
// sliced evaluation: a network is sliced, its result checked against the
// unsliced one and its measured peak equal to the planned one; a single
// product, which holds no intermediate, is reported as nothing to slice.
func TestSuiteMemoryFraction(t *testing.T) {
	code, out, errs := runCLI(t, "suite", "--json", "--runs", "1", "--memory-fraction", "0.125", "builtin_mera_closed_8", "builtin_matmul_256")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	rows := decodeRows(t, out)
	if len(rows) != 2 || rows[0].Sliced == nil || rows[1].Sliced == nil {
		t.Fatalf("rows %+v", rows)
	}
	m := rows[0].Sliced
	if m.Slices < 2 || m.Check != "ok" || m.MedianMS <= 0 || m.Ratio <= 0 || m.FlopOverhead < 1 ||
		m.PlannedPeakBytes <= 0 || m.MeasuredPeakBytes != m.PlannedPeakBytes || m.PlannedPeakBytes > m.LimitBytes {
		t.Errorf("mera sliced: %+v", m)
	}
	if p := rows[1].Sliced; p.Slices != 0 || !strings.Contains(p.Note, "nothing to slice") {
		t.Errorf("matmul sliced: %+v", p)
	}
	code, out, errs = runCLI(t, "suite", "--runs", "1", "--memory-fraction", "0.125", "builtin_mera_closed_8")
	if code != 0 || !strings.Contains(out, "sliced under 0.125") || !strings.Contains(out, "measured peak MiB") {
		t.Errorf("table: exit %d\n%s%s", code, out, errs)
	}
}

func TestSuiteTable(t *testing.T) {
	code, out, errs := runCLI(t, "suite", "--runs", "1", "builtin_hadamard_1024", "builtin_outer_product_1000")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "GFLOP/s") || strings.Count(out, " ok") != 2 {
		t.Errorf("table:\n%s", out)
	}
}

func TestSuiteSharedInstances(t *testing.T) {
	dir, ok := instances.FindDir()
	if !ok {
		t.Skip("public instance data not found")
	}
	names := []string{"nary_matmul_chain_64", "str_matrix_chain_multiplication_100"}
	if !testing.Short() {
		names = append(names, "lm_batch_likelihood_sentence_3_12d")
	}
	for _, strategy := range []string{"opt_size", "opt_flops"} {
		args := append([]string{"suite", "--json", "--runs", "1", "--strategy", strategy, "--instances", dir}, names...)
		code, out, errs := runCLI(t, args...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		rows := decodeRows(t, out)
		all, _ := instances.LoadDir(dir)
		for i, r := range rows {
			in := all[slices.IndexFunc(all, func(in instances.Instance) bool { return in.Name == names[i] })]
			if r.Check != "ok" || r.Strategy != strategy {
				t.Errorf("%s: %+v", r.Name, r)
			}
			// A shipped path is evaluated as given (pairs may swap sides).
			if !samePath(r.Path, in.Paths[strategy]) {
				t.Errorf("%s: path %v, shipped %v", r.Name, r.Path, in.Paths[strategy])
			}
		}
	}
}

func TestSuiteBadInput(t *testing.T) {
	empty := t.TempDir()
	bad := t.TempDir()
	os.WriteFile(filepath.Join(bad, "x.json"), []byte(`{"format_string": "ij,jk->ik", "shapes": [[2, 3], [4, 5]], "dtype": "float64"}`), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"suite", "--strategy", "fastest"}, "--strategy"},
		{[]string{"suite", "--runs", "0"}, "--runs"},
		{[]string{"suite", "--memory-fraction", "1.5"}, "--memory-fraction"},
		{[]string{"suite", "--memory-fraction", "NaN"}, "--memory-fraction"},
		{[]string{"suite", "--threads", "0"}, "--threads"},
		{[]string{"suite", "no_such_instance"}, "no instance named"},
		{[]string{"suite", "--instances", filepath.Join(empty, "missing")}, "missing"},
		{[]string{"suite", "--instances", empty}, "no instance files"},
		{[]string{"suite", "--instances", bad}, "x.json"},
	} {
		code, out, errs := runCLI(t, c.args...)
		if code != 2 || out != "" || !oneLine(errs) || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stderr %q (want exit 2 and one line with %q)", c.args[1:], code, errs, c.want)
		}
	}
}

func builtinInstance(t *testing.T, name string) instances.Instance {
	t.Helper()
	all := instances.Builtin(1)
	i := slices.IndexFunc(all, func(in instances.Instance) bool { return in.Name == name })
	if i < 0 {
		t.Fatalf("no builtin %s", name)
	}
	return all[i]
}

// TestCheckDetectsErrors perturbs one element of a correct result by a
// relative 1e-9 (float64), far below any visible change but far above the
// rounding bound, and expects both kinds of check to fail.
func TestCheckDetectsErrors(t *testing.T) {
	for _, c := range []struct{ name, via string }{
		{"builtin_mera_closed_8", "path"},
		{"builtin_permuted_contraction_5d", "direct"},
	} {
		in := builtinInstance(t, c.name)
		chosen, alts := choices(in, "auto")
		plan, err := tf.PrepareEinsum(tf.Float64, in.Subscripts, in.Shapes, chosen.opts...)
		if err != nil {
			t.Fatal(err)
		}
		ops, err := suiteInputs[float64](plan.Plan().Problem, in.Shapes, 3)
		if err != nil {
			t.Fatal(err)
		}
		e := cpu.Serial()
		r, err := tf.EinsumPlanned(e, plan, ops...)
		if err != nil {
			t.Fatal(err)
		}
		if got, note := checkResult(e, plan, in.Subscripts, in.Shapes, alts, ops, r); got != "ok" || !strings.Contains(note, c.via) {
			t.Fatalf("%s: correct result: %s %s", c.name, got, note)
		}
		d, _ := r.Data()
		d[0] *= 1 + 1e-9 // element 0 is among the direct check's samples
		if got, note := checkResult(e, plan, in.Subscripts, in.Shapes, alts, ops, r); got != "FAIL" {
			t.Errorf("%s: perturbed result passed: %s", c.name, note)
		}
	}
}

// TestSuiteInputsScale checks that the input scaling keeps a long
// network's value of order 1 (without it, the MPS of 17 sites with bonds up
// to 64 would reach about 1e30).
func TestSuiteInputsScale(t *testing.T) {
	in := builtinInstance(t, "builtin_mps_inner_product_17")
	for _, dt := range []string{"f64", "c64"} {
		plan, err := tf.PrepareEinsum(map[string]tf.DType{"f64": tf.Float64, "c64": tf.Complex64}[dt], in.Subscripts, in.Shapes)
		if err != nil {
			t.Fatal(err)
		}
		var v float64
		if dt == "f64" {
			ops, _ := suiteInputs[float64](plan.Plan().Problem, in.Shapes, 1)
			r, err := tf.EinsumPlanned(cpu.Serial(), plan, ops...)
			if err != nil {
				t.Fatal(err)
			}
			x, _ := r.At()
			v = x
		} else {
			ops, _ := suiteInputs[complex64](plan.Plan().Problem, in.Shapes, 1)
			r, err := tf.EinsumPlanned(cpu.Serial(), plan, ops...)
			if err != nil {
				t.Fatal(err)
			}
			x, _ := r.At()
			v = toAbs(x)
		}
		if !(v > 1e-3 && v < 1e3) {
			t.Errorf("%s: value %g is not of order 1", dt, v)
		}
	}
}

func TestPeakElements(t *testing.T) {
	// ab,bc,cd->ad with path (0,1),(0,1): the first result (a,c) = 2x3 is
	// alive while the second (a,d) = 2x5 is made: peak 6 + 10.
	expr, _ := einsum.Parse("ab,bc,cd->ad")
	prob, err := expr.Bind([][]int{{2, 7}, {7, 3}, {3, 5}})
	if err != nil {
		t.Fatal(err)
	}
	pl, err := einsum.NewPlan(prob, einsum.Options{Strategy: einsum.Given, Path: [][2]int{{0, 1}, {0, 1}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := peakElements(pl); got != 16 {
		t.Errorf("peak %v, want 16", got)
	}
	if got := roundingTerms(pl); got != 3+7+2+3+2 {
		t.Errorf("rounding terms %v", got)
	}
}

func TestLetterSubscripts(t *testing.T) {
	got, err := letterSubscripts("a×,×1->a1")
	if err != nil {
		t.Fatal(err)
	}
	expr, err := einsum.Parse(got)
	if err != nil {
		t.Fatalf("%q: %v", got, err)
	}
	// Same structure: label of operand 0 axis 1 equals operand 1 axis 0,
	// output is (operand 0 axis 0, operand 1 axis 1), all distinct.
	in, out := expr.Inputs, expr.Output
	if in[0][1] != in[1][0] || out[0] != in[0][0] || out[1] != in[1][1] || in[0][0] == in[0][1] || in[1][1] == in[0][1] {
		t.Errorf("%q -> %q: %v -> %v", "a×,×1->a1", got, in, out)
	}
	if same, _ := letterSubscripts("ij,jk->ik"); same != "ij,jk->ik" {
		t.Errorf("letters changed: %q", same)
	}
	if _, err := letterSubscripts("1,1"); err == nil {
		t.Error("implicit output with symbols accepted")
	}
}

func TestChoices(t *testing.T) {
	in := instances.Instance{Paths: map[string][][2]int{"opt_flops": {{0, 1}}, "opt_size": {{1, 0}}}}
	names := func(c pathChoice, alts []pathChoice) []string {
		s := []string{c.name}
		for _, a := range alts {
			s = append(s, a.name)
		}
		return s
	}
	for _, c := range []struct {
		strategy string
		want     []string
	}{
		{"", []string{"opt_flops", "opt_size", "auto", "greedy", "random-greedy", "search"}},
		{"opt_size", []string{"opt_size", "opt_flops", "auto", "greedy", "random-greedy", "search"}},
		{"auto", []string{"auto", "opt_flops", "opt_size", "greedy", "random-greedy", "search"}},
	} {
		if got := names(choices(in, c.strategy)); !slices.Equal(got, c.want) {
			t.Errorf("%q: %v, want %v", c.strategy, got, c.want)
		}
	}
	if got := names(choices(instances.Instance{}, "opt_size")); !slices.Equal(got, []string{"auto", "greedy", "random-greedy", "search"}) {
		t.Errorf("no shipped paths: %v", got)
	}
}

// TestPeerScript runs bench/peers/einsum_peers.py on suite rows written by
// the CLI (the peers need NumPy; PyTorch is used when present).
func TestPeerScript(t *testing.T) {
	if testing.Short() || !numpyOK() {
		t.Skip("needs " + pythonPath + " with numpy; not in -short")
	}
	code, out, errs := runCLI(t, "suite", "--json", "--runs", "1", "builtin_permuted_contraction_5d", "builtin_mera_closed_8")
	if code != 0 {
		t.Fatalf("suite: exit %d: %s", code, errs)
	}
	rowsFile := writeTemp(t, "rows.json", out)
	jsonOut := filepath.Join(t.TempDir(), "peers.json")
	cmd := exec.Command(pythonPath, "../../bench/peers/einsum_peers.py", "--suite-json", rowsFile, "--runs", "1", "--json", jsonOut)
	table, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v: %s", err, table)
	}
	if !strings.Contains(string(table), "geometric mean") || strings.Contains(string(table), "disagree") {
		t.Errorf("table:\n%s", table)
	}
	data, err := os.ReadFile(jsonOut)
	if err != nil {
		t.Fatal(err)
	}
	var peers []map[string]any
	if err := json.Unmarshal(data, &peers); err != nil || len(peers) != 2 {
		t.Fatalf("%v: %s", err, data)
	}
	for _, p := range peers {
		if v, _ := p["numpy_ms"].(float64); v <= 0 {
			t.Errorf("row %v", p)
		}
	}
}
