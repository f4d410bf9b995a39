package tenferro

import (
	"errors"
	"math"
	"testing"
)

// FuzzViews drives Slice, Permute, Reshape, Broadcast, Reverse and
// Diagonal with arbitrary integers (the extreme ones seeded): every call
// returns a typed error or a view whose extents are non-negative, whose
// elements all lie inside the storage, and which Clone, String and Len
// handle; Slice agrees with the model of Python's clamping.
func FuzzViews(f *testing.F) {
	for _, v := range [][5]int64{
		{0, 1, 4, math.MaxInt64, 0}, {0, 3, -1, math.MinInt64, 0}, {1, 0, 4, 2, 1},
		{-1, math.MinInt64, math.MaxInt64, -1, 2}, {2, -2, 5, 3, 3}, {0, 0, 0, 1, 4},
	} {
		f.Add(v[0], v[1], v[2], v[3], v[4])
	}
	base, _ := FromSlice(seq(60), 3, 4, 5)
	f.Fuzz(func(t *testing.T, a, b, c, d, which int64) {
		ai, bi, ci, di := int(a), int(b), int(c), int(d)
		var v *Tensor[float64]
		var err error
		switch which % 6 {
		case 0:
			v, err = base.Slice(ai, bi, ci, di)
			if err == nil {
				if ax, f := opAxis(ai, 3); f == nil {
					start, stop := bi, ci
					if want := len(sliceModel(base.Dim(ax), start, stop, di)); v.Dim(ax) != want {
						t.Fatalf("Slice(%d, %d, %d, %d) has %d elements along the axis, want %d", ai, bi, ci, di, v.Dim(ax), want)
					}
				}
			}
		case 1:
			v, err = base.Permute(ai, bi, ci)
		case 2:
			v, err = base.Reshape(ai, bi)
		case 3:
			v, err = base.Broadcast(ai%64, bi%64, 3, 4, 5)
		case 4:
			v, err = base.Reverse(ai)
		default:
			v, err = base.Diagonal(ai, bi)
		}
		if err != nil {
			var te *Error
			if !errors.As(err, &te) || !(errors.Is(err, ErrArgument) || errors.Is(err, ErrShape) || errors.Is(err, ErrLayout) || errors.Is(err, ErrMemory)) {
				t.Fatalf("untyped error %v", err)
			}
			return
		}
		for _, x := range v.Shape() {
			if x < 0 {
				t.Fatalf("negative extent in %v", v.Shape())
			}
		}
		if lo, hi, ok := spanOf(v); ok && (lo < 0 || hi >= len(v.Storage())) {
			t.Fatalf("view %v strides %v offset %d reaches [%d, %d] of %d", v.Shape(), v.Strides(), v.Offset(), lo, hi, len(v.Storage()))
		}
		cl, err := v.Clone()
		if err != nil || cl.Len() != v.Len() {
			t.Fatalf("Clone: %v", err)
		}
		_ = v.String()
	})
}
