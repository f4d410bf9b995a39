package instances

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// dataDir returns the public instance folder or skips the test.
func dataDir(t *testing.T) string {
	t.Helper()
	dir, ok := FindDir()
	if !ok {
		t.Skipf("einsum instance data not found (set %s or provide ../shared/einsum-instances)", EnvDir)
	}
	return dir
}

func TestLoadDirRealData(t *testing.T) {
	dir := dataDir(t)
	insts, err := LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(insts) == 0 {
		t.Fatal("no instances")
	}
	byName := map[string]Instance{}
	for i, in := range insts {
		if i > 0 && insts[i-1].Name >= in.Name {
			t.Fatalf("not sorted: %q before %q", insts[i-1].Name, in.Name)
		}
		if err := in.Validate(); err != nil {
			t.Fatal(err)
		}
		for _, key := range []string{"opt_flops", "opt_size"} {
			p, ok := in.Paths[key]
			if !ok {
				t.Errorf("%s: no %s path", in.Name, key)
				continue
			}
			if len(p) != len(in.Shapes)-1 {
				t.Errorf("%s: %s path has %d steps for %d operands", in.Name, key, len(p), len(in.Shapes))
			}
			if c, ok := in.PathCosts[key]; !ok || c.Log10Flops <= 0 {
				t.Errorf("%s: %s has no cost", in.Name, key)
			}
		}
		byName[in.Name] = in
	}
	// Load of each single instance file agrees with LoadDir.
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	loaded := 0
	for _, f := range files {
		if filepath.Base(f) == "permutation_patterns.json" {
			continue
		}
		one, err := Load(f)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(one, byName[one.Name]) {
			t.Errorf("%s: Load and LoadDir disagree", f)
		}
		loaded++
	}
	if loaded != len(insts) {
		t.Errorf("LoadDir returned %d instances, %d files load", len(insts), loaded)
	}
	// Spot checks of one well-known file against its documented content.
	for _, in := range insts {
		if in.Name == "bin_matmul_256" {
			if in.Subscripts != "ji,kj->ki" || in.RowMajorSubscripts != "ij,jk->ik" ||
				!reflect.DeepEqual(in.Shapes, [][]int{{256, 256}, {256, 256}}) || in.DType != "float64" ||
				!reflect.DeepEqual(in.Paths["opt_flops"], [][2]int{{0, 1}}) {
				t.Errorf("bin_matmul_256 loaded as %+v", in)
			}
		}
	}
}

func TestLoadPermutationsRealData(t *testing.T) {
	dir := dataDir(t)
	path := filepath.Join(dir, "permutation_patterns.json")
	if _, err := os.Stat(path); err != nil {
		t.Skip("no permutation_patterns.json")
	}
	ps, err := LoadPermutations(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) == 0 {
		t.Fatal("no patterns")
	}
	sawStrides := false
	for _, p := range ps {
		if err := p.Validate(); err != nil {
			t.Fatal(err)
		}
		if p.DType != "float64" {
			t.Errorf("%s: dtype %q", p.ID, p.DType)
		}
		sawStrides = sawStrides || p.SrcStrides != nil
	}
	if !sawStrides {
		t.Log("no explicit-stride pattern in the data")
	}
}

func TestBuiltinPermutations(t *testing.T) {
	ps := BuiltinPermutations()
	ids := map[string]bool{}
	for _, p := range ps {
		if err := p.Validate(); err != nil {
			t.Fatal(err)
		}
		if ids[p.ID] {
			t.Fatalf("duplicate id %q", p.ID)
		}
		ids[p.ID] = true
		n := 1
		for _, d := range p.Shape {
			n *= d
		}
		if n < 1<<18 || n > 1<<24 {
			t.Errorf("%s: %d elements, outside [2^18, 2^24]", p.ID, n)
		}
	}
	for _, want := range []string{"transpose_2d_2048", "rotate_3d_256_201", "reverse_22d_2"} {
		if !ids[want] {
			t.Errorf("missing %s", want)
		}
	}
}

