package tenferro_test

import (
	"encoding/json"
	"fmt"
	"math/cmplx"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/backend/enginetest"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/npy"
)

type numpyCase struct {
	Sub    string  `json:"sub"`
	Shapes [][]int `json:"shapes"`
	DType  string  `json:"dtype"`
}

// TestEinsumNumPy compares with np.einsum on the grammar cases NumPy
// accepts and on random networks, in all four dtypes. It is skipped when
// python3 with NumPy is not installed.
func TestEinsumNumPy(t *testing.T) {
	const python = "/usr/bin/python3"
	if err := exec.Command(python, "-c", "import numpy").Run(); err != nil {
		t.Skipf("python3 with numpy not available: %v", err)
	}
	dtypes := []string{"f8", "f4", "c8", "c16"}
	var cases []numpyCase
	for i, c := range grammarCases {
		_, out, _ := strings.Cut(c.sub, "->")
		if hasRepeat(out) {
			continue // NumPy rejects output diagonals
		}
		cases = append(cases, numpyCase{c.sub, c.shapes, dtypes[i%4]})
	}
	rng := rand.New(rand.NewPCG(17, 18))
	nets := 40
	if testing.Short() {
		nets = 12
	}
	for i := range nets {
		sub, shapes := randomNetwork(rng, 3+rng.IntN(4))
		fixBroadcast(sub, shapes)
		cases = append(cases, numpyCase{sub, shapes, dtypes[i%4]})
	}
	dir := t.TempDir()
	js, err := json.Marshal(cases)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "cases.json"), js, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(python, "-c", numpyScript, filepath.Join(dir, "cases.json"), dir).CombinedOutput(); err != nil {
		t.Fatalf("numpy script: %v\n%s", err, out)
	}
	st, err := os.ReadFile(filepath.Join(dir, "status.json"))
	if err != nil {
		t.Fatal(err)
	}
	var status []string
	if err := json.Unmarshal(st, &status); err != nil || len(status) != len(cases) {
		t.Fatalf("status: %v (%d entries for %d cases)", err, len(status), len(cases))
	}
	e := cpu.Serial()
	defer e.Close()
	compared := 0
	for i, c := range cases {
		if status[i] != "ok" {
			t.Logf("%s %v: skipped (%s)", c.Sub, c.Shapes, status[i])
			continue
		}
		switch c.DType {
		case "f4":
			numpyCompare[float32](t, e, dir, i, c)
		case "f8":
			numpyCompare[float64](t, e, dir, i, c)
		case "c8":
			numpyCompare[complex64](t, e, dir, i, c)
		case "c16":
			numpyCompare[complex128](t, e, dir, i, c)
		}
		compared++
	}
	if compared < len(cases)*3/4 {
		t.Fatalf("only %d of %d cases compared", compared, len(cases))
	}
}

func hasRepeat(s string) bool {
	seen := map[rune]bool{}
	for _, r := range s {
		if r != '.' && seen[r] {
			return true
		}
		seen[r] = true
	}
	return false
}

func readNpy(t *testing.T, path string) *npy.Array {
	t.Helper()
	a, err := npy.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func numpyCompare[T tf.Scalar](t *testing.T, e *cpu.Engine, dir string, i int, c numpyCase) {
	t.Helper()
	ops := make([]*tf.Tensor[T], len(c.Shapes))
	data := make([][]complex128, len(c.Shapes))
	for k := range ops {
		a := readNpy(t, filepath.Join(dir, fmt.Sprintf("c%d_op%d.npy", i, k)))
		x, err := tf.FromSlice(a.ColumnMajor().([]T), a.Shape...)
		if err != nil {
			t.Fatal(err)
		}
		ops[k], data[k] = x, enginetest.Dense(x)
	}
	got, err := tf.Einsum(e, c.Sub, ops...)
	if err != nil {
		t.Fatalf("%s %v: %v", c.Sub, c.Shapes, err)
	}
	defer got.Release()
	want := readNpy(t, filepath.Join(dir, fmt.Sprintf("c%d_out.npy", i)))
	abs := readNpy(t, filepath.Join(dir, fmt.Sprintf("c%d_abs.npy", i))).ColumnMajor().([]float64)
	if !slices.Equal(got.Shape(), want.Shape) {
		t.Fatalf("%s %v: shape %v, NumPy %v", c.Sub, c.Shapes, got.Shape(), want.Shape)
	}
	var w []complex128
	switch v := want.ColumnMajor().(type) {
	case []float64:
		for _, x := range v {
			w = append(w, complex(x, 0))
		}
	case []complex128:
		w = v
	}
	// The rounding depth comes from the reference's count of summed terms.
	depth := enginetest.EinsumReference(c.Sub, c.Shapes, data).Depth
	g := enginetest.Dense(got)
	u := enginetest.UnitRoundoff[T]()
	for j := range g {
		tol := 4*float64(depth)*u*abs[j] + 1e-300
		if d := cmplx.Abs(g[j] - w[j]); !(d <= tol) {
			t.Fatalf("%s %v %s: element %d = %v, NumPy %v (|diff| %.3g > %.3g)", c.Sub, c.Shapes, c.DType, j, g[j], w[j], d, tol)
		}
	}
}
