package tenferro

import (
	"math"
	"math/cmplx"
	"strconv"

	"github.com/tenferro-go/tenferro/internal/op"
)

// AllClose reports whether every element of a is close to the element of b
// at the same index, by NumPy's rule
//
//	|a − b| <= atol + rtol·|b|
//
// evaluated in float64 (complex: |·| is the modulus, computed without
// overflow). The rule is not symmetric: rtol scales |b|, so b is the
// reference. Where a or b is not finite the elements are close only when
// they are equal: NaN is never close to anything, NaN included, and an
// infinity only to the same infinity (for complex T, an element is finite
// when both its parts are).
//
// a and b must have the same shape (an ErrShape error names both shapes
// otherwise; AllClose does not broadcast) and may be any views. rtol and
// atol must be non-negative and not NaN (ErrArgument). Empty tensors are
// close. AllClose reads the elements in place and allocates nothing.
func AllClose[T Scalar](a, b *Tensor[T], rtol, atol float64) (bool, error) {
	const name = "AllClose"
	if err := checkPair(name, a, b); err != nil {
		return false, err
	}
	if !equalInts(a.v.Shape, b.v.Shape) {
		return false, newError(name, "b", "shape "+op.FmtInts(a.v.Shape)+" (the shape of a; no broadcasting)", "shape "+op.FmtInts(b.v.Shape), ErrShape)
	}
	for _, tol := range [...]struct {
		arg string
		v   float64
	}{{"rtol", rtol}, {"atol", atol}} {
		if !(tol.v >= 0) {
			return false, newError(name, tol.arg, "a tolerance >= 0", strconv.FormatFloat(tol.v, 'g', -1, 64), ErrArgument)
		}
	}
	return allPairs(a, b, func(x, y T) bool {
		u, w := widen(x), widen(y)
		if isFinite(u) && isFinite(w) {
			return cmplx.Abs(u-w) <= atol+rtol*cmplx.Abs(w)
		}
		return u == w
	}), nil
}

// ArrayEqual reports whether a and b have the same shape and equal elements at
// every index, with Go's ==: NaN equals nothing, not even NaN, and -0
// equals +0 (NumPy's array_equal). Tensors of different shapes are not
// equal; that is a result, not an error. a and b may be any views. ArrayEqual
// reads the elements in place and allocates nothing.
func ArrayEqual[T Elem](a, b *Tensor[T]) (bool, error) {
	if err := checkPair("ArrayEqual", a, b); err != nil {
		return false, err
	}
	if !equalInts(a.v.Shape, b.v.Shape) {
		return false, nil
	}
	return allPairs(a, b, func(x, y T) bool { return x == y }), nil
}

// checkPair validates the two tensors of a comparison.
func checkPair[T Elem](name string, a, b *Tensor[T]) error {
	if err := a.check(name, "a"); err != nil {
		return err
	}
	return b.check(name, "b")
}

// allPairs reports whether f holds for the elements of a and b (of equal
// shapes) at every index, stopping at the first that fails. It walks both
// views in column-major order with an index on the stack.
func allPairs[T Elem](a, b *Tensor[T], f func(x, y T) bool) bool {
	n := a.Len()
	if n == 0 {
		return true
	}
	r := len(a.v.Shape)
	var idxBuf [MaxRank]int
	idx := idxBuf[:r]
	pa, pb := a.v.Off, b.v.Off
	da, db := a.st.Buf(), b.st.Buf()
	for range n {
		if !f(da[pa], db[pb]) {
			return false
		}
		for d := 0; d < r; d++ {
			idx[d]++
			pa += a.v.Strides[d]
			pb += b.v.Strides[d]
			if idx[d] < a.v.Shape[d] {
				break
			}
			pa -= a.v.Strides[d] * idx[d]
			pb -= b.v.Strides[d] * idx[d]
			idx[d] = 0
		}
	}
	return true
}

// isFinite reports whether both parts of c are finite.
func isFinite(c complex128) bool {
	return !math.IsInf(real(c), 0) && !math.IsNaN(real(c)) && !math.IsInf(imag(c), 0) && !math.IsNaN(imag(c))
}
