package linalg

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
	"github.com/tenferro-go/tenferro/internal/kernel/lapack"
)

// ErrNoConvergence: an iterative solver ([Eigsh], [ExpmV], and the
// eigenvalue and singular value iterations of [Eigh] and [SVD]) reached
// its bound on restarts, matrix-vector products, steps or sweeps before
// meeting its tolerance. It is tenferro.ErrNoConvergence, the Kind of the
// *tenferro.Error returned, so errors.Is matches it. [Eigsh] returns the
// pairs computed so far with it (Converged false); [ExpmV] returns its
// ExpmVInfo, and ExpmVInto leaves the destination untouched.
var ErrNoConvergence = tf.ErrNoConvergence

// Operator is a linear map given by its action: apply sets dst = A·x
// (overwriting dst, whose previous contents are arbitrary), where dst and
// x have the shape of the solver's start vector and are compact tensors
// owned by the solver (dst never overlaps x). apply must not keep or
// modify x, and may run any engine operation (the solver holds no claim on
// the engine while apply runs). The operator itself is never formed: it
// may be an einsum network over a tensor-shaped vector, a prepared program
// or a sparse loop.
type Operator[T tf.Scalar] func(dst, x *tf.Tensor[T]) error

// Which selects the eigenvalues [Eigsh] computes.
type Which int8

const (
	// Smallest selects the algebraically smallest eigenvalues (the ground
	// state of a Hamiltonian).
	Smallest Which = iota
	// Largest selects the algebraically largest eigenvalues.
	Largest
	// LargestMagnitude selects the eigenvalues of largest |λ|.
	LargestMagnitude
)

// EigshOptions configure [Eigsh]. The zero value asks for the smallest
// eigenpair with the default tolerance and bounds.
type EigshOptions struct {
	// K is the number of eigenpairs (default 1). K above the dimension N
	// of the space is clamped to N.
	K int
	// Which selects the end of the spectrum (default Smallest).
	Which Which
	// MaxDim is the largest dimension of the Krylov subspace, m (default
	// max(20, 2K+1), clamped to N). It must exceed K unless it reaches N.
	MaxDim int
	// Tol bounds the residual norm ‖A·v − λ·v‖₂ of each returned pair
	// (unit v). 0 selects 1e-10·‖A‖ for float64 and complex128 and
	// 1e-5·‖A‖ for float32 and complex64, with ‖A‖ estimated from the
	// matrix-vector products seen.
	Tol float64
	// MaxRestarts bounds the thick restarts (default 1000); reaching it
	// returns the current approximations with an ErrNoConvergence error.
	MaxRestarts int
	// Deflate, after the K pairs have converged, locks them and searches
	// on from a random vector orthogonal to them, until a search finds no
	// eigenvalue beyond the K-th: this finds further copies of degenerate
	// eigenvalues and eigenvalues whose eigenvectors x0 has no component
	// along, at the price of at least one more restart cycle. Without it
	// the iteration, started from the single vector x0, sees only one
	// vector of each eigenspace (in exact arithmetic; rounding brings the
	// others in slowly), so the K pairs may skip copies of a multiple
	// eigenvalue.
	Deflate bool
	// Seed seeds the random vectors drawn when x0 is zero, after an
	// invariant subspace, and for Deflate (default 0: a fixed seed).
	Seed uint64
}

// EigshResult holds the pairs [Eigsh] found, in the order Which selects
// them (ascending for Smallest, descending for Largest and by descending
// |λ| for LargestMagnitude).
type EigshResult[T tf.Scalar] struct {
	// Values are the eigenvalues, real and float64 for every T.
	Values []float64
	// Vectors are the unit eigenvectors, of x0's shape and compact.
	Vectors []*tf.Tensor[T]
	// Residuals are the residual norms ‖A·v − λ·v‖₂ as the iteration
	// estimates them (|β·yₘ| from the projected problem), ≤ Tol when
	// Converged.
	Residuals []float64
	// Matvecs counts the calls of apply; Restarts the thick restarts.
	Matvecs, Restarts int
	// Converged reports that every pair meets Tol.
	Converged bool
}

