package program_test

import (
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/internal/op"
	"github.com/tenferro-go/tenferro/trace"
)

// evalDirect evaluates g node by node with the eager operations of package
// tenferro: the reference a compiled program must agree with.
func evalDirect(t testing.TB, e tf.Engine, g *trace.Graph, inputs []tf.Value) []tf.Value {
	t.Helper()
	switch inputs[0].DType() {
	case tf.Float32:
		return evalDirectT[float32](t, e, g, inputs)
	case tf.Float64:
		return evalDirectT[float64](t, e, g, inputs)
	case tf.Complex64:
		return evalDirectT[complex64](t, e, g, inputs)
	case tf.Complex128:
		return evalDirectT[complex128](t, e, g, inputs)
	}
	t.Fatalf("evalDirect: no reference for dtype %v", inputs[0].DType())
	return nil
}

func evalDirectT[T tf.Scalar](t testing.TB, e tf.Engine, g *trace.Graph, inputs []tf.Value) []tf.Value {
	t.Helper()
	vals := make([]*tf.Tensor[T], g.NumNodes())
	for id := range g.NumNodes() {
		nd := g.Node(id)
		arg := func(i int) *tf.Tensor[T] { return vals[nd.Args[i]] }
		var r *tf.Tensor[T]
		var err error
		switch nd.Op {
		case op.None:
			if nd.IsConst() {
				r, err = tf.As[T](nd.Value)
			} else {
				r, err = tf.As[T](inputs[nd.Input])
			}
		case op.Matmul:
			r, err = tf.Matmul(e, arg(0), arg(1))
		case op.Einsum:
			ops := make([]*tf.Tensor[T], len(nd.Args))
			for i := range ops {
				ops[i] = arg(i)
			}
			r, err = tf.Einsum(e, nd.Attrs.Subscripts, ops...)
		case op.Add:
			r, err = tf.Add(e, arg(0), arg(1))
		case op.Sub:
			r, err = tf.Sub(e, arg(0), arg(1))
		case op.Mul:
			r, err = tf.Mul(e, arg(0), arg(1))
		case op.Scale:
			var alpha T
			switch p := any(&alpha).(type) {
			case *float32:
				*p = float32(real(nd.Attrs.Alpha))
			case *float64:
				*p = real(nd.Attrs.Alpha)
			case *complex64:
				*p = complex64(nd.Attrs.Alpha)
			case *complex128:
				*p = nd.Attrs.Alpha
			}
			r, err = tf.Scale(e, alpha, arg(0))
		case op.Negate:
			r, err = tf.Negate(e, arg(0))
		case op.Conj:
			r, err = tf.Conj(e, arg(0))
		case op.Sum:
			// The trace normalizes Axes (sorted, explicit); they are empty
			// only for the sum of a rank-0 tensor, which is a copy.
			if len(nd.Attrs.Axes) == 0 {
				r, err = tf.Copy(e, arg(0))
			} else {
				r, err = tf.Sum(e, arg(0), nd.Attrs.Axes...)
			}
		case op.Permute:
			r, err = arg(0).Permute(nd.Attrs.Axes...)
		case op.Reshape:
			var c *tf.Tensor[T]
			if c, err = tf.Copy(e, arg(0)); err == nil {
				r, err = c.Reshape(nd.Shape...)
			}
		default:
			t.Fatalf("direct node %d: no reference for %v", id, nd.Op)
		}
		if err != nil {
			t.Fatalf("direct node %d (%v): %v", id, nd.Op, err)
		}
		vals[id] = r
	}
	out := make([]tf.Value, len(g.Outputs()))
	for j, id := range g.Outputs() {
		out[j] = tf.ValueOf(vals[id])
	}
	return out
}

// eps returns the unit roundoff of dt.
func eps(dt tf.DType) float64 {
	if dt == tf.Float32 || dt == tf.Complex64 {
		return 0x1p-24
	}
	return 0x1p-53
}

