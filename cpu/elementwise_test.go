package cpu_test

import (
	"errors"
	"fmt"
	"math/cmplx"
	"math/rand/v2"
	"slices"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/backend/enginetest"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/internal/op"
	"github.com/tenferro-go/tenferro/internal/optest"
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
			if trial == 0 {
				rank = 2 // 130 x 130: large enough to split, small enough to check
			}
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
			binary := optest.BinaryOps[T]()
			if len(binary) == 0 {
				t.Fatal("optest.BinaryOps lists no operations")
			}
			for _, bop := range binary {
				c, err := bop.Eager(e, a, b)
				if err != nil {
					t.Fatalf("%s %v %v %v: %v", name, bop.Kind, ashape, bshape, err)
				}
				forEach(shape, func(idx []int) {
					x, y := c128(at(a, bidx(a, idx)...)), c128(at(b, bidx(b, idx)...))
					want, got := enginetest.Ref[T](bop.Kind, x, y, 0, 0), c128(at(c, idx...))
					if !enginetest.Near(got, want, 4*eps[T]()*(cmplx.Abs(x)*cmplx.Abs(y)+cmplx.Abs(x)+cmplx.Abs(y)+cmplx.Abs(want))) {
						t.Fatalf("%s %v at %v: got %v want %v", name, bop.Kind, idx, got, want)
					}
				})
				c.Release()
			}
			x := view[T](r, shape...)
			alpha := T(3)
			// The generated unary operations, plus Copy (a data operation
			// of every dtype, so not in the generated table).
			type unaryCase struct {
				kind op.Kind
				into func(e tf.Engine, dst *tf.Tensor[T], alpha, beta T, a *tf.Tensor[T]) error
			}
			unary := []unaryCase{{op.Copy, func(e tf.Engine, dst *tf.Tensor[T], _, _ T, a *tf.Tensor[T]) error { return tf.CopyInto(e, dst, a) }}}
			for _, u := range optest.UnaryOps[T]() {
				unary = append(unary, unaryCase{u.Kind, u.Into})
			}
			for _, u := range unary {
				dst := randTensor[T](r, shape...)
				if err := u.into(e, dst, alpha, alpha+1, x); err != nil {
					t.Fatal(err)
				}
				forEach(shape, func(idx []int) {
					// Gelu's and Erfc's kernels are within 3.6 and 3.1 ulps
					// and their references (package math) within about one
					// more: 8 eps for them, 4 for the rest.
					tol := 4 * eps[T]()
					if u.kind == op.Gelu || u.kind == op.Erfc {
						tol *= 2
					}
					want := enginetest.Ref[T](u.kind, c128(at(x, idx...)), 0, 3, 4)
					if got := c128(at(dst, idx...)); !enginetest.Near(got, want, tol*cmplx.Abs(want)) {
						t.Fatalf("%v at %v: got %v want %v", u.kind, idx, got, want)
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
			// Axes may come in any order and count from the end when
			// negative: pass a shuffled list with some axes negative; the
			// reference below uses the sorted, non-negative ones.
			arg := append([]int(nil), axes...)
			r.Shuffle(len(arg), func(i, j int) { arg[i], arg[j] = arg[j], arg[i] })
			for i := range arg {
				if r.IntN(2) == 0 {
					arg[i] -= rank
				}
			}
			s, err := tf.Sum(e, x, arg...)
			if err != nil {
				t.Fatalf("%s: Sum(%v, %v): %v", name, shape, arg, err)
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
			out, err := tf.Copy(e, s)
			if err != nil {
				t.Fatal(err)
			}
			data, _ := out.Data()
			kept := []int{}
			for d := range shape {
				if !slices.Contains(axes, d) {
					kept = append(kept, shape[d])
				}
			}
			if !slices.Equal(s.Shape(), kept) || len(data) != tf.Numel(kept) {
				t.Fatalf("%s Sum(%v, %v): shape %v (%d elements), want %v", name, shape, arg, s.Shape(), len(data), kept)
			}
			for i, got := range data {
				n := float64(tf.Numel(shape)/max(1, len(data)) + 1)
				if d := cmplx.Abs(c128(got) - want[i]); d > 2*n*eps[T]()*mag[i]+1e-300 {
					t.Fatalf("%s Sum(%v, %v)[%d] = %v, want %v", name, shape, arg, i, got, want[i])
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
	// Sum axes: any order and negative axes are the same reduction (the
	// same kernel call, so bitwise equal results); repeated and
	// out-of-range axes are ErrArgument.
	sameSum := func(what string, got, want *tf.Tensor[float64]) {
		t.Helper()
		if !slices.Equal(got.Shape(), want.Shape()) {
			t.Fatalf("%s: shape %v, want %v", what, got.Shape(), want.Shape())
		}
		forEach(want.Shape(), func(idx []int) {
			if at(got, idx...) != at(want, idx...) {
				t.Fatalf("%s at %v: %v, want %v", what, idx, at(got, idx...), at(want, idx...))
			}
		})
	}
	all, err := tf.Sum(e, a)
	if err != nil || all.Rank() != 0 {
		t.Fatalf("Sum over every axis: %v, %v", all, err)
	}
	for _, axes := range [][]int{{1, 0}, {0, 1}, {-1, 0}, {-2, -1}, {1, -2}} {
		got, err := tf.Sum(e, a, axes...)
		if err != nil {
			t.Fatalf("Sum axes %v: %v", axes, err)
		}
		sameSum(fmt.Sprint("Sum axes ", axes), got, all)
	}
	s0, err := tf.Sum(e, a, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := tf.Sum(e, a, -2); err != nil {
		t.Fatalf("Sum axis -2: %v", err)
	} else {
		sameSum("Sum axis -2", got, s0)
	}
	for _, axes := range [][]int{{0, 0}, {1, -1}, {-2, 0}, {0, 1, 0}} {
		if _, err := tf.Sum(e, a, axes...); !errors.Is(err, tf.ErrArgument) {
			t.Fatalf("repeated axes %v: %v", axes, err)
		}
	}
	for _, axes := range [][]int{{2}, {-3}, {0, 2}, {1, -3}} {
		if _, err := tf.Sum(e, a, axes...); !errors.Is(err, tf.ErrArgument) {
			t.Fatalf("axes out of range %v: %v", axes, err)
		}
	}
	if err := tf.SumInto(e, randTensor[float64](r, 5), a, 1); !errors.Is(err, tf.ErrShape) {
		t.Fatalf("SumInto dst shape: %v", err)
	}
	d5 := randTensor[float64](r, 5)
	d5snap, _ := d5.Clone()
	for _, axes := range [][]int{{0, 0}, {0, -2}, {2}, {-3}} {
		if err := tf.SumInto(e, d5, a, axes...); !errors.Is(err, tf.ErrArgument) {
			t.Fatalf("SumInto axes %v: %v", axes, err)
		}
	}
	sameSum("SumInto with bad axes left dst", d5, d5snap)
	if err := tf.SumInto(e, d5, a, -2); err != nil {
		t.Fatalf("SumInto axis -2: %v", err)
	}
	sameSum("SumInto axis -2", d5, s0)
	forEach([]int{4, 5}, func(idx []int) {
		if at(a, idx...) != at(snap, idx...) {
			t.Fatalf("failed calls changed dst at %v", idx)
		}
	})
	big := make([]int, 33)
	for d := range big {
		big[d] = 1
	}
	// Rank 33 exceeds every operation's limit; no tensor of that rank can
	// be built any more (constructors and views refuse it), so the
	// operations never see one. Rank 32 works.
	if _, err := tf.Zeros[float64](big...); !errors.Is(err, tf.ErrShape) {
		t.Fatalf("Zeros of rank 33: %v", err)
	}
	one, _ := tf.Zeros[float64](1)
	if _, err := one.Reshape(big...); !errors.Is(err, tf.ErrShape) {
		t.Fatalf("Reshape to rank 33: %v", err)
	}
	if _, err := one.Broadcast(big...); !errors.Is(err, tf.ErrShape) {
		t.Fatalf("Broadcast to rank 33: %v", err)
	}
	hi, err := tf.Full(2.0, big[:32]...)
	if err != nil {
		t.Fatal(err)
	}
	neg, err := tf.Negate(e, hi)
	if err != nil || neg.Rank() != 32 || neg.Storage()[0] != -2 {
		t.Fatalf("Negate of rank 32: %v, %v", neg, err)
	}
}

func TestElementwiseIntoZeroAllocs(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 18))
	for name, e := range engines(t) {
		a := randTensor[float64](r, 64, 64)
		b := randTensor[float64](r, 64, 1)
		dst := randTensor[float64](r, 64, 64)
		s := randTensor[float64](r, 64)
		x := randTensor[float64](r, 64, 64)
		must := func(err error) {
			if err != nil {
				t.Fatal(err)
			}
		}
		allocs := testing.AllocsPerRun(20, func() {
			must(tf.AddInto(e, dst, a, b))
			must(tf.ScaleInto(e, dst, 0.5, dst))
			must(tf.SubInto(e, dst, dst, a))
			must(tf.MulInto(e, dst, dst, b))
			must(tf.NegateInto(e, dst, dst))
			must(tf.ConjInto(e, x, dst))
			must(tf.CopyInto(e, dst, x))
			must(tf.SumInto(e, s, dst, 1))
			must(tf.SumInto(e, s, dst, -1))
		})
		if allocs != 0 {
			t.Errorf("%s: elementwise Into forms allocate %v per call", name, allocs)
		}
		// The same on views without a unit stride (every other row of
		// a larger tensor), which the kernels walk element by element.
		step2 := func(n int) *tf.Tensor[float64] {
			v, err := randTensor[float64](r, 2*n, n).Slice(0, 0, 2*n, 2)
			if err != nil {
				t.Fatal(err)
			}
			return v
		}
		sa, sd, sx := step2(64), step2(64), step2(64)
		sb, _ := step2(64).Slice(1, 0, 1, 1) // 64x1, stride 2
		allocs = testing.AllocsPerRun(20, func() {
			must(tf.AddInto(e, sd, sa, sb))
			must(tf.ScaleInto(e, sd, 0.5, sd))
			must(tf.SubInto(e, sx, sd, sa))
			must(tf.MulInto(e, sd, sx, sb))
			must(tf.NegateInto(e, sx, sd))
			must(tf.ConjInto(e, sd, sx))
			must(tf.CopyInto(e, sx, sd))
			must(tf.SumInto(e, s, sx, 1))
		})
		if allocs != 0 {
			t.Errorf("%s: elementwise Into forms on strided views allocate %v per call", name, allocs)
		}
	}
}
