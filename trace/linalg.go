package trace

import (
	"fmt"
	"slices"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/internal/op"
)

// The linear-algebra operations: each records the operation of the same
// name in package linalg on matrices that are the first two axes of their
// operands, batch axes after them (every operand with the same batch
// extents; a trace does not broadcast batches or take vector right-hand
// sides: Unsqueeze a vector into an (n, 1) matrix). A decomposition
// records one node per factor; a compiled program computes the factors of
// one matrix in one step, and package ad differentiates every one of them.

func flag(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Cholesky records linalg.Cholesky: L with a = L·Lᴴ, reading a's lower
// triangle (U with a = Uᴴ·U, reading its upper triangle, when upper).
func (t *Trace) Cholesky(a Var, upper bool) (Var, error) {
	return t.record(op.Cholesky, op.Attrs{Ints: []int{flag(upper)}}, a)
}

// Solve records linalg.Solve: X with A·X = B for square A (n, n,
// batch...) and B (n, k, batch...).
func (t *Trace) Solve(a, b Var) (Var, error) { return t.record(op.Solve, op.Attrs{}, a, b) }

// SolveTriangular records linalg.SolveTriangular: X with A·X = B (X·A =
// B unless left), reading A's upper (or lower) triangle, its diagonal
// taken as ones when unit.
func (t *Trace) SolveTriangular(a, b Var, upper, left, unit bool) (Var, error) {
	return t.record(op.SolveTriangular, op.Attrs{Ints: []int{flag(upper), flag(left), flag(unit)}}, a, b)
}

// Inv records linalg.Inv: the inverse of every matrix of a.
func (t *Trace) Inv(a Var) (Var, error) { return t.record(op.Inv, op.Attrs{}, a) }

// Det records linalg.Det: the determinant of every matrix of a, of shape
// (batch...).
func (t *Trace) Det(a Var) (Var, error) { return t.record(op.Det, op.Attrs{}, a) }

// SlogDet records linalg.SlogDet: the sign (a unit complex number for
// complex a) and the real log|det| of every matrix of a.
func (t *Trace) SlogDet(a Var) (sign, logabs Var, err error) {
	if sign, err = t.record(op.SlogDetSign, op.Attrs{}, a); err != nil {
		return Var{}, Var{}, err
	}
	logabs, err = t.record(op.SlogDetLogAbs, op.Attrs{}, a)
	return sign, logabs, err
}

// Expm records linalg.Expm: the matrix exponential of every matrix of a.
func (t *Trace) Expm(a Var) (Var, error) { return t.record(op.Expm, op.Attrs{}, a) }

// Eigh records linalg.Eigh: the eigenvalues w (n, batch...), real and
// ascending, and the eigenvectors v (columns) of every Hermitian matrix of
// a, reading its lower triangle (upper when upper).
func (t *Trace) Eigh(a Var, upper bool) (w, v Var, err error) {
	at := op.Attrs{Ints: []int{flag(upper)}}
	if w, err = t.record(op.EighValues, at, a); err != nil {
		return Var{}, Var{}, err
	}
	v, err = t.record(op.EighVectors, at, a)
	return w, v, err
}

// Eigvalsh records linalg.Eigvalsh: the eigenvalues of Eigh alone.
func (t *Trace) Eigvalsh(a Var, upper bool) (Var, error) {
	return t.record(op.EighValues, op.Attrs{Ints: []int{flag(upper)}}, a)
}

// SVD records the thin linalg.SVD: a = u·diag(s)·vh with u (m, k,
// batch...), s (k, batch...) real and descending, vh (k, n, batch...), k
// = min(m, n).
func (t *Trace) SVD(a Var) (u, s, vh Var, err error) {
	if u, err = t.record(op.SVDU, op.Attrs{}, a); err != nil {
		return Var{}, Var{}, Var{}, err
	}
	if s, err = t.record(op.SVDS, op.Attrs{}, a); err != nil {
		return Var{}, Var{}, Var{}, err
	}
	vh, err = t.record(op.SVDVh, op.Attrs{}, a)
	return u, s, vh, err
}

// SVDVals records linalg.SVDVals: the singular values alone.
func (t *Trace) SVDVals(a Var) (Var, error) { return t.record(op.SVDS, op.Attrs{}, a) }

// QR records the reduced linalg.QR: a = q·r with q (m, k, batch...)
// having orthonormal columns and r (k, n, batch...) upper triangular, k =
// min(m, n); diag(r) real (and non-negative when positive).
func (t *Trace) QR(a Var, positive bool) (q, r Var, err error) {
	at := op.Attrs{Ints: []int{flag(positive)}}
	if q, err = t.record(op.QRQ, at, a); err != nil {
		return Var{}, Var{}, err
	}
	r, err = t.record(op.QRR, at, a)
	return q, r, err
}

// LQ records the reduced linalg.LQ: a = l·q with l (m, k, batch...) lower
// triangular and q (k, n, batch...) having orthonormal rows, recorded as
// the QR decomposition of aᴴ.
func (t *Trace) LQ(a Var, positive bool) (l, q Var, err error) {
	const name = "LQ"
	if err := t.check(name, "a", a); err != nil {
		return Var{}, Var{}, err
	}
	if a.Rank() < 2 {
		return Var{}, Var{}, tf.Errorf(tf.ErrShape, name, "a", "matrices (m, n, batch...), rank >= 2", "rank %d", a.Rank())
	}
	ah, err := t.adjoint(a)
	if err != nil {
		return Var{}, Var{}, err
	}
	qh, rh, err := t.QR(ah, positive)
	if err != nil {
		return Var{}, Var{}, err
	}
	if l, err = t.adjoint(rh); err != nil {
		return Var{}, Var{}, err
	}
	q, err = t.adjoint(qh)
	return l, q, err
}

// adjoint records the conjugate transpose of every matrix of a.
func (t *Trace) adjoint(a Var) (Var, error) {
	perm := make([]int, a.Rank())
	for d := range perm {
		perm[d] = d
	}
	perm[0], perm[1] = 1, 0
	x, err := t.Permute(a, perm...)
	if err != nil || !a.dt.IsComplex() {
		return x, err
	}
	return t.Conj(x)
}

// Pinv records linalg.Pinv: the pseudo-inverse (n, m, batch...) of every
// matrix of a, singular values at most rcond·s_max treated as zero (rcond
// < 0: machine precision, as linalg.Pinv).
func (t *Trace) Pinv(a Var, rcond float64) (Var, error) {
	return t.record(op.Pinv, op.Attrs{Alpha: complex(rcond, 0)}, a)
}

// Lstsq records the solution of linalg.Lstsq: X (n, k, batch...), of
// least norm among the minimizers of ‖A·X − B‖ for every matrix of a (m,
// n, batch...) and b (m, k, batch...), singular values of A at most
// rcond·σ₀ treated as zero (rcond < 0: machine precision, NumPy's
// default). It records Pinv(a, rcond)·b, so package ad differentiates it
// wherever the rank of A is constant; the rank and the singular values
// are one SVDVals away.
func (t *Trace) Lstsq(a, b Var, rcond float64) (Var, error) {
	const name = "Lstsq"
	if err := t.check(name, "a", a); err != nil {
		return Var{}, err
	}
	if err := t.check(name, "b", b); err != nil {
		return Var{}, err
	}
	if a.dt != b.dt {
		return Var{}, tf.Errorf(tf.ErrDType, name, "b", "a's dtype "+a.dt.String(), "%v", b.dt)
	}
	if len(a.shape) < 2 {
		return Var{}, tf.Errorf(tf.ErrShape, name, "a", "matrices (m, n, batch...)", "shape %v", a.shape)
	}
	if len(b.shape) != len(a.shape) || b.shape[0] != a.shape[0] || !slices.Equal(b.shape[2:], a.shape[2:]) {
		return Var{}, tf.Errorf(tf.ErrShape, name, "b", fmt.Sprintf("(%d, k%s) for a %v", a.shape[0], batchSuffix(a.shape[2:]), a.shape),
			"shape %v", b.shape)
	}
	p, err := t.Pinv(a, rcond)
	if err != nil {
		return Var{}, err
	}
	return t.Matmul(p, b)
}

// MatrixNorm records linalg.MatrixNorm: the norm ord of every matrix of a
// (m, n, batch...), real, of shape (batch...), as numpy.linalg.norm(A,
// ord, axis=(0, 1)). It records the operations that define each norm, so
// package ad differentiates it through theirs: the Frobenius norm as
// Norm(a, 2, 0, 1); the nuclear and 2-norms as the sum, largest and
// smallest of SVDVals(a); the 1- and ∞-norms as the largest (smallest for
// the negative orders) column or row sum of Abs(a), with Max's and Min's
// subgradient at ties. An empty matrix has norm 0, a constant.
func (t *Trace) MatrixNorm(a Var, ord backend.NormOrd) (Var, error) {
	const name = "MatrixNorm"
	if err := t.check(name, "a", a); err != nil {
		return Var{}, err
	}
	if len(a.shape) < 2 {
		return Var{}, tf.Errorf(tf.ErrShape, name, "a", "matrices (m, n, batch...)", "shape %v", a.shape)
	}
	if ord < backend.NormFro || ord > backend.NormNegInf {
		return Var{}, tf.Errorf(tf.ErrArgument, name, "ord", "a norm order (NormFro ... NormNegInf)", "%d", int(ord))
	}
	switch a.dt {
	case tf.Float32, tf.Float64, tf.Complex64, tf.Complex128:
	default:
		return Var{}, tf.Errorf(tf.ErrDType, name, "a", "a floating or complex dtype", "%v", a.dt)
	}
	if a.shape[0] == 0 || a.shape[1] == 0 {
		return t.Full(a.dt.Real(), 0, a.shape[2:]...)
	}
	extreme := func(v Var, largest bool) (Var, error) {
		if largest {
			return t.Max(v, 0)
		}
		return t.Min(v, 0)
	}
	switch ord {
	case backend.NormFro:
		return t.Norm(a, 2, 0, 1)
	case backend.NormNuclear, backend.NormTwo, backend.NormNegTwo:
		s, err := t.SVDVals(a)
		if err != nil {
			return Var{}, err
		}
		if ord == backend.NormNuclear {
			return t.Sum(s, 0)
		}
		return extreme(s, ord == backend.NormTwo)
	}
	abs, err := t.Abs(a)
	if err != nil {
		return Var{}, err
	}
	axis := 0 // column sums for the 1-norms
	if ord == backend.NormInf || ord == backend.NormNegInf {
		axis = 1
	}
	sums, err := t.Sum(abs, axis)
	if err != nil {
		return Var{}, err
	}
	return extreme(sums, ord == backend.NormOne || ord == backend.NormInf)
}

// batchSuffix writes batch extents as they follow the matrix axes in a
// shape: ", 2, 3".
func batchSuffix(batch []int) string {
	s := ""
	for _, d := range batch {
		s += fmt.Sprintf(", %d", d)
	}
	return s
}

// TruncatedSVD records the rank-k truncation of the thin SVD of a: the
// first k columns of u, values of s and rows of vh (0 <= k <= min(m, n)).
// It is exactly SVD followed by slices, so its derivative (package ad)
// includes the coupling of the kept singular vectors to the discarded
// ones, not only to each other.
func (t *Trace) TruncatedSVD(a Var, k int) (u, s, vh Var, err error) {
	const name = "TruncatedSVD"
	if u, s, vh, err = t.SVD(a); err != nil {
		return Var{}, Var{}, Var{}, err
	}
	if r := s.shape[0]; k < 0 || k > r {
		return Var{}, Var{}, Var{}, tf.Errorf(tf.ErrArgument, name, "k", fmt.Sprintf("a rank in [0, %d]", r), "%d", k)
	}
	cut := func(x Var, axis int) (Var, error) {
		return t.record(op.Split, op.Attrs{Axes: []int{axis}, Ints: []int{0, k}}, x)
	}
	if u, err = cut(u, 1); err != nil {
		return Var{}, Var{}, Var{}, err
	}
	if s, err = cut(s, 0); err != nil {
		return Var{}, Var{}, Var{}, err
	}
	vh, err = cut(vh, 0)
	return u, s, vh, err
}
