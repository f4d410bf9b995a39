package enginetest

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	tf "github.com/tenferro-go/tenferro"
)

// The indexing operations of every dtype (ScatterAdd: every dtype but
// bool) against reference loops: indices of every layout with negative
// values, out-of-range indices refused with the destination untouched,
// broadcast masks.

// indexOperand returns an int64 tensor of shape with values uniform in
// [lo, hi) laid out as kind.
func indexOperand(t testing.TB, r *rand.Rand, shape []int, kind, lo, hi int) *tf.Tensor[int64] {
	t.Helper()
	x := elemOperand[int64](t, r, shape, kind)
	if kind == Broadcast {
		x, _ = x.Slice(0, 0, 1, 1) // the one row every broadcast index reads
	}
	Each(x.Shape(), func(idx []int) {
		if err := x.Set(int64(lo+r.IntN(max(hi-lo, 1))), idx...); err != nil {
			t.Fatal(err)
		}
	})
	if kind == Broadcast {
		x, _ = x.Broadcast(shape...)
	}
	return x
}

// pos resolves index value v on an axis of extent n (negative from the
// end).
func pos(v int64, n int) int {
	if v < 0 {
		return int(v) + n
	}
	return int(v)
}

func (s elemSuite[T]) indexing(t *testing.T, e tf.Engine) {
	r := rng(13)
	for _, shape := range elemShapes {
		if len(shape) == 0 {
			continue
		}
		for kind := range elemLayouts {
			a := elemOperand[T](t, r, shape, kind)
			what := name(shape, " ", elemLayoutName(kind), " ")
			for axis, n := range shape {
				ik := (kind + axis) % elemLayouts
				s.take(t, e, r, name(what, "axis ", axis, " "), a, axis, n, ik)
				s.gather(t, e, r, name(what, "axis ", axis, " "), a, axis, n, ik)
				if tf.DTypeOf[T]() != tf.Bool {
					scatterCheck[T](t, e, r, name(what, "axis ", axis, " "), a, axis, n, ik)
				}
			}
			s.masked(t, e, r, what, a, kind)
		}
	}
}

// refused checks that an Into form fails with ErrArgument on an
// out-of-range index and leaves its destination untouched.
func refused[T tf.Elem](t testing.TB, what string, shape []int, run func(dst *tf.Tensor[T]) error) {
	t.Helper()
	dst, whole := Destination(t, shape, Stepped, elemSentinel[T]())
	before := slices.Clone(whole.Storage())
	if err := run(dst); !errors.Is(err, tf.ErrArgument) {
		t.Fatalf("%s: %v, want ErrArgument", what, err)
	}
	if !slices.Equal(before, whole.Storage()) {
		t.Fatalf("%s: a refused call wrote its destination", what)
	}
}

func (elemSuite[T]) take(t *testing.T, e tf.Engine, r *rand.Rand, what string, a *tf.Tensor[T], axis, n, ik int) {
	m := r.IntN(6)
	if n == 0 {
		m = 0
	}
	index := indexOperand(t, r, []int{m}, ik%NumLayouts, -n, n)
	out := with(a.Shape(), axis, m)
	want := func(idx []int) T {
		return elemAt(a, with(idx, axis, pos(elemAt(index, idx[axis]), n))...)
	}
	w := what + "Take"
	got, err := tf.Take(e, a, axis, index)
	result(t, w, got, err, out, want)
	into(t, w+" into", out, ik+1, func(d *tf.Tensor[T]) error { return tf.TakeInto(e, d, a, axis, index) }, want)
	if m > 0 {
		bad, _ := tf.Copy(e, index)
		_ = bad.Set(int64([]int{n, -n - 1}[m%2]), m-1)
		refused(t, w+" out of range", out, func(d *tf.Tensor[T]) error { return tf.TakeInto(e, d, a, axis, bad) })
	}
}

