package tenferro_test

import (
	"encoding/json"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/backend/enginetest"
	"github.com/tenferro-go/tenferro/npy"
)

// npOp says how NumPy computes one elementwise operation, which inputs it
// is tried on and how closely the library must agree.
type npOp struct {
	// expr is a Python expression of a (and b) with NumPy as np; alpha,
	// lo and hi are scalars of a's dtype; sign, div, log1p, expm1, power,
	// sigmoid, gelu, erf and erfc are the helpers of elementwiseScript.
	expr string
	// wide evaluates expr in float64/complex128 and rounds the result to
	// the dtype once: for formulas of several steps, whose intermediate
	// roundings in float32 would make a worse reference than the
	// library's, and always for complex64, which the library evaluates
	// through its complex128 definitions while NumPy's complex64 routines
	// overflow or lose precision in float32 intermediates (NumPy's
	// complex64 expm1(88.72+1i) is Inf+Infi, the value 1.84e38+2.86e38i).
	wide bool
	// dom draws random inputs (both parts independently for complex
	// dtypes; domC instead where set); domB the second operand of a
	// binary operation (nil: dom).
	dom, domC, domB []gen
	// edges are extra inputs of this operation (for binary operations:
	// extra values of the special set).
	edges func(p prec) []float64
	// attrs are the attribute sets tried: Scale's alpha (real part,
	// imaginary part for complex dtypes) or Clip's (lo, hi).
	attrs [][2]float64
	// slack, where set, widens the bounds on the errors of the real and
	// imaginary parts (npTol·eps relative to |NumPy's value|) by an
	// absolute allowance in units of eps (reason with the entry).
	slack slackFunc
	// anyZero skips the sign check of zero results (reason with the
	// entry).
	anyZero bool
}

// npTol is the error allowed in a finite part of a result, in units of the
// result dtype's epsilon relative to |NumPy's value|.
const npTol = 4

// slackFunc returns the extra allowances for the real and imaginary parts
// of the result at operands in, NumPy's result being want, in units of the
// result dtype's epsilon.
type slackFunc func(in []complex128, want complex128) (re, im float64)

// The common input domains.
var (
	domDefault = []gen{sym(-3, 3), uni(-10, 10)}
	domSmall   = []gen{sym(-12, 0), uni(-1, 1)}
	domExp     = []gen{lm(1.03), uni(-5, 5)}
)

