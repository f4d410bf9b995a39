package slicing_test

import (
	"bytes"
	"slices"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/slicing"
)

// FuzzRead feeds Read arbitrary bytes: it never panics, and a plan it
// accepts is consistent (slices the product of the numbers of chunks, labels
// written in the subscripts, a peak within int64) and survives
// Write/Read unchanged.
func FuzzRead(f *testing.F) {
	for _, c := range cases {
		p, err := slicing.New(tf.Float64, c.sub, c.shapes, 0)
		if err != nil {
			f.Fatal(err)
		}
		q, err := slicing.New(tf.Complex64, c.sub, c.shapes, p.SlicePeakBytes/4)
		if err != nil {
			f.Fatal(err)
		}
		for _, x := range []*slicing.Plan{p, q} {
			var b bytes.Buffer
			x.Write(&b)
			f.Add(b.Bytes())
		}
	}
	f.Add([]byte(`{"subscripts":"i->","shapes":[[3]],"dtype":"f32","path":[],"sliced_labels":[],"sliced_extents":[],"slices":1,"flop_overhead":1,"slice_peak_bytes":0,"output_shape":[]}`))
	f.Add([]byte(`{"subscripts":"ij,jk->ik","shapes":[[2,1e9],[1e9,2]],"dtype":"f64","path":[[0,1]],"sliced_labels":["j"],"sliced_extents":[1000000000],"slices":1000000000,"flop_overhead":1,"slice_peak_bytes":0,"output_shape":[2,2]}`))
	f.Add([]byte(`{"subscripts":"ij,jk->ik","shapes":[[2,-3],[3,2]]}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := slicing.Read(bytes.NewReader(data))
		if err != nil {
			return
		}
		n := 1
		for j, x := range p.SlicedExtents {
			w := 1
			if p.SlicedWidths != nil {
				w = p.SlicedWidths[j]
			}
			n *= (x + w - 1) / w
		}
		if n != p.Slices || len(p.SlicedLabels) != len(p.SlicedExtents) || p.SlicePeakBytes < 0 || !(p.FlopOverhead >= 1) {
			t.Fatalf("accepted an inconsistent plan: %+v", p)
		}
		var b bytes.Buffer
		if err := p.Write(&b); err != nil {
			t.Fatal(err)
		}
		q, err := slicing.Read(&b)
		if err != nil {
			t.Fatalf("Read(Write(p)): %v", err)
		}
		if q.Subscripts != p.Subscripts || !slices.Equal(q.Path, p.Path) || q.Slices != p.Slices || q.SlicePeakBytes != p.SlicePeakBytes {
			t.Fatalf("round trip changed the plan: %+v -> %+v", p, q)
		}
		if err := p.Check(nil); err == nil && len(p.Shapes) > 0 {
			t.Fatal("Check accepted no operands")
		}
	})
}
