package enginetest

import (
	"errors"
	"math"
	"slices"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/internal/op"
	"github.com/tenferro-go/tenferro/internal/optest"
)

// Ref evaluates the catalog's reference of k for one element of dtype T:
// RefReal for real dtypes when the catalog has one, else Ref (its real
// part for real dtypes). y is ignored by unary operations, alpha and beta
// by operations without attributes.
func Ref[T tf.Scalar](k op.Kind, x, y, alpha, beta complex128) complex128 {
	info := k.Info()
	if !isComplex[T]() {
		if info.RefReal != nil {
			return complex(info.RefReal(real(x), real(y), real(alpha), real(beta)), 0)
		}
		return complex(real(info.Ref(x, y, alpha, beta)), 0)
	}
	return info.Ref(x, y, alpha, beta)
}

// testAttrs returns the attributes the suite passes to unary operation k:
// a complex factor for Scale, bounds inside the inputs' range for Clip.
func testAttrs[T tf.Scalar](k op.Kind) (alpha, beta T) {
	switch k.Info().Attr {
	case op.AlphaAttr:
		return castC[T](complex(1.5, -0.5)), 0
	case op.BoundsAttr:
		return castC[T](-0.3), castC[T](0.4)
	}
	return 0, 0
}

// Near reports whether got is within tol of want, treating equal
// non-finite values (NaN, same-signed infinities) as equal.
func Near(got, want complex128, tol float64) bool {
	if got == want || abs(got-want) <= tol {
		return true
	}
	// Compare part by part: equal parts (infinities of one sign included)
	// and NaN against NaN agree, finite parts within tol.
	for _, p := range [2][2]float64{{real(got), real(want)}, {imag(got), imag(want)}} {
		g, w := p[0], p[1]
		switch {
		case g == w || (math.IsNaN(g) && math.IsNaN(w)):
		case math.IsNaN(g) || math.IsNaN(w) || math.IsInf(g, 0) || math.IsInf(w, 0):
			return false
		case !(math.Abs(g-w) <= tol):
			return false
		}
	}
	return true
}

// elementTol bounds the rounding error of one elementwise operation: a few
// units of roundoff relative to the magnitudes involved.
func elementTol[T tf.Scalar](want, x, y, alpha complex128) float64 {
	return 8 * UnitRoundoff[T]() * (abs(want) + abs(x) + abs(y) + abs(x)*abs(y) + abs(alpha)*abs(x))
}

// broadcastShape returns shape with the axes in mask set to extent 1.
func broadcastShape(shape []int, mask uint) []int {
	s := slices.Clone(shape)
	for d := range s {
		if mask&(1<<uint(d)) != 0 {
			s[d] = 1
		}
	}
	return s
}

// at returns element idx of data (column-major, of shape) read with
// NumPy broadcasting: shape aligns with the last axes of idx, and extents
// of 1 repeat.
func at(data []complex128, shape, idx []int) complex128 {
	lead := len(idx) - len(shape)
	p, st := 0, 1
	for d, n := range shape {
		if n != 1 {
			p += idx[lead+d] * st
		}
		st *= n
	}
	return data[p]
}

func (suite[T]) unary(t *testing.T, e tf.Engine) {
	r := rng(1)
	for _, u := range optest.UnaryOps[T]() {
		for _, shape := range Shapes {
			for kind := range NumLayouts {
				a := Operand[T](t, r, shape, kind)
				alpha, beta := testAttrs[T](u.Kind)
				what := name(u.Kind, shape, " ", LayoutName(kind))
				xs := Dense(a)
				want := make([]complex128, len(xs))
				tol := make([]float64, len(xs))
				for i, x := range xs {
					want[i] = Ref[T](u.Kind, x, 0, toC(alpha), toC(beta))
					tol[i] = elementTol[T](want[i], x, 0, toC(alpha))
				}
				out, err := u.Eager(e, alpha, beta, a)
				mustNil(t, what, err)
				compare(t, what, out, want, tol)
				mustNil(t, what, out.Release())
				dst, whole := Destination[T](t, shape, (kind+1)%NumLayouts, castC[T](7))
				mustNil(t, what+" into", u.Into(e, dst, alpha, beta, a))
				compare(t, what+" into", dst, want, tol)
				checkOutside(t, what+" into", dst, whole, castC[T](7))
				// In place: dst is the input itself.
				mustNil(t, what+" in place", u.Into(e, a, alpha, beta, a))
				compare(t, what+" in place", a, want, tol)
			}
		}
	}
}

