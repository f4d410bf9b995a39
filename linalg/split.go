package linalg

import (
	"errors"
	"strconv"

	tf "github.com/tenferro-go/tenferro"
)

// TruncatedSVD returns the truncated singular value decomposition of the
// matrix A (m, n): the thin [SVD] with only the leading Rank singular
// triplets that tr keeps (see [Truncation]), U (m, Rank), S (Rank),
// Vᴴ (Rank, n), and what was kept and discarded. U·diag(S)·Vᴴ is then the
// best rank-Rank approximation of A, with ‖A − U·diag(S)·Vᴴ‖²_F =
// info.Discarded. The results are compact, from e's pool. Batches are not
// taken (each item would keep its own rank): A has rank 2.
func TruncatedSVD[R tf.Float, T tf.Scalar](e tf.Engine, a *tf.Tensor[T], tr Truncation) (u *tf.Tensor[T], s *tf.Tensor[R], vh *tf.Tensor[T], info TruncationInfo, err error) {
	const name = "TruncatedSVD"
	if err := live(name, "a", a); err != nil {
		return nil, nil, nil, info, err
	}
	if a.Rank() != 2 {
		return nil, nil, nil, info, tf.Errorf(tf.ErrShape, name, "a", "a matrix (rank 2)", "rank %d", a.Rank())
	}
	if err := tr.check(name); err != nil {
		return nil, nil, nil, info, err
	}
	if u, s, vh, err = SVD[R](e, a); err != nil {
		return nil, nil, nil, info, rename(name, err)
	}
	sv, _ := s.Data()
	k := len(sv)
	info = tr.truncate(k, func(i int) float64 { return float64(sv[i]) }, tf.DTypeOf[R]() == tf.Float32)
	if info.Rank == k {
		return u, s, vh, info, nil
	}
	u2, s2, vh2, err := keep(e, u, s, vh, info.Rank)
	release(u, vh)
	release(s)
	if err != nil {
		return nil, nil, nil, TruncationInfo{}, rename(name, err)
	}
	return u2, s2, vh2, info, nil
}

// check validates the fields of t.
func (t Truncation) check(name string) error {
	switch {
	case t.MaxRank < 0:
		return tf.Errorf(tf.ErrArgument, name, "tr.MaxRank", "a rank ≥ 0 (0: no limit)", "%d", t.MaxRank)
	case t.MinRank < 0:
		return tf.Errorf(tf.ErrArgument, name, "tr.MinRank", "a rank ≥ 0", "%d", t.MinRank)
	case !(t.Cutoff >= 0), !(t.RelCutoff >= 0), !(t.DiscardedWeight >= 0):
		return tf.Errorf(tf.ErrArgument, name, "tr", "cutoffs ≥ 0", "Cutoff %g, RelCutoff %g, DiscardedWeight %g", t.Cutoff, t.RelCutoff, t.DiscardedWeight)
	case t.Degeneracy != t.Degeneracy:
		return tf.Errorf(tf.ErrArgument, name, "tr.Degeneracy", "a number", "NaN")
	}
	return nil
}

// keep returns compact copies of the leading r columns of u, values of s
// and rows of vh.
func keep[R tf.Float, T tf.Scalar](e tf.Engine, u *tf.Tensor[T], s *tf.Tensor[R], vh *tf.Tensor[T], r int) (*tf.Tensor[T], *tf.Tensor[R], *tf.Tensor[T], error) {
	uv, err := u.Slice(1, 0, r, 1)
	if err != nil {
		return nil, nil, nil, err
	}
	sv, err := s.Slice(0, 0, r, 1)
	if err != nil {
		return nil, nil, nil, err
	}
	vv, err := vh.Slice(0, 0, r, 1)
	if err != nil {
		return nil, nil, nil, err
	}
	s2, err := tf.Copy(e, sv)
	if err != nil {
		return nil, nil, nil, err
	}
	u2, vh2, err := allocRun2(e, uv.Shape(), vv.Shape(), func(u2, vh2 *tf.Tensor[T]) error {
		if err := tf.CopyInto(e, u2, uv); err != nil {
			return err
		}
		return tf.CopyInto(e, vh2, vv)
	})
	if err != nil {
		release(s2)
		return nil, nil, nil, err
	}
	return u2, s2, vh2, nil
}

