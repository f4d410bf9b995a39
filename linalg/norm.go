package linalg

import (
	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/internal/lafail"
)

// NormOrder is the order of a matrix norm, numpy.linalg.norm's ord for
// matrices.
type NormOrder = backend.NormOrd

const (
	NormFro     = backend.NormFro     // Frobenius, √Σ|aᵢⱼ|² ("fro")
	NormNuclear = backend.NormNuclear // the sum of the singular values ("nuc")
	Norm1       = backend.NormOne     // the largest column sum of |aᵢⱼ| (1)
	NormNeg1    = backend.NormNegOne  // the smallest column sum (−1)
	Norm2       = backend.NormTwo     // the largest singular value (2)
	NormNeg2    = backend.NormNegTwo  // the smallest singular value (−2)
	NormInf     = backend.NormInf     // the largest row sum of |aᵢⱼ| (inf)
	NormNegInf  = backend.NormNegInf  // the smallest row sum (−inf)
)

// MatrixNorm returns the norm ord of each matrix of A (m, n, batch...), a
// tensor (batch...) of R = A.DType().Real(), 0-d for a single matrix, as
// numpy.linalg.norm(A, ord, axis=(0, 1)). The 2-norms and the nuclear
// norm come from the singular values; the others are sums of moduli in
// float64 (the Frobenius norm scaled so that it neither overflows nor
// underflows). An empty matrix has norm 0; NaN entries give NaN. The
// result is from e's pool.
func MatrixNorm[R tf.Float, T tf.Scalar](e tf.Engine, a *tf.Tensor[T], ord NormOrder) (*tf.Tensor[R], error) {
	return perMatrix[R](e, "MatrixNorm", a, ord, false, func(s session[T], d any, av *backend.View[T]) error { return s.k.MatrixNorm(d, av, ord) })
}

// MatrixNormInto sets dst (batch...) to the norms of [MatrixNorm]; with a
// warm engine it allocates nothing.
func MatrixNormInto[R tf.Float, T tf.Scalar](e tf.Engine, dst *tf.Tensor[R], a *tf.Tensor[T], ord NormOrder) error {
	return perMatrixInto(e, "MatrixNormInto", dst, a, ord, false, func(s session[T], d any, av *backend.View[T]) error { return s.k.MatrixNorm(d, av, ord) })
}

// Cond returns the condition number of each matrix of A (batch...), as
// numpy.linalg.cond: for [Norm2] (NumPy's default) σ₀/σₖ₋₁ of any m×n
// matrix (its inverse for [NormNeg2]), +Inf for a rank-deficient one; for
// the other orders ‖A‖·‖A⁻¹‖ of a square A, +Inf when A is singular. NaN
// entries give NaN. The result is from e's pool.
func Cond[R tf.Float, T tf.Scalar](e tf.Engine, a *tf.Tensor[T], ord NormOrder) (*tf.Tensor[R], error) {
	sq := ord != Norm2 && ord != NormNeg2
	return perMatrix[R](e, "Cond", a, ord, sq, func(s session[T], d any, av *backend.View[T]) error { return s.k.Cond(d, av, ord) })
}

// CondInto sets dst (batch...) to the condition numbers of [Cond]; with a
// warm engine it allocates nothing.
func CondInto[R tf.Float, T tf.Scalar](e tf.Engine, dst *tf.Tensor[R], a *tf.Tensor[T], ord NormOrder) error {
	sq := ord != Norm2 && ord != NormNeg2
	return perMatrixInto(e, "CondInto", dst, a, ord, sq, func(s session[T], d any, av *backend.View[T]) error { return s.k.Cond(d, av, ord) })
}

func perMatrix[R tf.Float, T tf.Scalar](e tf.Engine, name string, a *tf.Tensor[T], ord NormOrder, square bool, run func(session[T], any, *backend.View[T]) error) (*tf.Tensor[R], error) {
	if err := perMatrixCheck[R](name, a, ord, square); err != nil {
		return nil, err
	}
	return allocRun(e, a.Shape()[2:], func(d *tf.Tensor[R]) error { return runPerMatrix(e, name, d, a, run) })
}

