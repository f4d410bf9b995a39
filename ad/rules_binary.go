package ad

import (
	"github.com/tenferro-go/tenferro/internal/op"
	"github.com/tenferro-go/tenferro/trace"
)

// The rules of the operations with several tensor arguments: binary
// elementwise operations, Where, the contractions and the structural and
// indexing operations that join or scatter.

// orZero is tangent t as an operand, or a zero coefficient of x's dtype
// and shape when t is zero.
func (b *builder) orZero(t int, x trace.Var) arg {
	if t >= 0 {
		return lin(t)
	}
	return coef(b.zeros(x.DType(), x.Shape()))
}

// orScalarZero is orZero with a 0-d zero (for operations that broadcast).
func (b *builder) orScalarZero(t int, x trace.Var) arg {
	if t >= 0 {
		return lin(t)
	}
	return coef(b.scalarOf(x, 0))
}

func initBinaryRules() {
	r := &jvpRules
	r[op.Add] = func(b *builder, nd *trace.Node, xs []trace.Var, y trace.Var, ts []int) int {
		return b.ladd(ts[0], ts[1], y.Shape())
	}
	r[op.Sub] = func(b *builder, nd *trace.Node, xs []trace.Var, y trace.Var, ts []int) int {
		return b.lsub(ts[0], ts[1], y.Shape())
	}
	r[op.Mul] = func(b *builder, nd *trace.Node, xs []trace.Var, y trace.Var, ts []int) int {
		return b.ladd(b.lmul(ts[0], xs[1]), b.lmul(ts[1], xs[0]), y.Shape())
	}
	r[op.Div] = func(b *builder, nd *trace.Node, xs []trace.Var, y trace.Var, ts []int) int {
		// d(a/b) = da/b - (y/b)·db.
		var tb int = -1
		if ts[1] >= 0 {
			tb = b.lmul(ts[1], b.un(op.Negate, b.bin(op.Div, y, xs[1])))
		}
		return b.ladd(b.ldiv(ts[0], xs[1]), tb, y.Shape())
	}
	r[op.Pow] = jvpPow
	r[op.Maximum] = jvpExtremum(op.Greater)
	r[op.Minimum] = jvpExtremum(op.Less)
	r[op.Atan2] = func(b *builder, nd *trace.Node, xs []trace.Var, y trace.Var, ts []int) int {
		// d atan2(a, b) = (b·da - a·db)/(a² + b²).
		a, c := xs[0], xs[1]
		den := b.bin(op.Add, b.un(op.Square, a), b.un(op.Square, c))
		var ta, tc int = -1, -1
		if ts[0] >= 0 {
			ta = b.lmul(ts[0], b.bin(op.Div, c, den))
		}
		if ts[1] >= 0 {
			tc = b.lmul(ts[1], b.un(op.Negate, b.bin(op.Div, a, den)))
		}
		return b.ladd(ta, tc, y.Shape())
	}
	r[op.Hypot] = func(b *builder, nd *trace.Node, xs []trace.Var, y trace.Var, ts []int) int {
		// d hypot(a, b) = (a·da + b·db)/hypot(a, b).
		var ta, tc int = -1, -1
		if ts[0] >= 0 {
			ta = b.lmul(ts[0], b.bin(op.Div, xs[0], y))
		}
		if ts[1] >= 0 {
			tc = b.lmul(ts[1], b.bin(op.Div, xs[1], y))
		}
		return b.ladd(ta, tc, y.Shape())
	}
	r[op.Complex] = func(b *builder, nd *trace.Node, xs []trace.Var, y trace.Var, ts []int) int {
		t := b.emit(op.Complex, op.Attrs{}, b.orScalarZero(ts[0], xs[0]), b.orScalarZero(ts[1], xs[1]))
		return b.broadcast(t, y.Shape())
	}
	r[op.Where] = func(b *builder, nd *trace.Node, xs []trace.Var, y trace.Var, ts []int) int {
		t := b.emit(op.Where, op.Attrs{}, coef(xs[0]), b.orScalarZero(ts[1], xs[1]), b.orScalarZero(ts[2], xs[2]))
		return b.broadcast(t, y.Shape())
	}
	r[op.Matmul] = func(b *builder, nd *trace.Node, xs []trace.Var, y trace.Var, ts []int) int {
		var ta, tb int = -1, -1
		if ts[0] >= 0 {
			ta = b.emit(op.Matmul, op.Attrs{}, lin(ts[0]), coef(xs[1]))
		}
		if ts[1] >= 0 {
			tb = b.emit(op.Matmul, op.Attrs{}, coef(xs[0]), lin(ts[1]))
		}
		return b.ladd(ta, tb, y.Shape())
	}
	r[op.Einsum] = jvpEinsum
	joined := func(b *builder, nd *trace.Node, xs []trace.Var, y trace.Var, ts []int) int {
		args := make([]arg, len(xs))
		for i, x := range xs {
			args[i] = b.orZero(ts[i], x)
		}
		return b.emit(nd.Op, nd.Attrs, args...)
	}
	r[op.Concatenate], r[op.Stack] = joined, joined
	r[op.ScatterAdd] = func(b *builder, nd *trace.Node, xs []trace.Var, y trace.Var, ts []int) int {
		if ts[2] < 0 {
			return ts[0] // the scattered values are constant
		}
		return b.emit(op.ScatterAdd, nd.Attrs, b.orZero(ts[0], xs[0]), coef(xs[1]), lin(ts[2]))
	}
}

// jvpPow: d(a^b) = b·a^(b-1)·da + log(a)·a^b·db, each term 0 where it is
// the limit of the function's derivative rather than NaN: the first where
// b = 0, the second where a = 0 (and b >= 0 for reals), as PyTorch.
func jvpPow(b *builder, nd *trace.Node, xs []trace.Var, y trace.Var, ts []int) int {
	a, e := xs[0], xs[1]
	zero := b.scalarOf(a, 0)
	var ta, te int = -1, -1
	if ts[0] >= 0 {
		c := b.bin(op.Mul, e, b.bin(op.Pow, a, b.bin(op.Sub, e, b.one(e))))
		ta = b.lmul(ts[0], b.safe(b.bin(op.Equal, e, zero), c))
	}
	if ts[1] >= 0 {
		c := b.bin(op.Mul, b.un(op.Log, a), y)
		m := b.bin(op.Equal, a, zero)
		if !a.DType().IsComplex() {
			m = b.bin(op.LogicalAnd, m, b.bin(op.GreaterEqual, e, zero))
		}
		te = b.lmul(ts[1], b.safe(m, c))
	}
	return b.ladd(ta, te, y.Shape())
}

// jvpExtremum is the rule of Maximum (strict Greater) and Minimum (Less):
// the tangent of the operand chosen, the mean of both at ties (PyTorch's
// convention).
func jvpExtremum(strict op.Kind) jvpRule {
	return func(b *builder, nd *trace.Node, xs []trace.Var, y trace.Var, ts []int) int {
		a, c := xs[0], xs[1]
		dt := a.DType()
		wa := b.ap(op.Where, op.Attrs{}, b.bin(strict, a, c), b.full(dt, 1),
			b.ap(op.Where, op.Attrs{}, b.bin(op.Equal, a, c), b.full(dt, 0.5), b.full(dt, 0)))
		var ta, tc int = -1, -1
		if ts[0] >= 0 {
			ta = b.lmul(ts[0], wa)
		}
		if ts[1] >= 0 {
			tc = b.lmul(ts[1], b.bin(op.Sub, b.one(wa), wa))
		}
		return b.ladd(ta, tc, y.Shape())
	}
}
