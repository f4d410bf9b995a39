package linalg

import (
	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/internal/lafail"
)

// Cholesky returns the Cholesky factor of the Hermitian positive definite
// A: the lower triangular L with A = L·Lᴴ and a real positive diagonal,
// or with the option [Upper] the upper triangular U with A = Uᴴ·U. Only
// the lower (or upper) triangle of A is read, as numpy.linalg.cholesky
// does; the other triangle of the result is zero.
//
// A is (n, n, batch...): a batch of matrices, batch axes last. It may be
// any view. The result is compact, from e's pool. A matrix that is not
// positive definite fails with [tf.ErrNotPositiveDefinite] naming the
// batch item and the order of the failing leading minor; a NaN or Inf in
// the read triangle fails with [tf.ErrArgument] before any factorization.
func Cholesky[T tf.Scalar](e tf.Engine, a *tf.Tensor[T], opts ...Option) (*tf.Tensor[T], error) {
	const name = "Cholesky"
	f, err := flags(name, Upper, opts)
	if err != nil {
		return nil, err
	}
	if _, _, err := matrices(name, "a", a, true); err != nil {
		return nil, err
	}
	return allocRun(e, a.Shape(), func(l *tf.Tensor[T]) error { return runCholesky(e, name, l, a, f) })
}

// CholeskyInto sets dst to the Cholesky factor of A (see [Cholesky]). dst
// has A's shape, distinct elements, and does not overlap A; it may be any
// such view. Everything is validated, and every batch item factored in the
// engine's scratch, before dst is written: on any error dst is untouched.
// With a warm engine it allocates nothing.
func CholeskyInto[T tf.Scalar](e tf.Engine, dst, a *tf.Tensor[T], opts ...Option) error {
	const name = "CholeskyInto"
	f, err := flags(name, Upper, opts)
	if err != nil {
		return err
	}
	if _, _, err := matrices(name, "a", a, true); err != nil {
		return err
	}
	if err := checkDst(name, "dst", dst, a.Shape(), spanOf("a", a)); err != nil {
		return err
	}
	return runCholesky(e, name, dst, a, f)
}

func runCholesky[T tf.Scalar](e tf.Engine, name string, dst, a *tf.Tensor[T], f Option) error {
	s, err := begin[T](e, name)
	if err != nil {
		return err
	}
	defer s.end()
	err = s.k.Cholesky(view(&s.ar.v[0], dst), view(&s.ar.v[1], a), f&Upper != 0)
	return lafail.Error(name, "a", a.Shape()[2:], err)
}

// CholeskySolve returns X with A·X = B, given the Cholesky factor C of A:
// C = L with A = L·Lᴴ, or with [Upper] C = U with A = Uᴴ·U (the factor
// [Cholesky] returns with the same option). Only that triangle of C is
// read. C is (n, n, batch...) and B (n, k, batch...) or (n, k) (shared by
// every item) or (n) (a vector, for which X is (n, batch...)); see [Solve]
// for the batch rule. A zero on C's diagonal fails with [tf.ErrSingular],
// a NaN or Inf in C's triangle with [tf.ErrArgument].
func CholeskySolve[T tf.Scalar](e tf.Engine, c, b *tf.Tensor[T], opts ...Option) (*tf.Tensor[T], error) {
	const name = "CholeskySolve"
	f, err := flags(name, Upper, opts)
	if err != nil {
		return nil, err
	}
	var buf [tf.MaxRank + 1]int
	sp, err := solveShape(name, "c", c, b, false, buf[:0])
	if err != nil {
		return nil, err
	}
	return allocRun(e, sp.x, func(x *tf.Tensor[T]) error { return runCholeskySolve(e, name, x, c, b, sp, f) })
}

// CholeskySolveInto sets dst to the X of [CholeskySolve]. dst has X's
// shape, distinct elements, and overlaps neither C nor B. On error dst is
// untouched; with a warm engine it allocates nothing.
func CholeskySolveInto[T tf.Scalar](e tf.Engine, dst, c, b *tf.Tensor[T], opts ...Option) error {
	const name = "CholeskySolveInto"
	f, err := flags(name, Upper, opts)
	if err != nil {
		return err
	}
	var buf [tf.MaxRank + 1]int
	sp, err := solveShape(name, "c", c, b, false, buf[:0])
	if err != nil {
		return err
	}
	if err := checkDst(name, "dst", dst, sp.x, spanOf("c", c), spanOf("b", b)); err != nil {
		return err
	}
	return runCholeskySolve(e, name, dst, c, b, sp, f)
}

func runCholeskySolve[T tf.Scalar](e tf.Engine, name string, x, c, b *tf.Tensor[T], sp solveShapes, f Option) error {
	s, err := begin[T](e, name)
	if err != nil {
		return err
	}
	defer s.end()
	xv, cv, bv := solveViews(sp, s.ar, x, c, b)
	err = s.k.CholeskySolve(xv, cv, bv, f&Upper != 0)
	return lafail.Error(name, "c", c.Shape()[2:], err)
}
