package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tenferro-go/tenferro/npy"
)

// numpyOK reports whether the peer interpreter has NumPy.
func numpyOK() bool {
	return exec.Command(pythonPath, "-c", "import numpy").Run() == nil
}

// einsumCase is one end-to-end case: NumPy writes the inputs (with the
// given dtypes and memory orders), the CLI evaluates, NumPy compares.
// K is the number of products summed into one output element.
type einsumCase struct {
	Name   string   `json:"name"`
	Subs   string   `json:"subs"`
	Shapes [][]int  `json:"shapes"`
	DTypes []string `json:"dtypes"`
	Orders string   `json:"orders"` // one 'C' or 'F' per operand
	K      int      `json:"k"`
	Flags  []string `json:"-"`
	// CLISubs, when set, is what the CLI evaluates instead of Subs: a
	// negative control that the checker must reject.
	CLISubs string `json:"-"`
}

// The generator writes dir/<name>_<k>.npy for every operand; the checker
// loads dir/<name>_out.npy and compares it with np.einsum in complex128
// with the rounding bound |err| <= (K + n) * eps * einsum(|a|, |b|, ...)
// (K terms summed, n factors per term, eps of the result's dtype),
// doubled for slack in the reference. It prints a JSON object
// {name: "ok" or a message}.
const einsumE2EScript = `
import json, sys
import numpy as np
cfg = json.load(sys.stdin)
rng = np.random.default_rng(7)
res = {}
for c in cfg["cases"]:
    names = ["%s/%s_%d.npy" % (cfg["dir"], c["name"], k) for k in range(len(c["shapes"]))]
    if cfg["mode"] == "gen":
        for k, (shape, dt, order) in enumerate(zip(c["shapes"], c["dtypes"], c["orders"])):
            x = np.asarray(rng.standard_normal(tuple(shape)))
            if np.dtype(dt).kind == "c":
                x = x + 1j * np.asarray(rng.standard_normal(tuple(shape)))
            x = np.array(x.astype(dt), order=order)
            np.save(names[k], x)
        continue
    ops = [np.load(n) for n in names]
    got = np.load("%s/%s_out.npy" % (cfg["dir"], c["name"]))
    want = np.einsum(c["subs"], *[o.astype(np.complex128) for o in ops])
    absref = np.einsum(c["subs"], *[np.abs(o).astype(np.float64) for o in ops])
    rdt = np.result_type(*ops)
    msg = "ok"
    if got.dtype != rdt:
        msg = "dtype %s, want %s" % (got.dtype, rdt)
    elif got.shape != want.shape:
        msg = "shape %s, want %s" % (got.shape, want.shape)
    else:
        eps = np.finfo(rdt).eps
        tol = 2 * (c["k"] + len(ops)) * eps * absref
        err = np.abs(got.astype(np.complex128) - want)
        if not np.all(err <= tol):
            i = np.argmax(err - tol)
            msg = "max excess at %d: err %g tol %g" % (i, err.flat[i], tol.flat[i])
    res[c["name"]] = msg
print(json.dumps(res))
`

