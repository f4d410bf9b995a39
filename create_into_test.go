package tenferro_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/backend/enginetest"
	"github.com/tenferro-go/tenferro/cpu"
)

// seeded returns the generator that Rand, RandN and RandUniform use for
// seed.
func seeded(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x74656e66)) }

// sameElem reports whether a and b are equal, two NaNs counting as equal.
func sameElem[T tf.Elem](a, b T) bool { return a == b || a != a && b != b }

// intoCase is one call of a creation Into form and the constructor result
// that it must reproduce in any destination of want's shape.
type intoCase[T tf.Elem] struct {
	name string
	want *tf.Tensor[T]
	into func(e tf.Engine, dst *tf.Tensor[T]) error
}

// runIntoCases runs every case into a pooled compact destination and into
// a destination of every enginetest layout inside a tensor of sentinels,
// and checks each element of dst against want with At and every element
// outside dst against the sentinel.
func runIntoCases[T tf.Elem](t *testing.T, sentinel T, cases []intoCase[T]) {
	t.Helper()
	e := cpu.Serial()
	defer e.Close()
	for _, c := range cases {
		shape := c.want.Shape()
		wantData := must(c.want.Data())
		pooled := must(tf.NewTensor[T](e, shape...))
		for d, i := must(pooled.Data()), 0; i < len(d); i++ {
			d[i] = sentinel // recycled storage holds anything
		}
		if err := c.into(e, pooled); err != nil {
			t.Fatalf("%s into compact %v: %v", c.name, shape, err)
		}
		if got := must(pooled.Data()); !slices.EqualFunc(got, wantData, sameElem) {
			t.Fatalf("%s into compact %v = %v, want %v", c.name, shape, got, wantData)
		}
		pooled.Release()
		for kind := range enginetest.NumLayouts {
			dst, whole := enginetest.Destination(t, shape, kind, sentinel)
			if err := c.into(e, dst); err != nil {
				t.Fatalf("%s into %s %v: %v", c.name, enginetest.LayoutName(kind), shape, err)
			}
			expect := slices.Repeat([]T{sentinel}, len(whole.Storage()))
			each(shape, func(idx []int) {
				got, want := must(dst.At(idx...)), must(c.want.At(idx...))
				if !sameElem(got, want) {
					t.Fatalf("%s into %s %v: element %v = %v, want %v", c.name, enginetest.LayoutName(kind), shape, idx, got, want)
				}
				p := dst.Offset()
				for d, i := range idx {
					p += i * dst.Strides()[d]
				}
				expect[p] = want
			})
			if got := whole.Storage(); !slices.EqualFunc(got, expect, sameElem) {
				t.Fatalf("%s into %s %v wrote outside dst: %v, want %v", c.name, enginetest.LayoutName(kind), shape, got, expect)
			}
		}
	}
}

var (
	intoShapes = [][]int{{}, {0}, {1}, {5}, {3, 5}, {2, 0, 3}, {4, 1, 3}, {2, 3, 2}}
	eyeShapes  = [][2]int{{0, 3}, {3, 0}, {1, 1}, {3, 3}, {4, 6}, {6, 4}}
	eyeKs      = []int{math.MinInt, -7, -2, -1, 0, 1, 3, 8, math.MaxInt}
)