// Lanczos is the reusable state of the Hermitian Krylov eigensolver: the
// Krylov basis and the projected problem, grown on demand and kept across
// calls. A warm Lanczos solving for vectors of the shape of the previous
// call, with a subspace dimension no larger than any before, into the same
// EigshResult, allocates nothing (apply's own allocations aside), which
// suits the repeated local solves of a DMRG sweep; a new shape rebuilds
// the basis tensors' headers (and grows the basis storage only when it is
// too small). The zero value is ready to use; not safe for concurrent use.
type Lanczos[T tf.Scalar] struct {
	n, m  int
	shape []int
	buf   []T // the basis, m+1 compact columns of n elements
	vecs  []*tf.Tensor[T]
	h, z  []float64 // m×m projected matrix and its eigenvectors
	theta []float64
	err   []float64 // bounds on the columns' departure from the Krylov relation (locking)
	err2  []float64
	idx   []int
	c     []complex128
	y     []T // the m×m Ritz coefficients in T
	tmp   []T // row block of the basis update
	ws    lapack.Workspace
	rng   *rand.Rand
	pcg   *rand.PCG
}

// Eigsh computes K eigenpairs of the Hermitian linear map apply at the end
// of the spectrum opts.Which selects, A·v = λ·v, by the thick-restart
// Lanczos method (Wu and Simon, SIAM J. Matrix Anal. Appl. 22(2), 2000)
// with full reorthogonalization: the Krylov basis of x0 is extended to m
// vectors, the projected matrix (real symmetric: tridiagonal after a
// start, arrowhead plus tridiagonal after a restart) diagonalized by
// lapack.Heev, and the iteration restarted
// from the Ritz vectors of the K + (m−K)/2 wanted Ritz values. An
// invariant subspace met early continues from a random vector orthogonal
// to the basis; when the basis fills the whole space the pairs are exact,
// so K ≥ N (and any N ≤ m) is solved densely in effect. See
// [EigshOptions] for the defaults and the limit on degenerate
// eigenvalues.
//
// apply must be Hermitian (⟨x, A·y⟩ = ⟨A·x, y⟩); that is not checked, and
// a non-Hermitian operator gives meaningless pairs. x0 may be any tensor
// (any shape and view, not modified); a zero x0 is replaced by a random
// vector. The result's vectors come from e's pool.
// A NaN or Inf produced by apply fails with tf.ErrArgument; an error of
// apply is returned wrapped. Reaching MaxRestarts returns the result so
// far together with an error of kind [ErrNoConvergence].
func Eigsh[T tf.Scalar](e tf.Engine, apply Operator[T], x0 *tf.Tensor[T], opts EigshOptions) (*EigshResult[T], error) {
	var l Lanczos[T]
	res := new(EigshResult[T])
	err := l.Solve(e, apply, x0, opts, res)
	if err != nil && !errors.Is(err, ErrNoConvergence) {
		release(res.Vectors...)
		return nil, err
	}
	return res, err
}

