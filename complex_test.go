package tenferro_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/backend/enginetest"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/program"
	"github.com/tenferro-go/tenferro/trace"
)

// complexShapes are the shapes of the parts Complex is tested with: equal
// shapes of sizes 0, 1 and primes, extents of 1 that stretch, missing
// leading axes, 0-d parts, and 1 against 0.
var complexShapes = []struct{ re, im []int }{
	{nil, nil}, {[]int{0}, []int{0}}, {[]int{1}, []int{1}}, {[]int{7}, []int{7}}, {[]int{1031}, []int{1031}},
	{[]int{13, 5}, []int{13, 5}}, {[]int{13, 5}, []int{1, 5}}, {[]int{13, 5}, []int{13, 1}},
	{[]int{13, 5}, []int{5}}, {[]int{13, 5}, nil}, {nil, []int{3, 11}}, {[]int{1, 11}, []int{3, 1}},
	{[]int{4, 0}, []int{1, 0}}, {[]int{0, 3}, []int{3}}, {[]int{1, 0}, []int{4, 1}}, {[]int{2, 3, 31}, []int{3, 1}},
	{[]int{5, 1, 3, 2}, []int{7, 1, 1}},
}

// TestComplex checks Complex and ComplexInto against complex(re, im) on
// random parts in every layout of the conformance suite (compact,
// transposed, reversed, stepped), with broadcasting, into compact and
// strided destinations whose surroundings must stay untouched. The parts
// are copied, so results are exact.
func TestComplex(t *testing.T) {
	e := cpu.Serial()
	defer e.Close()
	testComplex[float32, complex64](t, e)
	testComplex[float64, complex128](t, e)
}

func testComplex[R tf.Float, C tf.Scalar](t *testing.T, e tf.Engine) {
	r := rand.New(rand.NewPCG(11, uint64(tf.DTypeOf[R]())))
	for _, c := range complexShapes {
		shape, err := tf.BroadcastShapes(c.re, c.im)
		if err != nil {
			t.Fatalf("shapes %v %v: %v", c.re, c.im, err)
		}
		for kind := range enginetest.NumLayouts {
			re := enginetest.Operand[R](t, r, c.re, kind)
			im := enginetest.Operand[R](t, r, c.im, (kind+1)%enginetest.NumLayouts)
			what := fmt.Sprintf("%v re %v im %v, %s", tf.DTypeOf[R](), c.re, c.im, enginetest.LayoutName(kind))
			check := func(how string, z *tf.Tensor[C]) {
				t.Helper()
				if !slices.Equal(z.Shape(), shape) {
					t.Fatalf("%s %s: shape %v, want %v", what, how, z.Shape(), shape)
				}
				enginetest.Each(shape, func(idx []int) {
					x, y := broadcastAt(t, re, idx), broadcastAt(t, im, idx)
					got, _ := z.At(idx...)
					if want := complex(float64(x), float64(y)); toC128(got) != want {
						t.Fatalf("%s %s: element %v = %v, want %v", what, how, idx, got, want)
					}
				})
			}
			z, err := tf.Complex[C](e, re, im)
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			check("eager", z)
			if err := z.Release(); err != nil {
				t.Fatal(err)
			}
			sentinel := fromC128[C](complex(-9, 9))
			dst, whole := enginetest.Destination(t, shape, (kind+2)%enginetest.NumLayouts, sentinel)
			if err := tf.ComplexInto(e, dst, re, im); err != nil {
				t.Fatalf("%s into: %v", what, err)
			}
			check("into", dst)
			untouchedOutside(t, what+" into", dst, whole, sentinel)
		}
	}
}