// SVDSplit factors the tensor t across the bipartition of its axes into
// left (in the given order) and the others (in their order): t, read as
// the matrix A whose rows run over the left axes and columns over the
// rest (column-major, the first axis fastest), is decomposed by
// [TruncatedSVD] with tr, and the factors get t's axes back:
//
//	U  (left extents..., r)      S (r)      Vᴴ (r, right extents...)
//
// with the new bond axis of extent r = info.Rank last in U and first in
// Vᴴ, so that t ≈ Σ_b U[..., b]·S[b]·Vᴴ[b, ...] (exactly when nothing is
// truncated). It is the tensor-network primitive (ITensors' svd(T, inds)):
// no reshaping or permuting by hand. The results are compact, from e's
// pool; t may be any view (it is copied when its permuted axes cannot be
// viewed as a matrix).
func SVDSplit[R tf.Float, T tf.Scalar](e tf.Engine, t *tf.Tensor[T], left []int, tr Truncation) (u *tf.Tensor[T], s *tf.Tensor[R], vh *tf.Tensor[T], info TruncationInfo, err error) {
	const name = "SVDSplit"
	var sp splitter[T]
	if err := sp.init(e, name, t, left); err != nil {
		return nil, nil, nil, info, err
	}
	defer sp.done()
	u, s, vh, info, err = TruncatedSVD[R](e, sp.mat, tr)
	if err != nil {
		return nil, nil, nil, info, rename(name, err)
	}
	if u, vh, err = sp.axes(u, vh); err != nil {
		release(s)
		return nil, nil, nil, TruncationInfo{}, err
	}
	return u, s, vh, info, nil
}

// QRSplit factors the tensor t across the bipartition of its axes into
// left and the rest, as [SVDSplit] does, by the reduced [QR] of the
// matrix: Q (left extents..., r) with orthonormal columns over the left
// axes and R (r, right extents...), r = min(rows, cols). The option
// [PositiveDiagonal] is taken. Canonicalizing a matrix product state is a
// sweep of these.
func QRSplit[T tf.Scalar](e tf.Engine, t *tf.Tensor[T], left []int, opts ...Option) (q, r *tf.Tensor[T], err error) {
	return splitPair(e, "QRSplit", t, left, false, opts)
}

// LQSplit is [QRSplit] by the reduced [LQ]: L (left extents..., r) and Q
// (r, right extents...) with orthonormal rows over the right axes.
func LQSplit[T tf.Scalar](e tf.Engine, t *tf.Tensor[T], left []int, opts ...Option) (l, q *tf.Tensor[T], err error) {
	return splitPair(e, "LQSplit", t, left, true, opts)
}

func splitPair[T tf.Scalar](e tf.Engine, name string, t *tf.Tensor[T], left []int, lq bool, opts []Option) (*tf.Tensor[T], *tf.Tensor[T], error) {
	if _, err := flags(name, PositiveDiagonal, opts); err != nil {
		return nil, nil, err
	}
	var sp splitter[T]
	if err := sp.init(e, name, t, left); err != nil {
		return nil, nil, err
	}
	defer sp.done()
	x, y, err := factorPair(e, name, sp.mat, lq, opts)
	if err != nil {
		return nil, nil, err
	}
	return sp.axes(x, y)
}

// splitter is t viewed (or copied) as the matrix of a bipartition of its
// axes.
type splitter[T tf.Scalar] struct {
	name        string
	mat         *tf.Tensor[T]
	copied      bool
	left, right []int // the extents of the two groups
	room        [2][tf.MaxRank]int
}

func (sp *splitter[T]) init(e tf.Engine, name string, t *tf.Tensor[T], left []int) error {
	sp.name = name
	if err := live(name, "t", t); err != nil {
		return err
	}
	shape := t.Shape()
	var seen [tf.MaxRank]bool
	var perm [tf.MaxRank]int
	sp.left, sp.right = sp.room[0][:0], sp.room[1][:0]
	rows, cols := 1, 1
	for i, d := range left {
		if d < 0 || d >= len(shape) || seen[d] {
			return tf.Errorf(tf.ErrArgument, name, "left", "distinct axes of t (rank "+strconv.Itoa(len(shape))+")", "axis %d at position %d", d, i)
		}
		seen[d], perm[i] = true, d
		sp.left = append(sp.left, shape[d])
		rows *= shape[d]
	}
	np := len(left)
	for d := range shape {
		if !seen[d] {
			perm[np] = d
			np++
			sp.right = append(sp.right, shape[d])
			cols *= shape[d]
		}
	}
	p, err := t.Permute(perm[:len(shape)]...)
	if err != nil {
		return rename(name, err)
	}
	if sp.mat, err = p.Reshape(rows, cols); err != nil {
		if !errors.Is(err, tf.ErrLayout) {
			return rename(name, err)
		}
		if sp.mat, err = tf.ReshapeCopy(e, p, rows, cols); err != nil {
			return rename(name, err)
		}
		sp.copied = true
	}
	return nil
}

// axes reshapes the factors x (rows, r) and y (r, cols) to (left..., r)
// and (r, right...); on error both are released.
func (sp *splitter[T]) axes(x, y *tf.Tensor[T]) (*tf.Tensor[T], *tf.Tensor[T], error) {
	r := x.Shape()[1]
	var b1, b2 [tf.MaxRank + 1]int
	xs := append(append(b1[:0], sp.left...), r)
	ys := append(append(b2[:0], r), sp.right...)
	x2, err := x.Reshape(xs...)
	if err == nil {
		var y2 *tf.Tensor[T]
		if y2, err = y.Reshape(ys...); err == nil {
			return x2, y2, nil
		}
	}
	release(x, y)
	return nil, nil, rename(sp.name, err)
}

func (sp *splitter[T]) done() {
	if sp.copied {
		release(sp.mat)
	}
}
