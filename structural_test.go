package tenferro_test

import (
	"errors"
	"slices"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
)

// failure is a call that must fail with an *Error of kind, naming op and
// arg, leaving the destinations untouched.
type failure struct {
	name    string
	call    func() error
	kind    error
	op, arg string
}

func checkFailures(t *testing.T, cases []failure, dsts ...*tf.Tensor[float64]) {
	t.Helper()
	before := make([][]float64, len(dsts))
	for i, d := range dsts {
		before[i] = slices.Clone(d.Storage())
	}
	for _, c := range cases {
		err := c.call()
		var te *tf.Error
		if !errors.Is(err, c.kind) || !errors.As(err, &te) || te.Op != c.op || te.Arg != c.arg {
			t.Errorf("%s: %v; want %v from %s naming %q", c.name, err, c.kind, c.op, c.arg)
		}
	}
	for i, d := range dsts {
		if !slices.Equal(before[i], d.Storage()) {
			t.Errorf("destination %d was written by a failed call", i)
		}
	}
}

func TestStructuralErrors(t *testing.T) {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromSlice([]float64{1, 2, 3, 4, 5, 6}, 2, 3)
	v, _ := tf.FromSlice([]float64{1, 2, 3}, 3)
	d23, _ := tf.Full(-1.0, 2, 3)
	d6, _ := tf.Full(-1.0, 6)
	d26, _ := tf.Full(-1.0, 2, 6)
	rel, _ := tf.Zeros[float64](2, 3)
	rel.Release()
	over, _ := a.Slice(1, 0, 2, 1) // a view of a's storage
	bc, _ := v.Reshape(1, 3)
	bcast, _ := bc.Broadcast(2, 3)
	a2, _ := tf.Zeros[float64](2, 2)
	a1, _ := tf.Zeros[float64](2, 1)
	x3, _ := tf.Zeros[float64](1, 2, 3)
	big, _ := tf.Full(-1.0, 2, 3, 2)
	slab, _ := big.Slice(2, 0, 1, 1)
	slab2, _ := slab.Reshape(2, 3)
	sq, _ := tf.Full(-1.0, 3, 4)
	left, _ := sq.Slice(1, 0, 3, 1)
	right, _ := sq.Slice(1, 1, 4, 1)
	checkFailures(t, []failure{
		{"Squeeze of an axis of extent 3", func() error { _, err := a.Squeeze(1); return err }, tf.ErrShape, "Squeeze", "axes"},
		{"Unsqueeze without axes", func() error { _, err := a.Unsqueeze(); return err }, tf.ErrArgument, "Unsqueeze", "axes"},
		{"Split unevenly", func() error { _, err := a.Split(1, 2); return err }, tf.ErrShape, "Split", "n"},
		{"SplitAt a bad axis", func() error { _, err := a.SplitAt(-3, 1); return err }, tf.ErrArgument, "SplitAt", "axis"},
		{"FlattenInto of the wrong length", func() error { return tf.FlattenInto(e, d23, a) }, tf.ErrShape, "FlattenInto", "dst"},
		{"ReshapeCopy to 4 elements", func() error { _, err := tf.ReshapeCopy(e, a, 4); return err }, tf.ErrShape, "ReshapeCopy", "shape"},
		{"ReshapeCopyInto of 3 elements", func() error { return tf.ReshapeCopyInto(e, d23, v) }, tf.ErrShape, "ReshapeCopyInto", "dst"},
		{"ReshapeCopyInto onto its input", func() error { return tf.ReshapeCopyInto(e, a, a) }, tf.ErrAlias, "ReshapeCopyInto", "dst"},
		{"Contiguous of order 2", func() error { _, err := tf.Contiguous(e, a, 2); return err }, tf.ErrArgument, "Contiguous", "order"},
		{"ConcatenateInto of extents", func() error { return tf.ConcatenateInto(e, d26, 0, a, v) }, tf.ErrShape, "ConcatenateInto", "operands[1]"},
		{"ConcatenateInto of a released tensor", func() error { return tf.ConcatenateInto(e, d26, 1, a, rel) }, tf.ErrReleased, "ConcatenateInto", "operands[1]"},
		{"ConcatenateInto with a nil tensor", func() error { return tf.ConcatenateInto(e, d26, 1, a, nil) }, tf.ErrArgument, "ConcatenateInto", "operands[1]"},
		{"ConcatenateInto overlapping an input", func() error { return tf.ConcatenateInto(e, a, 1, over, a1) }, tf.ErrAlias, "ConcatenateInto", "dst"},
		{"ConcatenateInto into a wrong shape", func() error { return tf.ConcatenateInto(e, d23, 1, a, a) }, tf.ErrShape, "ConcatenateInto", "dst"},
		{"StackInto overlapping an input", func() error { return tf.StackInto(e, big, 2, a, slab2) }, tf.ErrAlias, "StackInto", "dst"},
		{"StackInto of two shapes", func() error { return tf.StackInto(e, big, 2, a, a2) }, tf.ErrShape, "StackInto", "operands[1]"},
		{"Stack of no tensors", func() error { _, err := tf.Stack[float64](e, 0); return err }, tf.ErrArgument, "Stack", "operands"},
		{"TileInto a broadcast destination", func() error { return tf.TileInto(e, bcast, v, 2, 1) }, tf.ErrAlias, "TileInto", "dst"},
		{"Tile negatively", func() error { _, err := tf.Tile(e, a, -1); return err }, tf.ErrArgument, "Tile", "reps"},
		{"RepeatInto with 2 counts for 3", func() error { return tf.RepeatInto(e, d26, a, 1, 1, 2) }, tf.ErrShape, "RepeatInto", "repeats"},
		{"RepeatInto overlapping", func() error { return tf.RepeatInto(e, d6, d6, 0, 1) }, tf.ErrAlias, "RepeatInto", "dst"},
		{"PadInto with a negative width", func() error {
			return tf.PadInto(e, d23, a, [][2]int{{0, 0}, {-1, 1}}, tf.PadConstant, 0)
		}, tf.ErrArgument, "PadInto", "widths"},
		{"PadInto of the wrong shape", func() error {
			return tf.PadInto(e, d23, a, [][2]int{{0, 0}, {1, 2}}, tf.PadWrap, 0)
		}, tf.ErrShape, "PadInto", "dst"},
		{"RollInto without axes", func() error { return tf.RollInto(e, d23, a, []int{1}, nil) }, tf.ErrArgument, "RollInto", "axes"},
		{"RollInto onto its input", func() error { return tf.RollInto(e, a, a, []int{1}, []int{0}) }, tf.ErrAlias, "RollInto", "dst"},
		{"TrilInto of a vector", func() error { return tf.TrilInto(e, d6, d6, 0) }, tf.ErrShape, "TrilInto", "a"},
		{"TriuInto partly overlapping", func() error { return tf.TriuInto(e, right, left, 0) }, tf.ErrAlias, "TriuInto", "dst"},
		{"DiagInto of a tensor", func() error { return tf.DiagInto(e, d6, x3, 0) }, tf.ErrShape, "DiagInto", "a"},
		{"Roll with a nil engine", func() error { _, err := tf.Roll(nil, a, []int{1}, []int{0}); return err }, tf.ErrArgument, "Roll", "e"},
	}, d23, d6, d26, a, big, sq)
}
