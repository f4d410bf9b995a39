package reduce

import (
	"math"
	"sync"

	"github.com/tenferro-go/tenferro/internal/kernel/strided"
	"github.com/tenferro-go/tenferro/internal/par"
)

var sqPools, powPools [4]sync.Pool

// SumSquares sets dst[i] = sum over the reduced axes of |src|^2 (the squared
// 2-norm or Frobenius norm; real, with a zero imaginary part for complex T).
// The reduced axes are those along which dst has stride 0 (see [Sum]).
//
// The squares are accumulated in float64 in three scaled sums (Blue's
// scheme, as in LAPACK's nrm2): elements below 2^-511 are scaled up, those
// above 2^486 down, so that no square overflows or underflows on the way;
// the result overflows only when the sum itself exceeds T's range (use
// [Norm2] for the norm). r may be nil (serial).
func SumSquares[T strided.Scalar](r par.Runner, shape []int, dst, src strided.Ref[T]) {
	fold(r, &sqPools[strided.Kind[T]()], "SumSquares", sqFold[T]{}, shape, dst, src, src)
}

// Norm2 sets dst[i] = sqrt(sum over the reduced axes of |src|^2): the 2-norm
// of a vector, the Frobenius norm of a matrix. It accumulates like
// [SumSquares] and takes the square root before undoing the scaling, so it
// overflows or underflows only when the norm itself is out of T's range.
// r may be nil (serial).
func Norm2[T strided.Scalar](r par.Runner, shape []int, dst, src strided.Ref[T]) {
	fold(r, &sqPools[strided.Kind[T]()], "Norm2", sqFold[T]{root: true}, shape, dst, src, src)
}

// SumSquaredDeviations sets dst[i] = sum over the reduced axes of
// |src - center[i]|^2, where center has dst's layout (stride 0 along the
// reduced axes): the numerator of the variance after a mean. The
// differences are formed in float64 and accumulated like [SumSquares].
// center may be dst itself. r may be nil (serial).
func SumSquaredDeviations[T strided.Scalar](r par.Runner, shape []int, dst, src, center strided.Ref[T]) {
	fold(r, &sqPools[strided.Kind[T]()], "SumSquaredDeviations", sqFold[T]{dev: true}, shape, dst, src, center)
}

// SumAbsPow sets dst[i] = sum over the reduced axes of |src|^p (real, zero
// imaginary part for complex T), the p-th power of the p-norm, for a finite
// p (SumAbsPow panics otherwise); p = 0 counts the non-zero elements (NaN
// counts), a negative p makes a zero element's term +Inf. Terms are
// accumulated in float64; p = 1 sums |x| directly and p = 2 is
// [SumSquares]. For other p each term is math.Pow(|x|, p), which overflows
// or underflows where |x|^p does. r may be nil (serial).
func SumAbsPow[T strided.Scalar](r par.Runner, p float64, shape []int, dst, src strided.Ref[T]) {
	if p != p || math.IsInf(p, 0) {
		panic("reduce.SumAbsPow: p must be finite")
	}
	if p == 2 {
		SumSquares(r, shape, dst, src)
		return
	}
	fold(r, &powPools[strided.Kind[T]()], "SumAbsPow", powFold[T]{p}, shape, dst, src, src)
}

// Blue's thresholds and scale factors for float64 (radix 2, 53 digits,
// exponents in [-1021, 1024]): values in [tsml, tbig] are squared as they
// are, smaller ones after multiplying by ssml, larger ones after
// multiplying by sbig, so that no square leaves the normal range.
const (
	tsml = 0x1p-511
	tbig = 0x1p486
	ssml = 0x1p537
	sbig = 0x1p-538
)

// ssq is a sum of squares kept in three scaled parts: the value is
// sml/ssml^2 + med + big/sbig^2.
type ssq struct{ sml, med, big float64 }

// plus returns s with v^2 added (NaN goes to med).
func (s ssq) plus(v float64) ssq {
	ax := math.Abs(v)
	switch {
	case ax > tbig:
		ax *= sbig
		s.big += ax * ax
	case ax < tsml:
		ax *= ssml
		s.sml += ax * ax
	default:
		s.med += ax * ax
	}
	return s
}

func addSSQ(x, y ssq) ssq { return ssq{x.sml + y.sml, x.med + y.med, x.big + y.big} }

// sum returns the sum of squares; it overflows to +Inf only when the sum
// exceeds the float64 range. The small part is dropped when a big one is
// present (it is below its rounding).
func (s ssq) sum() float64 {
	if s.big > 0 {
		return (s.big + s.med*sbig*sbig) * (1 / sbig) * (1 / sbig)
	}
	if s.sml > 0 {
		return s.med + s.sml*(1/ssml)*(1/ssml)
	}
	return s.med
}

