package enginetest

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/internal/op"
	"github.com/tenferro-go/tenferro/internal/optest"
)

// The operations whose operands or results have other dtypes: predicates
// and comparisons (bool results), Where, the logical operations on bool
// tensors, the complex parts (real results) and Complex (a complex result
// of real parts).

// withSpecials returns an operand like Operand with NaN, ±Inf and ±0
// planted in a third of its elements (in either part for complex T), so
// that predicates and comparisons meet every IEEE case.
func withSpecials[T tf.Scalar](t testing.TB, r *rand.Rand, shape []int, kind int) *tf.Tensor[T] {
	t.Helper()
	x := Operand[T](t, r, shape, kind)
	vals := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 0.25}
	Each(shape, func(idx []int) {
		if r.IntN(3) == 0 {
			v := castC[T](complex(vals[r.IntN(len(vals))], vals[r.IntN(len(vals))]))
			if err := x.Set(v, idx...); err != nil {
				t.Fatal(err)
			}
		}
	})
	return x
}

// checkBools compares a bool result element by element (column-major)
// with want.
func checkBools(t testing.TB, what string, got *tf.Tensor[bool], want []bool) {
	t.Helper()
	i := 0
	Each(got.Shape(), func(idx []int) {
		v, _ := got.At(idx...)
		if i < len(want) && v != want[i] {
			t.Fatalf("%s: element %v = %v, want %v", what, idx, v, want[i])
		}
		i++
	})
	if i != len(want) {
		t.Fatalf("%s: %d elements (shape %v), want %d", what, i, got.Shape(), len(want))
	}
}

func (suite[T]) mixed(t *testing.T, e tf.Engine) {
	r := rng(7)
	for _, shape := range Shapes {
		for kind := range NumLayouts {
			x := withSpecials[T](t, r, shape, kind)
			xd := Dense(x)
			for _, p := range optest.PredicateOps[T]() {
				what := name(p.Kind, shape, " ", LayoutName(kind))
				want := make([]bool, len(xd))
				for i, v := range xd {
					want[i] = Ref[T](p.Kind, v, 0, 0, 0) != 0
				}
				got, err := p.Eager(e, x)
				mustNil(t, what, err)
				checkBools(t, what, got, want)
				dst, whole := Destination(t, shape, (kind+1)%NumLayouts, true)
				mustNil(t, what+" into", p.Into(e, dst, x))
				checkBools(t, what+" into", dst, want)
				checkOutside(t, what+" into", dst, whole, true)
			}
			// Comparisons against an operand with ties and a broadcast row.
			sb := slices.Clone(shape)
			if len(sb) > 0 {
				sb[0] = 1
			}
			y := withSpecials[T](t, r, sb, (kind+2)%NumLayouts)
			if len(shape) > 0 && shape[0] > 0 && !slices.Contains(shape, 0) {
				Each(sb, func(idx []int) {
					if r.IntN(2) == 0 {
						v, _ := x.At(idx...)
						mustNil(t, "tie", y.Set(v, idx...))
					}
				})
			}
			yd := Dense(y)
			for _, c := range optest.CompareOps[T]() {
				what := name(c.Kind, shape, " ", LayoutName(kind))
				var want []bool
				Each(shape, func(idx []int) {
					want = append(want, Ref[T](c.Kind, at(xd, shape, idx), at(yd, sb, idx), 0, 0) != 0)
				})
				got, err := c.Eager(e, x, y)
				mustNil(t, what, err)
				checkBools(t, what, got, want)
				dst, whole := Destination(t, shape, kind, true)
				mustNil(t, what+" into", c.Into(e, dst, x, y))
				checkBools(t, what+" into", dst, want)
				checkOutside(t, what+" into", dst, whole, true)
			}
			// Where with a broadcast mask and a 0-d second branch.
			mask, _ := tf.Zeros[bool](sb...)
			var mb []bool
			Each(sb, func(idx []int) {
				b := r.IntN(2) == 0
				mask.Set(b, idx...)
			})
			zero := tf.Const(castC[T](complex(-7, 1)))
			var want []complex128
			Each(shape, func(idx []int) {
				m, _ := mask.At(aligned(idx, sb)...)
				mb = append(mb, m)
				if m {
					want = append(want, at(xd, shape, idx))
				} else {
					want = append(want, toC(castC[T](complex(-7, 1))))
				}
			})
			tol := make([]float64, len(want))
			what := name("Where ", shape, " ", LayoutName(kind))
			got, err := tf.Where(e, mask, x, zero)
			mustNil(t, what, err)
			compare(t, what, got, want, tol)
			dst, whole := Destination[T](t, shape, (kind+3)%NumLayouts, castC[T](3))
			mustNil(t, what+" into", tf.WhereInto(e, dst, mask, x, zero))
			compare(t, what+" into", dst, want, tol)
			checkOutside(t, what+" into", dst, whole, castC[T](3))
			// The complex parts.
			for _, p := range optest.RealOps[T]() {
				what := name(p.Kind, shape, " ", LayoutName(kind))
				want := make([]complex128, len(xd))
				tol := make([]float64, len(xd))
				for i, v := range xd {
					want[i] = Ref[T](p.Kind, v, 0, 0, 0)
					tol[i] = 4 * UnitRoundoff[T]() * abs(want[i])
				}
				got, err := p.Eager(e, x)
				mustNil(t, what, err)
				compareValue(t, what, got, want, tol)
				dst, err := tf.NewValue(tf.DTypeOf[T]().Real(), shape...)
				mustNil(t, what, err)
				mustNil(t, what+" into", p.Into(e, dst, x))
				compareValue(t, what+" into", dst, want, tol)
			}
			// Complex numbers from real parts: x with the broadcast y, y
			// with x, and x with a 0-d imaginary part.
			for _, c := range optest.ComplexOps[T]() {
				zero := tf.Const(castC[T](-0.5))
				for i, ops := range [][2]*tf.Tensor[T]{{x, y}, {y, x}, {x, zero}} {
					what := name(c.Kind, shape, " ", LayoutName(kind), " case ", i)
					if tf.DTypeOf[T]() == tf.Float32 {
						complexCase[T, complex64](t, e, c, what, ops[0], ops[1], (kind+i+1)%NumLayouts)
					} else {
						complexCase[T, complex128](t, e, c, what, ops[0], ops[1], (kind+i+1)%NumLayouts)
					}
				}
			}
		}
	}
	if isComplex[T]() {
		return
	}
	// A real-result operation of a real tensor may write in place.
	x := Operand[T](t, r, []int{5, 3}, Stepped)
	want := Dense(x)
	for i := range want {
		want[i] = complex(math.Abs(real(want[i])), 0)
	}
	mustNil(t, "Abs in place", optest.RealOps[T]()[0].Into(e, tf.ValueOf(x), x))
	compare(t, "Abs in place", x, want, make([]float64, len(want)))
}