func (elemSuite[T]) gather(t *testing.T, e tf.Engine, r *rand.Rand, what string, a *tf.Tensor[T], axis, n, ik int) {
	shape := a.Shape()
	is := make([]int, len(shape))
	for d, x := range shape {
		is[d] = r.IntN(x + 1)
	}
	is[axis] = r.IntN(4)
	if n == 0 {
		is[axis] = 0
	}
	index := indexOperand(t, r, is, ik, -n, n)
	want := func(idx []int) T {
		return elemAt(a, with(idx, axis, pos(elemAt(index, idx...), n))...)
	}
	w := name(what, "Gather ", is)
	got, err := tf.Gather(e, a, axis, index)
	result(t, w, got, err, is, want)
	into(t, w+" into", is, ik+2, func(d *tf.Tensor[T]) error { return tf.GatherInto(e, d, a, axis, index) }, want)
	if tf.Numel(is) > 0 {
		bad, _ := tf.Copy(e, index)
		last := make([]int, len(is))
		for d, x := range is {
			last[d] = x - 1
		}
		_ = bad.Set(int64(n), last...)
		refused(t, w+" out of range", is, func(d *tf.Tensor[T]) error { return tf.GatherInto(e, d, a, axis, bad) })
	}
}

// scatterCheck checks ScatterAdd, whose element types add (a function of
// its own: the constraint is narrower than the suite's).
func scatterCheck[T tf.Elem](t *testing.T, e tf.Engine, r *rand.Rand, what string, a *tf.Tensor[T], axis, n, ik int) {
	switch x := any(a).(type) {
	case *tf.Tensor[float32]:
		scatter(t, e, r, what, x, axis, n, ik)
	case *tf.Tensor[float64]:
		scatter(t, e, r, what, x, axis, n, ik)
	case *tf.Tensor[complex64]:
		scatter(t, e, r, what, x, axis, n, ik)
	case *tf.Tensor[complex128]:
		scatter(t, e, r, what, x, axis, n, ik)
	case *tf.Tensor[int64]:
		scatter(t, e, r, what, x, axis, n, ik)
	}
}

func scatter[T tf.Scalar | int64](t *testing.T, e tf.Engine, r *rand.Rand, what string, a *tf.Tensor[T], axis, n, ik int) {
	shape := a.Shape()
	is, ss := make([]int, len(shape)), make([]int, len(shape))
	for d, x := range shape {
		is[d] = r.IntN(x + 1)
		if d == axis {
			is[d] = r.IntN(5)
			if n == 0 {
				is[d] = 0
			}
		}
		ss[d] = is[d] + r.IntN(2)
	}
	index := indexOperand(t, r, is, ik%NumLayouts, -n, n)
	src := elemOperand[T](t, r, ss, (ik+1)%elemLayouts)
	// The reference adds in column-major order of index, which for each
	// destination element is increasing order along axis: the order the
	// operation promises.
	ref := map[int]T{}
	Each(is, func(idx []int) {
		p := ravel(with(idx, axis, pos(elemAt(index, idx...), n)), shape)
		if _, ok := ref[p]; !ok {
			ref[p] = elemAt(a, unravel(p, shape)...)
		}
		ref[p] += elemAt(src, idx...)
	})
	want := func(idx []int) T {
		if v, ok := ref[ravel(idx, shape)]; ok {
			return v
		}
		return elemAt(a, idx...)
	}
	w := name(what, "ScatterAdd ", is, " src ", ss)
	got, err := tf.ScatterAdd(e, a, axis, index, src)
	result(t, w, got, err, shape, want)
	into(t, w+" into", shape, ik+3, func(d *tf.Tensor[T]) error { return tf.ScatterAddInto(e, d, a, axis, index, src) }, want)
	c, err := tf.Copy(e, a)
	mustNil(t, w, err)
	mustNil(t, w+" in place", tf.ScatterAddInto(e, c, c, axis, index, src))
	expect(t, w+" in place", c, shape, want)
	if tf.Numel(is) > 0 {
		bad, _ := tf.Copy(e, index)
		_ = bad.Set(int64(-n-1), make([]int, len(is))...)
		refused(t, w+" out of range", shape, func(d *tf.Tensor[T]) error { return tf.ScatterAddInto(e, d, a, axis, bad, src) })
		before := slices.Clone(c.Storage())
		if err := tf.ScatterAddInto(e, c, c, axis, bad, src); !errors.Is(err, tf.ErrArgument) || !slices.Equal(before, c.Storage()) {
			t.Fatalf("%s: in place with a bad index: %v (or written)", w, err)
		}
	}
}