// broadcastAt is element idx of x read at a shape of rank len(idx) under
// NumPy's broadcasting.
func broadcastAt[T tf.Elem](t testing.TB, x *tf.Tensor[T], idx []int) T {
	t.Helper()
	s := x.Shape()
	at := make([]int, len(s))
	for d := range s {
		if s[d] != 1 {
			at[d] = idx[len(idx)-len(s)+d]
		}
	}
	v, err := x.At(at...)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// untouchedOutside checks that every element of whole outside the view
// dst still holds sentinel.
func untouchedOutside[T tf.Elem](t testing.TB, what string, dst, whole *tf.Tensor[T], sentinel T) {
	t.Helper()
	inside := map[int]bool{}
	enginetest.Each(dst.Shape(), func(idx []int) {
		p := dst.Offset()
		for d, i := range idx {
			p += i * dst.Strides()[d]
		}
		inside[p] = true
	})
	for p, v := range whole.Storage() {
		if !inside[p] && v != sentinel {
			t.Fatalf("%s: element %d outside the destination was written (%v)", what, p, v)
		}
	}
}

func toC128[C tf.Scalar](v C) complex128 {
	switch x := any(v).(type) {
	case complex64:
		return complex128(x)
	case complex128:
		return x
	case float32:
		return complex(float64(x), 0)
	}
	return complex(any(v).(float64), 0)
}

func fromC128[C tf.Scalar](v complex128) C {
	var z C
	switch any(z).(type) {
	case complex64:
		return any(complex64(v)).(C)
	case complex128:
		return any(v).(C)
	case float32:
		return any(float32(real(v))).(C)
	}
	return any(real(v)).(C)
}

// TestComplexErrors checks the refusals of Complex and ComplexInto: a
// result type that is not the complex type of the parts' precision, parts
// that do not broadcast, missing or released parts, bad destinations and
// a missing engine. Each is an error of the documented kind naming the
// argument, and a failed Into leaves its destination untouched. The
// traced form refuses complex and mixed-precision parts, which the typed
// functions cannot be given, and reports shape errors exactly as the
// eager form.
func TestComplexErrors(t *testing.T) {
	e := cpu.Serial()
	defer e.Close()
	x32, _ := tf.RandN[float32](1, 2, 3)
	x64, _ := tf.RandN[float64](2, 2, 3)
	y64, _ := tf.RandN[float64](3, 3, 3)
	gone, _ := tf.Zeros[float64](2, 3)
	gone.Release()
	type errCase struct {
		name string
		err  error
		kind error
		arg  string
	}
	var cases []errCase
	add := func(name string, kind error, arg string, err error) {
		cases = append(cases, errCase{name, err, kind, arg})
	}
	_, err := tf.Complex[complex128](e, x32, x32)
	add("Complex[complex128] of float32", tf.ErrDType, "C", err)
	_, err = tf.Complex[complex64](e, x64, x64)
	add("Complex[complex64] of float64", tf.ErrDType, "C", err)
	_, err = tf.Complex[float64](e, x64, x64)
	add("Complex[float64]", tf.ErrDType, "C", err)
	_, err = tf.Complex[complex128](e, x64, y64)
	add("Complex of (2, 3) and (3, 3)", tf.ErrShape, "im", err)
	_, err = tf.Complex[complex128](e, nil, x64)
	add("Complex of a nil re", tf.ErrArgument, "re", err)
	_, err = tf.Complex[complex128](e, x64, gone)
	add("Complex of a released im", tf.ErrReleased, "im", err)
	_, err = tf.Complex[complex128](nil, x64, x64)
	add("Complex without an engine", tf.ErrArgument, "e", err)

	dst, _ := tf.Full(complex(5, 5), 2, 3)
	wrong, _ := tf.Full(complex(5, 5), 3, 2)
	row, _ := tf.Full(complex(5, 5), 1, 3)
	rep, _ := row.Broadcast(2, 3) // repeated elements
	d32, _ := tf.Full(complex64(complex(5, 5)), 2, 3)
	add("ComplexInto a (3, 2) destination", tf.ErrShape, "dst", tf.ComplexInto(e, wrong, x64, x64))
	add("ComplexInto a broadcast destination", tf.ErrAlias, "dst", tf.ComplexInto(e, rep, x64, x64))
	add("ComplexInto complex64 from float64", tf.ErrDType, "C", tf.ComplexInto(e, d32, x64, x64))
	add("ComplexInto of parts that do not broadcast", tf.ErrShape, "im", tf.ComplexInto(e, dst, x64, y64))
	add("ComplexInto of a released re", tf.ErrReleased, "re", tf.ComplexInto(e, dst, gone, x64))
	add("ComplexInto a nil destination", tf.ErrArgument, "dst", tf.ComplexInto[complex128, float64](e, nil, x64, x64))
	add("ComplexInto without an engine", tf.ErrArgument, "e", tf.ComplexInto(nil, dst, x64, x64))

	tr := trace.New()
	vz, _ := tr.Input(tf.Complex128, 2, 3)
	v32, _ := tr.Input(tf.Float32, 2, 3)
	v64, _ := tr.Input(tf.Float64, 2, 3)
	vi, _ := tr.Input(tf.Int64, 2, 3)
	_, err = tr.Complex(vz, vz)
	add("traced Complex of complex parts", tf.ErrDType, "re", err)
	_, err = tr.Complex(v32, v64)
	add("traced Complex of float32 and float64", tf.ErrDType, "im", err)
	_, err = tr.Complex(vi, vi)
	add("traced Complex of int64 parts", tf.ErrDType, "re", err)
	_, err = tr.Complex(v64, trace.Var{})
	add("traced Complex of the zero Var", tf.ErrArgument, "im", err)

	for _, c := range cases {
		var te *tf.Error
		switch {
		case c.err == nil:
			t.Errorf("%s: no error", c.name)
		case !errors.Is(c.err, c.kind):
			t.Errorf("%s: %v, want %v", c.name, c.err, c.kind)
		case !errors.As(c.err, &te) || te.Arg != c.arg || !strings.HasPrefix(te.Op, "Complex"):
			t.Errorf("%s: %v, want an error of Complex naming %s", c.name, c.err, c.arg)
		}
	}
	for _, d := range []*tf.Tensor[complex128]{dst, wrong, row} {
		data, _ := d.Data()
		for i, v := range data {
			if v != complex(5, 5) {
				t.Fatalf("a failed ComplexInto wrote element %d of a destination: %v", i, v)
			}
		}
	}
	if data, _ := d32.Data(); slices.ContainsFunc(data, func(v complex64) bool { return v != complex(5, 5) }) {
		t.Fatalf("a failed ComplexInto wrote its complex64 destination: %v", data)
	}
	// The eager and traced shape errors agree word for word.
	vy, _ := tr.Input(tf.Float64, 3, 3)
	_, terr := tr.Complex(v64, vy)
	_, eerr := tf.Complex[complex128](e, x64, y64)
	if terr == nil || eerr == nil || terr.Error() != eerr.Error() {
		t.Errorf("shape errors differ:\n eager  %v\n traced %v", eerr, terr)
	}
	if !strings.Contains(fmt.Sprint(eerr), "broadcasts with re's [2 3]") {
		t.Errorf("shape error %v does not name re's shape", eerr)
	}
}

// TestComplexProgram runs Complex in compiled programs, with and without
// fusion, against the same operations run eagerly: parts computed by
// fused elementwise trees, a broadcast row and a 0-d constant as
// imaginary parts, the complex result read by complex arithmetic (which
// may fuse), by Abs and Real, viewed through a permutation, and written
// straight into a strided output of the caller. The inputs are strided
// views, which the steps read in place. A warm RunInto allocates nothing.
func TestComplexProgram(t *testing.T) {
	e := cpu.Serial()
	defer e.Close()
	r := rand.New(rand.NewPCG(5, 7))
	x := enginetest.Operand[float64](t, r, []int{7, 5}, enginetest.Transposed)
	y := enginetest.Operand[float64](t, r, []int{5}, enginetest.Reversed)
	w := enginetest.Operand[complex128](t, r, []int{7, 5}, enginetest.Stepped)

	// Eagerly.
	ex, _ := tf.Exp(e, x)
	sy, _ := tf.Sin(e, y)
	z1, _ := tf.Complex[complex128](e, ex, sy)
	m, _ := tf.Mul(e, z1, w)
	s, _ := tf.Add(e, m, tf.Const(complex(1.0, -1.0)))
	a, _ := tf.Abs[float64](e, s)
	rz, _ := tf.Real[float64](e, z1)
	x2, _ := tf.Scale(e, 2, x)
	z2, _ := tf.Complex[complex128](e, x2, tf.Const(-0.5))
	z2t, _ := z2.Permute(1, 0)
	eager := []tf.Value{tf.ValueOf(z1), tf.ValueOf(s), tf.ValueOf(a), tf.ValueOf(rz), tf.ValueOf(z2t)}

	tr := trace.New()
	vx, _ := tr.Input(tf.Float64, 7, 5)
	vy, _ := tr.Input(tf.Float64, 5)
	vw, _ := tr.Input(tf.Complex128, 7, 5)
	vz1, err := tr.Complex(must(tr.Exp(vx)), must(tr.Sin(vy)))
	if err != nil {
		t.Fatal(err)
	}
	vs := must(tr.Add(must(tr.Mul(vz1, vw)), must(tr.Full(tf.Complex128, complex(1, -1)))))
	va := must(tr.Abs(vs))
	vr := must(tr.Real(vz1))
	vz2 := must(tr.Complex(must(tr.Scale(2, vx)), must(tr.Full(tf.Float64, -0.5))))
	vz2t := must(tr.Permute(vz2, 1, 0))
	g, err := tr.Finish(vz1, vs, va, vr, vz2t)
	if err != nil {
		t.Fatal(err)
	}
	for _, opts := range [][]program.Option{nil, {program.WithoutFusion()}, {program.WithoutCSE()}} {
		p, err := program.Compile(g, opts...)
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(p.String(), " complex "); n != 2 {
			t.Errorf("%d complex commands, want 2:\n%v", n, p)
		}
		if opts == nil && p.Stats().Fused == 0 {
			t.Errorf("nothing fused:\n%v", p)
		}
		pp, err := program.Prepare(p, e)
		if err != nil {
			t.Fatal(err)
		}
		ins := []tf.Value{tf.ValueOf(x), tf.ValueOf(y), tf.ValueOf(w)}
		outs, err := pp.Run(ins...)
		if err != nil {
			t.Fatal(err)
		}
		for i, want := range eager {
			if !sameValues(t, outs[i], want) {
				t.Errorf("options %d, output %d: program %v, eager %v", len(opts), i, outs[i], want)
			}
		}
		// The first output into a strided destination of the caller.
		dst, whole := enginetest.Destination(t, []int{7, 5}, enginetest.Stepped, complex(3.0, 3.0))
		outs[0] = tf.ValueOf(dst)
		if err := pp.RunInto(outs, ins...); err != nil {
			t.Fatal(err)
		}
		if !sameValues(t, outs[0], eager[0]) {
			t.Errorf("options %d, strided output: program %v, eager %v", len(opts), outs[0], eager[0])
		}
		untouchedOutside(t, "strided output", dst, whole, complex(3.0, 3.0))
		if n := testing.AllocsPerRun(20, func() {
			if err := pp.RunInto(outs, ins...); err != nil {
				t.Fatal(err)
			}
		}); n != 0 && !raceEnabled {
			t.Errorf("RunInto: %v allocations, want 0", n)
		}
	}
}
