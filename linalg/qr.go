package linalg

import (
	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/internal/lafail"
)

// QR returns the QR factorization A = Q·R of A (m, n, batch...) by
// Householder reflections, with k = min(m, n):
//
//	reduced (default):  Q (m, k, batch...) with orthonormal columns,
//	                    R (k, n, batch...) upper triangular (trapezoidal)
//	[Complete]:         Q (m, m, batch...) unitary, R (m, n, batch...)
//
// as numpy.linalg.qr's modes "reduced" and "complete". With
// [PositiveDiagonal] R's diagonal is real and non-negative (Q's columns
// scaled to match), which makes the factorization unique for A of full
// column rank; otherwise the signs are LAPACK's (R[j, j] real, of either
// sign). A may be any view; the results are compact, from e's pool. A NaN
// or Inf in A fails with [tf.ErrArgument] before anything is computed.
// Empty matrices give empty factors (and for Complete the identity Q).
func QR[T tf.Scalar](e tf.Engine, a *tf.Tensor[T], opts ...Option) (q, r *tf.Tensor[T], err error) {
	return factorPair(e, "QR", a, false, opts)
}

// QRInto sets q and r to the factors of [QR], their shapes choosing the
// mode (reduced or complete; one option [PositiveDiagonal] is taken). q
// may be nil, in which case only R is computed (numpy's mode "r"). The
// destinations have distinct elements and overlap neither A nor each
// other; on error they are untouched; with a warm engine it allocates
// nothing.
func QRInto[T tf.Scalar](e tf.Engine, q, r, a *tf.Tensor[T], opts ...Option) error {
	return factorPairInto(e, "QRInto", q, r, nil, a, false, opts)
}

// LQ returns the LQ factorization A = L·Q of A (m, n, batch...), the
// conjugate transpose of the QR factorization of Aᴴ, with k = min(m, n):
//
//	reduced (default):  L (m, k, batch...) lower triangular (trapezoidal),
//	                    Q (k, n, batch...) with orthonormal rows
//	[Complete]:         L (m, n, batch...), Q (n, n, batch...) unitary
//
// [PositiveDiagonal] makes L's diagonal real and non-negative. Otherwise
// as [QR].
func LQ[T tf.Scalar](e tf.Engine, a *tf.Tensor[T], opts ...Option) (l, q *tf.Tensor[T], err error) {
	return factorPair(e, "LQ", a, true, opts)
}

// LQInto sets l and q to the factors of [LQ], their shapes choosing the
// mode; q may be nil (only L is computed). Otherwise as [QRInto].
func LQInto[T tf.Scalar](e tf.Engine, l, q, a *tf.Tensor[T], opts ...Option) error {
	return factorPairInto(e, "LQInto", l, q, nil, a, true, opts)
}

// QRPivoted returns the QR factorization with column pivoting
// A[:, perm] = Q·R of A (m, n, batch...), as scipy.linalg.qr with
// pivoting=True: perm (n, batch...) is a permutation of 0..n−1 (column j
// of A[:, perm] is column perm[j] of A) chosen so that |R[j, j]| does not
// increase, which reveals the numerical rank (the number of |R[j, j]|
// above a tolerance). Q and R are reduced, or complete with [Complete];
// [PositiveDiagonal] is taken. The factorization is unblocked (it costs
// about twice [QR]'s time at large n). Otherwise as [QR].
func QRPivoted[T tf.Scalar](e tf.Engine, a *tf.Tensor[T], opts ...Option) (q, r *tf.Tensor[T], perm *tf.Tensor[int64], err error) {
	const name = "QRPivoted"
	f, err := flags(name, Complete|PositiveDiagonal, opts)
	if err != nil {
		return nil, nil, nil, err
	}
	var b1, b2, b3 [tf.MaxRank]int
	s1, s2, err := pairShape(name, a, false, f&Complete != 0, b1[:0], b2[:0])
	if err != nil {
		return nil, nil, nil, err
	}
	ps := append(append(b3[:0], a.Shape()[1]), a.Shape()[2:]...)
	if perm, err = alloc[int64](e, ps); err != nil {
		return nil, nil, nil, err
	}
	q, r, err = allocRun2(e, s1, s2, func(x, y *tf.Tensor[T]) error { return runPair(e, name, x, y, perm, a, false, f) })
	if err != nil {
		release(perm)
		return nil, nil, nil, err
	}
	return q, r, perm, nil
}