// elementwiseOps maps every generated elementwise operation (by its
// op.Kind name) to NumPy. A generated operation missing here fails
// TestElementwiseNumPy.
var elementwiseOps = map[string]npOp{
	"Scale":  {expr: "alpha*a", attrs: [][2]float64{{2.5, -0.75}, {-1, 0}, {0, 1}}},
	"Negate": {expr: "np.negative(a)", dom: []gen{sym(-3, 3), rel(-1.02, 1)}},
	"Conj":   {expr: "np.conj(a)"},
	"Add":    {expr: "a + b", dom: []gen{sym(-3, 3), rel(0.98, 1)}},
	"Sub":    {expr: "a - b", dom: []gen{sym(-3, 3), rel(0.98, 1)}},
	"Mul":    {expr: "a * b", dom: []gen{sym(-3, 3), rel(-0.6, 0.6)}},
	// div is NumPy's division with C99's recovery of infinities and zeros
	// for complex operands (see elementwiseScript).
	"Div": {expr: "div(a, b)", wide: true, dom: []gen{sym(-3, 3), rel(-0.6, 0.6)}},
	// power is np.power with the limits of C99's arithmetic where NumPy
	// gives NaN (see elementwiseScript): 0**b for Re b != 0, and infinite
	// a raised to negative integers (NumPy's own 1/a is 0 there).
	"Pow": {expr: "power(a, b)",
		dom: []gen{pos(-5, 5), sym(-2, 2)}, domB: []gen{uni(-30, 30), ints(-6, 6)},
		domC: []gen{sym(-2, 1), uni(-3, 3)}, slack: powSlack},
	"Maximum": {expr: "np.maximum(a, b)"},
	"Minimum": {expr: "np.minimum(a, b)"},
	"Atan2":   {expr: "np.arctan2(a, b)"},
	"Hypot":   {expr: "np.hypot(a, b)", dom: []gen{sym(-3, 3), rel(0.5, 1), rel(-1.02, -0.5)}},

	"Sqrt":       {expr: "np.sqrt(a)", dom: []gen{pos(-30, 30), sym(-3, 3), rel(-1.02, 1)}},
	"Rsqrt":      {expr: "div(np.ones_like(a), np.sqrt(a))", dom: []gen{pos(-30, 30), sym(-3, 3), rel(-1.02, 1)}},
	"Square":     {expr: "np.square(a)", dom: []gen{sym(-3, 3), rel(0.4, 0.6), rel(-0.6, -0.4)}},
	"Reciprocal": {expr: "div(np.ones_like(a), a)", wide: true, dom: []gen{sym(-3, 3), rel(-1.02, 1)}},
	// The library's complex sign is a/|a| (0 for 0) with an infinite part
	// giving its direction; NumPy 1.x's np.sign is the sign of the real
	// part, so the reference is the helper sign. Sign's Doc defines ±0 as
	// unchanged, where np.sign(-0.0) is +0.
	"Sign": {expr: "sign(a)", wide: true, anyZero: true},

	"Exp": {expr: "np.exp(a)", dom: domExp, edges: expEdges},
	// expm1 is np.expm1 with e^a - 1 in long double where NumPy's complex
	// formula overflows or gives NaN though e^a - 1 is finite or an
	// infinity (see elementwiseScript).
	"Expm1": {expr: "expm1(a)", dom: append([]gen{lm(1.03)}, domSmall...), edges: expEdges},
	"Log":   {expr: "np.log(a)", dom: []gen{rel(-1.02, 1), sym(-3, 3), uni(0.9, 1.1)}},
	// log1p is np.log1p with a better real part for small complex a (see
	// elementwiseScript).
	"Log1p": {expr: "log1p(a)", dom: append([]gen{uni(-1, 3), sym(-3, 3)}, domSmall...)},

	"Sin":  {expr: "np.sin(a)", dom: []gen{uni(-10, 10), sym(-3, 3), sym(3, 6)}, domC: domDefault, slack: reductionSlack},
	"Cos":  {expr: "np.cos(a)", dom: []gen{uni(-10, 10), sym(-3, 3), sym(3, 6)}, domC: domDefault, slack: reductionSlack},
	"Tan":  {expr: "np.tan(a)", dom: []gen{uni(-10, 10), sym(-3, 3), sym(3, 6)}, domC: domDefault, edges: tanEdges},
	"Tanh": {expr: "np.tanh(a)", dom: []gen{uni(-25, 25), sym(-5, 3)}, domC: domDefault},
	"Sinh": {expr: "np.sinh(a)", dom: append([]gen{sym(-10, 0)}, domExp...), edges: hypEdges},
	"Cosh": {expr: "np.cosh(a)", dom: append([]gen{sym(-10, 0)}, domExp...), edges: hypEdges},
	"Asin": {expr: "np.arcsin(a)", dom: []gen{uni(-1, 1), uni(-3, 3), sym(-10, 0)}, domC: []gen{sym(-6, 3), uni(-2, 2)}},
	// Go's acos is π/2 - asin(a): an absolute error of about eps·π/2,
	// large relative to the result near a = 1.
	"Acos": {expr: "np.arccos(a)", dom: []gen{uni(-1, 1), uni(-3, 3), sym(-10, 0)}, domC: []gen{sym(-6, 3), uni(-2, 2)}, slack: realSlack(2)},
	"Atan": {expr: "np.arctan(a)", dom: []gen{sym(-10, 10), uni(-3, 3)}, domC: []gen{sym(-6, 3), uni(-2, 2)}},

	"Sigmoid": {expr: "sigmoid(a)", wide: true, dom: []gen{uni(-40, 40), lm(1.05), sym(-10, 2)}},
	"Relu":    {expr: "np.maximum(a, np.zeros_like(a))"},
	// For a < 0 Gelu's condition number is about a² (erfc's at a/√2): a
	// different rounding of a/√2 moves the result by a²·eps relative.
	"Gelu": {expr: "gelu(a)", wide: true, dom: []gen{uni(-40, 10), sym(-10, 2), rel(0.5, 1)},
		slack: func(in []complex128, w complex128) (float64, float64) {
			return 2 * real(in[0]) * real(in[0]) * cmplx.Abs(w), 0
		}},
	// NumPy has no erf: Python's math.erf and math.erfc (the C library's)
	// per element, in float64 and rounded once for float32. The random
	// inputs reach the tails, where erf is ±1 and erfc underflows.
	"Erf":   {expr: "erf(a)", wide: true, dom: []gen{uni(-7, 7), sym(-10, 1)}},
	"Erfc":  {expr: "erfc(a)", wide: true, dom: []gen{uni(-7, 30), sym(-10, 1.5)}},
	"Floor": {expr: "np.floor(a)", dom: []gen{uni(-100, 100), sym(-3, 20), halves(-10, 10)}, edges: roundEdges},
	"Ceil":  {expr: "np.ceil(a)", dom: []gen{uni(-100, 100), sym(-3, 20), halves(-10, 10)}, edges: roundEdges},
	"Round": {expr: "np.round(a)", dom: []gen{halves(-20, 20), uni(-100, 100), sym(-3, 20)}, edges: roundEdges},
	"Trunc": {expr: "np.trunc(a)", dom: []gen{uni(-100, 100), sym(-3, 20), halves(-10, 10)}, edges: roundEdges},
	"Clip":  {expr: "np.clip(a, lo, hi)", dom: []gen{uni(-5, 5)}, attrs: [][2]float64{{-1, 2.5}, {3, -1}}},
}

