package slicing_test

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/einsum"
	"github.com/tenferro-go/tenferro/slicing"
)

// TestOutputSlicedRanges: plans made by NewWith with SliceOutput under an
// eighth of the unsliced peak slice output labels; written and read back,
// their slices in random ranges (zero outside the parts they write) summed
// by a Reducer give the unsliced contraction. A plan that lists an output
// label before a summed one is refused.
func TestOutputSlicedRanges(t *testing.T) {
	e := cpu.Serial()
	defer e.Close()
	rng := rand.New(rand.NewPCG(5, 6))
	outSliced := 0
	for _, c := range cases {
		full, err := slicing.New(tf.Float64, c.sub, c.shapes, 0)
		if err != nil {
			t.Fatal(err)
		}
		limit := full.SlicePeakBytes / 8
		p, err := slicing.NewWith(tf.Float64, c.sub, c.shapes, limit, einsum.Options{SliceOutput: true})
		if errors.Is(err, slicing.ErrLimitTooSmall) {
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", c.sub, err)
		}
		q := roundTrip(t, p)
		out := 0
		for _, l := range q.SlicedLabels {
			if strings.Contains(strings.Split(q.Subscripts, "->")[1], l) {
				out++
			}
		}
		if out > 0 {
			outSliced++
		}
		checkRanges(t, e, rng, c.sub, c.shapes, tf.Float64, q)
		if out > 0 && out < len(q.SlicedLabels) {
			// Output labels come last: moving one first is refused.
			bad := *q
			n := len(q.SlicedLabels)
			bad.SlicedLabels = append([]string{q.SlicedLabels[n-1]}, q.SlicedLabels[:n-1]...)
			bad.SlicedExtents = append([]int{q.SlicedExtents[n-1]}, q.SlicedExtents[:n-1]...)
			bad.SlicedWidths = append([]int{q.SlicedWidths[n-1]}, q.SlicedWidths[:n-1]...)
			var b bytes.Buffer
			bad.Write(&b)
			if _, err := slicing.Read(&b); !errors.Is(err, tf.ErrArgument) {
				t.Errorf("%s: an output label listed first was accepted (%v)", c.sub, err)
			}
		}
	}
	if outSliced < 2 {
		t.Errorf("only %d plans sliced an output label", outSliced)
	}
}
