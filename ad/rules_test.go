package ad_test

import (
	"math"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/trace"
)

func unary(f func(tr *trace.Trace, a trace.Var) (trace.Var, error)) builder {
	return func(tr *trace.Trace, xs []trace.Var) (trace.Var, error) { return f(tr, xs[0]) }
}

func binary(f func(tr *trace.Trace, a, b trace.Var) (trace.Var, error)) builder {
	return func(tr *trace.Trace, xs []trace.Var) (trace.Var, error) { return f(tr, xs[0], xs[1]) }
}

var mat = [][]int{{5, 3}}

func TestUnaryRules(t *testing.T) {
	cases := []adCase{
		{name: "Copy", shapes: mat, build: unary((*trace.Trace).Copy)},
		{name: "Negate", shapes: mat, build: unary((*trace.Trace).Negate)},
		{name: "Conj", shapes: mat, build: unary((*trace.Trace).Conj)},
		{name: "Scale", shapes: mat, build: unary(func(tr *trace.Trace, a trace.Var) (trace.Var, error) { return tr.Scale(-1.5, a) })},
		{name: "ScaleComplex", shapes: mat, build: unary(func(tr *trace.Trace, a trace.Var) (trace.Var, error) {
			if a.DType().IsComplex() {
				return tr.Scale(complex(0.5, -2), a)
			}
			return tr.Scale(3, a)
		})},
		{name: "Sqrt", shapes: mat, build: unary((*trace.Trace).Sqrt), lo: 0.5, hi: 2},
		{name: "Rsqrt", shapes: mat, build: unary((*trace.Trace).Rsqrt), lo: 0.5, hi: 2},
		{name: "Square", shapes: mat, build: unary((*trace.Trace).Square)},
		{name: "Reciprocal", shapes: mat, build: unary((*trace.Trace).Reciprocal), lo: 0.5, hi: 2},
		{name: "Exp", shapes: mat, build: unary((*trace.Trace).Exp)},
		{name: "Expm1", shapes: mat, build: unary((*trace.Trace).Expm1)},
		{name: "Log", shapes: mat, build: unary((*trace.Trace).Log), lo: 0.5, hi: 2},
		{name: "Log1p", shapes: mat, build: unary((*trace.Trace).Log1p), lo: 0.1, hi: 2},
		{name: "Sin", shapes: mat, build: unary((*trace.Trace).Sin)},
		{name: "Cos", shapes: mat, build: unary((*trace.Trace).Cos)},
		{name: "Tan", shapes: mat, build: unary((*trace.Trace).Tan)},
		{name: "Tanh", shapes: mat, build: unary((*trace.Trace).Tanh)},
		{name: "Sinh", shapes: mat, build: unary((*trace.Trace).Sinh)},
		{name: "Cosh", shapes: mat, build: unary((*trace.Trace).Cosh)},
		{name: "Asin", shapes: mat, build: unary((*trace.Trace).Asin), lo: -0.8, hi: 0.8},
		{name: "Acos", shapes: mat, build: unary((*trace.Trace).Acos), lo: -0.8, hi: 0.8},
		{name: "Atan", shapes: mat, build: unary((*trace.Trace).Atan)},
		{name: "Sigmoid", shapes: mat, build: unary((*trace.Trace).Sigmoid), real: true, lo: -3, hi: 3},
		{name: "Relu", shapes: mat, build: unary((*trace.Trace).Relu), real: true},
		{name: "Gelu", shapes: mat, build: unary((*trace.Trace).Gelu), real: true, lo: -3, hi: 3},
		{name: "Erf", shapes: mat, build: unary((*trace.Trace).Erf), real: true, lo: -2, hi: 2},
		{name: "Erfc", shapes: mat, build: unary((*trace.Trace).Erfc), real: true, lo: -2, hi: 2},
		{name: "Floor", shapes: mat, build: unary((*trace.Trace).Floor), real: true, lo: 0.1, hi: 0.9},
		{name: "Round", shapes: mat, build: unary((*trace.Trace).Round), real: true, lo: 0.1, hi: 0.4},
		{name: "Clip", shapes: mat, build: unary(func(tr *trace.Trace, a trace.Var) (trace.Var, error) { return tr.Clip(a, -0.5, 0.5) }), real: true},
		{name: "Sign", shapes: mat, build: unary((*trace.Trace).Sign), lo: 0.1, hi: 1},
		{name: "Abs", shapes: mat, build: unary((*trace.Trace).Abs), lo: 0.1, hi: 1},
		{name: "AbsMixedSigns", shapes: mat, build: unary((*trace.Trace).Abs)},
		{name: "Real", shapes: mat, build: unary((*trace.Trace).Real)},
		{name: "Imag", shapes: mat, build: unary((*trace.Trace).Imag)},
		{name: "Angle", shapes: mat, build: unary((*trace.Trace).Angle), lo: 0.2, hi: 1},
	}
	runCases(t, cases)
}

