package ad_test

import (
	"slices"
	"strings"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/trace"
)

// The linear-algebra operations of the op table. PyTorch keeps the
// matrices of a tensor in its last two axes, (batch..., m, n); the
// library in its first two, (m, n, batch...). The runner keeps every
// tensor in PyTorch's shape (inputs, directions, cotangents and results
// alike), and a mapping moves the matrix axes first with lib before a
// linear-algebra operation and back with torch after it: the permutations
// are part of the recorded function, exact in value and derivative.
//
// Families whose upstream test wraps the op in PyTorch's Hermitian-input
// wrapper (cholesky, cholesky_ex, eigh, eigvalsh, pinv_hermitian) are
// stated for op(A + Aᴴ): the mapping records A + Aᴴ, which reads the
// direction the same way.

// oracleMatrixPerm is the permutation that moves the last core axes of a
// rank-r tensor first (toLib: PyTorch's (batch..., m, n) to the library's
// (m, n, batch...)), or its first core axes last (the way back).
func oracleMatrixPerm(rank, core int, toLib bool) []int {
	split := core
	if toLib {
		split = rank - core
	}
	perm := make([]int, 0, rank)
	for d := split; d < rank; d++ {
		perm = append(perm, d)
	}
	for d := range split {
		perm = append(perm, d)
	}
	return perm
}

// lib is x (batch..., core axes) with its last core axes moved first, the
// library's layout; torch is the way back.
func (b *oracleBuilder) lib(x trace.Var, core int) trace.Var { return b.moveAxes(x, core, true) }

func (b *oracleBuilder) torch(x trace.Var, core int) trace.Var { return b.moveAxes(x, core, false) }

func (b *oracleBuilder) moveAxes(x trace.Var, core int, toLib bool) trace.Var {
	if b.err != nil || x.Rank() == core {
		return x
	}
	return b.p(b.tr.Permute(x, oracleMatrixPerm(x.Rank(), core, toLib)...))
}

// onLib applies f, an operation on matrices in the library's layout, to
// the PyTorch matrices of a: the result's first out axes are its matrix
// (or vector) axes, moved last.
func (b *oracleBuilder) onLib(a trace.Var, out int, f func(*trace.Trace, trace.Var) (trace.Var, error)) trace.Var {
	x := b.lib(a, 2)
	if b.err != nil {
		return trace.Var{}
	}
	return b.torch(b.p(f(b.tr, x)), out)
}

// mT is the transpose of every PyTorch matrix of x; mH its conjugate
// transpose.
func (b *oracleBuilder) mT(x trace.Var) trace.Var {
	if b.err != nil {
		return trace.Var{}
	}
	r := x.Rank()
	perm := make([]int, r)
	for d := range perm {
		perm[d] = d
	}
	perm[r-2], perm[r-1] = r-1, r-2
	return b.p(b.tr.Permute(x, perm...))
}

func (b *oracleBuilder) mH(x trace.Var) trace.Var {
	y := b.mT(x)
	if b.err != nil || !y.DType().IsComplex() {
		return y
	}
	return b.un((*trace.Trace).Conj, y)
}

// herm is a + aᴴ: the input of an op under PyTorch's Hermitian-input
// wrapper.
func (b *oracleBuilder) herm(a trace.Var) trace.Var {
	return b.bin((*trace.Trace).Add, a, b.mH(a))
}

// reshapeRM is x with a new shape and the same row-major element order,
// PyTorch's reshape: the library's (column-major) Reshape between the
// reversed axes.
func (b *oracleBuilder) reshapeRM(x trace.Var, shape ...int) trace.Var {
	if b.err != nil {
		return trace.Var{}
	}
	rev := func(r int) []int {
		p := make([]int, r)
		for d := range p {
			p[d] = r - 1 - d
		}
		return p
	}
	y := b.p(b.tr.Permute(x, rev(x.Rank())...))
	rs := slices.Clone(shape)
	slices.Reverse(rs)
	y = b.p(b.tr.Reshape(y, rs...))
	if b.err != nil {
		return trace.Var{}
	}
	return b.p(b.tr.Permute(y, rev(len(shape))...))
}