func (suite[T]) binary(t *testing.T, e tf.Engine) {
	r := rng(2)
	for _, b := range optest.BinaryOps[T]() {
		for _, shape := range Shapes {
			for kind := range NumLayouts {
				// masks[0] and masks[1] set extents of a and b to 1; masks[2]
				// drops that many leading axes of b (NumPy's missing axes).
				for _, masks := range [][3]uint{{0, 0, 0}, {1, 0, 0}, {0, 2, 0}, {5, 2, 0}, {0, 0, 1}, {2, 0, 2}, {0, 0, 9}} {
					sa, sb := broadcastShape(shape, masks[0]), broadcastShape(shape, masks[1])
					if slices.Contains(shape, 0) {
						sa, sb = shape, shape // 1 against 0 would give 0 as well
					}
					sb = sb[min(int(masks[2]), len(sb)):]
					out := slices.Clone(sa)
					for d, n := range sb {
						out[len(sa)-len(sb)+d] = max(out[len(sa)-len(sb)+d], n)
					}
					x := Operand[T](t, r, sa, kind)
					y := Operand[T](t, r, sb, (kind+2)%NumLayouts)
					what := name(b.Kind, sa, sb, " ", LayoutName(kind))
					xd, yd := Dense(x), Dense(y)
					var want []complex128
					var tol []float64
					Each(out, func(idx []int) {
						p, q := at(xd, sa, idx), at(yd, sb, idx)
						w := Ref[T](b.Kind, p, q, 0, 0)
						want = append(want, w)
						tol = append(tol, elementTol[T](w, p, q, 0))
					})
					got, err := b.Eager(e, x, y)
					mustNil(t, what, err)
					compare(t, what, got, want, tol)
					mustNil(t, what, got.Release())
					dst, whole := Destination[T](t, out, (kind+1)%NumLayouts, castC[T](-3))
					mustNil(t, what+" into", b.Into(e, dst, x, y))
					compare(t, what+" into", dst, want, tol)
					checkOutside(t, what+" into", dst, whole, castC[T](-3))
					if slices.Equal(sa, out) {
						mustNil(t, what+" in place (a)", b.Into(e, x, x, y))
						compare(t, what+" in place (a)", x, want, tol)
					}
				}
			}
		}
	}
}

func (suite[T]) reduce(t *testing.T, e tf.Engine) {
	r := rng(3)
	u := UnitRoundoff[T]()
	for _, red := range optest.Reductions[T]() {
		info := red.Kind.Info()
		for _, shape := range Shapes {
			for kind := range NumLayouts {
				x := Operand[T](t, r, shape, kind)
				xd := Dense(x)
				n := len(shape)
				axesSets := [][]int{nil}
				if n > 0 {
					axesSets = append(axesSets, []int{0}, []int{-1})
				}
				if n > 1 {
					axesSets = append(axesSets, []int{n - 1, 0}, []int{-2})
				}
				for _, axes := range axesSets {
					what := name(red.Kind, shape, " axes ", axes, " ", LayoutName(kind))
					mask := uint64(0)
					for _, a := range axes {
						mask |= 1 << uint((a+n)%n)
					}
					if len(axes) == 0 {
						mask = 1<<uint(n) - 1
					}
					var outShape []int
					for d, s := range shape {
						if mask&(1<<uint(d)) == 0 {
							outShape = append(outShape, s)
						}
					}
					cnt := op.Count(outShape)
					want := make([]complex128, cnt)
					for i := range want {
						want[i] = info.Identity
					}
					absSum := make([]float64, cnt)
					terms := 1
					i := 0
					Each(shape, func(idx []int) {
						p, st := 0, 1
						for d, s := range shape {
							if mask&(1<<uint(d)) == 0 {
								p += idx[d] * st
								st *= s
							}
						}
						want[p] = Ref[T](red.Kind, want[p], xd[i], 0, 0)
						absSum[p] += abs(xd[i])
						i++
					})
					for d, s := range shape {
						if mask&(1<<uint(d)) != 0 {
							terms *= s
						}
					}
					tol := make([]float64, cnt)
					for j := range tol {
						tol[j] = 2 * float64(terms+2) * u * absSum[j]
					}
					got, err := red.Eager(e, x, axes...)
					mustNil(t, what, err)
					compare(t, what, got, want, tol)
					mustNil(t, what, got.Release())
					dst, whole := Destination[T](t, outShape, (kind+1)%NumLayouts, castC[T](5))
					mustNil(t, what+" into", red.Into(e, dst, x, axes...))
					compare(t, what+" into", dst, want, tol)
					checkOutside(t, what+" into", dst, whole, castC[T](5))
				}
			}
		}
	}
}