// realSlack allows an absolute error of k·eps in the real part.
func realSlack(k float64) slackFunc {
	return func([]complex128, complex128) (float64, float64) { return k, 0 }
}

// reductionSlack is the error that the float64 Sin and Cos kernels
// (vmath) leave beyond 2^29, where their Payne-Hanek reduction keeps the
// reduced argument to about 2^-54 absolute: sin(MaxFloat64) comes out as
// 0.004961954789184084 for 0.004961954789184062. The error of the result
// is that times its derivative, at most max(1, |w|). (The complex forms
// reduce to 2^-120, package scalar, and need no allowance.)
func reductionSlack(in []complex128, w complex128) (float64, float64) {
	m := cmplx.Abs(w)
	if math.Abs(real(in[0])) < 1<<29 || math.IsInf(m, 0) || math.IsNaN(m) {
		return 0, 0
	}
	s := 0.25 * max(1, m) // 2^-54 in units of eps = 2^-52
	return s, s
}

// powSlack: Go's real Pow raises to the integer part of b by repeated
// squaring, whose roundings add up to about |b|·eps relative; a complex
// power e^(b·log a) (the library's, and NumPy's through cpow) inherits the
// error of log a in float64 times |b|: about |b|·(|log|a|| + π)·eps.
func powSlack(in []complex128, w complex128) (float64, float64) {
	a, b := in[0], in[1]
	m := cmplx.Abs(w)
	if math.IsInf(m, 0) || math.IsNaN(m) || a == 0 {
		return 0, 0
	}
	s := math.Abs(real(b)) * m
	if imag(a) != 0 || imag(b) != 0 {
		s = 2 * cmplx.Abs(b) * (math.Abs(math.Log(cmplx.Abs(a))) + math.Pi) * m
	}
	return s, s
}

// Edges of the exponentials: where the result overflows, turns subnormal
// and underflows.
func expEdges(p prec) []float64 {
	return []float64{p.logMax, -p.logMax, math.Log(p.tiny), math.Log(p.sub), p.logMax + 0.01}
}

// sinh and cosh stay finite up to logMax + log 2.
func hypEdges(p prec) []float64 {
	return []float64{p.logMax + 0.4, -p.logMax - 0.4, p.logMax + 0.7, p.logMax}
}

func tanEdges(prec) []float64 { return []float64{math.Pi / 2, -math.Pi / 2, math.Pi, 1e22} }

