package op

import (
	"errors"
	"testing"
)

func TestIndexingRules(t *testing.T) {
	take := func(a []int, axis int, index []int) func() ([]int, *Fault) {
		return func() ([]int, *Fault) { _, s, f := TakeShape(a, axis, index, nil); return s, f }
	}
	gather := func(a []int, axis int, index []int) func() ([]int, *Fault) {
		return func() ([]int, *Fault) { _, s, f := GatherShape(a, axis, index, nil); return s, f }
	}
	scatter := func(a []int, axis int, index, src []int) func() ([]int, *Fault) {
		return func() ([]int, *Fault) { _, s, f := ScatterAddShape(a, axis, index, src, nil); return s, f }
	}
	masked := func(a, mask []int) func() ([]int, *Fault) {
		return func() ([]int, *Fault) { return MaskedSelectShape(a, mask, nil) }
	}
	checkRules(t, []rule{
		{name: "take", got: take([]int{2, 3}, -1, []int{5}), want: ok(2, 5)},
		{name: "take empty", got: take([]int{2, 0}, 1, []int{0}), want: ok(2, 0)},
		{name: "take 2-D index", got: take([]int{2, 3}, 0, []int{2, 2}), kind: ErrShape, arg: "index"},
		{name: "take scalar", got: take(nil, 0, []int{1}), kind: ErrShape, arg: "a"},
		{name: "take axis", got: take([]int{2}, 1, []int{1}), kind: ErrArgument, arg: "axis"},
		{name: "gather", got: gather([]int{2, 3}, 1, []int{2, 7}), want: ok(2, 7)},
		{name: "gather smaller", got: gather([]int{4, 3}, 0, []int{9, 2}), want: ok(9, 2)},
		{name: "gather larger", got: gather([]int{2, 3}, 1, []int{3, 1}), kind: ErrShape, arg: "index"},
		{name: "gather rank", got: gather([]int{2, 3}, 1, []int{3}), kind: ErrShape, arg: "index"},
		{name: "scatter", got: scatter([]int{4, 3}, 0, []int{6, 2}, []int{7, 3}), want: ok(4, 3)},
		{name: "scatter beyond src", got: scatter([]int{4, 3}, 0, []int{6, 2}, []int{5, 3}), kind: ErrShape, arg: "index"},
		{name: "scatter beyond a", got: scatter([]int{4, 3}, 0, []int{2, 4}, []int{2, 4}), kind: ErrShape, arg: "index"},
		{name: "scatter src rank", got: scatter([]int{4, 3}, 0, []int{2, 2}, []int{2}), kind: ErrShape, arg: "src"},
		{name: "masked", got: masked([]int{2, 3}, []int{3}), want: ok(2, 3)},
		{name: "masked broadcast", got: masked([]int{3}, []int{2, 1}), want: ok(2, 3)},
		{name: "masked mismatch", got: masked([]int{2, 3}, []int{2}), kind: ErrShape, arg: "mask"},
	})
	names := []string{"a", "index", "src"}
	if _, f := ScatterAdd.DTypeOf(names, Float64, Float64, Float64); f == nil || f.Arg != "index" || !errors.Is(f.Kind, ErrDType) {
		t.Errorf("ScatterAdd with a float64 index: %v", f)
	}
	if _, f := ScatterAdd.DTypeOf(names, Bool, Int64, Bool); f == nil || f.Arg != "a" {
		t.Errorf("ScatterAdd of bool: %v", f)
	}
	if _, f := ScatterAdd.DTypeOf(names, Float64, Int64, Float32); f == nil || f.Arg != "src" {
		t.Errorf("ScatterAdd of mixed values: %v", f)
	}
	if dt, f := MaskedSelect.DTypeOf([]string{"a", "mask"}, Complex64, Bool); f != nil || dt != Complex64 {
		t.Errorf("MaskedSelect of c64: %v %v", dt, f)
	}
	a := Attrs{Ints: []int{-1}}
	if _, f := MaskedSelect.Shape(&a, [][]int{{2}, {2}}); f == nil || f.Arg != "size" {
		t.Errorf("MaskedSelect of size -1: %v", f)
	}
	a = Attrs{Axes: []int{-1}}
	if s, f := Take.Shape(&a, [][]int{{2, 3}, {4}}); f != nil || s[1] != 4 || a.Axes[0] != 1 {
		t.Errorf("Take.Shape: %v %v %v", s, a.Axes, f)
	}
}
