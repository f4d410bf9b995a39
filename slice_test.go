package tenferro

import (
	"math"
	"slices"
	"testing"

	"github.com/tenferro-go/tenferro/internal/op"
)

// opAxis and spanOf give the fuzz tests the catalog's axis rule and the
// storage span of a view.
func opAxis(ax, r int) (int, *op.Fault) { return op.Axis("axis", ax, r) }

func spanOf[T Elem](t *Tensor[T]) (lo, hi int, ok bool) {
	return op.Span(t.v.Shape, t.v.Strides, t.v.Off)
}

// sliceModel lists the indices of start:stop:step on an axis of extent n
// by walking them one by one: Python's rule of clamping out-of-range
// bounds (to [0, n] for positive steps, [-1, n-1] for negative ones),
// without counting negative bounds from the end.
func sliceModel(n, start, stop, step int) []int {
	lo, hi := 0, n
	if step < 0 {
		lo, hi = -1, n-1
	}
	clamp := func(v int) int { return min(max(v, lo), hi) }
	start, stop = clamp(start), clamp(stop)
	var out []int
	for i := start; (step > 0 && i < stop) || (step < 0 && i > stop); {
		out = append(out, i)
		next := i + step
		if (step > 0 && next < i) || (step < 0 && next > i) { // overflow
			break
		}
		i = next
	}
	return out
}

// TestSliceSemantics compares Slice with the model for every bound and
// step around the axis, the extreme integers included (Slice(0, 1, 4,
// MaxInt) once gave a view of extent -1 and Slice(0, 3, -1, MinInt) no
// element).
func TestSliceSemantics(t *testing.T) {
	values := []int{math.MinInt, math.MinInt + 1, -7, -2, -1, 0, 1, 2, 3, 4, 5, 6, 9, math.MaxInt - 1, math.MaxInt}
	for n := 0; n <= 6; n++ {
		x, _ := FromSlice(seq(n), n)
		for _, start := range values {
			for _, stop := range values {
				for _, step := range values {
					if step == 0 {
						continue
					}
					want := sliceModel(n, start, stop, step)
					v, err := x.Slice(0, start, stop, step)
					if err != nil {
						t.Fatalf("n=%d Slice(%d, %d, %d): %v", n, start, stop, step, err)
					}
					var got []int
					for i := range v.Dim(0) {
						f, err := v.At(i)
						if err != nil {
							t.Fatal(err)
						}
						got = append(got, int(f))
					}
					if !slices.Equal(got, want) {
						t.Fatalf("n=%d Slice(%d, %d, %d) = %v, want %v", n, start, stop, step, got, want)
					}
					if c, err := v.Clone(); err != nil || c.Len() != len(want) {
						t.Fatalf("n=%d Slice(%d, %d, %d): Clone %v %v", n, start, stop, step, c, err)
					}
				}
			}
		}
	}
	// Python's results for bounds inside the axis.
	x, _ := FromSlice(seq(4), 4)
	for _, c := range []struct {
		start, stop, step int
		want              []int
	}{
		{1, 4, math.MaxInt, []int{1}},  // x[1:4:huge]
		{3, -1, math.MinInt, []int{3}}, // x[3::-huge]: -1 lies before index 0 here
		{0, 4, 2, []int{0, 2}},         // x[0:4:2]
		{3, 0, -2, []int{3, 1}},        // x[3:0:-2]
		{2, 2, 1, nil},                 // x[2:2]
		{math.MinInt, math.MaxInt, 3, []int{0, 3}},
	} {
		v, _ := x.Slice(0, c.start, c.stop, c.step)
		var got []int
		for i := range v.Dim(0) {
			f, _ := v.At(i)
			got = append(got, int(f))
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("Slice(%d, %d, %d) = %v, want %v", c.start, c.stop, c.step, got, c.want)
		}
	}
}

// TestDataOfEmptyView: an empty view at an offset past its storage has no
// elements and Data returns an empty slice, not a panic.
func TestDataOfEmptyView(t *testing.T) {
	b, _ := Zeros[float64](4, 0)
	v, err := b.Slice(0, 3, -5, -1)
	if err != nil {
		t.Fatal(err)
	}
	d, err := v.Data()
	if err != nil || len(d) != 0 {
		t.Errorf("Data of an empty view: %v, %v", d, err)
	}
}