// Solve is [Eigsh] on the reusable state l, writing into res: res.Vectors
// are reused when they hold K live compact tensors of x0's shape (and
// replaced by tensors from e's pool otherwise, the old ones left to the
// caller), and res's slices when long enough. x0 may be one of
// res.Vectors: a warm start from the previous solution, as DMRG does. On
// an error other than ErrNoConvergence res holds no valid pairs.
func (l *Lanczos[T]) Solve(e tf.Engine, apply Operator[T], x0 *tf.Tensor[T], opts EigshOptions, res *EigshResult[T]) error {
	const name = "Eigsh"
	if e == nil {
		return tf.Errorf(tf.ErrArgument, name, "e", "an engine", "nil")
	}
	if apply == nil {
		return tf.Errorf(tf.ErrArgument, name, "apply", "an operator", "nil")
	}
	if res == nil {
		return tf.Errorf(tf.ErrArgument, name, "res", "a result to fill", "nil")
	}
	if err := live(name, "x0", x0); err != nil {
		return err
	}
	n := x0.Len()
	k, m := opts.K, opts.MaxDim
	if k == 0 {
		k = 1
	}
	if m == 0 {
		m = max(20, 2*k+1)
	}
	switch {
	case k < 0:
		return tf.Errorf(tf.ErrArgument, name, "opts.K", "K ≥ 0", "%d", k)
	case opts.Which < Smallest || opts.Which > LargestMagnitude:
		return tf.Errorf(tf.ErrArgument, name, "opts.Which", "Smallest, Largest or LargestMagnitude", "%d", opts.Which)
	case opts.Tol < 0 || math.IsNaN(opts.Tol):
		return tf.Errorf(tf.ErrArgument, name, "opts.Tol", "Tol ≥ 0", "%g", opts.Tol)
	case opts.MaxRestarts < 0:
		return tf.Errorf(tf.ErrArgument, name, "opts.MaxRestarts", "MaxRestarts ≥ 0", "%d", opts.MaxRestarts)
	case m < 0 || m <= k && m < n:
		return tf.Errorf(tf.ErrArgument, name, "opts.MaxDim", "MaxDim > K", "MaxDim %d for K %d", m, k)
	}
	k, m = min(k, n), min(m, n)
	maxRestarts := opts.MaxRestarts
	if maxRestarts == 0 {
		maxRestarts = 1000
	}
	res.Matvecs, res.Restarts, res.Converged = 0, 0, false
	if err := l.reserve(e, x0, m, k, opts.Seed, res); err != nil {
		return err
	}
	clear(l.err)
	if n == 0 {
		res.Converged = true
		return nil
	}
	if err := tf.CopyInto(e, l.vecs[0], x0); err != nil {
		return tf.WrapError(name, "x0", err)
	}
	v0 := l.col(0)
	if nv := nrm2(v0); nv == 0 || math.IsNaN(nv) || math.IsInf(nv, 0) {
		if nv != 0 {
			return tf.Errorf(tf.ErrArgument, name, "x0", "finite entries", "a NaN or Inf")
		}
		fillRandom(l.rng, v0)
		scal(scalar[T](complex(1/nrm2(v0), 0)), v0)
	} else {
		scal(scalar[T](complex(1/nv, 0)), v0)
	}

	relTol := 1e-10
	if unitRoundoff[T]() > 1e-10 {
		relTol = 1e-5
	}
	st := lanczosState{tol: opts.Tol, relTol: relTol, which: opts.Which}
	size, start := 0, 0 // basis size after the last expansion; first new column
	checking, improvedRef := false, 0.0
	for {
		var err error
		st.need = k
		if checking {
			st.need = k + 1
		}
		size, err = l.expand(apply, name, start, m, &st, res)
		if err != nil {
			return err
		}
		tol := st.tolerance()
		if info := l.eig(size); info != 0 {
			return tf.Errorf(ErrNoConvergence, name, "", "a converged projected eigenproblem", "lapack.Heev info %d", info)
		}
		l.order(size, opts.Which)
		need := min(k, size)
		if checking {
			need = min(k+1, size)
		}
		conv := true
		for i := 0; i < need; i++ {
			if l.resid(size, i, st.beta) > tol {
				conv = false
				break
			}
		}
		switch {
		case st.exhausted:
			conv = true
		case st.fresh:
			conv = false // the next vector is a random one, not yet seen
		}
		if conv && opts.Deflate && !st.exhausted && k < n {
			kth := l.theta[l.idx[k-1]]
			if !checking || l.better(kth, improvedRef, tol, opts.Which) {
				// Lock the K wanted pairs and search on from a random
				// vector orthogonal to them.
				l.restart(size, k, st.beta, true)
				improvedRef, checking = kth, true
				res.Restarts++
				if l.randomColumn(k) {
					start = k
					continue
				}
				// The locked vectors span the space (to rounding).
				size, st.beta = k, 0
				l.eig(size) // diagonal: exact
				l.order(size, opts.Which)
			}
		}
		if conv || res.Restarts >= maxRestarts {
			l.finish(size, k, st.beta, res)
			if !conv {
				return tf.Errorf(ErrNoConvergence, name, "", "residuals ≤ "+fmtG(tol), "largest residual %g after %d restarts", slices.Max(res.Residuals[:k]), res.Restarts)
			}
			res.Converged = true
			return nil
		}
		keep := min(k+(size-k)/2, size-1)
		keep = max(keep, min(k, size-1))
		l.restart(size, keep, st.beta, false)
		res.Restarts++
		start = keep
	}
}