// fillEyeCases are the cases of FillInto and EyeInto for any T, with v a
// value other than zero and one.
func fillEyeCases[T tf.Elem](v T) []intoCase[T] {
	var cs []intoCase[T]
	var zero T
	for _, shape := range intoShapes {
		cs = append(cs,
			intoCase[T]{fmt.Sprintf("FillInto(%v)", v), must(tf.Full(v, shape...)),
				func(e tf.Engine, dst *tf.Tensor[T]) error { return tf.FillInto(e, dst, v) }},
			intoCase[T]{"FillInto(zero)", must(tf.Zeros[T](shape...)),
				func(e tf.Engine, dst *tf.Tensor[T]) error { return tf.FillInto(e, dst, zero) }},
		)
	}
	for _, nm := range eyeShapes {
		n, m := nm[0], nm[1]
		for _, k := range eyeKs {
			cs = append(cs, intoCase[T]{fmt.Sprintf("EyeInto(k=%d)", k), must(tf.EyeK[T](n, m, k)),
				func(e tf.Engine, dst *tf.Tensor[T]) error { return tf.EyeInto(e, dst, k) }})
		}
		cs = append(cs, intoCase[T]{"EyeInto as Eye", must(tf.Eye[T](n, m)),
			func(e tf.Engine, dst *tf.Tensor[T]) error { return tf.EyeInto(e, dst, 0) }})
	}
	cs = append(cs, intoCase[T]{"EyeInto as Identity", must(tf.Identity[T](4)),
		func(e tf.Engine, dst *tf.Tensor[T]) error { return tf.EyeInto(e, dst, 0) }})
	return cs
}

// scalarCases are the cases of every creation Into form for T.
func scalarCases[T tf.Scalar]() []intoCase[T] {
	cs := fillEyeCases(T(2.5))
	for _, shape := range intoShapes {
		cs = append(cs, intoCase[T]{"FillInto(1) as Ones", must(tf.Ones[T](shape...)),
			func(e tf.Engine, dst *tf.Tensor[T]) error { return tf.FillInto(e, dst, 1) }})
	}
	for _, a := range []struct{ start, stop, step float64 }{
		{0, 5, 1}, {5, 1, -1.5}, {0, 1, 0.3}, {1, 1.3, 0.1}, {1, 1, 1}, {-10, 10, 0.7}, {1e15, 1e15 + 10, 3}, {0, 1e-300, 1e300},
	} {
		cs = append(cs, intoCase[T]{fmt.Sprintf("ArangeInto(%g, %g)", a.start, a.step), must(tf.Arange[T](a.start, a.stop, a.step)),
			func(e tf.Engine, dst *tf.Tensor[T]) error { return tf.ArangeInto(e, dst, a.start, a.step) }})
	}
	for _, n := range []int{0, 1, 2, 7} {
		cs = append(cs, intoCase[T]{"ArangeInto(0, 1) as ArangeN", must(tf.ArangeN[T](n)),
			func(e tf.Engine, dst *tf.Tensor[T]) error { return tf.ArangeInto(e, dst, 0, 1) }})
	}
	for _, a := range []struct {
		start, stop float64
		n           int
		base        float64
	}{
		{0, 1, 5, 10}, {-3, 7, 1, 2}, {2, 2, 4, 3}, {0, 0, 0, 10}, {0, 5e-324, 4, 2}, {-1e308, 1e308, 5, 10},
		{0, 1, 11, 0.5}, {1, 2, 3, -2}, {-2, 2, 9, math.E},
	} {
		for _, endpoint := range []bool{true, false} {
			cs = append(cs,
				intoCase[T]{fmt.Sprintf("LinspaceInto(%g, %g, %v)", a.start, a.stop, endpoint), must(tf.Linspace[T](a.start, a.stop, a.n, endpoint)),
					func(e tf.Engine, dst *tf.Tensor[T]) error { return tf.LinspaceInto(e, dst, a.start, a.stop, endpoint) }},
				intoCase[T]{fmt.Sprintf("LogspaceInto(%g, %g, %v, %g)", a.start, a.stop, endpoint, a.base), must(tf.Logspace[T](a.start, a.stop, a.n, endpoint, a.base)),
					func(e tf.Engine, dst *tf.Tensor[T]) error {
						return tf.LogspaceInto(e, dst, a.start, a.stop, endpoint, a.base)
					}},
			)
		}
	}
	next := math.Nextafter(1, 2) // an interval of one value, where rounding reaches hi
	if tf.DTypeOf[T]().Real() == tf.Float32 {
		next = float64(math.Nextafter32(1, 2))
	}
	for _, shape := range intoShapes {
		for _, seed := range []uint64{1, 1 << 63} {
			cs = append(cs,
				intoCase[T]{"RandInto", must(tf.Rand[T](seed, shape...)),
					func(e tf.Engine, dst *tf.Tensor[T]) error { return tf.RandInto(e, dst, seeded(seed)) }},
				intoCase[T]{"RandNInto", must(tf.RandN[T](seed, shape...)),
					func(e tf.Engine, dst *tf.Tensor[T]) error { return tf.RandNInto(e, dst, seeded(seed)) }},
				intoCase[T]{"RandUniformInto(-2, 3.5)", must(tf.RandUniform[T](seed, -2, 3.5, shape...)),
					func(e tf.Engine, dst *tf.Tensor[T]) error { return tf.RandUniformInto(e, dst, seeded(seed), -2, 3.5) }},
				intoCase[T]{"RandUniformInto(0, 1) as Rand", must(tf.Rand[T](seed, shape...)),
					func(e tf.Engine, dst *tf.Tensor[T]) error { return tf.RandUniformInto(e, dst, seeded(seed), 0, 1) }},
				intoCase[T]{"RandUniformInto(1, next(1))", must(tf.RandUniform[T](seed, 1, next, shape...)),
					func(e tf.Engine, dst *tf.Tensor[T]) error { return tf.RandUniformInto(e, dst, seeded(seed), 1, next) }},
			)
		}
	}
	return cs
}

