package tenferro_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
)

func TestIndexingErrors(t *testing.T) {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.FromSlice([]float64{1, 2, 3, 4, 5, 6}, 2, 3)
	idx, _ := tf.FromSlice([]int64{0, -3, 3}, 3)
	idx2, _ := tf.Zeros[int64](2, 2)
	idx31, _ := tf.Zeros[int64](3, 1)
	gi, _ := tf.FromSlice([]int64{0, 1, 2, -4}, 2, 2)
	d23, _ := tf.Full(-1.0, 2, 3)
	d22, _ := tf.Full(-1.0, 2, 2)
	d2, _ := tf.Full(-1.0, 2)
	mask, _ := tf.FromSlice([]bool{true, false, true}, 3)
	mask2, _ := tf.Zeros[bool](2)
	checkFailures(t, []failure{
		{"TakeInto by index 3 of 3", func() error { return tf.TakeInto(e, d23, a, 1, idx) }, tf.ErrArgument, "TakeInto", "index"},
		{"Take by a 2-D index", func() error { _, err := tf.Take(e, a, 1, idx2); return err }, tf.ErrShape, "Take", "index"},
		{"Take of a nil index", func() error { _, err := tf.Take(e, a, 1, nil); return err }, tf.ErrArgument, "Take", "index"},
		{"GatherInto by -4 of 3", func() error { return tf.GatherInto(e, d22, a, 1, gi) }, tf.ErrArgument, "GatherInto", "index"},
		{"Gather of extents beyond a", func() error { _, err := tf.Gather(e, a, 1, idx31); return err }, tf.ErrShape, "Gather", "index"},
		{"ScatterAddInto by -4 of 3", func() error { return tf.ScatterAddInto(e, d23, a, 1, gi, a) }, tf.ErrArgument, "ScatterAddInto", "index"},
		{"ScatterAddInto onto src", func() error { return tf.ScatterAddInto(e, d23, a, 1, idx2, d23) }, tf.ErrAlias, "ScatterAddInto", "dst"},
		{"MaskedSelectInto of 2 for 4", func() error { _, err := tf.MaskedSelectInto(e, d2, a, mask); return err }, tf.ErrShape, "MaskedSelectInto", "dst"},
		{"MaskedSelectInto into a matrix", func() error { _, err := tf.MaskedSelectInto(e, d22, a, mask); return err }, tf.ErrShape, "MaskedSelectInto", "dst"},
		{"MaskedSelect of mismatched shapes", func() error { _, err := tf.MaskedSelect(e, a, mask2); return err }, tf.ErrShape, "MaskedSelect", "mask"},
	}, d23, d22, d2)
	// The error names the position of the bad value in the index.
	err := tf.GatherInto(e, d22, a, 1, gi)
	if !strings.Contains(err.Error(), "-4 at [1 1]") {
		t.Errorf("GatherInto error %q does not name the value and its position", err)
	}
	// An int64 destination must not overlap an int64 index, nor a bool one
	// a bool mask.
	ii, _ := tf.FromSlice([]int64{0, 1, 2, 1}, 4)
	if err := tf.TakeInto(e, ii, ii, 0, ii); !errors.Is(err, tf.ErrAlias) {
		t.Errorf("TakeInto onto its own index: %v", err)
	}
	bb, _ := tf.FromSlice([]bool{true, false}, 2)
	if _, err := tf.MaskedSelectInto(e, bb, bb, bb); !errors.Is(err, tf.ErrAlias) {
		t.Errorf("MaskedSelectInto onto its own mask: %v", err)
	}
	if !slices.Equal(ii.Storage(), []int64{0, 1, 2, 1}) {
		t.Error("a refused TakeInto wrote its destination")
	}
}
