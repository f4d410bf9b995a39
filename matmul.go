package tenferro

import (
	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/internal/op"
)

// Matmul returns C = A·B, with storage from e's buffer pool.
//
// A is (m, k) and B is (k, n), giving C of shape (m, n):
// C[i, j] = Σ_p A[i, p]·B[p, j]. Higher ranks are batched with the batch
// axes last (column-major convention, so each batch item is contiguous):
// A (m, k, b1, b2, ...) times B (k, n, b1, b2, ...) gives C (m, n, b1, b2,
// ...). Batch axes must have equal ranks and equal extents, except that an
// extent of 1 broadcasts against any other.
//
// A and B may be any views (transposed, sliced, reversed, broadcast): the
// kernel reads them through their strides without copying. The result is
// compact; Release it when done so the engine can recycle its storage, or
// use [MatmulInto] with a destination you own.
//
// Non-finite entries propagate as IEEE arithmetic on the products' real
// and imaginary parts: every element of C whose sum meets an Inf or a NaN
// is non-finite, the same (Inf or NaN, per part) for every matrix size.
// For complex types the packed kernels sum real and imaginary partial
// products separately, so in sums that meet infinities of opposite signs
// in different parts, whether a part is Inf or NaN can differ from a
// complex loop's.
func Matmul[T Scalar](e Engine, a, b *Tensor[T]) (*Tensor[T], error) {
	const name = "Matmul"
	var buf [8]int
	shape, err := matmulShape(name, a, b, buf[:0])
	if err != nil {
		return nil, err
	}
	return produce(e, name, shape, func(be backend.Engine, c *Tensor[T]) error {
		kern, err := contractionOf[T](be, name)
		if err != nil {
			return err
		}
		return kern.Matmul(c.desc(), a.desc(), b.desc(), 1, 0)
	})
}

// MatmulInto computes dst = A·B (see [Matmul] for shapes and batching), or
// dst = alpha·A·B + beta·dst with the option Accumulate(alpha, beta). dst
// may be any view whose elements are distinct (for example a transposed or
// sliced part of a larger tensor) but must not overlap A or B. Every
// argument is validated before anything is written: on error dst is
// untouched. With a reused engine MatmulInto allocates nothing.
func MatmulInto[T Scalar](e Engine, dst, a, b *Tensor[T], opts ...Option) error {
	const name = "MatmulInto"
	var buf [8]int
	shape, err := matmulShape(name, a, b, buf[:0])
	if err != nil {
		return err
	}
	alpha, beta := T(1), T(0)
	if len(opts) > 0 {
		if alpha, beta, err = scaling[T](name, acceptAccumulate, opts); err != nil {
			return err
		}
	}
	if err := checkDst(name, false, dst, shape, op.Matmul.Info().Args, a, b); err != nil {
		return err
	}
	be, ks, err := claim[T](e, name)
	if err != nil {
		return err
	}
	if ks.Contraction == nil {
		err = unsupported[T](name, "contraction kernels")
	} else {
		err = ks.Contraction.Matmul(dst.desc(), a.desc(), b.desc(), alpha, beta)
	}
	be.End()
	return err
}

// matmulShape validates a and b for operation name and appends the result
// shape to buf.
func matmulShape[T Scalar](name string, a, b *Tensor[T], buf []int) ([]int, error) {
	if err := a.check(name, "a"); err != nil {
		return nil, err
	}
	if err := b.check(name, "b"); err != nil {
		return nil, err
	}
	shape, f := op.MatmulShape(a.v.Shape, b.v.Shape, buf)
	if f != nil {
		return nil, faultError(name, f)
	}
	return shape, nil
}