func TestBinaryRules(t *testing.T) {
	bc := [][]int{{4, 1}, {3, 4, 5}}
	same := [][]int{{4, 5}, {4, 5}}
	cases := []adCase{
		{name: "Add", shapes: bc, build: binary((*trace.Trace).Add)},
		{name: "Sub", shapes: bc, build: binary((*trace.Trace).Sub)},
		{name: "SubScalar", shapes: [][]int{{}, {3, 2}}, build: binary((*trace.Trace).Sub)},
		{name: "Mul", shapes: bc, build: binary((*trace.Trace).Mul)},
		{name: "Div", shapes: bc, build: binary((*trace.Trace).Div), lo: 0.5, hi: 2},
		{name: "Pow", shapes: same, build: binary((*trace.Trace).Pow), lo: 0.5, hi: 2},
		{name: "PowBroadcast", shapes: bc, build: binary((*trace.Trace).Pow), lo: 0.5, hi: 2},
		{name: "Maximum", shapes: bc, build: binary((*trace.Trace).Maximum), real: true},
		{name: "Minimum", shapes: bc, build: binary((*trace.Trace).Minimum), real: true},
		{name: "Atan2", shapes: bc, build: binary((*trace.Trace).Atan2), real: true},
		{name: "Hypot", shapes: bc, build: binary((*trace.Trace).Hypot), real: true},
		{name: "Complex", shapes: bc, build: binary((*trace.Trace).Complex), real: true},
		{name: "Where", shapes: bc, build: binary(func(tr *trace.Trace, a, b trace.Var) (trace.Var, error) {
			ra, err := tr.Real(a)
			if err != nil {
				return trace.Var{}, err
			}
			zero, _ := tr.Full(ra.DType(), 0)
			m, err := tr.Greater(ra, zero)
			if err != nil {
				return trace.Var{}, err
			}
			return tr.Where(m, a, b)
		})},
		{name: "Matmul", shapes: [][]int{{3, 4, 2}, {4, 5, 1}}, build: binary((*trace.Trace).Matmul)},
		{name: "MatmulSquare", shapes: [][]int{{3, 3}, {3, 3}}, build: binary(func(tr *trace.Trace, a, b trace.Var) (trace.Var, error) {
			ab, err := tr.Matmul(a, b)
			if err != nil {
				return trace.Var{}, err
			}
			return tr.Matmul(ab, a)
		})},
	}
	runCases(t, cases)
}

func reduce(f func(tr *trace.Trace, a trace.Var, axes ...int) (trace.Var, error), axes ...int) builder {
	return func(tr *trace.Trace, xs []trace.Var) (trace.Var, error) { return f(tr, xs[0], axes...) }
}

