package ad

import (
	"fmt"

	"github.com/tenferro-go/tenferro/internal/op"
	"github.com/tenferro-go/tenferro/trace"
)

// The rules of the linear-algebra operations (matrices are the first two
// axes, batch axes after them). Tangents are written with matrix products,
// triangular solves and elementwise products, all linear tape operations;
// the transposes of the solves are solves with the adjoint matrix, and
// that of the Fréchet derivative of the exponential is the Fréchet
// derivative at the adjoint.

func (b *builder) mm(x, y trace.Var) trace.Var { return b.bin(op.Matmul, x, y) }

// lmm is t·c; rmm is c·t.
func (b *builder) lmm(t int, c trace.Var) int {
	if t < 0 {
		return -1
	}
	return b.emit(op.Matmul, op.Attrs{}, lin(t), coef(c))
}

func (b *builder) rmm(c trace.Var, t int) int {
	if t < 0 {
		return -1
	}
	return b.emit(op.Matmul, op.Attrs{}, coef(c), lin(t))
}

// ladjoint is the conjugate transpose of every matrix of t.
func (b *builder) ladjoint(t int) int {
	if t < 0 {
		return -1
	}
	perm := make([]int, len(b.tape[t].shape))
	for d := range perm {
		perm[d] = d
	}
	perm[0], perm[1] = 1, 0
	t = b.lop(op.Permute, op.Attrs{Axes: perm}, t)
	if b.tape[t].dt.IsComplex() {
		t = b.lun(op.Conj, t)
	}
	return t
}

// ltri is Tril (lower) or Triu of t at diagonal k.
func (b *builder) ltri(lower bool, t, k int) int {
	kind := op.Triu
	if lower {
		kind = op.Tril
	}
	return b.lop(kind, op.Attrs{Ints: []int{k}}, t)
}

// lherm is the Hermitian matrix a Hermitian operation reads from the
// tangent t: its strictly lower triangle reflected (upper when upper) and
// the real part of its diagonal.
func (b *builder) lherm(t int, upper bool) int {
	k := -1
	if upper {
		k = 1
	}
	off := b.ltri(!upper, t, k)
	return b.sum(off, b.ladjoint(off), b.lrealDiag(t))
}

// lrealDiag is the diagonal part of every matrix of t with its real
// part alone.
func (b *builder) lrealDiag(t int) int {
	d := b.ltri(true, b.ltri(false, t, 0), 0)
	if b.tape[t].dt.IsComplex() {
		d = b.lscale(0.5, b.emit(op.Add, op.Attrs{}, lin(d), lin(b.lun(op.Conj, d))))
	}
	return d
}

// ldiag is the diagonal of every matrix of t, (n, batch...).
func (b *builder) ldiag(t int) int {
	return b.lop(op.Einsum, op.Attrs{Subscripts: "ii...->i..."}, t)
}

// ltrace is the trace of every matrix of t, (batch...).
func (b *builder) ltrace(t int) int {
	return b.lop(op.Einsum, op.Attrs{Subscripts: "ii...->..."}, t)
}

// lsolve is A⁻¹·t.
func (b *builder) lsolve(a trace.Var, t int) int {
	if t < 0 {
		return -1
	}
	return b.emit(op.Solve, op.Attrs{}, coef(a), lin(t))
}

// ltrisolve is A⁻¹·t (left) or t·A⁻¹, A triangular (upper or lower).
func (b *builder) ltrisolve(a trace.Var, t int, upper, left bool) int {
	if t < 0 {
		return -1
	}
	return b.emit(op.SolveTriangular, op.Attrs{Ints: []int{flagOf(upper), flagOf(left), 0}}, coef(a), lin(t))
}

func flagOf(x bool) int {
	if x {
		return 1
	}
	return 0
}

// lorentz is d/(d² + ε²): 1/d broadened where |d| is near ε or below it.
func (b *builder) lorentz(d trace.Var) trace.Var {
	eps := b.full(d.DType(), complex(b.eps*b.eps, 0))
	return b.bin(op.Div, d, b.bin(op.Add, b.un(op.Square, d), eps))
}

// asRow is the vector v (k, batch...) as a (1, k, batch...) row; asCol
// as a (k, 1, batch...) column.
func (b *builder) asRow(v trace.Var) trace.Var {
	return b.reshape(v, append([]int{1}, v.Shape()...))
}

