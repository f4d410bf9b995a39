package vmath

import "testing"

// TestStackBuffersDoNotEscape checks that the functions leave their
// arguments on the caller's stack: the elementwise kernels pass stack
// blocks, and a heap copy would cost an allocation per call.
func TestStackBuffersDoNotEscape(t *testing.T) {
	for _, v := range Variants() {
		if !v.Supported {
			continue
		}
		prev, err := SetVariant(v.Name)
		if err != nil {
			t.Fatal(err)
		}
		allocs := testing.AllocsPerRun(20, func() {
			var a, b [37]float64
			var c, d [37]float32
			for i := range a {
				a[i] = float64(i) / 8
				c[i] = float32(i) / 8
			}
			Exp(b[:], a[:])
			Tanh(b[:], b[:])
			Log1p(d[:], c[:])
			Sin(d[:], d[:])
			sink64, sink32 = b[3], d[5]
		})
		SetVariant(prev)
		if allocs != 0 {
			t.Errorf("%s: %v allocations per call on stack buffers", v.Name, allocs)
		}
	}
}

var (
	sink64 float64
	sink32 float32
)