// inv is the inverse of every matrix of a.
func (b *oracleBuilder) inv(a trace.Var) trace.Var { return b.onLib(a, 2, (*trace.Trace).Inv) }

// svd returns the thin factors of every matrix of a, in PyTorch's layout:
// U (batch..., m, k), S (batch..., k), Vh (batch..., k, n).
func (b *oracleBuilder) svd(a trace.Var) (u, s, vh trace.Var) {
	x := b.lib(a, 2)
	if b.err != nil {
		return
	}
	lu, ls, lvh, err := b.tr.SVD(x)
	if err != nil {
		b.p(trace.Var{}, err)
		return
	}
	return b.torch(lu, 2), b.torch(ls, 1), b.torch(lvh, 2)
}

// eigh returns the eigenvalues (batch..., n) and eigenvectors (batch...,
// n, n) of every Hermitian matrix of a, read from its upper triangle when
// upper.
func (b *oracleBuilder) eigh(a trace.Var, upper bool) (w, v trace.Var) {
	x := b.lib(a, 2)
	if b.err != nil {
		return
	}
	lw, lv, err := b.tr.Eigh(x, upper)
	if err != nil {
		b.p(trace.Var{}, err)
		return
	}
	return b.torch(lw, 1), b.torch(lv, 2)
}

// uplo reads the UPLO keyword of eigh and eigvalsh: true for "U", false
// for "L" (the default).
func (b *oracleBuilder) uplo() bool {
	raw, ok := b.kw("UPLO")
	if !ok {
		return false
	}
	var s string
	b.decode(raw, &s)
	switch s {
	case "U":
		return true
	case "L":
		return false
	}
	b.skip("UPLO %q", s)
	return false
}

// oracleEps is PyTorch's machine epsilon of dt's real type.
func oracleEps(dt tf.DType) float64 {
	if dt.Real() == tf.Float32 {
		return 0x1p-23
	}
	return 0x1p-52
}

// pinvRcond is the relative threshold of linalg.pinv's keywords: rtol
// when given, else PyTorch's default eps·max(m, n). A positive atol sets
// an absolute threshold, which Pinv does not take.
func (b *oracleBuilder) pinvRcond(a trace.Var) float64 {
	if atol := b.kwFloat("atol", 0); atol != 0 {
		b.skip("atol=%g: an absolute threshold max(atol, rtol·s_max)", atol)
		return 0
	}
	if raw, ok := b.kw("rtol"); ok {
		return b.float(raw)
	}
	return oracleDefaultRcond(a)
}

// oracleDefaultRcond is PyTorch's default relative threshold of pinv and
// lstsq for the matrices of a (batch..., m, n): eps·max(m, n).
func oracleDefaultRcond(a trace.Var) float64 {
	s := a.Shape()
	return oracleEps(a.DType()) * float64(max(s[len(s)-2], s[len(s)-1]))
}

// pinv is linalg.pinv of every matrix of a: singular values at most
// rcond·s_max dropped, as PyTorch keeps those above max(atol, rtol·s_max).
func (b *oracleBuilder) pinv(a trace.Var, rcond float64) trace.Var {
	return b.onLib(a, 2, func(tr *trace.Trace, x trace.Var) (trace.Var, error) { return tr.Pinv(x, rcond) })
}

// solve is linalg.solve(a, c, left): X with A·X = B (X·A = B unless left),
// c a batch of vectors when it is 1-D or a's shape without the last axis,
// as PyTorch decides.
func (b *oracleBuilder) solve(a, c trace.Var, left bool) trace.Var {
	if b.err != nil {
		return trace.Var{}
	}
	ar, cs := a.Rank(), c.Shape()
	vector := c.Rank() == 1 || (c.Rank() == ar-1 && slices.Equal(cs, a.Shape()[:ar-1]))
	if vector {
		s := slices.Clone(cs)
		if left {
			s = append(s, 1) // a column (n, 1)
		} else {
			s = slices.Insert(s, len(s)-1, 1) // a row (1, n)
		}
		c = b.p(b.tr.Reshape(c, s...))
	}
	if b.err != nil {
		return trace.Var{}
	}
	if !slices.Equal(c.Shape()[:c.Rank()-2], a.Shape()[:ar-2]) {
		return b.skip("batch %v of b broadcast against %v of a", c.Shape()[:c.Rank()-2], a.Shape()[:ar-2])
	}
	var x trace.Var
	if left {
		x = b.solveLeft(a, c)
	} else {
		// X·A = B is Aᵀ·Xᵀ = Bᵀ.
		x = b.mT(b.solveLeft(b.mT(a), b.mT(c)))
	}
	if vector && b.err == nil {
		x = b.p(b.tr.Reshape(x, cs...))
	}
	return x
}

