package elementwise

import (
	"github.com/tenferro-go/tenferro/internal/kernel/strided"
	"github.com/tenferro-go/tenferro/internal/op"
)

// The kernels of the catalog's elementwise operations: vector loops over
// unit-stride slices, which the strided walks (Unary, Binary) and the fused
// evaluator (Eval) share. Adding an operation adds its cases to the
// switches below (and to Supports); nothing else in the package changes.
// Cheap operations may also add a strided loop (unaryStrided,
// binaryStrided); without one, strided rows are gathered into buffers.
// The dispatch is a switch, not a table of function values, so that the
// slices passed down stay on the stack. The cheap operations of real
// dtypes (and complex Add, Sub and Negate) go first to package simd's
// vector loops (vector.go); the loops below serve the rest.

// Params are the attributes of a unary operation: A is the factor of
// Scale and the lower bound of Clip, B the upper bound of Clip.
type Params[T strided.Scalar] struct{ A, B T }

// Supports reports whether Unary, Binary and Eval have a kernel for
// catalog operation k: the elementwise operations of one input dtype whose
// result has that dtype, for the dtypes the catalog accepts, and Abs and
// Angle for real dtypes (their complex forms are Hypot and Atan2 of the
// parts). Predicates, comparisons, Where and the logical operations have
// kernels of their own (Predicate, Compare, Select, Logical).
func Supports(k op.Kind) bool {
	in := k.Info()
	switch {
	case !k.Valid() || in.Accept&op.Numbers == 0:
		return false
	case in.Category != op.Data && in.Category != op.Unary && in.Category != op.Binary:
		return false
	case in.Result == op.RealDType:
		return k == op.Abs || k == op.Angle
	}
	return in.Result == op.SameDType
}

// unaryVec sets z[i] = k(x[i]) for i < len(z), with the operation's
// attributes p; len(x) >= len(z) and z may be x itself.
func unaryVec[T strided.Scalar](k op.Kind, z, x []T, p Params[T]) {
	if vectorUnaryCheap(k, z, x, p) {
		return
	}
	switch k {
	case op.Copy:
		copy(z, x[:len(z)])
	case op.Scale:
		mulVS(z, x, p.A)
	case op.Negate:
		negV(z, x)
	case op.Conj:
		conjV(z, x)
	default:
		mathUnary(k, z, x, p)
	}
}

// binaryVV sets z[i] = k(x[i], y[i]); len(x), len(y) >= len(z), z may be
// x or y.
func binaryVV[T strided.Scalar](k op.Kind, z, x, y []T) {
	if vectorVV(k, z, x, y) {
		return
	}
	switch k {
	case op.Add:
		addVV(z, x, y)
	case op.Sub:
		subVV(z, x, y)
	case op.Mul:
		mulVV(z, x, y)
	case op.Div:
		x, y = x[:len(z)], y[:len(z)]
		for i := range z {
			z[i] = x[i] / y[i]
		}
	default:
		mathBinary(k, z, x, y)
	}
}

// binaryVS sets z[i] = k(x[i], y).
func binaryVS[T strided.Scalar](k op.Kind, z, x []T, y T) {
	if vectorVS(k, z, x, y) {
		return
	}
	switch k {
	case op.Add:
		addVS(z, x, y)
	case op.Sub:
		addVS(z, x, -y)
	case op.Mul:
		mulVS(z, x, y)
	case op.Div:
		x = x[:len(z)]
		for i := range z {
			z[i] = x[i] / y
		}
	default:
		mathBinaryVS(k, z, x, y)
	}
}

// binarySV sets z[i] = k(x, y[i]).
func binarySV[T strided.Scalar](k op.Kind, z []T, x T, y []T) {
	if vectorSV(k, z, x, y) {
		return
	}
	switch k {
	case op.Add:
		addVS(z, y, x)
	case op.Sub:
		subSV(z, x, y)
	case op.Mul:
		mulVS(z, y, x)
	case op.Div:
		y = y[:len(z)]
		for i := range z {
			z[i] = x / y[i]
		}
	default:
		mathBinarySV(k, z, x, y)
	}
}

// unaryStrided runs the strided loop of the operations that have one (the
// cheap ones, for which gathering a row into a buffer would cost more than
// the operation) and reports whether k has one; the others go through the
// vector kernels on gathered rows.
func unaryStrided[T strided.Scalar](k op.Kind, p Params[T], n int, d []T, do, ds int, a []T, ao, as int) bool {
	switch k {
	case op.Copy:
		for range n {
			d[do] = a[ao]
			do, ao = do+ds, ao+as
		}
	case op.Scale:
		for range n {
			d[do] = p.A * a[ao]
			do, ao = do+ds, ao+as
		}
	case op.Negate:
		for range n {
			d[do] = -a[ao]
			do, ao = do+ds, ao+as
		}
	default:
		return false
	}
	return true
}

// binaryStrided is unaryStrided for binary operations.
func binaryStrided[T strided.Scalar](k op.Kind, n int, d []T, do, ds int, a []T, ao, as int, b []T, bo, bs int) bool {
	switch k {
	case op.Add:
		for range n {
			d[do] = a[ao] + b[bo]
			do, ao, bo = do+ds, ao+as, bo+bs
		}
	case op.Sub:
		for range n {
			d[do] = a[ao] - b[bo]
			do, ao, bo = do+ds, ao+as, bo+bs
		}
	case op.Mul:
		for range n {
			d[do] = a[ao] * b[bo]
			do, ao, bo = do+ds, ao+as, bo+bs
		}
	default:
		return false
	}
	return true
}

// negV sets z[i] = -x[i].
func negV[T strided.Scalar](z, x []T) {
	x = x[:len(z)]
	for i := range z {
		z[i] = -x[i]
	}
}

// conjV sets z[i] = conj(x[i]) (a copy for real T).
func conjV[T strided.Scalar](z, x []T) {
	switch zz := any(z).(type) {
	case []complex64:
		xx := any(x).([]complex64)[:len(zz)]
		for i, v := range xx {
			zz[i] = complex(real(v), -imag(v))
		}
	case []complex128:
		xx := any(x).([]complex128)[:len(zz)]
		for i, v := range xx {
			zz[i] = complex(real(v), -imag(v))
		}
	default:
		copy(z, x[:len(z)])
	}
}