// norm returns the square root of the sum of squares without forming the
// unscaled sum.
func (s ssq) norm() float64 {
	switch {
	case s.big > 0:
		return math.Sqrt(s.big+s.med*sbig*sbig) * (1 / sbig)
	case s.sml > 0 && s.med == 0:
		return math.Sqrt(s.sml) * (1 / ssml)
	case s.sml > 0:
		return math.Sqrt(s.med + s.sml*(1/ssml)*(1/ssml))
	}
	return math.Sqrt(s.med)
}

// sqFold sums squares (of deviations from the center when dev), and stores
// the sum or, when root, its square root.
type sqFold[T strided.Scalar] struct{ dev, root bool }

func (sqFold[T]) identity() ssq { return ssq{} }

func (f sqFold[T]) row(n int, a []T, ao, as int, c T, _ int) ssq {
	if !f.dev {
		c = 0
	}
	if as == 1 {
		switch x := any(a).(type) {
		case []float64:
			return ssqUnit(x[ao:ao+n], any(c).(float64))
		case []float32:
			return ssqUnit(x[ao:ao+n], float64(any(c).(float32)))
		}
	}
	return pairwise(n, ao, as, func(n, ao int) ssq {
		switch x := any(a).(type) {
		case []float64:
			return ssqReal(n, x, ao, as, any(c).(float64))
		case []float32:
			return ssqReal(n, x, ao, as, any(c).(float32))
		case []complex128:
			return ssqComplex(n, x, ao, as, any(c).(complex128))
		case []complex64:
			return ssqComplex(n, x, ao, as, any(c).(complex64))
		}
		return ssq{}
	}, addSSQ)
}

func (f sqFold[T]) vec(acc []ssq, a []T, ao, as int, b []T, bo, bs int, _ int) {
	if !f.dev {
		b, bo, bs = nil, 0, 0
	}
	switch x := any(a).(type) {
	case []float64:
		ssqVecReal(acc, x, ao, as, any(b).([]float64), bo, bs)
	case []float32:
		ssqVecReal(acc, x, ao, as, any(b).([]float32), bo, bs)
	case []complex128:
		ssqVecComplex(acc, x, ao, as, any(b).([]complex128), bo, bs)
	case []complex64:
		ssqVecComplex(acc, x, ao, as, any(b).([]complex64), bo, bs)
	}
}

func (sqFold[T]) merge(x, y ssq) ssq { return addSSQ(x, y) }

func (f sqFold[T]) store(s ssq, _ T) T {
	if f.root {
		return fromFloat[T](s.norm())
	}
	return fromFloat[T](s.sum())
}

func (sqFold[T]) emptyOK() bool { return true }
func (sqFold[T]) weight() int   { return 1 }

// Unscaled sums of squares in [fastLo, fastHi] are accurate: no square
// overflowed, and squares that underflowed weigh less than n·2^-1022, far
// below one rounding of the sum.
const (
	fastLo = 0x1p-900
	fastHi = 0x1p900
)

// ssqReal returns the sum of squares of x[o+i*s] - c, i < n, formed in
// float64: unscaled in four accumulators when that sum lies in [fastLo,
// fastHi], else with Blue's scaling.
func ssqReal[F Float](n int, x []F, o, s int, c F) ssq {
	cc := float64(c)
	var s0, s1, s2, s3 float64
	i, p := 0, o
	for ; i+4 <= n; i += 4 {
		a, b := float64(x[p])-cc, float64(x[p+s])-cc
		d, e := float64(x[p+2*s])-cc, float64(x[p+3*s])-cc
		s0, s1, s2, s3 = s0+a*a, s1+b*b, s2+d*d, s3+e*e
		p += 4 * s
	}
	for ; i < n; i++ {
		a := float64(x[p]) - cc
		s0 += a * a
		p += s
	}
	if f := (s0 + s1) + (s2 + s3); f >= fastLo && f <= fastHi {
		return ssq{med: f}
	}
	var q ssq
	for range n {
		q = q.plus(float64(x[o]) - cc)
		o += s
	}
	return q
}

// ssqComplex is ssqReal for complex x: |z - c|^2 = re^2 + im^2.
func ssqComplex[C complexType](n int, x []C, o, s int, c C) ssq {
	cc := complex128(c)
	var s0, s1 float64
	p := o
	for range n {
		v := complex128(x[p]) - cc
		s0 += real(v) * real(v)
		s1 += imag(v) * imag(v)
		p += s
	}
	if f := s0 + s1; f >= fastLo && f <= fastHi {
		return ssq{med: f}
	}
	var q ssq
	for range n {
		v := complex128(x[o])
		q = q.plus(real(v) - real(cc)).plus(imag(v) - imag(cc))
		o += s
	}
	return q
}

