package trace_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/internal/op"
	"github.com/tenferro-go/tenferro/internal/optest"
	"github.com/tenferro-go/tenferro/trace"
)

// parityCase runs one input of one catalog operation eagerly and traced.
// The inputs are float64 tensors, or, when dtypes is set, Values of those
// dtypes given to eagerV.
type parityCase struct {
	kind   op.Kind
	name   string
	shapes [][]int
	eager  func(e tf.Engine, in []*tf.Tensor[float64]) ([]int, error)
	traced func(tr *trace.Trace, in []trace.Var) (trace.Var, error)
	dtypes []tf.DType
	eagerV func(e tf.Engine, in []tf.Value) ([]int, error)
}

// pc is a parityCase of float64 operands.
func pc(kind op.Kind, name string, shapes [][]int, eager func(tf.Engine, []*tf.Tensor[float64]) ([]int, error), traced func(*trace.Trace, []trace.Var) (trace.Var, error)) parityCase {
	return parityCase{kind: kind, name: name, shapes: shapes, eager: eager, traced: traced}
}

// binaryShapes are the operand shapes every binary operation is run with.
var binaryShapes = []struct {
	name   string
	shapes [][]int
}{
	{"valid broadcast", [][]int{{2, 3}, {1, 3}}},
	{"extents", [][]int{{2, 3}, {3, 3}}},
	{"ranks", [][]int{{2, 3}, {2}}},
	{"scalar against matrix", [][]int{{}, {2, 2}}},
}

// shapeOfV is the shape of an eager result of any dtype.
func shapeOfV[T tf.Elem](t *tf.Tensor[T], err error) ([]int, error) {
	if err != nil {
		return nil, err
	}
	return t.Shape(), nil
}

// mixedCases lists the operations whose operands or results are not all
// float64: predicates, comparisons, complex parts, Complex, logical
// operations and Where.
func mixedCases() []parityCase {
	var cs []parityCase
	for _, p := range optest.PredicateOps[float64]() {
		cs = append(cs, parityCase{kind: p.Kind, name: "valid", shapes: [][]int{{2, 3}},
			eager:  func(e tf.Engine, in []*tf.Tensor[float64]) ([]int, error) { return shapeOfV(p.Eager(e, in[0])) },
			traced: func(tr *trace.Trace, in []trace.Var) (trace.Var, error) { return p.Traced(tr, in[0]) }})
	}
	for _, r := range optest.RealOps[float64]() {
		cs = append(cs, parityCase{kind: r.Kind, name: "valid", shapes: [][]int{{2, 3}},
			eager: func(e tf.Engine, in []*tf.Tensor[float64]) ([]int, error) {
				v, err := r.Eager(e, in[0])
				return v.Shape(), err
			},
			traced: func(tr *trace.Trace, in []trace.Var) (trace.Var, error) { return r.Traced(tr, in[0]) }})
	}
	for _, c := range optest.ComplexOps[float64]() {
		for _, bs := range binaryShapes {
			cs = append(cs, parityCase{kind: c.Kind, name: bs.name, shapes: bs.shapes,
				eager: func(e tf.Engine, in []*tf.Tensor[float64]) ([]int, error) {
					v, err := c.Eager(e, in[0], in[1])
					return v.Shape(), err
				},
				traced: func(tr *trace.Trace, in []trace.Var) (trace.Var, error) { return c.Traced(tr, in[0], in[1]) }})
		}
	}
	for _, c := range optest.CompareOps[float64]() {
		for _, bs := range binaryShapes {
			cs = append(cs, parityCase{kind: c.Kind, name: bs.name, shapes: bs.shapes,
				eager:  func(e tf.Engine, in []*tf.Tensor[float64]) ([]int, error) { return shapeOfV(c.Eager(e, in[0], in[1])) },
				traced: func(tr *trace.Trace, in []trace.Var) (trace.Var, error) { return c.Traced(tr, in[0], in[1]) }})
		}
	}
	asBool := func(v tf.Value) *tf.Tensor[bool] { t, _ := tf.As[bool](v); return t }
	for _, l := range optest.LogicalOps() {
		for _, bs := range binaryShapes {
			shapes := bs.shapes
			if l.Unary {
				shapes = shapes[:1]
			}
			cs = append(cs, parityCase{kind: l.Kind, name: bs.name, shapes: shapes, dtypes: []tf.DType{tf.Bool, tf.Bool},
				eagerV: func(e tf.Engine, in []tf.Value) ([]int, error) {
					b := asBool(in[0])
					if !l.Unary {
						b = asBool(in[1])
					}
					return shapeOfV(l.Eager(e, asBool(in[0]), b))
				},
				traced: func(tr *trace.Trace, in []trace.Var) (trace.Var, error) {
					if l.Unary {
						return l.Traced(tr, in[0], trace.Var{})
					}
					return l.Traced(tr, in[0], in[1])
				}})
		}
	}
	for _, c := range []struct {
		name   string
		shapes [][]int
	}{
		{"valid broadcast", [][]int{{3}, {2, 1}, {}}}, {"mask", [][]int{{4}, {2, 3}, {2, 3}}}, {"values", [][]int{{3}, {2, 3}, {3, 3}}},
	} {
		cs = append(cs, parityCase{kind: op.Where, name: c.name, shapes: c.shapes, dtypes: []tf.DType{tf.Bool, tf.Float64, tf.Float64},
			eagerV: func(e tf.Engine, in []tf.Value) ([]int, error) {
				a, _ := tf.As[float64](in[1])
				b, _ := tf.As[float64](in[2])
				return shapeOfV(tf.Where(e, asBool(in[0]), a, b))
			},
			traced: func(tr *trace.Trace, in []trace.Var) (trace.Var, error) { return tr.Where(in[0], in[1], in[2]) }})
	}
	return cs
}

