package lapack

import (
	"math"

	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
	"github.com/tenferro-go/tenferro/internal/par"
)

// Householder reflectors H = I − τ·v·vᴴ, with v[0] = 1, and blocks of them
// in the compact WY form H1·H2···Hk = I − V·T·Vᴴ (Schreiber and Van Loan),
// V unit lower trapezoidal and T upper triangular. H is unitary when
// 2·Re τ = |τ|²·‖v‖², as Larfg's τ are, and then Hᴴ = I − conj(τ)·v·vᴴ.

// Larfg generates an elementary reflector H = I − τ·v·vᴴ of order n with
//
//	Hᴴ·[α; x] = [β; 0],  v = [1; u],
//
// β real, τ = 0 when x = 0 and α is real (H = I), and otherwise
// 1 ≤ Re τ ≤ 2 and |τ − 1| ≤ 1, as LAPACK's ?larfg. x is the n−1 elements
// x[off+i*inc]; they are overwritten with u. It returns β (as a T with zero
// imaginary part) and τ. The norm of x is computed with scaling, and when
// |β| is below the safe minimum (the least normal number over ε) x and α
// are scaled up before u is formed, so that neither overflows nor
// underflows. NaN in x or α gives NaN in β and τ.
func Larfg[T Scalar](n int, alpha T, x []T, off, inc int) (beta, tau T) {
	if n <= 0 {
		return alpha, 0
	}
	xnorm := nrm2(x, off, n-1, inc)
	a := toC128(alpha)
	ar, ai := real(a), imag(a)
	if xnorm == 0 && ai == 0 {
		return alpha, 0
	}
	b := -math.Copysign(math.Hypot(math.Hypot(ar, ai), xnorm), ar)
	sfmin := safeMin[T]()
	knt := 0
	if math.Abs(b) < sfmin {
		// β underflows: scale x and α up (at most 20 times, as LAPACK).
		rs := fromReal[T](1 / sfmin)
		for {
			knt++
			scaleVec(x, off, n-1, inc, rs)
			b, ar, ai = b/sfmin, ar/sfmin, ai/sfmin
			if !(math.Abs(b) < sfmin) || knt >= 20 {
				break
			}
		}
		xnorm = nrm2(x, off, n-1, inc)
		b = -math.Copysign(math.Hypot(math.Hypot(ar, ai), xnorm), ar)
	}
	t := complex((b-ar)/b, -ai/b)
	scaleVec(x, off, n-1, inc, fromC128[T](1/(complex(ar, ai)-complex(b, 0))))
	for ; knt > 0; knt-- {
		b *= sfmin
	}
	return fromReal[T](b), fromC128[T](t)
}

// safeMin returns LAPACK's safe minimum for T's precision over its unit
// roundoff: the least |β| for which 1/(α − β) does not overflow.
func safeMin[T Scalar]() float64 {
	var z T
	switch any(z).(type) {
	case float32, complex64:
		return 0x1p-126 / 0x1p-24
	}
	return 0x1p-1022 / 0x1p-53
}

// nrm2 returns the Euclidean norm of the n elements x[off+i*inc], without
// overflow or harmful underflow: the plain sum of squares in float64 when it
// is in range (always, for float32 and complex64), and otherwise the sum of
// squares of the elements scaled by a power of two near their largest part.
func nrm2[T Scalar](x []T, off, n, inc int) float64 {
	s := sumAbsSq(x, off, n, inc)
	if s >= 0x1p-960 && s <= 0x1p960 || s != s {
		return math.Sqrt(s)
	}
	amax := 0.0
	for i := 0; i < n; i++ {
		z := toC128(x[off+i*inc])
		amax = max(amax, math.Abs(real(z)), math.Abs(imag(z)))
	}
	if amax == 0 || math.IsInf(amax, 1) || amax != amax {
		return amax
	}
	_, e := math.Frexp(amax)
	s = 0
	for i := 0; i < n; i++ {
		z := toC128(x[off+i*inc])
		re, im := math.Ldexp(real(z), -e), math.Ldexp(imag(z), -e)
		s += re*re + im*im
	}
	return math.Ldexp(math.Sqrt(s), e)
}

// scaleVec sets x[off+i*inc] *= s over n elements.
func scaleVec[T Scalar](x []T, off, n, inc int, s T) {
	if inc == 1 {
		for i := range x[off : off+n] {
			x[off+i] *= s
		}
		return
	}
	for i := 0; i < n; i++ {
		x[off+i*inc] *= s
	}
}

