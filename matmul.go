package tenferro

import "fmt"

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
func Matmul[T Scalar](e Engine, a, b *Tensor[T]) (*Tensor[T], error) {
	var shapeBuf [8]int
	shape, err := matmulShape(a, b, shapeBuf[:0])
	if err != nil {
		return nil, err
	}
	return produce(e, "Matmul", shape, func(c *Tensor[T]) error { return e.Matmul(c, a, b) })
}

// MatmulInto computes dst = A·B (see [Matmul] for shapes and batching).
// dst may be any view whose elements are distinct (for example a transposed
// or sliced part of a larger tensor) but must not overlap A or B. Every
// argument is validated before anything is written: on error dst is
// untouched. With a reused engine MatmulInto allocates nothing.
func MatmulInto[T Scalar](e Engine, dst, a, b *Tensor[T]) error {
	var shapeBuf [8]int
	shape, err := matmulShape(a, b, shapeBuf[:0])
	if err != nil {
		return err
	}
	if err := dst.check("MatmulInto", "dst"); err != nil {
		return err
	}
	if !equalInts(dst.shape, shape) {
		return shapeError("MatmulInto", "dst", shape, dst.shape)
	}
	if err := checkWritable("MatmulInto", dst); err != nil {
		return err
	}
	if overlaps(dst, a) || overlaps(dst, b) {
		return newError("MatmulInto", "dst", "storage disjoint from a and b", "a view overlapping an input", ErrAlias)
	}
	if err := claim(e, "MatmulInto"); err != nil {
		return err
	}
	defer e.End()
	return e.Matmul(dst, a, b)
}

// matmulShape validates a and b for Matmul and appends the result shape to
// buf.
func matmulShape[T Scalar](a, b *Tensor[T], buf []int) ([]int, error) {
	const op = "Matmul"
	if err := a.check(op, "a"); err != nil {
		return nil, err
	}
	if err := b.check(op, "b"); err != nil {
		return nil, err
	}
	if a.Rank() < 2 {
		return nil, newError(op, "a", "rank >= 2 (m, k, batch...)", fmt.Sprintf("rank %d", a.Rank()), ErrShape)
	}
	if b.Rank() != a.Rank() {
		return nil, newError(op, "b", fmt.Sprintf("rank %d like a", a.Rank()), fmt.Sprintf("rank %d", b.Rank()), ErrShape)
	}
	if a.shape[1] != b.shape[0] {
		return nil, newError(op, "b", fmt.Sprintf("%d rows (a is %v)", a.shape[1], a.shape), fmt.Sprintf("%d rows (b is %v)", b.shape[0], b.shape), ErrShape)
	}
	buf = append(buf, a.shape[0], b.shape[1])
	for d := 2; d < a.Rank(); d++ {
		x, y := a.shape[d], b.shape[d]
		switch {
		case x == y, y == 1:
			buf = append(buf, x)
		case x == 1:
			buf = append(buf, y)
		default:
			return nil, newError(op, "b", fmt.Sprintf("batch extent %d or 1 at axis %d (a is %v)", x, d, a.shape), fmt.Sprintf("%d (b is %v)", y, b.shape), ErrShape)
		}
	}
	if _, err := checkShape(op, buf); err != nil {
		return nil, err
	}
	return buf, nil
}
