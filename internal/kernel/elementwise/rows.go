package elementwise

import (
	"github.com/tenferro-go/tenferro/internal/kernel/strided"
	"github.com/tenferro-go/tenferro/internal/op"
)

// rowBlock is the number of elements a strided row is processed in: the
// row is gathered into (and scattered from) stack buffers of this size so
// that the vector kernels of ops.go serve every stride. It is small because
// the buffers are cleared on every call, and strided rows are often short.
const rowBlock = 32

// unaryRow applies k to n elements: d[do+i*ds] = f(a[ao+i*as]).
func unaryRow[T strided.Scalar](k op.Kind, p Params[T], n int, d []T, do, ds int, a []T, ao, as int) {
	switch {
	case ds == 1 && as == 1:
		unaryVec(k, d[do:do+n], a[ao:ao+n], p)
	case unaryStrided(k, p, n, d, do, ds, a, ao, as):
	case ds == 1:
		// Gather the input into the destination row, then update it in
		// place.
		row := d[do : do+n]
		gather(row, a, ao, as, 0, n, 1)
		unaryVec(k, row, row, p)
	default:
		var buf [rowBlock]T
		for lo := 0; lo < n; lo += rowBlock {
			m := min(rowBlock, n-lo)
			x := buf[:m]
			gather(x, a, ao+lo*as, as, 0, m, 1)
			unaryVec(k, x, x, p)
			scatter(d, x, do+lo*ds, ds, 0, m, 1)
		}
	}
}

// binaryRow applies k to n elements: d[do+i*ds] = a[ao+i*as] op b[bo+i*bs].
func binaryRow[T strided.Scalar](k op.Kind, n int, d []T, do, ds int, a []T, ao, as int, b []T, bo, bs int) {
	if ds == 1 && (as == 1 || as == 0) && (bs == 1 || bs == 0) && (as|bs) != 0 {
		unitRow(k, d[do:do+n], a, ao, as, b, bo, bs)
		return
	}
	if binaryStrided(k, n, d, do, ds, a, ao, as, b, bo, bs) {
		return
	}
	var bufX, bufY [rowBlock]T
	for lo := 0; lo < n; lo += rowBlock {
		m := min(rowBlock, n-lo)
		x, y := bufX[:m], bufY[:m]
		gather(x, a, ao+lo*as, as, 0, m, 1)
		gather(y, b, bo+lo*bs, bs, 0, m, 1)
		if ds == 1 {
			binaryVV(k, d[do+lo:do+lo+m], x, y)
			continue
		}
		binaryVV(k, x, x, y)
		scatter(d, x, do+lo*ds, ds, 0, m, 1)
	}
}
