package hugepage

import (
	"testing"
	"unsafe"
)

// TestInterior compares the aligned interior with a walk over every page
// boundary near the range.
func TestInterior(t *testing.T) {
	const P = PageBytes
	for _, base := range []uintptr{0, 1, 8, P - 8, P, P + 4096, 7*P - 1} {
		for _, size := range []uintptr{0, 1, P - 1, P, P + 1, 2*P - 8, 2 * P, 3*P + 17, 10 * P} {
			p := 64*P + base
			lo, hi := interior(p, size)
			// Naive: the pages [a, a+P) with a aligned and p <= a, a+P <= p+size.
			var wlo, whi uintptr
			found := false
			for a := p &^ (P - 1); a <= p+size; a += P {
				if a >= p && a+P <= p+size {
					if !found {
						wlo, found = a-p, true
					}
					whi = a + P - p
				}
			}
			if !found {
				if lo != hi {
					t.Errorf("interior(%#x, %d) = [%d, %d), want empty", p, size, lo, hi)
				}
				continue
			}
			if lo != wlo || hi != whi {
				t.Errorf("interior(%#x, %d) = [%d, %d), want [%d, %d)", p, size, lo, hi, wlo, whi)
			}
		}
	}
}

func TestMakeLength(t *testing.T) {
	for _, n := range []int{0, 1, 1000, Threshold/8 - 1, Threshold / 8, Threshold/8 + 3} {
		s := Make[float64](n)
		if len(s) != n || cap(s) < n {
			t.Fatalf("Make(%d): len %d cap %d", n, len(s), cap(s))
		}
		for i, v := range s {
			if v != 0 {
				t.Fatalf("Make(%d)[%d] = %v, want 0", n, i, v)
			}
		}
	}
	if s := Make[struct{}](1 << 30); len(s) != 1<<30 {
		t.Fatalf("zero-size elements: len %d", len(s))
	}
}

// BenchmarkCopy copies 8M float64 (64 MiB, beyond the last-level cache)
// between slices made by make and between slices made by Make, all kept
// alive so that no slice reuses another's pages.
func BenchmarkCopy(b *testing.B) {
	const n = 8 << 20
	pairs := []struct {
		name     string
		dst, src []float64
	}{
		{"make", make([]float64, n), make([]float64, n)},
		{"Make", Make[float64](n), Make[float64](n)},
	}
	for _, c := range pairs {
		for i := range c.src {
			c.src[i] = float64(i)
		}
		copy(c.dst, c.src)
	}
	for _, c := range pairs {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(2 * n * int64(unsafe.Sizeof(c.src[0])))
			for b.Loop() {
				copy(c.dst, c.src)
			}
		})
	}
}
