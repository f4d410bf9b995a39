package slicing_test

import (
	"bytes"
	"errors"
	"fmt"
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
		var buf bytes.Buffer
		if err := p.Write(&buf); err != nil {
			t.Fatal(err)
		}
		q, err := slicing.Read(&buf)
		if err != nil {
			t.Fatalf("%s: Read(Write): %v", c.sub, err)
		}
		out := 0
		for _, l := range q.SlicedLabels {
			if strings.Contains(strings.Split(q.Subscripts, "->")[1], l) {
				out++
			}
		}
		if out > 0 {
			outSliced++
		}
		ops := make([]tf.Value, len(c.shapes))
		for k, s := range c.shapes {
			ops[k] = randomValue(rng, tf.Float64, s)
		}
		r, err := slicing.NewReducer(q)
		if err != nil {
			t.Fatal(err)
		}
		for lo := 0; lo < q.Slices; {
			hi := min(lo+1+rng.IntN(7), q.Slices)
			partial, _ := tf.NewValue(tf.Float64, q.OutputShape...)
			if err := slicing.ContractRange(e, q, lo, hi, ops, partial); err != nil {
				t.Fatalf("%s [%d, %d): %v", c.sub, lo, hi, err)
			}
			if _, err := r.Add(lo, hi, partial); err != nil {
				t.Fatal(err)
			}
			lo = hi
		}
		got, err := r.Result()
		if err != nil {
			t.Fatal(err)
		}
		near(t, fmt.Sprintf("%s %v (%d slices)", c.sub, q.SlicedLabels, q.Slices), got, unsliced(t, e, tf.Float64, c.sub, ops), tolOf(tf.Float64))
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