// TestCreateInto checks that every creation Into form writes exactly its
// constructor's values, into compact, transposed, reversed and stepped
// destinations, zero-size ones included, and nothing outside them.
func TestCreateInto(t *testing.T) {
	t.Run("f32", func(t *testing.T) { runIntoCases(t, -7777.5, scalarCases[float32]()) })
	t.Run("f64", func(t *testing.T) { runIntoCases(t, -7777.5, scalarCases[float64]()) })
	t.Run("c64", func(t *testing.T) { runIntoCases(t, complex(-7777.5, 3), scalarCases[complex64]()) })
	t.Run("c128", func(t *testing.T) { runIntoCases(t, complex(-7777.5, 3), scalarCases[complex128]()) })
	t.Run("i64", func(t *testing.T) { runIntoCases(t, -7777, fillEyeCases[int64](5)) })
	t.Run("bool", func(t *testing.T) {
		// true and false are both sentinels: every value is checked twice.
		runIntoCases(t, false, fillEyeCases(true))
		runIntoCases(t, true, fillEyeCases(true))
	})
}

// TestRandIntoStream checks that the random Into forms continue the
// stream of their generator: two halves filled one after the other hold
// the constructor's values for the whole.
func TestRandIntoStream(t *testing.T) {
	e := cpu.Serial()
	defer e.Close()
	a, b := must(tf.NewTensor[complex64](e, 3)), must(tf.NewTensor[complex64](e, 4))
	for name, f := range map[string]func(r *rand.Rand, dst *tf.Tensor[complex64]) error{
		"RandInto":        func(r *rand.Rand, dst *tf.Tensor[complex64]) error { return tf.RandInto(e, dst, r) },
		"RandNInto":       func(r *rand.Rand, dst *tf.Tensor[complex64]) error { return tf.RandNInto(e, dst, r) },
		"RandUniformInto": func(r *rand.Rand, dst *tf.Tensor[complex64]) error { return tf.RandUniformInto(e, dst, r, -1, 1) },
	} {
		r := seeded(5)
		if err := f(r, a); err != nil {
			t.Fatal(err)
		}
		if err := f(r, b); err != nil {
			t.Fatal(err)
		}
		var want *tf.Tensor[complex64]
		switch name {
		case "RandInto":
			want = must(tf.Rand[complex64](5, 7))
		case "RandNInto":
			want = must(tf.RandN[complex64](5, 7))
		default:
			want = must(tf.RandUniform[complex64](5, -1, 1, 7))
		}
		if got := append(must(a.Data()), must(b.Data())...); !slices.Equal(got, must(want.Data())) {
			t.Errorf("%s in two calls = %v, want %v", name, got, must(want.Data()))
		}
	}
}