func (b *builder) asCol(v trace.Var) trace.Var {
	s := v.Shape()
	return b.reshape(v, append([]int{s[0], 1}, s[1:]...))
}

// liftLike is the real x as a value of like's dtype (complex or real).
func (b *builder) liftLike(x, like trace.Var) trace.Var {
	if like.DType().IsComplex() {
		return b.lift(x)
	}
	return x
}

func initLinalgRules() {
	r := &jvpRules
	r[op.Inv] = func(b *builder, nd *trace.Node, xs []trace.Var, y trace.Var, ts []int) int {
		// d(A⁻¹) = -A⁻¹·dA·A⁻¹.
		return b.lun(op.Negate, b.lmm(b.rmm(y, ts[0]), y))
	}
	r[op.Det] = func(b *builder, nd *trace.Node, xs []trace.Var, y trace.Var, ts []int) int {
		// d det A = det A · tr(A⁻¹·dA).
		return b.lmul(b.ltrace(b.lsolve(xs[0], ts[0])), y)
	}
	r[op.SlogDetLogAbs] = func(b *builder, nd *trace.Node, xs []trace.Var, y trace.Var, ts []int) int {
		// d log|det A| = Re tr(A⁻¹·dA).
		return b.lrealIf(b.ltrace(b.lsolve(xs[0], ts[0])))
	}
	r[op.SlogDetSign] = func(b *builder, nd *trace.Node, xs []trace.Var, y trace.Var, ts []int) int {
		// d sign = sign · i·Im tr(A⁻¹·dA) (constant for reals).
		if !y.DType().IsComplex() {
			return -1
		}
		im := b.lun(op.Imag, b.ltrace(b.lsolve(xs[0], ts[0])))
		rot := b.emit(op.Complex, op.Attrs{}, coef(b.full(b.tape[im].dt, 0)), lin(im))
		return b.lmul(rot, y)
	}
	r[op.Expm] = func(b *builder, nd *trace.Node, xs []trace.Var, y trace.Var, ts []int) int {
		return b.emit(kExpmFrechet, op.Attrs{}, coef(xs[0]), lin(ts[0]))
	}
	r[op.Solve] = func(b *builder, nd *trace.Node, xs []trace.Var, y trace.Var, ts []int) int {
		// dX = A⁻¹·(dB - dA·X).
		return b.lsolve(xs[0], b.lsub(ts[1], b.lmm(ts[0], y), y.Shape()))
	}
	r[op.SolveTriangular] = jvpSolveTriangular
	r[op.Cholesky] = jvpCholesky
	r[op.EighValues] = func(b *builder, nd *trace.Node, xs []trace.Var, y trace.Var, ts []int) int {
		// dw = Re diag(Vᴴ·dA·V).
		v := b.ap(op.EighVectors, nd.Attrs, xs[0])
		return b.lrealIf(b.ldiag(b.eighM(xs[0], v, ts[0], nd)))
	}
	r[op.EighVectors] = func(b *builder, nd *trace.Node, xs []trace.Var, y trace.Var, ts []int) int {
		// dV = V·(F ∘ Vᴴ·dA·V), F_ij = 1/(w_j - w_i) broadened, F_ii = 0.
		w := b.ap(op.EighValues, nd.Attrs, xs[0])
		f := b.lorentz(b.bin(op.Sub, b.asRow(w), b.asCol(w)))
		return b.rmm(y, b.lmul(b.eighM(xs[0], y, ts[0], nd), b.liftLike(f, y)))
	}
	r[op.SVDS] = func(b *builder, nd *trace.Node, xs []trace.Var, y trace.Var, ts []int) int {
		u, vh := b.ap(op.SVDU, op.Attrs{}, xs[0]), b.ap(op.SVDVh, op.Attrs{}, xs[0])
		return b.lrealIf(b.ldiag(b.svdP(u, vh, ts[0])))
	}
	r[op.SVDU] = func(b *builder, nd *trace.Node, xs []trace.Var, y trace.Var, ts []int) int {
		return b.svdU(xs[0], ts[0])
	}
	r[op.SVDVh] = func(b *builder, nd *trace.Node, xs []trace.Var, y trace.Var, ts []int) int {
		return b.svdVh(xs[0], ts[0])
	}
	r[op.QRQ] = func(b *builder, nd *trace.Node, xs []trace.Var, y trace.Var, ts []int) int {
		dq, _ := b.qr(xs[0], ts[0], nd.Attrs)
		return dq
	}
	r[op.QRR] = func(b *builder, nd *trace.Node, xs []trace.Var, y trace.Var, ts []int) int {
		_, dr := b.qr(xs[0], ts[0], nd.Attrs)
		return dr
	}
	r[op.Pinv] = jvpPinv
}

