package ad_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/trace"
)

// The op table of the oracle runner: how each PyTorch op of the database
// (by its OpInfo name) is recorded on a trace. An op is mapped only where
// the library computes the same function with the same derivative,
// subgradients at kinks included; PyTorch ops that are compositions by
// definition (ldexp = a·2^b, silu = x·σ(x), ...) are recorded as that
// composition. Every op missing here is skipped as not in the library.

// oracleOp records one op.
type oracleOp struct {
	inputs int      // the number of tensor inputs (0: any)
	kwargs []string // the op_kwargs the mapping reads; a case with others is skipped
	args   int      // the number of op_args the mapping reads
	build  func(b *oracleBuilder) trace.Var
}

// oracleBuilder records the op of one case on a trace; the first error
// sticks and makes every later step a no-op (an oracleSkip error skips the
// case).
type oracleBuilder struct {
	tr  *trace.Trace
	c   *oracleCase
	x   []trace.Var // the inputs, in the order of their names
	err error
}

// unmapped returns why the case uses arguments m does not read ("" if
// none).
func (b *oracleBuilder) unmapped(m oracleOp) string {
	if m.inputs > 0 && len(b.x) != m.inputs {
		return fmt.Sprintf("%d inputs, the mapping takes %d", len(b.x), m.inputs)
	}
	var extra []string
	for k, v := range b.c.OpKwargs {
		if !slices.Contains(m.kwargs, k) {
			extra = append(extra, k+"="+string(v))
		}
	}
	if len(extra) > 0 {
		sort.Strings(extra)
		return "op_kwargs " + strings.Join(extra, ", ") + " not mapped"
	}
	if len(b.c.OpArgs) > m.args {
		return fmt.Sprintf("%d op_args, the mapping reads %d", len(b.c.OpArgs), m.args)
	}
	return ""
}

func (b *oracleBuilder) p(v trace.Var, err error) trace.Var {
	if err != nil && b.err == nil {
		b.err = err
	}
	return v
}

func (b *oracleBuilder) skip(format string, args ...any) trace.Var {
	if b.err == nil {
		b.err = oracleSkip(fmt.Sprintf(format, args...))
	}
	return trace.Var{}
}

// kw returns the keyword argument name unless it is absent or null.
func (b *oracleBuilder) kw(name string) (json.RawMessage, bool) {
	v, ok := b.c.OpKwargs[name]
	if !ok || string(bytes.TrimSpace(v)) == "null" {
		return nil, false
	}
	return v, true
}

// arg returns positional argument i unless it is absent or null.
func (b *oracleBuilder) arg(i int) (json.RawMessage, bool) {
	if i >= len(b.c.OpArgs) || string(bytes.TrimSpace(b.c.OpArgs[i])) == "null" {
		return nil, false
	}
	return b.c.OpArgs[i], true
}

func (b *oracleBuilder) decode(raw json.RawMessage, v any) {
	if err := json.Unmarshal(raw, v); err != nil && b.err == nil {
		b.err = fmt.Errorf("argument %s: %w", raw, err)
	}
}

func (b *oracleBuilder) float(raw json.RawMessage) float64 {
	if raw[0] == 't' || raw[0] == 'f' {
		var v bool
		b.decode(raw, &v)
		if v {
			return 1
		}
		return 0
	}
	var f oracleNum
	b.decode(raw, &f)
	return float64(f)
}

// kwFloat is keyword argument name as a number, def when absent.
func (b *oracleBuilder) kwFloat(name string, def float64) float64 {
	if raw, ok := b.kw(name); ok {
		return b.float(raw)
	}
	return def
}

func (b *oracleBuilder) kwBool(name string, def bool) bool {
	if raw, ok := b.kw(name); ok {
		var v bool
		b.decode(raw, &v)
		return v
	}
	return def
}

// axes reads a dim argument (an int or a list; absent: every axis) for a
// tensor of the given rank, as non-negative axes. A rank-0 tensor has no
// axes to reduce (PyTorch accepts dim 0 and -1 for it).
func (b *oracleBuilder) axes(raw json.RawMessage, present bool, rank int) []int {
	if !present || rank == 0 {
		return nil
	}
	var dims []int
	if bytes.HasPrefix(bytes.TrimSpace(raw), []byte("[")) {
		b.decode(raw, &dims)
	} else {
		var d int
		b.decode(raw, &d)
		dims = []int{d}
	}
	for i, d := range dims {
		if d < 0 {
			dims[i] = d + rank
		}
	}
	return dims
}

