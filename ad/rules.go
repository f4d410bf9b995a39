package ad

import (
	"math"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/internal/op"
	"github.com/tenferro-go/tenferro/trace"
)

// jvpRule returns the tangent of node nd's result y (tape id, -1 for
// zero) from the primal arguments xs and their tangents ts (-1: zero; at
// least one is not).
type jvpRule func(b *builder, nd *trace.Node, xs []trace.Var, y trace.Var, ts []int) int

var jvpRules [op.NumKinds]jvpRule

func faultErr(b *builder, f *op.Fault) error {
	return &tf.Error{Op: b.name, Arg: f.Arg, Expected: f.Expected, Actual: f.Actual, Kind: f.Kind, Err: f.Err}
}

// holo is the rule of a unary function with derivative f'(x) = c(x, y):
// dy = c·dx (complex multiplication for holomorphic functions of complex
// inputs).
func holo(c func(b *builder, x, y trace.Var) trace.Var) jvpRule {
	return func(b *builder, nd *trace.Node, xs []trace.Var, y trace.Var, ts []int) int {
		return b.lmul(ts[0], c(b, xs[0], y))
	}
}

// quotient is the rule dy = dx / c(x, y).
func quotient(c func(b *builder, x, y trace.Var) trace.Var) jvpRule {
	return func(b *builder, nd *trace.Node, xs []trace.Var, y trace.Var, ts []int) int {
		return b.ldiv(ts[0], c(b, xs[0], y))
	}
}

// zero is the rule of a piecewise-constant function: derivative 0 (its
// subgradient at the jumps too).
func zero(*builder, *trace.Node, []trace.Var, trace.Var, []int) int { return -1 }

// linear is the rule of an operation linear in its first argument, the
// others fixed (indices, masks): the same operation on the tangent.
func linear(b *builder, nd *trace.Node, xs []trace.Var, y trace.Var, ts []int) int {
	a := nd.Attrs
	if nd.Op == op.Pad {
		a.Alpha = 0 // the pad value is a constant
	}
	return b.lop(nd.Op, a, ts[0], xs[1:]...)
}

// one is the 0-d constant 1 in x's dtype.
func (b *builder) one(x trace.Var) trace.Var { return b.scalarOf(x, 1) }

// mask is Where(m, 1, 0) in dt: a 0/1 weight.
func (b *builder) weight(m trace.Var, dt tf.DType) trace.Var {
	return b.ap(op.Where, op.Attrs{}, m, b.full(dt, 1), b.full(dt, 0))
}

// safe is Where(m, 0, x): x with the places m marks set to zero.
func (b *builder) safe(m, x trace.Var) trace.Var {
	return b.ap(op.Where, op.Attrs{}, m, b.scalarOf(x, 0), x)
}

// lift is x (real) as a complex value of the same precision.
func (b *builder) lift(x trace.Var) trace.Var {
	return b.bin(op.Complex, x, b.scalarOf(x, 0))
}

// llift is the tangent t (real) as a complex tangent.
func (b *builder) llift(t int, like trace.Var) int {
	if t < 0 {
		return -1
	}
	return b.emit(op.Complex, op.Attrs{}, lin(t), coef(b.full(b.tape[t].dt, 0)))
}

// lrealIf is Re(t) when complex, t itself otherwise.
func (b *builder) lrealIf(t int) int {
	if t < 0 || !b.tape[t].dt.IsComplex() {
		return t
	}
	return b.lun(op.Real, t)
}

