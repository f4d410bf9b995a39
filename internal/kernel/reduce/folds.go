package reduce

import (
	"github.com/tenferro-go/tenferro/internal/kernel/simd"
	"math"
	"sync"

	"github.com/tenferro-go/tenferro/internal/kernel/strided"
	"github.com/tenferro-go/tenferro/internal/op/scalar"
	"github.com/tenferro-go/tenferro/internal/par"
)

// Float is the set of real element types (Max, Min, Arg and LogSumExp are
// defined for these only).
type Float interface {
	float32 | float64
}

// complexType is the set of complex element types.
type complexType interface {
	complex64 | complex128
}

// FoldKind selects the reduction of [Fold].
type FoldKind uint8

// The folds.
const (
	SumFold    FoldKind = iota // sum_j x_j (0 for the empty set)
	ProdFold                   // prod_j x_j (1 for the empty set)
	MaxFold                    // max_j x_j, real types only, NaN if any x_j is NaN
	MinFold                    // min_j x_j, real types only, NaN if any x_j is NaN
	MaxAbsFold                 // max_j |x_j| (real, 0 for the empty set), NaN if any x_j is NaN
	MinAbsFold                 // min_j |x_j| (real, +Inf for the empty set), NaN if any x_j is NaN
)

var foldNames = [...]string{"Sum", "Prod", "Max", "Min", "MaxAbs", "MinAbs"}

// String returns the fold's name ("Sum", "Prod", "Max", "Min", "MaxAbs",
// "MinAbs").
func (k FoldKind) String() string {
	if int(k) < len(foldNames) {
		return foldNames[k]
	}
	return "FoldKind(?)"
}

var (
	prodPools, maxAbsPools, minAbsPools [4]sync.Pool
	extPools                            [2]sync.Pool
	boolPool                            sync.Pool
)

// Fold sets dst[i] = fold over the reduced axes of src, for the fold k (see
// [FoldKind]); the reduced axes are those along which dst has stride 0 (see
// the package comment). SumFold is [Sum]. MaxFold and MinFold need a real T
// (Fold panics for complex T) and panic for an empty reduced set (the
// caller's error); MaxAbsFold stores the real value |x| with a zero
// imaginary part. r may be nil (serial).
func Fold[T strided.Scalar](r par.Runner, k FoldKind, shape []int, dst, src strided.Ref[T]) {
	kind := strided.Kind[T]()
	switch k {
	case SumFold:
		Sum(r, shape, dst, src)
	case ProdFold:
		fold(r, &prodPools[kind], "Fold", prodFold[T]{}, shape, dst, src, src)
	case MaxFold, MinFold:
		if d, ok := asFloat[float64](dst); ok {
			s, _ := asFloat[float64](src)
			extremum(r, k == MinFold, shape, d, s)
			return
		}
		if d, ok := asFloat[float32](dst); ok {
			s, _ := asFloat[float32](src)
			extremum(r, k == MinFold, shape, d, s)
			return
		}
		panic("reduce.Fold: " + k.String() + " of a complex element type")
	case MaxAbsFold:
		fold(r, &maxAbsPools[kind], "Fold", maxAbsFold[T]{}, shape, dst, src, src)
	case MinAbsFold:
		fold(r, &minAbsPools[kind], "Fold", minAbsFold[T]{}, shape, dst, src, src)
	default:
		panic("reduce.Fold: unknown fold " + k.String())
	}
}

// asFloat returns v as a view of []F when T is F.
func asFloat[F Float, T strided.Scalar](v strided.Ref[T]) (strided.Ref[F], bool) {
	d, ok := any(v.Data).([]F)
	return strided.Ref[F]{Data: d, Off: v.Off, Strides: v.Strides}, ok
}

// extremum sets dst to the maximum (minimum when isMin) of src over the
// reduced axes.
func extremum[F Float](r par.Runner, isMin bool, shape []int, dst, src strided.Ref[F]) {
	fold(r, &extPools[strided.Kind[F]()], "Fold", extFold[F]{isMin}, shape, dst, src, src)
}

// fromFloat converts v to T (zero imaginary part for complex T).
func fromFloat[T strided.Scalar](v float64) T {
	var z T
	switch p := any(&z).(type) {
	case *float32:
		*p = float32(v)
	case *float64:
		*p = v
	case *complex64:
		*p = complex(float32(v), 0)
	case *complex128:
		*p = complex(v, 0)
	}
	return z
}

// prodFold multiplies.
type prodFold[T strided.Scalar] struct{}