// lanczosState is the running state of one solve.
type lanczosState struct {
	anorm     float64 // max ‖A·vⱼ‖ seen: an estimate of ‖A‖₂ from below
	beta      float64 // coupling of the last basis vector to the next
	exhausted bool    // the basis spans the whole space (or an invariant one that no random vector extends)
	fresh     bool    // the next vector is random: an invariant subspace ended the last expansion
	// The convergence test: the first need wanted pairs within the
	// tolerance (tol, or relTol·anorm when tol is 0).
	need        int
	tol, relTol float64
	which       Which
}

func (st *lanczosState) tolerance() float64 {
	if st.tol != 0 {
		return st.tol
	}
	return st.relTol * st.anorm
}

// early reports whether the leading s×s projected matrix, coupled by beta
// to the next vector, already has the wanted pairs converged, so that the
// expansion can stop (a warm start from a converged vector costs a few
// products instead of a cycle). It diagonalizes the s×s matrix: O(s³),
// small beside s products with A of a large operator.
func (l *Lanczos[T]) early(s int, beta float64, st *lanczosState) bool {
	if s < st.need || l.eig(s) != 0 {
		return false
	}
	l.order(s, st.which)
	tol := st.tolerance()
	for i := 0; i < st.need; i++ {
		if l.resid(s, i, beta) > tol {
			return false
		}
	}
	return true
}

// reserve sizes l for vectors of x0's shape and subspace dimension m, and
// res for k pairs.
func (l *Lanczos[T]) reserve(e tf.Engine, x0 *tf.Tensor[T], m, k int, seed uint64, res *EigshResult[T]) error {
	n := x0.Len()
	if l.rng == nil {
		l.pcg = rand.NewPCG(seed, 0x9e3779b97f4a7c15)
		l.rng = rand.New(l.pcg)
	}
	l.pcg.Seed(seed, 0x9e3779b97f4a7c15)
	if n != l.n || m > l.m || !slices.Equal(l.shape, x0.Shape()) {
		l.n, l.shape = n, slices.Clone(x0.Shape())
		mm := max(m, l.m)
		if len(l.buf) < (mm+1)*n {
			l.buf = make([]T, (mm+1)*n)
		}
		l.vecs = l.vecs[:0]
		for j := 0; j <= mm; j++ {
			v, err := tf.FromSlice(l.buf[j*n:(j+1)*n], l.shape...)
			if err != nil {
				return err
			}
			l.vecs = append(l.vecs, v)
		}
		if mm > l.m {
			l.m = mm
			l.h, l.z = make([]float64, mm*mm), make([]float64, mm*mm)
			l.theta, l.idx, l.c = make([]float64, mm), make([]int, mm), make([]complex128, mm+1)
			l.err, l.err2 = make([]float64, mm+1), make([]float64, mm+1)
			l.y = make([]T, mm*mm)
			l.tmp = make([]T, rowBlock*mm)
		}
	}
	l.m = max(l.m, m)
	res.Values = grow(res.Values, k)
	res.Residuals = grow(res.Residuals, k)
	ok := len(res.Vectors) == k
	for _, v := range res.Vectors {
		ok = ok && v.Valid() && v.IsCompact() && slices.Equal(v.Shape(), x0.Shape())
	}
	if !ok {
		res.Vectors = res.Vectors[:0]
		for range k {
			v, err := tf.NewTensor[T](e, x0.Shape()...)
			if err != nil {
				release(res.Vectors...)
				res.Vectors = nil
				return err
			}
			res.Vectors = append(res.Vectors, v)
		}
	}
	return nil
}