// keep reshapes y, x reduced over axes (none: every axis), to x's rank
// with those axes of extent 1, when keepdim is set.
func (b *oracleBuilder) keep(y trace.Var, x trace.Var, axes []int, keepdim bool) trace.Var {
	if !keepdim || b.err != nil {
		return y
	}
	s := slices.Clone(x.Shape())
	for d := range s {
		if len(axes) == 0 || slices.Contains(axes, d) {
			s[d] = 1
		}
	}
	return b.p(b.tr.Reshape(y, s...))
}

// full is the 0-d constant x in like's dtype.
func (b *oracleBuilder) full(like trace.Var, x complex128) trace.Var {
	if b.err != nil {
		return trace.Var{}
	}
	return b.p(b.tr.Full(like.DType(), x))
}

// index is a 1-D int64 constant.
func (b *oracleBuilder) index(ix ...int64) trace.Var {
	if b.err != nil {
		return trace.Var{}
	}
	v, err := tf.FromSlice(ix, len(ix))
	if err != nil {
		return b.p(trace.Var{}, err)
	}
	return b.p(b.tr.Const(tf.ValueOf(v)))
}

func (b *oracleBuilder) un(f func(*trace.Trace, trace.Var) (trace.Var, error), a trace.Var) trace.Var {
	if b.err != nil {
		return trace.Var{}
	}
	return b.p(f(b.tr, a))
}

func (b *oracleBuilder) bin(f func(*trace.Trace, trace.Var, trace.Var) (trace.Var, error), a, c trace.Var) trace.Var {
	if b.err != nil {
		return trace.Var{}
	}
	return b.p(f(b.tr, a, c))
}

func (b *oracleBuilder) scale(alpha complex128, a trace.Var) trace.Var {
	if b.err != nil {
		return trace.Var{}
	}
	return b.p(b.tr.Scale(alpha, a))
}

func (b *oracleBuilder) where(m, x, y trace.Var) trace.Var {
	if b.err != nil {
		return trace.Var{}
	}
	return b.p(b.tr.Where(m, x, y))
}

func (b *oracleBuilder) einsum(sub string, xs ...trace.Var) trace.Var {
	if b.err != nil {
		return trace.Var{}
	}
	return b.p(b.tr.Einsum(sub, xs...))
}

func (b *oracleBuilder) take(a trace.Var, axis int, ix ...int64) trace.Var {
	idx := b.index(ix...)
	if b.err != nil {
		return trace.Var{}
	}
	return b.p(b.tr.Take(a, axis, idx))
}

// cmp is x OP c for a real scalar c.
func (b *oracleBuilder) cmp(f func(*trace.Trace, trace.Var, trace.Var) (trace.Var, error), x trace.Var, c float64) trace.Var {
	return b.bin(f, x, b.full(x, complex(c, 0)))
}

// constant is the tensor of dtype dt holding the row-major elements.
func (b *oracleBuilder) constant(dt tf.DType, shape []int, rowMajor []complex128) trace.Var {
	if b.err != nil {
		return trace.Var{}
	}
	v, err := oracleValueOf(dt, shape, rowMajor)
	if err != nil {
		return b.p(trace.Var{}, err)
	}
	return b.p(b.tr.Const(v))
}

// The constructors of table entries.

func oracleUnary(f func(*trace.Trace, trace.Var) (trace.Var, error)) oracleOp {
	return oracleOp{inputs: 1, build: func(b *oracleBuilder) trace.Var { return b.un(f, b.x[0]) }}
}

func oracleUnaryFn(f func(b *oracleBuilder, a trace.Var) trace.Var, kwargs ...string) oracleOp {
	return oracleOp{inputs: 1, kwargs: kwargs, build: func(b *oracleBuilder) trace.Var { return f(b, b.x[0]) }}
}

