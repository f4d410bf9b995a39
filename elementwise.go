package tenferro

import (
	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/internal/op"
)

// The shared bodies of the catalog's elementwise operations and
// reductions; the typed functions (Add, AddInto, Sum, ...) are generated
// from the catalog into ops_gen.go.

// unary computes k(a) with attributes alpha, beta into a new tensor from
// e's pool.
func unary[T Scalar](e Engine, k op.Kind, alpha, beta T, a *Tensor[T]) (*Tensor[T], error) {
	name := k.Info().Name
	if err := a.check(name, "a"); err != nil {
		return nil, err
	}
	if f := op.UnaryShape(a.v.Shape); f != nil {
		return nil, faultError(name, f)
	}
	return produce(e, name, a.v.Shape, func(be backend.Engine, out *Tensor[T]) error {
		kern, err := elementwiseOf[T](be, name)
		if err != nil {
			return err
		}
		return kern.Unary(k, alpha, beta, out.desc(), a.desc())
	})
}

// unaryInto computes dst = k(a) with attributes alpha, beta; dst may be a
// itself.
func unaryInto[T Scalar](e Engine, k op.Kind, alpha, beta T, dst, a *Tensor[T]) error {
	info := k.Info()
	name := info.Into
	if err := a.check(name, "a"); err != nil {
		return err
	}
	if f := op.UnaryShape(a.v.Shape); f != nil {
		return faultError(name, f)
	}
	if err := checkDst(name, true, dst, a.v.Shape, info.Args, a); err != nil {
		return err
	}
	be, kern, err := claimElementwise[T](e, name)
	if err != nil {
		return err
	}
	err = kern.Unary(k, alpha, beta, dst.desc(), a.desc())
	be.End()
	return err
}

// binaryShape validates the operands of binary operation name.
func binaryShape[T Elem](name string, a, b *Tensor[T], buf []int) ([]int, error) {
	if err := a.check(name, "a"); err != nil {
		return nil, err
	}
	if err := b.check(name, "b"); err != nil {
		return nil, err
	}
	shape, f := op.BroadcastShape(a.v.Shape, b.v.Shape, buf)
	if f != nil {
		return nil, faultError(name, f)
	}
	return shape, nil
}

// binary computes k(a, b) into a new tensor from e's pool.
func binary[T Scalar](e Engine, k op.Kind, a, b *Tensor[T]) (*Tensor[T], error) {
	name := k.Info().Name
	var buf [8]int
	shape, err := binaryShape(name, a, b, buf[:0])
	if err != nil {
		return nil, err
	}
	return produce(e, name, shape, func(be backend.Engine, out *Tensor[T]) error {
		kern, err := elementwiseOf[T](be, name)
		if err != nil {
			return err
		}
		return kern.Binary(k, out.desc(), a.desc(), b.desc())
	})
}

// binaryInto computes dst = k(a, b); dst may be a or b itself.
func binaryInto[T Scalar](e Engine, k op.Kind, dst, a, b *Tensor[T]) error {
	info := k.Info()
	name := info.Into
	var buf [8]int
	shape, err := binaryShape(name, a, b, buf[:0])
	if err != nil {
		return err
	}
	if err := checkDst(name, true, dst, shape, info.Args, a, b); err != nil {
		return err
	}
	be, kern, err := claimElementwise[T](e, name)
	if err != nil {
		return err
	}
	err = kern.Binary(k, dst.desc(), a.desc(), b.desc())
	be.End()
	return err
}
