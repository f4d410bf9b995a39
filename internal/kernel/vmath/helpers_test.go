package vmath

import (
	"math"
	"math/big"

	"github.com/tenferro-go/tenferro/internal/kernel/vmath/internal/bigmath"
	"github.com/tenferro-go/tenferro/internal/op/scalar"
)

// supported returns the variants this CPU runs (the conformance suite runs
// each).
func supported() []*variant {
	var vs []*variant
	for _, v := range variants {
		if v.supported {
			vs = append(vs, v)
		}
	}
	return vs
}

// twin is the pure-Go variant, the bit-exact reference of the others.
var twin = variants[len(variants)-1]

// fn describes one operation for the tests: its references and bounds.
type fn struct {
	o            op
	big          func(*big.Float, uint) *big.Float // exact reference (nil: ref64 is exact)
	ref64        func(float64) float64             // float64 reference for float32
	ulp64, ulp32 float64                           // documented bounds, in ulps
}

func sigmoid64(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// gelu64 is Gelu in float64 (the float32 reference): -x/√2 rounds, which
// moves erfc by at most x²·2^-53 relative, far below float32's ulp.
func gelu64(x float64) float64 { return 0.5 * x * math.Erfc(-x/math.Sqrt2) }

// fns lists every operation, indexed by op, with the bounds stated in the
// package doc.
var fns = [numOps]fn{
	opExp:     {opExp, bigmath.Exp, math.Exp, 1, 1},
	opExpm1:   {opExpm1, bigmath.Expm1, math.Expm1, 1.5, 1.5},
	opLog:     {opLog, bigmath.Log, math.Log, 1, 1},
	opLog1p:   {opLog1p, bigmath.Log1p, math.Log1p, 1, 1},
	opTanh:    {opTanh, bigmath.Tanh, math.Tanh, 2, 0.77},
	opSigmoid: {opSigmoid, bigmath.Sigmoid, sigmoid64, 2, 0.86},
	opSin:     {opSin, bigmath.Sin, math.Sin, 2, 0.76},
	opCos:     {opCos, bigmath.Cos, math.Cos, 2, 0.76},
	opSqrt:    {opSqrt, nil, math.Sqrt, 0.5, 0.5},
	opTan:     {opTan, bigmath.Tan, scalar.Tan, 2.5, 0.91},
	opAtan:    {opAtan, bigmath.Atan, math.Atan, 1, 0.67},
	opAsin:    {opAsin, bigmath.Asin, math.Asin, 1, 0.63},
	opAcos:    {opAcos, bigmath.Acos, math.Acos, 1, 0.63},
	opSinh:    {opSinh, bigmath.Sinh, math.Sinh, 2, 0.84},
	opCosh:    {opCosh, bigmath.Cosh, math.Cosh, 1.5, 0.81},
	opErf:     {opErf, bigmath.Erf, math.Erf, 1, 1.1},
	opErfc:    {opErfc, bigmath.Erfc, math.Erfc, 2.5, 3.1},
	opGelu:    {opGelu, bigmath.Gelu, gelu64, 3.5, 3.6},
}

func (f fn) name() string { return opNames[f.o] }

// refPrec is the precision of the float64 references, in bits.
const refPrec = 90

// exact returns f(x) for finite x inside f's domain to refPrec bits.
func (f fn) exact(x float64) *big.Float {
	if f.big == nil {
		return new(big.Float).SetFloat64(f.ref64(x))
	}
	return f.big(new(big.Float).SetFloat64(x), refPrec)
}

// ulps64 returns |got - want| in ulps of want (the float64 spacing at
// want's magnitude, subnormal spacing below the normal range); a result
// that overflowed correctly (want beyond MaxFloat64 and got infinite of
// its sign) counts 0, any other Inf or NaN counts +Inf.
func ulps64(got float64, want *big.Float) float64 {
	wf, _ := want.Float64()
	if math.IsInf(wf, 0) || math.IsInf(got, 0) || math.IsNaN(got) {
		if math.IsInf(got, 0) && got == wf {
			return 0
		}
		return math.Inf(1)
	}
	e := -1074
	if want.Sign() != 0 {
		e = max(want.MantExp(nil)-1-52, -1074)
	}
	d := new(big.Float).SetPrec(256).Sub(new(big.Float).SetFloat64(got), want)
	d.SetMantExp(d, -e)
	u, _ := d.Float64()
	return math.Abs(u)
}

// ulps32 is ulps64 for a float32 result against a float64 reference.
func ulps32(got float32, want float64) float64 {
	g := float64(got)
	if math.IsNaN(want) || math.IsNaN(g) {
		if math.IsNaN(want) && math.IsNaN(g) {
			return 0
		}
		return math.Inf(1)
	}
	if w32 := float32(want); math.IsInf(float64(w32), 0) || math.IsInf(g, 0) {
		if g == float64(w32) {
			return 0
		}
		return math.Inf(1)
	}
	e := -149
	if want != 0 {
		_, fe := math.Frexp(want)
		e = max(fe-1-23, -149)
	}
	return math.Abs(g-want) / math.Ldexp(1, e)
}

// same reports whether a and b are the same float (NaNs are all alike).
func same64(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || a != a && b != b
}

func same32(a, b float32) bool {
	return math.Float32bits(a) == math.Float32bits(b) || a != a && b != b
}