// rowBlock is the number of basis rows updated at once by a restart.
const rowBlock = 256

func grow(s []float64, k int) []float64 {
	if cap(s) < k {
		return make([]float64, k)
	}
	return s[:k]
}

// col returns basis column j.
func (l *Lanczos[T]) col(j int) []T { return l.buf[j*l.n : (j+1)*l.n] }

// eig diagonalizes the leading s×s projected matrix by lapack.Heev: the
// Ritz values ascending in l.theta and their vectors in l.z (s×s,
// column-major). It returns Heev's info.
func (l *Lanczos[T]) eig(s int) int {
	z := l.z[:s*s]
	for j := 0; j < s; j++ {
		for i := 0; i < s; i++ {
			z[i+j*s] = l.h[i+j*l.m]
		}
	}
	return lapack.Heev(&l.ws, nil, true, lapack.Lower, s, gemm.Mat[float64]{Data: z, RS: 1, CS: s}, l.theta[:s])
}

// expand extends the basis from column start to m columns, setting the
// projected matrix's entries, and returns the basis size (m, or less when
// the space is exhausted).
func (l *Lanczos[T]) expand(apply Operator[T], name string, start, m int, st *lanczosState, res *EigshResult[T]) (int, error) {
	ld := l.m
	st.fresh = false
	for j := start; j < m; j++ {
		if err := apply(l.vecs[j+1], l.vecs[j]); err != nil {
			return 0, tf.WrapError(name, "apply", err)
		}
		res.Matvecs++
		w := l.col(j + 1)
		before, after := orthogonalize(l.buf, j+1, w, l.c)
		if math.IsNaN(before) || math.IsInf(before, 0) || math.IsNaN(after) {
			return 0, tf.Errorf(tf.ErrArgument, name, "apply", "finite results", "a NaN or Inf in A·v at matrix-vector product %d", res.Matvecs)
		}
		st.anorm = max(st.anorm, before)
		l.h[j+j*ld] = real(l.c[j])
		beta := after
		if beta <= 8*unitRoundoff[T]()*st.anorm*math.Sqrt(float64(j+1)) {
			// An invariant subspace: continue from a random vector.
			beta = 0
			if !l.randomColumn(j + 1) {
				st.beta, st.exhausted = 0, true
				return j + 1, nil
			}
			st.fresh = j+1 == m
		} else {
			scal(scalar[T](complex(1/beta, 0)), w)
		}
		if j+1 < m {
			l.h[j+(j+1)*ld], l.h[j+1+j*ld] = beta, beta
			for i := j + 2; i < m; i++ {
				l.h[i+j*ld], l.h[j+i*ld] = 0, 0
			}
		}
		st.beta = beta
		if beta != 0 && j+1 < m && l.early(j+1, beta, st) {
			return j + 1, nil
		}
	}
	return m, nil
}

// randomColumn sets basis column j to a random unit vector orthogonal to
// columns 0..j-1, and reports false when none is left (the columns span
// the space, to rounding).
func (l *Lanczos[T]) randomColumn(j int) bool {
	if j >= l.n {
		return false
	}
	w := l.col(j)
	for try := 0; try < 3; try++ {
		fillRandom(l.rng, w)
		before, after := orthogonalize(l.buf, j, w, l.c)
		if after > 1e-3*before {
			scal(scalar[T](complex(1/after, 0)), w)
			return true
		}
	}
	return false
}

// order sorts the Ritz value indices 0..s-1 into l.idx by opts.Which.
func (l *Lanczos[T]) order(s int, which Which) {
	idx := l.idx[:s]
	for i := range idx {
		idx[i] = i
	}
	key := func(i int) float64 {
		switch which {
		case Largest:
			return -l.theta[i]
		case LargestMagnitude:
			return -math.Abs(l.theta[i])
		}
		return l.theta[i]
	}
	for i := 1; i < s; i++ {
		for j := i; j > 0 && key(idx[j]) < key(idx[j-1]); j-- {
			idx[j], idx[j-1] = idx[j-1], idx[j]
		}
	}
}