// eighM is Vᴴ·dA_h·V for the Hermitian tangent dA_h the decomposition
// reads from dA.
func (b *builder) eighM(a, v trace.Var, t int, nd *trace.Node) int {
	upper := len(nd.Attrs.Ints) > 0 && nd.Attrs.Ints[0] == 1
	return b.shared(fmt.Sprint("eighM", t, upper), func() int {
		return b.lmm(b.rmm(b.adjoint(v), b.lherm(t, upper)), v)
	})
}

// shared returns the tape value key names, emitting it with make the
// first time: the factors of one decomposition share the linear terms
// their rules have in common (Uᴴ·dA·V for U, S and Vh; Vᴴ·dA·V for w and
// V; the QR tangents for Q and R), so that the tape holds them once and
// the reverse pass computes them once.
func (b *builder) shared(key string, make func() int) int {
	if b.memo == nil {
		b.memo = map[string]int{}
	}
	if l, ok := b.memo[key]; ok {
		return l
	}
	l := make()
	b.memo[key] = l
	return l
}

func jvpSolveTriangular(b *builder, nd *trace.Node, xs []trace.Var, y trace.Var, ts []int) int {
	// The triangle read: dA_t = tri(dA) (strictly when unit);
	// left: dX = A⁻¹·(dB - dA_t·X), right: dX = (dB - X·dA_t)·A⁻¹.
	f := nd.Attrs.Ints
	upper, left, unit := f[0] == 1, f[1] == 1, f[2] == 1
	k := 0
	if unit {
		k = 1
		if !upper {
			k = -1
		}
	}
	da := b.ltri(!upper, ts[0], k)
	var prod int
	if left {
		prod = b.lmm(da, y)
	} else {
		prod = b.rmm(y, da)
	}
	rhs := b.lsub(ts[1], prod, y.Shape())
	return b.emit(op.SolveTriangular, op.Attrs{Ints: []int{f[0], f[1], f[2]}}, coef(xs[0]), lin(rhs))
}

// jvpCholesky: with L the lower factor and dA_h the Hermitian tangent read,
// dL = L·Φ(L⁻¹·dA_h·L⁻ᴴ), Φ the lower triangle with the diagonal halved; for
// the upper factor U = Lᴴ, dU = dLᴴ.
func jvpCholesky(b *builder, nd *trace.Node, xs []trace.Var, y trace.Var, ts []int) int {
	upper := nd.Attrs.Ints[0] == 1
	l := y
	if upper {
		l = b.adjoint(y)
	}
	x := b.ltrisolve(b.adjoint(l), b.ltrisolve(l, b.lherm(ts[0], upper), false, true), true, false)
	phi := b.lscale(0.5, b.emit(op.Add, op.Attrs{}, lin(b.ltri(true, x, 0)), lin(b.ltri(true, x, -1))))
	dl := b.rmm(l, phi)
	if upper {
		return b.ladjoint(dl)
	}
	return dl
}

// svdP is Uᴴ·dA·V.
func (b *builder) svdP(u, vh trace.Var, t int) int {
	return b.shared(fmt.Sprint("svdP", t), func() int { return b.lmm(b.rmm(b.adjoint(u), t), b.adjoint(vh)) })
}

// svdF is F_ij = 1/(s_j² - s_i²), broadened factor by factor:
// lorentz(s_j - s_i)·lorentz(s_j + s_i), so that F_ii = 0.
func (b *builder) svdF(s trace.Var) trace.Var {
	row, col := b.asRow(s), b.asCol(s)
	return b.bin(op.Mul, b.lorentz(b.bin(op.Sub, row, col)), b.lorentz(b.bin(op.Add, row, col)))
}