func TestReductionRules(t *testing.T) {
	s := [][]int{{3, 4, 5}}
	cases := []adCase{
		{name: "SumAll", shapes: s, build: reduce((*trace.Trace).Sum)},
		{name: "Sum02", shapes: s, build: reduce((*trace.Trace).Sum, 0, 2)},
		{name: "Mean1", shapes: s, build: reduce((*trace.Trace).Mean, -2)},
		{name: "Prod", shapes: s, build: reduce((*trace.Trace).Prod, 1, 0), lo: 0.5, hi: 1.5},
		{name: "ProdAll", shapes: [][]int{{2, 3}}, build: reduce((*trace.Trace).Prod), lo: 0.5, hi: 1.5},
		{name: "Max", shapes: s, build: reduce((*trace.Trace).Max, 1), real: true},
		{name: "Min", shapes: s, build: reduce((*trace.Trace).Min, 0, 2), real: true},
		{name: "LogSumExp", shapes: s, build: reduce((*trace.Trace).LogSumExp, 2), real: true},
		{name: "Var", shapes: s, build: func(tr *trace.Trace, xs []trace.Var) (trace.Var, error) { return tr.Var(xs[0], 1, 0, 2) }},
		{name: "Std", shapes: s, build: func(tr *trace.Trace, xs []trace.Var) (trace.Var, error) { return tr.Std(xs[0], 0, 1) }},
		{name: "Norm2", shapes: s, build: func(tr *trace.Trace, xs []trace.Var) (trace.Var, error) { return tr.Norm(xs[0], 2, 0, 1) }},
		{name: "Norm1", shapes: s, build: func(tr *trace.Trace, xs []trace.Var) (trace.Var, error) { return tr.Norm(xs[0], 1, 2) }},
		{name: "Norm3", shapes: s, build: func(tr *trace.Trace, xs []trace.Var) (trace.Var, error) { return tr.Norm(xs[0], 3) }},
		{name: "NormInf", shapes: s, build: func(tr *trace.Trace, xs []trace.Var) (trace.Var, error) { return tr.Norm(xs[0], math.Inf(1), 1) }},
		{name: "NormNegInf", shapes: s, build: func(tr *trace.Trace, xs []trace.Var) (trace.Var, error) { return tr.Norm(xs[0], math.Inf(-1), 1) }},
		{name: "CumSum", shapes: s, build: func(tr *trace.Trace, xs []trace.Var) (trace.Var, error) { return tr.CumSum(xs[0], 1) }},
		{name: "CumProd", shapes: s, build: func(tr *trace.Trace, xs []trace.Var) (trace.Var, error) { return tr.CumProd(xs[0], -1) }, lo: 0.5, hi: 1.5},
	}
	runCases(t, cases)
}

