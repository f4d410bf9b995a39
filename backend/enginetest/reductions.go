package enginetest

import (
	"errors"
	"math"
	"math/cmplx"
	"slices"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/internal/op"
	"github.com/tenferro-go/tenferro/internal/optest"
	"github.com/tenferro-go/tenferro/program"
	"github.com/tenferro-go/tenferro/trace"
)

// reductionCase is one reduction call of the suite: the axes and the
// attribute.
type reductionCase struct {
	axes []int
	p    float64
}

// reductionCases lists the calls the suite makes of reduction k on a
// tensor of rank n.
func reductionCases(k op.Kind, n int) []reductionCase {
	info := k.Info()
	var axesSets [][]int
	if info.Attr == op.AxisAttr {
		for d := range n {
			axesSets = append(axesSets, []int{d})
		}
		if n > 0 {
			axesSets = append(axesSets, []int{-1})
		}
	} else {
		axesSets = [][]int{nil}
		if n > 0 {
			axesSets = append(axesSets, []int{0}, []int{-1})
		}
		if n > 1 {
			axesSets = append(axesSets, []int{n - 1, 0}, []int{-2})
		}
	}
	ps := []float64{0}
	switch info.Attr {
	case op.DdofAttr:
		ps = []float64{0, 1}
	case op.OrdAttr:
		ps = []float64{1, 2, 3.5, math.Inf(1), 0, -1.5, math.Inf(-1)}
	}
	var cs []reductionCase
	for _, axes := range axesSets {
		for _, p := range ps {
			cs = append(cs, reductionCase{axes, p})
		}
	}
	return cs
}

// reductionRef is the reference result of reduction or scan k of x (dense
// values xd of shape) over mask: the values, the result's shape and a
// tolerance per element for unit roundoff u.
func reductionRef(k op.Kind, shape []int, xd []complex128, mask uint64, p, u float64) (out []int, want []complex128, tol []float64) {
	info := k.Info()
	scan := info.Category == op.Scan
	for d, s := range shape {
		if scan || mask&(1<<uint(d)) == 0 {
			out = append(out, s)
		}
	}
	cnt := op.Count(out)
	groups := make([][]complex128, cnt)
	pos := make([]int, len(xd)) // scans: the position within its group
	i := 0
	Each(shape, func(idx []int) {
		g, st := 0, 1
		for d, s := range shape {
			if mask&(1<<uint(d)) == 0 {
				g += idx[d] * st
				st *= s
			}
		}
		pos[i] = len(groups[g])
		groups[g] = append(groups[g], xd[i])
		i++
	})
	want, tol = make([]complex128, cnt), make([]float64, cnt)
	// elemTol bounds the error of a result w over xs.
	elemTol := func(xs []complex128, w complex128) float64 {
		n := float64(len(xs) + 2)
		var absSum, prod float64 = 0, 1
		for _, x := range xs {
			absSum += cmplx.Abs(x)
			prod *= cmplx.Abs(x)
		}
		switch k {
		case op.Prod, op.CumProd:
			return 8 * n * u * prod
		case op.ArgMax, op.ArgMin:
			return 0
		case op.Var, op.Std:
			return 16 * n * u * (absSum*absSum/n + cmplx.Abs(w))
		case op.Norm, op.Max, op.Min:
			return 8 * n * u * cmplx.Abs(w)
		}
		return 8 * n * u * (absSum + cmplx.Abs(w))
	}
	if !scan {
		for g, xs := range groups {
			want[g] = info.RefReduce(xs, p)
			tol[g] = elemTol(xs, want[g])
		}
		return out, want, tol
	}
	// A scan's element is the reference of its group's prefix; the
	// output is in x's order.
	i = 0
	Each(shape, func(idx []int) {
		g, st := 0, 1
		for d, s := range shape {
			if mask&(1<<uint(d)) == 0 {
				g += idx[d] * st
				st *= s
			}
		}
		xs := groups[g][:pos[i]+1]
		want[i] = info.RefReduce(xs, p)
		tol[i] = elemTol(xs, want[i])
		i++
	})
	return out, want, tol
}

// compareAny compares a result of any dtype with want.
func compareAny(t testing.TB, what string, got tf.Value, want []complex128, tol []float64) {
	t.Helper()
	c, err := tf.Convert(got, tf.Complex128)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	compare(t, what, c.Tensor().(*tf.Tensor[complex128]), want, tol)
}

func keepShape(shape []int, mask uint64) []int {
	out := make([]int, len(shape))
	for d, s := range shape {
		out[d] = s
		if mask&(1<<uint(d)) != 0 {
			out[d] = 1
		}
	}
	return out
}