// TestCreateIntoErrors checks that every invalid call fails with an error
// naming the operation and the argument, before it writes dst or draws
// from the generator.
func TestCreateIntoErrors(t *testing.T) {
	e := cpu.Serial()
	defer e.Close()
	const s = -7777.5
	vec := must(tf.Full(s, 4))
	mat := must(tf.Full(s, 2, 3))
	cube := must(tf.Full(s, 2, 2, 2))
	scalar := must(tf.Full(s))
	bvec := must(must(tf.Full(s, 1)).Broadcast(4))
	bmat := must(must(tf.Full(s, 2, 1)).Broadcast(2, 3))
	rel := must(tf.Full(s, 4))
	rel.Release()
	var null *tf.Tensor[float64]
	r := seeded(1)
	nan, inf := math.NaN(), math.Inf(1)
	cases := []struct {
		err  error
		kind error
		op   string
		arg  string
	}{
		{tf.FillInto(e, null, 1), tf.ErrArgument, "FillInto", "dst"},
		{tf.FillInto(e, rel, 1), tf.ErrReleased, "FillInto", "dst"},
		{tf.FillInto(e, bvec, 1), tf.ErrAlias, "FillInto", "dst"},
		{tf.FillInto(nil, vec, 1), tf.ErrArgument, "FillInto", "e"},
		{tf.EyeInto(e, vec, 0), tf.ErrShape, "EyeInto", "dst"},
		{tf.EyeInto(e, cube, 0), tf.ErrShape, "EyeInto", "dst"},
		{tf.EyeInto(e, bmat, 0), tf.ErrAlias, "EyeInto", "dst"},
		{tf.EyeInto(e, rel, 0), tf.ErrReleased, "EyeInto", "dst"},
		{tf.EyeInto(nil, mat, 0), tf.ErrArgument, "EyeInto", "e"},
		{tf.ArangeInto(e, mat, 0, 1), tf.ErrShape, "ArangeInto", "dst"},
		{tf.ArangeInto(e, scalar, 0, 1), tf.ErrShape, "ArangeInto", "dst"},
		{tf.ArangeInto(e, bvec, 0, 1), tf.ErrAlias, "ArangeInto", "dst"},
		{tf.ArangeInto(e, vec, nan, 1), tf.ErrArgument, "ArangeInto", "start"},
		{tf.ArangeInto(e, vec, 0, -inf), tf.ErrArgument, "ArangeInto", "step"},
		{tf.ArangeInto(e, vec, 0, 1e308), tf.ErrArgument, "ArangeInto", "step"},
		{tf.ArangeInto(e, vec, -1e308, -1e308), tf.ErrArgument, "ArangeInto", "step"},
		{tf.ArangeInto(nil, vec, 0, 1), tf.ErrArgument, "ArangeInto", "e"},
		{tf.LinspaceInto(e, mat, 0, 1, true), tf.ErrShape, "LinspaceInto", "dst"},
		{tf.LinspaceInto(e, null, 0, 1, true), tf.ErrArgument, "LinspaceInto", "dst"},
		{tf.LinspaceInto(e, vec, inf, 1, true), tf.ErrArgument, "LinspaceInto", "start"},
		{tf.LinspaceInto(e, vec, 0, nan, false), tf.ErrArgument, "LinspaceInto", "stop"},
		{tf.LogspaceInto(e, scalar, 0, 1, true, 10), tf.ErrShape, "LogspaceInto", "dst"},
		{tf.LogspaceInto(e, vec, 0, -inf, true, 10), tf.ErrArgument, "LogspaceInto", "stop"},
		{tf.LogspaceInto(e, vec, 0, 1, true, nan), tf.ErrArgument, "LogspaceInto", "base"},
		{tf.RandInto(e, vec, nil), tf.ErrArgument, "RandInto", "r"},
		{tf.RandInto(e, bmat, r), tf.ErrAlias, "RandInto", "dst"},
		{tf.RandNInto(e, vec, nil), tf.ErrArgument, "RandNInto", "r"},
		{tf.RandNInto(e, rel, r), tf.ErrReleased, "RandNInto", "dst"},
		{tf.RandNInto(nil, vec, r), tf.ErrArgument, "RandNInto", "e"},
		{tf.RandUniformInto(e, vec, nil, 0, 1), tf.ErrArgument, "RandUniformInto", "r"},
		{tf.RandUniformInto(e, bvec, r, 0, 1), tf.ErrAlias, "RandUniformInto", "dst"},
		{tf.RandUniformInto(e, vec, r, nan, 1), tf.ErrArgument, "RandUniformInto", "lo"},
		{tf.RandUniformInto(e, vec, r, 0, inf), tf.ErrArgument, "RandUniformInto", "hi"},
		{tf.RandUniformInto(e, vec, r, 1, 1), tf.ErrArgument, "RandUniformInto", "hi"},
		{tf.RandUniformInto(e, vec, r, -1e308, 1e308), tf.ErrArgument, "RandUniformInto", "hi"},
		{tf.RandUniformInto(e, must(tf.Full[float32](1, 4)), r, 0, 1e39), tf.ErrArgument, "RandUniformInto", "hi"},
		{tf.RandUniformInto(e, must(tf.Full[complex64](1, 4)), r, 1, 1+1e-10), tf.ErrArgument, "RandUniformInto", "hi"},
	}
	for i, c := range cases {
		var te *tf.Error
		if !errors.Is(c.err, c.kind) || !errors.As(c.err, &te) || te.Op != c.op || te.Arg != c.arg {
			t.Errorf("case %d: %v, want %v from %s naming %q", i, c.err, c.kind, c.op, c.arg)
		}
	}
	for _, x := range []*tf.Tensor[float64]{vec, mat, cube, scalar, bvec, bmat} {
		for _, v := range x.Storage() {
			if v != s {
				t.Fatalf("a failed call wrote %v into a destination: %v", v, x.Storage())
			}
		}
	}
	if got, want := r.Uint64(), seeded(1).Uint64(); got != want {
		t.Errorf("a failed call drew from the generator: next draw %d, want %d", got, want)
	}
}