func (b *oracleBuilder) solveLeft(a, c trace.Var) trace.Var {
	x, y := b.lib(a, 2), b.lib(c, 2)
	if b.err != nil {
		return trace.Var{}
	}
	return b.torch(b.p(b.tr.Solve(x, y)), 2)
}

// spectralNorm is the matrix norm of ord 2 (the largest singular value),
// -2 (the smallest) or nuc (their sum) over axes (rows, columns) of a, as
// PyTorch computes it from svdvals (amax, amin, sum); the other axes stay
// in their order.
func (b *oracleBuilder) spectralNorm(a trace.Var, ord string, axes []int) trace.Var {
	if b.err != nil {
		return trace.Var{}
	}
	perm := []int{axes[0], axes[1]}
	for d := range a.Rank() {
		if d != axes[0] && d != axes[1] {
			perm = append(perm, d)
		}
	}
	s := b.p(b.tr.SVDVals(b.p(b.tr.Permute(a, perm...))))
	if b.err != nil {
		return trace.Var{}
	}
	switch ord {
	case "nuc":
		return b.p(b.tr.Sum(s, 0))
	case "2", "2.0":
		return b.p(b.tr.Max(s, 0))
	}
	return b.p(b.tr.Min(s, 0))
}

// residuals is linalg.lstsq's: Σ|A·X - B|² down every column of the
// solution x (batch..., k), real.
func (b *oracleBuilder) residuals(a, x, c trace.Var) trace.Var {
	la, lx, lc := b.lib(a, 2), b.lib(x, 2), b.lib(c, 2)
	if b.err != nil {
		return trace.Var{}
	}
	r := b.bin((*trace.Trace).Sub, b.p(b.tr.Matmul(la, lx)), lc)
	var sq trace.Var
	if r.DType().IsComplex() {
		sq = b.un((*trace.Trace).Real, b.bin((*trace.Trace).Mul, b.un((*trace.Trace).Conj, r), r))
	} else {
		sq = b.un((*trace.Trace).Square, r)
	}
	if b.err != nil {
		return trace.Var{}
	}
	return b.torch(b.p(b.tr.Sum(sq, 0)), 1)
}

// identity is the constant identity matrix (batch..., m, n) of like's
// dtype: ones on the diagonal.
func (b *oracleBuilder) identity(like trace.Var, shape []int) trace.Var {
	r := len(shape)
	m, n := shape[r-2], shape[r-1]
	eye := make([]complex128, oracleNumel(shape))
	for i := range eye {
		if (i/n)%m == i%n {
			eye[i] = 1
		}
	}
	return b.constant(like.DType(), shape, eye)
}

// householder is linalg.householder_product(a, tau): the first n columns
// of H_1·…·H_k, H_i = I - τ_i·v_i·v_iᴴ with v_i column i of a below the
// diagonal and 1 on it (LAPACK's orgqr), for a (batch..., m, n) and tau
// (batch..., k), k <= n <= m.
func (b *oracleBuilder) householder(a, tau trace.Var) trace.Var {
	r, s := a.Rank(), a.Shape()
	m, n, k := s[r-2], s[r-1], tau.Shape()[tau.Rank()-1]
	if k > n || n > m {
		return b.skip("tau of %d for a %v", k, s)
	}
	batch := s[:r-2]
	q := b.identity(a, append(slices.Clone(batch), m, m))
	col := append(slices.Clone(batch), m, 1)
	for i := range k {
		below, unit := make([]complex128, oracleNumel(col)), make([]complex128, oracleNumel(col))
		for j := range below {
			switch row := j % m; {
			case row > i:
				below[j] = 1
			case row == i:
				unit[j] = 1
			}
		}
		v := b.bin((*trace.Trace).Mul, b.take(a, r-1, int64(i)), b.constant(a.DType(), col, below))
		v = b.bin((*trace.Trace).Add, v, b.constant(a.DType(), col, unit))
		vc := v
		if a.DType().IsComplex() {
			vc = b.un((*trace.Trace).Conj, v)
		}
		ti := b.take(tau, tau.Rank()-1, int64(i))
		qv := b.einsum("...ij,...jk->...ik", q, v)
		q = b.bin((*trace.Trace).Sub, q, b.einsum("...ik,...jk,...k->...ij", qv, vc, ti))
	}
	if n == m {
		return q
	}
	cols := make([]int64, n)
	for j := range cols {
		cols[j] = int64(j)
	}
	return b.take(q, r-1, cols...)
}

