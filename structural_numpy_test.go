package tenferro_test

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
)

// npArray is an array in NumPy's order: its shape and its elements in
// row-major order (tf.FromRowMajor reads them into a tensor of the same
// logical shape).
type npArray struct {
	Shape []int     `json:"shape"`
	Data  []float64 `json:"data"`
}

// structCase is one structural operation for structural_numpy.py: NumPy's
// function of the same name on the inputs with these parameters.
type structCase struct {
	Op     string    `json:"op"`
	Inputs []npArray `json:"inputs"`
	Axis   int       `json:"axis"`
	N      int       `json:"n"`
	K      int       `json:"k"`
	Ints   []int     `json:"ints"`
	Axes   []int     `json:"axes"`
	Widths [][2]int  `json:"widths"`
	Mode   string    `json:"mode"`
	Value  float64   `json:"value"`
}

type npResult struct {
	OK     bool      `json:"ok"`
	Err    string    `json:"err"`
	Arrays []npArray `json:"arrays"`
}

//go:embed testdata/structural_numpy.py
var structuralNumPy string

// npRand returns a random array of shape with small integer values.
func npRand(r *rand.Rand, shape ...int) npArray {
	a := npArray{Shape: shape, Data: make([]float64, tf.Numel(shape))}
	for i := range a.Data {
		a.Data[i] = float64(r.IntN(19) - 9)
	}
	return a
}

