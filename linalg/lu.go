package linalg

import (
	"errors"
	"slices"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/internal/lafail"
	"github.com/tenferro-go/tenferro/internal/op"
)

// LU returns the LU factorization with partial pivoting of A (m, n,
// batch...), P·A = L·U, packed as LAPACK's getrf packs it: lu (m, n,
// batch...) holds U on and above the diagonal and the unit lower
// triangular (trapezoidal when m > n) L strictly below it. piv (min(m, n),
// batch...) holds the row interchanges, 0-based: row i of A was swapped
// with row piv[i] ≥ i, for i = 0, 1, ... in that order (LAPACK's ipiv
// minus one, torch.linalg.lu_factor's pivots minus one). Each pivot is the
// entry of largest |Re|+|Im| in its column. A singular A is no error (U
// has a zero on its diagonal); a NaN or Inf in A fails with
// [tf.ErrArgument]. Both results are compact, from e's pool.
func LU[T tf.Scalar](e tf.Engine, a *tf.Tensor[T]) (lu *tf.Tensor[T], piv *tf.Tensor[int64], err error) {
	const name = "LU"
	var buf [tf.MaxRank]int
	ps, err := luShape(name, a, buf[:0])
	if err != nil {
		return nil, nil, err
	}
	return allocRun2(e, a.Shape(), ps, func(lu *tf.Tensor[T], piv *tf.Tensor[int64]) error { return runLU(e, name, lu, piv, a) })
}

// LUInto sets lu and piv to the factorization of [LU]. lu has A's shape
// and piv (min(m, n), batch...); both have distinct elements and overlap
// neither A nor each other. On error both are untouched; with a warm
// engine it allocates nothing.
func LUInto[T tf.Scalar](e tf.Engine, lu *tf.Tensor[T], piv *tf.Tensor[int64], a *tf.Tensor[T]) error {
	const name = "LUInto"
	var buf [tf.MaxRank]int
	ps, err := luShape(name, a, buf[:0])
	if err != nil {
		return err
	}
	if err := checkDst(name, "lu", lu, a.Shape(), spanOf("a", a)); err != nil {
		return err
	}
	if err := checkDst(name, "piv", piv, ps, spanOf("a", a), spanOf("lu", lu)); err != nil {
		return err
	}
	return runLU(e, name, lu, piv, a)
}

// luShape validates a and appends the pivots' shape to buf.
func luShape[T tf.Scalar](name string, a *tf.Tensor[T], buf []int) ([]int, error) {
	m, n, err := matrices(name, "a", a, false)
	if err != nil {
		return nil, err
	}
	return append(append(buf, min(m, n)), a.Shape()[2:]...), nil
}

func runLU[T tf.Scalar](e tf.Engine, name string, lu *tf.Tensor[T], piv *tf.Tensor[int64], a *tf.Tensor[T]) error {
	s, err := begin[T](e, name)
	if err != nil {
		return err
	}
	defer s.end()
	return lafail.Error(name, "a", a.Shape()[2:], s.k.LU(view(&s.ar.v[0], lu), view(&s.ar.piv, piv), view(&s.ar.v[1], a)))
}

// Det returns det(A) for each matrix of A (n, n, batch...): a tensor of
// shape (batch...), 0-d for a single matrix, computed as the signed
// product of the diagonal of U from an LU factorization, as
// numpy.linalg.det. A singular matrix gives 0 (no error), an empty one
// (n = 0) gives 1, and NaN entries give NaN. The product may overflow or
// underflow for large n where [SlogDet] does not. The result is from e's
// pool.
func Det[T tf.Scalar](e tf.Engine, a *tf.Tensor[T]) (*tf.Tensor[T], error) {
	const name = "Det"
	if _, _, err := matrices(name, "a", a, true); err != nil {
		return nil, err
	}
	d, err := alloc[T](e, a.Shape()[2:])
	if err != nil {
		return nil, err
	}
	if err := runDet(e, name, d, a); err != nil {
		release(d)
		return nil, err
	}
	return d, nil
}

