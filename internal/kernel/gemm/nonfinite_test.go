package gemm

import (
	"math"
	"testing"
)

// class names a float's kind for comparing non-finite results.
func class(x float64) string {
	switch {
	case math.IsNaN(x):
		return "NaN"
	case math.IsInf(x, 0):
		return "Inf"
	}
	return "finite"
}

// TestComplexNonFinite checks that one infinite entry of A gives the same
// kinds of result (finite, Inf or NaN, per part) on every path and variant
// (plain loops for tiny products, edge tiles, full kernels) as the naive
// product, for unit scalars: complex products by 1+0i are skipped, since
// 0·Inf would turn an infinite part into NaN on some paths only.
func TestComplexNonFinite(t *testing.T) {
	prev := ActiveVariant()
	defer SetVariant(prev)
	for _, v := range Variants() {
		if !v.Supported {
			continue
		}
		if _, err := SetVariant(v.Name); err != nil {
			t.Fatal(err)
		}
		for _, n := range []int{2, 5, 8, 9, 16, 31, 64} {
			for _, beta := range []complex128{0, 1} {
				a := make([]complex128, n*n)
				b := make([]complex128, n*n)
				c := make([]complex128, n*n)
				for i := range a {
					a[i], b[i], c[i] = 1+1i, 1-0.5i, 0.25
				}
				a[0] = complex(math.Inf(1), 0)
				am := Mat[complex128]{Data: a, RS: 1, CS: n}
				bm := Mat[complex128]{Data: b, RS: 1, CS: n}
				cm := Mat[complex128]{Data: c, RS: 1, CS: n}
				var ws Workspace
				Gemm(&ws, nil, n, n, n, 1, am, bm, beta, cm)
				for i := range n {
					for j := range n {
						var ref complex128
						for p := range n {
							ref += a[i+p*n] * b[p+j*n]
						}
						if beta == 1 {
							ref += 0.25
						}
						got := c[i+j*n]
						if class(real(got)) != class(real(ref)) || class(imag(got)) != class(imag(ref)) {
							t.Fatalf("%s n=%d beta=%v (%d,%d): %v, the naive product gives %v", v.Name, n, beta, i, j, got, ref)
						}
					}
				}
			}
		}
	}
}
