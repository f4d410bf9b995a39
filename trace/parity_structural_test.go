package trace_test

import (
	"fmt"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/internal/op"
	"github.com/tenferro-go/tenferro/trace"
)

type f64s = []*tf.Tensor[float64]

// one runs a case with one float64 operand of shape.
func one(kind op.Kind, name string, shape []int, eager func(tf.Engine, *tf.Tensor[float64]) (*tf.Tensor[float64], error), traced func(*trace.Trace, trace.Var) (trace.Var, error)) parityCase {
	return pc(kind, name, [][]int{shape},
		func(e tf.Engine, in f64s) ([]int, error) { return shapeOfV(eager(e, in[0])) },
		func(tr *trace.Trace, in []trace.Var) (trace.Var, error) { return traced(tr, in[0]) })
}

// firstPart adapts the multi-result split forms to parityCase.
func firstPart[V any](parts []V, err error) (V, error) {
	var zero V
	if err != nil || len(parts) == 0 {
		return zero, err
	}
	return parts[0], nil
}

// structuralCases lists valid and bad inputs of the structural operations.
func structuralCases() []parityCase {
	var cs []parityCase
	for _, axes := range [][]int{nil, {1}, {-1}, {0}, {3}, {1, 1}} {
		cs = append(cs, one(op.Squeeze, fmt.Sprint("axes ", axes), []int{2, 1, 1},
			func(_ tf.Engine, a *tf.Tensor[float64]) (*tf.Tensor[float64], error) { return a.Squeeze(axes...) },
			func(tr *trace.Trace, a trace.Var) (trace.Var, error) { return tr.Squeeze(a, axes...) }))
	}
	for _, axes := range [][]int{{0}, {-1, 1}, {}, {4}, {0, 0}} {
		cs = append(cs, one(op.Unsqueeze, fmt.Sprint("axes ", axes), []int{2, 3},
			func(_ tf.Engine, a *tf.Tensor[float64]) (*tf.Tensor[float64], error) { return a.Unsqueeze(axes...) },
			func(tr *trace.Trace, a trace.Var) (trace.Var, error) { return tr.Unsqueeze(a, axes...) }))
	}
	cs = append(cs, one(op.Flatten, "valid", []int{2, 3}, tf.Flatten[float64], (*trace.Trace).Flatten))
	for _, c := range []struct {
		axis   int
		shapes [][]int
	}{{1, [][]int{{2, 3}, {2, 1}}}, {-1, [][]int{{2, 3}, {3, 3}}}, {0, [][]int{{2, 3}, {2}}}, {2, [][]int{{2, 3}}}, {0, [][]int{{}, {}}}, {0, nil}} {
		cs = append(cs, pc(op.Concatenate, fmt.Sprint("axis ", c.axis, " ", c.shapes), c.shapes,
			func(e tf.Engine, in f64s) ([]int, error) { return shapeOfV(tf.Concatenate(e, c.axis, in...)) },
			func(tr *trace.Trace, in []trace.Var) (trace.Var, error) { return tr.Concatenate(c.axis, in...) }))
		cs = append(cs, pc(op.Stack, fmt.Sprint("axis ", c.axis, " ", c.shapes), c.shapes,
			func(e tf.Engine, in f64s) ([]int, error) { return shapeOfV(tf.Stack(e, c.axis, in...)) },
			func(tr *trace.Trace, in []trace.Var) (trace.Var, error) { return tr.Stack(c.axis, in...) }))
	}
	for _, c := range [][2]int{{1, 3}, {-1, 2}, {1, 4}, {1, 0}, {2, 1}} {
		cs = append(cs, one(op.Split, fmt.Sprint("axis, n ", c), []int{2, 6},
			func(_ tf.Engine, a *tf.Tensor[float64]) (*tf.Tensor[float64], error) {
				return firstPart(a.Split(c[0], c[1]))
			},
			func(tr *trace.Trace, a trace.Var) (trace.Var, error) { return firstPart(tr.Split(a, c[0], c[1])) }))
	}
	for _, idx := range [][]int{{2, 4}, {-1}, {9, 1}, {}} {
		cs = append(cs, one(op.Split, fmt.Sprint("at ", idx), []int{2, 6},
			func(_ tf.Engine, a *tf.Tensor[float64]) (*tf.Tensor[float64], error) {
				return firstPart(a.SplitAt(1, idx...))
			},
			func(tr *trace.Trace, a trace.Var) (trace.Var, error) { return firstPart(tr.SplitAt(a, 1, idx...)) }))
	}
	cs = append(cs, one(op.Split, "at, bad axis", []int{2, 6},
		func(_ tf.Engine, a *tf.Tensor[float64]) (*tf.Tensor[float64], error) {
			return firstPart(a.SplitAt(2, 1))
		},
		func(tr *trace.Trace, a trace.Var) (trace.Var, error) { return firstPart(tr.SplitAt(a, 2, 1)) }))
	for _, reps := range [][]int{{2}, {2, 1, 3}, {}, {-1}, {1 << 40, 1 << 40}} {
		cs = append(cs, one(op.Tile, fmt.Sprint("reps ", reps), []int{2, 3},
			func(e tf.Engine, a *tf.Tensor[float64]) (*tf.Tensor[float64], error) { return tf.Tile(e, a, reps...) },
			func(tr *trace.Trace, a trace.Var) (trace.Var, error) { return tr.Tile(a, reps...) }))
	}
	for _, c := range []struct {
		axis int
		reps []int
	}{{1, []int{2}}, {-1, []int{1, 0, 2}}, {0, []int{1, 2, 3}}, {0, []int{-1}}, {2, []int{1}}, {0, nil}} {
		cs = append(cs, one(op.Repeat, fmt.Sprint("axis ", c.axis, " repeats ", c.reps), []int{2, 3},
			func(e tf.Engine, a *tf.Tensor[float64]) (*tf.Tensor[float64], error) {
				return tf.Repeat(e, a, c.axis, c.reps...)
			},
			func(tr *trace.Trace, a trace.Var) (trace.Var, error) { return tr.Repeat(a, c.axis, c.reps...) }))
	}
	for _, c := range []struct {
		shape  []int
		widths [][2]int
		mode   tf.PadMode
	}{
		{[]int{2, 3}, [][2]int{{1, 2}, {0, 3}}, tf.PadReflect},
		{[]int{2, 3}, [][2]int{{1, 2}}, tf.PadConstant},
		{[]int{2, 3}, [][2]int{{1, -2}, {0, 0}}, tf.PadEdge},
		{[]int{0, 3}, [][2]int{{1, 0}, {0, 0}}, tf.PadWrap},
		{[]int{2}, [][2]int{{1, 0}}, tf.PadMode(9)},
	} {
		cs = append(cs, one(op.Pad, fmt.Sprint(c.shape, c.widths, c.mode), c.shape,
			func(e tf.Engine, a *tf.Tensor[float64]) (*tf.Tensor[float64], error) {
				return tf.Pad(e, a, c.widths, c.mode, 0)
			},
			func(tr *trace.Trace, a trace.Var) (trace.Var, error) { return tr.Pad(a, c.widths, c.mode, 0) }))
	}
	for _, shape := range [][]int{{3, 4}, {3, 4, 2}, {3}} {
		for _, k := range []op.Kind{op.Tril, op.Triu} {
			eager, traced := tf.Tril[float64], (*trace.Trace).Tril
			if k == op.Triu {
				eager, traced = tf.Triu[float64], (*trace.Trace).Triu
			}
			cs = append(cs, one(k, fmt.Sprint(shape), shape,
				func(e tf.Engine, a *tf.Tensor[float64]) (*tf.Tensor[float64], error) { return eager(e, a, -1) },
				func(tr *trace.Trace, a trace.Var) (trace.Var, error) { return traced(tr, a, -1) }))
		}
	}
	for _, c := range [][2][]int{{{1, -2}, {0, 1}}, {{3}, {0, 1}}, {{1}, nil}, {{1, 2}, {0, 1, 1}}, {{1}, {2}}} {
		cs = append(cs, one(op.Roll, fmt.Sprint("shifts, axes ", c), []int{3, 4},
			func(e tf.Engine, a *tf.Tensor[float64]) (*tf.Tensor[float64], error) {
				return tf.Roll(e, a, c[0], c[1])
			},
			func(tr *trace.Trace, a trace.Var) (trace.Var, error) { return tr.Roll(a, c[0], c[1]) }))
	}
	for _, shape := range [][]int{{4}, {3, 5}, {2, 2, 2}, {}} {
		cs = append(cs, one(op.Diag, fmt.Sprint(shape), shape,
			func(e tf.Engine, a *tf.Tensor[float64]) (*tf.Tensor[float64], error) { return tf.Diag(e, a, 1) },
			func(tr *trace.Trace, a trace.Var) (trace.Var, error) { return tr.Diag(a, 1) }))
	}
	for _, order := range []tf.Order{tf.ColumnMajor, tf.RowMajor, 2} {
		cs = append(cs, one(op.Contiguous, fmt.Sprint("order ", order), []int{2, 3},
			func(e tf.Engine, a *tf.Tensor[float64]) (*tf.Tensor[float64], error) {
				return tf.Contiguous(e, a, order)
			},
			func(tr *trace.Trace, a trace.Var) (trace.Var, error) { return tr.Contiguous(a, order) }))
	}
	return cs
}

