package ad_test

import (
	"math"

	"github.com/tenferro-go/tenferro/trace"
)

// The elementwise operations of the op table: unary functions,
// activations and binary operations.

func init() {
	T := oracleUnary
	m := oracleOps
	// Elementwise unary operations of the catalog.
	m["abs"] = T((*trace.Trace).Abs)
	m["acos"] = T((*trace.Trace).Acos)
	m["asin"] = T((*trace.Trace).Asin)
	m["atan"] = T((*trace.Trace).Atan)
	m["cos"] = T((*trace.Trace).Cos)
	m["cosh"] = T((*trace.Trace).Cosh)
	m["exp"] = T((*trace.Trace).Exp)
	m["expm1"] = T((*trace.Trace).Expm1)
	m["log"] = T((*trace.Trace).Log)
	m["log1p"] = T((*trace.Trace).Log1p)
	m["neg"] = T((*trace.Trace).Negate)
	m["reciprocal"] = T((*trace.Trace).Reciprocal)
	m["rsqrt"] = T((*trace.Trace).Rsqrt)
	m["sigmoid"] = oracleUnaryFn(func(b *oracleBuilder, a trace.Var) trace.Var {
		if a.DType().IsComplex() {
			return b.skip("complex input: the library's Sigmoid takes real dtypes only")
		}
		return b.un((*trace.Trace).Sigmoid, a)
	})
	m["sin"] = T((*trace.Trace).Sin)
	m["sinh"] = T((*trace.Trace).Sinh)
	m["sqrt"] = T((*trace.Trace).Sqrt)
	m["square"] = T((*trace.Trace).Square)
	m["tan"] = T((*trace.Trace).Tan)
	m["tanh"] = T((*trace.Trace).Tanh)
	m["sign"] = T((*trace.Trace).Sign)
	m["sgn"] = T((*trace.Trace).Sign)
	m["real"] = T((*trace.Trace).Real)
	m["imag"] = T((*trace.Trace).Imag)
	m["angle"] = T((*trace.Trace).Angle)
	m["conj"] = T((*trace.Trace).Conj)
	m["conj_physical"] = T((*trace.Trace).Conj)
	m["floor"] = T((*trace.Trace).Floor)
	m["ceil"] = T((*trace.Trace).Ceil)
	m["round"] = T((*trace.Trace).Round)
	m["trunc"] = T((*trace.Trace).Trunc)
	m["positive"] = T((*trace.Trace).Copy)
	m["erf"] = T((*trace.Trace).Erf)
	m["erfc"] = T((*trace.Trace).Erfc)
	m["nn_functional_relu"] = T((*trace.Trace).Relu)

	// Scaled logarithms and exponentials, angle units.
	m["log2"] = oracleUnaryFn(func(b *oracleBuilder, a trace.Var) trace.Var {
		return b.scale(complex(1/math.Ln2, 0), b.un((*trace.Trace).Log, a))
	})
	m["log10"] = oracleUnaryFn(func(b *oracleBuilder, a trace.Var) trace.Var {
		return b.scale(complex(1/math.Ln10, 0), b.un((*trace.Trace).Log, a))
	})
	m["exp2"] = oracleUnaryFn(func(b *oracleBuilder, a trace.Var) trace.Var {
		return b.un((*trace.Trace).Exp, b.scale(complex(math.Ln2, 0), a))
	})
	m["rad2deg"] = oracleLinear(180 / math.Pi)
	m["deg2rad"] = oracleLinear(math.Pi / 180)

	// Rounding to decimals: round(x·10^d)/10^d (derivative 0).
	for name, d := range map[string]int{"round_decimals_0": 0, "round_decimals_3": 3, "round_decimals_neg_3": -3} {
		m[name] = oracleUnaryFn(func(b *oracleBuilder, a trace.Var) trace.Var {
			if dd := int(b.kwFloat("decimals", 0)); dd != d {
				return b.skip("decimals %d", dd)
			}
			if d == 0 {
				return b.un((*trace.Trace).Round, a)
			}
			p := math.Pow(10, float64(d))
			return b.scale(complex(1/p, 0), b.un((*trace.Trace).Round, b.scale(complex(p, 0), a)))
		}, "decimals")
	}
	m["frac"] = oracleUnaryFn(func(b *oracleBuilder, a trace.Var) trace.Var {
		return b.bin((*trace.Trace).Sub, a, b.un((*trace.Trace).Trunc, a))
	})
	m["fill"] = oracleUnaryFn(func(b *oracleBuilder, a trace.Var) trace.Var {
		raw, ok := b.kw("value")
		if !ok {
			return b.skip("no fill value")
		}
		v := b.float(raw)
		if b.err != nil {
			return trace.Var{}
		}
		return b.p(b.tr.Full(a.DType(), complex(v, 0), a.Shape()...))
	}, "value")
	m["double"] = oracleConvert("float64", map[string]func(b *oracleBuilder, a trace.Var) trace.Var{
		"float64":    oracleCopy,
		"complex128": func(b *oracleBuilder, a trace.Var) trace.Var { return b.un((*trace.Trace).Real, a) },
	})
	m["cdouble"] = oracleConvert("complex128", map[string]func(b *oracleBuilder, a trace.Var) trace.Var{
		"complex128": oracleCopy,
		"float64": func(b *oracleBuilder, a trace.Var) trace.Var {
			return b.bin((*trace.Trace).Complex, a, b.full(a, 0))
		},
	})

	// Activations, as PyTorch defines their values and derivatives.
	m["nn_functional_silu"] = oracleUnaryFn(func(b *oracleBuilder, a trace.Var) trace.Var {
		return b.bin((*trace.Trace).Mul, a, b.un((*trace.Trace).Sigmoid, a))
	})
	m["nn_functional_softsign"] = oracleUnaryFn(func(b *oracleBuilder, a trace.Var) trace.Var {
		// x/(1 + |x|), the denominator complex for complex x.
		den := b.un((*trace.Trace).Abs, a)
		den = b.bin((*trace.Trace).Add, den, b.full(den, 1))
		if a.DType().IsComplex() {
			den = b.bin((*trace.Trace).Complex, den, b.full(den, 0))
		}
		return b.bin((*trace.Trace).Div, a, den)
	})
	m["nn_functional_tanhshrink"] = oracleUnaryFn(func(b *oracleBuilder, a trace.Var) trace.Var {
		return b.bin((*trace.Trace).Sub, a, b.un((*trace.Trace).Tanh, a))
	})
	m["nn_functional_logsigmoid"] = oracleUnaryFn(func(b *oracleBuilder, a trace.Var) trace.Var {
		// log σ(x) = -log(1 + e^-x).
		return b.un((*trace.Trace).Negate, b.un((*trace.Trace).Log1p, b.un((*trace.Trace).Exp, b.un((*trace.Trace).Negate, a))))
	})
	m["nn_functional_softplus"] = oracleUnaryFn(func(b *oracleBuilder, a trace.Var) trace.Var {
		return b.softplus(a, b.kwFloat("beta", 1), b.kwFloat("threshold", 20))
	}, "beta", "threshold")
	m["nn_functional_mish"] = oracleUnaryFn(func(b *oracleBuilder, a trace.Var) trace.Var {
		// x·tanh(log(1 + e^x)), as PyTorch's kernel (no threshold).
		sp := b.un((*trace.Trace).Log1p, b.un((*trace.Trace).Exp, a))
		return b.bin((*trace.Trace).Mul, a, b.un((*trace.Trace).Tanh, sp))
	})
	m["nn_functional_elu"] = oracleUnaryFn(func(b *oracleBuilder, a trace.Var) trace.Var {
		return b.elu(a, b.kwFloat("alpha", 1), 1, 1)
	}, "alpha")
	m["nn_functional_celu"] = oracleUnaryFn(func(b *oracleBuilder, a trace.Var) trace.Var {
		alpha := b.kwFloat("alpha", 1)
		return b.elu(a, alpha, 1, 1/alpha)
	}, "alpha")
	m["nn_functional_selu"] = oracleUnaryFn(func(b *oracleBuilder, a trace.Var) trace.Var {
		return b.elu(a, 1.6732632423543772848170429916717, 1.0507009873554804934193349852946, 1)
	})
	m["nn_functional_hardshrink"] = oracleUnaryFn(func(b *oracleBuilder, a trace.Var) trace.Var {
		// x outside [-λ, λ], 0 inside (derivative 0 at ±λ).
		l := b.kwFloat("lambd", 0.5)
		out := b.bin((*trace.Trace).LogicalOr, b.cmp((*trace.Trace).Less, a, -l), b.cmp((*trace.Trace).Greater, a, l))
		return b.where(out, a, b.full(a, 0))
	}, "lambd")
	m["nn_functional_softshrink"] = oracleUnaryFn(func(b *oracleBuilder, a trace.Var) trace.Var {
		// x - λ above λ, x + λ below -λ, 0 between.
		l := b.kwFloat("lambd", 0.5)
		lo := b.where(b.cmp((*trace.Trace).Less, a, -l), b.bin((*trace.Trace).Add, a, b.full(a, complex(l, 0))), b.full(a, 0))
		return b.where(b.cmp((*trace.Trace).Greater, a, l), b.bin((*trace.Trace).Sub, a, b.full(a, complex(l, 0))), lo)
	}, "lambd")
	m["nn_functional_hardtanh"] = oracleUnaryFn(func(b *oracleBuilder, a trace.Var) trace.Var {
		return b.clamp(a, b.kwFloat("min_val", -1), b.kwFloat("max_val", 1))
	}, "min_val", "max_val")
	m["nn_functional_relu6"] = oracleUnaryFn(func(b *oracleBuilder, a trace.Var) trace.Var { return b.clamp(a, 0, 6) })
	m["nn_functional_hardsigmoid"] = oracleUnaryFn(func(b *oracleBuilder, a trace.Var) trace.Var {
		// relu6(x + 3)/6: derivative 1/6 strictly inside (-3, 3).
		return b.scale(complex(1.0/6, 0), b.clamp(b.bin((*trace.Trace).Add, a, b.full(a, 3)), 0, 6))
	})
	m["nn_functional_threshold"] = oracleOp{inputs: 1, args: 2, build: func(b *oracleBuilder) trace.Var {
		// value where x <= threshold, x elsewhere.
		th, ok1 := b.arg(0)
		v, ok2 := b.arg(1)
		if !ok1 || !ok2 {
			return b.skip("threshold and value missing")
		}
		a := b.x[0]
		return b.where(b.cmp((*trace.Trace).LessEqual, a, b.float(th)), b.full(a, complex(b.float(v), 0)), a)
	}}
	m["nn_functional_rrelu"] = oracleUnaryFn(func(b *oracleBuilder, a trace.Var) trace.Var {
		// In evaluation, leaky_relu with slope (lower + upper)/2; training
		// draws random slopes.
		if b.kwBool("training", false) {
			return b.skip("training=True draws random slopes")
		}
		slope := (b.kwFloat("lower", 1.0/8) + b.kwFloat("upper", 1.0/3)) / 2
		return b.where(b.cmp((*trace.Trace).Greater, a, 0), a, b.scale(complex(slope, 0), a))
	}, "lower", "upper", "training")
	m["nn_functional_prelu"] = oracleBinaryFn(func(b *oracleBuilder, a, w trace.Var) trace.Var {
		// x > 0 ? x : w·x, w along axis 1 (or a single weight).
		switch n := oracleNumel(w.Shape()); {
		case n == 1:
			w = b.p(b.tr.Reshape(w))
		case a.Rank() >= 2 && w.Rank() == 1 && n == a.Shape()[1]:
			s := make([]int, a.Rank())
			for i := range s {
				s[i] = 1
			}
			s[1] = n
			w = b.p(b.tr.Reshape(w, s...))
		default:
			return b.skip("weight %v for input %v", w.Shape(), a.Shape())
		}
		return b.where(b.cmp((*trace.Trace).Greater, a, 0), a, b.bin((*trace.Trace).Mul, w, a))
	})

	// Binary elementwise operations.
	m["add"] = oracleBinaryFn(func(b *oracleBuilder, a, c trace.Var) trace.Var {
		return b.bin((*trace.Trace).Add, a, b.alpha(c))
	}, "alpha")
	m["sub"] = oracleBinaryFn(func(b *oracleBuilder, a, c trace.Var) trace.Var {
		return b.bin((*trace.Trace).Sub, a, b.alpha(c))
	}, "alpha")
	m["rsub"] = oracleBinaryFn(func(b *oracleBuilder, a, c trace.Var) trace.Var {
		// rsub(a, b, alpha) = b - alpha·a.
		return b.bin((*trace.Trace).Sub, c, b.alpha(a))
	}, "alpha")
	m["mul"] = oracleBinary((*trace.Trace).Mul, false)
	m["div_no_rounding_mode"] = oracleBinary((*trace.Trace).Div, false)
	m["true_divide"] = oracleBinary((*trace.Trace).Div, false)
	m["pow"] = oracleBinary((*trace.Trace).Pow, false)
	m["float_power"] = oracleBinaryFn(func(b *oracleBuilder, a, c trace.Var) trace.Var {
		if b.c.DType != "float64" && b.c.DType != "complex128" {
			return b.skip("computes %s in double precision: the trace has no dtype conversion", b.c.DType)
		}
		return b.bin((*trace.Trace).Pow, a, c)
	})
	m["__radd__"] = oracleBinary((*trace.Trace).Add, true)
	m["__rsub__"] = oracleBinary((*trace.Trace).Sub, true)
	m["__rmul__"] = oracleBinary((*trace.Trace).Mul, true)
	m["__rdiv__"] = oracleBinary((*trace.Trace).Div, true)
	m["__rpow__"] = oracleBinary((*trace.Trace).Pow, true)
	m["atan2"] = oracleBinary((*trace.Trace).Atan2, false)
	m["hypot"] = oracleBinary((*trace.Trace).Hypot, false)
	m["maximum"] = oracleBinary((*trace.Trace).Maximum, false)
	m["minimum"] = oracleBinary((*trace.Trace).Minimum, false)
	m["max_binary"] = oracleBinary((*trace.Trace).Maximum, false)
	m["min_binary"] = oracleBinary((*trace.Trace).Minimum, false)
	m["complex"] = oracleBinary((*trace.Trace).Complex, false)
	// clamp_min(a, b) = max(a, b) with the tangent of a where a >= b (ties
	// included) and of b where a < b; clamp_max likewise with <=. fmax and
	// fmin take the same derivative (a wins ties) and agree where no
	// operand is NaN.
	m["clamp_min"] = oracleExtremum((*trace.Trace).GreaterEqual, false)
	m["clamp_max"] = oracleExtremum((*trace.Trace).LessEqual, false)
	m["fmax"] = oracleExtremum((*trace.Trace).GreaterEqual, true)
	m["fmin"] = oracleExtremum((*trace.Trace).LessEqual, true)
	m["ldexp"] = oracleBinaryFn(func(b *oracleBuilder, a, c trace.Var) trace.Var {
		// PyTorch's definition: a·2^b.
		return b.bin((*trace.Trace).Mul, a, b.bin((*trace.Trace).Pow, b.full(c, 2), c))
	})
	m["polar"] = oracleBinaryFn(func(b *oracleBuilder, r, th trace.Var) trace.Var {
		re := b.bin((*trace.Trace).Mul, r, b.un((*trace.Trace).Cos, th))
		im := b.bin((*trace.Trace).Mul, r, b.un((*trace.Trace).Sin, th))
		return b.bin((*trace.Trace).Complex, re, im)
	})
}