// oracleBinary records f(a, b), or f(b, a) for PyTorch's reflected
// operators (__rsub__(a, b) is b - a).
func oracleBinary(f func(*trace.Trace, trace.Var, trace.Var) (trace.Var, error), reflected bool) oracleOp {
	return oracleOp{inputs: 2, build: func(b *oracleBuilder) trace.Var {
		if reflected {
			return b.bin(f, b.x[1], b.x[0])
		}
		return b.bin(f, b.x[0], b.x[1])
	}}
}

func oracleBinaryFn(f func(b *oracleBuilder, a, c trace.Var) trace.Var, kwargs ...string) oracleOp {
	return oracleOp{inputs: 2, kwargs: kwargs, build: func(b *oracleBuilder) trace.Var { return f(b, b.x[0], b.x[1]) }}
}

// oracleReduce records a reduction over the dim keyword (every axis when
// absent) with keepdim.
func oracleReduce(f func(b *oracleBuilder, a trace.Var, axes []int) trace.Var) oracleOp {
	return oracleOp{inputs: 1, kwargs: []string{"dim", "keepdim"}, build: func(b *oracleBuilder) trace.Var {
		a := b.x[0]
		raw, ok := b.kw("dim")
		axes := b.axes(raw, ok, a.Rank())
		return b.keep(f(b, a, axes), a, axes, b.kwBool("keepdim", false))
	}}
}

