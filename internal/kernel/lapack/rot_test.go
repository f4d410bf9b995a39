package lapack

import (
	"math"
	"math/cmplx"
	"math/rand/v2"
	"testing"
)

func TestLartg(t *testing.T) {
	vals := []float64{0, 1, -1, 3, -4, 1e-300, -1e-300, 1e300, -1e300, 0x1p-1060, 2.5e-160, 7e153}
	for _, f := range vals {
		for _, g := range vals {
			c, s, r := Lartg(f, g)
			if d := math.Abs(c*c + s*s - 1); d > 4e-16 {
				t.Fatalf("Lartg(%g, %g): c²+s²−1 = %g", f, g, d)
			}
			// Check the rotation in scaled arithmetic: both rows relative to |r|.
			sc := math.Max(math.Abs(f), math.Abs(g))
			if sc == 0 {
				if c != 1 || s != 0 || r != 0 {
					t.Fatalf("Lartg(0, 0) = %g, %g, %g", c, s, r)
				}
				continue
			}
			// Residuals relative to the larger input, with room for r's
			// rounding when it is subnormal.
			tol := 4e-16*sc + 4*math.SmallestNonzeroFloat64
			if e1, e2 := math.Abs(c*f+s*g-r), math.Abs(-s*f+c*g); e1 > tol || e2 > tol {
				t.Fatalf("Lartg(%g, %g) = (%g, %g, %g): residuals %g, %g", f, g, c, s, r, e1, e2)
			}
			if c < 0 || f != 0 && math.Signbit(r) != math.Signbit(f) {
				t.Fatalf("Lartg(%g, %g): c = %g, r = %g: want c ≥ 0 and r of f's sign", f, g, c, r)
			}
		}
	}
}

func TestLasr(t *testing.T) {
	testLasr[float32](t, 2e-6)
	testLasr[float64](t, 1e-14)
	testLasr[complex64](t, 2e-6)
	testLasr[complex128](t, 1e-14)
}

func testLasr[T Scalar](t *testing.T, tol float64) {
	for l := range nLayouts {
		for _, fwd := range []bool{true, false} {
			m, n := 7, 5
			rng := rand.New(rand.NewPCG(3, uint64(l)))
			a := newMat[T](m, n, l, func(int, int) complex128 { return rnd[T](rng) })
			want := make([][]complex128, m)
			for i := range m {
				want[i] = make([]complex128, n)
				for j := range n {
					want[i][j] = a.c128(i, j)
				}
			}
			c := []float64{math.Cos(0.3), 1, math.Cos(2), math.Cos(-1)}
			s := []float64{math.Sin(0.3), 0, math.Sin(2), math.Sin(-1)}
			for t := range c {
				k := t
				if !fwd {
					k = len(c) - 1 - t
				}
				for i := range m {
					x, y := want[i][k], want[i][k+1]
					want[i][k] = complex(c[k], 0)*x + complex(s[k], 0)*y
					want[i][k+1] = complex(c[k], 0)*y - complex(s[k], 0)*x
				}
			}
			Lasr(fwd, m, a.Mat, 0, c, s)
			for i := range m {
				for j := range n {
					if d := cmplx.Abs(a.c128(i, j) - want[i][j]); d > tol {
						t.Fatalf("%T %v forward=%v: (%d, %d) off by %g", a.Data, l, fwd, i, j, d)
					}
				}
			}
			checkGuards(t, a)
		}
	}
}
