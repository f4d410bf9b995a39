package enginetest

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	tf "github.com/tenferro-go/tenferro"
)

// Helpers for the operations that accept every dtype (structural and
// indexing): operands, references by logical index, destinations.

// elemTyped is the suite of the structural and indexing operations for
// one element type.
type elemTyped interface {
	structural(t *testing.T, e tf.Engine)
	indexing(t *testing.T, e tf.Engine)
}

// elemSuite implements elemTyped for T.
type elemSuite[T tf.Elem] struct{}

var elemSuites = [...]elemTyped{
	tf.Float32:    elemSuite[float32]{},
	tf.Float64:    elemSuite[float64]{},
	tf.Complex64:  elemSuite[complex64]{},
	tf.Complex128: elemSuite[complex128]{},
	tf.Int64:      elemSuite[int64]{},
	tf.Bool:       elemSuite[bool]{},
}

func forElems(t *testing.T, name string, f func(t *testing.T, dt tf.DType)) {
	t.Run(name, func(t *testing.T) {
		for _, dt := range tf.DTypes {
			t.Run(dt.String(), func(t *testing.T) { f(t, dt) })
		}
	})
}

// elemShapes are the awkward shapes of the structural suites: empty,
// scalar, single elements, primes, unit and long axes.
var elemShapes = [][]int{{}, {0}, {1}, {7}, {4, 0}, {3, 5}, {17, 1}, {1, 6}, {2, 3, 5}, {5, 1, 3, 2}}

// Broadcast is the layout of an input read with stride 0 along its first
// axis (a broadcast of extent 1); it follows the layouts of Operand.
const Broadcast = NumLayouts

// elemLayouts is the number of input layouts: Operand's and Broadcast.
const elemLayouts = NumLayouts + 1

func elemLayoutName(kind int) string {
	if kind == Broadcast {
		return "broadcast"
	}
	return LayoutName(kind)
}

// elemOf converts x in [-1, 1) to T: the complex types get an imaginary
// part, int64 keeps three decimals (sign included), bool is x > 0.
func elemOf[T tf.Elem](x float64) T {
	var v T
	switch p := any(&v).(type) {
	case *float32:
		*p = float32(x)
	case *float64:
		*p = x
	case *complex64:
		*p = complex(float32(x), float32(0.25-x))
	case *complex128:
		*p = complex(x, 0.25-x)
	case *int64:
		*p = int64(math.Round(x * 1000))
	case *bool:
		*p = x > 0
	}
	return v
}

// elemSentinel is the value of destination elements outside the view: one
// that random operands never hold (for bool: true, which half of them
// hold).
func elemSentinel[T tf.Elem]() T { return elemOf[T](7.5) }

// elemOperand returns a tensor of shape with random values laid out as
// kind (a layout of Operand, or Broadcast).
func elemOperand[T tf.Elem](t testing.TB, r *rand.Rand, shape []int, kind int) *tf.Tensor[T] {
	t.Helper()
	src := shape
	if kind == Broadcast {
		if len(shape) == 0 {
			kind = Compact
		} else {
			src = slices.Clone(shape)
			src[0] = 1
		}
	}
	lk := kind
	if kind == Broadcast {
		lk = Reversed
	}
	base := LayoutBase(src, lk, 0)
	buf := make([]T, tf.Numel(base))
	for i := range buf {
		buf[i] = elemOf[T](2*r.Float64() - 1)
	}
	x, err := tf.FromSlice(buf, base...)
	if err != nil {
		t.Fatal(err)
	}
	v, err := LayoutView(x, lk, 0)
	if err == nil && kind == Broadcast {
		v, err = v.Broadcast(shape...)
	}
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// elemAt returns element idx of x (the index is valid).
func elemAt[T tf.Elem](x *tf.Tensor[T], idx ...int) T {
	v, err := x.At(idx...)
	if err != nil {
		panic(err)
	}
	return v
}

// expect checks that got has shape and holds want(idx) at every index.
func expect[T tf.Elem](t testing.TB, what string, got *tf.Tensor[T], shape []int, want func(idx []int) T) {
	t.Helper()
	if !slices.Equal(got.Shape(), shape) {
		t.Fatalf("%s: shape %v, want %v", what, got.Shape(), shape)
	}
	Each(shape, func(idx []int) {
		if g, w := elemAt(got, idx...), want(idx); g != w {
			t.Fatalf("%s: element %v = %v, want %v", what, idx, g, w)
		}
	})
}

// result checks an allocating form's result (compact, then expect) and
// releases it.
func result[T tf.Elem](t testing.TB, what string, got *tf.Tensor[T], err error, shape []int, want func(idx []int) T) {
	t.Helper()
	mustNil(t, what, err)
	if !got.IsCompact() {
		t.Fatalf("%s: result strides %v for shape %v are not compact", what, got.Strides(), got.Shape())
	}
	expect(t, what, got, shape, want)
	mustNil(t, what, got.Release())
}

// into runs an Into form on a destination of shape laid out as kind inside
// a tensor of sentinels, checks it with want and checks that nothing
// outside it was written.
func into[T tf.Elem](t testing.TB, what string, shape []int, kind int, run func(dst *tf.Tensor[T]) error, want func(idx []int) T) {
	t.Helper()
	s := elemSentinel[T]()
	dst, whole := Destination(t, shape, kind%NumLayouts, s)
	mustNil(t, what, run(dst))
	expect(t, what, dst, shape, want)
	checkOutside(t, what, dst, whole, s)
}

// with returns idx with entry d set to v (a copy).
func with(idx []int, d, v int) []int {
	out := slices.Clone(idx)
	out[d] = v
	return out
}

// unravel returns the multi-index of column-major position p in shape.
func unravel(p int, shape []int) []int {
	idx := make([]int, len(shape))
	for d, n := range shape {
		idx[d] = p % n
		p /= n
	}
	return idx
}

// ravel returns the column-major position of idx in shape.
func ravel(idx, shape []int) int {
	p, s := 0, 1
	for d, n := range shape {
		p += idx[d] * s
		s *= n
	}
	return p
}
