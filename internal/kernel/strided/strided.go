// Package strided holds the strided view type shared by the element-wise,
// permutation and reduction kernels, and the helpers that normalise a strided
// iteration space before a kernel walks it.
//
// # Views
//
// A [Ref] names the elements of a column-major strided array: for a shape
// (n_0, ..., n_{k-1}) the element at multi-index (i_0, ..., i_{k-1}) is
//
//	Data[Off + i_0*Strides[0] + ... + i_{k-1}*Strides[k-1]]
//
// Strides may be negative (reversed views) or zero (broadcast views). A Ref
// does not carry its shape: kernels receive the shape separately, so one
// shape describes the common iteration space of several operands.
//
// # Normalisation
//
// A [Layout] records the shape and the per-operand offsets and strides of one
// kernel call in fixed-size arrays (rank at most [MaxRank] after size-1
// dimensions are dropped, at most [MaxOps] operands), so that normalising and
// walking it allocates nothing. Normalising drops size-1 dimensions, may
// reverse dimensions so that one operand has non-negative strides, sorts the
// dimensions by one operand's strides and fuses runs of dimensions that are
// contiguous in every operand.
package strided

import (
	"fmt"
	"math"
)

// Scalar is the set of arithmetic element types.
type Scalar interface {
	float32 | float64 | complex64 | complex128
}

// Elem is the set of element types the data-movement kernels (copies and
// permutations) support: the arithmetic types, int64 and bool.
type Elem interface {
	Scalar | int64 | bool
}

// MaxRank is the largest number of non-unit dimensions a kernel call may
// have. Size-1 dimensions are dropped first and do not count. A larger rank
// with every extent at least 2 would need at least 2^33 elements.
const MaxRank = 32

// MaxOps is the largest number of operands (destination included) that one
// Layout describes.
const MaxOps = 9

// Ref is a strided view of Data: the element at multi-index idx is
// Data[Off + sum_d idx[d]*Strides[d]]. len(Strides) equals the rank of the
// shape the Ref is used with.
type Ref[T Elem] struct {
	Data    []T
	Off     int
	Strides []int
}

// Size returns the number of elements of shape (the product of its extents;
// 1 for rank 0). It returns -1 when an extent is negative or the product
// overflows int.
func Size(shape []int) int {
	n := 1
	for _, e := range shape {
		if e < 0 {
			return -1
		}
		if e == 0 {
			n = 0
			continue
		}
		if n > math.MaxInt/e {
			return -1
		}
		n *= e
	}
	for _, e := range shape {
		if e == 0 {
			return 0
		}
	}
	return n
}

// Extent returns the smallest and largest offsets that a view with offset
// off and the given strides reaches over shape. For an empty shape (some
// extent 0) it returns (off, off) and ok reports false when the arithmetic
// overflows.
func Extent(shape, strides []int, off int) (lo, hi int, ok bool) {
	lo, hi = off, off
	for _, e := range shape {
		if e == 0 {
			return off, off, true
		}
	}
	for d, e := range shape {
		s := strides[d]
		if e <= 1 || s == 0 {
			continue
		}
		m := e - 1
		if abs(s) > math.MaxInt/2/m {
			return 0, 0, false
		}
		step := m * s
		if step > 0 {
			if hi > math.MaxInt-step {
				return 0, 0, false
			}
			hi += step
		} else {
			if lo < math.MinInt-step {
				return 0, 0, false
			}
			lo += step
		}
	}
	return lo, hi, true
}

// Validate checks that r addresses only elements inside r.Data when used with
// shape: len(r.Strides) == len(shape), no negative extent, and every offset
// reached lies in [0, len(r.Data)). An empty shape (an extent of 0) needs no
// storage. The error names op and arg.
func (r Ref[T]) Validate(op, arg string, shape []int) error {
	if len(r.Strides) != len(shape) {
		return fmt.Errorf("%s: %s has %d strides, expected %d (the rank of shape %v)", op, arg, len(r.Strides), len(shape), shape)
	}
	for d, e := range shape {
		if e < 0 {
			return fmt.Errorf("%s: shape %v has negative extent %d at axis %d", op, shape, e, d)
		}
	}
	if Size(shape) < 0 {
		return fmt.Errorf("%s: shape %v has too many elements", op, shape)
	}
	lo, hi, ok := Extent(shape, r.Strides, r.Off)
	if !ok {
		return fmt.Errorf("%s: %s offsets overflow for shape %v, strides %v", op, arg, shape, r.Strides)
	}
	if Size(shape) == 0 {
		return nil
	}
	if lo < 0 || hi >= len(r.Data) {
		return fmt.Errorf("%s: %s reaches offsets [%d, %d] but has %d elements (shape %v, strides %v, offset %d)",
			op, arg, lo, hi, len(r.Data), shape, r.Strides, r.Off)
	}
	return nil
}

// Rank returns the number of extents of shape that differ from 1: the rank a
// Layout keeps. Callers check it against MaxRank.
func Rank(shape []int) int {
	k := 0
	for _, e := range shape {
		if e != 1 {
			k++
		}
	}
	return k
}

// NumKinds is the number of element types Kind distinguishes.
const NumKinds = 6

// Kind returns 0, 1, 2, 3, 4 or 5 for float32, float64, complex64,
// complex128, int64 and bool: an index for per-type tables (the arithmetic
// types first).
func Kind[T Elem]() int {
	var z T
	switch any(z).(type) {
	case float32:
		return 0
	case float64:
		return 1
	case complex64:
		return 2
	case complex128:
		return 3
	case int64:
		return 4
	default:
		return 5
	}
}

// ElemSize returns the size in bytes of one T.
func ElemSize[T Elem]() int {
	return [NumKinds]int{4, 8, 8, 16, 8, 1}[Kind[T]()]
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
