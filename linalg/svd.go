package linalg

import (
	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/internal/lafail"
)

// SVD returns the singular value decomposition A = U·diag(S)·Vᴴ of A
// (m, n, batch...), with k = min(m, n):
//
//	thin (default):  U (m, k, batch...), S (k, batch...), Vᴴ (k, n, batch...)
//	[Complete]:      U (m, m, batch...), S (k, batch...), Vᴴ (n, n, batch...)
//
// as numpy.linalg.svd with full_matrices false or true. S is real, of R =
// A.DType().Real() (float32 for float32 and complex64, float64 otherwise;
// another R fails with [tf.ErrDType]), in descending order and ≥ 0; U and
// V have orthonormal columns. Singular vectors are unique only up to a
// phase per pair (and a unitary mix within a repeated singular value), as
// in every SVD. Call it as linalg.SVD[float64](e, a) for a float64 or
// complex128 A.
//
// Algorithm: Householder bidiagonalization (preceded by a QR or LQ
// factorization when A is far from square), then the implicit QR
// iteration on the bidiagonal (the singular values to high relative
// accuracy). A NaN or Inf in A fails with [tf.ErrArgument] before any
// iteration; an iteration that exhausts its bound (6·k² sweeps of the
// bidiagonal, never met in practice) fails with [tf.ErrNoConvergence].
// A may be any view; the results are compact, from e's pool. See
// [TruncatedSVD] for a truncated decomposition and [SVDSplit] to factor a
// tensor across a bipartition of its axes.
func SVD[R tf.Float, T tf.Scalar](e tf.Engine, a *tf.Tensor[T], opts ...Option) (u *tf.Tensor[T], s *tf.Tensor[R], vh *tf.Tensor[T], err error) {
	const name = "SVD"
	f, err := flags(name, Complete, opts)
	if err != nil {
		return nil, nil, nil, err
	}
	var b [3][tf.MaxRank]int
	sh, err := svdShape[R](name, a, f&Complete != 0, &b)
	if err != nil {
		return nil, nil, nil, err
	}
	s, err = alloc[R](e, sh[1])
	if err != nil {
		return nil, nil, nil, err
	}
	u, vh, err = allocRun2(e, sh[0], sh[2], func(u, vh *tf.Tensor[T]) error { return runSVD(e, name, u, s, vh, a) })
	if err != nil {
		release(s)
		return nil, nil, nil, err
	}
	return u, s, vh, nil
}

// SVDVals returns the singular values of A (m, n, batch...) as [SVD]
// does, (k, batch...), without the vectors (and in O(k²) time per matrix
// after the bidiagonalization).
func SVDVals[R tf.Float, T tf.Scalar](e tf.Engine, a *tf.Tensor[T]) (*tf.Tensor[R], error) {
	const name = "SVDVals"
	var b [3][tf.MaxRank]int
	sh, err := svdShape[R](name, a, false, &b)
	if err != nil {
		return nil, err
	}
	return allocRun(e, sh[1], func(s *tf.Tensor[R]) error { return runSVD(e, name, nil, s, nil, a) })
}

// SVDInto sets u, s and vh to the decomposition of [SVD], the shape of u
// choosing thin or full; u and vh may both be nil for the values alone.
// The destinations have distinct elements and overlap neither A nor each
// other. Everything is validated and every batch item decomposed in the
// engine's scratch before anything is written: on error the destinations
// are untouched. With a warm engine it allocates nothing.
func SVDInto[R tf.Float, T tf.Scalar](e tf.Engine, u *tf.Tensor[T], s *tf.Tensor[R], vh *tf.Tensor[T], a *tf.Tensor[T]) error {
	const name = "SVDInto"
	m, n, err := matrices(name, "a", a, false)
	if err != nil {
		return err
	}
	if (u == nil) != (vh == nil) {
		return tf.Errorf(tf.ErrArgument, name, "u, vh", "both tensors or both nil (values alone)", "one nil")
	}
	full := u != nil && len(u.Shape()) >= 2 && m != n && (u.Shape()[0] == m && u.Shape()[1] == m && m > n || vh.Shape()[0] == n && n > m)
	var b [3][tf.MaxRank]int
	sh, err := svdShape[R](name, a, full, &b)
	if err != nil {
		return err
	}
	as := spanOf("a", a)
	if err := checkDst(name, "s", s, sh[1], as); err != nil {
		return err
	}
	if u != nil {
		if err := checkDst(name, "u", u, sh[0], as, spanOf("s", s)); err != nil {
			return err
		}
		if err := checkDst(name, "vh", vh, sh[2], as, spanOf("s", s), spanOf("u", u)); err != nil {
			return err
		}
	}
	return runSVD(e, name, u, s, vh, a)
}

// svdShape validates a and R and returns the shapes of U, S and Vᴴ.
func svdShape[R tf.Float, T tf.Scalar](name string, a *tf.Tensor[T], full bool, b *[3][tf.MaxRank]int) ([3][]int, error) {
	if err := realOf[R, T](name, "s"); err != nil {
		return [3][]int{}, err
	}
	m, n, err := matrices(name, "a", a, false)
	if err != nil {
		return [3][]int{}, err
	}
	k := min(m, n)
	ku, kv := k, k
	if full {
		ku, kv = m, n
	}
	bs := a.Shape()[2:]
	return [3][]int{
		append(append(b[0][:0], m, ku), bs...),
		append(append(b[1][:0], k), bs...),
		append(append(b[2][:0], kv, n), bs...),
	}, nil
}

func runSVD[R tf.Float, T tf.Scalar](e tf.Engine, name string, u *tf.Tensor[T], s *tf.Tensor[R], vh *tf.Tensor[T], a *tf.Tensor[T]) error {
	ss, err := begin[T](e, name)
	if err != nil {
		return err
	}
	defer ss.end()
	var uv, vv *backend.View[T]
	if u != nil {
		uv, vv = view(&ss.ar.v[0], u), view(&ss.ar.v[1], vh)
	}
	return lafail.Error(name, "a", a.Shape()[2:], ss.k.SVD(uv, realView(ss.ar, s), vv, view(&ss.ar.v[2], a)))
}