func TestStructuralRules(t *testing.T) {
	s := [][]int{{3, 4, 2}}
	idx := map[int][]int64{1: {2, 0, 2, 1, 3}}
	cases := []adCase{
		{name: "Permute", shapes: s, build: unary(func(tr *trace.Trace, a trace.Var) (trace.Var, error) { return tr.Permute(a, 2, 0, 1) })},
		{name: "Reshape", shapes: s, build: unary(func(tr *trace.Trace, a trace.Var) (trace.Var, error) { return tr.Reshape(a, 6, -1) })},
		{name: "Flatten", shapes: s, build: unary((*trace.Trace).Flatten)},
		{name: "SqueezeUnsqueeze", shapes: [][]int{{3, 1, 2}}, build: unary(func(tr *trace.Trace, a trace.Var) (trace.Var, error) {
			x, err := tr.Squeeze(a, 1)
			if err != nil {
				return x, err
			}
			return tr.Unsqueeze(x, 0, 3)
		})},
		{name: "Concatenate", shapes: [][]int{{3, 2}, {3, 4}}, build: func(tr *trace.Trace, xs []trace.Var) (trace.Var, error) {
			return tr.Concatenate(1, xs[0], xs[1], xs[0])
		}},
		{name: "Stack", shapes: [][]int{{3, 2}, {3, 2}}, build: func(tr *trace.Trace, xs []trace.Var) (trace.Var, error) {
			return tr.Stack(1, xs[0], xs[1])
		}},
		{name: "Split", shapes: s, build: unary(func(tr *trace.Trace, a trace.Var) (trace.Var, error) {
			ps, err := tr.SplitAt(a, 1, 1, 3)
			if err != nil {
				return trace.Var{}, err
			}
			return tr.Concatenate(1, ps[2], ps[0])
		})},
		{name: "Tile", shapes: s, build: unary(func(tr *trace.Trace, a trace.Var) (trace.Var, error) { return tr.Tile(a, 2, 1, 3, 1) })},
		{name: "RepeatUniform", shapes: s, build: unary(func(tr *trace.Trace, a trace.Var) (trace.Var, error) { return tr.Repeat(a, 1, 3) })},
		{name: "RepeatCounts", shapes: s, build: unary(func(tr *trace.Trace, a trace.Var) (trace.Var, error) { return tr.Repeat(a, 0, 2, 0, 3) })},
		{name: "PadConstant", shapes: s, build: unary(func(tr *trace.Trace, a trace.Var) (trace.Var, error) {
			return tr.Pad(a, [][2]int{{1, 2}, {0, 0}, {2, 1}}, tf.PadConstant, 1)
		})},
		{name: "PadReflect", shapes: s, build: unary(func(tr *trace.Trace, a trace.Var) (trace.Var, error) {
			return tr.Pad(a, [][2]int{{2, 1}, {1, 3}, {0, 0}}, tf.PadReflect, 0)
		})},
		{name: "PadEdgeWrap", shapes: s, build: unary(func(tr *trace.Trace, a trace.Var) (trace.Var, error) {
			x, err := tr.Pad(a, [][2]int{{2, 1}, {0, 0}, {1, 0}}, tf.PadEdge, 0)
			if err != nil {
				return x, err
			}
			return tr.Pad(x, [][2]int{{0, 0}, {5, 2}, {0, 0}}, tf.PadWrap, 0)
		})},
		{name: "PadSymmetric", shapes: s, build: unary(func(tr *trace.Trace, a trace.Var) (trace.Var, error) {
			return tr.Pad(a, [][2]int{{4, 1}, {1, 1}, {0, 2}}, tf.PadSymmetric, 0)
		})},
		{name: "TrilTriu", shapes: [][]int{{4, 3, 2}}, build: unary(func(tr *trace.Trace, a trace.Var) (trace.Var, error) {
			x, err := tr.Tril(a, 1)
			if err != nil {
				return x, err
			}
			return tr.Triu(x, -1)
		})},
		{name: "Roll", shapes: s, build: unary(func(tr *trace.Trace, a trace.Var) (trace.Var, error) { return tr.Roll(a, []int{1, -3}, []int{0, 1}) })},
		{name: "DiagVector", shapes: [][]int{{4}}, build: unary(func(tr *trace.Trace, a trace.Var) (trace.Var, error) { return tr.Diag(a, -1) })},
		{name: "DiagMatrix", shapes: [][]int{{4, 6}}, build: unary(func(tr *trace.Trace, a trace.Var) (trace.Var, error) { return tr.Diag(a, 1) })},
		{name: "DiagTall", shapes: [][]int{{6, 3}}, build: unary(func(tr *trace.Trace, a trace.Var) (trace.Var, error) { return tr.Diag(a, -2) })},
		{name: "Contiguous", shapes: s, build: unary(func(tr *trace.Trace, a trace.Var) (trace.Var, error) { return tr.Contiguous(a, tf.RowMajor) })},
		{name: "Take", shapes: [][]int{{3, 4, 2}, {5}}, intArgs: idx, build: func(tr *trace.Trace, xs []trace.Var) (trace.Var, error) {
			return tr.Take(xs[0], 1, xs[1])
		}},
		{name: "Gather", shapes: [][]int{{3, 4}, {3, 2}}, intArgs: map[int][]int64{1: {0, 3, 3, 1, 2, 3}}, build: func(tr *trace.Trace, xs []trace.Var) (trace.Var, error) {
			return tr.Gather(xs[0], 1, xs[1])
		}},
		{name: "MaskedSelectPadded", shapes: [][]int{{3, 4}}, build: maskedSelect([]float64{1, -1, 2, 0, 3, -2, 1, 1, -1, 4, 0, 2}, []int{3, 4}, 9)},
		{name: "MaskedSelectExact", shapes: [][]int{{3, 4}}, build: maskedSelect([]float64{1, -1, 2, 0, 3, -2, 1, 1, -1, 4, 0, 2}, []int{3, 4}, 7)},
		{name: "MaskedSelectBroadcast", shapes: [][]int{{3, 1}}, build: maskedSelect(thirds(24), []int{2, 3, 4}, 10)},
		{name: "Convert", shapes: s, build: unary(func(tr *trace.Trace, a trace.Var) (trace.Var, error) {
			// f64 → c128 → f64 (the real part), and c128 → f64 → c128.
			to := tf.Complex128
			if a.DType().IsComplex() {
				to = tf.Float64
			}
			x, err := tr.Convert(a, to)
			if err != nil {
				return x, err
			}
			sq, _ := tr.Square(x)
			return tr.Convert(sq, a.DType())
		})},
		{name: "ScatterAdd", shapes: [][]int{{3, 4}, {3, 2}, {3, 3}}, intArgs: map[int][]int64{1: {0, 3, 3, 1, 2, 3}}, build: func(tr *trace.Trace, xs []trace.Var) (trace.Var, error) {
			return tr.ScatterAdd(xs[0], 1, xs[1], xs[2])
		}},
	}
	runCases(t, cases)
}

