package tenferro

import (
	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/internal/op"
)

// The shared bodies of the generated reductions and scans (ops_gen.go).
//
// The Into forms accept a destination of the result's shape or, as
// NumPy's keepdims, of a's rank with extent 1 on the reduced axes; the
// allocating forms return the result's shape, to which Unsqueeze restores
// the reduced axes.

// reduceShape validates the operand and attributes of reduction k.
func reduceShape[T Elem](name string, k op.Kind, a *Tensor[T], axes []int, p float64, buf []int) ([]int, uint64, error) {
	if err := a.check(name, "a"); err != nil {
		return nil, 0, err
	}
	shape, mask, f := op.ReductionShape(k, a.v.Shape, axes, p, buf)
	if f != nil {
		return nil, 0, faultError(name, f)
	}
	return shape, mask, nil
}

// reducedDstShape is the shape a reduction's destination must have: the
// result's, or a's with extent 1 on the reduced axes (keepdims) when dst
// has a's rank.
func reducedDstShape(dst, a, shape []int, mask uint64, buf []int) []int {
	if len(dst) != len(a) || len(dst) == len(shape) {
		return shape
	}
	for d, n := range a {
		if mask&(1<<uint(d)) != 0 {
			n = 1
		}
		buf = append(buf, n)
	}
	return buf
}

// reduce computes reduction k (result dtype T) of a into a new tensor.
func reduce[T Elem](e Engine, k op.Kind, a *Tensor[T], axes []int) (*Tensor[T], error) {
	name := k.Info().Name
	var buf [op.MaxRank]int
	shape, mask, err := reduceShape(name, k, a, axes, 0, buf[:0])
	if err != nil {
		return nil, err
	}
	return produce(e, name, shape, func(be backend.Engine, out *Tensor[T]) error {
		kern, err := reductionOf[T](be, name)
		if err != nil {
			return err
		}
		return kern.Reduce(k, 0, out.desc(), a.desc(), mask)
	})
}

// reduceInto computes dst = reduction k of a; dst must not overlap a.
func reduceInto[T Elem](e Engine, k op.Kind, dst, a *Tensor[T], axes []int) error {
	name := k.Info().Into
	var buf, kbuf [op.MaxRank]int
	shape, mask, err := reduceShape(name, k, a, axes, 0, buf[:0])
	if err != nil {
		return err
	}
	if err := dst.check(name, "dst"); err != nil {
		return err
	}
	if err := checkDst(name, false, dst, reducedDstShape(dst.v.Shape, a.v.Shape, shape, mask, kbuf[:0]), k.Info().Args, a); err != nil {
		return err
	}
	be, kern, err := claimReduction[T](e, name)
	if err != nil {
		return err
	}
	defer be.End()
	return kern.Reduce(k, 0, dst.desc(), a.desc(), mask)
}

// reduceReal computes reduction k with a real result (Var, Std, Norm) of
// a with attribute p into a new tensor of R, the real dtype of T.
func reduceReal[R Float, T Scalar](e Engine, k op.Kind, a *Tensor[T], p float64, axes []int) (*Tensor[R], error) {
	name := k.Info().Name
	if err := checkReal[R, T](name); err != nil {
		return nil, err
	}
	var buf [op.MaxRank]int
	shape, mask, err := reduceShape(name, k, a, axes, p, buf[:0])
	if err != nil {
		return nil, err
	}
	return produce(e, name, shape, func(be backend.Engine, out *Tensor[R]) error {
		kern, err := reductionOf[T](be, name)
		if err != nil {
			return err
		}
		return kern.ReduceReal(k, p, out.desc(), a.desc(), mask)
	})
}