// better reports whether the Ritz value a lies beyond b, by more than tol,
// in the direction which selects.
func (l *Lanczos[T]) better(a, b, tol float64, which Which) bool {
	switch which {
	case Largest:
		return a > b+tol
	case LargestMagnitude:
		return math.Abs(a) > math.Abs(b)+tol
	}
	return a < b-tol
}

// resid returns the residual estimate of the i-th wanted pair,
// |β·y[s-1]| + Σⱼ |y[j]|·errⱼ, the second term bounding the couplings that
// locking dropped.
func (l *Lanczos[T]) resid(s, i int, beta float64) float64 {
	y := l.z[l.idx[i]*s : (l.idx[i]+1)*s]
	r := math.Abs(beta * y[s-1])
	for j, e := range l.err[:s] {
		if e != 0 {
			r += math.Abs(y[j]) * e
		}
	}
	return r
}

// restart replaces the basis by the Ritz vectors of the first keep wanted
// Ritz values followed by the residual vector, and the projected matrix by
// diag(θ) bordered by the couplings β·y[s-1] (Wu–Simon). With lock the
// couplings are dropped, and their size kept in the columns' error bounds.
func (l *Lanczos[T]) restart(s, keep int, beta float64, lock bool) {
	n, ld := l.n, l.m
	for c := 0; c < keep; c++ {
		e := 0.0
		if lock {
			e = l.resid(s, c, beta)
		} else {
			y := l.z[l.idx[c]*s : (l.idx[c]+1)*s]
			for j, ej := range l.err[:s] {
				e += math.Abs(y[j]) * ej
			}
		}
		l.err2[c] = e
	}
	copy(l.err, l.err2[:keep])
	clear(l.err[keep:])
	y := l.y[:s*keep]
	for c := 0; c < keep; c++ {
		zc := l.idx[c] * s
		for r := 0; r < s; r++ {
			y[r+c*s] = scalar[T](complex(l.z[zc+r], 0))
		}
	}
	// V[:, 0:keep] = V[:, 0:s]·Y, a block of rows at a time.
	for r0 := 0; r0 < n; r0 += rowBlock {
		rb := min(rowBlock, n-r0)
		vb := gemm.Mat[T]{Data: l.buf, Off: r0, RS: 1, CS: n}
		tb := gemm.Mat[T]{Data: l.tmp, RS: 1, CS: rb}
		gemm.Gemm(&l.ws.Gemm, nil, rb, keep, s, 1, vb, gemm.Mat[T]{Data: y, RS: 1, CS: s}, 0, tb)
		for c := 0; c < keep; c++ {
			copy(l.buf[c*n+r0:c*n+r0+rb], l.tmp[c*rb:(c+1)*rb])
		}
	}
	if keep != s {
		copy(l.col(keep), l.col(s))
	}
	clear(l.h)
	for c := 0; c < keep; c++ {
		l.h[c+c*ld] = l.theta[l.idx[c]]
		if keep < ld && !lock {
			sc := beta * l.z[s-1+l.idx[c]*s]
			l.h[c+keep*ld], l.h[keep+c*ld] = sc, sc
		}
	}
}

// finish writes the first k wanted pairs into res.
func (l *Lanczos[T]) finish(s, k int, beta float64, res *EigshResult[T]) {
	k = min(k, s)
	for i := 0; i < k; i++ {
		res.Values[i] = l.theta[l.idx[i]]
		res.Residuals[i] = l.resid(s, i, beta)
	}
	l.restart(s, k, beta, false)
	for i := 0; i < k; i++ {
		d, _ := res.Vectors[i].Data()
		copy(d, l.col(i))
	}
	res.Values, res.Residuals, res.Vectors = res.Values[:k], res.Residuals[:k], res.Vectors[:k]
}

// fmtG formats a tolerance for a message.
func fmtG(x float64) string { return strconv.FormatFloat(x, 'g', 3, 64) }