// elems returns the elements of v in column-major order as complex128.
func elems(v tf.Value) []complex128 {
	c, err := tf.Convert(v, tf.Complex128)
	if err != nil {
		panic(err)
	}
	t, _ := tf.As[complex128](c)
	shape := t.Shape()
	out := make([]complex128, 0, t.Len())
	idx := make([]int, len(shape))
	for range t.Len() {
		x, _ := t.At(idx...)
		out = append(out, x)
		for d := range idx {
			idx[d]++
			if idx[d] < shape[d] {
				break
			}
			idx[d] = 0
		}
	}
	return out
}

// closeTo compares got with want. Both are evaluated from the same inputs
// in a different order of operations (fusion, contraction paths), so they
// differ by rounding: each element is a sum of at most ops products of
// terms bounded by scale = max|want|, so |got - want| <= ops·eps·scale
// (with ops an upper bound on the operations behind one element).
func closeTo(t testing.TB, name string, got, want tf.Value, ops float64) {
	t.Helper()
	if got.DType() != want.DType() || fmt.Sprint(got.Shape()) != fmt.Sprint(want.Shape()) {
		t.Fatalf("%s: got %v %v, want %v %v", name, got.DType(), got.Shape(), want.DType(), want.Shape())
	}
	g, w := elems(got), elems(want)
	scale := 1.0
	for _, x := range w {
		scale = max(scale, cmplx.Abs(x))
	}
	tol := ops * eps(want.DType()) * scale
	for i := range w {
		if d := cmplx.Abs(g[i] - w[i]); !(d <= tol) || math.IsNaN(d) {
			t.Fatalf("%s: element %d = %v, want %v (|diff| %.3g > tol %.3g)", name, i, g[i], w[i], d, tol)
		}
	}
}

// randValue returns a compact random tensor of dt.
func randValue(r *rand.Rand, dt tf.DType, shape ...int) tf.Value {
	switch dt {
	case tf.Float32:
		return randT[float32](r, shape)
	case tf.Float64:
		return randT[float64](r, shape)
	case tf.Complex64:
		return randT[complex64](r, shape)
	case tf.Complex128:
		return randT[complex128](r, shape)
	}
	panic("randValue: not an arithmetic dtype: " + dt.String())
}

func randT[T tf.Scalar](r *rand.Rand, shape []int) tf.Value {
	buf := make([]T, tf.Numel(shape))
	tf.FillRand(r, buf)
	for i := range buf {
		buf[i] -= T(0.5)
	}
	t, err := tf.FromSlice(buf, shape...)
	if err != nil {
		panic(err)
	}
	return tf.ValueOf(t)
}

// stridedValue returns a random tensor of shape whose view is not compact:
// the transpose of a tensor of the reversed shape, with axis 0 reversed.
func stridedValue(r *rand.Rand, dt tf.DType, shape ...int) tf.Value {
	rev := make([]int, len(shape))
	for d := range shape {
		rev[len(shape)-1-d] = shape[d]
	}
	base := randValue(r, dt, rev...)
	switch dt {
	case tf.Float32:
		return stridedT[float32](base)
	case tf.Float64:
		return stridedT[float64](base)
	case tf.Complex64:
		return stridedT[complex64](base)
	default:
		return stridedT[complex128](base) // randValue refused other dtypes
	}
}

func stridedT[T tf.Scalar](v tf.Value) tf.Value {
	t, _ := tf.As[T](v)
	tt, err := t.Transpose()
	if err != nil {
		panic(err)
	}
	if tt.Rank() > 0 {
		if tt, err = tt.Reverse(0); err != nil {
			panic(err)
		}
	}
	return tf.ValueOf(tt)
}

func newEngine(t testing.TB) *cpu.Engine {
	e := cpu.Serial()
	t.Cleanup(func() { e.Close() })
	return e
}
