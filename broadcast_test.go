package tenferro_test

import (
	"encoding/json"
	"errors"
	"os/exec"
	"slices"
	"strings"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/program"
	"github.com/tenferro-go/tenferro/trace"
)

// TestBroadcastNumPy pins NumPy's broadcasting on logical shapes: shapes
// align on their last axes, missing leading axes and extents of 1
// stretch, 0-d tensors combine with anything. Values are checked against
// an index-by-index reference, eagerly and through a compiled program.
func TestBroadcastNumPy(t *testing.T) {
	e := cpu.Serial()
	defer e.Close()
	cases := []struct{ a, b, want []int }{
		{[]int{2, 3}, []int{3}, []int{2, 3}},
		{[]int{3}, []int{2, 3}, []int{2, 3}},
		{[]int{2, 3}, []int{}, []int{2, 3}},
		{[]int{}, []int{}, []int{}},
		{[]int{4, 1, 3}, []int{2, 1}, []int{4, 2, 3}},
		{[]int{5, 1}, []int{1, 7}, []int{5, 7}},
		{[]int{1}, []int{0}, []int{0}},
		{[]int{2, 0}, []int{1}, []int{2, 0}},
		{[]int{3, 1, 2, 1}, []int{4, 1, 5}, []int{3, 4, 2, 5}},
	}
	checkNumPyShapes(t, cases)
	for _, c := range cases {
		a, _ := tf.Rand[float64](1, c.a...)
		b, _ := tf.Rand[float64](2, c.b...)
		got, err := tf.Sub(e, a, b)
		if err != nil {
			t.Fatalf("Sub %v %v: %v", c.a, c.b, err)
		}
		if !slices.Equal(got.Shape(), c.want) {
			t.Fatalf("Sub %v %v: shape %v, want %v", c.a, c.b, got.Shape(), c.want)
		}
		check := func(what string, got *tf.Tensor[float64]) {
			each(c.want, func(idx []int) {
				x, _ := a.At(aligned(idx, c.a)...)
				y, _ := b.At(aligned(idx, c.b)...)
				if g, _ := got.At(idx...); g != x-y {
					t.Errorf("%s %v %v at %v: %g, want %g", what, c.a, c.b, idx, g, x-y)
				}
			})
		}
		check("eager", got)
		// The same through a trace and a compiled (fused) program.
		tr := trace.New()
		va, _ := tr.Input(tf.Float64, c.a...)
		vb, _ := tr.Input(tf.Float64, c.b...)
		vd, err := tr.Sub(va, vb)
		if err != nil {
			t.Fatalf("traced Sub %v %v: %v", c.a, c.b, err)
		}
		vm, _ := tr.Scale(1, vd)
		g, _ := tr.Finish(vm)
		p, err := program.Compile(g)
		if err != nil {
			t.Fatal(err)
		}
		pp, err := program.Prepare(p, e)
		if err != nil {
			t.Fatal(err)
		}
		out, err := pp.Run(tf.ValueOf(a), tf.ValueOf(b))
		if err != nil {
			t.Fatalf("program %v %v: %v", c.a, c.b, err)
		}
		pt, _ := tf.As[float64](out[0])
		check("program", pt)
	}
	// Shapes that do not broadcast name both shapes and the axis.
	a, _ := tf.Zeros[float64](2, 3)
	b, _ := tf.Zeros[float64](2)
	_, err := tf.Add(e, a, b)
	if !errors.Is(err, tf.ErrShape) || !strings.Contains(err.Error(), "[2 3]") || !strings.Contains(err.Error(), "[2]") || !strings.Contains(err.Error(), "axis -1") {
		t.Errorf("Add [2 3] [2]: %v", err)
	}
	// A destination is never broadcast: it has the result's shape.
	dst, _ := tf.Zeros[float64](3)
	c3, _ := tf.Zeros[float64](3)
	if err := tf.AddInto(e, dst, a, c3); !errors.Is(err, tf.ErrShape) {
		t.Errorf("AddInto a [3] destination for a [2 3] result: %v", err)
	}
}

// TestConst: a 0-d constant enters any binary operation.
func TestConst(t *testing.T) {
	e := cpu.Serial()
	defer e.Close()
	x, _ := tf.FromRowMajor([]float32{1, 2, 3, 4}, 2, 2)
	y, err := tf.Div(e, x, tf.Const(float32(2)))
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []float32{0.5, 1.5, 1, 2} { // column-major
		if got := y.Storage()[i]; got != want {
			t.Errorf("x/2 element %d = %g, want %g", i, got, want)
		}
	}
	if c := tf.Const(complex(1, 2)); c.Rank() != 0 || c.Len() != 1 {
		t.Errorf("Const rank %d len %d", c.Rank(), c.Len())
	}
}

// checkNumPyShapes asks NumPy (when python3 with NumPy is installed) for
// the broadcast shape of every case and compares it with the table; a
// pair NumPy rejects must be rejected here too.
func checkNumPyShapes(t *testing.T, cases []struct{ a, b, want []int }) {
	const python = "/usr/bin/python3"
	if err := exec.Command(python, "-c", "import numpy").Run(); err != nil {
		t.Logf("python3 with numpy not available (%v): shapes checked against the table only", err)
		return
	}
	pairs := [][2][]int{{{2, 3}, {2}}, {{2, 1, 3}, {4, 3, 1}}, {{0}, {2}}}
	for _, c := range cases {
		pairs = append(pairs, [2][]int{c.a, c.b})
	}
	js, _ := json.Marshal(pairs)
	out, err := exec.Command(python, "-c", `
import json, sys, numpy as np
res = []
for a, b in json.loads(sys.argv[1]):
    try:
        res.append(list(np.broadcast_shapes(tuple(a), tuple(b))))
    except ValueError:
        res.append(None)
print(json.dumps(res))`, string(js)).Output()
	if err != nil {
		t.Fatalf("numpy: %v", err)
	}
	var want [][]int
	if err := json.Unmarshal(out, &want); err != nil || len(want) != len(pairs) {
		t.Fatalf("numpy output %q: %v", out, err)
	}
	for i, pr := range pairs {
		got, err := tf.BroadcastShapes(pr[0], pr[1])
		switch {
		case want[i] == nil && err == nil:
			t.Errorf("%v with %v: %v, NumPy rejects the pair", pr[0], pr[1], got)
		case want[i] != nil && (err != nil || !slices.Equal(got, want[i])):
			t.Errorf("%v with %v: %v, %v; NumPy gives %v", pr[0], pr[1], got, err, want[i])
		}
	}
}

// aligned returns the index of an operand of shape s read at output index
// idx under NumPy broadcasting.
func aligned(idx, s []int) []int {
	out := make([]int, len(s))
	for d := range s {
		if s[d] != 1 {
			out[d] = idx[len(idx)-len(s)+d]
		}
	}
	return out
}

// each calls f with every index of shape (column-major order).
func each(shape []int, f func(idx []int)) {
	for _, n := range shape {
		if n == 0 {
			return
		}
	}
	idx := make([]int, len(shape))
	for {
		f(idx)
		d := 0
		for ; d < len(shape); d++ {
			idx[d]++
			if idx[d] < shape[d] {
				break
			}
			idx[d] = 0
		}
		if d == len(shape) {
			return
		}
	}
}