func writeFile(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadSynthetic(t *testing.T) {
	dir := t.TempDir()
	// Row-major only: the column-major form is derived.
	p := writeFile(t, dir, "x.json", `{"format_string": "abc,cd->abd", "shapes": [[2,3,4],[4,5]], "dtype": "f32",
		"paths": {"opt_flops": {"path": [[0, 1]], "log10_flops": 2.1, "log2_size": 4.9}}}`)
	in, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	want := Instance{
		Name: "x", Subscripts: "cba,dc->dba", Shapes: [][]int{{4, 3, 2}, {5, 4}},
		RowMajorSubscripts: "abc,cd->abd", RowMajorShapes: [][]int{{2, 3, 4}, {4, 5}}, DType: "float32",
		Paths:     map[string][][2]int{"opt_flops": {{0, 1}}},
		PathCosts: map[string]PathCost{"opt_flops": {Log10Flops: 2.1, Log2Size: 4.9}},
	}
	if !reflect.DeepEqual(in, want) {
		t.Fatalf("got %+v\nwant %+v", in, want)
	}
	bad := map[string]string{
		"not json":            `{`,
		"no subscripts":       `{"shapes": [[2]]}`,
		"shape count":         `{"format_string_colmajor": "ab,bc->ac", "shapes_colmajor": [[2,3]]}`,
		"rank":                `{"format_string_colmajor": "ab,bc->ac", "shapes_colmajor": [[2,3],[3]]}`,
		"extent clash":        `{"format_string_colmajor": "ab,bc->ac", "shapes_colmajor": [[2,3],[4,5]]}`,
		"negative extent":     `{"format_string_colmajor": "ab->a", "shapes_colmajor": [[2,-3]]}`,
		"unknown output":      `{"format_string_colmajor": "ab->z", "shapes_colmajor": [[2,3]]}`,
		"two arrows":          `{"format_string_colmajor": "ab->a->b", "shapes_colmajor": [[2,3]]}`,
		"stray dot":           `{"format_string_colmajor": "a.b->a", "shapes_colmajor": [[2,3]]}`,
		"dtype":               `{"format_string_colmajor": "a->a", "shapes_colmajor": [[2]], "dtype": "int32"}`,
		"num_tensors":         `{"format_string_colmajor": "a->a", "shapes_colmajor": [[2]], "num_tensors": 3}`,
		"path step arity":     `{"format_string_colmajor": "a,a->", "shapes_colmajor": [[2],[2]], "paths": {"p": {"path": [[0,1,2]]}}}`,
		"path out of range":   `{"format_string_colmajor": "a,a->", "shapes_colmajor": [[2],[2]], "paths": {"p": {"path": [[0,2]]}}}`,
		"path repeats":        `{"format_string_colmajor": "a,a->", "shapes_colmajor": [[2],[2]], "paths": {"p": {"path": [[1,1]]}}}`,
		"path too long":       `{"format_string_colmajor": "a,a->", "shapes_colmajor": [[2],[2]], "paths": {"p": {"path": [[0,1],[0,1]]}}}`,
		"row-major disagrees": `{"format_string": "ab,bc->ac", "shapes": [[2,3],[3,4]], "format_string_colmajor": "ab,bc->ac", "shapes_colmajor": [[2,3],[3,4]]}`,
	}
	for name, body := range bad {
		_, err := Load(writeFile(t, dir, "bad.json", body))
		if !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: got %v, want ErrInvalid", name, err)
		}
	}
	if _, err := Load(filepath.Join(dir, "missing.json")); err == nil || errors.Is(err, ErrInvalid) {
		t.Errorf("missing file: got %v", err)
	}
	// Broadcasting extents of 1 are accepted.
	if _, err := Load(writeFile(t, dir, "b.json", `{"format_string_colmajor": "ab,ab->ab", "shapes_colmajor": [[2,1],[2,5]]}`)); err != nil {
		t.Errorf("broadcast: %v", err)
	}
}