func oracleAxes(f func(*trace.Trace, trace.Var, ...int) (trace.Var, error)) func(b *oracleBuilder, a trace.Var, axes []int) trace.Var {
	return func(b *oracleBuilder, a trace.Var, axes []int) trace.Var {
		if b.err != nil {
			return trace.Var{}
		}
		return b.p(f(b.tr, a, axes...))
	}
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

// matmuls is the product of the matrices (the last two axes) of xs, left
// to right, batched over the leading axes.
func (b *oracleBuilder) matmuls(xs ...trace.Var) trace.Var {
	y := xs[0]
	for _, x := range xs[1:] {
		y = b.einsum("...ij,...jk->...ik", y, x)
	}
	return y
}

// oracleOps maps the PyTorch op names of the database to recordings.
var oracleOps = map[string]oracleOp{}

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

	// Reductions.
	m["sum"] = oracleReduce(oracleAxes((*trace.Trace).Sum))
	m["mean"] = oracleReduce(oracleAxes((*trace.Trace).Mean))
	m["amax"] = oracleReduce(oracleAxes((*trace.Trace).Max))
	m["amin"] = oracleReduce(oracleAxes((*trace.Trace).Min))
	m["nansum"] = oracleReduce(func(b *oracleBuilder, a trace.Var, axes []int) trace.Var {
		return b.p(b.tr.Sum(b.dropNaN(a, a), axes...))
	})
	m["nanmean"] = oracleReduce(func(b *oracleBuilder, a trace.Var, axes []int) trace.Var {
		// nansum / the number of non-NaN elements.
		s := b.p(b.tr.Sum(b.dropNaN(a, a), axes...))
		n := b.p(b.tr.Sum(b.dropNaN(a, b.p(b.tr.Full(a.DType(), 1, a.Shape()...))), axes...))
		return b.bin((*trace.Trace).Div, s, n)
	})
	m["prod"] = oracleOp{inputs: 1, args: 1, kwargs: []string{"keepdim", "dtype"}, build: func(b *oracleBuilder) trace.Var {
		a := b.x[0]
		if raw, ok := b.kw("dtype"); ok {
			var dt string
			b.decode(raw, &dt)
			if dt != b.c.DType {
				return b.skip("dtype=%s converts %s: the trace has no dtype conversion", dt, b.c.DType)
			}
		}
		raw, ok := b.arg(0)
		axes := b.axes(raw, ok, a.Rank())
		return b.keep(b.p(b.tr.Prod(a, axes...)), a, axes, b.kwBool("keepdim", false))
	}}
	moments := func(f func(*trace.Trace, trace.Var, int, ...int) (trace.Var, error), std, positional bool) oracleOp {
		o := oracleOp{inputs: 1, kwargs: []string{"dim", "keepdim", "unbiased", "correction"}, build: func(b *oracleBuilder) trace.Var {
			a := b.x[0]
			raw, ok := b.kw("dim")
			axes := b.axes(raw, ok, a.Rank())
			ddof := 1.0 // PyTorch's default correction
			if raw, ok := b.arg(0); positional && ok {
				if b.float(raw) == 0 {
					ddof = 0
				}
			} else if raw, ok := b.kw("correction"); ok {
				ddof = b.float(raw)
			} else if !b.kwBool("unbiased", true) {
				ddof = 0
			}
			if b.err != nil {
				return trace.Var{}
			}
			if ddof != math.Trunc(ddof) {
				return b.skip("a fractional correction %g", ddof)
			}
			var y trace.Var
			if ddof >= 0 {
				y = b.p(f(b.tr, a, int(ddof), axes...))
			} else {
				// The library takes ddof >= 0: Σ|x - mean|²/(n - ddof) is
				// the population variance scaled by n/(n - ddof).
				n := 1
				for d, e := range a.Shape() {
					if len(axes) == 0 || slices.Contains(axes, d) {
						n *= e
					}
				}
				c := float64(n) / (float64(n) - ddof)
				if std {
					c = math.Sqrt(c)
				}
				y = b.scale(complex(c, 0), b.p(f(b.tr, a, 0, axes...)))
			}
			return b.keep(y, a, axes, b.kwBool("keepdim", false))
		}}
		if positional {
			o.args = 1
		}
		return o
	}
	m["var"] = moments((*trace.Trace).Var, false, false)
	m["std"] = moments((*trace.Trace).Std, true, false)
	m["var_unbiased"] = moments((*trace.Trace).Var, false, true)
	m["std_unbiased"] = moments((*trace.Trace).Std, true, true)
	m["norm"] = oracleOp{inputs: 1, args: 1, kwargs: []string{"ord", "dim", "keepdim"}, build: func(b *oracleBuilder) trace.Var {
		// linalg.norm(a, ord, dim, keepdim): over two axes (or a matrix
		// without dim) a matrix norm, over one axis (or a vector) a vector
		// norm; without ord and dim the 2-norm of all elements.
		a := b.x[0]
		keepdim := b.kwBool("keepdim", false)
		ord, hasOrd := b.arg(0)
		if !hasOrd {
			ord, hasOrd = b.kw("ord")
		}
		var axes []int
		raw, hasDim := b.kw("dim")
		if hasDim {
			axes = b.axes(raw, true, a.Rank())
		}
		switch {
		case b.err != nil:
			return trace.Var{}
		case !hasOrd && !hasDim:
			return b.keep(b.p(b.tr.Norm(a, 2)), a, nil, keepdim)
		case !hasOrd:
			return b.keep(b.p(b.tr.Norm(a, 2, axes...)), a, axes, keepdim)
		case hasDim && len(axes) == 2, !hasDim && a.Rank() == 2:
			if !hasDim {
				axes = []int{0, 1}
			}
			return b.matrixNorm(a, ord, axes, keepdim)
		case hasDim && len(axes) == 1, !hasDim && a.Rank() == 1:
			if o := string(ord); o == `"fro"` || o == `"nuc"` {
				return b.skip("ord %s of a vector", o)
			}
			return b.keep(b.p(b.tr.Norm(a, b.float(ord), axes...)), a, axes, keepdim)
		}
		return b.skip("ord %s over %d axes", ord, a.Rank())
	}}
	m["vector_norm"] = oracleOp{inputs: 1, kwargs: []string{"ord", "dim", "keepdim"}, build: func(b *oracleBuilder) trace.Var {
		a := b.x[0]
		raw, ok := b.kw("dim")
		axes := b.axes(raw, ok, a.Rank())
		p := b.kwFloat("ord", 2)
		if b.err != nil {
			return trace.Var{}
		}
		return b.keep(b.p(b.tr.Norm(a, p, axes...)), a, axes, b.kwBool("keepdim", false))
	}}
	m["matrix_norm"] = oracleOp{inputs: 1, args: 3, build: func(b *oracleBuilder) trace.Var {
		// linalg.matrix_norm(a, ord='fro', dim=(-2, -1), keepdim=False).
		a := b.x[0]
		ord, ok := b.arg(0)
		if !ok {
			ord = json.RawMessage(`"fro"`)
		}
		dims, ok := b.arg(1)
		if !ok {
			dims = json.RawMessage("[-2, -1]")
		}
		keepdim := false
		if raw, ok := b.arg(2); ok {
			b.decode(raw, &keepdim)
		}
		return b.matrixNorm(a, ord, b.axes(dims, true, a.Rank()), keepdim)
	}}

	// Structural operations and contractions.
	m["diagonal"] = oracleUnaryFn(func(b *oracleBuilder, a trace.Var) trace.Var { return b.diagonal(a) }, "offset", "dim1", "dim2")
	m["vecdot"] = oracleBinaryFn(func(b *oracleBuilder, x, y trace.Var) trace.Var {
		// Σ conj(x)·y over dim (PyTorch's linalg.vecdot), broadcasting.
		p := b.bin((*trace.Trace).Mul, b.un((*trace.Trace).Conj, x), y)
		if b.err != nil {
			return trace.Var{}
		}
		raw, ok := b.kw("dim")
		if !ok {
			raw = json.RawMessage("-1")
		}
		axes := b.axes(raw, true, p.Rank())
		if p.Rank() == 0 {
			return b.skip("0-d operands")
		}
		return b.p(b.tr.Sum(p, axes...))
	}, "dim")
	m["cross"] = oracleBinaryFn(func(b *oracleBuilder, x, y trace.Var) trace.Var { return b.cross(x, y) }, "dim")
	m["multi_dot"] = oracleOp{build: func(b *oracleBuilder) trace.Var {
		for _, x := range b.x {
			if x.Rank() != 2 {
				return b.skip("1-D operands")
			}
		}
		return b.matmuls(b.x...)
	}}
	m["matrix_power"] = oracleOp{inputs: 1, args: 1, build: func(b *oracleBuilder) trace.Var {
		a := b.x[0]
		raw, ok := b.arg(0)
		if !ok {
			return b.skip("no exponent")
		}
		var n int
		b.decode(raw, &n)
		switch {
		case b.err != nil:
			return trace.Var{}
		case n < 0:
			return b.skip("a negative power needs the inverse (no inversion in a trace)")
		case n == 0:
			// The identity of every matrix: a constant.
			s := a.Shape()
			k := s[len(s)-1]
			eye := make([]complex128, oracleNumel(s))
			for i := range eye {
				if r, c := (i/k)%k, i%k; r == c {
					eye[i] = 1
				}
			}
			return b.constant(a.DType(), s, eye)
		}
		xs := make([]trace.Var, n)
		for i := range xs {
			xs[i] = a
		}
		return b.matmuls(xs...)
	}}
	m["vander"] = oracleUnaryFn(func(b *oracleBuilder, a trace.Var) trace.Var {
		// linalg.vander: x^0, x^1, ..., x^(N-1) along a new last axis.
		if a.Rank() == 0 {
			a = b.p(b.tr.Reshape(a, 1))
		}
		s := a.Shape()
		n := s[len(s)-1]
		if raw, ok := b.kw("N"); ok {
			b.decode(raw, &n)
		}
		if b.err != nil {
			return trace.Var{}
		}
		pw := make([]complex128, n)
		for i := range pw {
			pw[i] = complex(float64(i), 0)
		}
		col := b.p(b.tr.Reshape(a, append(slices.Clone(s), 1)...))
		return b.bin((*trace.Trace).Pow, col, b.constant(a.DType(), []int{n}, pw))
	}, "N")
}

