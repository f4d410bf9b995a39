package elementwise

import (
	"fmt"
	"testing"

	"github.com/tenferro-go/tenferro/internal/kernel/strided"
	st "github.com/tenferro-go/tenferro/internal/kernel/strided/stridedtest"
	"github.com/tenferro-go/tenferro/internal/op"
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
		Binary(nil, op.Add, sh, d, x, y)
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
		Binary(nil, op.Add, sh, d, x, y)
	}
}

// BenchmarkEval: conj(2*(a+b)) fused over n x n complex128 (n = 128: in
// L2; n = 512: 12 MiB in all) versus the same as three Binary/Unary passes.
func BenchmarkEval(b *testing.B) {
	for _, n := range []int{128, 512} {
		mk := func() strided.Ref[complex128] {
			r := strided.Ref[complex128]{Data: make([]complex128, n*n), Strides: []int{1, n}}
			for i := range r.Data {
				r.Data[i] = complex(float64(i%13)-6, float64(i%7)-3)
			}
			return r
		}
		d, x, y := mk(), mk(), mk()
		sh := []int{n, n}
		prog := []Instr[complex128]{{Op: Load, Arg: 0}, {Op: Load, Arg: 1}, {Op: Apply, Kind: op.Add}, {Op: Apply, Kind: op.Scale, Scalar: 2}, {Op: Apply, Kind: op.Conj}}
		in := []strided.Ref[complex128]{x, y}
		b.Run(fmt.Sprintf("fused/%d", n), func(b *testing.B) {
			var s Scratch[complex128]
			b.SetBytes(int64(3 * 16 * n * n))
			for b.Loop() {
				_ = Eval(nil, &s, prog, sh, d, in)
			}
		})
		b.Run(fmt.Sprintf("unfused/%d", n), func(b *testing.B) {
			b.SetBytes(int64(3 * 16 * n * n))
			for b.Loop() {
				Binary(nil, op.Add, sh, d, x, y)
				Unary(nil, op.Scale, Params[complex128]{A: 2}, sh, d, d)
				Unary(nil, op.Conj, Params[complex128]{}, sh, d, d)
			}
		})
	}
}

// BenchmarkEvalShortRows: a + b where b is a length-3 vector broadcast
// along the second axis of a 3 x 100000 float64 array, so the fastest
// fused dimension has only 3 elements.
func BenchmarkEvalShortRows(b *testing.B) {
	n0, n1 := 3, 100000
	d := strided.Ref[float64]{Data: make([]float64, n0*n1), Strides: []int{1, n0}}
	x := strided.Ref[float64]{Data: make([]float64, n0*n1), Strides: []int{1, n0}}
	y := strided.Ref[float64]{Data: make([]float64, n0), Strides: []int{1, 0}}
	prog := []Instr[float64]{{Op: Load, Arg: 0}, {Op: Load, Arg: 1}, {Op: Apply, Kind: op.Add}}
	in := []strided.Ref[float64]{x, y}
	var s Scratch[float64]
	sh := []int{n0, n1}
	b.SetBytes(int64(2 * 8 * n0 * n1))
	for b.Loop() {
		_ = Eval(nil, &s, prog, sh, d, in)
	}
}

// BenchmarkBinaryShortRows: the Binary form of BenchmarkEvalShortRows.
func BenchmarkBinaryShortRows(b *testing.B) {
	n0, n1 := 3, 100000
	d := strided.Ref[float64]{Data: make([]float64, n0*n1), Strides: []int{1, n0}}
	x := strided.Ref[float64]{Data: make([]float64, n0*n1), Strides: []int{1, n0}}
	y := strided.Ref[float64]{Data: make([]float64, n0), Strides: []int{1, 0}}
	sh := []int{n0, n1}
	b.SetBytes(int64(2 * 8 * n0 * n1))
	for b.Loop() {
		Binary(nil, op.Add, sh, d, x, y)
	}
}

// BenchmarkBatchedOuter: C[j,k,o,t] = A[k,j,t] * B[o,t] over shape
// (16,16,64,64) float64 with dst compact, as the einsum executor issues
// kjt,ot->jkot ("noncompact": a read with strides (16,1,0,256)) and
// jkt,ot->jkot ("compact": a strides (1,16,0,256)). b has strides
// (0,0,1,64) in both.
func BenchmarkBatchedOuter(b *testing.B) {
	sh := []int{16, 16, 64, 64}
	dst := strided.Ref[float64]{Data: make([]float64, strided.Size(sh)), Strides: []int{1, 16, 256, 16384}}
	x := strided.Ref[float64]{Data: make([]float64, 16*16*64)}
	y := strided.Ref[float64]{Data: make([]float64, 64*64), Strides: []int{0, 0, 1, 64}}
	for i := range x.Data {
		x.Data[i] = float64(i%7) + 0.5
	}
	for i := range y.Data {
		y.Data[i] = float64(i%5) - 1.5
	}
	for _, c := range []struct {
		name    string
		strides []int
	}{{"noncompact", []int{16, 1, 0, 256}}, {"compact", []int{1, 16, 0, 256}}} {
		x.Strides = c.strides
		xc := x
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(8 * len(dst.Data)))
			for b.Loop() {
				Binary(nil, op.Mul, sh, dst, xc, y)
			}
		})
		b.Run(c.name+"/par2", func(b *testing.B) {
			r := st.NewRunner(2)
			defer r.Close()
			b.SetBytes(int64(8 * len(dst.Data)))
			for b.Loop() {
				Binary(r, op.Mul, sh, dst, xc, y)
			}
		})
	}
}

// BenchmarkMathBinary: Pow, Atan2 and Hypot over 8192 contiguous elements
// (in cache) with Pow's bases in [0.5, 2] and the other arguments in
// [-1, 1], the ranges of tenferro bench ops.
func BenchmarkMathBinary(b *testing.B) {
	for _, k := range []op.Kind{op.Pow, op.Atan2, op.Hypot} {
		b.Run(k.String()+"/f64", func(b *testing.B) { benchMathBinary[float64](b, k) })
		b.Run(k.String()+"/f32", func(b *testing.B) { benchMathBinary[float32](b, k) })
	}
}

func benchMathBinary[F float32 | float64](b *testing.B, k op.Kind) {
	const n = 8192
	z, x, y := make([]F, n), make([]F, n), make([]F, n)
	for i := range x {
		u, v := float64(i)/n, float64((i*7919)%n)/n
		x[i], y[i] = F(2*u-1), F(2*v-1)
		if k == op.Pow {
			x[i] = F(0.5 + 1.5*u)
		}
	}
	b.SetBytes(int64(n))
	for b.Loop() {
		mathBinary(k, z, x, y)
	}
}
