package reduce

import (
	"github.com/tenferro-go/tenferro/internal/kernel/simd"
	"math"
	"sync"

	"github.com/tenferro-go/tenferro/internal/kernel/strided"
	"github.com/tenferro-go/tenferro/internal/kernel/vmath"
	"github.com/tenferro-go/tenferro/internal/par"
)

var lsePools [2]sync.Pool

// LogSumExp sets dst[i] = log(sum over the reduced axes of exp(src)),
// computed as m + log(sum exp(src - m)) with m the maximum over the reduced
// set, so that no exponential overflows (the reduced axes are those along
// which dst has stride 0, see [Sum]). It makes two passes over src: the
// first stores m in dst, the second reads it back as the shift. Special
// values: a NaN in the set gives NaN, else a +Inf gives +Inf, a set of -Inf
// only gives -Inf, and so does the empty set. The exponentials are summed in
// float64. r may be nil (serial).
func LogSumExp[T Float](r par.Runner, shape []int, dst, src strided.Ref[T]) {
	var l strided.Layout
	if !l.Init(shape) {
		panic("reduce.LogSumExp: more than strided.MaxRank extents differ from 1")
	}
	if l.Empty {
		l.Add(dst.Off, dst.Strides)
		if keptOnly(&l) {
			fillKept(&l, dst.Data, T(math.Inf(-1)))
		}
		return
	}
	extremum(r, false, shape, dst, src)
	fold(r, &lsePools[strided.Kind[T]()], "LogSumExp", lseFold[T]{}, shape, dst, src, dst)
}

// lseFold sums exp(x - c) for the shift c (the maximum); a set whose
// maximum is not finite is decided by it alone.
type lseFold[F Float] struct{}

func (lseFold[F]) identity() float64 { return 0 }

func (lseFold[F]) row(n int, a []F, ao, as int, c F, _ int) float64 {
	m := float64(c)
	if math.IsInf(m, 0) || m != m {
		return 0
	}
	if as == 1 {
		return lseUnit(a[ao:ao+n], m)
	}
	return pairwise(n, ao, as, func(n, ao int) float64 {
		var s0, s1 float64
		i := 0
		for ; i+2 <= n; i += 2 {
			s0 += math.Exp(float64(a[ao]) - m)
			s1 += math.Exp(float64(a[ao+as]) - m)
			ao += 2 * as
		}
		if i < n {
			s0 += math.Exp(float64(a[ao]) - m)
		}
		return s0 + s1
	}, add64)
}

// lseBlock is the length of the blocks of exponentials evaluated at once
// (a stack buffer of float64).
const lseBlock = 512

// lseUnit returns sum_j exp(x[j] - m) for a finite m: the differences of a
// block go to a stack buffer, [vmath.Exp] evaluates them in place and
// sumUnit adds them; blocks are combined pairwise in float64. A float32 x
// is differenced, exponentiated and summed within a block in float32
// (twice the lanes of float64): the terms that matter have |x - m| of a
// few units, so their relative error stays a few float32 ulps.
func lseUnit[F Float](x []F, m float64) float64 {
	if h := halfBlocks(len(x), lseBlock); h > 0 {
		return lseUnit(x[:h], m) + lseUnit(x[h:], m)
	}
	switch x := any(x).(type) {
	case []float32:
		var buf [lseBlock]float32
		b := buf[:len(x)]
		simd.VS(simd.Sub, b, x, float32(m))
		vmath.Exp(b, b)
		return float64(sumUnit(b))
	case []float64:
		var buf [lseBlock]float64
		b := buf[:len(x)]
		simd.VS(simd.Sub, b, x, m)
		vmath.Exp(b, b)
		return sumUnit(b)
	}
	return 0
}

// vec adds exp(a - b) into acc, evaluating the exponentials in blocks of
// lseBlock with [vmath.Exp].
func (lseFold[F]) vec(acc []float64, a []F, ao, as int, b []F, bo, bs int, _ int) {
	var buf [lseBlock]float64
	for len(acc) > 0 {
		d := buf[:min(lseBlock, len(acc))]
		for i := range d {
			d[i] = float64(a[ao]) - float64(b[bo])
			ao += as
			bo += bs
		}
		vmath.Exp(d, d)
		s := acc[:len(d)]
		for i, v := range d {
			s[i] += v
		}
		acc = acc[len(d):]
	}
}

func (lseFold[F]) merge(x, y float64) float64 { return x + y }

func (lseFold[F]) store(s float64, c F) F {
	m := float64(c)
	if math.IsInf(m, 0) || m != m {
		return c
	}
	return F(m + math.Log(s))
}

func (lseFold[F]) emptyOK() bool { return true }
func (lseFold[F]) weight() int   { return 8 }
