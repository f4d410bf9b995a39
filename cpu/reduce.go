package cpu

import (
	"math"
	"unsafe"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/internal/hugepage"
	"github.com/tenferro-go/tenferro/internal/kernel/reduce"
	"github.com/tenferro-go/tenferro/internal/kernel/strided"
	"github.com/tenferro-go/tenferro/internal/op"
)

// The reductions and scans of the CPU engine (backend.Reduction). The
// kernels of internal/kernel/reduce read dst at src's shape with stride 0
// on the reduced axes, which is how they mark them; the means, variances
// and norms finish with elementwise passes over the (small) result.

// reducedRef returns dst read at shape with stride 0 on the axes in mask.
// dst has shape without those axes, or shape's rank with extent 1 on them
// (NumPy's keepdims).
func reducedRef[T backend.Elem](dst *backend.View[T], shape []int, mask uint64, st *[strided.MaxRank]int) strided.Ref[T] {
	kept := len(dst.Shape) == len(shape)
	j := 0
	for d := range shape {
		switch {
		case mask&(1<<uint(d)) != 0:
			st[d] = 0
		case kept:
			st[d] = dst.Strides[d]
		default:
			st[d] = dst.Strides[j]
			j++
		}
	}
	return strided.Ref[T]{Data: dst.Data, Off: dst.Off, Strides: st[:len(shape)]}
}

// reducedCount is the number of elements each result element reduces.
func reducedCount(shape []int, mask uint64) int {
	n := 1
	for d, s := range shape {
		if mask&(1<<uint(d)) != 0 {
			n *= s
		}
	}
	return n
}

// Reduce implements backend.Reduction.
func (k *numeric[T]) Reduce(kind op.Kind, p float64, dst, src *backend.View[T], axes uint64) error {
	shape, r := src.Shape, k.e.runner
	d, s := reducedRef(dst, shape, axes, &k.sc().strides[0]), ref(src)
	real := strided.Kind[T]() <= 1 // float32, float64
	switch kind {
	case op.Sum:
		reduce.Sum(r, shape, d, s)
	case op.Prod:
		reduce.Fold(r, reduce.ProdFold, shape, d, s)
	case op.Mean:
		reduce.Sum(r, shape, d, s)
		k.scale(dst, inverse[T](float64(reducedCount(shape, axes))))
	case op.Max, op.Min:
		if !real {
			return unsupported("Reduce", kind)
		}
		f := reduce.MaxFold
		if kind == op.Min {
			f = reduce.MinFold
		}
		reduce.Fold(r, f, shape, d, s)
	case op.LogSumExp:
		switch s := any(s).(type) {
		case strided.Ref[float64]:
			reduce.LogSumExp(r, shape, any(d).(strided.Ref[float64]), s)
		case strided.Ref[float32]:
			reduce.LogSumExp(r, shape, any(d).(strided.Ref[float32]), s)
		default:
			return unsupported("Reduce", kind)
		}
	case op.Var, op.Std:
		n := reducedCount(shape, axes)
		reduce.Sum(r, shape, d, s)
		k.scale(dst, inverse[T](float64(n)))
		reduce.SumSquaredDeviations(r, shape, d, s, d)
		k.scale(dst, inverse[T](math.Max(float64(n)-p, 0)))
		if kind == op.Std {
			return k.Unary(op.Sqrt, 0, 0, dst, dst)
		}
	case op.Norm:
		switch {
		case p == 2:
			reduce.Norm2(r, shape, d, s)
		case math.IsInf(p, 1):
			reduce.Fold(r, reduce.MaxAbsFold, shape, d, s)
		case math.IsInf(p, -1):
			reduce.Fold(r, reduce.MinAbsFold, shape, d, s)
		case p == p:
			reduce.SumAbsPow(r, p, shape, d, s) // order 0 counts the non-zeros
			if p != 1 && p != 0 {
				sc := k.sc()
				sc.one[0] = backend.FromComplex[T](complex(1/p, 0))
				sc.oneView = backend.View[T]{Data: sc.one[:]}
				return k.Binary(op.Pow, dst, dst, &sc.oneView)
			}
		default:
			return tf.Errorf(tf.ErrArgument, "Reduce", "ord", "an order (a number or ±Inf)", "%v", p)
		}
	default:
		return unsupported("Reduce", kind)
	}
	return nil
}

// inverse is 1/n as a T (+Inf for 0).
func inverse[T strided.Scalar](n float64) T { return backend.FromComplex[T](complex(1/n, 0)) }