func TestEinsumRules(t *testing.T) {
	es := func(sub string) builder {
		return func(tr *trace.Trace, xs []trace.Var) (trace.Var, error) { return tr.Einsum(sub, xs...) }
	}
	cases := []adCase{
		{name: "matmul", shapes: [][]int{{3, 4}, {4, 5}}, build: es("ij,jk->ik")},
		{name: "chain", shapes: [][]int{{3, 4}, {4, 5}, {5, 2}}, build: es("ij,jk,kl->il")},
		{name: "trace", shapes: [][]int{{4, 4}}, build: es("ii->")},
		{name: "diagonal", shapes: [][]int{{4, 4, 3}}, build: es("iij->ij")},
		{name: "embed", shapes: [][]int{{4}}, build: es("i->ii")},
		{name: "summedOnly", shapes: [][]int{{3, 4}, {3}}, build: es("ij,i->i")},
		{name: "outer", shapes: [][]int{{3}, {2}}, build: es("i,j->ij")},
		{name: "broadcast", shapes: [][]int{{3, 1}, {3, 4}}, build: es("ij,ij->ij")},
		{name: "ellipsis", shapes: [][]int{{3, 4, 2}, {4, 5}}, build: es("ij...,jk->ik...")},
		{name: "sameOperandTwice", shapes: [][]int{{3, 3}}, build: func(tr *trace.Trace, xs []trace.Var) (trace.Var, error) {
			return tr.Einsum("ij,jk->ik", xs[0], xs[0])
		}},
		{name: "scalar", shapes: [][]int{{}, {3}}, build: es(",i->i")},
		{name: "sumOfOuter", shapes: [][]int{{3}, {4}}, build: summed("i,j->ij")},
		{name: "sumOfBatchedMatmul", shapes: [][]int{{2, 3, 5}, {3, 4, 5}}, build: summed("ijb,jkb->ikb")},
		{name: "sumOfChain", shapes: [][]int{{2, 3}, {3, 4}, {4, 5}}, build: summed("ij,jk,kl->il")},
		{name: "sumOfEmbed", shapes: [][]int{{3}, {3}}, build: summed("i,i->ii")},
		{name: "pairwiseDiagonal", shapes: [][]int{{3, 3, 4}, {4, 2}, {2}}, build: es("iij,jk,k->ik")},
		{name: "pairwiseTriple", shapes: [][]int{{5}, {5}, {5}}, build: es("i,i,i->")},
		{name: "pairwiseTrace", shapes: [][]int{{3, 4}, {4, 2}, {2, 3}}, build: es("ab,bc,ca->")},
		{name: "pairwiseEllipsis", shapes: [][]int{{3, 2, 2}, {3, 4}, {4}}, build: es("a...,ab,b->...")},
		{name: "pairwiseBroadcast", shapes: [][]int{{3, 1}, {1, 4}, {3, 4}, {4}}, build: es("ij,ij,ij,j->i")},
		{name: "pairwiseEmbed", shapes: [][]int{{3, 4}, {4}, {4}}, build: es("ij,j,j->ii")},
		{name: "pairwiseTransposedOut", shapes: [][]int{{2, 3}, {3, 4}, {4, 5}}, build: es("ij,jk,kl->li")},
	}
	runCases(t, cases)
}

// maskedSelect selects from the input where the constant m (of the given
// shape) is positive, into size elements.
func maskedSelect(m []float64, shape []int, size int) builder {
	return func(tr *trace.Trace, xs []trace.Var) (trace.Var, error) {
		mt, err := tf.FromSlice(m, shape...)
		if err != nil {
			return trace.Var{}, err
		}
		c, _ := tr.Const(tf.ValueOf(mt))
		zero, _ := tr.Full(tf.Float64, 0)
		mask, err := tr.Greater(c, zero)
		if err != nil {
			return mask, err
		}
		return tr.MaskedSelect(xs[0], mask, size)
	}
}

// thirds is -1, 0, 1, -1, 0, 1, ... (n values).
func thirds(n int) []float64 {
	m := make([]float64, n)
	for i := range m {
		m[i] = float64(i%3 - 1)
	}
	return m
}

// summed is Σ einsum(sub, xs): the sum's cotangent repeats one value.
func summed(sub string) builder {
	return func(tr *trace.Trace, xs []trace.Var) (trace.Var, error) {
		y, err := tr.Einsum(sub, xs...)
		if err != nil {
			return y, err
		}
		return tr.Sum(y)
	}
}