// DetInto sets dst (batch...) to det(A) (see [Det]). dst has distinct
// elements and does not overlap A. On error dst is untouched; with a warm
// engine it allocates nothing.
func DetInto[T tf.Scalar](e tf.Engine, dst, a *tf.Tensor[T]) error {
	const name = "DetInto"
	if _, _, err := matrices(name, "a", a, true); err != nil {
		return err
	}
	if err := checkDst(name, "dst", dst, a.Shape()[2:], spanOf("a", a)); err != nil {
		return err
	}
	return runDet(e, name, dst, a)
}

func runDet[T tf.Scalar](e tf.Engine, name string, d, a *tf.Tensor[T]) error {
	s, err := begin[T](e, name)
	if err != nil {
		return err
	}
	defer s.end()
	return lafail.Error(name, "a", a.Shape()[2:], s.k.Det(view(&s.ar.v[0], d), view(&s.ar.v[1], a)))
}

// SlogDet returns det(A) = sign·exp(logabs) for each matrix of A (n, n,
// batch...), as numpy.linalg.slogdet: sign (batch...) of A's type is ±1
// for real types and the phase det/|det| (modulus 1) for complex ones, and
// logabs (batch...) = log|det(A)| is real of A's precision, R =
// A.DType().Real() (float32 for float32 and complex64, float64 otherwise;
// another R fails with [tf.ErrDType]). A singular matrix gives sign 0 and
// logabs −Inf, an empty one sign 1 and logabs 0, NaN entries NaN in both.
// Call it as linalg.SlogDet[float64](e, a) for a float64 or complex128 A.
func SlogDet[R tf.Float, T tf.Scalar](e tf.Engine, a *tf.Tensor[T]) (sign *tf.Tensor[T], logabs *tf.Tensor[R], err error) {
	const name = "SlogDet"
	if err := slogdetCheck[R, T](name, a); err != nil {
		return nil, nil, err
	}
	return allocRun2(e, a.Shape()[2:], a.Shape()[2:], func(sign *tf.Tensor[T], logabs *tf.Tensor[R]) error { return runSlogDet(e, name, sign, logabs, a) })
}

// SlogDetInto sets sign and logabs (both (batch...)) as [SlogDet] returns
// them. They have distinct elements and overlap neither A nor each other.
// On error both are untouched; with a warm engine it allocates nothing.
func SlogDetInto[R tf.Float, T tf.Scalar](e tf.Engine, sign *tf.Tensor[T], logabs *tf.Tensor[R], a *tf.Tensor[T]) error {
	const name = "SlogDetInto"
	if err := slogdetCheck[R, T](name, a); err != nil {
		return err
	}
	if err := checkDst(name, "sign", sign, a.Shape()[2:], spanOf("a", a)); err != nil {
		return err
	}
	if err := checkDst(name, "logabs", logabs, a.Shape()[2:], spanOf("a", a), spanOf("sign", sign)); err != nil {
		return err
	}
	return runSlogDet(e, name, sign, logabs, a)
}

func slogdetCheck[R tf.Float, T tf.Scalar](name string, a *tf.Tensor[T]) error {
	if err := realOf[R, T](name, "logabs"); err != nil {
		return err
	}
	_, _, err := matrices(name, "a", a, true)
	return err
}

func runSlogDet[R tf.Float, T tf.Scalar](e tf.Engine, name string, sign *tf.Tensor[T], logabs *tf.Tensor[R], a *tf.Tensor[T]) error {
	s, err := begin[T](e, name)
	if err != nil {
		return err
	}
	defer s.end()
	return lafail.Error(name, "a", a.Shape()[2:], s.k.SlogDet(view(&s.ar.v[0], sign), realView(s.ar, logabs), view(&s.ar.v[1], a)))
}