// Larf applies the elementary reflector H = I − τ·v·vᴴ to the m×n matrix
// C in place: C = H·C (side Left, v of length m) or C = C·H (side Right, v
// of length n), where v is the elements v[off+i*inc], all read (v[off] is
// 1 for a reflector from [Larfg], but Larf does not assume it). Pass conj(τ)
// to apply Hᴴ. v must not overlap C. It runs unblocked on the caller and
// allocates nothing; blocks of reflectors are applied faster by [Larfb].
func Larf[T Scalar](side Side, m, n int, v []T, off, inc int, tau T, c gemm.Mat[T]) {
	if m <= 0 || n <= 0 || tau == 0 {
		return
	}
	if side == Left {
		larfLeft(false, m, n, v[off], v, off+inc, inc, tau, c)
		return
	}
	// C·H = (Hᵀ·Cᵀ)ᵀ with Hᵀ = I − τ·conj(v)·conj(v)ᴴ.
	larfLeft(true, n, m, v[off], v, off+inc, inc, tau, transpose(c))
}

// larfLeft computes C = (I − τ·w·wᴴ)·C for the m×n C, where w = [v0; u],
// u the m−1 elements v[off+i*inc], and w is conj of that when cv. For each
// column: d = wᴴ·c, c −= τ·d·w.
func larfLeft[T Scalar](cv bool, m, n int, v0 T, v []T, off, inc int, tau T, c gemm.Mat[T]) {
	cw0 := v0
	if !cv {
		cw0 = conj(v0)
	}
	if c.CS == 1 && c.RS != 1 {
		for j := 0; j < n; j += larfRowChunk {
			larfLeftRows(cv, m, min(larfRowChunk, n-j), v0, v, off, inc, tau, shift(c, 0, j))
		}
		return
	}
	for j := 0; j < n; j++ {
		o := c.Off + j*c.CS
		d := cw0*c.Data[o] + dot(!cv, m-1, v, off, inc, c.Data, o+c.RS, c.RS)
		if d == 0 {
			continue
		}
		td := tau * d
		w0 := v0
		if cv {
			w0 = conj(v0)
		}
		c.Data[o] -= td * w0
		axpy(cv, m-1, -td, v, off, inc, c.Data, o+c.RS, c.RS)
	}
}

// larfRowChunk is the number of columns of a row-oriented C that
// larfLeftRows updates at a time, its d held on the stack.
const larfRowChunk = 16

// larfLeftRows is larfLeft for a row-oriented C (CS = 1) of at most
// larfRowChunk columns: d = wᴴ·C and C −= τ·w·d accumulate row by row,
// along the contiguous rows of the storage.
func larfLeftRows[T Scalar](cv bool, m, n int, v0 T, v []T, off, inc int, tau T, c gemm.Mat[T]) {
	var db [larfRowChunk]T
	d := db[:n]
	w := func(i int) T {
		x := v0
		if i > 0 {
			x = v[off+(i-1)*inc]
		}
		if cv {
			x = conj(x)
		}
		return x
	}
	for i := 0; i < m; i++ {
		cw := conj(w(i))
		row := c.Data[c.Off+i*c.RS:][:n]
		for j, x := range row {
			d[j] += cw * x
		}
	}
	for j := range d {
		d[j] *= tau
	}
	for i := 0; i < m; i++ {
		wi := -w(i)
		row := c.Data[c.Off+i*c.RS:][:n]
		for j, x := range d {
			row[j] += wi * x
		}
	}
}

// dot returns Σ op(x_i)·y_i over n elements, op conjugating when cx.
func dot[T Scalar](cx bool, n int, x []T, xo, xi int, y []T, yo, yi int) T {
	switch p := any(&x).(type) {
	case *[]complex128:
		return any(dotC(cx, n, *p, xo, xi, any(y).([]complex128), yo, yi)).(T)
	case *[]complex64:
		return any(dotC(cx, n, *p, xo, xi, any(y).([]complex64), yo, yi)).(T)
	}
	var s T
	if xi == 1 && yi == 1 {
		ys := y[yo : yo+n]
		for i, v := range x[xo : xo+n] {
			s += v * ys[i]
		}
		return s
	}
	for i := 0; i < n; i++ {
		s += x[xo+i*xi] * y[yo+i*yi]
	}
	return s
}

func dotC[C complex64 | complex128](cx bool, n int, x []C, xo, xi int, y []C, yo, yi int) C {
	var sr, si float64
	sg := 1.0
	if cx {
		sg = -1
	}
	for i := 0; i < n; i++ {
		a, b := complex128(x[xo+i*xi]), complex128(y[yo+i*yi])
		ar, ai := real(a), sg*imag(a)
		sr += ar*real(b) - ai*imag(b)
		si += ar*imag(b) + ai*real(b)
	}
	return C(complex(sr, si))
}

