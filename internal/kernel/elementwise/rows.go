package elementwise

import "github.com/tenferro-go/tenferro/internal/kernel/strided"

// unaryRow applies op to n elements: d[do+i*ds] = f(a[ao+i*as]).
func unaryRow[T strided.Scalar](op UnaryOp, alpha T, n int, d []T, do, ds int, a []T, ao, as int) {
	switch op {
	case Copy:
		if ds == 1 && as == 1 {
			copy(d[do:do+n], a[ao:ao+n])
			return
		}
		for i := 0; i < n; i++ {
			d[do] = a[ao]
			do += ds
			ao += as
		}
	case Scale:
		if ds == 1 && as == 1 {
			mulVS(d[do:do+n], a[ao:ao+n], alpha)
			return
		}
		for i := 0; i < n; i++ {
			d[do] = alpha * a[ao]
			do += ds
			ao += as
		}
	case Negate:
		if ds == 1 && as == 1 {
			dd, aa := d[do:do+n], a[ao:ao+n]
			for i := range dd {
				dd[i] = -aa[i]
			}
			return
		}
		for i := 0; i < n; i++ {
			d[do] = -a[ao]
			do += ds
			ao += as
		}
	case Conj:
		conjRow(n, d, do, ds, a, ao, as)
	default:
		panic("elementwise: unknown UnaryOp")
	}
}

// conjRow sets d[do+i*ds] = conj(a[ao+i*as]) for i < n.
func conjRow[T strided.Scalar](n int, d []T, do, ds int, a []T, ao, as int) {
	switch dd := any(d).(type) {
	case []complex64:
		aa := any(a).([]complex64)
		if ds == 1 && as == 1 {
			dd, aa = dd[do:do+n], aa[ao:ao+n]
			for i, v := range aa {
				dd[i] = complex(real(v), -imag(v))
			}
			return
		}
		for i := 0; i < n; i++ {
			v := aa[ao]
			dd[do] = complex(real(v), -imag(v))
			do += ds
			ao += as
		}
	case []complex128:
		aa := any(a).([]complex128)
		if ds == 1 && as == 1 {
			dd, aa = dd[do:do+n], aa[ao:ao+n]
			for i, v := range aa {
				dd[i] = complex(real(v), -imag(v))
			}
			return
		}
		for i := 0; i < n; i++ {
			v := aa[ao]
			dd[do] = complex(real(v), -imag(v))
			do += ds
			ao += as
		}
	default:
		unaryRow(Copy, 0, n, d, do, ds, a, ao, as)
	}
}

// binaryRow applies op to n elements: d[do+i*ds] = a[ao+i*as] op b[bo+i*bs].
func binaryRow[T strided.Scalar](op BinaryOp, n int, d []T, do, ds int, a []T, ao, as int, b []T, bo, bs int) {
	if ds == 1 && (as == 1 || as == 0) && (bs == 1 || bs == 0) && (as|bs) != 0 {
		unitRow(op, d[do:do+n], a, ao, as, b, bo, bs)
		return
	}
	switch op {
	case Add:
		for i := 0; i < n; i++ {
			d[do] = a[ao] + b[bo]
			do, ao, bo = do+ds, ao+as, bo+bs
		}
	case Sub:
		for i := 0; i < n; i++ {
			d[do] = a[ao] - b[bo]
			do, ao, bo = do+ds, ao+as, bo+bs
		}
	case Mul:
		for i := 0; i < n; i++ {
			d[do] = a[ao] * b[bo]
			do, ao, bo = do+ds, ao+as, bo+bs
		}
	default:
		panic("elementwise: unknown BinaryOp")
	}
}
