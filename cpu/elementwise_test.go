package cpu_test

import (
	"errors"
	"math/cmplx"
	"math/rand/v2"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
)

// forEach calls f with every multi-index of shape in column-major order.
func forEach(shape []int, f func(idx []int)) {
	n := tf.Numel(shape)
	idx := make([]int, len(shape))
	for lin := 0; lin < n; lin++ {
		rem := lin
		for d := range shape {
			idx[d] = rem % shape[d]
			rem /= shape[d]
		}
		f(idx)
	}
}

// bidx maps an index of the broadcast result to an index of t (extent-1
// axes read index 0).
func bidx[T tf.Scalar](t *tf.Tensor[T], idx []int) []int {
	out := make([]int, len(idx))
	for d := range idx {
		if t.Shape()[d] != 1 {
			out[d] = idx[d]
		}
	}
	return out
}

// view returns a random strided view of a fresh tensor with the given
// shape: sometimes a transposed copy read back through Permute, sometimes
// a reversed axis, sometimes a slice of a larger tensor.
func view[T tf.Scalar](r *rand.Rand, shape ...int) *tf.Tensor[T] {
	switch r.IntN(3) {
	case 0:
		rev := make([]int, len(shape))
		perm := make([]int, len(shape))
		for d := range shape {
			rev[d] = shape[len(shape)-1-d]
			perm[d] = len(shape) - 1 - d
		}
		v, _ := randTensor[T](r, rev...).Permute(perm...)
		return v
	case 1:
		if len(shape) > 0 && shape[0] > 0 {
			v, _ := randTensor[T](r, shape...).Reverse(0)
			return v
		}
	}
	big := append([]int(nil), shape...)
	if len(big) > 0 {
		big[0] += 2
	}
	v := randTensor[T](r, big...)
	if len(big) > 0 {
		v, _ = v.Slice(0, 1, 1+shape[0], 1)
	}
	return v
}

func testElementwise[T tf.Scalar](t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for name, e := range engines(t) {
		for trial := 0; trial < 30; trial++ {
			rank := r.IntN(4)
			shape := make([]int, rank)
			for d := range shape {
				shape[d] = []int{0, 1, 2, 3, 5, 7}[r.IntN(6)]
				if trial == 0 {
					shape[d] = 130 // large enough to split across the team
				}
			}
			ashape := append([]int(nil), shape...)
			bshape := append([]int(nil), shape...)
			for d := range shape {
				if r.IntN(4) == 0 {
					ashape[d] = 1
				} else if r.IntN(4) == 0 {
					bshape[d] = 1
				}
			}
			a, b := view[T](r, ashape...), view[T](r, bshape...)
			for _, op := range []struct {
				f   func(tf.Engine, *tf.Tensor[T], *tf.Tensor[T]) (*tf.Tensor[T], error)
				ref func(x, y complex128) complex128
			}{
				{tf.Add[T], func(x, y complex128) complex128 { return x + y }},
				{tf.Sub[T], func(x, y complex128) complex128 { return x - y }},
				{tf.Mul[T], func(x, y complex128) complex128 { return x * y }},
			} {
				c, err := op.f(e, a, b)
				if err != nil {
					t.Fatalf("%s %v %v: %v", name, ashape, bshape, err)
				}
				forEach(shape, func(idx []int) {
					x, y := c128(at(a, bidx(a, idx)...)), c128(at(b, bidx(b, idx)...))
					want, got := op.ref(x, y), c128(at(c, idx...))
					if cmplx.Abs(got-want) > 4*eps[T]()*(cmplx.Abs(x)*cmplx.Abs(y)+cmplx.Abs(x)+cmplx.Abs(y)) {
						t.Fatalf("%s at %v: got %v want %v", name, idx, got, want)
					}
				})
				c.Release()
			}
			x := view[T](r, shape...)
			alpha := T(3)
			for _, op := range []struct {
				op  tf.UnaryOp
				ref func(complex128) complex128
			}{
				{tf.OpCopy, func(v complex128) complex128 { return v }},
				{tf.OpScale, func(v complex128) complex128 { return 3 * v }},
				{tf.OpNegate, func(v complex128) complex128 { return -v }},
				{tf.OpConj, cmplx.Conj},
			} {
				dst := randTensor[T](r, shape...)
				if err := tf.UnaryInto(e, op.op, alpha, dst, x); err != nil {
					t.Fatal(err)
				}
				forEach(shape, func(idx []int) {
					want := op.ref(c128(at(x, idx...)))
					if tf.DTypeOf[T]().IsComplex() == false {
						want = complex(real(want), 0)
					}
					if got := c128(at(dst, idx...)); cmplx.Abs(got-want) > 4*eps[T]()*cmplx.Abs(want) {
						t.Fatalf("%v at %v: got %v want %v", op.op, idx, got, want)
					}
				})
			}
		}
	}
}

func TestElementwise(t *testing.T) {
	t.Run("f32", testElementwise[float32])
	t.Run("f64", testElementwise[float64])
	t.Run("c64", testElementwise[complex64])
	t.Run("c128", testElementwise[complex128])
}