// compareValue is compare for a Value of an arithmetic dtype.
func compareValue(t testing.TB, what string, got tf.Value, want []complex128, tol []float64) {
	t.Helper()
	switch g := got.Tensor().(type) {
	case *tf.Tensor[float32]:
		compare(t, what, g, want, tol)
	case *tf.Tensor[float64]:
		compare(t, what, g, want, tol)
	case *tf.Tensor[complex64]:
		compare(t, what, g, want, tol)
	case *tf.Tensor[complex128]:
		compare(t, what, g, want, tol)
	default:
		t.Fatalf("%s: result of dtype %v, want an arithmetic dtype", what, got.DType())
	}
}

// complexCase checks complex operation c of real parts a and b (T), whose
// result has element type C, against its reference: eagerly, and into a
// destination laid out as kind whose surroundings must stay untouched.
// The parts are copied, so the result is exact.
func complexCase[T, C tf.Scalar](t *testing.T, e tf.Engine, c optest.ComplexOp[T], what string, a, b *tf.Tensor[T], kind int) {
	t.Helper()
	shape, err := tf.BroadcastShapes(a.Shape(), b.Shape())
	mustNil(t, what, err)
	ad, bd := Dense(a), Dense(b)
	var want []complex128
	Each(shape, func(idx []int) {
		want = append(want, c.Kind.Info().Ref(at(ad, a.Shape(), idx), at(bd, b.Shape(), idx), 0, 0))
	})
	tol := make([]float64, len(want))
	got, err := c.Eager(e, a, b)
	mustNil(t, what, err)
	if got.DType() != tf.DTypeOf[C]() {
		t.Fatalf("%s: result of dtype %v, want %v", what, got.DType(), tf.DTypeOf[C]())
	}
	compareValue(t, what, got, want, tol)
	mustNil(t, what, got.Release())
	sentinel := castC[C](complex(7, -7))
	dst, whole := Destination(t, shape, kind, sentinel)
	mustNil(t, what+" into", c.Into(e, tf.ValueOf(dst), a, b))
	compare(t, what+" into", dst, want, tol)
	checkOutside(t, what+" into", dst, whole, sentinel)
}

// aligned is the index of an operand of shape s read at output index idx
// under broadcasting.
func aligned(idx, s []int) []int {
	out := make([]int, len(s))
	for d := range s {
		if s[d] != 1 {
			out[d] = idx[len(idx)-len(s)+d]
		}
	}
	return out
}

// testLogical checks the logical operations of bool tensors, eagerly and
// into strided destinations, with broadcasting.
func testLogical(t *testing.T, e tf.Engine) {
	r := rng(8)
	for _, shape := range Shapes {
		for kind := range NumLayouts {
			sb := slices.Clone(shape)
			if len(sb) > 1 {
				sb = sb[1:]
			}
			a, _ := LayoutView(must(tf.Zeros[bool](LayoutBase(shape, kind, 0)...)), kind, 0)
			b, _ := tf.Zeros[bool](sb...)
			Each(shape, func(idx []int) { a.Set(r.IntN(2) == 0, idx...) })
			Each(sb, func(idx []int) { b.Set(r.IntN(2) == 0, idx...) })
			for _, l := range optest.LogicalOps() {
				what := name(l.Kind, shape, " ", LayoutName(kind))
				var want []bool
				Each(shape, func(idx []int) {
					x, _ := a.At(idx...)
					y, _ := b.At(aligned(idx, sb)...)
					want = append(want, l.Kind.Info().Ref(truth(x), truth(y), 0, 0) != 0)
				})
				got, err := l.Eager(e, a, b)
				mustNil(t, what, err)
				checkBools(t, what, got, want)
				dst, whole := Destination(t, shape, (kind+1)%NumLayouts, false)
				mustNil(t, what+" into", l.Into(e, dst, a, b))
				checkBools(t, what+" into", dst, want)
				checkOutside(t, what+" into", dst, whole, false)
			}
		}
	}
	_ = op.LogicalNot
}

func truth(b bool) complex128 {
	if b {
		return 1
	}
	return 0
}

func must[T tf.Elem](x *tf.Tensor[T], err error) *tf.Tensor[T] {
	if err != nil {
		panic(err)
	}
	return x
}