// axpy sets y_i += α·op(x_i) over n elements, op conjugating when cx.
func axpy[T Scalar](cx bool, n int, alpha T, x []T, xo, xi int, y []T, yo, yi int) {
	if cx && isComplex[T]() {
		for i := 0; i < n; i++ {
			y[yo+i*yi] += alpha * conj(x[xo+i*xi])
		}
		return
	}
	if xi == 1 && yi == 1 {
		ys := y[yo : yo+n]
		for i, v := range x[xo : xo+n] {
			ys[i] += alpha * v
		}
		return
	}
	for i := 0; i < n; i++ {
		y[yo+i*yi] += alpha * x[xo+i*xi]
	}
}

// Larft forms the k×k upper triangular factor T of the block reflector
//
//	H1·H2···Hk = I − V·T·Vᴴ,  Hi = I − τi·vi·viᴴ,
//
// where V is m×k (m ≥ k) unit lower trapezoidal, its columns vi stored
// below the diagonal of v (the diagonal and the upper triangle are not
// read), as [Geqrf] leaves them. T's strict lower triangle is set to zero.
// Column i of T is −τi·T[0:i,0:i]·V[:,0:i]ᴴ·vi; the products V[:,0:i]ᴴ·vi
// for all i are one Vᴴ·V through gemm.Gemm. ws's scratch holds a copy of V
// (two for complex types); t must not overlap v.
func Larft[T Scalar](ws *Workspace, r par.Runner, m, k int, v gemm.Mat[T], tau []T, t gemm.Mat[T]) {
	if k <= 0 {
		return
	}
	var rb reflBlock[T]
	rb.init(scratch[T](ws, reflSize[T](m, k, 0)), m, k, 0)
	rb.load(ws, r, m, k, v, tau, false)
	for j := 0; j < k; j++ {
		for i := 0; i < k; i++ {
			t.Data[t.Off+i*t.RS+j*t.CS] = rb.t.Data[i+j*k]
		}
	}
}

// Larfb applies the block reflector H = I − V·T·Vᴴ, or Hᴴ, to the m×n
// matrix C in place:
//
//	side Left:  C = H·C or Hᴴ·C   (V m×k)
//	side Right: C = C·H or C·Hᴴ   (V n×k)
//
// for op NoTrans or ConjTrans (Trans is read as ConjTrans). V is unit lower
// trapezoidal, stored below the diagonal of v as [Geqrf] leaves it (the
// diagonal and the upper triangle are not read), and T is the k×k upper
// triangular factor from [Larft] (its lower triangle is not read). C must
// not overlap v or t. The work is two products with V through gemm.Gemm
// and one with T; ws's scratch holds copies of V and T and two k×n (Left)
// or m×k (Right) products.
func Larfb[T Scalar](ws *Workspace, r par.Runner, side Side, op Op, m, n, k int, v, t gemm.Mat[T], c gemm.Mat[T]) {
	if m <= 0 || n <= 0 || k <= 0 {
		return
	}
	mv, nc := m, n
	if side == Right {
		mv, nc = n, m
	}
	var rb reflBlock[T]
	rb.init(scratch[T](ws, reflSize[T](mv, k, nc)), mv, k, nc)
	rb.copyV(mv, k, v, false)
	for j := 0; j < k; j++ {
		for i := 0; i < k; i++ {
			var x T
			if i <= j {
				x = t.Data[t.Off+i*t.RS+j*t.CS]
			}
			rb.t.Data[i+j*k] = x
		}
	}
	rb.conjT()
	rb.apply(ws, r, side, op, m, n, c)
}

// reflBlock holds a block reflector H = I − V·T·Vᴴ explicitly in scratch,
// column-major: V (mv×k, unit diagonal, zeros above it), conj(V), T (k×k,
// zeros below the diagonal), conj(T), and two product buffers w1, w2. For
// real types the conjugates share the storage of V and T.
type reflBlock[T Scalar] struct {
	mv, k   int
	v, vc   gemm.Mat[T]
	t, tc   gemm.Mat[T]
	bufs    [4][]T // backing for v, vc, t, tc at their largest
	wbuf    [2][]T
	complex bool
}

// reflSize returns the scratch length reflBlock.init needs for V up to
// mv×k and products up to k×nc (or nc×k).
func reflSize[T Scalar](mv, k, nc int) int {
	n := mv*k + k*k + 2*k*nc
	if isComplex[T]() {
		n += mv*k + k*k
	}
	return n
}

// init carves rb's buffers from s (of length reflSize(mv, k, nc)).
func (rb *reflBlock[T]) init(s []T, mv, k, nc int) {
	rb.complex = isComplex[T]()
	take := func(n int) []T {
		b := s[:n:n]
		s = s[n:]
		return b
	}
	rb.bufs[0] = take(mv * k)
	rb.bufs[2] = take(k * k)
	if rb.complex {
		rb.bufs[1] = take(mv * k)
		rb.bufs[3] = take(k * k)
	} else {
		rb.bufs[1], rb.bufs[3] = rb.bufs[0], rb.bufs[2]
	}
	rb.wbuf[0] = take(k * nc)
	rb.wbuf[1] = take(k * nc)
}