// parityCases lists bad (and one good) inputs of every catalog operation:
// the generated operations by category, the others by hand.
func parityCases() []parityCase {
	var cs []parityCase
	shapeOf := func(t *tf.Tensor[float64], err error) ([]int, error) {
		if err != nil {
			return nil, err
		}
		return t.Shape(), nil
	}
	for _, u := range optest.UnaryOps[float64]() {
		cs = append(cs, pc(u.Kind, "valid", [][]int{{2, 3}},
			func(e tf.Engine, in []*tf.Tensor[float64]) ([]int, error) { return shapeOf(u.Eager(e, -1, 2, in[0])) },
			func(tr *trace.Trace, in []trace.Var) (trace.Var, error) { return u.Traced(tr, -1, 2, in[0]) }))
	}
	for _, b := range optest.BinaryOps[float64]() {
		for _, c := range binaryShapes {
			cs = append(cs, pc(b.Kind, c.name, c.shapes,
				func(e tf.Engine, in []*tf.Tensor[float64]) ([]int, error) { return shapeOf(b.Eager(e, in[0], in[1])) },
				func(tr *trace.Trace, in []trace.Var) (trace.Var, error) { return b.Traced(tr, in[0], in[1]) }))
		}
	}
	for _, r := range optest.Reductions[float64]() {
		for _, axes := range [][]int{{0}, {-1, 0}, {}, {2}, {-3}, {1, 1}, {0, -2}} {
			cs = append(cs, pc(r.Kind, "axes "+op.FmtInts(axes), [][]int{{2, 3}},
				func(e tf.Engine, in []*tf.Tensor[float64]) ([]int, error) { return shapeOf(r.Eager(e, in[0], axes...)) },
				func(tr *trace.Trace, in []trace.Var) (trace.Var, error) { return r.Traced(tr, in[0], axes...) }))
		}
	}
	for _, r := range optest.AllReductions[float64]() {
		if r.Kind == op.Sum {
			continue // above
		}
		for _, c := range []struct {
			p      float64
			axes   []int
			shapes [][]int
		}{
			{1, []int{0}, [][]int{{2, 3}}}, {2, []int{-1, 0}, [][]int{{2, 3}}}, {1, nil, [][]int{{2, 3}}}, {1, []int{2}, [][]int{{2, 3}}},
			{1, []int{1, 1}, [][]int{{2, 3}}}, {1, []int{1}, [][]int{{2, 0}}}, {-1, []int{0}, [][]int{{2, 3}}}, {0.5, []int{0}, [][]int{{2, 3}}},
		} {
			cs = append(cs, pc(r.Kind, fmt.Sprintf("p %v axes %v shape %v", c.p, c.axes, c.shapes[0]), c.shapes,
				func(e tf.Engine, in []*tf.Tensor[float64]) ([]int, error) {
					v, err := r.Eager(e, in[0], c.p, c.axes)
					return v.Shape(), err
				},
				func(tr *trace.Trace, in []trace.Var) (trace.Var, error) { return r.Traced(tr, in[0], c.p, c.axes) }))
		}
	}
	for _, r := range optest.BoolReductions() {
		for _, axes := range [][]int{{0}, {}, {2}, {1, 1}} {
			cs = append(cs, parityCase{kind: r.Kind, name: "axes " + op.FmtInts(axes), shapes: [][]int{{2, 3}}, dtypes: []tf.DType{tf.Bool},
				eagerV: func(e tf.Engine, in []tf.Value) ([]int, error) {
					b, _ := tf.As[bool](in[0])
					return shapeOfV(r.Eager(e, b, axes...))
				},
				traced: func(tr *trace.Trace, in []trace.Var) (trace.Var, error) { return r.Traced(tr, in[0], axes...) }})
		}
	}
	for _, shapes := range [][][]int{{{2, 3}, {3, 4}}, {{2, 3}, {4, 5}}, {{2}, {2}}, {{2, 3, 4}, {3, 2}}, {{2, 3, 4}, {3, 2, 5}}, {{2, 3, 1}, {3, 2, 5}}} {
		cs = append(cs, pc(op.Matmul, "shapes", shapes,
			func(e tf.Engine, in []*tf.Tensor[float64]) ([]int, error) { return shapeOf(tf.Matmul(e, in[0], in[1])) },
			func(tr *trace.Trace, in []trace.Var) (trace.Var, error) { return tr.Matmul(in[0], in[1]) }))
	}
	for _, c := range []struct {
		subs   string
		shapes [][]int
	}{
		{"ij,jk->ik", [][]int{{2, 3}, {3, 4}}},
		{"ij,jk->ik", [][]int{{2, 3}, {4, 4}}},
		{"ij,jk->ik", [][]int{{2, 3}}},
		{"ij,jk->ik", [][]int{{2, 3, 1}, {3, 4}}},
		{"i$j", [][]int{{2, 3}}},
		{"ii->i", [][]int{{2, 3}}},
		{"ij->k", [][]int{{2, 3}}},
		{"...ij,...jk", [][]int{{2, 2, 3}, {3, 3, 4}}},
	} {
		cs = append(cs, pc(op.Einsum, c.subs, c.shapes,
			func(e tf.Engine, in []*tf.Tensor[float64]) ([]int, error) {
				return shapeOf(tf.Einsum(e, c.subs, in...))
			},
			func(tr *trace.Trace, in []trace.Var) (trace.Var, error) { return tr.Einsum(c.subs, in...) }))
	}
	for _, perm := range [][]int{{1, 0, 2}, {-1, 0, 1}, {0, 1}, {0, 0, 1}, {0, 1, 3}, {0, 1, -4}, {0, 1, 2, 3}} {
		cs = append(cs, pc(op.Permute, "perm "+op.FmtInts(perm), [][]int{{2, 3, 4}},
			func(_ tf.Engine, in []*tf.Tensor[float64]) ([]int, error) { return shapeOf(in[0].Permute(perm...)) },
			func(tr *trace.Trace, in []trace.Var) (trace.Var, error) { return tr.Permute(in[0], perm...) }))
	}
	for _, shape := range [][]int{{4, 6}, {-1, 2}, {5, 5}, {-1, -1}, {-2, 12}, {0, -1}, {24, 1 << 50}, {2, 3, 4, 1}} {
		cs = append(cs, pc(op.Reshape, "shape "+op.FmtInts(shape), [][]int{{2, 3, 4}},
			func(_ tf.Engine, in []*tf.Tensor[float64]) ([]int, error) { return shapeOf(in[0].Reshape(shape...)) },
			func(tr *trace.Trace, in []trace.Var) (trace.Var, error) { return tr.Reshape(in[0], shape...) }))
	}
	cs = append(cs, pc(op.Copy, "valid", [][]int{{2, 3}},
		func(e tf.Engine, in []*tf.Tensor[float64]) ([]int, error) { return shapeOf(tf.Copy(e, in[0])) },
		func(tr *trace.Trace, in []trace.Var) (trace.Var, error) { return tr.Copy(in[0]) }))
	cs = append(cs, structuralCases()...)
	cs = append(cs, indexingCases()...)
	cs = append(cs, linalgCases()...)
	cs = append(cs, convertCases()...)
	return append(cs, mixedCases()...)
}