// The last fractional values and the first integers of the dtype.
func roundEdges(p prec) []float64 {
	return []float64{1/p.eps - 0.5, -1/p.eps + 0.5, 1 / p.eps, 2/p.eps + 2, p.below(0.5), -p.below(0.5)}
}

// prec describes the floating-point format of a dtype (of its parts for
// complex dtypes).
type prec struct {
	single                      bool
	eps, tiny, sub, max, logMax float64
}

func precOf[T tf.Scalar]() prec {
	if tf.DTypeOf[T]().Real() == tf.Float32 {
		return prec{true, 0x1p-23, 0x1p-126, 0x1p-149, math.MaxFloat32, math.Log(math.MaxFloat32)}
	}
	return prec{false, 0x1p-52, 0x1p-1022, 0x1p-1074, math.MaxFloat64, math.Log(math.MaxFloat64)}
}

// below returns the largest value of the format below x.
func (p prec) below(x float64) float64 {
	if p.single {
		return float64(math.Nextafter32(float32(x), float32(math.Inf(-1))))
	}
	return math.Nextafter(x, math.Inf(-1))
}

// specials are the special real inputs of every operation.
func (p prec) specials() []float64 {
	inf := math.Inf(1)
	s := []float64{0, math.Copysign(0, -1), inf, -inf, math.NaN(), p.sub, -p.sub, p.tiny / 4, -p.tiny / 4,
		p.tiny, -p.tiny, p.max, -p.max, 1, -1, 1 + p.eps, p.below(1), -1 - p.eps, -p.below(1),
		0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 2, -3, 10, -100}
	return s
}

// parts are the values combined into complex special inputs; pairParts
// those of binary operations, whose special inputs are all pairs of them.
func (p prec) parts() []float64 {
	inf := math.Inf(1)
	return []float64{0, math.Copysign(0, -1), 1, -1, 0.5, -2.5, inf, -inf, math.NaN(), p.max, p.sub}
}

func pairParts() []float64 { return []float64{0, 1, -1, 2.5, math.Inf(1), math.Inf(-1), math.NaN()} }

// gen draws one random input value for the format p.
type gen func(r *rand.Rand, p prec) float64

// uni is uniform in [lo, hi).
func uni(lo, hi float64) gen {
	return func(r *rand.Rand, _ prec) float64 { return lo + (hi-lo)*r.Float64() }
}

// sym is ±10^u with u uniform in [e1, e2); pos the positive half.
func sym(e1, e2 float64) gen {
	return func(r *rand.Rand, p prec) float64 { return randSign(r) * pos(e1, e2)(r, p) }
}

func pos(e1, e2 float64) gen {
	return func(r *rand.Rand, _ prec) float64 { return math.Pow(10, e1+(e2-e1)*r.Float64()) }
}

// rel is ±max^u with u uniform in [f1, f2): magnitudes relative to the
// format's range (f1 < -1 reaches subnormals, f2 > 1 infinities).
func rel(f1, f2 float64) gen {
	return func(r *rand.Rand, p prec) float64 {
		return randSign(r) * math.Exp(p.logMax*(f1+(f2-f1)*r.Float64()))
	}
}

// lm is uniform in ±f·log(max): arguments of exponentials near overflow
// and underflow.
func lm(f float64) gen {
	return func(r *rand.Rand, p prec) float64 { return f * p.logMax * (2*r.Float64() - 1) }
}

// ints are the integers in [lo, hi]; halves are k + 0.5 (and quarters)
// for such integers k.
func ints(lo, hi int) gen {
	return func(r *rand.Rand, _ prec) float64 { return float64(lo + r.IntN(hi-lo+1)) }
}

func halves(lo, hi int) gen {
	return func(r *rand.Rand, p prec) float64 {
		return ints(lo, hi)(r, p) + []float64{0.5, 0.5, 0.25, 0.75}[r.IntN(4)]
	}
}

func randSign(r *rand.Rand) float64 { return float64(1 - 2*r.IntN(2)) }