func init() {
	r := &jvpRules
	for _, k := range []op.Kind{op.Copy, op.Contiguous, op.Negate, op.Permute, op.Reshape, op.Squeeze,
		op.Unsqueeze, op.Flatten, op.Split, op.Tile, op.Repeat, op.Pad, op.Tril, op.Triu, op.Roll,
		op.Diag, op.Take, op.Gather, op.MaskedSelect, op.Sum, op.Mean, op.CumSum, op.Scale} {
		r[k] = linear
	}
	for _, k := range []op.Kind{op.Floor, op.Ceil, op.Round, op.Trunc} {
		r[k] = zero
	}
	r[op.Conj] = func(b *builder, nd *trace.Node, xs []trace.Var, y trace.Var, ts []int) int {
		if !xs[0].DType().IsComplex() {
			return ts[0]
		}
		return b.lun(op.Conj, ts[0])
	}
	r[op.Sqrt] = quotient(func(b *builder, x, y trace.Var) trace.Var { return b.scale(2, y) })
	r[op.Rsqrt] = holo(func(b *builder, x, y trace.Var) trace.Var {
		return b.scale(-0.5, b.bin(op.Mul, y, b.un(op.Square, y)))
	})
	r[op.Square] = holo(func(b *builder, x, y trace.Var) trace.Var { return b.scale(2, x) })
	r[op.Reciprocal] = holo(func(b *builder, x, y trace.Var) trace.Var { return b.un(op.Negate, b.un(op.Square, y)) })
	r[op.Exp] = holo(func(b *builder, x, y trace.Var) trace.Var { return y })
	r[op.Expm1] = holo(func(b *builder, x, y trace.Var) trace.Var { return b.bin(op.Add, y, b.one(y)) })
	r[op.Log] = quotient(func(b *builder, x, y trace.Var) trace.Var { return x })
	r[op.Log1p] = quotient(func(b *builder, x, y trace.Var) trace.Var { return b.bin(op.Add, x, b.one(x)) })
	r[op.Sin] = holo(func(b *builder, x, y trace.Var) trace.Var { return b.un(op.Cos, x) })
	r[op.Cos] = holo(func(b *builder, x, y trace.Var) trace.Var { return b.un(op.Negate, b.un(op.Sin, x)) })
	r[op.Tan] = holo(func(b *builder, x, y trace.Var) trace.Var { return b.bin(op.Add, b.one(y), b.un(op.Square, y)) })
	r[op.Tanh] = holo(func(b *builder, x, y trace.Var) trace.Var { return b.bin(op.Sub, b.one(y), b.un(op.Square, y)) })
	r[op.Sinh] = holo(func(b *builder, x, y trace.Var) trace.Var { return b.un(op.Cosh, x) })
	r[op.Cosh] = holo(func(b *builder, x, y trace.Var) trace.Var { return b.un(op.Sinh, x) })
	r[op.Asin] = holo(func(b *builder, x, y trace.Var) trace.Var { return b.un(op.Rsqrt, b.oneMinusSquare(x)) })
	r[op.Acos] = holo(func(b *builder, x, y trace.Var) trace.Var {
		return b.un(op.Negate, b.un(op.Rsqrt, b.oneMinusSquare(x)))
	})
	r[op.Atan] = quotient(func(b *builder, x, y trace.Var) trace.Var { return b.bin(op.Add, b.one(x), b.un(op.Square, x)) })
	r[op.Sigmoid] = holo(func(b *builder, x, y trace.Var) trace.Var { return b.bin(op.Mul, y, b.bin(op.Sub, b.one(y), y)) })
	r[op.Relu] = func(b *builder, nd *trace.Node, xs []trace.Var, y trace.Var, ts []int) int {
		// Subgradient 0 at 0, as PyTorch.
		pos := b.bin(op.Greater, xs[0], b.scalarOf(xs[0], 0))
		return b.emit(op.Where, op.Attrs{}, coef(pos), lin(ts[0]), coef(b.scalarOf(xs[0], 0)))
	}
	r[op.Gelu] = holo(func(b *builder, x, y trace.Var) trace.Var {
		// Φ(x) + x·φ(x), Φ(x) = (1 + erf(x/√2))/2, φ(x) = e^(-x²/2)/√(2π).
		cdf := b.scale(0.5, b.bin(op.Add, b.one(x), b.un(op.Erf, b.scale(complex(1/math.Sqrt2, 0), x))))
		pdf := b.scale(complex(1/math.Sqrt(2*math.Pi), 0), b.un(op.Exp, b.scale(-0.5, b.un(op.Square, x))))
		return b.bin(op.Add, cdf, b.bin(op.Mul, x, pdf))
	})
	r[op.Erf] = holo(func(b *builder, x, y trace.Var) trace.Var {
		return b.scale(complex(2/math.Sqrt(math.Pi), 0), b.un(op.Exp, b.un(op.Negate, b.un(op.Square, x))))
	})
	r[op.Erfc] = holo(func(b *builder, x, y trace.Var) trace.Var {
		return b.scale(complex(-2/math.Sqrt(math.Pi), 0), b.un(op.Exp, b.un(op.Negate, b.un(op.Square, x))))
	})
	r[op.Clip] = func(b *builder, nd *trace.Node, xs []trace.Var, y trace.Var, ts []int) int {
		// The gradient passes where lo <= x <= hi (at the bounds too), as PyTorch's clamp.
		x := xs[0]
		lo, hi := b.scalarOf(x, nd.Attrs.Alpha), b.scalarOf(x, nd.Attrs.Beta)
		in := b.bin(op.LogicalAnd, b.bin(op.GreaterEqual, x, lo), b.bin(op.LessEqual, x, hi))
		return b.emit(op.Where, op.Attrs{}, coef(in), lin(ts[0]), coef(b.scalarOf(x, 0)))
	}
	r[op.Sign] = jvpSign
	r[op.Abs] = func(b *builder, nd *trace.Node, xs []trace.Var, y trace.Var, ts []int) int {
		// d|x| = Re(conj(sign x)·dx); subgradient 0 at 0.
		return b.lrealIf(b.lmul(ts[0], b.conj(b.un(op.Sign, xs[0]))))
	}
	r[op.Real] = func(b *builder, nd *trace.Node, xs []trace.Var, y trace.Var, ts []int) int {
		return b.lrealIf(ts[0])
	}
	r[op.Imag] = func(b *builder, nd *trace.Node, xs []trace.Var, y trace.Var, ts []int) int {
		if !xs[0].DType().IsComplex() {
			return -1
		}
		return b.lun(op.Imag, ts[0])
	}
	r[op.Angle] = func(b *builder, nd *trace.Node, xs []trace.Var, y trace.Var, ts []int) int {
		// d arg z = Im(dz / z); piecewise constant for reals.
		if !xs[0].DType().IsComplex() {
			return -1
		}
		return b.lun(op.Imag, b.ldiv(ts[0], xs[0]))
	}
	r[op.Convert] = jvpConvert
	r[op.GaugeCheck] = func(b *builder, nd *trace.Node, xs []trace.Var, y trace.Var, ts []int) int {
		return ts[0] // the identity on x; the check stays in the primal
	}
	initBinaryRules()
	initReductionRules()
	initLinalgRules()
}

