package elementwise

import (
	"math"
	"testing"

	"github.com/tenferro-go/tenferro/internal/kernel/strided"
	"github.com/tenferro-go/tenferro/internal/op"
)

// TestDivIEEE pins the IEEE cases of Div on every path (vector, scalar
// divisor, scalar dividend, strided): x/0 is ±Inf by the signs, 0/0 and
// Inf/Inf are NaN, x/Inf is ±0.
func TestDivIEEE(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	x := []float64{1, -1, 0, inf, 3, -2}
	y := []float64{0, 0, 0, inf, inf, -0.5}
	want := []float64{inf, -inf, nan, nan, 0, 4}
	check := func(what string, got []float64) {
		t.Helper()
		for i := range want {
			if w, g := want[i], got[i]; !(g == w || math.IsNaN(w) && math.IsNaN(g)) || w == 0 && math.Signbit(g) != math.Signbit(w) {
				t.Errorf("%s: %v/%v = %v, want %v", what, x[i], y[i], g, w)
			}
		}
	}
	z := make([]float64, len(x))
	binaryVV(op.Div, z, x, y)
	check("vector", z)
	for i := range x {
		binaryVS(op.Div, z[i:i+1], x[i:i+1], y[i])
		binarySV(op.Div, z[i:i+1], x[i], y[i:i+1])
	}
	check("scalar", z)
	// Strided, through Binary: every second element of interleaved rows.
	xs, ys := make([]float64, 2*len(x)), make([]float64, 2*len(y))
	for i := range x {
		xs[2*i], ys[2*i+1] = x[i], y[i]
	}
	zs := make([]float64, 2*len(x))
	shape := []int{len(x)}
	Binary(nil, op.Div, shape, strided.Ref[float64]{Data: zs, Off: 1, Strides: []int{2}},
		strided.Ref[float64]{Data: xs, Strides: []int{2}}, strided.Ref[float64]{Data: ys, Off: 1, Strides: []int{2}})
	for i := range z {
		z[i] = zs[2*i+1]
	}
	check("strided", z)
	// Complex: (1+1i)/0 is not finite; 0/0 is NaN.
	c := []complex128{1 + 1i, 0}
	d := []complex128{0, 0}
	r := make([]complex128, 2)
	binaryVV(op.Div, r, c, d)
	if !math.IsInf(real(r[0]), 0) && !math.IsNaN(real(r[0])) || !math.IsNaN(real(r[1])) {
		t.Errorf("complex division by zero: %v", r)
	}
}
