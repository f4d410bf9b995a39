package tenferro

import (
	"sync"
	"unsafe"

	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/internal/op"
)

// The shared bodies of the elementwise operations whose result dtype
// differs from their inputs': predicates and comparisons (bool results),
// the logical operations on bool tensors, Where, the complex parts (real
// results) and Complex (a complex result of real parts). The typed
// functions are generated into ops_gen.go.

// predicate computes predicate k of a into a new bool tensor.
func predicate[T Scalar](e Engine, k op.Kind, a *Tensor[T]) (*Tensor[bool], error) {
	name := k.Info().Name
	if err := a.check(name, "a"); err != nil {
		return nil, err
	}
	return produce(e, name, a.v.Shape, func(be backend.Engine, out *Tensor[bool]) error {
		kern, err := elementwiseOf[T](be, name)
		if err != nil {
			return err
		}
		return kern.Predicate(k, out.desc(), a.desc())
	})
}

// predicateInto computes dst = k(a) for predicate k.
func predicateInto[T Scalar](e Engine, k op.Kind, dst *Tensor[bool], a *Tensor[T]) error {
	name := k.Info().Into
	if err := a.check(name, "a"); err != nil {
		return err
	}
	// dst holds bools and a numbers: their storages cannot overlap.
	if err := checkDst[bool](name, false, dst, a.v.Shape, nil); err != nil {
		return err
	}
	be, kern, err := claimElementwise[T](e, name)
	if err != nil {
		return err
	}
	defer be.End()
	return kern.Predicate(k, dst.desc(), a.desc())
}

// compare computes comparison k of a and b into a new bool tensor.
func compare[T Scalar](e Engine, k op.Kind, a, b *Tensor[T]) (*Tensor[bool], error) {
	name := k.Info().Name
	var buf [8]int
	shape, err := binaryShape(name, a, b, buf[:0])
	if err != nil {
		return nil, err
	}
	return produce(e, name, shape, func(be backend.Engine, out *Tensor[bool]) error {
		kern, err := elementwiseOf[T](be, name)
		if err != nil {
			return err
		}
		return kern.Compare(k, out.desc(), a.desc(), b.desc())
	})
}

// compareInto computes dst = a k b for comparison k.
func compareInto[T Scalar](e Engine, k op.Kind, dst *Tensor[bool], a, b *Tensor[T]) error {
	name := k.Info().Into
	var buf [8]int
	shape, err := binaryShape(name, a, b, buf[:0])
	if err != nil {
		return err
	}
	if err := checkDst[bool](name, false, dst, shape, nil); err != nil {
		return err
	}
	be, kern, err := claimElementwise[T](e, name)
	if err != nil {
		return err
	}
	defer be.End()
	return kern.Compare(k, dst.desc(), a.desc(), b.desc())
}

// logicalShape validates the operands of logical operation name (b nil for
// LogicalNot).
func logicalShape(name string, a, b *Tensor[bool], buf []int) ([]int, error) {
	if b == nil {
		if err := a.check(name, "a"); err != nil {
			return nil, err
		}
		return append(buf, a.v.Shape...), nil
	}
	return binaryShape(name, a, b, buf)
}

// logical computes the logical operation k of a (and b) into a new tensor.
func logical(e Engine, k op.Kind, a, b *Tensor[bool]) (*Tensor[bool], error) {
	name := k.Info().Name
	var buf [8]int
	shape, err := logicalShape(name, a, b, buf[:0])
	if err != nil {
		return nil, err
	}
	return produce(e, name, shape, func(be backend.Engine, out *Tensor[bool]) error {
		kern, err := elementwiseOf[bool](be, name)
		if err != nil {
			return err
		}
		if b == nil {
			return kern.Unary(k, false, false, out.desc(), a.desc())
		}
		return kern.Binary(k, out.desc(), a.desc(), b.desc())
	})
}

// logicalInto computes dst = k(a, b) for a logical operation (b nil for
// LogicalNot); dst may be a or b itself.
func logicalInto(e Engine, k op.Kind, dst, a, b *Tensor[bool]) error {
	name := k.Info().Into
	var buf [8]int
	shape, err := logicalShape(name, a, b, buf[:0])
	if err != nil {
		return err
	}
	ins := []*Tensor[bool]{a, b}
	if b == nil {
		ins = ins[:1]
	}
	if err := checkDst(name, true, dst, shape, k.Info().Args, ins...); err != nil {
		return err
	}
	be, kern, err := claimElementwise[bool](e, name)
	if err != nil {
		return err
	}
	defer be.End()
	if b == nil {
		return kern.Unary(k, false, false, dst.desc(), a.desc())
	}
	return kern.Binary(k, dst.desc(), a.desc(), b.desc())
}

// whereShape validates the operands of Where.
func whereShape[T Elem](name string, mask *Tensor[bool], a, b *Tensor[T], buf []int) ([]int, error) {
	if err := mask.check(name, "mask"); err != nil {
		return nil, err
	}
	if err := a.check(name, "a"); err != nil {
		return nil, err
	}
	if err := b.check(name, "b"); err != nil {
		return nil, err
	}
	shape, f := op.WhereShape(mask.v.Shape, a.v.Shape, b.v.Shape, buf)
	if f != nil {
		return nil, faultError(name, f)
	}
	return shape, nil
}

