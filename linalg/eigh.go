package linalg

import (
	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/internal/lafail"
)

// Eigh returns the eigenvalues W and eigenvectors V of the Hermitian (real
// symmetric) A (n, n, batch...), A·V = V·diag(W), as numpy.linalg.eigh:
// W (n, batch...) real, of R = A.DType().Real() (another R fails with
// [tf.ErrDType]), in ascending order; V (n, n, batch...) unitary, its
// columns the eigenvectors. Only the lower triangle of A is read (numpy's
// UPLO="L"), or the upper one with the option [Upper]; the imaginary parts
// of the diagonal are taken as zero. Eigenvectors are unique only up to a
// phase each (and a unitary mix within a repeated eigenvalue). Call it as
// linalg.Eigh[float64](e, a) for a float64 or complex128 A.
//
// Algorithm: Householder reduction to real tridiagonal form, then the
// tridiagonal eigenproblem. A NaN or Inf in the read triangle fails with
// [tf.ErrArgument] before any iteration; an iteration that exhausts its
// bound (30·n sweeps) fails with [tf.ErrNoConvergence]. A may be any view;
// the results are compact, from e's pool.
func Eigh[R tf.Float, T tf.Scalar](e tf.Engine, a *tf.Tensor[T], opts ...Option) (w *tf.Tensor[R], v *tf.Tensor[T], err error) {
	const name = "Eigh"
	f, err := flags(name, Upper, opts)
	if err != nil {
		return nil, nil, err
	}
	var b [tf.MaxRank]int
	ws, err := eighShape[R](name, a, b[:0])
	if err != nil {
		return nil, nil, err
	}
	return allocRun2(e, ws, a.Shape(), func(w *tf.Tensor[R], v *tf.Tensor[T]) error { return runEigh(e, name, w, v, a, f) })
}

// Eigvalsh returns the eigenvalues of the Hermitian A as [Eigh] does,
// without the eigenvectors.
func Eigvalsh[R tf.Float, T tf.Scalar](e tf.Engine, a *tf.Tensor[T], opts ...Option) (*tf.Tensor[R], error) {
	const name = "Eigvalsh"
	f, err := flags(name, Upper, opts)
	if err != nil {
		return nil, err
	}
	var b [tf.MaxRank]int
	ws, err := eighShape[R](name, a, b[:0])
	if err != nil {
		return nil, err
	}
	return allocRun(e, ws, func(w *tf.Tensor[R]) error { return runEigh(e, name, w, nil, a, f) })
}

// EighInto sets w and v as [Eigh] returns them; v may be nil for the
// values alone. The destinations have distinct elements and overlap
// neither A nor each other; on error they are untouched; with a warm
// engine it allocates nothing.
func EighInto[R tf.Float, T tf.Scalar](e tf.Engine, w *tf.Tensor[R], v *tf.Tensor[T], a *tf.Tensor[T], opts ...Option) error {
	const name = "EighInto"
	f, err := flags(name, Upper, opts)
	if err != nil {
		return err
	}
	var b [tf.MaxRank]int
	ws, err := eighShape[R](name, a, b[:0])
	if err != nil {
		return err
	}
	if err := checkDst(name, "w", w, ws, spanOf("a", a)); err != nil {
		return err
	}
	if v != nil {
		if err := checkDst(name, "v", v, a.Shape(), spanOf("a", a), spanOf("w", w)); err != nil {
			return err
		}
	}
	return runEigh(e, name, w, v, a, f)
}

// eighShape validates a and R and appends W's shape to b.
func eighShape[R tf.Float, T tf.Scalar](name string, a *tf.Tensor[T], b []int) ([]int, error) {
	if err := realOf[R, T](name, "w"); err != nil {
		return nil, err
	}
	n, _, err := matrices(name, "a", a, true)
	if err != nil {
		return nil, err
	}
	return append(append(b, n), a.Shape()[2:]...), nil
}

func runEigh[R tf.Float, T tf.Scalar](e tf.Engine, name string, w *tf.Tensor[R], v, a *tf.Tensor[T], f Option) error {
	s, err := begin[T](e, name)
	if err != nil {
		return err
	}
	defer s.end()
	var vv *backend.View[T]
	if v != nil {
		vv = view(&s.ar.v[0], v)
	}
	return lafail.Error(name, "a", a.Shape()[2:], s.k.Eigh(realView(s.ar, w), vv, view(&s.ar.v[1], a), f&Upper != 0))
}