// alpha is c scaled by the alpha keyword (none: c itself).
func (b *oracleBuilder) alpha(c trace.Var) trace.Var {
	raw, ok := b.kw("alpha")
	if !ok {
		return c
	}
	return b.scale(complex(b.float(raw), 0), c)
}

// oracleLinear is alpha·a for a real alpha.
func oracleLinear(alpha float64) oracleOp {
	return oracleUnaryFn(func(b *oracleBuilder, a trace.Var) trace.Var { return b.scale(complex(alpha, 0), a) })
}

// oracleConvert is a PyTorch conversion to dtype to (Tensor.double,
// Tensor.cdouble): conv gives the recording for each input dtype it
// handles without a conversion (the trace has none); other inputs are
// skipped.
func oracleConvert(to string, conv map[string]func(b *oracleBuilder, a trace.Var) trace.Var) oracleOp {
	return oracleUnaryFn(func(b *oracleBuilder, a trace.Var) trace.Var {
		if f, ok := conv[b.c.DType]; ok {
			return f(b, a)
		}
		return b.skip("converts %s to %s: the trace has no dtype conversion", b.c.DType, to)
	}, "memory_format")
}

func oracleCopy(b *oracleBuilder, a trace.Var) trace.Var { return b.un((*trace.Trace).Copy, a) }