// randVals returns n random inputs of T drawn from dom (domC for complex
// T where set), each part from a generator chosen at random.
func randVals[T tf.Scalar](r *rand.Rand, p prec, spec npOp, dom []gen, n int) []T {
	if len(dom) == 0 {
		dom = domDefault
	}
	isC := tf.DTypeOf[T]().IsComplex()
	if isC && spec.domC != nil {
		dom = spec.domC
	}
	out := make([]T, n)
	for i := range out {
		x := dom[r.IntN(len(dom))](r, p)
		y := 0.0
		if isC {
			y = dom[r.IntN(len(dom))](r, p)
		}
		out[i] = npCast[T](complex(x, y))
	}
	return out
}

// unarySpecials returns the special inputs of a unary operation: the
// specials and the operation's edges for real T, all combinations of parts
// and edges for complex T.
func unarySpecials[T tf.Scalar](p prec, spec npOp) []T {
	var edges []float64
	if spec.edges != nil {
		edges = spec.edges(p)
	}
	var out []T
	if !tf.DTypeOf[T]().IsComplex() {
		for _, x := range append(p.specials(), edges...) {
			out = append(out, npCast[T](complex(x, 0)))
		}
		return out
	}
	parts := append(p.parts(), edges...)
	for _, x := range parts {
		for _, y := range parts {
			out = append(out, npCast[T](complex(x, y)))
		}
	}
	return out
}

// pairSpecials returns every pair (a[i], b[i]) of special inputs of a
// binary operation: of the specials and edges for real T, of the complex
// numbers with parts from pairParts for complex T.
func pairSpecials[T tf.Scalar](p prec, spec npOp) (a, b []T) {
	var vals []complex128
	if tf.DTypeOf[T]().IsComplex() {
		for _, x := range pairParts() {
			for _, y := range pairParts() {
				vals = append(vals, complex(x, y))
			}
		}
	} else {
		for _, x := range p.specials() {
			vals = append(vals, complex(x, 0))
		}
		if spec.edges != nil {
			for _, x := range spec.edges(p) {
				vals = append(vals, complex(x, 0))
			}
		}
	}
	for _, x := range vals {
		for _, y := range vals {
			a, b = append(a, npCast[T](x)), append(b, npCast[T](y))
		}
	}
	return a, b
}

// npCast converts c to T (the real part for real T).
func npCast[T tf.Scalar](c complex128) T {
	var z T
	switch any(z).(type) {
	case float32:
		return any(float32(real(c))).(T)
	case float64:
		return any(real(c)).(T)
	case complex64:
		return any(complex64(c)).(T)
	}
	return any(c).(T)
}

// npTo converts v to complex128.
func npTo[T tf.Scalar](v T) complex128 {
	switch x := any(v).(type) {
	case float32:
		return complex(float64(x), 0)
	case float64:
		return complex(x, 0)
	case complex64:
		return complex128(x)
	}
	return any(v).(complex128)
}

// npCase is one evaluation of the NumPy script: expr on the operands at
// offsets A (shape SA) and B (shape SB, when Binary) of the dtype's
// operand file.
type npCase struct {
	DType  string     `json:"dtype"`
	Expr   string     `json:"expr"`
	Wide   bool       `json:"wide"`
	Binary bool       `json:"binary"`
	Attr   [2]float64 `json:"attr"`
	A      int        `json:"a"`
	B      int        `json:"b"`
	SA     []int      `json:"sa"`
	SB     []int      `json:"sb"`
}

// npWrite writes the operands of the cases of dtype T.
func npWrite[T tf.Scalar](t *testing.T, s *npSuite) {
	dt := tf.DTypeOf[T]()
	data := make([]T, len(s.inputs[dt]))
	for i, v := range s.inputs[dt] {
		data[i] = npCast[T](v)
	}
	if err := npy.WriteTensorFile(filepath.Join(s.dir, "in_"+dt.String()+".npy"), npTensor(t, data, []int{len(data)})); err != nil {
		t.Fatal(err)
	}
}