func (elemSuite[T]) masked(t *testing.T, e tf.Engine, r *rand.Rand, what string, a *tf.Tensor[T], kind int) {
	shape := a.Shape()
	// The mask drops a's first axis (broadcast along it) or stretches
	// along a new leading one.
	for _, ms := range [][]int{shape[1:], append([]int{2}, shape...)} {
		out := shape
		if len(ms) > len(shape) {
			out = ms
		}
		mask := elemOperand[bool](t, r, ms, (kind+1)%elemLayouts)
		var want []T
		Each(out, func(idx []int) {
			if elemAt(mask, idx[len(out)-len(ms):]...) {
				want = append(want, elemAt(a, idx[len(out)-len(shape):]...))
			}
		})
		w := name(what, "MaskedSelect mask ", ms)
		got, err := tf.MaskedSelect(e, a, mask)
		result(t, w, got, err, []int{len(want)}, func(idx []int) T { return want[idx[0]] })
		var zero T
		long := len(want) + 3
		for dk := range NumLayouts {
			into(t, name(w, " into ", LayoutName(dk)), []int{long}, dk, func(d *tf.Tensor[T]) error {
				n, err := tf.MaskedSelectInto(e, d, a, mask)
				if err == nil && n != len(want) {
					t.Fatalf("%s: MaskedSelectInto returned %d, want %d", w, n, len(want))
				}
				return err
			}, func(idx []int) T {
				if idx[0] < len(want) {
					return want[idx[0]]
				}
				return zero
			})
		}
		if len(want) > 0 {
			short, _ := tf.Full(elemSentinel[T](), len(want)-1)
			if _, err := tf.MaskedSelectInto(e, short, a, mask); !errors.Is(err, tf.ErrShape) {
				t.Fatalf("%s: into %d elements: %v, want ErrShape", w, len(want)-1, err)
			}
			for i := range len(want) - 1 {
				if elemAt(short, i) != elemSentinel[T]() {
					t.Fatalf("%s: a refused call wrote its destination", w)
				}
			}
		}
	}
}

// testIndexingAllocs checks that the Into forms of the indexing operations
// allocate nothing on a warm engine.
func testIndexingAllocs(t *testing.T, e tf.Engine) {
	r := rng(14)
	a := Operand[float64](t, r, []int{6, 5}, Transposed)
	src := Operand[float64](t, r, []int{6, 5}, Stepped)
	index := indexOperand(t, r, []int{7}, Reversed, -5, 5)
	gi := indexOperand(t, r, []int{6, 5}, Transposed, -6, 6)
	mask := elemOperand[bool](t, r, []int{5}, Stepped)
	z := func(shape ...int) *tf.Tensor[float64] { d, _ := tf.Zeros[float64](shape...); return d }
	take, gather, acc, sel := z(6, 7), z(6, 5), z(6, 5), z(30)
	cases := map[string]func() error{
		"TakeInto":                func() error { return tf.TakeInto(e, take, a, 1, index) },
		"GatherInto":              func() error { return tf.GatherInto(e, gather, a, 0, gi) },
		"ScatterAddInto in place": func() error { return tf.ScatterAddInto(e, acc, acc, 0, gi, src) },
		"MaskedSelectInto":        func() error { _, err := tf.MaskedSelectInto(e, sel, a, mask); return err },
	}
	for name, run := range cases {
		mustNil(t, name, run())
		if raceEnabled {
			continue
		}
		if n := testing.AllocsPerRun(20, func() {
			if err := run(); err != nil {
				t.Fatal(err)
			}
		}); n != 0 {
			t.Errorf("%s allocates %v times per call on a warm engine", name, n)
		}
	}
}