// alpha is c scaled by the alpha keyword (none: c itself).
func (b *oracleBuilder) alpha(c trace.Var) trace.Var {
	raw, ok := b.kw("alpha")
	if !ok {
		return c
	}
	return b.scale(complex(b.float(raw), 0), c)
}

// dropNaN is x with 0 where a is NaN.
func (b *oracleBuilder) dropNaN(a, x trace.Var) trace.Var {
	return b.where(b.un((*trace.Trace).IsNaN, a), b.full(x, 0), x)
}

// matrixNorm is linalg.matrix_norm(a, ord, axes, keepdim): 'fro' the
// 2-norm of the matrix's elements; ord ±1 the largest (smallest) column
// sum of |a|, ±Inf the largest (smallest) row sum, as PyTorch computes
// them (amax/amin of a sum, ties averaged).
func (b *oracleBuilder) matrixNorm(a trace.Var, ord json.RawMessage, axes []int, keepdim bool) trace.Var {
	if b.err != nil {
		return trace.Var{}
	}
	if len(axes) != 2 || axes[0] == axes[1] {
		return b.skip("matrix norm over axes %v", axes)
	}
	var y trace.Var
	switch o := strings.Trim(string(ord), `"`); {
	case o == "fro":
		y = b.p(b.tr.Norm(a, 2, axes...))
	case o == "nuc" || o == "2" || o == "-2" || o == "2.0" || o == "-2.0":
		return b.skip("matrix norm of ord %s: needs singular values (no SVD in a trace)", o)
	default:
		p := b.float(ord)
		if b.err != nil {
			return trace.Var{}
		}
		if p != 1 && p != -1 && !math.IsInf(p, 0) {
			return b.skip("matrix norm of ord %s", o)
		}
		d0, d1 := axes[0], axes[1]
		if math.IsInf(p, 0) {
			d0, d1 = d1, d0
		}
		s := b.p(b.tr.Sum(b.un((*trace.Trace).Abs, a), d0))
		if d0 < d1 {
			d1--
		}
		if p < 0 {
			y = b.p(b.tr.Min(s, d1))
		} else {
			y = b.p(b.tr.Max(s, d1))
		}
	}
	return b.keep(y, a, axes, keepdim)
}

