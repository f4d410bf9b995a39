//go:build amd64 && !purego

package gemm

import (
	"math/rand/v2"
	"testing"
)

// TestMaskedKernels checks every masked AVX-512 kernel against its
// unmasked twin for every corner rows×cols of its tile, with and without
// loading C: the corner matches the twin bit for bit and every other
// element of C, in the tile and between its columns, keeps its sentinel.
func TestMaskedKernels(t *testing.T) {
	v := avx512Variant(t)
	checkMasked(t, "f64", &v.f64)
	checkMasked(t, "f32", &v.f32)
}

func checkMasked[T float32 | float64](t *testing.T, name string, kb *kernelInfo[T]) {
	type pair struct {
		kern   microKernel[T]
		masked maskedKernel[T]
		mr, nr int
	}
	pairs := []pair{{kb.kern, kb.kernM, kb.mr, kb.nr}}
	for i, e := range kb.edge {
		pairs = append(pairs, pair{e, kb.edgeM[i], (i + 1) * kb.lanes, kb.nr})
	}
	for _, e := range kb.colEdge {
		pairs = append(pairs, pair{e.kern, e.kernM, kb.mr, e.nr})
	}
	r := rand.New(rand.NewPCG(1, 2))
	const kc = 7
	for _, p := range pairs {
		if p.masked == nil {
			t.Fatalf("%s %dx%d: no masked twin", name, p.mr, p.nr)
		}
		a := make([]T, kc*p.mr)
		b := make([]T, kc*p.nr)
		for i := range a {
			a[i] = T(r.NormFloat64())
		}
		for i := range b {
			b[i] = T(r.NormFloat64())
		}
		ldc := p.mr + 3
		for rows := 1; rows <= p.mr; rows++ {
			for cols := 1; cols <= p.nr; cols++ {
				for _, loadC := range []bool{false, true} {
					c0 := make([]T, ldc*p.nr)
					for i := range c0 {
						c0[i] = T(r.NormFloat64())
					}
					want := append([]T(nil), c0...)
					p.kern(kc, a, p.mr, b, p.nr, 1, want, ldc, 1.5, -0.5, loadC)
					got := append([]T(nil), c0...)
					p.masked(kc, a, p.mr, b, p.nr, 1, got[:(cols-1)*ldc+rows], ldc, 1.5, -0.5, loadC, rows, cols)
					for j := 0; j < p.nr; j++ {
						for i := 0; i < ldc; i++ {
							k := i + j*ldc
							w := c0[k]
							if i < rows && j < cols {
								w = want[k]
							}
							if got[k] != w {
								t.Fatalf("%s %dx%d rows %d cols %d loadC %v: c[%d,%d] = %v, want %v",
									name, p.mr, p.nr, rows, cols, loadC, i, j, got[k], w)
							}
						}
					}
				}
			}
		}
	}
	t.Logf("%s: %d kernels", name, len(pairs))
}
