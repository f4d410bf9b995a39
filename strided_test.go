package tenferro

import (
	"errors"
	"math"
	"testing"
)

func TestFromStridedElements(t *testing.T) {
	data := seq(40)
	cases := []struct {
		off            int
		shape, strides []int
	}{
		{0, []int{3, 4}, []int{5, 1}},    // row-major 3×4 with row stride 5
		{7, []int{2, 3}, []int{1, 9}},    // column-major with padding
		{39, []int{4, 3}, []int{-1, -7}}, // both axes reversed
		{2, []int{3, 5}, []int{0, 3}},    // a broadcast axis
		{11, []int{}, []int{}},           // a scalar
		{0, []int{1, 1, 1}, []int{100, -100, 0}},
		{40, []int{0, 3}, []int{1, 1000}}, // empty: nothing is reached
		{5, []int{2, 2, 2}, []int{1, 4, 16}},
	}
	for _, c := range cases {
		x, err := FromStrided(data, c.off, c.shape, c.strides)
		if err != nil {
			t.Fatalf("%v %v %v: %v", c.off, c.shape, c.strides, err)
		}
		if !equalInts(x.Shape(), c.shape) || !equalInts(x.Strides(), c.strides) || x.Offset() != c.off {
			t.Fatalf("header %v %v %d, want %v %v %d", x.Shape(), x.Strides(), x.Offset(), c.shape, c.strides, c.off)
		}
		eachIndex(c.shape, func(idx []int) {
			want := c.off
			for d, i := range idx {
				want += i * c.strides[d]
			}
			if got := mustAt(t, x, idx...); got != float64(want) {
				t.Fatalf("%v %v: element %v = %v, want data[%d]", c.shape, c.strides, idx, got, want)
			}
		})
	}
}

func TestFromStridedSharesMemory(t *testing.T) {
	data := make([]float64, 12)
	x, err := FromStrided(data, 1, []int{2, 3}, []int{6, 2})
	if err != nil {
		t.Fatal(err)
	}
	if err := x.Set(5, 1, 2); err != nil {
		t.Fatal(err)
	}
	if data[1+6+4] != 5 {
		t.Fatalf("data = %v: Set did not write data[11]", data)
	}
	data[1+2] = -1
	if v := mustAt(t, x, 0, 1); v != -1 {
		t.Fatalf("At(0, 1) = %v after writing data[3]", v)
	}
}

func TestFromStridedErrors(t *testing.T) {
	data := seq(10)
	cases := []struct {
		name           string
		off            int
		shape, strides []int
		kind           error
	}{
		{"past the end", 0, []int{2, 5}, []int{5, 2}, ErrArgument},
		{"before the start", 0, []int{2}, []int{-1}, ErrArgument},
		{"negative offset", -1, []int{1}, []int{1}, ErrArgument},
		{"offset past the end", 11, []int{0}, []int{1}, ErrArgument},
		{"offset at the end", 10, []int{1}, []int{1}, ErrArgument},
		{"huge stride", 0, []int{2}, []int{math.MaxInt}, ErrArgument},
		{"huge negative stride", 9, []int{3}, []int{math.MinInt + 1}, ErrArgument},
		{"overflowing reach", 0, []int{1 << 40, 2}, []int{1 << 30, 0}, ErrArgument},
		{"stride count", 0, []int{2, 2}, []int{1}, ErrShape},
		{"negative extent", 0, []int{-1}, []int{1}, ErrShape},
	}
	for _, c := range cases {
		_, err := FromStrided(data, c.off, c.shape, c.strides)
		var e *Error
		if !errors.Is(err, c.kind) || !errors.As(err, &e) || e.Op != "FromStrided" {
			t.Errorf("%s: err = %v, want %v from FromStrided", c.name, err, c.kind)
		}
	}
}
