package enginetest

import (
	"math/cmplx"
	"math/rand/v2"
	"slices"
	"testing"

	tf "github.com/tenferro-go/tenferro"
)

// Layouts of test operands and destinations.
const (
	Compact    = iota // a compact column-major tensor
	Transposed        // a transposed view of a tensor of the reversed shape
	Reversed          // every axis reversed (negative strides)
	Stepped           // every second element along each axis of a larger tensor
	NumLayouts
)

// LayoutName names a layout for test output.
func LayoutName(kind int) string {
	return [...]string{"compact", "transposed", "reversed", "stepped"}[kind]
}

// Operand returns a tensor of shape holding random values uniform in
// [0, 1) (both parts for complex T), laid out as kind.
func Operand[T tf.Scalar](t testing.TB, rng *rand.Rand, shape []int, kind int) *tf.Tensor[T] {
	t.Helper()
	base := LayoutBase(shape, kind, 0)
	buf := make([]T, tf.Numel(base))
	tf.FillRand(rng, buf)
	for i := range buf {
		buf[i] -= castC[T](complex(0.5, 0.5)) // centred: signs of both kinds
	}
	x, err := tf.FromSlice(buf, base...)
	if err != nil {
		t.Fatal(err)
	}
	v, err := LayoutView(x, kind, 0)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// LayoutBase returns the shape of the tensor that holds a view of shape
// laid out as kind; pad extra elements per axis of a stepped layout leave
// room around the view.
func LayoutBase(shape []int, kind, pad int) []int {
	base := slices.Clone(shape)
	switch kind {
	case Transposed:
		slices.Reverse(base)
	case Stepped:
		for d := range base {
			base[d] = 2*base[d] + pad
		}
	}
	return base
}

// LayoutView returns the view of x (shaped by LayoutBase) laid out as
// kind; a stepped view takes every second element from index start.
func LayoutView[T tf.Elem](x *tf.Tensor[T], kind, start int) (*tf.Tensor[T], error) {
	r := x.Rank()
	var err error
	switch kind {
	case Transposed:
		perm := make([]int, r)
		for d := range perm {
			perm[d] = r - 1 - d
		}
		x, err = x.Permute(perm...)
	case Reversed:
		for d := 0; d < r && err == nil; d++ {
			x, err = x.Reverse(d)
		}
	case Stepped:
		for d := 0; d < r && err == nil; d++ {
			x, err = x.Slice(d, start, x.Dim(d), 2)
		}
	}
	return x, err
}

// Destination returns a view of shape laid out as kind inside a larger
// tensor whose every element is sentinel, and the whole tensor (to check
// that nothing outside the view is written).
func Destination[T tf.Elem](t testing.TB, shape []int, kind int, sentinel T) (dst, whole *tf.Tensor[T]) {
	t.Helper()
	base := LayoutBase(shape, kind, 2)
	if kind != Stepped {
		for d := range base {
			base[d] += 2
		}
	}
	whole, err := tf.Full(sentinel, base...)
	if err != nil {
		t.Fatal(err)
	}
	dst = whole
	for d := range base {
		n := base[d] - 2 // the view's extent along axis d of whole
		step := 1
		if kind == Stepped {
			n, step = (base[d]-2)/2, 2
		}
		if dst, err = dst.Slice(d, 1, 1+step*n-(step-1)*min(n, 1), step); err != nil {
			t.Fatal(err)
		}
	}
	if kind != Stepped {
		if dst, err = LayoutView(dst, kind, 0); err != nil {
			t.Fatal(err)
		}
	}
	return dst, whole
}

// Each calls f with every column-major multi-index of shape.
func Each(shape []int, f func(idx []int)) {
	n := 1
	for _, x := range shape {
		n *= x
	}
	idx := make([]int, len(shape))
	for range n {
		f(idx)
		for a := range idx {
			idx[a]++
			if idx[a] < shape[a] {
				break
			}
			idx[a] = 0
		}
	}
}

// Dense returns t's elements in column-major order as complex128.
func Dense[T tf.Scalar](t *tf.Tensor[T]) []complex128 {
	out := make([]complex128, 0, t.Len())
	Each(t.Shape(), func(idx []int) {
		v, err := t.At(idx...)
		if err != nil {
			panic(err)
		}
		out = append(out, toC(v))
	})
	return out
}

func toC[T tf.Scalar](v T) complex128 {
	switch x := any(v).(type) {
	case float32:
		return complex(float64(x), 0)
	case float64:
		return complex(x, 0)
	case complex64:
		return complex128(x)
	case complex128:
		return x
	}
	panic("unreachable")
}

func castC[T tf.Scalar](c complex128) T {
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

// UnitRoundoff returns u of T's precision (2^-24 or 2^-53).
func UnitRoundoff[T tf.Scalar]() float64 {
	switch any(*new(T)).(type) {
	case float32, complex64:
		return 0x1p-24
	}
	return 0x1p-53
}

func isComplex[T tf.Scalar]() bool { return tf.DTypeOf[T]().IsComplex() }

func abs(c complex128) float64 { return cmplx.Abs(c) }