// oracleNoMapping is an op the library cannot record, for the reason
// given.
func oracleNoMapping(reason string) oracleOp { return oracleOp{reason: reason} }

func init() {
	m := oracleOps
	svdObservables := []string{"svd_s", "svd_u_abs", "svd_vh_abs", "svd_uvh_product"}
	m["svd"] = oracleOp{inputs: 1, kwargs: []string{"full_matrices"}, observables: svdObservables,
		// The observables read the thin factors, U[..., :k] and Vh[..., :k,
		// :], whatever full_matrices.
		outs: func(b *oracleBuilder) []trace.Var {
			u, s, vh := b.svd(b.x[0])
			switch b.c.Observable.Kind {
			case "svd_s":
				return []trace.Var{s}
			case "svd_u_abs":
				return []trace.Var{b.un((*trace.Trace).Abs, u)}
			case "svd_vh_abs":
				return []trace.Var{s, b.un((*trace.Trace).Abs, vh)}
			case "svd_uvh_product":
				return []trace.Var{s, b.matmuls(u, vh)}
			}
			return []trace.Var{b.skip("the factors themselves depend on the phases of the vectors")}
		},
		// |Σ (U + Vh)|, the loss of the upstream test.
		gauge: func(b *oracleBuilder) trace.Var {
			u, _, vh := b.svd(b.x[0])
			if b.err == nil && !slices.Equal(u.Shape(), vh.Shape()) {
				return b.skip("U %v and Vh %v differ in shape", u.Shape(), vh.Shape())
			}
			return b.un((*trace.Trace).Abs, b.p(b.tr.Sum(b.bin((*trace.Trace).Add, u, vh))))
		}}
	m["svdvals"] = oracleUnaryFn(func(b *oracleBuilder, a trace.Var) trace.Var { return b.onLib(a, 1, (*trace.Trace).SVDVals) })
	m["eigh"] = oracleOp{inputs: 1, kwargs: []string{"UPLO"}, observables: []string{"eigh_values_vectors_abs"},
		outs: func(b *oracleBuilder) []trace.Var {
			if b.c.Observable.Kind != "eigh_values_vectors_abs" {
				return []trace.Var{b.skip("the eigenvectors themselves depend on their phases")}
			}
			w, v := b.eigh(b.herm(b.x[0]), b.uplo())
			return []trace.Var{w, b.un((*trace.Trace).Abs, v)}
		},
		// |Σ V| of the (Hermitian) input, the loss of the upstream test.
		gauge: func(b *oracleBuilder) trace.Var {
			_, v := b.eigh(b.x[0], b.uplo())
			return b.un((*trace.Trace).Abs, b.p(b.tr.Sum(v)))
		}}
	m["eigvalsh"] = oracleUnaryFn(func(b *oracleBuilder, a trace.Var) trace.Var {
		upper := b.uplo()
		return b.onLib(b.herm(a), 1, func(tr *trace.Trace, x trace.Var) (trace.Var, error) { return tr.Eigvalsh(x, upper) })
	}, "UPLO")
	cholesky := oracleUnaryFn(func(b *oracleBuilder, a trace.Var) trace.Var {
		upper := b.kwBool("upper", false)
		return b.onLib(b.herm(a), 2, func(tr *trace.Trace, x trace.Var) (trace.Var, error) { return tr.Cholesky(x, upper) })
	}, "upper")
	m["cholesky"] = cholesky
	m["cholesky_ex"] = cholesky // L alone, not info
	m["qr"] = oracleOp{inputs: 1, kwargs: []string{"mode"}, outs: func(b *oracleBuilder) []trace.Var {
		a := b.x[0]
		s := a.Shape()
		mode := "reduced"
		if raw, ok := b.kw("mode"); ok {
			b.decode(raw, &mode)
		}
		// The complete factors are the reduced ones when m <= n.
		if mode != "reduced" && (mode != "complete" || s[len(s)-2] > s[len(s)-1]) {
			return []trace.Var{b.skip("mode %q of a %v", mode, s)}
		}
		x := b.lib(a, 2)
		if b.err != nil {
			return []trace.Var{x}
		}
		q, r, err := b.tr.QR(x, false)
		b.p(trace.Var{}, err)
		return []trace.Var{b.torch(q, 2), b.torch(r, 2)}
	}}
	m["det"] = oracleUnaryFn(func(b *oracleBuilder, a trace.Var) trace.Var { return b.onLib(a, 0, (*trace.Trace).Det) })
	m["slogdet"] = oracleOp{inputs: 1, outs: func(b *oracleBuilder) []trace.Var {
		x := b.lib(b.x[0], 2)
		if b.err != nil {
			return []trace.Var{x}
		}
		sign, logabs, err := b.tr.SlogDet(x)
		b.p(trace.Var{}, err)
		return []trace.Var{sign, logabs}
	}}
	m["inv"] = oracleUnaryFn(func(b *oracleBuilder, a trace.Var) trace.Var { return b.inv(a) })
	m["inv_ex"] = m["inv"] // the inverse alone, not info
	m["matrix_exp"] = oracleUnaryFn(func(b *oracleBuilder, a trace.Var) trace.Var { return b.onLib(a, 2, (*trace.Trace).Expm) })
	solve := oracleBinaryFn(func(b *oracleBuilder, a, c trace.Var) trace.Var {
		return b.solve(a, c, b.kwBool("left", true))
	}, "left")
	m["solve"] = solve
	m["solve_ex"] = solve // X alone, not info
	m["pinv"] = oracleUnaryFn(func(b *oracleBuilder, a trace.Var) trace.Var {
		if b.kwBool("hermitian", false) {
			// PyTorch reads one triangle of a: pinv_hermitian's family.
			return b.skip("hermitian=True on a general input")
		}
		return b.pinv(a, b.pinvRcond(a))
	}, "atol", "rtol", "hermitian")
	m["pinv_hermitian"] = oracleUnaryFn(func(b *oracleBuilder, a trace.Var) trace.Var {
		// With hermitian=True PyTorch drops the eigenvalues of |λ| <= tol,
		// the singular values of the Hermitian A + Aᴴ.
		if !b.kwBool("hermitian", false) {
			return b.skip("hermitian=False")
		}
		return b.pinv(b.herm(a), b.pinvRcond(a))
	}, "atol", "rtol", "hermitian")
	m["cond"] = oracleOp{inputs: 1, args: 1, kwargs: []string{"p"}, build: func(b *oracleBuilder) trace.Var {
		// linalg.cond with p None or ±2: s_max/s_min (s_min/s_max) of
		// svdvals, the first and the last singular value.
		a := b.x[0]
		p, ok := b.arg(0)
		if !ok {
			p, ok = b.kw("p")
		}
		ord := "2"
		if ok {
			ord = strings.Trim(string(p), `"`)
		}
		if ord != "2" && ord != "-2" && ord != "2.0" && ord != "-2.0" {
			return b.skip("p=%s: a product of matrix norms", ord)
		}
		x := b.lib(a, 2)
		if b.err != nil {
			return trace.Var{}
		}
		s := b.p(b.tr.SVDVals(x)) // (k, batch...)
		if b.err != nil {
			return trace.Var{}
		}
		k := s.Shape()[0]
		if k == 0 {
			return b.skip("empty matrices")
		}
		hi, lo := b.take(s, 0, 0), b.take(s, 0, int64(k-1))
		if strings.HasPrefix(ord, "-") {
			hi, lo = lo, hi
		}
		y := b.bin((*trace.Trace).Div, hi, lo)
		if b.err != nil {
			return trace.Var{}
		}
		return b.p(b.tr.Reshape(y, y.Shape()[1:]...))
	}}
	m["tensorinv"] = oracleUnaryFn(func(b *oracleBuilder, a trace.Var) trace.Var {
		// The inverse of a as a (prod shape[:ind], prod shape[ind:])
		// matrix in row-major order, shaped shape[ind:] + shape[:ind].
		ind := int(b.kwFloat("ind", 2))
		s := a.Shape()
		if b.err != nil || ind <= 0 || ind >= len(s) {
			return b.skip("ind %d of %v", ind, s)
		}
		rows, cols := oracleNumel(s[:ind]), oracleNumel(s[ind:])
		if rows != cols {
			return b.skip("a %d×%d matrix", rows, cols)
		}
		y := b.inv(b.reshapeRM(a, rows, cols))
		return b.reshapeRM(y, append(slices.Clone(s[ind:]), s[:ind]...)...)
	}, "ind")
	m["tensorsolve"] = oracleBinaryFn(func(b *oracleBuilder, a, c trace.Var) trace.Var {
		// X of shape a.shape[b.ndim:] with tensordot(A, X, X.ndim) = B: a
		// as a (prod b.shape, prod of the rest) matrix in row-major order.
		if raw, ok := b.kw("dims"); ok {
			return b.skip("dims=%s", raw)
		}
		s, rows := a.Shape(), oracleNumel(c.Shape())
		if c.Rank() > a.Rank() || oracleNumel(s[c.Rank():]) != rows {
			return b.skip("a %v for b %v", s, c.Shape())
		}
		x := b.solve(b.reshapeRM(a, rows, rows), b.reshapeRM(c, rows), true)
		return b.reshapeRM(x, s[c.Rank():]...)
	}, "dims")
	m["lstsq_grad_oriented"] = oracleOp{inputs: 2, kwargs: []string{"driver"}, outs: func(b *oracleBuilder) []trace.Var {
		// linalg.lstsq(a, b, driver): the solution and the residuals. For
		// the full-rank inputs of the family every driver gives the
		// least-norm least-squares solution pinv(A)·B (rcond the default
		// eps·max(m, n), which drops no singular value); the residuals
		// Σ|A·X - B|² are computed when m > n and the driver is not
		// gelsy, an empty tensor otherwise.
		a, c := b.x[0], b.x[1]
		var driver string
		if raw, ok := b.kw("driver"); ok {
			b.decode(raw, &driver)
		}
		if !slices.Contains([]string{"gels", "gelsy", "gelsd", "gelss"}, driver) {
			return []trace.Var{b.skip("driver %q", driver)}
		}
		if c.Rank() != a.Rank() || !slices.Equal(c.Shape()[:c.Rank()-2], a.Shape()[:a.Rank()-2]) {
			return []trace.Var{b.skip("b %v for a %v", c.Shape(), a.Shape())}
		}
		x := b.matmuls(b.pinv(a, oracleDefaultRcond(a)), c)
		s := a.Shape()
		if s[len(s)-2] > s[len(s)-1] && driver != "gelsy" {
			return []trace.Var{x, b.residuals(a, x, c)}
		}
		return []trace.Var{x, b.constant(a.DType().Real(), []int{0}, nil)}
	}}
	m["householder_product"] = oracleBinaryFn(func(b *oracleBuilder, a, tau trace.Var) trace.Var { return b.householder(a, tau) })

	noLU := "no LU factorization in a trace"
	m["lu"] = oracleNoMapping(noLU)
	m["lu_factor"] = oracleNoMapping(noLU)
	m["lu_factor_ex"] = oracleNoMapping(noLU)
	m["lu_solve"] = oracleNoMapping("solves with packed LU factors whose row pivots the case does not store (no op_args)")
	noEig := "no general (non-Hermitian) eigendecomposition in a trace"
	m["eig"] = oracleNoMapping(noEig)
	m["eigvals"] = oracleNoMapping(noEig)
}
