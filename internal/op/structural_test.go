package op

import (
	"errors"
	"slices"
	"testing"
)

// rule is one case of a shape rule: the result shape, or the kind and
// argument of its fault.
type rule struct {
	name string
	got  func() ([]int, *Fault)
	want []int
	kind error
	arg  string
}

func checkRules(t *testing.T, cases []rule) {
	t.Helper()
	for _, c := range cases {
		out, f := c.got()
		switch {
		case c.kind == nil && f != nil:
			t.Errorf("%s: fault %v (%s: %s, got %s)", c.name, f.Kind, f.Arg, f.Expected, f.Actual)
		case c.kind == nil && !slices.Equal(out, c.want):
			t.Errorf("%s: shape %v, want %v", c.name, out, c.want)
		case c.kind != nil && (f == nil || !errors.Is(f.Kind, c.kind) || f.Arg != c.arg):
			t.Errorf("%s: %v %+v, want a %v fault on %q", c.name, out, f, c.kind, c.arg)
		}
	}
}

func ok(want ...int) []int { return append([]int{}, want...) }

func TestStructuralRules(t *testing.T) {
	sq := func(a []int, axes ...int) func() ([]int, *Fault) {
		return func() ([]int, *Fault) { s, _, f := SqueezeShape(a, axes, nil); return s, f }
	}
	unsq := func(a []int, axes ...int) func() ([]int, *Fault) {
		return func() ([]int, *Fault) { s, _, f := UnsqueezeShape(a, axes, nil); return s, f }
	}
	cat := func(axis int, shapes ...[]int) func() ([]int, *Fault) {
		return func() ([]int, *Fault) { _, s, f := ConcatShape(axis, shapes, nil); return s, f }
	}
	stk := func(axis int, shapes ...[]int) func() ([]int, *Fault) {
		return func() ([]int, *Fault) { _, s, f := StackShape(axis, shapes, nil); return s, f }
	}
	split := func(a []int, axis, n int) func() ([]int, *Fault) {
		return func() ([]int, *Fault) { _, s, f := SplitEqual(a, axis, n, nil); return s, f }
	}
	splitAt := func(a []int, axis int, idx ...int) func() ([]int, *Fault) {
		return func() ([]int, *Fault) { _, s, f := SplitAtBounds(a, axis, idx, nil); return s, f }
	}
	tile := func(a []int, reps ...int) func() ([]int, *Fault) {
		return func() ([]int, *Fault) {
			var norm [MaxRank]int
			s, _, f := TileShape(a, reps, norm[:], nil)
			return s, f
		}
	}
	rep := func(a []int, axis int, counts ...int) func() ([]int, *Fault) {
		return func() ([]int, *Fault) { _, s, f := RepeatShape(a, axis, counts, nil); return s, f }
	}
	pad := func(a []int, mode PadMode, w ...int) func() ([]int, *Fault) {
		return func() ([]int, *Fault) { return PadShape(a, PadPairs(w), mode, nil) }
	}
	diag := func(a []int, k int) func() ([]int, *Fault) {
		return func() ([]int, *Fault) { return DiagShape(a, k, nil) }
	}
	roll := func(a, shifts, axes []int) func() ([]int, *Fault) {
		return func() ([]int, *Fault) {
			out := make([]int, len(a))
			return out, RollShifts(a, shifts, axes, out)
		}
	}
	big := 1 << 40
	checkRules(t, []rule{
		{name: "squeeze all", got: sq([]int{1, 3, 1, 2}), want: ok(3, 2)},
		{name: "squeeze axis", got: sq([]int{1, 3, 1}, -1), want: ok(1, 3)},
		{name: "squeeze extent 3", got: sq([]int{1, 3}, 1), kind: ErrShape, arg: "axes"},
		{name: "squeeze repeated", got: sq([]int{1, 1}, 0, -2), kind: ErrArgument, arg: "axes"},
		{name: "squeeze scalar", got: sq(nil), want: ok()},
		{name: "unsqueeze", got: unsq([]int{2, 3}, 0, -1), want: ok(1, 2, 3, 1)},
		{name: "unsqueeze middle", got: unsq([]int{2, 3}, 1), want: ok(2, 1, 3)},
		{name: "unsqueeze scalar", got: unsq(nil, 0), want: ok(1)},
		{name: "unsqueeze none", got: unsq([]int{2}), kind: ErrArgument, arg: "axes"},
		{name: "unsqueeze out of range", got: unsq([]int{2}, 2), kind: ErrArgument, arg: "axes"},
		{name: "unsqueeze beyond rank", got: unsq(make([]int, MaxRank), 0), kind: ErrShape, arg: "axes"},
		{name: "concatenate", got: cat(-1, []int{2, 3}, []int{2, 0}, []int{2, 4}), want: ok(2, 7)},
		{name: "concatenate extents", got: cat(1, []int{2, 3}, []int{3, 3}), kind: ErrShape, arg: "operands[1]"},
		{name: "concatenate ranks", got: cat(0, []int{2, 3}, []int{2}), kind: ErrShape, arg: "operands[1]"},
		{name: "concatenate scalars", got: cat(0, []int{}, []int{}), kind: ErrShape, arg: "operands[0]"},
		{name: "concatenate none", got: cat(0), kind: ErrArgument, arg: "operands"},
		{name: "concatenate axis", got: cat(2, []int{2, 3}), kind: ErrArgument, arg: "axis"},
		{name: "stack", got: stk(-1, []int{2, 3}, []int{2, 3}), want: ok(2, 3, 2)},
		{name: "stack front", got: stk(0, []int{2}), want: ok(1, 2)},
		{name: "stack scalars", got: stk(0, []int{}, []int{}, []int{}), want: ok(3)},
		{name: "stack shapes", got: stk(0, []int{2, 3}, []int{3, 2}), kind: ErrShape, arg: "operands[1]"},
		{name: "stack axis", got: stk(3, []int{2, 3}), kind: ErrArgument, arg: "axis"},
		{name: "split", got: split([]int{2, 6}, 1, 3), want: ok(0, 2, 2, 4, 4, 6)},
		{name: "split empty", got: split([]int{0}, 0, 2), want: ok(0, 0, 0, 0)},
		{name: "split uneven", got: split([]int{2, 5}, 1, 2), kind: ErrShape, arg: "n"},
		{name: "split zero parts", got: split([]int{2}, 0, 0), kind: ErrArgument, arg: "n"},
		{name: "split scalar", got: split(nil, 0, 1), kind: ErrShape, arg: "a"},
		{name: "split at", got: splitAt([]int{7}, 0, 2, -2, 3, 99), want: ok(0, 2, 2, 5, 5, 5, 3, 7, 7, 7)},
		{name: "split at nothing", got: splitAt([]int{4}, -1), want: ok(0, 4)},
		{name: "tile", got: tile([]int{2, 3}, 2), want: ok(2, 6)},
		{name: "tile new axes", got: tile([]int{3}, 2, 1, 2), want: ok(2, 1, 6)},
		{name: "tile no reps", got: tile([]int{3}), want: ok(3)},
		{name: "tile zero", got: tile([]int{3}, 0), want: ok(0)},
		{name: "tile negative", got: tile([]int{3}, -1), kind: ErrArgument, arg: "reps"},
		{name: "tile too large", got: tile([]int{big}, big), kind: ErrShape, arg: "reps"},
		{name: "repeat", got: rep([]int{2, 3}, 1, 2), want: ok(2, 6)},
		{name: "repeat per element", got: rep([]int{2, 3}, -1, 1, 0, 4), want: ok(2, 5)},
		{name: "repeat counts", got: rep([]int{2, 3}, 1, 1, 2), kind: ErrShape, arg: "repeats"},
		{name: "repeat negative", got: rep([]int{2}, 0, -1), kind: ErrArgument, arg: "repeats"},
		{name: "repeat too large", got: rep([]int{big}, 0, big), kind: ErrShape, arg: "repeats"},
		{name: "repeat scalar", got: rep(nil, 0, 1), kind: ErrShape, arg: "a"},
		{name: "pad", got: pad([]int{2, 3}, PadReflect, 1, 0, 2, 3), want: ok(3, 8)},
		{name: "pad widths", got: pad([]int{2, 3}, PadConstant, 1, 0), kind: ErrShape, arg: "widths"},
		{name: "pad negative", got: pad([]int{2}, PadConstant, -1, 0), kind: ErrArgument, arg: "widths"},
		{name: "pad empty axis", got: pad([]int{0}, PadEdge, 1, 0), kind: ErrShape, arg: "a"},
		{name: "pad empty axis constant", got: pad([]int{0}, PadConstant, 1, 2), want: ok(3)},
		{name: "pad mode", got: pad([]int{2}, NumPadModes, 0, 0), kind: ErrArgument, arg: "mode"},
		{name: "tril vector", got: func() ([]int, *Fault) { return TriShape([]int{3}, nil) }, kind: ErrShape, arg: "a"},
		{name: "diag vector", got: diag([]int{3}, -2), want: ok(5, 5)},
		{name: "diag matrix", got: diag([]int{3, 5}, 1), want: ok(3)},
		{name: "diag matrix below", got: diag([]int{3, 5}, -2), want: ok(1)},
		{name: "diag outside", got: diag([]int{3, 5}, 9), want: ok(0)},
		{name: "diag tensor", got: diag([]int{3, 5, 1}, 0), kind: ErrShape, arg: "a"},
		{name: "diag huge k", got: diag([]int{3}, -1<<62), kind: ErrShape, arg: "k"},
		{name: "roll", got: roll([]int{4, 5}, []int{-1, 7, 1}, []int{0, 1, 1}), want: ok(3, 3)},
		{name: "roll one shift", got: roll([]int{4, 5}, []int{2}, []int{0, 1}), want: ok(2, 2)},
		{name: "roll no axes", got: roll([]int{4}, []int{1}, nil), kind: ErrArgument, arg: "axes"},
		{name: "roll shifts", got: roll([]int{4, 5}, []int{1, 2}, []int{0, 1, 1}), kind: ErrShape, arg: "shifts"},
		{name: "roll axis", got: roll([]int{4}, []int{1}, []int{1}), kind: ErrArgument, arg: "axes"},
	})
}