func runNumpy(t *testing.T, script string, input any) map[string]string {
	t.Helper()
	var out map[string]string
	if err := runPeer(script, 1, input, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestEinsumEndToEndNumPy(t *testing.T) {
	if !numpyOK() {
		t.Skip(pythonPath + " lacks numpy")
	}
	dir := t.TempDir()
	pathFile := filepath.Join(dir, "chain_path.json")
	if err := os.WriteFile(pathFile, []byte("[[2, 3], [0, 1], [0, 1]]"), 0o644); err != nil {
		t.Fatal(err)
	}
	pathObj := filepath.Join(dir, "chain_obj.json")
	if err := os.WriteFile(pathObj, []byte(`{"path": [[0, 1], [1, 0], [0, 1]], "flops": 1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []einsumCase{
		{Name: "matmul_c", Subs: "ij,jk->ik", Shapes: [][]int{{5, 7}, {7, 3}}, DTypes: []string{"float64", "float64"}, Orders: "CC", K: 7},
		{Name: "matmul_mixed", Subs: "ij,jk->ik", Shapes: [][]int{{13, 31}, {31, 11}}, DTypes: []string{"float32", "complex64"}, Orders: "FC", K: 31},
		{Name: "promote_c128", Subs: "ijk,kj->i", Shapes: [][]int{{4, 6, 5}, {5, 6}}, DTypes: []string{"float64", "complex64"}, Orders: "CF", K: 30},
		{Name: "f32_3d", Subs: "abc,cad->bd", Shapes: [][]int{{3, 17, 9}, {9, 3, 4}}, DTypes: []string{"float32", "float32"}, Orders: "CC", K: 27},
		{Name: "diag", Subs: "ii->i", Shapes: [][]int{{6, 6}}, DTypes: []string{"float64"}, Orders: "C", K: 1},
		{Name: "trace", Subs: "ii", Shapes: [][]int{{6, 6}}, DTypes: []string{"complex128"}, Orders: "F", K: 6},
		{Name: "dot_scalar", Subs: "i,i->", Shapes: [][]int{{10}, {10}}, DTypes: []string{"float64", "float64"}, Orders: "CC", K: 10},
		{Name: "rank0", Subs: ",ij->ji", Shapes: [][]int{{}, {2, 3}}, DTypes: []string{"float64", "float64"}, Orders: "CC", K: 1},
		{Name: "implicit", Subs: "ba,cb", Shapes: [][]int{{4, 3}, {2, 4}}, DTypes: []string{"float64", "float64"}, Orders: "CF", K: 4},
		{Name: "ellipsis", Subs: "...ij,...jk->...ik", Shapes: [][]int{{2, 1, 3, 4}, {5, 4, 2}}, DTypes: []string{"float64", "float64"}, Orders: "CC", K: 4},
		{Name: "broadcast1", Subs: "ij,ij->ij", Shapes: [][]int{{3, 1}, {3, 4}}, DTypes: []string{"float64", "float64"}, Orders: "CC", K: 1},
		{Name: "zero", Subs: "ij,jk->ik", Shapes: [][]int{{3, 0}, {0, 4}}, DTypes: []string{"float64", "float64"}, Orders: "CC", K: 0},
		{Name: "outer", Subs: "i,j->ij", Shapes: [][]int{{5}, {7}}, DTypes: []string{"complex64", "complex64"}, Orders: "CC", K: 1},
		{Name: "chain_greedy", Subs: "ab,bc,cd,de->ae", Shapes: [][]int{{8, 30}, {30, 5}, {5, 40}, {40, 9}}, DTypes: []string{"float64", "float64", "float64", "float64"}, Orders: "CFCF", K: 30 * 5 * 40, Flags: []string{"--path", "greedy"}},
		{Name: "chain_file", Subs: "ab,bc,cd,de->ae", Shapes: [][]int{{8, 30}, {30, 5}, {5, 40}, {40, 9}}, DTypes: []string{"float64", "float64", "float64", "float64"}, Orders: "CCCC", K: 30 * 5 * 40, Flags: []string{"--path", pathFile}},
		{Name: "chain_obj", Subs: "ab,bc,cd,de->ae", Shapes: [][]int{{8, 30}, {30, 5}, {5, 40}, {40, 9}}, DTypes: []string{"float64", "float64", "float64", "float64"}, Orders: "CCCC", K: 30 * 5 * 40, Flags: []string{"--path", pathObj, "--threads", "2"}},
		{Name: "control", Subs: "ij,jk->ik", CLISubs: "ji,jk->ik", Shapes: [][]int{{4, 4}, {4, 4}}, DTypes: []string{"float64", "float64"}, Orders: "CC", K: 4},
		{Name: "big_team", Subs: "ijk,jkl->il", Shapes: [][]int{{70, 20, 9}, {20, 9, 65}}, DTypes: []string{"float64", "float64"}, Orders: "CF", K: 180, Flags: []string{"--threads", "2", "--path", "optimal"}},
	}
	cfg := map[string]any{"dir": dir, "cases": cases, "mode": "gen"}
	runNumpy(t, einsumE2EScript, cfg)
	for _, c := range cases {
		args := []string{"einsum"}
		args = append(args, c.Flags...)
		subs := c.Subs
		if c.CLISubs != "" {
			subs = c.CLISubs
		}
		args = append(args, "-o", filepath.Join(dir, c.Name+"_out.npy"), subs)
		for k := range c.Shapes {
			args = append(args, filepath.Join(dir, c.Name+"_"+string(rune('0'+k))+".npy"))
		}
		if code, out, errs := runCLI(t, args...); code != 0 || out != "" {
			t.Fatalf("%s: exit %d: %s%s", c.Name, code, out, errs)
		}
	}
	cfg["mode"] = "check"
	res := runNumpy(t, einsumE2EScript, cfg)
	for _, c := range cases {
		if c.CLISubs != "" {
			if res[c.Name] == "ok" {
				t.Errorf("%s: the checker accepted a wrong result", c.Name)
			}
			continue
		}
		if res[c.Name] != "ok" {
			t.Errorf("%s (%s): %s", c.Name, c.Subs, res[c.Name])
		}
	}
}

func TestEinsumGo(t *testing.T) {
	// Without NumPy: a C-order file read back through the CLI keeps NumPy's
	// element (i, j); "ij->ji" of a 2x3 matrix checked by hand.
	dir := t.TempDir()
	in := filepath.Join(dir, "a.npy")
	f, err := os.Create(in)
	if err != nil {
		t.Fatal(err)
	}
	// Row-major data 0..5 of shape (2, 3): a[i, j] = 3i + j.
	if err := npy.WriteArray(f, &npy.Array{DType: npy.Float64, Shape: []int{2, 3}, Data: []float64{0, 1, 2, 3, 4, 5}}); err != nil {
		t.Fatal(err)
	}
	f.Close()
	out := filepath.Join(dir, "at.npy")
	if code, _, errs := runCLI(t, "einsum", "ij->ji", in, "-o", out); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	got, err := npy.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Shape, []int{3, 2}) {
		t.Fatalf("shape %v", got.Shape)
	}
	// at[j, i] = a[i, j] = 3i + j, column-major over (j, i).
	want := []float64{0, 1, 2, 3, 4, 5}
	if cm := got.ColumnMajor().([]float64); !slices.Equal(cm, want) {
		t.Fatalf("data %v, want %v", cm, want)
	}
}

func TestEinsumBadInput(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.npy")
	if err := npy.WriteFile(a, []int{2, 3}, []float64{1, 2, 3, 4, 5, 6}); err != nil {
		t.Fatal(err)
	}
	garbage := writeTemp(t, "garbage.npy", "not an npy file")
	badPath := writeTemp(t, "bad.json", "[[0, 1, 2]]")
	notJSON := writeTemp(t, "notjson.json", "{oops")
	outOfRange := writeTemp(t, "range.json", "[[0, 5]]")
	out := filepath.Join(dir, "o.npy")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"einsum", "-o", out, "ij->ji"}, "at least one IN.npy"},
		{[]string{"einsum", "ij->ji", a}, "missing -o"},
		{[]string{"einsum", "-o", out, "ij,j?->i", a, a}, "invalid character"},
		{[]string{"einsum", "-o", out, "ij,jk->ik", a, a}, "label 'j'"},
		{[]string{"einsum", "-o", out, "ijk->i", a}, "operand 0"},
		{[]string{"einsum", "-o", out, "ij->ji", filepath.Join(dir, "missing.npy")}, "missing.npy"},
		{[]string{"einsum", "-o", out, "ij->ji", garbage}, "operand 0"},
		{[]string{"einsum", "--path", badPath, "-o", out, "ij,jk->ik", a, a}, "3 positions"},
		{[]string{"einsum", "--path", notJSON, "-o", out, "ij->ji", a}, "path file"},
		{[]string{"einsum", "--path", outOfRange, "-o", out, "ij,ik->jk", a, a}, "path"},
		{[]string{"einsum", "--path", "fastest", "-o", out, "ij->ji", a}, "not a strategy"},
		{[]string{"einsum", "--threads", "0", "-o", out, "ij->ji", a}, "--threads"},
	} {
		code, stdout, errs := runCLI(t, c.args...)
		if code != 2 || stdout != "" || !oneLine(errs) || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stderr %q (want exit 2 and one line with %q)", c.args[1:], code, errs, c.want)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("a failed run wrote %s", out)
	}
	// An unwritable output is a failure (1), not bad input.
	if code, _, errs := runCLI(t, "einsum", "-o", filepath.Join(dir, "no", "dir", "o.npy"), "ij->ji", a); code != 1 || !oneLine(errs) {
		t.Errorf("unwritable output: exit %d, %q", code, errs)
	}
}