// Where returns a where mask is true and b elsewhere, elementwise: the
// three broadcast against each other as in NumPy (see Broadcasting in the
// package documentation), so a Const makes either branch a scalar:
//
//	y, err := tf.Where(e, mask, x, tf.Const(0.0))   // x where mask, else 0
//
// The result's storage comes from e's buffer pool; Release it when done,
// or use [WhereInto].
func Where[T Elem](e Engine, mask *Tensor[bool], a, b *Tensor[T]) (*Tensor[T], error) {
	const name = "Where"
	var buf [8]int
	shape, err := whereShape(name, mask, a, b, buf[:0])
	if err != nil {
		return nil, err
	}
	return produce(e, name, shape, func(be backend.Engine, out *Tensor[T]) error {
		kern, err := elementwiseOf[T](be, name)
		if err != nil {
			return err
		}
		return kern.Where(out.desc(), mask.desc(), a.desc(), b.desc())
	})
}

// WhereInto is the Into form of [Where]: it writes the result into dst,
// which has the result's shape and distinct elements; dst may be a or b
// itself (an in-place update). See Destinations in the package
// documentation.
func WhereInto[T Elem](e Engine, dst *Tensor[T], mask *Tensor[bool], a, b *Tensor[T]) error {
	const name = "WhereInto"
	var buf [8]int
	shape, err := whereShape(name, mask, a, b, buf[:0])
	if err != nil {
		return err
	}
	if err := checkDst(name, true, dst, shape, []string{"a", "b"}, a, b); err != nil {
		return err
	}
	be, kern, err := claimElementwise[T](e, name)
	if err != nil {
		return err
	}
	defer be.End()
	return kern.Where(dst.desc(), mask.desc(), a.desc(), b.desc())
}

// checkReal checks that R is the real dtype of T for operation name.
func checkReal[R Float, T Scalar](name string) error {
	if r, t := DTypeOf[R](), DTypeOf[T](); r != t.Real() {
		return newError(name, "R", t.Real().String()+" (the real dtype of "+t.String()+")", r.String(), ErrDType)
	}
	return nil
}

// toReal computes k(a) with a real result (Abs, Real, Imag, Angle) into a
// new tensor of R, the real dtype of T.
func toReal[R Float, T Scalar](e Engine, k op.Kind, a *Tensor[T]) (*Tensor[R], error) {
	name := k.Info().Name
	if err := checkReal[R, T](name); err != nil {
		return nil, err
	}
	if err := a.check(name, "a"); err != nil {
		return nil, err
	}
	return produce(e, name, a.v.Shape, func(be backend.Engine, out *Tensor[R]) error {
		return realParts(be, name, k, out, a)
	})
}

// toRealInto computes dst = k(a) for an operation with a real result; dst
// may be a itself for real T.
func toRealInto[R Float, T Scalar](e Engine, k op.Kind, dst *Tensor[R], a *Tensor[T]) error {
	name := k.Info().Into
	if err := checkReal[R, T](name); err != nil {
		return err
	}
	if err := a.check(name, "a"); err != nil {
		return err
	}
	if ar, ok := any(a).(*Tensor[R]); ok {
		if err := checkDst(name, true, dst, a.v.Shape, []string{"a"}, ar); err != nil {
			return err
		}
	} else if err := checkDst[R](name, false, dst, a.v.Shape, nil); err != nil {
		return err
	}
	be, err := begin(e, name)
	if err != nil {
		return err
	}
	defer be.End()
	return realParts(be, name, k, dst, a)
}

// realParts computes dst = k(a) for Abs, Real, Imag and Angle on be's
// kernels for R. A complex a is read as two real views of its storage (the
// real parts at even, the imaginary parts at odd positions), so that Abs
// is Hypot(re, im), Angle Atan2(im, re), Real and Imag copies.
func realParts[R Float, T Scalar](be backend.Engine, name string, k op.Kind, dst *Tensor[R], a *Tensor[T]) error {
	ks := backend.KernelsOf[R](be)
	if ks == nil || ks.Elementwise == nil {
		return unsupported[R](name, "elementwise kernels")
	}
	if ar, ok := any(a).(*Tensor[R]); ok {
		switch k {
		case op.Real:
			return ks.Core.Copy(dst.desc(), ar.desc())
		case op.Imag:
			return ks.Core.Fill(dst.desc(), 0)
		}
		return ks.Elementwise.Unary(k, 0, 0, dst.desc(), ar.desc())
	}
	pv := getParts[R](a)
	defer putParts(pv)
	re, im := &pv.re, &pv.im
	switch k {
	case op.Real:
		return ks.Core.Copy(dst.desc(), re)
	case op.Imag:
		return ks.Core.Copy(dst.desc(), im)
	case op.Abs:
		return ks.Elementwise.Binary(op.Hypot, dst.desc(), re, im)
	}
	return ks.Elementwise.Binary(op.Atan2, dst.desc(), im, re)
}