// ssqVecReal adds (x[o+i*s] - c[co+i*cs])^2 into acc[i]; c nil means a
// zero center.
func ssqVecReal[F Float](acc []ssq, x []F, o, s int, c []F, co, cs int) {
	if c == nil {
		for i := range acc {
			acc[i] = acc[i].plus(float64(x[o]))
			o += s
		}
		return
	}
	for i := range acc {
		acc[i] = acc[i].plus(float64(x[o]) - float64(c[co]))
		o += s
		co += cs
	}
}

// ssqVecComplex is ssqVecReal for complex x.
func ssqVecComplex[C complexType](acc []ssq, x []C, o, s int, c []C, co, cs int) {
	for i := range acc {
		v := complex128(x[o])
		if c != nil {
			v -= complex128(c[co])
			co += cs
		}
		acc[i] = acc[i].plus(real(v)).plus(imag(v))
		o += s
	}
}

// powFold sums |x|^p in float64.
type powFold[T strided.Scalar] struct{ p float64 }

func (powFold[T]) identity() float64 { return 0 }

func (f powFold[T]) row(n int, a []T, ao, as int, _ T, _ int) float64 {
	return pairwise(n, ao, as, func(n, ao int) float64 {
		switch x := any(a).(type) {
		case []float64:
			return absPowReal(n, x, ao, as, f.p)
		case []float32:
			return absPowReal(n, x, ao, as, f.p)
		case []complex128:
			return absPowComplex(n, x, ao, as, f.p)
		case []complex64:
			return absPowComplex(n, x, ao, as, f.p)
		}
		return 0
	}, add64)
}

func (f powFold[T]) vec(acc []float64, a []T, ao, as int, _ []T, _, _, _ int) {
	switch x := any(a).(type) {
	case []float64:
		absPowVec(acc, x, ao, as, f.p, math.Abs)
	case []float32:
		absPowVec(acc, x, ao, as, f.p, abs32)
	case []complex128:
		absPowVec(acc, x, ao, as, f.p, cabs128)
	case []complex64:
		absPowVec(acc, x, ao, as, f.p, cabs64)
	}
}

func (powFold[T]) merge(x, y float64) float64 { return x + y }
func (powFold[T]) store(s float64, _ T) T     { return fromFloat[T](s) }
func (powFold[T]) emptyOK() bool              { return true }

func (f powFold[T]) weight() int {
	switch {
	case f.p != 1:
		return 8
	case isComplex[T]():
		return 2
	}
	return 1
}

func add64(x, y float64) float64 { return x + y }

func isComplex[T strided.Scalar]() bool { return strided.Kind[T]() >= 2 }

// absPowReal returns sum |x[o+i*s]|^p over i < n, with two interleaved
// accumulators.
func absPowReal[F Float](n int, x []F, o, s int, p float64) float64 {
	var s0, s1 float64
	i := 0
	if p == 1 {
		for ; i+2 <= n; i += 2 {
			s0 += math.Abs(float64(x[o]))
			s1 += math.Abs(float64(x[o+s]))
			o += 2 * s
		}
		if i < n {
			s0 += math.Abs(float64(x[o]))
		}
		return s0 + s1
	}
	for ; i < n; i++ {
		s0 += absPow(math.Abs(float64(x[o])), p)
		o += s
	}
	return s0
}

// absPowComplex is absPowReal for complex x, |z| the modulus of the Abs
// kernels (cabs128, cabs64).
func absPowComplex[C complexType](n int, x []C, o, s int, p float64) float64 {
	var s0 float64
	for range n {
		var m float64
		switch v := any(x[o]).(type) {
		case complex128:
			m = cabs128(v)
		case complex64:
			m = cabs64(v)
		}
		if p != 1 {
			m = absPow(m, p)
		}
		s0 += m
		o += s
	}
	return s0
}

// absPowVec adds abs(x[o+i*s])^p into acc[i].
func absPowVec[E strided.Scalar](acc []float64, x []E, o, s int, p float64, abs func(E) float64) {
	if p == 1 {
		for i := range acc {
			acc[i] += abs(x[o])
			o += s
		}
		return
	}
	for i := range acc {
		acc[i] += absPow(abs(x[o]), p)
		o += s
	}
}

// absPow returns m^p for the modulus m of an element, and for p = 0 the
// element's count in the order-0 norm: 1 unless m is 0.
func absPow(m, p float64) float64 {
	if p == 0 {
		if m == 0 {
			return 0
		}
		return 1
	}
	return math.Pow(m, p)
}
