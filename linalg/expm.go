package linalg

import (
	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/internal/lafail"
)

// Expm returns the matrix exponential exp(A) = Σₖ Aᵏ/k! of each matrix of
// A (n, n, batch...), as scipy.linalg.expm and torch.linalg.matrix_exp:
// scaling and squaring with Padé approximants of degree 3 to 13 chosen by
// the 1-norm (Higham 2005; degrees up to 7 with single-precision bounds
// for float32 and complex64). The backward error is at the unit roundoff;
// the forward error grows with the condition of exp at A (with ‖A‖ for
// non-normal A). It builds the gates of time evolution, exp(−i·H·dt) for
// a complex Hermitian H. A result beyond the range of T holds infinities;
// a NaN or Inf in A fails with [tf.ErrArgument]. The result is compact,
// from e's pool. For exp(t·A)·v with A given only as a linear map, see
// [ExpmV].
func Expm[T tf.Scalar](e tf.Engine, a *tf.Tensor[T]) (*tf.Tensor[T], error) {
	const name = "Expm"
	if _, _, err := matrices(name, "a", a, true); err != nil {
		return nil, err
	}
	return allocRun(e, a.Shape(), func(x *tf.Tensor[T]) error { return runExpm(e, name, x, a) })
}

// ExpmInto sets dst (A's shape) to exp(A) as [Expm] does. dst has
// distinct elements and does not overlap A; on error it is untouched;
// with a warm engine it allocates nothing.
func ExpmInto[T tf.Scalar](e tf.Engine, dst, a *tf.Tensor[T]) error {
	const name = "ExpmInto"
	if _, _, err := matrices(name, "a", a, true); err != nil {
		return err
	}
	if err := checkDst(name, "dst", dst, a.Shape(), spanOf("a", a)); err != nil {
		return err
	}
	return runExpm(e, name, dst, a)
}

func runExpm[T tf.Scalar](e tf.Engine, name string, x, a *tf.Tensor[T]) error {
	s, err := begin[T](e, name)
	if err != nil {
		return err
	}
	defer s.end()
	return lafail.Error(name, "a", a.Shape()[2:], s.k.Expm(view(&s.ar.v[0], x), view(&s.ar.v[1], a)))
}
