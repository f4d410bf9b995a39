package simd

import (
	"fmt"
	"testing"

	"github.com/tenferro-go/tenferro/internal/hugepage"
)

// BenchmarkStream times z = x + y and z = -x against copy(z, x) on rows of
// 1M, 4M and 16M elements, with ordinary and with streaming stores; it is
// how StreamBytes was chosen (the working set from which streaming wins).
// The rows are made as the library's tensors are (hugepage.Make).
//
//	go test -run - -bench Stream -count 5 ./internal/kernel/simd
func BenchmarkStream(b *testing.B) {
	benchStream[float32](b, "f32")
	benchStream[float64](b, "f64")
}

func benchStream[F Float](b *testing.B, name string) {
	for _, n := range []int{1 << 20, 4 << 20, 16 << 20} {
		x, y, z := hugepage.Make[F](n), hugepage.Make[F](n), hugepage.Make[F](n)
		for i := range x {
			x[i], y[i] = F(i), 1
		}
		size := int64(4)
		if name == "f64" {
			size = 8
		}
		b.Run(fmt.Sprintf("%s/%dM/copy", name, n>>20), func(b *testing.B) {
			b.SetBytes(2 * size * int64(n))
			for b.Loop() {
				copy(z, x)
			}
		})
		for _, sb := range []int{1 << 62, 0} {
			mode := "cached"
			if sb == 0 {
				mode = "stream"
			}
			old := StreamBytes
			StreamBytes = sb
			b.Run(fmt.Sprintf("%s/%dM/add/%s", name, n>>20, mode), func(b *testing.B) {
				b.SetBytes(3 * size * int64(n))
				for b.Loop() {
					VV(Add, z, x, y)
				}
			})
			b.Run(fmt.Sprintf("%s/%dM/neg/%s", name, n>>20, mode), func(b *testing.B) {
				b.SetBytes(2 * size * int64(n))
				for b.Loop() {
					Unary(Neg, z, x, 0, 0)
				}
			})
			StreamBytes = old
		}
	}
}
