package strided

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestValidate(t *testing.T) {
	data := make([]float64, 12)
	for _, c := range []struct {
		shape, strides []int
		off            int
		want           string // "" for valid
	}{
		{[]int{3, 4}, []int{1, 3}, 0, ""},
		{[]int{3, 4}, []int{4, 1}, 0, ""},
		{[]int{3, 4}, []int{1, 3}, 1, "reaches offsets [1, 12]"},
		{[]int{3, 4}, []int{-1, 3}, 2, ""},
		{[]int{3, 4}, []int{-1, 3}, 1, "reaches offsets [-1, 10]"},
		{[]int{3, 4}, []int{0, 0}, 11, ""},
		{[]int{}, []int{}, 11, ""},
		{[]int{}, []int{}, 12, "reaches offsets [12, 12]"},
		{[]int{0, 5}, []int{100, 100}, 1000, ""},
		{[]int{3}, []int{1, 1}, 0, "has 2 strides, expected 1"},
		{[]int{-1}, []int{1}, 0, "negative extent"},
		{[]int{3, 2}, []int{math.MaxInt / 2, 1}, 0, "overflow"},
		{[]int{math.MaxInt / 2, 4}, []int{1, 1}, 0, "too many elements"},
	} {
		err := Ref[float64]{Data: data, Off: c.off, Strides: c.strides}.Validate("op", "x", c.shape)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%+v: unexpected error %v", c, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%+v: error %v, want one containing %q", c, err, c.want)
		}
	}
}

// TestLayout checks that normalising a layout (drop, flip, sort, fuse)
// preserves the set of (offset_0, offset_1, offset_2) tuples visited.
func TestLayout(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for it := range 300 {
		rank := rng.IntN(6)
		shape := make([]int, rank)
		for d := range shape {
			shape[d] = 1 + rng.IntN(4)
		}
		var strides [3][]int
		for o := range strides {
			strides[o] = make([]int, rank)
			s := 1
			for _, d := range rng.Perm(rank) {
				strides[o][d] = s
				if rng.IntN(4) == 0 {
					strides[o][d] = -s
				}
				if o > 0 && rng.IntN(5) == 0 {
					strides[o][d] = 0
				}
				s *= shape[d]
			}
		}
		want := map[[3]int]int{}
		visit(shape, func(idx []int) {
			var k [3]int
			for o := range k {
				k[o] = 100
				for d, i := range idx {
					k[o] += i * strides[o][d]
				}
			}
			want[k]++
		})
		var l Layout
		if !l.Init(shape) {
			t.Fatal("Init failed")
		}
		for o := range strides {
			l.Add(100, strides[o])
		}
		l.Normalize()
		for d := 0; d < l.Rank; d++ {
			if l.Strides[0][d] < 0 || (d > 0 && l.Strides[0][d] < l.Strides[0][d-1]) {
				t.Fatalf("case %d: dst strides %v not sorted non-negative", it, l.Strides[0][:l.Rank])
			}
		}
		if l.Size() != Size(shape) {
			t.Fatalf("case %d: size %d, want %d", it, l.Size(), Size(shape))
		}
		got := map[[3]int]int{}
		l.Outer(0, func() { got[[3]int{l.Cur[0], l.Cur[1], l.Cur[2]}]++ })
		if len(got) != len(want) {
			t.Fatalf("case %d shape %v: %d distinct points, want %d", it, shape, len(got), len(want))
		}
		for k, n := range want {
			if got[k] != n {
				t.Fatalf("case %d shape %v strides %v: point %v visited %d times, want %d", it, shape, strides, k, got[k], n)
			}
		}
	}
}

func visit(shape []int, fn func(idx []int)) {
	idx := make([]int, len(shape))
	for {
		fn(idx)
		d := 0
		for ; d < len(shape); d++ {
			if idx[d]++; idx[d] < shape[d] {
				break
			}
			idx[d] = 0
		}
		if d == len(shape) {
			return
		}
	}
}

func TestInitRank(t *testing.T) {
	var l Layout
	shape := make([]int, 100)
	for i := range shape {
		shape[i] = 1
	}
	for i := 0; i < MaxRank; i++ {
		shape[3*i] = 2
	}
	if !l.Init(shape) || l.Rank != MaxRank {
		t.Fatalf("rank-%d shape with %d non-unit extents: Init %v rank %d", len(shape), MaxRank, l.Rank, l.Rank)
	}
	shape[1] = 2
	if l.Init(shape) {
		t.Fatal("Init accepted more than MaxRank non-unit extents")
	}
}
