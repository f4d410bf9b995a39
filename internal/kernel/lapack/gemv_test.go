package lapack

import (
	"math"
	"math/cmplx"
	"math/rand/v2"
	"testing"
)

// TestGemvCol checks the column-major matrix-vector kernels of the
// bidiagonal reduction (with their AVX-512 loops where the CPU has them)
// against plain loops, for lengths around the vector widths and every
// column count up to nine, with a column stride and offsets.
func TestGemvCol(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 5))
	for _, m := range []int{1, 3, 4, 5, 7, 8, 9, 12, 16, 17, 31, 64, 67} {
		for n := 1; n <= 9; n++ {
			cs, off := m+3, 2
			af := make([]float64, off+cs*n)
			ac := make([]complex128, off+cs*n)
			for i := range af {
				af[i] = rng.Float64()*2 - 1
				ac[i] = complex(rng.Float64()*2-1, rng.Float64()*2-1)
			}
			xn, xi, xo := n, 3, 1 // x of gemvN: n entries xi apart from xo
			xf := make([]float64, xo+xn*xi)
			xc := make([]complex128, xo+xn*xi)
			for i := range xf {
				xf[i] = rng.Float64()*2 - 1
				xc[i] = complex(rng.Float64()*2-1, rng.Float64()*2-1)
			}
			yf := make([]float64, m)
			yc := make([]complex128, m)
			for i := range yf {
				yf[i] = rng.Float64()
				yc[i] = complex(rng.Float64(), rng.Float64())
			}
			alphaF, alphaC := 0.75, complex(0.5, -1.25)

			// y += α·A·x.
			wantF := append([]float64(nil), yf...)
			wantC := append([]complex128(nil), yc...)
			for i := range m {
				for j := range n {
					wantF[i] += alphaF * af[off+j*cs+i] * xf[xo+j*xi]
					wantC[i] += alphaC * ac[off+j*cs+i] * xc[xo+j*xi]
				}
			}
			gotF := append([]float64(nil), yf...)
			gotC := append([]complex128(nil), yc...)
			gemvNColF64(m, n, alphaF, af, off, cs, xf, xo, xi, gotF)
			gemvNColC128(m, n, alphaC, ac, off, cs, xc, xo, xi, gotC)
			for i := range m {
				if math.Abs(gotF[i]-wantF[i]) > 1e-14*float64(n+1) {
					t.Fatalf("gemvNColF64 m=%d n=%d: y[%d] = %v, want %v", m, n, i, gotF[i], wantF[i])
				}
				if cmplx.Abs(gotC[i]-wantC[i]) > 1e-14*float64(n+1) {
					t.Fatalf("gemvNColC128 m=%d n=%d: y[%d] = %v, want %v", m, n, i, gotC[i], wantC[i])
				}
			}

			// y[j·yi] += α·(Aᴴ·x)[j] with x of length m.
			xm := make([]complex128, m)
			xmf := make([]float64, m)
			for i := range xm {
				xmf[i] = rng.Float64()*2 - 1
				xm[i] = complex(rng.Float64()*2-1, rng.Float64()*2-1)
			}
			yi, yo := 2, 1
			ycf := make([]float64, yo+n*yi)
			ycc := make([]complex128, yo+n*yi)
			wcf := append([]float64(nil), ycf...)
			wcc := append([]complex128(nil), ycc...)
			for j := range n {
				var sf float64
				var sc complex128
				for i := range m {
					sf += af[off+j*cs+i] * xmf[i]
					sc += cmplx.Conj(ac[off+j*cs+i]) * xm[i]
				}
				wcf[yo+j*yi] += alphaF * sf
				wcc[yo+j*yi] += alphaC * sc
			}
			gemvCColF64(m, n, alphaF, af, off, cs, xmf, ycf, yo, yi)
			gemvCColC128(m, n, alphaC, ac, off, cs, xm, ycc, yo, yi)
			for i := range ycf {
				if math.Abs(ycf[i]-wcf[i]) > 1e-14*float64(m+1) {
					t.Fatalf("gemvCColF64 m=%d n=%d: y[%d] = %v, want %v", m, n, i, ycf[i], wcf[i])
				}
				if cmplx.Abs(ycc[i]-wcc[i]) > 1e-14*float64(m+1) {
					t.Fatalf("gemvCColC128 m=%d n=%d: y[%d] = %v, want %v", m, n, i, ycc[i], wcc[i])
				}
			}
		}
	}
}

// TestGer4 checks the four-column rank-1 update against plain loops for
// lengths around the vector widths.
func TestGer4(t *testing.T) {
	testGer4[float64](t)
	testGer4[complex128](t)
}

func testGer4[T Scalar](t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 7))
	for _, m := range []int{1, 3, 4, 5, 7, 8, 9, 12, 16, 17, 31, 64, 67} {
		x := make([]T, m)
		var cols, want [4][]T
		var v [4]T
		for i := range x {
			x[i] = fromC128[T](rnd[T](rng))
		}
		for k := range cols {
			v[k] = fromC128[T](rnd[T](rng))
			cols[k] = make([]T, m)
			for i := range cols[k] {
				cols[k][i] = fromC128[T](rnd[T](rng))
			}
			want[k] = append([]T(nil), cols[k]...)
			for i := range want[k] {
				want[k][i] -= x[i] * v[k]
			}
		}
		if !ger4(x, &cols, &v) {
			continue // no vector loops here (or too short): Getf2 keeps its Go loop
		}
		for k := range cols {
			for i := range cols[k] {
				if d := cmplx.Abs(toC128(cols[k][i]) - toC128(want[k][i])); d > 1e-15*4 {
					t.Fatalf("ger4 %T m=%d: c[%d][%d] = %v, want %v", x[0], m, k, i, cols[k][i], want[k][i])
				}
			}
		}
	}
}