// compare checks got element by element (column-major) against want.
func compare[T tf.Scalar](t testing.TB, what string, got *tf.Tensor[T], want []complex128, tol []float64) {
	t.Helper()
	g := Dense(got)
	if len(g) != len(want) {
		t.Fatalf("%s: %d elements (shape %v), want %d", what, len(g), got.Shape(), len(want))
	}
	for i := range g {
		if !Near(g[i], want[i], tol[i]) {
			t.Fatalf("%s: element %d = %v, want %v (tol %.3g)", what, i, g[i], want[i], tol[i])
		}
	}
}

// checkOutside checks that every element of whole outside the view dst
// still holds sentinel.
func checkOutside[T tf.Elem](t testing.TB, what string, dst, whole *tf.Tensor[T], sentinel T) {
	t.Helper()
	inside := map[int]bool{}
	Each(dst.Shape(), func(idx []int) {
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

// testCopy checks Copy and CopyInto for every dtype, int64 and bool
// included.
func testCopy(t *testing.T, e tf.Engine) {
	copyElems(t, e, func(i int) float32 { return float32(i) - 3.5 })
	copyElems(t, e, func(i int) float64 { return float64(i) * 1.25 })
	copyElems(t, e, func(i int) complex64 { return complex(float32(i), -float32(i)) })
	copyElems(t, e, func(i int) complex128 { return complex(float64(i), 0.5) })
	copyElems(t, e, func(i int) int64 { return int64(i*i) - 7 })
	copyElems(t, e, func(i int) bool { return i%3 == 1 })
}

func copyElems[T tf.Elem](t *testing.T, e tf.Engine, value func(i int) T) {
	dt := tf.DTypeOf[T]()
	var zero T
	for _, shape := range Shapes {
		for kind := range NumLayouts {
			base := LayoutBase(shape, kind, 0)
			buf := make([]T, tf.Numel(base))
			for i := range buf {
				buf[i] = value(i)
			}
			x, err := tf.FromSlice(buf, base...)
			mustNil(t, "FromSlice", err)
			a, err := LayoutView(x, kind, 0)
			mustNil(t, "view", err)
			what := name("Copy ", dt, shape, " ", LayoutName(kind))
			var want []T
			Each(shape, func(idx []int) {
				v, _ := a.At(idx...)
				want = append(want, v)
			})
			got, err := tf.Copy(e, a)
			mustNil(t, what, err)
			if !got.IsCompact() || !slices.Equal(got.Shape(), shape) {
				t.Fatalf("%s: result shape %v strides %v, want compact %v", what, got.Shape(), got.Strides(), shape)
			}
			d, _ := got.Data()
			if !slices.Equal(d, want) {
				t.Fatalf("%s: %v, want %v", what, d, want)
			}
			mustNil(t, what, got.Release())
			dst, whole := Destination(t, shape, (kind+3)%NumLayouts, zero)
			mustNil(t, what+" into", tf.CopyInto(e, dst, a))
			var into []T
			Each(shape, func(idx []int) {
				v, _ := dst.At(idx...)
				into = append(into, v)
			})
			if !slices.Equal(into, want) {
				t.Fatalf("%s into: %v, want %v", what, into, want)
			}
			checkOutside(t, what+" into", dst, whole, zero)
			mustNil(t, what+" onto itself", tf.CopyInto(e, a, a))
			if s, err := a.Broadcast(append([]int{2}, shape...)...); err == nil && tf.Numel(shape) > 0 {
				if err := tf.CopyInto(e, s, s); !errors.Is(err, tf.ErrAlias) {
					t.Fatalf("%s: CopyInto a broadcast destination: %v, want ErrAlias", what, err)
				}
			}
		}
	}
}