// reduceRealInto computes dst = reduction k of a with attribute p, dst of
// R, the real dtype of T; dst must not overlap a.
func reduceRealInto[R Float, T Scalar](e Engine, k op.Kind, dst *Tensor[R], a *Tensor[T], p float64, axes []int) error {
	name := k.Info().Into
	if err := checkReal[R, T](name); err != nil {
		return err
	}
	var buf, kbuf [op.MaxRank]int
	shape, mask, err := reduceShape(name, k, a, axes, p, buf[:0])
	if err != nil {
		return err
	}
	if err := dst.check(name, "dst"); err != nil {
		return err
	}
	want := reducedDstShape(dst.v.Shape, a.v.Shape, shape, mask, kbuf[:0])
	if ar, ok := any(a).(*Tensor[R]); ok {
		err = checkDst(name, false, dst, want, k.Info().Args, ar)
	} else {
		err = checkDst[R](name, false, dst, want, nil)
	}
	if err != nil {
		return err
	}
	be, kern, err := claimReduction[T](e, name)
	if err != nil {
		return err
	}
	defer be.End()
	return kern.ReduceReal(k, p, dst.desc(), a.desc(), mask)
}

// argReduce computes ArgMax or ArgMin of a along axis into a new int64
// tensor.
func argReduce[T Float](e Engine, k op.Kind, a *Tensor[T], axis int) (*Tensor[int64], error) {
	name := k.Info().Name
	var buf [op.MaxRank]int
	shape, mask, err := reduceShape(name, k, a, []int{axis}, 0, buf[:0])
	if err != nil {
		return nil, err
	}
	return produce(e, name, shape, func(be backend.Engine, out *Tensor[int64]) error {
		kern, err := reductionOf[T](be, name)
		if err != nil {
			return err
		}
		return kern.Arg(k, out.desc(), a.desc(), maskAxis(mask))
	})
}

// argReduceInto computes dst = ArgMax or ArgMin of a along axis.
func argReduceInto[T Float](e Engine, k op.Kind, dst *Tensor[int64], a *Tensor[T], axis int) error {
	name := k.Info().Into
	var buf, kbuf [op.MaxRank]int
	var axes [1]int
	axes[0] = axis
	shape, mask, err := reduceShape(name, k, a, axes[:], 0, buf[:0])
	if err != nil {
		return err
	}
	if err := dst.check(name, "dst"); err != nil {
		return err
	}
	if err := checkDst[int64](name, false, dst, reducedDstShape(dst.v.Shape, a.v.Shape, shape, mask, kbuf[:0]), nil); err != nil {
		return err
	}
	be, kern, err := claimReduction[T](e, name)
	if err != nil {
		return err
	}
	defer be.End()
	return kern.Arg(k, dst.desc(), a.desc(), maskAxis(mask))
}

// maskAxis is the axis of a one-axis mask.
func maskAxis(m uint64) int {
	d := 0
	for m > 1 {
		m >>= 1
		d++
	}
	return d
}

// scan computes CumSum or CumProd of a along axis into a new tensor.
func scan[T Scalar](e Engine, k op.Kind, a *Tensor[T], axis int) (*Tensor[T], error) {
	name := k.Info().Name
	d, err := scanAxis(name, a, axis)
	if err != nil {
		return nil, err
	}
	return produce(e, name, a.v.Shape, func(be backend.Engine, out *Tensor[T]) error {
		kern, err := reductionOf[T](be, name)
		if err != nil {
			return err
		}
		return kern.Scan(k, out.desc(), a.desc(), d)
	})
}

// scanInto computes dst = CumSum or CumProd of a along axis; dst may be a
// itself.
func scanInto[T Scalar](e Engine, k op.Kind, dst, a *Tensor[T], axis int) error {
	name := k.Info().Into
	d, err := scanAxis(name, a, axis)
	if err != nil {
		return err
	}
	if err := checkDst(name, true, dst, a.v.Shape, k.Info().Args, a); err != nil {
		return err
	}
	be, kern, err := claimReduction[T](e, name)
	if err != nil {
		return err
	}
	defer be.End()
	return kern.Scan(k, dst.desc(), a.desc(), d)
}

// scanAxis validates the operand and axis of a scan.
func scanAxis[T Scalar](name string, a *Tensor[T], axis int) (int, error) {
	if err := a.check(name, "a"); err != nil {
		return 0, err
	}
	var axes [1]int
	axes[0] = axis
	d, f := op.ScanShape(a.v.Shape, axes[:])
	if f != nil {
		return 0, faultError(name, f)
	}
	return d, nil
}
