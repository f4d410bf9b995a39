package ad

import (
	"math"
	"slices"

	"github.com/tenferro-go/tenferro/internal/op"
	"github.com/tenferro-go/tenferro/trace"
)

// The rules of the reductions and scans. Each reduction's tangent is
// Σ_axes c·dx for a coefficient c of x's shape (Sum and Mean are linear
// themselves).

// keep is y (x reduced over axes) reshaped with those axes kept at extent
// 1, so that it broadcasts against x.
func (b *builder) keep(y trace.Var, xshape, axes []int) trace.Var {
	s := slices.Clone(xshape)
	for _, d := range axes {
		s[d] = 1
	}
	return b.reshape(y, s)
}

// reduced is Σ_axes t·c.
func (b *builder) reduced(t int, c trace.Var, axes []int) int {
	return b.lop(op.Sum, op.Attrs{Axes: slices.Clone(axes)}, b.lmul(t, c))
}

func initReductionRules() {
	r := &jvpRules
	r[op.Prod] = func(b *builder, nd *trace.Node, xs []trace.Var, y trace.Var, ts []int) int {
		return b.reduced(ts[0], b.othersProduct(xs[0], y, nd.Attrs.Axes), nd.Attrs.Axes)
	}
	r[op.Var] = jvpVar
	r[op.Std] = func(b *builder, nd *trace.Node, xs []trace.Var, y trace.Var, ts []int) int {
		// d std = d var / (2 std), 0 where std = 0.
		c := b.safe(b.bin(op.Equal, y, b.scalarOf(y, 0)), b.un(op.Reciprocal, b.scale(2, y)))
		return b.lmul(jvpVar(b, nd, xs, y, ts), c)
	}
	extremum := func(b *builder, nd *trace.Node, xs []trace.Var, y trace.Var, ts []int) int {
		// The tangent of the extreme elements, averaged over ties.
		x, axes := xs[0], nd.Attrs.Axes
		w := b.weight(b.bin(op.Equal, x, b.keep(y, x.Shape(), axes)), x.DType())
		cnt := b.keep(b.ap(op.Sum, op.Attrs{Axes: slices.Clone(axes)}, w), x.Shape(), axes)
		return b.reduced(ts[0], b.bin(op.Div, w, cnt), axes)
	}
	r[op.Max], r[op.Min] = extremum, extremum
	r[op.LogSumExp] = func(b *builder, nd *trace.Node, xs []trace.Var, y trace.Var, ts []int) int {
		// The softmax weights e^(x - y).
		x, axes := xs[0], nd.Attrs.Axes
		return b.reduced(ts[0], b.un(op.Exp, b.bin(op.Sub, x, b.keep(y, x.Shape(), axes))), axes)
	}
	r[op.Norm] = jvpNorm
	r[op.CumProd] = func(b *builder, nd *trace.Node, xs []trace.Var, y trace.Var, ts []int) int {
		// dy_k = y_k Σ_{j<=k} dx_j/x_j (undefined where x has zeros).
		cs := b.lop(op.CumSum, nd.Attrs, b.ldiv(ts[0], xs[0]))
		return b.lmul(cs, y)
	}
}

// othersProduct is, for every element x_i of x, c_i = Π_{j≠i} x_j over
// its reduction set (axes), without dividing by zero and with a correct
// derivative (so that second derivatives of Prod are right): with y the
// product, z the number of zeros in the set and P the product of its
// non-zero elements,
//
//	x_i ≠ 0:          c_i = y / x_i
//	x_i = 0, z = 1:   c_i = P
//	x_i = 0, z = 2:   c_i = P·(S - x_i), S the sum of the set's zeros (the other zero)
//	x_i = 0, z >= 3:  c_i = 0
//
// Each branch has the value and the first derivative of Π_{j≠i} x_j.
func (b *builder) othersProduct(x, y trace.Var, axes []int) trace.Var {
	s := x.Shape()
	ax := op.Attrs{Axes: slices.Clone(axes)}
	zero, one := b.scalarOf(x, 0), b.one(x)
	isZero := b.bin(op.Equal, x, zero)
	safe := b.ap(op.Where, op.Attrs{}, isZero, one, x)
	z := b.keep(b.ap(op.Sum, ax, b.weight(isZero, x.DType().Real())), s, axes)
	p := b.keep(b.ap(op.Prod, ax, safe), s, axes)
	zeros := b.ap(op.Where, op.Attrs{}, isZero, x, zero)
	other := b.bin(op.Sub, b.keep(b.ap(op.Sum, ax, zeros), s, axes), x)
	count := func(n float64) trace.Var { return b.bin(op.Equal, z, b.scalarOf(z, complex(n, 0))) }
	atZero := b.ap(op.Where, op.Attrs{}, count(1), p,
		b.ap(op.Where, op.Attrs{}, count(2), b.bin(op.Mul, p, other), zero))
	return b.ap(op.Where, op.Attrs{}, isZero, atZero, b.bin(op.Div, b.keep(y, s, axes), safe))
}

// jvpVar: d var = 2/(n - ddof)·Re Σ conj(x - mean)·dx (the mean's own
// tangent drops out since Σ (x - mean) = 0).
func jvpVar(b *builder, nd *trace.Node, xs []trace.Var, y trace.Var, ts []int) int {
	x, axes := xs[0], nd.Attrs.Axes
	n := 1
	for _, d := range axes {
		n *= x.Shape()[d]
	}
	dev := b.bin(op.Sub, x, b.keep(b.ap(op.Mean, op.Attrs{Axes: slices.Clone(axes)}, x), x.Shape(), axes))
	t := b.lrealIf(b.reduced(ts[0], b.conj(dev), axes))
	return b.lscale(complex(2/(float64(n)-real(nd.Attrs.Alpha)), 0), t)
}

// jvpNorm: for a finite order p ≠ 0, d‖x‖_p = Re Σ (|x|/‖x‖)^(p-1)·conj(sign x)·dx,
// 0 where x = 0; for p = ±Inf the tangent of the extreme magnitudes,
// averaged over ties; for p = 0 (a count) zero.
func jvpNorm(b *builder, nd *trace.Node, xs []trace.Var, y trace.Var, ts []int) int {
	x, axes, p := xs[0], nd.Attrs.Axes, real(nd.Attrs.Alpha)
	if p == 0 {
		return -1
	}
	abs := b.un(op.Abs, x)
	sign := b.conj(b.un(op.Sign, x))
	yk := b.keep(y, x.Shape(), axes)
	var w trace.Var
	if math.IsInf(p, 0) {
		m := b.weight(b.bin(op.Equal, abs, yk), abs.DType())
		cnt := b.keep(b.ap(op.Sum, op.Attrs{Axes: slices.Clone(axes)}, m), x.Shape(), axes)
		w = b.bin(op.Div, m, cnt)
	} else {
		w = b.bin(op.Pow, b.bin(op.Div, abs, yk), b.full(abs.DType(), complex(p-1, 0)))
		w = b.safe(b.bin(op.Equal, abs, b.scalarOf(abs, 0)), w)
	}
	if x.DType().IsComplex() {
		w = b.lift(w)
	}
	return b.lrealIf(b.reduced(ts[0], b.bin(op.Mul, w, sign), axes))
}