// reductions checks every generated reduction and scan that accepts T,
// eager, Into (with the result's shape and NumPy's keepdims shape) and
// traced, on the suite's shapes and layouts against the catalog's
// references.
func (suite[T]) reductions(t *testing.T, e tf.Engine) {
	r := rng(11)
	u := UnitRoundoff[T]()
	// -short (the race detector's run) keeps two layouts and one traced
	// run per operation and shape.
	layouts := []int{Compact, Transposed}
	if !testing.Short() {
		layouts = layouts[:0]
		for kind := range NumLayouts {
			layouts = append(layouts, kind)
		}
	}
	for _, red := range optest.AllReductions[T]() {
		info := red.Kind.Info()
		for _, shape := range Shapes {
			for _, kind := range layouts {
				x := Operand[T](t, r, shape, kind)
				xd := Dense(x)
				for ci, c := range reductionCases(red.Kind, len(shape)) {
					what := name(red.Kind, shape, " axes ", c.axes, " p ", c.p, " ", LayoutName(kind))
					mask, _ := op.AxisMask("axes", c.axes, len(shape))
					out, want, tol := reductionRef(red.Kind, shape, xd, mask, c.p, u)
					roundTo[T](want, info.Result != op.SameDType)
					tiny := math.SmallestNonzeroFloat64 * (1 << 52)
					if u > 1e-10 {
						tiny = math.SmallestNonzeroFloat32 * (1 << 23)
					}
					for i := range tol {
						tol[i] += 8 * tiny // results rounded into the subnormal range
					}
					got, err := red.Eager(e, x, c.p, c.axes)
					empty := false
					for d, s := range shape {
						empty = empty || (mask&(1<<uint(d)) != 0 && s == 0)
					}
					if empty && (info.NonEmpty || info.Attr == op.OrdAttr && math.IsInf(c.p, -1)) {
						if !errors.Is(err, tf.ErrShape) {
							t.Fatalf("%s: empty reduced set gives %v, want an ErrShape error", what, err)
						}
						continue
					}
					mustNil(t, what, err)
					if !slices.Equal(got.Shape(), out) {
						t.Fatalf("%s: shape %v, want %v", what, got.Shape(), out)
					}
					compareAny(t, what, got, want, tol)
					dtOut := got.DType()
					mustNil(t, what, got.Release())
					shapes := [][]int{out}
					if info.Category == op.Reduction && len(out) != len(shape) {
						shapes = append(shapes, keepShape(shape, mask))
					}
					for _, ds := range shapes {
						dst, err := tf.NewValue(dtOut, ds...)
						mustNil(t, what, err)
						mustNil(t, what+" into", red.Into(e, dst, x, c.p, c.axes))
						compareAny(t, what+" into", dst, want, tol)
					}
					if kind == Compact && len(shape) > 0 && (ci == 0 || !testing.Short()) {
						got := runTraced(t, e, red, x, c)
						compareAny(t, what+" traced", got, want, tol)
					}
				}
			}
		}
	}
}

// runTraced runs reduction red of x through a compiled program.
func runTraced[T tf.Scalar](t *testing.T, e tf.Engine, red optest.AnyReduction[T], x *tf.Tensor[T], c reductionCase) tf.Value {
	t.Helper()
	tr := trace.New()
	in, err := tr.Input(tf.DTypeOf[T](), x.Shape()...)
	mustNil(t, "Input", err)
	v, err := red.Traced(tr, in, c.p, c.axes)
	mustNil(t, "traced "+red.Kind.String(), err)
	g, err := tr.Finish(v)
	mustNil(t, "Finish", err)
	p, err := program.Compile(g)
	mustNil(t, "Compile", err)
	pp, err := program.Prepare(p, e)
	mustNil(t, "Prepare", err)
	outs, err := pp.Run(tf.ValueOf(x))
	mustNil(t, "Run", err)
	return outs[0]
}

// roundTo rounds reference values to the precision of T, and to reals
// where T is real or the result is (real).
func roundTo[T tf.Scalar](want []complex128, realResult bool) {
	real32 := tf.DTypeOf[T]().Real() == tf.Float32
	for i, w := range want {
		re, im := real(w), imag(w)
		if realResult || !isComplex[T]() {
			im = 0
		}
		if real32 {
			re, im = float64(float32(re)), float64(float32(im))
		}
		want[i] = complex(re, im)
	}
}

// testBoolReductions checks All and Any on random bool tensors of the
// suite's shapes and layouts, eager and Into.
func testBoolReductions(t *testing.T, e tf.Engine) {
	r := rng(12)
	for _, shape := range Shapes {
		for kind := range NumLayouts {
			a, _ := LayoutView(must(tf.Zeros[bool](LayoutBase(shape, kind, 0)...)), kind, 0)
			// Mostly true, so that All is not always false.
			Each(shape, func(idx []int) { a.Set(r.IntN(8) != 0, idx...) })
			var xd []complex128
			Each(shape, func(idx []int) { v, _ := a.At(idx...); xd = append(xd, truth(v)) })
			for _, red := range optest.BoolReductions() {
				for _, c := range reductionCases(red.Kind, len(shape)) {
					what := name(red.Kind, shape, " axes ", c.axes, " ", LayoutName(kind))
					mask, _ := op.AxisMask("axes", c.axes, len(shape))
					out, ref, _ := reductionRef(red.Kind, shape, xd, mask, 0, 0)
					want := make([]bool, len(ref))
					for i, v := range ref {
						want[i] = v != 0
					}
					got, err := red.Eager(e, a, c.axes...)
					mustNil(t, what, err)
					checkBools(t, what, got, want)
					dst, whole := Destination(t, out, (kind+1)%NumLayouts, false)
					mustNil(t, what+" into", red.Into(e, dst, a, c.axes...))
					checkBools(t, what+" into", dst, want)
					checkOutside(t, what+" into", dst, whole, false)
				}
			}
		}
	}
}