// ReduceReal implements backend.Reduction: for real T the reduction
// itself; for complex T the reduction into a compact complex buffer
// (values with zero imaginary parts), whose real parts are then copied to
// dst.
func (k *numeric[T]) ReduceReal(kind op.Kind, p float64, dst any, src *backend.View[T], axes uint64) error {
	switch d := dst.(type) {
	case *backend.View[T]:
		return k.Reduce(kind, p, d, src, axes)
	case *backend.View[float32]:
		if _, ok := any(src).(*backend.View[complex64]); ok {
			return reduceToReal(k, &k.e.f32, kind, p, d, src, axes)
		}
	case *backend.View[float64]:
		if _, ok := any(src).(*backend.View[complex128]); ok {
			return reduceToReal(k, &k.e.f64, kind, p, d, src, axes)
		}
	}
	return tf.Errorf(tf.ErrDType, "ReduceReal", "dst", "a view of the real type of "+tf.DTypeOf[T]().String(), "%T", dst)
}

// reduceToReal is ReduceReal for a complex T whose parts have type R.
func reduceToReal[T, R strided.Scalar](k *numeric[T], kr *numeric[R], kind op.Kind, p float64, dst *backend.View[R], src *backend.View[T], axes uint64) error {
	sc := k.sc()
	n := op.Count(dst.Shape)
	if cap(sc.reduced) < n {
		sc.reduced = hugepage.Make[T](n)
	}
	st := &sc.reducedStrides
	step := 1
	for d, e := range dst.Shape {
		st[d] = step
		step *= e
	}
	rank := len(dst.Shape)
	tmp := &sc.reducedView
	*tmp = backend.View[T]{Data: sc.reduced[:n], Shape: dst.Shape, Strides: st[:rank:rank]}
	if err := k.Reduce(kind, p, tmp, src, axes); err != nil {
		return err
	}
	// The real parts of tmp: every other R of its storage.
	rs := kr.sc()
	parts := unsafe.Slice((*R)(unsafe.Pointer(unsafe.SliceData(tmp.Data))), 2*n)
	for d := range rank {
		rs.reducedStrides[d] = 2 * st[d]
	}
	rs.partsView = backend.View[R]{Data: parts, Shape: dst.Shape, Strides: rs.reducedStrides[:rank:rank]}
	err := kr.Copy(dst, &rs.partsView)
	rs.partsView, tmp.Data = backend.View[R]{}, nil
	return err
}

// Arg implements backend.Reduction.
func (k *numeric[T]) Arg(kind op.Kind, dst *backend.View[int64], src *backend.View[T], axis int) error {
	if kind != op.ArgMax && kind != op.ArgMin {
		return unsupported("Arg", kind)
	}
	d := reducedRef(dst, src.Shape, 1<<uint(axis), &k.sc().strides[0])
	minimum := kind == op.ArgMin
	switch s := any(ref(src)).(type) {
	case strided.Ref[float64]:
		reduce.Arg(k.e.runner, minimum, src.Shape, axis, d, s)
	case strided.Ref[float32]:
		reduce.Arg(k.e.runner, minimum, src.Shape, axis, d, s)
	default:
		return unsupported("Arg", kind)
	}
	return nil
}

// Scan implements backend.Reduction.
func (k *numeric[T]) Scan(kind op.Kind, dst, src *backend.View[T], axis int) error {
	if kind != op.CumSum && kind != op.CumProd {
		return unsupported("Scan", kind)
	}
	reduce.Scan(k.e.runner, kind == op.CumProd, src.Shape, axis, ref(dst), ref(src))
	return nil
}

// Reduce implements backend.Reduction for bool tensors: All and Any.
func (k *data[T]) Reduce(kind op.Kind, _ float64, dst, src *backend.View[T], axes uint64) error {
	d, s, ok := boolViews(dst, src)
	if !ok || (kind != op.All && kind != op.Any) {
		return unsupported("Reduce", kind)
	}
	reduce.Bools(k.e.runner, kind == op.Any, s.Shape, reducedRef(d, s.Shape, axes, &k.e.dataStrides[0]), ref(s))
	return nil
}

// ReduceReal implements backend.Reduction: int64 and bool have none.
func (k *data[T]) ReduceReal(kind op.Kind, _ float64, _ any, _ *backend.View[T], _ uint64) error {
	return unsupported("ReduceReal", kind)
}

// Arg implements backend.Reduction: int64 and bool have none.
func (k *data[T]) Arg(kind op.Kind, _ *backend.View[int64], _ *backend.View[T], _ int) error {
	return unsupported("Arg", kind)
}

// Scan implements backend.Reduction: int64 and bool have none.
func (k *data[T]) Scan(kind op.Kind, _, _ *backend.View[T], _ int) error {
	return unsupported("Scan", kind)
}