// copyV sets rb.v and rb.vc to the mv×k unit lower trapezoidal V stored
// below the diagonal of a, conjugated when cv (LQ reflectors are stored
// conjugated).
func (rb *reflBlock[T]) copyV(mv, k int, a gemm.Mat[T], cv bool) {
	rb.mv, rb.k = mv, k
	rb.v = gemm.Mat[T]{Data: rb.bufs[0][:mv*k], RS: 1, CS: mv}
	rb.vc = gemm.Mat[T]{Data: rb.bufs[1][:mv*k], RS: 1, CS: mv}
	rb.t = gemm.Mat[T]{Data: rb.bufs[2][:k*k], RS: 1, CS: k}
	rb.tc = gemm.Mat[T]{Data: rb.bufs[3][:k*k], RS: 1, CS: k}
	for j := 0; j < k; j++ {
		col := rb.v.Data[j*mv : (j+1)*mv]
		clear(col[:j])
		col[j] = 1
		if a.RS == 1 {
			copy(col[j+1:], a.Data[a.Off+j*a.CS+j+1:][:mv-j-1])
		} else {
			o := a.Off + j*a.CS
			for i := j + 1; i < mv; i++ {
				col[i] = a.Data[o+i*a.RS]
			}
		}
		if cv {
			conjVec(col, j+1, mv-j-1, 1)
		}
		if rb.complex {
			cc := rb.vc.Data[j*mv : (j+1)*mv]
			copy(cc, col)
			conjVec(cc, j+1, mv-j-1, 1)
		}
	}
}

// load copies V from a (conjugated when cv) and forms T from τ as [Larft]
// does: S = Vᴴ·V by gemm.Gemm into T's storage, then column by column
// T[0:i, i] = −τi·T[0:i, 0:i]·S[0:i, i] in place and T[i, i] = τi.
func (rb *reflBlock[T]) load(ws *Workspace, r par.Runner, mv, k int, a gemm.Mat[T], tau []T, cv bool) {
	rb.copyV(mv, k, a, cv)
	tt := rb.t.Data
	gemm.Gemm(&ws.Gemm, r, k, k, mv, 1, transpose(rb.vc), rb.v, 0, rb.t)
	for i := 0; i < k; i++ {
		ti := tau[i]
		ci := tt[i*k : (i+1)*k]
		for p := 0; p < i; p++ {
			var s T
			for q := p; q < i; q++ {
				s += tt[p+q*k] * ci[q]
			}
			ci[p] = -ti * s
		}
		ci[i] = ti
		clear(ci[i+1:])
	}
	rb.conjT()
}

// conjT sets rb.tc = conj(rb.t) (nothing for real types).
func (rb *reflBlock[T]) conjT() {
	if rb.complex {
		copy(rb.tc.Data, rb.t.Data)
		conjVec(rb.tc.Data, 0, len(rb.tc.Data), 1)
	}
}

// apply computes C = op(H)·C (Left, C m×n with m = rb.mv) or C = C·op(H)
// (Right, n = rb.mv) for op NoTrans or ConjTrans:
//
//	Left:  W1 = Vᴴ·C,  W2 = op(T)·W1,  C −= V·W2
//	Right: W1 = C·V,   W2 = W1·op(T),  C −= W2·Vᴴ
func (rb *reflBlock[T]) apply(ws *Workspace, r par.Runner, side Side, op Op, m, n int, c gemm.Mat[T]) {
	k := rb.k
	tm := rb.t
	if op != NoTrans {
		tm = transpose(rb.tc)
	}
	if side == Left {
		w1 := gemm.Mat[T]{Data: rb.wbuf[0][:k*n], RS: 1, CS: k}
		w2 := gemm.Mat[T]{Data: rb.wbuf[1][:k*n], RS: 1, CS: k}
		gemm.Gemm(&ws.Gemm, r, k, n, m, 1, transpose(rb.vc), c, 0, w1)
		gemm.Gemm(&ws.Gemm, r, k, n, k, 1, tm, w1, 0, w2)
		gemmC(ws, r, m, n, k, -1, rb.v, w2, c)
		return
	}
	w1 := gemm.Mat[T]{Data: rb.wbuf[0][:m*k], RS: 1, CS: m}
	w2 := gemm.Mat[T]{Data: rb.wbuf[1][:m*k], RS: 1, CS: m}
	gemm.Gemm(&ws.Gemm, r, m, k, n, 1, c, rb.v, 0, w1)
	gemm.Gemm(&ws.Gemm, r, m, k, k, 1, w1, tm, 0, w2)
	gemmC(ws, r, m, n, k, -1, w2, transpose(rb.vc), c)
}