func perMatrixInto[R tf.Float, T tf.Scalar](e tf.Engine, name string, dst *tf.Tensor[R], a *tf.Tensor[T], ord NormOrder, square bool, run func(session[T], any, *backend.View[T]) error) error {
	if err := perMatrixCheck[R](name, a, ord, square); err != nil {
		return err
	}
	if err := checkDst(name, "dst", dst, a.Shape()[2:], spanOf("a", a)); err != nil {
		return err
	}
	return runPerMatrix(e, name, dst, a, run)
}

func perMatrixCheck[R tf.Float, T tf.Scalar](name string, a *tf.Tensor[T], ord NormOrder, square bool) error {
	if ord < NormFro || ord > NormNegInf {
		return tf.Errorf(tf.ErrArgument, name, "ord", "a NormOrder (NormFro ... NormNegInf)", "%d", int(ord))
	}
	if err := realOf[R, T](name, "dst"); err != nil {
		return err
	}
	_, _, err := matrices(name, "a", a, square)
	return err
}

func runPerMatrix[R tf.Float, T tf.Scalar](e tf.Engine, name string, d *tf.Tensor[R], a *tf.Tensor[T], run func(session[T], any, *backend.View[T]) error) error {
	s, err := begin[T](e, name)
	if err != nil {
		return err
	}
	defer s.end()
	return lafail.Error(name, "a", a.Shape()[2:], run(s, realView(s.ar, d), view(&s.ar.v[0], a)))
}

// MatrixRank returns the numerical rank of each matrix of A (m, n,
// batch...), a tensor (batch...): the number of singular values greater
// than max(atol, rtol·σ₀), as torch.linalg.matrix_rank(A, atol, rtol).
// rtol < 0 means NumPy's default, max(m, n)·eps of A's precision (used
// only when atol is 0 too). A NaN or Inf in A fails with
// [tf.ErrArgument]. The result is from e's pool.
func MatrixRank[T tf.Scalar](e tf.Engine, a *tf.Tensor[T], atol, rtol float64) (*tf.Tensor[int64], error) {
	const name = "MatrixRank"
	if _, _, err := matrices(name, "a", a, false); err != nil {
		return nil, err
	}
	return allocRun(e, a.Shape()[2:], func(d *tf.Tensor[int64]) error { return runRank(e, name, d, a, atol, rtol) })
}

// MatrixRankInto sets dst (batch...) to the ranks of [MatrixRank]; with a
// warm engine it allocates nothing.
func MatrixRankInto[T tf.Scalar](e tf.Engine, dst *tf.Tensor[int64], a *tf.Tensor[T], atol, rtol float64) error {
	const name = "MatrixRankInto"
	if _, _, err := matrices(name, "a", a, false); err != nil {
		return err
	}
	if err := checkDst(name, "dst", dst, a.Shape()[2:], spanOf("a", a)); err != nil {
		return err
	}
	return runRank(e, name, dst, a, atol, rtol)
}

func runRank[T tf.Scalar](e tf.Engine, name string, d *tf.Tensor[int64], a *tf.Tensor[T], atol, rtol float64) error {
	if rtol < 0 {
		rtol = 0
		if atol == 0 {
			s := a.Shape()
			eps := 0x1p-52 // numpy.finfo(float64).eps
			if tf.DTypeOf[T]().Real() == tf.Float32 {
				eps = 0x1p-23
			}
			rtol = float64(max(s[0], s[1])) * eps
		}
	}
	s, err := begin[T](e, name)
	if err != nil {
		return err
	}
	defer s.end()
	return lafail.Error(name, "a", a.Shape()[2:], s.k.MatrixRank(view(&s.ar.piv, d), view(&s.ar.v[0], a), atol, rtol))
}