// TestStructuralKindShape checks the normalization of traced attributes.
func TestStructuralKindShape(t *testing.T) {
	a := Attrs{Axes: []int{-1}}
	if s, f := Squeeze.Shape(&a, [][]int{{2, 1, 1}}); f != nil || !slices.Equal(s, []int{2, 1}) || !slices.Equal(a.Axes, []int{2}) {
		t.Errorf("Squeeze: %v %v %v", s, a.Axes, f)
	}
	a = Attrs{Ints: []int{2}}
	if s, f := Tile.Shape(&a, [][]int{{2, 3}}); f != nil || !slices.Equal(s, []int{2, 6}) || !slices.Equal(a.Ints, []int{1, 2}) {
		t.Errorf("Tile: %v %v %v", s, a.Ints, f)
	}
	a = Attrs{Axes: []int{-1, 0}, Ints: []int{-1, 9}}
	if s, f := Roll.Shape(&a, [][]int{{4, 5}}); f != nil || !slices.Equal(s, []int{4, 5}) || !slices.Equal(a.Ints, []int{1, 4}) || !slices.Equal(a.Axes, []int{0, 1}) {
		t.Errorf("Roll: %v %v %v %v", s, a.Ints, a.Axes, f)
	}
	// Normalized attributes normalize to themselves (graph rewriters replay them).
	if s, f := Roll.Shape(&a, [][]int{{4, 5}}); f != nil || !slices.Equal(s, []int{4, 5}) || !slices.Equal(a.Ints, []int{1, 4}) || !slices.Equal(a.Axes, []int{0, 1}) {
		t.Errorf("Roll replayed: %v %v %v %v", s, a.Ints, a.Axes, f)
	}
	a = Attrs{Axes: []int{-1}}
	if s, f := Concatenate.Shape(&a, [][]int{{2, 3}, {2, 1}}); f != nil || !slices.Equal(s, []int{2, 4}) || a.Axes[0] != 1 {
		t.Errorf("Concatenate: %v %v %v", s, a.Axes, f)
	}
	a = Attrs{Axes: []int{0}, Ints: []int{1, 3}}
	if s, f := Split.Shape(&a, [][]int{{4}}); f != nil || !slices.Equal(s, []int{2}) {
		t.Errorf("Split: %v %v", s, f)
	}
	a = Attrs{Axes: []int{0}, Ints: []int{3, 2}}
	if _, f := Split.Shape(&a, [][]int{{4}}); f == nil || f.Kind != ErrArgument {
		t.Errorf("Split of a reversed range: %v", f)
	}
	a = Attrs{Ints: []int{int(PadEdge), 1, 2}}
	if s, f := Pad.Shape(&a, [][]int{{4}}); f != nil || !slices.Equal(s, []int{7}) {
		t.Errorf("Pad: %v %v", s, f)
	}
	if _, f := Contiguous.Shape(&Attrs{Ints: []int{2}}, [][]int{{4}}); f == nil || f.Arg != "order" {
		t.Errorf("Contiguous of order 2: %v", f)
	}
	for _, k := range Kinds() {
		if in := k.Info(); in.Args == nil && k != Einsum && k != Concatenate && k != Stack {
			t.Errorf("%v has no argument names (only variadic operations may)", k)
		}
	}
}

func TestRepeatIndex(t *testing.T) {
	if got := RepeatIndex([]int{2, 0, 1}, nil); !slices.Equal(got, []int64{0, 0, 2}) {
		t.Errorf("RepeatIndex: %v", got)
	}
}
