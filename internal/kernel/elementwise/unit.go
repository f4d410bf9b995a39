package elementwise

import (
	"github.com/tenferro-go/tenferro/internal/kernel/strided"
	"github.com/tenferro-go/tenferro/internal/op"
)

// The loops below run over unit-stride rows four elements per step: the
// re-slicing to a fixed length 4 lets the compiler drop the bounds checks,
// and the unrolling halves the loop overhead of these memory-bound rows.

// unitRow sets d[i] = a[ao+i*as] op b[bo+i*bs] for i < len(d), where as and
// bs are each 0 (a broadcast scalar) or 1, not both 0.
func unitRow[T strided.Scalar](k op.Kind, d, a []T, ao, as int, b []T, bo, bs int) {
	n := len(d)
	switch {
	case as == 1 && bs == 1:
		binaryVV(k, d, a[ao:ao+n], b[bo:bo+n])
	case as == 1:
		binaryVS(k, d, a[ao:ao+n], b[bo])
	default:
		binarySV(k, d, a[ao], b[bo:bo+n])
	}
}

// addVV sets d[i] = x[i] + y[i]; len(x), len(y) >= len(d).
func addVV[T strided.Scalar](d, x, y []T) {
	x, y = x[:len(d)], y[:len(d)]
	i := 0
	for ; i+4 <= len(d); i += 4 {
		dd, xx, yy := d[i:i+4:i+4], x[i:i+4:i+4], y[i:i+4:i+4]
		dd[0], dd[1], dd[2], dd[3] = xx[0]+yy[0], xx[1]+yy[1], xx[2]+yy[2], xx[3]+yy[3]
	}
	for ; i < len(d); i++ {
		d[i] = x[i] + y[i]
	}
}

// subVV sets d[i] = x[i] - y[i]; len(x), len(y) >= len(d).
func subVV[T strided.Scalar](d, x, y []T) {
	x, y = x[:len(d)], y[:len(d)]
	i := 0
	for ; i+4 <= len(d); i += 4 {
		dd, xx, yy := d[i:i+4:i+4], x[i:i+4:i+4], y[i:i+4:i+4]
		dd[0], dd[1], dd[2], dd[3] = xx[0]-yy[0], xx[1]-yy[1], xx[2]-yy[2], xx[3]-yy[3]
	}
	for ; i < len(d); i++ {
		d[i] = x[i] - y[i]
	}
}

// mulVV sets d[i] = x[i] * y[i]; len(x), len(y) >= len(d).
func mulVV[T strided.Scalar](d, x, y []T) {
	x, y = x[:len(d)], y[:len(d)]
	i := 0
	for ; i+4 <= len(d); i += 4 {
		dd, xx, yy := d[i:i+4:i+4], x[i:i+4:i+4], y[i:i+4:i+4]
		dd[0], dd[1], dd[2], dd[3] = xx[0]*yy[0], xx[1]*yy[1], xx[2]*yy[2], xx[3]*yy[3]
	}
	for ; i < len(d); i++ {
		d[i] = x[i] * y[i]
	}
}

// addVS sets d[i] = x[i] + y; len(x) >= len(d).
func addVS[T strided.Scalar](d, x []T, y T) {
	x = x[:len(d)]
	i := 0
	for ; i+4 <= len(d); i += 4 {
		dd, xx := d[i:i+4:i+4], x[i:i+4:i+4]
		dd[0], dd[1], dd[2], dd[3] = xx[0]+y, xx[1]+y, xx[2]+y, xx[3]+y
	}
	for ; i < len(d); i++ {
		d[i] = x[i] + y
	}
}

// subSV sets d[i] = x - y[i]; len(y) >= len(d).
func subSV[T strided.Scalar](d []T, x T, y []T) {
	y = y[:len(d)]
	i := 0
	for ; i+4 <= len(d); i += 4 {
		dd, yy := d[i:i+4:i+4], y[i:i+4:i+4]
		dd[0], dd[1], dd[2], dd[3] = x-yy[0], x-yy[1], x-yy[2], x-yy[3]
	}
	for ; i < len(d); i++ {
		d[i] = x - y[i]
	}
}

// mulVS sets d[i] = x[i] * y; len(x) >= len(d).
func mulVS[T strided.Scalar](d, x []T, y T) {
	x = x[:len(d)]
	i := 0
	for ; i+4 <= len(d); i += 4 {
		dd, xx := d[i:i+4:i+4], x[i:i+4:i+4]
		dd[0], dd[1], dd[2], dd[3] = xx[0]*y, xx[1]*y, xx[2]*y, xx[3]*y
	}
	for ; i < len(d); i++ {
		d[i] = x[i] * y
	}
}