func (b *builder) oneMinusSquare(x trace.Var) trace.Var {
	return b.bin(op.Sub, b.one(x), b.un(op.Square, x))
}

// jvpSign: 0 for reals; for complex z ≠ 0, d(z/|z|) = (dz - s·Re(conj(s)·dz))/|z|
// with s = z/|z|, and 0 at z = 0.
func jvpSign(b *builder, nd *trace.Node, xs []trace.Var, y trace.Var, ts []int) int {
	x := xs[0]
	if !x.DType().IsComplex() {
		return -1
	}
	abs := b.un(op.Abs, x)
	inv := b.lift(b.safe(b.bin(op.Equal, abs, b.scalarOf(abs, 0)), b.un(op.Reciprocal, abs)))
	radial := b.lmul(b.llift(b.lun(op.Real, b.lmul(ts[0], b.conj(y))), y), y)
	return b.lmul(b.lsub(ts[0], radial, x.Shape()), inv)
}

// jvpConvert: the conversion between floating and complex dtypes is
// linear (real to complex embeds, complex to real keeps the real part);
// to int64 or bool there is no tangent.
func jvpConvert(b *builder, nd *trace.Node, xs []trace.Var, y trace.Var, ts []int) int {
	if !differentiable(y.DType()) {
		return -1
	}
	return b.lop(op.Convert, nd.Attrs, ts[0])
}