// svdU: dU = U·(F ∘ (dP·S + S·dPᴴ)) + U·diag(i·Im dP_ii / s_i) + (dA·V - U·dP)·S⁻¹,
// the phase of each singular pair carried by U (Vᴴ·dV has a zero diagonal).
func (b *builder) svdU(a trace.Var, t int) int {
	u, s, vh := b.ap(op.SVDU, op.Attrs{}, a), b.ap(op.SVDS, op.Attrs{}, a), b.ap(op.SVDVh, op.Attrs{}, a)
	v := b.adjoint(vh)
	dp := b.svdP(u, vh, t)
	sRow, sCol := b.liftLike(b.asRow(s), u), b.liftLike(b.asCol(s), u)
	sym := b.emit(op.Add, op.Attrs{}, lin(b.lmul(dp, sRow)), lin(b.lmul(b.ladjoint(dp), sCol)))
	inner := b.lmul(sym, b.liftLike(b.svdF(s), u))
	inv := b.liftLike(b.asRow(b.lorentz(s)), u)
	if u.DType().IsComplex() {
		im := b.lun(op.Imag, b.ldiag(dp))
		phase := b.emit(op.Complex, op.Attrs{}, coef(b.full(b.tape[im].dt, 0)), lin(im))
		phase = b.lop(op.Einsum, op.Attrs{Subscripts: "i...->ii..."}, phase)
		inner = b.emit(op.Add, op.Attrs{}, lin(inner), lin(b.lmul(phase, inv)))
	}
	du := b.rmm(u, inner)
	if m, k := a.Shape()[0], u.Shape()[1]; m > k {
		rest := b.lmul(b.lsub(b.lmm(t, v), b.rmm(u, dp), u.Shape()), inv)
		du = b.emit(op.Add, op.Attrs{}, lin(du), lin(rest))
	}
	return du
}

// svdVh: dV = V·(F ∘ (S·dP + dPᴴ·S)) + (dAᴴ·U - V·dPᴴ)·S⁻¹ and dVh = dVᴴ.
func (b *builder) svdVh(a trace.Var, t int) int {
	u, s, vh := b.ap(op.SVDU, op.Attrs{}, a), b.ap(op.SVDS, op.Attrs{}, a), b.ap(op.SVDVh, op.Attrs{}, a)
	v := b.adjoint(vh)
	dp := b.svdP(u, vh, t)
	dph := b.ladjoint(dp)
	sRow, sCol := b.liftLike(b.asRow(s), u), b.liftLike(b.asCol(s), u)
	sym := b.emit(op.Add, op.Attrs{}, lin(b.lmul(dp, sCol)), lin(b.lmul(dph, sRow)))
	dv := b.rmm(v, b.lmul(sym, b.liftLike(b.svdF(s), u)))
	if n, k := a.Shape()[1], vh.Shape()[0]; n > k {
		inv := b.liftLike(b.asRow(b.lorentz(s)), u)
		rest := b.lmul(b.lsub(b.lmm(b.ladjoint(t), u), b.rmm(v, dph), v.Shape()), inv)
		dv = b.emit(op.Add, op.Attrs{}, lin(dv), lin(rest))
	}
	return b.ladjoint(dv)
}

// qr returns the tangents of Q and R. For m >= n, with Y = dA·R⁻¹ and X =
// Qᴴ·Y: D = X - Ω, Ω = Qᴴ·dQ skew-Hermitian with the lower part of X below
// its diagonal and i·Im X_ii on it (diag R stays real), so D = triu(X, 1)
// + tril(X, -1)ᴴ + Re diag X; dR = D·R and dQ = Y - Q·D. For m < n, A =
// [A₁ A₂] with A₁ square: Q and R₁ from A₁ as above, dR₂ = dQᴴ·A₂ + Qᴴ·dA₂.
func (b *builder) qr(a trace.Var, t int, attrs op.Attrs) (dq, dr int) {
	dr = b.shared(fmt.Sprint("qrR", t, attrs.Ints), func() int {
		dq, dr = b.qrTangents(a, t, attrs)
		b.memo[fmt.Sprint("qrQ", t, attrs.Ints)] = dq
		return dr
	})
	return b.memo[fmt.Sprint("qrQ", t, attrs.Ints)], dr
}

