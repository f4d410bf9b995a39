package ad_test

import (
	"slices"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/trace"
)

// oracleLayoutRun records f on an input of the given PyTorch shape whose
// element at row-major offset k is k, and returns f's results.
func oracleLayoutRun(t *testing.T, shape []int, f func(b *oracleBuilder, x trace.Var) []trace.Var) []*tf.Tensor[float64] {
	t.Helper()
	n := oracleNumel(shape)
	xs := make([]complex128, n)
	for k := range xs {
		xs[k] = complex(float64(k), 0)
	}
	v, err := oracleValueOf(tf.Float64, shape, xs)
	if err != nil {
		t.Fatal(err)
	}
	tr := trace.New()
	in, err := tr.Input(tf.Float64, shape...)
	if err != nil {
		t.Fatal(err)
	}
	b := &oracleBuilder{tr: tr, c: &oracleCase{}}
	ys := f(b, in)
	if b.err != nil {
		t.Fatal(b.err)
	}
	g, err := tr.Finish(ys...)
	if err != nil {
		t.Fatal(err)
	}
	pp, err := oraclePrepare(g)
	if err != nil {
		t.Fatal(err)
	}
	outs, err := pp.Run(v)
	if err != nil {
		t.Fatal(err)
	}
	res := make([]*tf.Tensor[float64], len(outs))
	for i, o := range outs {
		if res[i], err = tf.As[float64](o); err != nil {
			t.Fatal(err)
		}
	}
	return res
}

// oracleRowMajorOffset is the row-major offset of idx in shape.
func oracleRowMajorOffset(shape, idx []int) int {
	off := 0
	for d, e := range shape {
		off = off*e + idx[d]
	}
	return off
}

// TestOracleLayout checks the move of the matrix axes between PyTorch's
// layout and the library's: element [b..., i, j] of a PyTorch tensor
// (batch..., m, n) is element [i, j, b...] of the library's (m, n,
// batch...), and the way back restores the tensor (likewise for vectors,
// core 1, and for no batch axes).
func TestOracleLayout(t *testing.T) {
	for _, tc := range []struct {
		shape []int
		core  int
	}{
		{[]int{2, 3, 4}, 2},
		{[]int{2, 1, 3, 4}, 2},
		{[]int{3, 4}, 2},
		{[]int{2, 3, 5}, 1},
	} {
		r, c := len(tc.shape), tc.core
		outs := oracleLayoutRun(t, tc.shape, func(b *oracleBuilder, x trace.Var) []trace.Var {
			l := b.lib(x, c)
			return []trace.Var{l, b.torch(l, c)}
		})
		lib, back := outs[0], outs[1]
		wantShape := append(slices.Clone(tc.shape[r-c:]), tc.shape[:r-c]...)
		if !slices.Equal(lib.Shape(), wantShape) || !slices.Equal(back.Shape(), tc.shape) {
			t.Fatalf("%v core %d: shapes %v and %v, want %v and %v", tc.shape, c, lib.Shape(), back.Shape(), wantShape, tc.shape)
		}
		idx := make([]int, r)
		for range oracleNumel(tc.shape) {
			want := float64(oracleRowMajorOffset(tc.shape, idx))
			li := append(slices.Clone(idx[r-c:]), idx[:r-c]...)
			if got, err := lib.At(li...); err != nil || got != want {
				t.Errorf("%v core %d: library element %v = %v (%v), want %v", tc.shape, c, li, got, err, want)
			}
			if got, err := back.At(idx...); err != nil || got != want {
				t.Errorf("%v core %d: element %v back = %v (%v), want %v", tc.shape, c, idx, got, err, want)
			}
			for d := r - 1; d >= 0; d-- {
				if idx[d]++; idx[d] < tc.shape[d] {
					break
				}
				idx[d] = 0
			}
		}
	}
}

// TestOracleReshapeRowMajor checks reshapeRM, PyTorch's reshape: the
// element at row-major offset k stays at row-major offset k.
func TestOracleReshapeRowMajor(t *testing.T) {
	from := []int{2, 3, 4}
	for _, to := range [][]int{{6, 4}, {4, 6}, {24}, {2, 12, 1}} {
		y := oracleLayoutRun(t, from, func(b *oracleBuilder, x trace.Var) []trace.Var {
			return []trace.Var{b.reshapeRM(x, to...)}
		})[0]
		if !slices.Equal(y.Shape(), to) {
			t.Fatalf("%v to %v: shape %v", from, to, y.Shape())
		}
		idx := make([]int, len(to))
		for k := range oracleNumel(to) {
			if got, err := y.At(idx...); err != nil || got != float64(k) {
				t.Errorf("%v to %v: element %v = %v (%v), want %d", from, to, idx, got, err, k)
			}
			for d := len(to) - 1; d >= 0; d-- {
				if idx[d]++; idx[d] < to[d] {
					break
				}
				idx[d] = 0
			}
		}
	}
}
