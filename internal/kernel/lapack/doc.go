// Package lapack computes dense matrix factorizations and the solves built
// on them, for float32, float64, complex64 and complex128:
//
//	Trsm:   op(A)·X = α·B  or  X·op(A) = α·B,  A triangular
//	Potrf:  A = L·Lᴴ  or  A = Uᴴ·U,           A Hermitian positive definite
//	Potrs:  A·X = B from the Cholesky factor
//	Getrf:  P·A = L·U,                          A m×n, partial pivoting
//	Getrs:  op(A)·X = B from the LU factors
//	Getri:  A⁻¹ from the LU factors
//	Det, Slogdet: det(A) and (det(A)/|det(A)|, log|det(A)|) from the LU factors
//	Trtri:  A⁻¹ for triangular A
//	Geqrf:  A = Q·R by Householder reflectors, A m×n (Geqr2 unblocked)
//	Orgqr, Ungqr: the explicit thin or full Q; Ormqr, Unmqr: op(Q)·C or C·op(Q)
//	Gelqf:  A = L·Q; Orglq, Unglq, Ormlq, Unmlq likewise
//	PositiveDiag: the gauge of a QR or LQ factorization with real diag(R) ≥ 0
//	Geqp3:  A·P = Q·R with column pivoting (rank-revealing)
//	Larfg, Larf, Larft, Larfb: one reflector, its application, the compact
//	        WY form Q = I − V·T·Vᴴ of a block and its application
//	Hetrd:  Qᴴ·A·Q = T real symmetric tridiagonal, A Hermitian;
//	        Ungtr, Unmtr: Q or op(Q)·C
//	Steqr:  T = Z·Λ·Zᵀ by the implicit QL/QR iteration (root-free for
//	        values alone); Stedc: the same by divide and conquer
//	Heev:   A = V·diag(w)·Vᴴ, A Hermitian
//	Gebrd:  Qᴴ·A·P = B real bidiagonal; Ungbr, Orgbr: Q or Pᴴ
//	Bdsqr:  B = U·Σ·Vᴴ by the Demmel–Kahan bidiagonal QR iteration
//	Gesvd:  A = U·diag(s)·Vᴴ (values, thin or full)
//	Gelss:  min ‖A·X − B‖ of least norm through the SVD
//	Expm:   exp(A) by scaling and squaring with Padé approximants
//	Lartg, Rot, Lasr: plane rotations, generated and applied
//
// where op(A) is A, Aᵀ or Aᴴ. The kernels know nothing of tensors; callers
// validate shapes and bounds beforehand (an out-of-range operand panics with
// a Go bounds error and never touches memory outside Data).
//
// # Layout
//
// Matrices are [gemm.Mat] values: element (i, j) lives at
// Data[Off+i*RS+j*CS]. Column-major storage has RS = 1, CS = ld ≥ rows;
// a transposed view swaps the two strides and is accepted everywhere (the
// kernels are fastest on column-major operands). Matrices that are written
// need strides under which distinct (i, j) address distinct elements; read
// operands may use any strides.
//
// # Aliasing and ownership
//
// Factorizations overwrite A in place with their factors, and solves
// overwrite B with X, as LAPACK does. Only the elements a routine documents
// as referenced are read or written: the triangle opposite uplo is never
// touched. A solve's right-hand side must not overlap the factor it is
// solved with. Pivots are row-interchange arrays like LAPACK's ipiv, but
// 0-based: row i was interchanged with row ipiv[i], in order i = 0, 1, ….
// Failures are reported LAPACK style as an info int: 0 on success, k ≥ 1
// naming the leading minor (Potrf) or the pivot U[k-1, k-1] (Getrf) that
// failed. NaN input fails a Cholesky factorization; it never loops.
//
// # Workspace and parallelism
//
// Every blocked routine takes a [Workspace] that owns the GEMM packing
// buffers and a scratch array, both grown once, so that a warm call
// allocates nothing, and a par.Runner (nil means serial) that is passed to
// gemm.Gemm for the large updates. A Workspace is not safe for concurrent
// use. Problems no larger than the leaf sizes ([TrsmLeaf], [PotrfLeaf],
// [GetrfLeaf]) run the unblocked kernels alone and use neither the
// workspace nor the runner (both may be nil); [Potf2] and [Getf2] expose
// those kernels for batches of small matrices.
//
// # Algorithms
//
// All blocked routines are recursive (Gustavson; Toledo for LU, as in
// LAPACK's getrf2): the matrix is halved, the leading half solved, the
// trailing half updated by one large product through gemm.Gemm, and the
// trailing half solved, down to a leaf solved by an unblocked kernel. Most
// floating-point operations therefore run in a few large products. Complex
// conjugates, which gemm has no flag for, are taken by conjugating the right
// side in place (Trsm: conj(A)·X = B ⇔ A·conj(X) = conj(B)) or by a
// conjugated copy of a panel in the scratch array (Potrf's Hermitian
// update); real types never copy. QR factors panels recursively and
// applies each block of reflectors to the trailing matrix in the compact WY
// form (three products through gemm); Q is formed by accumulating the
// blocks backwards. LQ runs the QR routines on the conjugate-transposed
// view.
package lapack