func (prodFold[T]) identity() T { return 1 }

func (prodFold[T]) row(n int, a []T, ao, as int, _ T, _ int) T {
	p0, p1 := T(1), T(1)
	i := 0
	for ; i+2 <= n; i += 2 {
		p0 *= a[ao]
		p1 *= a[ao+as]
		ao += 2 * as
	}
	if i < n {
		p0 *= a[ao]
	}
	return p0 * p1
}

func (prodFold[T]) vec(acc []T, a []T, ao, as int, _ []T, _, _, _ int) {
	if as == 1 {
		x := a[ao : ao+len(acc)]
		for i := range acc {
			acc[i] *= x[i]
		}
		return
	}
	for i := range acc {
		acc[i] *= a[ao]
		ao += as
	}
}

func (prodFold[T]) merge(x, y T) T { return x * y }
func (prodFold[T]) store(s, _ T) T { return s }
func (prodFold[T]) emptyOK() bool  { return true }
func (prodFold[T]) weight() int    { return 1 }

// extFold takes the maximum (the minimum when min) with NaN propagation:
// the built-in max and min return NaN when an argument is NaN.
type extFold[F Float] struct{ min bool }

func (f extFold[F]) identity() F {
	if f.min {
		return F(math.Inf(1))
	}
	return F(math.Inf(-1))
}

func (f extFold[F]) row(n int, a []F, ao, as int, _ F, _ int) F {
	if as == 1 {
		if f.min {
			return extUnit(extMin, a[ao:ao+n])
		}
		return extUnit(extMax, a[ao:ao+n])
	}
	m0, m1 := f.identity(), f.identity()
	i := 0
	if f.min {
		for ; i+2 <= n; i += 2 {
			m0 = min(m0, a[ao])
			m1 = min(m1, a[ao+as])
			ao += 2 * as
		}
		if i < n {
			m0 = min(m0, a[ao])
		}
		return min(m0, m1)
	}
	for ; i+2 <= n; i += 2 {
		m0 = max(m0, a[ao])
		m1 = max(m1, a[ao+as])
		ao += 2 * as
	}
	if i < n {
		m0 = max(m0, a[ao])
	}
	return max(m0, m1)
}

func (f extFold[F]) vec(acc []F, a []F, ao, as int, _ []F, _, _, _ int) {
	if as == 1 {
		o := simd.GoMax
		if f.min {
			o = simd.GoMin
		}
		simd.VV(o, acc, acc, a[ao:ao+len(acc)])
		return
	}
	if f.min {
		for i := range acc {
			acc[i] = min(acc[i], a[ao])
			ao += as
		}
		return
	}
	for i := range acc {
		acc[i] = max(acc[i], a[ao])
		ao += as
	}
}

func (f extFold[F]) merge(x, y F) F {
	if f.min {
		return min(x, y)
	}
	return max(x, y)
}

func (extFold[F]) store(s, _ F) F { return s }
func (extFold[F]) emptyOK() bool  { return false }
func (extFold[F]) weight() int    { return 1 }

// maxAbsFold takes max |x| in float64 (exact for real types; one rounding
// of the modulus for complex ones).
type maxAbsFold[T strided.Scalar] struct{}

func (maxAbsFold[T]) identity() float64 { return 0 }

func (maxAbsFold[T]) row(n int, a []T, ao, as int, _ T, _ int) float64 {
	switch x := any(a).(type) {
	case []float64:
		if as == 1 {
			return extUnit(extMaxAbs, x[ao:ao+n])
		}
		return maxAbsReal(0, n, x, ao, as)
	case []float32:
		if as == 1 {
			return float64(extUnit(extMaxAbs, x[ao:ao+n]))
		}
		return maxAbsReal(0, n, x, ao, as)
	case []complex128:
		return maxAbsComplex(0, n, x, ao, as)
	case []complex64:
		return maxAbsComplex(0, n, x, ao, as)
	}
	return 0
}

func (maxAbsFold[T]) vec(acc []float64, a []T, ao, as int, _ []T, _, _, _ int) {
	switch x := any(a).(type) {
	case []float64:
		maxAbsVec(acc, x, ao, as, math.Abs)
	case []float32:
		maxAbsVec(acc, x, ao, as, abs32)
	case []complex128:
		maxAbsVec(acc, x, ao, as, cabs128)
	case []complex64:
		maxAbsVec(acc, x, ao, as, cabs64)
	}
}