// oracleExtremum is clamp_min/clamp_max (and fmax/fmin on NaN-free data)
// with a tensor bound: Where(a OP c, a, c), the tangent of a where a OP c
// holds and of c elsewhere, as PyTorch's derivatives.
func oracleExtremum(f func(*trace.Trace, trace.Var, trace.Var) (trace.Var, error), nanFree bool) oracleOp {
	return oracleBinaryFn(func(b *oracleBuilder, a, c trace.Var) trace.Var {
		if nanFree && oracleHasNaN(b.c) {
			return b.skip("NaN inputs (fmax/fmin ignore NaN, Where does not)")
		}
		return b.where(b.bin(f, a, c), a, c)
	})
}

func oracleHasNaN(c *oracleCase) bool {
	for _, in := range c.Inputs {
		xs, _ := in.elems()
		for _, x := range xs {
			if math.IsNaN(real(x)) || math.IsNaN(imag(x)) {
				return true
			}
		}
	}
	return false
}

// clamp is PyTorch's hardtanh(x, lo, hi): lo for x <= lo, hi for
// x >= hi, x between, with derivative 1 strictly inside and 0 at and
// beyond the bounds (Clip passes the tangent at the bounds, so it is
// recorded with Where instead).
func (b *oracleBuilder) clamp(a trace.Var, lo, hi float64) trace.Var {
	inner := b.where(b.cmp((*trace.Trace).GreaterEqual, a, hi), b.full(a, complex(hi, 0)), a)
	return b.where(b.cmp((*trace.Trace).LessEqual, a, lo), b.full(a, complex(lo, 0)), inner)
}

// elu is PyTorch's elu: x > 0 ? scale·x : scale·alpha·(e^(inScale·x) - 1).
func (b *oracleBuilder) elu(a trace.Var, alpha, scale, inScale float64) trace.Var {
	neg := b.scale(complex(alpha, 0), b.un((*trace.Trace).Expm1, b.scale(complex(inScale, 0), a)))
	y := b.where(b.cmp((*trace.Trace).Greater, a, 0), a, neg)
	if scale != 1 {
		y = b.scale(complex(scale, 0), y)
	}
	return y
}

// softplus is PyTorch's: x where beta·x > threshold, log(1 + e^(beta·x))/beta
// elsewhere.
func (b *oracleBuilder) softplus(a trace.Var, beta, threshold float64) trace.Var {
	bx := b.scale(complex(beta, 0), a)
	sp := b.scale(complex(1/beta, 0), b.un((*trace.Trace).Log1p, b.un((*trace.Trace).Exp, bx)))
	return b.where(b.cmp((*trace.Trace).Greater, bx, threshold), a, sp)
}
