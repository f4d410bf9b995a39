package einsum

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const numpyScript = `
import json, sys
import numpy as np
out = []
for c in json.load(open(sys.argv[1])):
    ops = [np.empty(s) for s in c["shapes"]]
    opt = ("optimal", 1e30) if len(ops) > 2 else "greedy"
    path, text = np.einsum_path(c["subs"], *ops, optimize=opt)
    d = {}
    for line in text.splitlines():
        if ":" not in line:
            continue
        key, val = [x.strip() for x in line.split(":", 1)]
        if key == "Complete contraction":
            d["complete"] = val
        elif key == "Naive FLOP count":
            d["naive"] = float(val)
        elif key == "Optimized FLOP count":
            d["opt"] = float(val)
    out.append(d)
json.dump(out, sys.stdout)
`

// TestNumPy compares the implicit output, the naive FLOP count and the
// optimal FLOP count with numpy.einsum_path (optimize=("optimal", inf)),
// where /usr/bin/python3 has NumPy. NumPy prints FLOPs with 4 significant
// digits and adds 1 to the optimized count.
func TestNumPy(t *testing.T) {
	const py = "/usr/bin/python3"
	if _, err := os.Stat(py); err != nil {
		t.Skip("no " + py)
	}
	if err := exec.Command(py, "-c", "import numpy").Run(); err != nil {
		t.Skip("no numpy for " + py)
	}
	type tcase struct {
		Subs   string  `json:"subs"`
		Shapes [][]int `json:"shapes"`
	}
	cases := []tcase{
		{"ij,jk->ik", [][]int{{3, 4}, {4, 5}}},
		{"ij,jk", [][]int{{3, 4}, {4, 5}}},
		{"ba,Ab", [][]int{{3, 4}, {5, 3}}},
		{"zZaA", [][]int{{2, 3, 4, 5}}},
		{"ii", [][]int{{3, 3}}},
		{"jii", [][]int{{2, 3, 3}}},
		{"i,i", [][]int{{4}, {4}}},
		{"ij,jk,kl->il", [][]int{{2, 3}, {3, 4}, {4, 5}}},
		{"ea,fb,abcd,gc,hd->efgh", [][]int{{10, 10}, {10, 10}, {10, 10, 10, 10}, {10, 10}, {10, 10}}},
		{"abc,cd,de,ea->b", [][]int{{2, 3, 4}, {4, 5}, {5, 6}, {6, 2}}},
		{"ab,bc,cd,de,ef,fa->", [][]int{{2, 3}, {3, 7}, {7, 3}, {3, 5}, {5, 3}, {3, 2}}},
		{"ijk,jl,kl->il", [][]int{{2, 3, 4}, {3, 5}, {4, 5}}},
		{"bij,bjk,bkl->bil", [][]int{{2, 3, 4}, {2, 4, 5}, {2, 5, 6}}},
	}
	// Random networks: explicit outputs, no broadcasting, at least one
	// summed label (NumPy does not optimize when every label is kept).
	rng := rand.New(rand.NewPCG(11, 12))
	for len(cases) < 60 {
		n := 3 + rng.IntN(4)
		ext := make([]int, 8)
		for i := range ext {
			ext[i] = 2 + rng.IntN(5)
		}
		var terms []string
		var shapes [][]int
		used := map[byte]int{}
		for range n {
			var term []byte
			var shape []int
			for range 1 + rng.IntN(3) {
				l := byte(rng.IntN(8))
				if strings.IndexByte(string(term), 'a'+l) >= 0 {
					continue
				}
				term = append(term, 'a'+l)
				shape = append(shape, ext[l])
				used['a'+l]++
			}
			terms = append(terms, string(term))
			shapes = append(shapes, shape)
		}
		var out []byte
		for l := byte('a'); l <= 'h'; l++ {
			if used[l] > 0 && rng.IntN(3) == 0 {
				out = append(out, l)
			}
		}
		if len(out) == len(used) {
			continue
		}
		cases = append(cases, tcase{strings.Join(terms, ",") + "->" + string(out), shapes})
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "cases.json")
	raw, _ := json.Marshal(cases)
	if err := os.WriteFile(in, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, "check.py")
	if err := os.WriteFile(script, []byte(numpyScript), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := exec.Command(py, script, in).Output()
	if err != nil {
		t.Fatalf("numpy: %v", err)
	}
	var got []struct {
		Complete string
		Naive    float64
		Opt      float64
	}
	if err := json.Unmarshal(res, &got); err != nil {
		t.Fatal(err)
	}
	close := func(a, b float64) bool { return math.Abs(a-b) <= 5e-4*math.Abs(b) }
	for i, c := range cases {
		p := mustBind(t, c.Subs, c.Shapes...)
		np := got[i]
		if p.Subscripts() != np.Complete {
			t.Errorf("%s: subscripts %q, numpy %q", c.Subs, p.Subscripts(), np.Complete)
		}
		pl, err := NewPlan(p, Options{Strategy: Optimal})
		if err != nil {
			t.Fatal(err)
		}
		if !close(pl.NaiveFlops, np.Naive) {
			t.Errorf("%s: naive %g, numpy %g", c.Subs, pl.NaiveFlops, np.Naive)
		}
		if len(p.Inputs) >= 2 && !close(pl.Flops+1, np.Opt) {
			t.Errorf("%s: optimal %g (+1), numpy %g", c.Subs, pl.Flops, np.Opt)
		}
	}
}
