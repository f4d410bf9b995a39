package tenferro

import (
	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/internal/op"
)

// Copy returns a compact column-major copy of a with storage from e's
// buffer pool: the way to materialize a strided view (Release it when
// done). Any element type is accepted.
func Copy[T Elem](e Engine, a *Tensor[T]) (*Tensor[T], error) {
	const name = "Copy"
	if err := a.check(name, "a"); err != nil {
		return nil, err
	}
	if f := op.UnaryShape(a.v.Shape); f != nil {
		return nil, faultError(name, f)
	}
	return produce(e, name, a.v.Shape, func(be backend.Engine, out *Tensor[T]) error {
		core, err := coreOf[T](be, name)
		if err != nil {
			return err
		}
		return core.Copy(out.desc(), a.desc())
	})
}

// CopyInto sets dst = a elementwise (equal shapes). Like every elementwise
// Into form, dst may be a itself (then nothing changes) but must not
// otherwise overlap it.
func CopyInto[T Elem](e Engine, dst, a *Tensor[T]) error {
	const name = "CopyInto"
	if err := a.check(name, "a"); err != nil {
		return err
	}
	if f := op.UnaryShape(a.v.Shape); f != nil {
		return faultError(name, f)
	}
	if err := checkDst(name, true, dst, a.v.Shape, op.Copy.Info().Args, a); err != nil {
		return err
	}
	be, ks, err := claim[T](e, name)
	if err != nil {
		return err
	}
	if !sameView(dst, a) {
		err = ks.Core.Copy(dst.desc(), a.desc())
	}
	be.End()
	return err
}