func (maxAbsFold[T]) merge(x, y float64) float64 { return max(x, y) }
func (maxAbsFold[T]) store(s float64, _ T) T     { return fromFloat[T](s) }
func (maxAbsFold[T]) emptyOK() bool              { return true }

func (maxAbsFold[T]) weight() int {
	if isComplex[T]() {
		return 4 // a hypot per element
	}
	return 1
}

// maxAbsReal returns max(m, |x[o+i*s]|) over i < n, NaN if any is NaN.
func maxAbsReal[F Float](m float64, n int, x []F, o, s int) float64 {
	for range n {
		m = max(m, math.Abs(float64(x[o])))
		o += s
	}
	return m
}

// maxAbsComplex is maxAbsReal for complex x with the modulus of the Abs
// kernels (cabs128, cabs64: +Inf when a part is infinite, even if the
// other is NaN).
func maxAbsComplex[C complexType](m float64, n int, x []C, o, s int) float64 {
	for range n {
		switch v := any(x[o]).(type) {
		case complex128:
			m = max(m, cabs128(v))
		case complex64:
			m = max(m, cabs64(v))
		}
		o += s
	}
	return m
}

// maxAbsVec sets acc[i] = max(acc[i], abs(x[o+i*s])).
func maxAbsVec[E strided.Scalar](acc []float64, x []E, o, s int, abs func(E) float64) {
	for i := range acc {
		acc[i] = max(acc[i], abs(x[o]))
		o += s
	}
}

// minAbsFold takes min |x| in float64, the norm of order -Inf; a plain
// loop (the order is rare).
type minAbsFold[T strided.Scalar] struct{}

func (minAbsFold[T]) identity() float64 { return math.Inf(1) }

func (minAbsFold[T]) row(n int, a []T, ao, as int, _ T, _ int) float64 {
	m := math.Inf(1)
	for range n {
		m = min(m, absOf(a[ao]))
		ao += as
	}
	return m
}

func (minAbsFold[T]) vec(acc []float64, a []T, ao, as int, _ []T, _, _, _ int) {
	for i := range acc {
		acc[i] = min(acc[i], absOf(a[ao]))
		ao += as
	}
}

func (minAbsFold[T]) merge(x, y float64) float64 { return min(x, y) }
func (minAbsFold[T]) store(s float64, _ T) T     { return fromFloat[T](s) }
func (minAbsFold[T]) emptyOK() bool              { return true }
func (minAbsFold[T]) weight() int                { return maxAbsFold[T]{}.weight() }

// absOf returns |v| in float64 (hypot of the parts for complex v).
func absOf[T strided.Scalar](v T) float64 {
	switch x := any(v).(type) {
	case float64:
		return math.Abs(x)
	case float32:
		return abs32(x)
	case complex128:
		return cabs128(x)
	case complex64:
		return cabs64(x)
	}
	return 0
}

func abs32(v float32) float64 { return math.Abs(float64(v)) }

func cabs128(v complex128) float64 { return scalar.Hypot(real(v), imag(v)) }

func cabs64(v complex64) float64 { return scalar.Hypot32(real(v), imag(v)) }

// Bools sets dst[i] to the conjunction (All) or, when anyTrue, the
// disjunction (Any) of src over the reduced axes (those along which dst has
// stride 0, as for [Sum]). All of the empty set is true, Any of it false.
// r may be nil (serial).
func Bools(r par.Runner, anyTrue bool, shape []int, dst, src strided.Ref[bool]) {
	fold(r, &boolPool, "Bools", boolFold{anyTrue}, shape, dst, src, src)
}

// boolFold is All, or Any when or is set; rows stop at the first element
// that decides them.
type boolFold struct{ or bool }

func (f boolFold) identity() bool { return !f.or }

func (f boolFold) row(n int, a []bool, ao, as int, _ bool, _ int) bool {
	for range n {
		if a[ao] == f.or {
			return f.or
		}
		ao += as
	}
	return !f.or
}

func (f boolFold) vec(acc []bool, a []bool, ao, as int, _ []bool, _, _, _ int) {
	if f.or {
		for i := range acc {
			acc[i] = acc[i] || a[ao]
			ao += as
		}
		return
	}
	for i := range acc {
		acc[i] = acc[i] && a[ao]
		ao += as
	}
}

func (f boolFold) merge(x, y bool) bool {
	if f.or {
		return x || y
	}
	return x && y
}

func (boolFold) store(s, _ bool) bool { return s }
func (boolFold) emptyOK() bool        { return true }
func (boolFold) weight() int          { return 1 }