// TestEagerTracedErrorsAgree runs every catalog operation's inputs (bad
// ones above all) eagerly and traced: the errors must be identical (same
// kind, same message) and valid inputs must give the same shape.
func TestEagerTracedErrorsAgree(t *testing.T) {
	e := cpu.Serial()
	defer e.Close()
	covered := map[op.Kind]bool{}
	for _, c := range parityCases() {
		covered[c.kind] = true
		name := c.kind.String() + " " + c.name
		ins := make([]*tf.Tensor[float64], len(c.shapes))
		vals := make([]tf.Value, len(c.shapes))
		tr := trace.New()
		vars := make([]trace.Var, len(c.shapes))
		for i, s := range c.shapes {
			dt := tf.Float64
			if c.dtypes != nil {
				dt = c.dtypes[i]
			}
			vals[i], _ = tf.NewValue(dt, s...)
			ins[i], _ = tf.As[float64](vals[i])
			vars[i], _ = tr.Input(dt, s...)
		}
		var shape []int
		var eerr error
		if c.eagerV != nil {
			shape, eerr = c.eagerV(e, vals)
		} else {
			shape, eerr = c.eager(e, ins)
		}
		v, terr := c.traced(tr, vars)
		switch {
		case eerr == nil && terr == nil:
			if !slices.Equal(shape, v.Shape()) {
				t.Errorf("%s: eager shape %v, traced %v", name, shape, v.Shape())
			}
		case eerr == nil || terr == nil:
			t.Errorf("%s: eager error %v, traced error %v", name, eerr, terr)
		case eerr.Error() != terr.Error():
			t.Errorf("%s: errors differ:\n eager  %v\n traced %v", name, eerr, terr)
		default:
			for _, kind := range []error{tf.ErrShape, tf.ErrArgument, tf.ErrDType, tf.ErrLayout} {
				if errors.Is(eerr, kind) != errors.Is(terr, kind) {
					t.Errorf("%s: kinds differ: eager %v, traced %v", name, eerr, terr)
				}
			}
		}
	}
	for _, k := range op.Kinds() {
		if !covered[k] && k != op.GaugeCheck { // GaugeCheck: package ad's, no eager twin
			t.Errorf("catalog operation %v has no eager-versus-traced cases", k)
		}
	}
}
