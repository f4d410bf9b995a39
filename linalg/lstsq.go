package linalg

import (
	"slices"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/internal/lafail"
	"github.com/tenferro-go/tenferro/internal/op"
)

// Lstsq returns the minimum-norm least-squares solution X of A·X ≈ B,
// minimizing ‖A·X − B‖_F and then ‖X‖_F, as numpy.linalg.lstsq and
// torch.linalg.lstsq (driver gelsd): A (m, n, batch...) of any shape and
// rank, B (m, k, batch...) with A's batch extents, or the vector (m) for a
// 2-D A, X (n, k, batch...) or (n). Singular values σᵢ ≤ rcond·σ₀ of A
// count as zero (rcond < 0: machine precision, NumPy's default rcond=None
// uses max(m, n)·eps, pass that for its behaviour); rank (batch...) is the
// number that remain, the effective rank, and s (min(m, n), batch...) of
// R = A.DType().Real() the singular values. Computed through the SVD of A,
// X = V·Σ⁺·Uᴴ·B. A NaN or Inf in A or B fails with [tf.ErrArgument]. The
// results are compact, from e's pool.
func Lstsq[R tf.Float, T tf.Scalar](e tf.Engine, a, b *tf.Tensor[T], rcond float64) (x *tf.Tensor[T], rank *tf.Tensor[int64], s *tf.Tensor[R], err error) {
	const name = "Lstsq"
	var room [3][tf.MaxRank]int
	sh, err := lstsqShape[R](name, a, b, &room)
	if err != nil {
		return nil, nil, nil, err
	}
	if s, err = alloc[R](e, sh.s); err != nil {
		return nil, nil, nil, err
	}
	x, rank, err = allocRun2(e, sh.x, a.Shape()[2:], func(x *tf.Tensor[T], rank *tf.Tensor[int64]) error {
		return runLstsq(e, name, x, rank, s, a, b, sh, rcond)
	})
	if err != nil {
		release(s)
		return nil, nil, nil, err
	}
	return x, rank, s, nil
}

// LstsqInto sets x (and rank and s, each when not nil) as [Lstsq] returns
// them. The destinations have distinct elements and overlap neither the
// inputs nor each other; on error they are untouched; with a warm engine
// it allocates nothing.
func LstsqInto[R tf.Float, T tf.Scalar](e tf.Engine, x *tf.Tensor[T], rank *tf.Tensor[int64], s *tf.Tensor[R], a, b *tf.Tensor[T], rcond float64) error {
	const name = "LstsqInto"
	var room [3][tf.MaxRank]int
	sh, err := lstsqShape[R](name, a, b, &room)
	if err != nil {
		return err
	}
	as, bs := spanOf("a", a), spanOf("b", b)
	if err := checkDst(name, "x", x, sh.x, as, bs); err != nil {
		return err
	}
	if rank != nil {
		if err := checkDst(name, "rank", rank, a.Shape()[2:], as, bs, spanOf("x", x)); err != nil {
			return err
		}
	}
	if s != nil {
		if err := checkDst(name, "s", s, sh.s, as, bs, spanOf("x", x)); err != nil {
			return err
		}
	}
	return runLstsq(e, name, x, rank, s, a, b, sh, rcond)
}

type lstsqShapes struct {
	x, s []int
	vec  bool
}