// LUUnpack returns the permutation P (m, m, batch...), the unit lower
// triangular (trapezoidal) L (m, r, batch...) and the upper triangular
// (trapezoidal) U (r, n, batch...), r = min(m, n), of the packed
// factorization lu (m, n, batch...), piv (r, batch...) that [LU] returns,
// with A = P·L·U (torch.lu_unpack's convention; the P of LU's P·A = L·U is
// this P's transpose). A pivot outside [i, m) fails with
// [tf.ErrArgument]. The results are compact, from e's pool.
func LUUnpack[T tf.Scalar](e tf.Engine, lu *tf.Tensor[T], piv *tf.Tensor[int64]) (p, l, u *tf.Tensor[T], err error) {
	const name = "LUUnpack"
	var room [3][tf.MaxRank]int
	sh, err := unpackShape(name, lu, piv, &room)
	if err != nil {
		return nil, nil, nil, err
	}
	p, err = allocRun(e, sh.p, func(p *tf.Tensor[T]) error {
		var err error
		l, u, err = allocRun2(e, sh.l, sh.u, func(l, u *tf.Tensor[T]) error { return runUnpack(e, name, p, l, u, lu, piv) })
		return err
	})
	if err != nil {
		return nil, nil, nil, err
	}
	return p, l, u, nil
}

// LUUnpackInto sets p, l and u as [LUUnpack] returns them. They have
// distinct elements and overlap neither the inputs nor each other. On
// error they are untouched; with a warm engine it allocates nothing.
func LUUnpackInto[T tf.Scalar](e tf.Engine, p, l, u, lu *tf.Tensor[T], piv *tf.Tensor[int64]) error {
	const name = "LUUnpackInto"
	var room [3][tf.MaxRank]int
	sh, err := unpackShape(name, lu, piv, &room)
	if err != nil {
		return err
	}
	in, pv := spanOf("lu", lu), spanOf("piv", piv)
	if err := checkDst(name, "p", p, sh.p, in, pv); err != nil {
		return err
	}
	if err := checkDst(name, "l", l, sh.l, in, pv, spanOf("p", p)); err != nil {
		return err
	}
	if err := checkDst(name, "u", u, sh.u, in, pv, spanOf("p", p), spanOf("l", l)); err != nil {
		return err
	}
	return runUnpack(e, name, p, l, u, lu, piv)
}

// unpackShapes holds the shapes of LUUnpack's results.
type unpackShapes struct{ p, l, u []int }

// unpackShape validates lu and piv and returns the results' shapes, built
// in room.
func unpackShape[T tf.Scalar](name string, lu *tf.Tensor[T], piv *tf.Tensor[int64], room *[3][tf.MaxRank]int) (unpackShapes, error) {
	var s unpackShapes
	m, n, err := matrices(name, "lu", lu, false)
	if err != nil {
		return s, err
	}
	if err := live(name, "piv", piv); err != nil {
		return s, err
	}
	batch := lu.Shape()[2:]
	r := min(m, n)
	want := append(append(room[0][:0], r), batch...)
	if !slices.Equal(piv.Shape(), want) {
		return s, tf.Errorf(tf.ErrShape, name, "piv", "shape "+op.FmtInts(want)+" (min(m, n), batch...)", "shape %s", op.FmtInts(piv.Shape()))
	}
	s.p = append(append(room[0][:0], m, m), batch...)
	s.l = append(append(room[1][:0], m, r), batch...)
	s.u = append(append(room[2][:0], r, n), batch...)
	return s, nil
}

func runUnpack[T tf.Scalar](e tf.Engine, name string, p, l, u, lu *tf.Tensor[T], piv *tf.Tensor[int64]) error {
	s, err := begin[T](e, name)
	if err != nil {
		return err
	}
	defer s.end()
	err = s.k.LUUnpack(view(&s.ar.v[0], p), view(&s.ar.v[1], l), view(&s.ar.v[2], u), view(&s.ar.v[3], lu), view(&s.ar.piv, piv))
	if err != nil {
		return rename(name, err)
	}
	return nil
}

// rename returns the engine's error err under operation name.
func rename(name string, err error) error {
	var te *tf.Error
	if errors.As(err, &te) {
		c := *te
		c.Op = name
		return &c
	}
	return tf.WrapError(name, "", err)
}