// qrTangents computes the tangents of Q and R (see qr).
func (b *builder) qrTangents(a trace.Var, t int, attrs op.Attrs) (dq, dr int) {
	q, r := b.ap(op.QRQ, attrs, a), b.ap(op.QRR, attrs, a)
	m, n := a.Shape()[0], a.Shape()[1]
	t1, r1 := t, r
	var a2 trace.Var
	t2 := -1
	if m < n {
		t1 = b.lslice(t, 1, 0, m)
		t2 = b.lslice(t, 1, m, n)
		r1 = b.slice(r, 1, 0, m)
		a2 = b.slice(a, 1, m, n)
	}
	y := b.ltrisolve(r1, t1, true, false)
	x := b.rmm(b.adjoint(q), y)
	d := b.emit(op.Add, op.Attrs{}, lin(b.ltri(false, x, 1)), lin(b.ladjoint(b.ltri(true, x, -1))))
	d = b.emit(op.Add, op.Attrs{}, lin(d), lin(b.lrealDiag(x)))
	dr = b.lmm(d, r1)
	dq = b.lsub(y, b.rmm(q, d), q.Shape())
	if m < n {
		dr2 := b.emit(op.Add, op.Attrs{}, lin(b.lmm(b.ladjoint(dq), a2)), lin(b.rmm(b.adjoint(q), t2)))
		dr = b.emit(op.Concatenate, op.Attrs{Axes: []int{1}}, lin(dr), lin(dr2))
	}
	return dq, dr
}

// lslice is t[start:stop] along axis ax.
func (b *builder) lslice(t, ax, start, stop int) int {
	return b.lop(op.Split, op.Attrs{Axes: []int{ax}, Ints: []int{start, stop}}, t)
}

// jvpPinv: for A⁺ = P of constant rank,
// dP = -P·dA·P + P·Pᴴ·(dAᴴ - dAᴴ·A·P) + (dAᴴ - P·A·dAᴴ)·Pᴴ·P.
func jvpPinv(b *builder, nd *trace.Node, xs []trace.Var, y trace.Var, ts []int) int {
	a, p := xs[0], y
	ph := b.adjoint(p)
	dah := b.ladjoint(ts[0])
	t1 := b.lun(op.Negate, b.lmm(b.rmm(p, ts[0]), p))
	t2 := b.rmm(b.mm(p, ph), b.lsub(dah, b.lmm(dah, b.mm(a, p)), ph.Shape()))
	t3 := b.lmm(b.lsub(dah, b.rmm(b.mm(p, a), dah), ph.Shape()), b.mm(ph, p))
	return b.sum(t1, t2, t3)
}

// frechet is the Fréchet derivative of the exponential at A along E: the
// upper right block of exp([[A, E], [0, A]]).
func (b *builder) frechet(a, e trace.Var) trace.Var {
	n := a.Shape()[0]
	z := b.zeros(a.DType(), a.Shape())
	top := b.ap(op.Concatenate, op.Attrs{Axes: []int{1}}, a, e)
	bottom := b.ap(op.Concatenate, op.Attrs{Axes: []int{1}}, z, a)
	x := b.un(op.Expm, b.ap(op.Concatenate, op.Attrs{Axes: []int{0}}, top, bottom))
	return b.slice(b.slice(x, 0, 0, n), 1, n, 2*n)
}

func initLinalgTransposes() {
	t := &transposeRules
	t[op.Solve] = func(b *builder, n *linNode, ct trace.Var, i int) (trace.Var, bool) {
		return b.bin(op.Solve, b.adjoint(n.args[0].v), ct), true
	}
	t[op.SolveTriangular] = func(b *builder, n *linNode, ct trace.Var, i int) (trace.Var, bool) {
		f := n.attrs.Ints
		return b.ap(op.SolveTriangular, op.Attrs{Ints: []int{1 - f[0], f[1], f[2]}}, b.adjoint(n.args[0].v), ct), true
	}
	t[kExpmFrechet] = func(b *builder, n *linNode, ct trace.Var, i int) (trace.Var, bool) {
		return b.frechet(b.adjoint(n.args[0].v), ct), true
	}
}