// diagonal is torch.diagonal(a, offset, dim1, dim2): the elements
// a[..., i, i+offset] (dim1, dim2 moved last) along a new last axis.
func (b *oracleBuilder) diagonal(a trace.Var) trace.Var {
	r := a.Rank()
	off, d1, d2 := int(b.kwFloat("offset", 0)), int(b.kwFloat("dim1", 0)), int(b.kwFloat("dim2", 1))
	if d1 < 0 {
		d1 += r
	}
	if d2 < 0 {
		d2 += r
	}
	if b.err != nil {
		return trace.Var{}
	}
	var perm []int
	for d := range r {
		if d != d1 && d != d2 {
			perm = append(perm, d)
		}
	}
	perm = append(perm, d1, d2)
	x := b.p(b.tr.Permute(a, perm...))
	r0, c0 := max(-off, 0), max(off, 0)
	n := min(a.Shape()[d1]-r0, a.Shape()[d2]-c0)
	if n <= 0 {
		return b.skip("an empty diagonal")
	}
	rows, cols := make([]int64, n), make([]int64, n)
	for i := range n {
		rows[i], cols[i] = int64(r0+i), int64(c0+i)
	}
	x = b.take(b.take(x, r-2, rows...), r-1, cols...)
	return b.einsum("...ii->...i", x)
}

// cross is torch.cross(x, y, dim): x_{i+1}·y_{i+2} - x_{i+2}·y_{i+1} along
// dim (by default the first axis of extent 3), broadcasting.
func (b *oracleBuilder) cross(x, y trace.Var) trace.Var {
	rank := max(x.Rank(), y.Rank())
	shape := make([]int, rank) // the broadcast shape
	for _, v := range []trace.Var{x, y} {
		for i, e := range v.Shape() {
			d := i + rank - v.Rank()
			shape[d] = max(shape[d], e)
		}
	}
	dim := -1
	if raw, ok := b.kw("dim"); ok {
		b.decode(raw, &dim)
		if dim < 0 {
			dim += rank
		}
	} else {
		dim = slices.Index(shape, 3)
	}
	if b.err != nil {
		return trace.Var{}
	}
	if dim < 0 || dim >= rank {
		return b.skip("no axis of extent 3")
	}
	ax, ay := dim-(rank-x.Rank()), dim-(rank-y.Rank())
	if ax < 0 || ay < 0 {
		return b.skip("dim %d broadcast", dim)
	}
	next, last := []int64{1, 2, 0}, []int64{2, 0, 1}
	p := b.bin((*trace.Trace).Mul, b.take(x, ax, next...), b.take(y, ay, last...))
	q := b.bin((*trace.Trace).Mul, b.take(x, ax, last...), b.take(y, ay, next...))
	return b.bin((*trace.Trace).Sub, p, q)
}
