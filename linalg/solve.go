package linalg

import (
	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/internal/lafail"
	"github.com/tenferro-go/tenferro/internal/op"
)

// solveShapes is the validated layout of a solve: X's shape, the rank of
// the backend views, and whether B (and X) is a vector.
type solveShapes struct {
	x   []int
	r   int
	vec bool
}

// solveShape validates the square a (argument aname) and b for a solve
// A·X = B (or X·A = B when right) and appends X's shape to buf: B is (n,
// k, batch...) with the batch axes of A (equal extents, or 1 on either
// side broadcasting), or (n, k) shared by every item of A, or, unless
// right, the vector (n), for which X is (n, batch...). A 2-D A is shared
// by every item of B.
func solveShape[T tf.Scalar](name, aname string, a, b *tf.Tensor[T], right bool, buf []int) (solveShapes, error) {
	n, _, err := matrices(name, aname, a, true)
	if err != nil {
		return solveShapes{}, err
	}
	if err := live(name, "b", b); err != nil {
		return solveShapes{}, err
	}
	bs, ab := b.Shape(), a.Shape()[2:]
	vec := len(bs) == 1
	axis := 0
	if right {
		axis = 1
	}
	if len(bs) == 0 || vec && right || len(bs) > axis && bs[axis] != n {
		want := "(n) or (n, k, batch...) with n = " + op.FmtInts(a.Shape()[:1])
		if right {
			want = "(m, n, batch...) with n = " + op.FmtInts(a.Shape()[:1])
		}
		return solveShapes{}, tf.Errorf(tf.ErrShape, name, "b", want, "shape %s", op.FmtInts(bs))
	}
	if vec {
		buf = append(append(buf, n), ab...)
		return solveShapes{x: buf, r: 2 + len(ab), vec: true}, nil
	}
	buf = append(buf, bs[0], bs[1])
	bb := bs[2:]
	switch {
	case len(bb) == 0:
		buf = append(buf, ab...)
	case len(ab) == 0:
		buf = append(buf, bb...)
	case len(ab) != len(bb):
		return solveShapes{}, tf.Errorf(tf.ErrShape, name, "b", "as many batch axes as "+aname+" ("+op.FmtInts(a.Shape())+"), or none", "shape %s", op.FmtInts(bs))
	default:
		for d, x := range ab {
			switch y := bb[d]; {
			case x == y || y == 1:
				buf = append(buf, x)
			case x == 1:
				buf = append(buf, y)
			default:
				return solveShapes{}, tf.Errorf(tf.ErrShape, name, "b", "batch extents equal to "+aname+"'s ("+op.FmtInts(a.Shape())+") or 1", "shape %s", op.FmtInts(bs))
			}
		}
	}
	return solveShapes{x: buf, r: len(buf)}, nil
}

// solveViews returns the backend views of x, a and b at the solve's rank.
func solveViews[T tf.Scalar](sp solveShapes, ar *args[T], x, a, b *tf.Tensor[T]) (xv, av, bv *backend.View[T]) {
	return shaped(&ar.v[0], x, sp.vec, sp.r, &ar.dims[0]), shaped(&ar.v[1], a, false, sp.r, &ar.dims[1]), shaped(&ar.v[2], b, sp.vec, sp.r, &ar.dims[2])
}

// Solve returns X with A·X = B, as numpy.linalg.solve, by an LU
// factorization with partial pivoting of each matrix of A.
//
// A is (n, n, batch...), batch axes last. B is (n, k, batch...) with the
// same number of batch axes (extents equal, or 1 on either side
// broadcasting), or (n, k) (one right side for every matrix of A), or the
// vector (n) (NumPy 2's rule: only a 1-D B is a vector), for which X is (n,
// batch...). A 2-D A is solved against every matrix of a batched B. X has
// the broadcast shape (n, k, batch...). A and B may be any views; X is
// compact, from e's pool.
//
// An exactly singular matrix fails with [tf.ErrSingular] naming the batch
// item of A and the zero pivot of its U; a NaN or Inf in A fails with
// [tf.ErrArgument] before any solve (NaN or Inf in B propagate to X).
func Solve[T tf.Scalar](e tf.Engine, a, b *tf.Tensor[T]) (*tf.Tensor[T], error) {
	const name = "Solve"
	var buf [tf.MaxRank + 1]int
	sp, err := solveShape(name, "a", a, b, false, buf[:0])
	if err != nil {
		return nil, err
	}
	return allocRun(e, sp.x, func(x *tf.Tensor[T]) error { return runSolve(e, name, x, a, b, sp) })
}

// SolveInto sets dst to the X of [Solve]. dst has X's shape, distinct
// elements, and overlaps neither A nor B. Every matrix of A is factored in
// the engine's scratch before dst is written: on any error, ErrSingular
// included, dst is untouched. With a warm engine it allocates nothing.
func SolveInto[T tf.Scalar](e tf.Engine, dst, a, b *tf.Tensor[T]) error {
	const name = "SolveInto"
	var buf [tf.MaxRank + 1]int
	sp, err := solveShape(name, "a", a, b, false, buf[:0])
	if err != nil {
		return err
	}
	if err := checkDst(name, "dst", dst, sp.x, spanOf("a", a), spanOf("b", b)); err != nil {
		return err
	}
	return runSolve(e, name, dst, a, b, sp)
}