// TestCreateIntoEngine checks that the Into forms claim the engine (a busy
// or closed engine fails before dst is written) and report an engine
// without kernels for T as ErrUnsupported.
func TestCreateIntoEngine(t *testing.T) {
	const s = -7777.5
	vec := must(tf.Full[float32](s, 4))
	mat := must(tf.Full[float32](s, 2, 3))
	r := seeded(1)
	calls := func(e tf.Engine) map[string]func() error {
		return map[string]func() error{
			"FillInto":        func() error { return tf.FillInto(e, vec, 1) },
			"EyeInto":         func() error { return tf.EyeInto(e, mat, 0) },
			"ArangeInto":      func() error { return tf.ArangeInto(e, vec, 0, 1) },
			"LinspaceInto":    func() error { return tf.LinspaceInto(e, vec, 0, 1, true) },
			"LogspaceInto":    func() error { return tf.LogspaceInto(e, vec, 0, 1, true, 10) },
			"RandInto":        func() error { return tf.RandInto(e, vec, r) },
			"RandNInto":       func() error { return tf.RandNInto(e, vec, r) },
			"RandUniformInto": func() error { return tf.RandUniformInto(e, vec, r, 0, 1) },
		}
	}
	untouched := func(name string) {
		t.Helper()
		for _, x := range []*tf.Tensor[float32]{vec, mat} {
			for _, v := range x.Storage() {
				if v != s {
					t.Fatalf("%s wrote its destination: %v", name, x.Storage())
				}
			}
		}
	}
	busy := cpu.Serial()
	defer busy.Close()
	be := busy.Backend()
	if err := be.Begin("held"); err != nil {
		t.Fatal(err)
	}
	for name, call := range calls(busy) {
		if err := call(); !errors.Is(err, tf.ErrEngineBusy) {
			t.Errorf("%s on a busy engine: %v, want ErrEngineBusy", name, err)
		}
		untouched(name)
	}
	be.End()
	closed := cpu.Serial()
	closed.Close()
	for name, call := range calls(closed) {
		if err := call(); !errors.Is(err, tf.ErrClosed) {
			t.Errorf("%s on a closed engine: %v, want ErrClosed", name, err)
		}
		untouched(name)
	}
	core := &coreEngine{} // float64 only
	for name, call := range calls(core) {
		if err := call(); !errors.Is(err, tf.ErrUnsupported) {
			t.Errorf("%s on an engine without float32: %v, want ErrUnsupported", name, err)
		}
		if core.busy {
			t.Fatalf("%s left the engine claimed", name)
		}
		untouched(name)
	}
	if got, want := r.Uint64(), seeded(1).Uint64(); got != want {
		t.Errorf("a failed call drew from the generator: next draw %d, want %d", got, want)
	}
	// Each call succeeds once the engine is free.
	free := cpu.Serial()
	defer free.Close()
	for name, call := range calls(free) {
		if err := call(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestCreateIntoAllocs checks that the creation Into forms allocate
// nothing on a warm engine, into compact and strided destinations.
func TestCreateIntoAllocs(t *testing.T) {
	e := cpu.Serial()
	defer e.Close()
	vc := must(tf.NewTensor[float64](e, 64))
	vs := must(must(tf.NewTensor[float64](e, 129)).Slice(0, 1, 129, 2))
	vr := must(vc.Reverse(0))
	mc := must(tf.NewTensor[float64](e, 8, 6))
	mt := must(must(tf.NewTensor[float64](e, 6, 8)).Transpose())
	zc := must(tf.NewTensor[complex128](e, 5, 7))
	zs := must(must(must(tf.NewTensor[complex128](e, 10, 7)).Slice(0, 0, 10, 2)).Reverse(1))
	bm := must(must(tf.NewTensor[bool](e, 6, 8)).Transpose())
	r := seeded(1)
	calls := map[string]func() error{
		"FillInto": func() error {
			return errors.Join(tf.FillInto(e, vc, 1.5), tf.FillInto(e, vs, 1.5), tf.FillInto(e, mt, 0), tf.FillInto(e, zs, 2i))
		},
		"EyeInto": func() error {
			return errors.Join(tf.EyeInto(e, mc, 1), tf.EyeInto(e, mt, -2), tf.EyeInto(e, zc, 0), tf.EyeInto(e, bm, 0))
		},
		"ArangeInto": func() error {
			return errors.Join(tf.ArangeInto(e, vc, 1, 0.5), tf.ArangeInto(e, vs, 1, 0.5), tf.ArangeInto(e, vr, -3, 2))
		},
		"LinspaceInto": func() error {
			return errors.Join(tf.LinspaceInto(e, vc, 0, 1, true), tf.LinspaceInto(e, vs, 0, 1, false), tf.LinspaceInto(e, vr, 5e-324, 0, true))
		},
		"LogspaceInto": func() error {
			return errors.Join(tf.LogspaceInto(e, vc, 0, 1, true, 10), tf.LogspaceInto(e, vs, 0, 1, false, 2))
		},
		"RandInto": func() error { return errors.Join(tf.RandInto(e, vc, r), tf.RandInto(e, zs, r)) },
		"RandNInto": func() error {
			return errors.Join(tf.RandNInto(e, vc, r), tf.RandNInto(e, vs, r), tf.RandNInto(e, mt, r), tf.RandNInto(e, zc, r), tf.RandNInto(e, zs, r))
		},
		"RandUniformInto": func() error {
			return errors.Join(tf.RandUniformInto(e, vc, r, -1, 1), tf.RandUniformInto(e, zs, r, -1, 1))
		},
	}
	for name, call := range calls {
		if err := call(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if n := testing.AllocsPerRun(20, func() {
			if err := call(); err != nil {
				panic(err)
			}
		}); n != 0 {
			t.Errorf("%s: %v allocations per call, want 0", name, n)
		}
	}
}