// QRPivotedInto sets q, r and perm to the factors of [QRPivoted], the
// shape of r choosing the mode; q may be nil (R and the permutation
// alone). The destinations have distinct elements and overlap neither A
// nor each other; on error they are untouched; with a warm engine it
// allocates nothing.
func QRPivotedInto[T tf.Scalar](e tf.Engine, q, r *tf.Tensor[T], perm *tf.Tensor[int64], a *tf.Tensor[T], opts ...Option) error {
	const name = "QRPivotedInto"
	if perm == nil {
		return tf.Errorf(tf.ErrArgument, name, "perm", "a tensor", "nil")
	}
	return factorPairInto(e, name, q, r, perm, a, false, opts)
}

// pairShape validates a and returns the shapes of the two factors of QR
// (q, r) or LQ (l, q) for the mode, appended to b1 and b2.
func pairShape[T tf.Scalar](name string, a *tf.Tensor[T], lq, complete bool, b1, b2 []int) (first, second []int, err error) {
	m, n, err := matrices(name, "a", a, false)
	if err != nil {
		return nil, nil, err
	}
	k := min(m, n)
	f, s := [2]int{m, k}, [2]int{k, n}
	switch {
	case complete && !lq:
		f, s = [2]int{m, m}, [2]int{m, n}
	case complete:
		f, s = [2]int{m, n}, [2]int{n, n}
	}
	b := a.Shape()[2:]
	return append(append(b1, f[:]...), b...), append(append(b2, s[:]...), b...), nil
}

func factorPair[T tf.Scalar](e tf.Engine, name string, a *tf.Tensor[T], lq bool, opts []Option) (*tf.Tensor[T], *tf.Tensor[T], error) {
	f, err := flags(name, Complete|PositiveDiagonal, opts)
	if err != nil {
		return nil, nil, err
	}
	var b1, b2 [tf.MaxRank]int
	s1, s2, err := pairShape(name, a, lq, f&Complete != 0, b1[:0], b2[:0])
	if err != nil {
		return nil, nil, err
	}
	return allocRun2(e, s1, s2, func(x, y *tf.Tensor[T]) error { return runPair(e, name, x, y, nil, a, lq, f) })
}

func factorPairInto[T tf.Scalar](e tf.Engine, name string, x, y *tf.Tensor[T], perm *tf.Tensor[int64], a *tf.Tensor[T], lq bool, opts []Option) error {
	f, err := flags(name, PositiveDiagonal, opts)
	if err != nil {
		return err
	}
	// The unitary factor may be omitted: it is x for QR and y for LQ.
	args, qarg := [2]string{"q", "r"}, 0
	if lq {
		args, qarg = [2]string{"l", "q"}, 1
	}
	fac := [2]*tf.Tensor[T]{x, y}
	if fac[1-qarg] == nil {
		return tf.Errorf(tf.ErrArgument, name, args[1-qarg], "a tensor", "nil")
	}
	// The mode follows from the triangular factor's shape.
	m, n, err := matrices(name, "a", a, false)
	if err != nil {
		return err
	}
	tri := fac[1-qarg].Shape()
	complete := len(tri) >= 2 && (lq && tri[1] == n || !lq && tri[0] == m) && m != n
	var b1, b2 [tf.MaxRank]int
	s1, s2, err := pairShape(name, a, lq, complete, b1[:0], b2[:0])
	if err != nil {
		return err
	}
	want := [2][]int{s1, s2}
	var room [3]span
	ins := append(room[:0], spanOf("a", a))
	for i, t := range fac {
		if t == nil {
			continue
		}
		if err := checkDst(name, args[i], t, want[i], ins...); err != nil {
			return err
		}
		ins = append(ins, spanOf(args[i], t))
	}
	if perm != nil {
		var b3 [tf.MaxRank]int
		if err := checkDst(name, "perm", perm, append(append(b3[:0], n), a.Shape()[2:]...), ins...); err != nil {
			return err
		}
	}
	return runPair(e, name, x, y, perm, a, lq, f)
}

func runPair[T tf.Scalar](e tf.Engine, name string, x, y *tf.Tensor[T], perm *tf.Tensor[int64], a *tf.Tensor[T], lq bool, f Option) error {
	s, err := begin[T](e, name)
	if err != nil {
		return err
	}
	defer s.end()
	var xv, yv *backend.View[T]
	if x != nil {
		xv = view(&s.ar.v[0], x)
	}
	if y != nil {
		yv = view(&s.ar.v[1], y)
	}
	av, pos := view(&s.ar.v[2], a), f&PositiveDiagonal != 0
	switch {
	case lq:
		err = s.k.LQ(xv, yv, av, pos)
	case perm != nil:
		err = s.k.QR(xv, yv, view(&s.ar.piv, perm), av, pos)
	default:
		err = s.k.QR(xv, yv, nil, av, pos)
	}
	return lafail.Error(name, "a", a.Shape()[2:], err)
}
