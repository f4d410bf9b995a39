package reduce

import (
	"strconv"
	"sync"

	"github.com/tenferro-go/tenferro/internal/kernel/strided"
	"github.com/tenferro-go/tenferro/internal/par"
)

var argPools [2]sync.Pool

// Arg sets dst[i] to the index along axis of the first maximum (the first
// minimum when minimum) of the 1-D fibre src[i, :] (NumPy's argmax and
// argmin): ties give the smallest index and a NaN beats every number, so
// the index of the first NaN is returned when the fibre has one.
//
// As for [Sum], shape is the whole iteration space and dst repeats its
// element along the reduced axis: dst.Strides[axis] must be 0 and dst's
// other strides are those of the kept axes (no other stride may be 0 on an
// extent above 1). An empty fibre (shape[axis] == 0 with kept elements to
// write) is the caller's error: Arg panics. r may be nil (serial).
func Arg[T Float](r par.Runner, minimum bool, shape []int, axis int, dst strided.Ref[int64], src strided.Ref[T]) {
	if axis < 0 || axis >= len(shape) || dst.Strides[axis] != 0 {
		panic("reduce.Arg: dst must have stride 0 along axis " + strconv.Itoa(axis))
	}
	fold(r, &argPools[strided.Kind[T]()], "Arg", argFold[T]{minimum}, shape, dst, src, src)
}

// argState is the best value seen so far and its index (-1: none yet).
type argState[F Float] struct {
	v F
	i int
}

// argFold finds the first extremum; a NaN wins over every number and the
// first NaN over later ones.
type argFold[F Float] struct{ min bool }

func (argFold[F]) identity() argState[F] { return argState[F]{i: -1} }

func (f argFold[F]) row(n int, a []F, ao, as int, _ F, base int) argState[F] {
	if as == 1 {
		return argUnit(f.min, a[ao:ao+n], base)
	}
	best, bi := a[ao], 0
	if best != best {
		return argState[F]{best, base}
	}
	if f.min {
		for i := 1; i < n; i++ {
			ao += as
			if x := a[ao]; x < best {
				best, bi = x, i
			} else if x != x {
				return argState[F]{x, base + i}
			}
		}
	} else {
		for i := 1; i < n; i++ {
			ao += as
			if x := a[ao]; x > best {
				best, bi = x, i
			} else if x != x {
				return argState[F]{x, base + i}
			}
		}
	}
	return argState[F]{best, base + bi}
}

func (f argFold[F]) vec(acc []argState[F], a []F, ao, as int, _ []F, _, _ int, k int) {
	if f.min {
		for i := range acc {
			x, s := a[ao], &acc[i]
			if s.i < 0 || x < s.v || (x != x && s.v == s.v) {
				s.v, s.i = x, k
			}
			ao += as
		}
		return
	}
	for i := range acc {
		x, s := a[ao], &acc[i]
		if s.i < 0 || x > s.v || (x != x && s.v == s.v) {
			s.v, s.i = x, k
		}
		ao += as
	}
}

func (f argFold[F]) merge(x, y argState[F]) argState[F] {
	switch {
	case x.i < 0:
		return y
	case y.i < 0 || x.v != x.v:
		return x
	case y.v != y.v:
		return y
	case f.min && y.v < x.v, !f.min && y.v > x.v:
		return y
	}
	return x
}

func (argFold[F]) store(s argState[F], _ F) int64 { return int64(s.i) }
func (argFold[F]) emptyOK() bool                  { return false }
func (argFold[F]) weight() int                    { return 1 }

// argBlock is the length of the blocks of argUnit: small enough for the
// second look at a block to hit the L1 cache.
const argBlock = 2048

// argUnit returns the first extremum of the non-empty x (the minimum when
// isMin) and its index plus base, or the first NaN. Each block's extremum
// is found by extUnit; only a block that improves on the best so far is
// searched for its first occurrence, and since ties keep the earlier
// block, the first extremum wins.
func argUnit[F Float](isMin bool, x []F, base int) argState[F] {
	k := extMax
	if isMin {
		k = extMin
	}
	best, bi := x[0], 0
	if best != best {
		return argState[F]{best, base}
	}
	for lo := 0; lo < len(x); lo += argBlock {
		b := x[lo:min(lo+argBlock, len(x))]
		m := extUnit(k, b)
		switch {
		case m != m:
			for j, v := range b {
				if v != v {
					return argState[F]{v, base + lo + j}
				}
			}
		case isMin && m < best, !isMin && m > best:
			for j, v := range b {
				if v == m {
					best, bi = v, lo+j
					break
				}
			}
		}
	}
	return argState[F]{best, base + bi}
}
