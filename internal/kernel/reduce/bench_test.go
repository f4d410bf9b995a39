package reduce

import (
	"testing"

	"github.com/tenferro-go/tenferro/internal/kernel/strided"
)

func vec(n int) strided.Ref[float64] {
	x := make([]float64, n)
	for i := range x {
		x[i] = float64(i%7) - 3
	}
	return strided.Ref[float64]{Data: x, Strides: []int{1}}
}

// BenchmarkDot: contiguous float64 dot product of length 2^16.
func BenchmarkDot(b *testing.B) {
	n := 1 << 16
	a, c := vec(n), vec(n)
	d := strided.Ref[float64]{Data: make([]float64, 1), Strides: []int{0}}
	b.SetBytes(int64(16 * n))
	for b.Loop() {
		SumProduct(nil, []int{n}, d, a, c)
	}
}

// BenchmarkColumnSums: sums of the columns (inner reduction) and of the rows
// (vector accumulation) of a 512x512 float64 matrix.
func BenchmarkColumnSums(b *testing.B) {
	n := 512
	a := vec(n * n)
	a.Strides = []int{1, n}
	for _, c := range []struct {
		name string
		ds   []int
	}{{"reduce-axis0", []int{0, 1}}, {"reduce-axis1", []int{1, 0}}} {
		b.Run(c.name, func(b *testing.B) {
			d := strided.Ref[float64]{Data: make([]float64, n), Strides: c.ds}
			b.SetBytes(int64(8 * n * n))
			for b.Loop() {
				Sum(nil, []int{n, n}, d, a)
			}
		})
	}
}

// BenchmarkOuter: 512x512 outer product (no reduced axis).
func BenchmarkOuter(b *testing.B) {
	n := 512
	x, y := vec(n), vec(n)
	x.Strides = []int{1, 0}
	y.Strides = []int{0, 1}
	d := strided.Ref[float64]{Data: make([]float64, n*n), Strides: []int{1, n}}
	b.SetBytes(int64(8 * n * n))
	for b.Loop() {
		SumProduct(nil, []int{n, n}, d, x, y)
	}
}