// indexingCases lists valid and bad inputs of the indexing operations,
// with int64 indices and bool masks (zeros: the masks select nothing).
func indexingCases() []parityCase {
	var cs []parityCase
	f64, i64, b := tf.Float64, tf.Int64, tf.Bool
	as := func(v tf.Value) *tf.Tensor[float64] { x, _ := tf.As[float64](v); return x }
	asI := func(v tf.Value) *tf.Tensor[int64] { x, _ := tf.As[int64](v); return x }
	asB := func(v tf.Value) *tf.Tensor[bool] { x, _ := tf.As[bool](v); return x }
	for _, c := range []struct {
		axis   int
		shapes [][]int
	}{{1, [][]int{{2, 3}, {5}}}, {-1, [][]int{{2, 3}, {2, 2}}}, {2, [][]int{{2, 3}, {1}}}, {0, [][]int{{}, {1}}}, {0, [][]int{{2, 3}, {3, 3}}}, {0, [][]int{{2, 3}, {1, 4}}}} {
		cs = append(cs, parityCase{kind: op.Take, name: fmt.Sprint(c.axis, c.shapes), shapes: c.shapes, dtypes: []tf.DType{f64, i64},
			eagerV: func(e tf.Engine, in []tf.Value) ([]int, error) {
				return shapeOfV(tf.Take(e, as(in[0]), c.axis, asI(in[1])))
			},
			traced: func(tr *trace.Trace, in []trace.Var) (trace.Var, error) { return tr.Take(in[0], c.axis, in[1]) }})
		cs = append(cs, parityCase{kind: op.Gather, name: fmt.Sprint(c.axis, c.shapes), shapes: c.shapes, dtypes: []tf.DType{f64, i64},
			eagerV: func(e tf.Engine, in []tf.Value) ([]int, error) {
				return shapeOfV(tf.Gather(e, as(in[0]), c.axis, asI(in[1])))
			},
			traced: func(tr *trace.Trace, in []trace.Var) (trace.Var, error) { return tr.Gather(in[0], c.axis, in[1]) }})
	}
	for _, c := range []struct {
		axis   int
		shapes [][]int
	}{{0, [][]int{{2, 3}, {4, 3}, {4, 3}}}, {1, [][]int{{2, 3}, {2, 4}, {2, 3}}}, {0, [][]int{{2, 3}, {2, 3}, {2}}}, {-1, [][]int{{2, 3}, {3, 3}, {3, 3}}}} {
		cs = append(cs, parityCase{kind: op.ScatterAdd, name: fmt.Sprint(c.axis, c.shapes), shapes: c.shapes, dtypes: []tf.DType{f64, i64, f64},
			eagerV: func(e tf.Engine, in []tf.Value) ([]int, error) {
				return shapeOfV(tf.ScatterAdd(e, as(in[0]), c.axis, asI(in[1]), as(in[2])))
			},
			traced: func(tr *trace.Trace, in []trace.Var) (trace.Var, error) {
				return tr.ScatterAdd(in[0], c.axis, in[1], in[2])
			}})
	}
	for _, shapes := range [][][]int{{{2, 3}, {3}}, {{3}, {2, 1}}, {{2, 3}, {2}}} {
		cs = append(cs, parityCase{kind: op.MaskedSelect, name: fmt.Sprint(shapes), shapes: shapes, dtypes: []tf.DType{f64, b},
			eagerV: func(e tf.Engine, in []tf.Value) ([]int, error) {
				return shapeOfV(tf.MaskedSelect(e, as(in[0]), asB(in[1])))
			},
			traced: func(tr *trace.Trace, in []trace.Var) (trace.Var, error) { return tr.MaskedSelect(in[0], in[1], 0) }})
	}
	return cs
}