// npRead reads NumPy's results of the cases of dtype T.
func npRead[T tf.Scalar](t *testing.T, s *npSuite) {
	dt := tf.DTypeOf[T]()
	x, err := npy.ReadTensorFile[T](filepath.Join(s.dir, "out_"+dt.String()+".npy"))
	if err != nil {
		t.Fatal(err)
	}
	all, off := enginetest.Dense(x), 0
	s.results = slices.Grow(s.results, len(s.cases))[:len(s.cases)]
	for id, c := range s.cases {
		var shape []int
		if c.DType != dt.String() || json.Unmarshal(s.status[id], &shape) != nil {
			continue
		}
		n := tf.Numel(shape)
		if off+n > len(all) {
			t.Fatalf("out_%v.npy holds %d values, fewer than the cases' results", dt, len(all))
		}
		s.results[id], off = all[off:off+n:off+n], off+n
	}
}

// elementwiseScript evaluates the cases of TestElementwiseNumPy: argv[1]
// is the JSON list of cases (npCase), argv[2] the folder of in_<dtype>.npy,
// the operands of all cases of a dtype one after the other, each in
// column-major order. It writes the results of the cases of a dtype, one
// after the other, to out_<dtype>.npy, and prints a JSON list with the
// result's shape, or why there is none, per case.
const elementwiseScript = `
import json, math, sys, warnings
import numpy as np

warnings.simplefilter('ignore')

_erf = np.vectorize(math.erf, otypes=[np.float64])
_erfc = np.vectorize(math.erfc, otypes=[np.float64])

def sigmoid(a):
    e = np.exp(-np.abs(a))
    return np.where(a >= 0, 1 / (1 + e), e / (1 + e))

def gelu(a):
    # a/2*(1+erf(a/sqrt 2)), written with erfc so that it keeps its
    # relative accuracy where 1+erf cancels (a < 0).
    return 0.5 * a * _erfc(-a / math.sqrt(2))

def sign(a):
    if not np.iscomplexobj(a):
        return np.sign(a)
    # a/|a| in long double, whose range holds |a| of every finite a.
    r, i = a.real.astype(np.longdouble), a.imag.astype(np.longdouble)
    inf = np.isinf(r) | np.isinf(i)
    # An infinite part gives the direction: +-1 for it, 0 for a finite
    # part (NaN stays NaN).
    r[inf] = np.where(np.isinf(r[inf]), np.sign(r[inf]), r[inf] * 0)
    i[inf] = np.where(np.isinf(i[inf]), np.sign(i[inf]), i[inf] * 0)
    m = np.hypot(r, i)
    out = np.empty_like(a)
    out.real, out.imag = r / m, i / m
    out[a == 0] = 0
    return out

def div(a, b):
    q = np.array(np.true_divide(a, b))
    if q.dtype.kind != 'c':
        return q
    # NumPy's complex division leaves NaN+NaNj where C99 (Annex G.5.1)
    # recovers an infinity (x/0, inf/finite) or a zero (finite/inf).
    a, b = np.broadcast_arrays(a, b)
    ar, ai, br, bi = a.real, a.imag, b.real, b.imag
    nan = np.isnan(q.real) & np.isnan(q.imag)
    unit = lambda x: np.copysign(np.isinf(x).astype(x.dtype), x)
    zero = nan & (br == 0) & (bi == 0) & ~(np.isnan(ar) & np.isnan(ai))
    big = nan & ~zero & (np.isinf(ar) | np.isinf(ai)) & np.isfinite(br) & np.isfinite(bi)
    small = nan & ~zero & ~big & (np.isinf(br) | np.isinf(bi)) & np.isfinite(ar) & np.isfinite(ai)
    s = np.copysign(np.inf, br)
    for m, re, im in ((zero, s * ar, s * ai),
                      (big, np.inf * (unit(ar) * br + unit(ai) * bi), np.inf * (unit(ai) * br - unit(ar) * bi)),
                      (small, 0 * (ar * unit(br) + ai * unit(bi)), 0 * (ai * unit(br) - ar * unit(bi)))):
        q.real[m], q.imag[m] = re[m], im[m]
    return q

def log1p(a):
    out = np.array(np.log1p(a))
    if np.iscomplexobj(a):
        # NumPy's complex log1p takes the real part as log(hypot(1+x, y))
        # in a's precision, which keeps only an absolute accuracy for small
        # |a| and overflows for large ones. Take it in long double:
        # log1p(2x + x^2 + y^2)/2 for |a| < 1/2, log(hypot(1+x, y)) else.
        f = np.isfinite(a)
        x = a.real[f].astype(np.longdouble)
        y = a.imag[f].astype(np.longdouble)
        small = np.abs(a[f]) < 0.5
        out.real[f] = np.where(small, np.log1p(x * (2 + x) + y * y) / 2, np.log(np.hypot(1 + x, y)))
    return out

def expm1(a):
    out = np.array(np.expm1(a))
    if np.iscomplexobj(a):
        # NumPy's complex expm1 evaluates expm1(x)*cos(y) - 2*sin(y/2)**2 +
        # 1j*exp(x)*sin(y) as written: it overflows with expm1(x) (x > 709.78)
        # where e^a - 1 is finite (expm1(709.79+1j) is inf+infj, the value
        # 9.81e307+1.53e308j), and gives NaN for infinite parts where C99's
        # exp gives 0 or an infinity (exp(-inf+infj) - 1 = -1). Take e^a - 1
        # in long double, whose range holds these values, there.
        m = ~np.isfinite(a) | (a.real > 709)
        out[m] = np.exp(a[m].astype(np.clongdouble)) - 1
    return out

def power(a, b):
    out = np.array(np.power(a, b))
    if out.dtype.kind != 'c':
        return out
    a, b = np.broadcast_arrays(a, b)
    # NumPy's complex power gives NaN for 0**b unless b is real and
    # positive. For a finite Im b the limit is 0 where Re b > 0 and an
    # infinity where Re b < 0 (as NumPy's real power(0., -1.) and 1/0).
    zero = (a == 0) & np.isfinite(b.imag)
    out[zero & (b.real > 0)] = 0
    out[zero & (b.real < 0)] = np.inf
    # It raises to integers |b| < 100 by repeated products, starting from
    # 1*a, without C99's recovery of infinities: 1*(inf+0j) is nan+nanj, so
    # an infinite a to a negative integer gives NaN where the value is 0
    # (NumPy's own 1/(inf+0j) is 0).
    neg = (b.imag == 0) & (b.real < 0) & (b.real > -100) & (b.real == np.round(b.real))
    out[neg & np.isinf(a)] = 0
    return out

env = {'np': np, 'sign': sign, 'div': div, 'log1p': log1p, 'sigmoid': sigmoid, 'gelu': gelu,
       'erf': _erf, 'erfc': _erfc, 'expm1': expm1, 'power': power}
cases = json.load(open(sys.argv[1]))
d = sys.argv[2]
bufs = {dt: np.load('%s/in_%s.npy' % (d, dt)) for dt in set(c['dtype'] for c in cases)}
outs = {dt: [np.zeros(0, buf.dtype)] for dt, buf in bufs.items()}
status = []
def operand(buf, off, shape):
    return buf[off:off + math.prod(shape)].reshape(shape, order='F')
for c in cases:
    buf = bufs[c['dtype']]
    a = operand(buf, c['a'], c['sa'])
    b = operand(buf, c['b'], c['sb']) if c['binary'] else None
    dt = a.dtype
    if c['wide']:
        w = np.complex128 if dt.kind == 'c' else np.float64
        a = a.astype(w)
        b = None if b is None else b.astype(w)
    at = c['attr']
    alpha = a.dtype.type(complex(at[0], at[1]) if dt.kind == 'c' else at[0])
    lo, hi = a.dtype.type(at[0]), a.dtype.type(at[1])
    with np.errstate(all='ignore'):
        out = np.asarray(eval(c['expr'], env, {'a': a, 'b': b, 'alpha': alpha, 'lo': lo, 'hi': hi}))
    if c['wide']:
        out = out.astype(dt)
    if out.dtype != dt:
        status.append('NumPy gives %s for %s' % (out.dtype, dt))
        continue
    outs[c['dtype']].append(out.ravel(order='F'))
    status.append(list(out.shape))
for dt, parts in outs.items():
    np.save('%s/out_%s.npy' % (d, dt), np.concatenate(parts))
print(json.dumps(status))
`