func runSolve[T tf.Scalar](e tf.Engine, name string, x, a, b *tf.Tensor[T], sp solveShapes) error {
	s, err := begin[T](e, name)
	if err != nil {
		return err
	}
	defer s.end()
	xv, av, bv := solveViews(sp, s.ar, x, a, b)
	return lafail.Error(name, "a", a.Shape()[2:], s.k.Solve(xv, av, bv))
}

// SolveTriangular returns X with A·X = B, or X·A = B with the option
// [Right], for the triangular A: its upper triangle is read when upper is
// true, its lower one otherwise (the other is never read), and with
// [UnitDiagonal] its diagonal is taken as ones, as
// torch.linalg.solve_triangular. For the left side A is (n, n, batch...)
// and B as in [Solve] (a vector B allowed); for the right side B is (m, n,
// batch...) or (m, n). A zero diagonal entry fails with [tf.ErrSingular]
// naming the batch item and the entry; a NaN or Inf in the read triangle
// with [tf.ErrArgument]; both are checked before anything is written.
func SolveTriangular[T tf.Scalar](e tf.Engine, a, b *tf.Tensor[T], upper bool, opts ...Option) (*tf.Tensor[T], error) {
	const name = "SolveTriangular"
	f, err := flags(name, Right|UnitDiagonal, opts)
	if err != nil {
		return nil, err
	}
	var buf [tf.MaxRank + 1]int
	sp, err := solveShape(name, "a", a, b, f&Right != 0, buf[:0])
	if err != nil {
		return nil, err
	}
	return allocRun(e, sp.x, func(x *tf.Tensor[T]) error { return runTriangular(e, name, x, a, b, sp, upper, f) })
}

// SolveTriangularInto sets dst to the X of [SolveTriangular]. dst has X's
// shape, distinct elements, and overlaps neither A nor B. On error dst is
// untouched; with a warm engine it allocates nothing.
func SolveTriangularInto[T tf.Scalar](e tf.Engine, dst, a, b *tf.Tensor[T], upper bool, opts ...Option) error {
	const name = "SolveTriangularInto"
	f, err := flags(name, Right|UnitDiagonal, opts)
	if err != nil {
		return err
	}
	var buf [tf.MaxRank + 1]int
	sp, err := solveShape(name, "a", a, b, f&Right != 0, buf[:0])
	if err != nil {
		return err
	}
	if err := checkDst(name, "dst", dst, sp.x, spanOf("a", a), spanOf("b", b)); err != nil {
		return err
	}
	return runTriangular(e, name, dst, a, b, sp, upper, f)
}

func runTriangular[T tf.Scalar](e tf.Engine, name string, x, a, b *tf.Tensor[T], sp solveShapes, upper bool, f Option) error {
	s, err := begin[T](e, name)
	if err != nil {
		return err
	}
	defer s.end()
	xv, av, bv := solveViews(sp, s.ar, x, a, b)
	return lafail.Error(name, "a", a.Shape()[2:], s.k.SolveTriangular(xv, av, bv, upper, f&Right == 0, f&UnitDiagonal != 0))
}

// Inv returns A⁻¹ for each matrix of A (n, n, batch...), by an LU
// factorization with partial pivoting, as numpy.linalg.inv. An exactly
// singular matrix fails with [tf.ErrSingular] naming the batch item and
// the zero pivot; a NaN or Inf in A fails with [tf.ErrArgument]. The
// result is compact, from e's pool.
func Inv[T tf.Scalar](e tf.Engine, a *tf.Tensor[T]) (*tf.Tensor[T], error) {
	const name = "Inv"
	if _, _, err := matrices(name, "a", a, true); err != nil {
		return nil, err
	}
	return allocRun(e, a.Shape(), func(x *tf.Tensor[T]) error { return runInv(e, name, x, a) })
}

// InvInto sets dst to A⁻¹ (see [Inv]). dst has A's shape, distinct
// elements, and does not overlap A. Every matrix is factored in the
// engine's scratch before dst is written: on any error dst is untouched.
// With a warm engine it allocates nothing.
func InvInto[T tf.Scalar](e tf.Engine, dst, a *tf.Tensor[T]) error {
	const name = "InvInto"
	if _, _, err := matrices(name, "a", a, true); err != nil {
		return err
	}
	if err := checkDst(name, "dst", dst, a.Shape(), spanOf("a", a)); err != nil {
		return err
	}
	return runInv(e, name, dst, a)
}

func runInv[T tf.Scalar](e tf.Engine, name string, x, a *tf.Tensor[T]) error {
	s, err := begin[T](e, name)
	if err != nil {
		return err
	}
	defer s.end()
	return lafail.Error(name, "a", a.Shape()[2:], s.k.Inv(view(&s.ar.v[0], x), view(&s.ar.v[1], a)))
}