func TestLoadDirSynthetic(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "b.json", `{"name": "zeta", "format_string_colmajor": "a->a", "shapes_colmajor": [[2]]}`)
	writeFile(t, dir, "a.json", `{"format_string_colmajor": "ab,b->a", "shapes_colmajor": [[2,3],[3]]}`)
	writeFile(t, dir, "perm.json", `{"patterns": []}`)
	writeFile(t, dir, "notes.txt", `ignored`)
	insts, err := LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(insts) != 2 || insts[0].Name != "a" || insts[1].Name != "zeta" {
		t.Fatalf("got %+v", insts)
	}
	writeFile(t, dir, "c.json", `{"name": "a", "format_string_colmajor": "a->a", "shapes_colmajor": [[2]]}`)
	if _, err := LoadDir(dir); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "duplicate") {
		t.Fatalf("duplicate names: got %v", err)
	}
}

func TestLoadPermutationsSynthetic(t *testing.T) {
	dir := t.TempDir()
	p := writeFile(t, dir, "p.json", `{"index_base": 1, "patterns": [
		{"id": "t", "dtype": "f64", "shape": [2, 3, 4], "perm": [3, 1, 2],
		 "src_layout": {"kind": "row_major"}, "dst_layout": {"kind": "explicit_strides", "strides": [1, 4, 12]}}]}`)
	ps, err := LoadPermutations(p)
	if err != nil {
		t.Fatal(err)
	}
	want := []Permutation{{ID: "t", DType: "float64", Shape: []int{2, 3, 4}, Perm: []int{2, 0, 1},
		SrcStrides: []int{12, 4, 1}, DstStrides: []int{1, 4, 12}}}
	if !reflect.DeepEqual(ps, want) {
		t.Fatalf("got %+v", ps)
	}
	for name, body := range map[string]string{
		"not json":     `[`,
		"no patterns":  `{}`,
		"no id":        `{"patterns": [{"dtype": "f64", "shape": [2], "perm": [0]}]}`,
		"duplicate id": `{"patterns": [{"id": "a", "shape": [2], "perm": [0]}, {"id": "a", "shape": [2], "perm": [0]}]}`,
		"bad perm":     `{"patterns": [{"id": "a", "shape": [2, 2], "perm": [0, 0]}]}`,
		"perm length":  `{"patterns": [{"id": "a", "shape": [2, 2], "perm": [0]}]}`,
		"bad dtype":    `{"patterns": [{"id": "a", "dtype": "i8", "shape": [2], "perm": [0]}]}`,
		"bad layout":   `{"patterns": [{"id": "a", "shape": [2], "perm": [0], "src_layout": {"kind": "tiled"}}]}`,
		"stride count": `{"patterns": [{"id": "a", "shape": [2, 2], "perm": [1, 0], "src_layout": {"kind": "explicit_strides", "strides": [1]}}]}`,
		"negative":     `{"patterns": [{"id": "a", "shape": [-2], "perm": [0]}]}`,
	} {
		if _, err := LoadPermutations(writeFile(t, dir, "bad.json", body)); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: got %v, want ErrInvalid", name, err)
		}
	}
}

func TestFindDirEnv(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(EnvDir, dir)
	if got, ok := FindDir(); !ok || got != dir {
		t.Fatalf("got %q %v", got, ok)
	}
	t.Setenv(EnvDir, filepath.Join(dir, "absent"))
	if _, ok := FindDir(); ok {
		t.Fatal("absent directory reported as found")
	}
}

func TestReverseOperands(t *testing.T) {
	for in, want := range map[string]string{
		"bij,bjk->bik": "jib,kjb->kib",
		"ab...,c->":    "...ba,c->",
		"i,j":          "i,j",
		"éa,aß->ßé":    "aé,ßa->éß",
	} {
		if got := reverseOperands(in); got != want {
			t.Errorf("reverseOperands(%q) = %q, want %q", in, got, want)
		}
		if got := reverseOperands(reverseOperands(in)); got != in {
			t.Errorf("not an involution on %q", in)
		}
	}
}
