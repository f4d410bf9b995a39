package tenferro

import (
	"slices"
	"testing"
)

// TestEachRun checks that eachRun visits every element of a view once, in
// column-major order, against an index-by-index walk, and that it merges
// axes into runs where the strides allow.
func TestEachRun(t *testing.T) {
	x, err := Zeros[float64](4, 1, 3, 2)
	if err != nil {
		t.Fatal(err)
	}
	views := map[string]*Tensor[float64]{"compact": x}
	views["transposed"], _ = x.Permute(3, 2, 1, 0)
	views["reversed"], _ = x.Reverse(0)
	views["stepped"], _ = x.Slice(2, 0, 3, 2)
	views["last reversed"], _ = x.Reverse(3)
	views["scalar"], _ = x.Reshape(24)
	views["scalar"], _ = views["scalar"].Slice(0, 5, 6, 1)
	views["scalar"], _ = views["scalar"].Reshape()
	views["empty"], _ = x.Slice(2, 1, 1, 1)
	runs := map[string]int{"compact": 1, "transposed": 12, "reversed": 6, "stepped": 4, "last reversed": 2, "scalar": 1, "empty": 0}
	for name, v := range views {
		var want []int
		idx := make([]int, v.Rank())
		for range v.Len() {
			p, err := v.index("test", idx)
			if err != nil {
				t.Fatal(err)
			}
			want = append(want, p)
			for d := range idx {
				if idx[d]++; idx[d] < v.Shape()[d] {
					break
				}
				idx[d] = 0
			}
		}
		var got []int
		calls := 0
		eachRun(v.v.Shape, v.v.Strides, v.v.Off, func(i, p, n, s int) {
			calls++
			if i != len(got) {
				t.Fatalf("%s: run starts at element %d after %d elements", name, i, len(got))
			}
			for k := range n {
				got = append(got, p+k*s)
			}
		})
		if !slices.Equal(got, want) {
			t.Errorf("%s: visits %v, want %v", name, got, want)
		}
		if calls != runs[name] {
			t.Errorf("%s: %d runs, want %d", name, calls, runs[name])
		}
	}
}