// checkComplex checks that C is the complex dtype of R for operation
// name.
func checkComplex[C Scalar, R Float](name string) error {
	if c, r := DTypeOf[C](), DTypeOf[R](); c != r.Complex() {
		return newError(name, "C", r.Complex().String()+" (the complex dtype of "+r.String()+")", c.String(), ErrDType)
	}
	return nil
}

// complexShape validates the operands of Complex (k), named by the
// catalog, and returns their broadcast shape.
func complexShape[R Float](name string, k op.Kind, re, im *Tensor[R], buf []int) ([]int, error) {
	args := k.Info().Args
	if err := re.check(name, args[0]); err != nil {
		return nil, err
	}
	if err := im.check(name, args[1]); err != nil {
		return nil, err
	}
	shape, f := op.BroadcastArgs(args[0], args[1], re.v.Shape, im.v.Shape, buf)
	if f != nil {
		return nil, faultError(name, f)
	}
	return shape, nil
}

// toComplex computes re + i·im (Complex, k) into a new tensor of C, the
// complex dtype of R.
func toComplex[C Scalar, R Float](e Engine, k op.Kind, re, im *Tensor[R]) (*Tensor[C], error) {
	name := k.Info().Name
	if err := checkComplex[C, R](name); err != nil {
		return nil, err
	}
	var buf [8]int
	shape, err := complexShape(name, k, re, im, buf[:0])
	if err != nil {
		return nil, err
	}
	return produce(e, name, shape, func(be backend.Engine, out *Tensor[C]) error {
		return complexParts(be, name, out, re, im)
	})
}

// toComplexInto computes dst = re + i·im. dst holds complex numbers and
// re and im real ones, so their storages cannot overlap.
func toComplexInto[C Scalar, R Float](e Engine, k op.Kind, dst *Tensor[C], re, im *Tensor[R]) error {
	name := k.Info().Into
	if err := checkComplex[C, R](name); err != nil {
		return err
	}
	var buf [8]int
	shape, err := complexShape(name, k, re, im, buf[:0])
	if err != nil {
		return err
	}
	if err := checkDst[C](name, false, dst, shape, nil); err != nil {
		return err
	}
	be, err := begin(e, name)
	if err != nil {
		return err
	}
	defer be.End()
	return complexParts(be, name, dst, re, im)
}

// complexParts computes dst = re + i·im on be's kernels for R: the real
// and imaginary parts of dst, two real views of its storage (as
// realParts reads a complex input), are copies of re and im read at
// dst's shape with NumPy's broadcasting. The engine's kernels for R are
// looked up before anything is written.
func complexParts[C Scalar, R Float](be backend.Engine, name string, dst *Tensor[C], re, im *Tensor[R]) error {
	core, err := coreOf[R](be, name)
	if err != nil {
		return err
	}
	pv := getParts[R](dst)
	defer putParts(pv)
	shape := dst.v.Shape
	pv.from[0] = backend.View[R]{Data: re.v.Data, Off: re.v.Off, Shape: shape, Strides: op.BroadcastStrides(shape, re.v.Shape, re.v.Strides, pv.fromStrides[0][:])}
	pv.from[1] = backend.View[R]{Data: im.v.Data, Off: im.v.Off, Shape: shape, Strides: op.BroadcastStrides(shape, im.v.Shape, im.v.Strides, pv.fromStrides[1][:])}
	if err := core.Copy(&pv.re, &pv.from[0]); err != nil {
		return err
	}
	return core.Copy(&pv.im, &pv.from[1])
}

// parts holds the real and imaginary views of a complex tensor, and for
// Complex the views of its real operands read at its shape.
type parts[R Float] struct {
	re, im      backend.View[R]
	strides     [op.MaxRank]int
	from        [2]backend.View[R]
	fromStrides [2][op.MaxRank]int
}

var partPools [2]sync.Pool // *parts[float32], *parts[float64]

// getParts returns the real views of complex tensor a, whose element type
// has R as its parts. Put them back with putParts once the kernels are
// done with them.
func getParts[R Float, T Scalar](a *Tensor[T]) *parts[R] {
	pool := &partPools[partIndex[R]()]
	pv, _ := pool.Get().(*parts[R])
	if pv == nil {
		pv = new(parts[R])
	}
	buf := a.st.Buf()
	data := unsafe.Slice((*R)(unsafe.Pointer(unsafe.SliceData(buf))), 2*len(buf))
	r := len(a.v.Shape)
	for d, s := range a.v.Strides {
		pv.strides[d] = 2 * s
	}
	pv.re = backend.View[R]{Data: data, Off: 2 * a.v.Off, Shape: a.v.Shape, Strides: pv.strides[:r:r]}
	pv.im = pv.re
	pv.im.Off++
	return pv
}

func putParts[R Float](pv *parts[R]) {
	pv.re, pv.im = backend.View[R]{}, backend.View[R]{}
	pv.from = [2]backend.View[R]{}
	partPools[partIndex[R]()].Put(pv)
}

func partIndex[R Float]() int {
	var z R
	if _, ok := any(z).(float32); ok {
		return 0
	}
	return 1
}