func testSum[T tf.Scalar](t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for name, e := range engines(t) {
		for trial := 0; trial < 40; trial++ {
			rank := 1 + r.IntN(4)
			shape := make([]int, rank)
			for d := range shape {
				shape[d] = []int{0, 1, 2, 3, 5, 11}[r.IntN(6)]
			}
			if trial == 0 {
				shape = []int{300, 200}
			}
			x := view[T](r, shape...)
			var axes []int
			for d := range shape {
				if r.IntN(2) == 0 {
					axes = append(axes, d)
				}
			}
			s, err := tf.Sum(e, x, axes...)
			if err != nil {
				t.Fatalf("%s: Sum(%v, %v): %v", name, shape, axes, err)
			}
			if len(axes) == 0 {
				axes = make([]int, rank)
				for d := range axes {
					axes[d] = d
				}
			}
			want := map[int]complex128{}
			mag := map[int]float64{}
			forEach(shape, func(idx []int) {
				key, mul := 0, 1
				k := 0
				for d := range shape {
					if k < len(axes) && axes[k] == d {
						k++
						continue
					}
					key += idx[d] * mul
					mul *= shape[d]
				}
				v := c128(at(x, idx...))
				want[key] += v
				mag[key] += cmplx.Abs(v)
			})
			out, _ := tf.Contiguous(e, s)
			data, _ := out.Data()
			for i, got := range data {
				n := float64(tf.Numel(shape)/max(1, len(data)) + 1)
				if d := cmplx.Abs(c128(got) - want[i]); d > 2*n*eps[T]()*mag[i]+1e-300 {
					t.Fatalf("%s Sum(%v, %v)[%d] = %v, want %v", name, shape, axes, i, got, want[i])
				}
			}
		}
	}
}

func TestSum(t *testing.T) {
	t.Run("f32", testSum[float32])
	t.Run("f64", testSum[float64])
	t.Run("c64", testSum[complex64])
	t.Run("c128", testSum[complex128])
}

func TestElementwiseInPlaceAndErrors(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	e := cpu.Serial()
	a := randTensor[float64](r, 4, 5)
	b := randTensor[float64](r, 4, 5)
	a0, _ := a.Clone()
	if err := tf.AddInto(e, a, a, b); err != nil {
		t.Fatalf("in place: %v", err)
	}
	forEach([]int{4, 5}, func(idx []int) {
		if at(a, idx...) != at(a0, idx...)+at(b, idx...) {
			t.Fatalf("in-place add wrong at %v", idx)
		}
	})
	// Partial overlap is refused and leaves dst alone.
	part, _ := a.Slice(0, 1, 4, 1)
	src, _ := a.Slice(0, 0, 3, 1)
	snap, _ := a.Clone()
	if err := tf.AddInto(e, part, src, src); !errors.Is(err, tf.ErrAlias) {
		t.Fatalf("partial overlap: %v", err)
	}
	c := randTensor[float64](r, 3, 5)
	if _, err := tf.Add(e, a, c); !errors.Is(err, tf.ErrShape) {
		t.Fatalf("shape mismatch: %v", err)
	}
	if err := tf.MulInto(e, randTensor[float64](r, 4, 4), a, b); !errors.Is(err, tf.ErrShape) {
		t.Fatalf("dst shape: %v", err)
	}
	if _, err := tf.Sum(e, a, 1, 0); !errors.Is(err, tf.ErrArgument) {
		t.Fatalf("unsorted axes: %v", err)
	}
	if _, err := tf.Sum(e, a, 2); !errors.Is(err, tf.ErrArgument) {
		t.Fatalf("axis out of range: %v", err)
	}
	if err := tf.SumInto(e, randTensor[float64](r, 5), a, 1); !errors.Is(err, tf.ErrShape) {
		t.Fatalf("SumInto dst shape: %v", err)
	}
	forEach([]int{4, 5}, func(idx []int) {
		if at(a, idx...) != at(snap, idx...) {
			t.Fatalf("failed calls changed dst at %v", idx)
		}
	})
	big := make([]int, 33)
	for d := range big {
		big[d] = 1
	}
	hi, _ := tf.Zeros[float64](big...)
	if _, err := tf.Negate(e, hi); !errors.Is(err, tf.ErrShape) {
		t.Fatalf("rank 33: %v", err)
	}
}

func TestElementwiseIntoZeroAllocs(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 18))
	for name, e := range engines(t) {
		a := randTensor[float64](r, 64, 64)
		b := randTensor[float64](r, 64, 1)
		dst := randTensor[float64](r, 64, 64)
		s := randTensor[float64](r, 64)
		allocs := testing.AllocsPerRun(20, func() {
			tf.AddInto(e, dst, a, b)
			tf.UnaryInto(e, tf.OpScale, 2, dst, dst)
			tf.SumInto(e, s, dst, 1)
		})
		if allocs != 0 {
			t.Errorf("%s: elementwise Into forms allocate %v per call", name, allocs)
		}
	}
}
