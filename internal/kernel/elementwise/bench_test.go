package elementwise

import (
	"testing"

	"github.com/tenferro-go/tenferro/internal/kernel/strided"
)

func benchRefs(n int) (d, a, b strided.Ref[float64]) {
	mk := func() strided.Ref[float64] {
		return strided.Ref[float64]{Data: make([]float64, n*n), Strides: []int{1, n}}
	}
	return mk(), mk(), mk()
}

// BenchmarkBinaryAdd: contiguous 512x512 float64 add (three streams).
func BenchmarkBinaryAdd(b *testing.B) {
	n := 512
	d, x, y := benchRefs(n)
	sh := []int{n, n}
	b.SetBytes(int64(3 * 8 * n * n))
	for b.Loop() {
		Binary(nil, Add, sh, d, x, y)
	}
}

// BenchmarkBinaryAddTransposed: the same with b read transposed.
func BenchmarkBinaryAddTransposed(b *testing.B) {
	n := 512
	d, x, y := benchRefs(n)
	y.Strides = []int{n, 1}
	sh := []int{n, n}
	b.SetBytes(int64(3 * 8 * n * n))
	for b.Loop() {
		Binary(nil, Add, sh, d, x, y)
	}
}

// BenchmarkEval: conj(2*(a+b)) fused over 512x512 complex128 versus the
// same as two Binary/Unary passes.
func BenchmarkEval(b *testing.B) {
	n := 512
	mk := func() strided.Ref[complex128] {
		return strided.Ref[complex128]{Data: make([]complex128, n*n), Strides: []int{1, n}}
	}
	d, x, y := mk(), mk(), mk()
	sh := []int{n, n}
	prog := []Instr[complex128]{{Op: Load, Arg: 0}, {Op: Load, Arg: 1}, {Op: AddOp}, {Op: ScaleBy, Scalar: 2}, {Op: ConjOp}}
	in := []strided.Ref[complex128]{x, y}
	b.Run("fused", func(b *testing.B) {
		var s Scratch[complex128]
		b.SetBytes(int64(3 * 16 * n * n))
		for b.Loop() {
			_ = Eval(nil, &s, prog, sh, d, in)
		}
	})
	b.Run("unfused", func(b *testing.B) {
		b.SetBytes(int64(3 * 16 * n * n))
		for b.Loop() {
			Binary(nil, Add, sh, d, x, y)
			Unary(nil, Scale, 2, sh, d, d)
			Unary(nil, Conj, 0, sh, d, d)
		}
	})
}