func (a npArray) tensor(t *testing.T) *tf.Tensor[float64] {
	x, err := tf.FromRowMajor(a.Data, a.Shape...)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

func (a npArray) index(t *testing.T) *tf.Tensor[int64] {
	d := make([]int64, len(a.Data))
	for i, v := range a.Data {
		d[i] = int64(v)
	}
	x, err := tf.FromRowMajor(d, a.Shape...)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// rowMajor lists x's elements in row-major order (the last index
// fastest), as NumPy's ravel.
func rowMajor(x *tf.Tensor[float64]) []float64 {
	shape := x.Shape()
	out := make([]float64, 0, x.Len())
	idx := make([]int, len(shape))
	for range x.Len() {
		v, _ := x.At(idx...)
		out = append(out, v)
		for d := len(idx) - 1; d >= 0; d-- {
			if idx[d]++; idx[d] < shape[d] {
				break
			}
			idx[d] = 0
		}
	}
	return out
}

// structCases draws the cases: awkward extents (0, 1, primes), every
// parameter kind, negative axes and indices.
func structCases(r *rand.Rand) []structCase {
	ext := []int{0, 1, 2, 3, 5}
	shape := func(rank int) []int {
		s := make([]int, rank)
		for d := range s {
			s[d] = ext[r.IntN(len(ext))]
		}
		return s
	}
	var cs []structCase
	for rank := 1; rank <= 3; rank++ {
		for range 4 {
			s := shape(rank)
			axis := r.IntN(rank) - r.IntN(2)*rank // negative half the time
			ax := (axis + rank) % rank
			b := slices.Clone(s)
			b[ax] = r.IntN(3)
			cs = append(cs, structCase{Op: "concatenate", Inputs: []npArray{npRand(r, s...), npRand(r, b...), npRand(r, s...)}, Axis: axis})
			cs = append(cs, structCase{Op: "stack", Inputs: []npArray{npRand(r, s...), npRand(r, s...)}, Axis: r.IntN(rank+1) - r.IntN(2)*(rank+1)})
			if n := []int{1, 2, 3, 5}[r.IntN(4)]; s[ax]%n == 0 {
				cs = append(cs, structCase{Op: "split", Inputs: []npArray{npRand(r, s...)}, Axis: axis, N: n})
			}
			cs = append(cs, structCase{Op: "split_at", Inputs: []npArray{npRand(r, s...)}, Axis: axis, Ints: []int{r.IntN(4) - 1, r.IntN(7) - 3}})
			reps := make([]int, r.IntN(rank+2))
			for i := range reps {
				reps[i] = r.IntN(3)
			}
			cs = append(cs, structCase{Op: "tile", Inputs: []npArray{npRand(r, s...)}, Ints: reps})
			counts := []int{[]int{0, 2, 3}[r.IntN(3)]}
			if r.IntN(2) == 0 {
				counts = make([]int, s[ax])
				for i := range counts {
					counts[i] = r.IntN(3)
				}
			}
			cs = append(cs, structCase{Op: "repeat", Inputs: []npArray{npRand(r, s...)}, Axis: axis, Ints: counts})
			for _, mode := range []string{"constant", "edge", "reflect", "symmetric", "wrap"} {
				w := make([][2]int, rank)
				for d, n := range s {
					// Within one period of the pattern: NumPy 1.x drifts from
					// the periodic continuation for longer, unequal pads.
					lim := map[string]int{"constant": 4, "edge": 4, "reflect": n - 1, "symmetric": n, "wrap": n}[mode]
					if n == 1 && mode == "reflect" {
						lim = 3
					}
					if n > 0 || mode == "constant" {
						w[d] = [2]int{r.IntN(lim + 1), r.IntN(lim + 1)}
					}
				}
				cs = append(cs, structCase{Op: "pad", Inputs: []npArray{npRand(r, s...)}, Widths: w, Mode: mode, Value: 7})
			}
			cs = append(cs, structCase{Op: "roll", Inputs: []npArray{npRand(r, s...)}, Ints: []int{r.IntN(13) - 6, r.IntN(5)}, Axes: []int{axis, r.IntN(rank)}})
			if s[ax] > 0 {
				idx := npRand(r, r.IntN(5))
				for i := range idx.Data {
					idx.Data[i] = float64(r.IntN(2*s[ax]) - s[ax])
				}
				cs = append(cs, structCase{Op: "take", Inputs: []npArray{npRand(r, s...), idx}, Axis: axis})
				g := npRand(r, append(slices.Clone(s[:ax]), append([]int{r.IntN(4)}, s[ax+1:]...)...)...)
				for i := range g.Data {
					g.Data[i] = float64(r.IntN(2*s[ax]) - s[ax])
				}
				cs = append(cs, structCase{Op: "gather", Inputs: []npArray{npRand(r, s...), g}, Axis: axis})
			}
			m := npRand(r, s[1:]...)
			cs = append(cs, structCase{Op: "masked_select", Inputs: []npArray{npRand(r, s...), m}})
		}
	}
	for _, s := range [][]int{{4}, {0}, {1}, {3, 5}, {5, 3}, {1, 4}, {0, 2}} {
		for _, k := range []int{-6, -2, 0, 1, 4} {
			cs = append(cs, structCase{Op: "diag", Inputs: []npArray{npRand(r, s...)}, K: k})
		}
	}
	for _, s := range [][]int{{3, 5}, {5, 3}, {4, 4, 2}, {3, 2, 0}, {1, 3, 2, 2}} {
		for _, k := range []int{-3, -1, 0, 2} {
			cs = append(cs, structCase{Op: "tril", Inputs: []npArray{npRand(r, s...)}, K: k})
			cs = append(cs, structCase{Op: "triu", Inputs: []npArray{npRand(r, s...)}, K: k})
		}
	}
	return cs
}

// npRun runs case c with the library.
func npRun(t *testing.T, e tf.Engine, c structCase) ([]*tf.Tensor[float64], error) {
	x := c.Inputs[0].tensor(t)
	one := func(y *tf.Tensor[float64], err error) ([]*tf.Tensor[float64], error) {
		return []*tf.Tensor[float64]{y}, err
	}
	switch c.Op {
	case "concatenate", "stack":
		ins := make([]*tf.Tensor[float64], len(c.Inputs))
		for i, a := range c.Inputs {
			ins[i] = a.tensor(t)
		}
		if c.Op == "stack" {
			return one(tf.Stack(e, c.Axis, ins...))
		}
		return one(tf.Concatenate(e, c.Axis, ins...))
	case "split":
		return x.Split(c.Axis, c.N)
	case "split_at":
		return x.SplitAt(c.Axis, c.Ints...)
	case "tile":
		return one(tf.Tile(e, x, c.Ints...))
	case "repeat":
		return one(tf.Repeat(e, x, c.Axis, c.Ints...))
	case "pad":
		modes := map[string]tf.PadMode{"constant": tf.PadConstant, "edge": tf.PadEdge, "reflect": tf.PadReflect, "symmetric": tf.PadSymmetric, "wrap": tf.PadWrap}
		return one(tf.Pad(e, x, c.Widths, modes[c.Mode], c.Value))
	case "roll":
		return one(tf.Roll(e, x, c.Ints, c.Axes))
	case "take":
		return one(tf.Take(e, x, c.Axis, c.Inputs[1].index(t)))
	case "gather":
		return one(tf.Gather(e, x, c.Axis, c.Inputs[1].index(t)))
	case "masked_select":
		m := c.Inputs[1].tensor(t)
		mask, err := tf.Greater(e, m, tf.Const(0.0))
		if err != nil {
			return nil, err
		}
		return one(tf.MaskedSelect(e, x, mask))
	case "diag":
		return one(tf.Diag(e, x, c.K))
	case "tril":
		return one(tf.Tril(e, x, c.K))
	case "triu":
		return one(tf.Triu(e, x, c.K))
	}
	return nil, fmt.Errorf("unknown op %q", c.Op)
}

// TestStructuralNumPy compares Concatenate, Stack, Split, SplitAt, Tile,
// Repeat, Pad (every mode), Roll, Take, Gather (take_along_axis),
// MaskedSelect, Diag, Tril and Triu with NumPy on random arrays built in
// NumPy's (row-major) order. Tril and Triu take the matrices from the
// first two axes, NumPy's from the last two; MaskedSelect lists elements in
// column-major order, NumPy in row-major order: the script moves axes to
// match. It is skipped when /usr/bin/python3 with NumPy is not installed.
func TestStructuralNumPy(t *testing.T) {
	const python = "/usr/bin/python3"
	if err := exec.Command(python, "-c", "import numpy").Run(); err != nil {
		t.Skipf("python3 with numpy not available: %v", err)
	}
	cases := structCases(rand.New(rand.NewPCG(21, 22)))
	dir := t.TempDir()
	js, err := json.Marshal(cases)
	if err != nil {
		t.Fatal(err)
	}
	in, outPath := filepath.Join(dir, "cases.json"), filepath.Join(dir, "results.json")
	if err := os.WriteFile(in, js, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(python, "-c", structuralNumPy, in, outPath).CombinedOutput(); err != nil {
		t.Fatalf("numpy script: %v\n%s", err, out)
	}
	res, err := os.ReadFile(outPath)
	if err != nil {
		t.Fatal(err)
	}
	var results []npResult
	if err := json.Unmarshal(res, &results); err != nil || len(results) != len(cases) {
		t.Fatalf("results: %v (%d for %d cases)", err, len(results), len(cases))
	}
	e := cpu.Serial()
	defer e.Close()
	compared := map[string]int{}
	for i, c := range cases {
		what := fmt.Sprintf("case %d %s %v axis=%d n=%d k=%d ints=%v axes=%v widths=%v mode=%s", i, c.Op, c.Inputs[0].Shape, c.Axis, c.N, c.K, c.Ints, c.Axes, c.Widths, c.Mode)
		got, err := npRun(t, e, c)
		if !results[i].OK {
			if err == nil {
				t.Errorf("%s: NumPy fails (%s), the library does not", what, results[i].Err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v (NumPy succeeds)", what, err)
			continue
		}
		want := results[i].Arrays
		if len(got) != len(want) {
			t.Errorf("%s: %d results, NumPy %d", what, len(got), len(want))
			continue
		}
		for j, w := range want {
			if !slices.Equal(got[j].Shape(), w.Shape) || !slices.Equal(rowMajor(got[j]), w.Data) {
				t.Errorf("%s: result %d %v %v, NumPy %v %v", what, j, got[j].Shape(), rowMajor(got[j]), w.Shape, w.Data)
			}
		}
		compared[c.Op]++
	}
	for _, op := range []string{"concatenate", "stack", "split", "split_at", "tile", "repeat", "pad", "roll", "take", "gather", "masked_select", "diag", "tril", "triu"} {
		if compared[op] < 3 {
			t.Errorf("%s: %d cases compared with NumPy, want at least 3", op, compared[op])
		}
	}
	t.Logf("compared with NumPy: %v", compared)
}