import (
	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
)

// Scalar is the set of element types the kernels support.
type Scalar = gemm.Scalar

// Uplo selects the triangle of a matrix that a routine references.
type Uplo int8

const (
	Lower Uplo = iota // the lower triangle, diagonal included
	Upper             // the upper triangle, diagonal included
)

// Side selects on which side of X a triangular matrix multiplies.
type Side int8

const (
	Left  Side = iota // op(A)·X
	Right             // X·op(A)
)

// Op is the operation applied to a matrix operand.
type Op int8

const (
	NoTrans   Op = iota // A
	Trans               // Aᵀ
	ConjTrans           // Aᴴ (Aᵀ for real types)
)

// Diag states whether a triangular matrix has a unit diagonal.
type Diag int8

const (
	NonUnit Diag = iota // the diagonal is read
	Unit                // the diagonal is taken as all ones and not read
)

// Leaf sizes: problems of at most this order run the unblocked kernels, and
// the recursive drivers stop halving there. Set them before calls run (they
// are read without locking). BenchmarkLeaf times Getrf and Potrf at n = 512
// over a grid of them; on a shared 2-vCPU AMD EPYC (Zen 5) guest, TrsmLeaf
// and GetrfLeaf anywhere in 4..32 gave float64 Getrf within the noise
// (22-29 GFLOP per CPU-second), so the defaults are middle values.
var (
	// TrsmLeaf is the order of the triangle below which Trsm substitutes
	// directly.
	TrsmLeaf = 16
	// PotrfLeaf is the order below which Potrf runs Potf2.
	PotrfLeaf = 32
	// GetrfLeaf is the panel width below which Getrf runs Getf2.
	GetrfLeaf = 16
	// herkLeaf is the order of the diagonal blocks of the Hermitian update
	// computed as a full product into scratch.
	herkLeaf = 64
)

// Workspace owns the buffers the blocked kernels reuse across calls: the
// GEMM packing buffers and one scratch array per element type, each grown
// once. The zero value is ready to use. Not safe for concurrent use.
type Workspace struct {
	Gemm gemm.Workspace
	f32  []float32
	f64  []float64
	c64  []complex64
	c128 []complex128
	// sub are the workspaces of the parts of a split solve, and t32 …
	// t128 the task of a split over columns, kept so that a warm split
	// allocates nothing.
	sub []*Workspace
	// pivots is a copy of the interchanges of a split Laswp, so that the
	// caller's pivot slice (which may live on its stack) stays its own.
	pivots []int
	t32    columnTask[float32]
	t64    columnTask[float64]
	tc64   columnTask[complex64]
	tc128  columnTask[complex128]
}

// parts returns n workspaces for the parts of a split operation, ws itself
// first, made on first use.
func (ws *Workspace) parts(n int) []*Workspace {
	for len(ws.sub) < n {
		if len(ws.sub) == 0 {
			ws.sub = append(ws.sub, ws)
			continue
		}
		ws.sub = append(ws.sub, new(Workspace))
	}
	return ws.sub[:n]
}

// columnTaskFor returns ws's task of a split over columns for T.
func columnTaskFor[T Scalar](ws *Workspace) *columnTask[T] {
	switch t := any(&ws.t32).(type) {
	case *columnTask[T]:
		return t
	}
	switch t := any(&ws.t64).(type) {
	case *columnTask[T]:
		return t
	}
	switch t := any(&ws.tc64).(type) {
	case *columnTask[T]:
		return t
	}
	return any(&ws.tc128).(*columnTask[T])
}

// scratch returns a []T of length n owned by ws, grown when too small. Its
// contents are undefined.
func scratch[T Scalar](ws *Workspace, n int) []T {
	var p *[]T
	switch q := any(&ws.f32).(type) {
	case *[]T:
		p = q
	}
	if p == nil {
		switch q := any(&ws.f64).(type) {
		case *[]T:
			p = q
		}
	}
	if p == nil {
		switch q := any(&ws.c64).(type) {
		case *[]T:
			p = q
		}
	}
	if p == nil {
		p = any(&ws.c128).(*[]T)
	}
	if len(*p) < n {
		*p = make([]T, n+n/4)
	}
	return (*p)[:n]
}

// transpose returns the transposed view of m.
func transpose[T Scalar](m gemm.Mat[T]) gemm.Mat[T] {
	m.RS, m.CS = m.CS, m.RS
	return m
}

// shift returns m with its origin moved to element (i, j).
func shift[T Scalar](m gemm.Mat[T], i, j int) gemm.Mat[T] {
	m.Off += i*m.RS + j*m.CS
	return m
}

// split returns the order of the leading half when n is halved: a multiple
// of 8 (the GEMM register tile) once n is large enough.
func split(n int) int {
	if n >= 32 {
		return (n/2 + 7) / 8 * 8
	}
	return n / 2
}