func lstsqShape[R tf.Float, T tf.Scalar](name string, a, b *tf.Tensor[T], room *[3][tf.MaxRank]int) (lstsqShapes, error) {
	if err := realOf[R, T](name, "s"); err != nil {
		return lstsqShapes{}, err
	}
	m, n, err := matrices(name, "a", a, false)
	if err != nil {
		return lstsqShapes{}, err
	}
	if err := live(name, "b", b); err != nil {
		return lstsqShapes{}, err
	}
	ab, bs := a.Shape()[2:], b.Shape()
	sh := lstsqShapes{s: append(append(room[1][:0], min(m, n)), ab...)}
	switch {
	case len(bs) == 1 && len(ab) == 0 && bs[0] == m:
		sh.x, sh.vec = append(room[0][:0], n), true
	case len(bs) == 2+len(ab) && bs[0] == m && (len(ab) == 0 || slices.Equal(bs[2:], ab)):
		sh.x = append(append(room[0][:0], n, bs[1]), ab...)
	default:
		return lstsqShapes{}, tf.Errorf(tf.ErrShape, name, "b", "(m, k, batch...) with a's m and batch extents ("+op.FmtInts(a.Shape())+"), or (m) for a matrix a", "shape %s", op.FmtInts(bs))
	}
	return sh, nil
}

func runLstsq[R tf.Float, T tf.Scalar](e tf.Engine, name string, x *tf.Tensor[T], rank *tf.Tensor[int64], s *tf.Tensor[R], a, b *tf.Tensor[T], sh lstsqShapes, rcond float64) error {
	ss, err := begin[T](e, name)
	if err != nil {
		return err
	}
	defer ss.end()
	ar := ss.ar
	r := a.Rank()
	xv, bv := shaped(&ar.v[0], x, sh.vec, r, &ar.dims[0]), shaped(&ar.v[2], b, sh.vec, r, &ar.dims[2])
	var rv *backend.View[int64]
	if rank != nil {
		rv = view(&ar.piv, rank)
	}
	var sv any
	if s != nil {
		sv = realView(ar, s)
	}
	return lafail.Error(name, "a", a.Shape()[2:], ss.k.Lstsq(xv, rv, sv, view(&ar.v[1], a), bv, rcond))
}

// Pinv returns the Moore–Penrose pseudo-inverse A⁺ (n, m, batch...) of A
// (m, n, batch...), as numpy.linalg.pinv: V·Σ⁺·Uᴴ from the SVD of A, the
// singular values σᵢ ≤ rcond·σ₀ taken as zero (rcond < 0: machine
// precision; NumPy's default is 1e-15). A NaN or Inf in A fails with
// [tf.ErrArgument]. The result is compact, from e's pool.
func Pinv[T tf.Scalar](e tf.Engine, a *tf.Tensor[T], rcond float64) (*tf.Tensor[T], error) {
	const name = "Pinv"
	var b [tf.MaxRank]int
	ps, err := pinvShape(name, a, b[:0])
	if err != nil {
		return nil, err
	}
	return allocRun(e, ps, func(x *tf.Tensor[T]) error { return runPinv(e, name, x, a, rcond) })
}

// PinvInto sets dst (n, m, batch...) to the pseudo-inverse of [Pinv].
// dst has distinct elements and does not overlap A; on error it is
// untouched; with a warm engine it allocates nothing.
func PinvInto[T tf.Scalar](e tf.Engine, dst, a *tf.Tensor[T], rcond float64) error {
	const name = "PinvInto"
	var b [tf.MaxRank]int
	ps, err := pinvShape(name, a, b[:0])
	if err != nil {
		return err
	}
	if err := checkDst(name, "dst", dst, ps, spanOf("a", a)); err != nil {
		return err
	}
	return runPinv(e, name, dst, a, rcond)
}

func pinvShape[T tf.Scalar](name string, a *tf.Tensor[T], b []int) ([]int, error) {
	m, n, err := matrices(name, "a", a, false)
	if err != nil {
		return nil, err
	}
	return append(append(b, n, m), a.Shape()[2:]...), nil
}

func runPinv[T tf.Scalar](e tf.Engine, name string, x, a *tf.Tensor[T], rcond float64) error {
	s, err := begin[T](e, name)
	if err != nil {
		return err
	}
	defer s.end()
	return lafail.Error(name, "a", a.Shape()[2:], s.k.Pinv(view(&s.ar.v[0], x), view(&s.ar.v[1], a), rcond))
}
