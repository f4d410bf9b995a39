package elementwise

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tenferro-go/tenferro/internal/kernel/strided"
	"github.com/tenferro-go/tenferro/internal/op"
)

// The cheap operations run on package simd's loops; these tests check
// them exactly (up to NaN payloads) against the catalog's float64
// reference rounded to the dtype, on contiguous, strided and broadcast
// rows, with the special values (±0, ±Inf, NaN, subnormals, rounding
// ties) the tolerance-based tests do not draw.

var cheapUnary = []op.Kind{op.Scale, op.Negate, op.Abs, op.Square, op.Reciprocal, op.Rsqrt, op.Floor, op.Ceil, op.Trunc, op.Round, op.Relu, op.Sign, op.Clip}

var cheapBinary = []op.Kind{op.Add, op.Sub, op.Mul, op.Div, op.Maximum, op.Minimum}

func cheapInput[F float32 | float64](r *rand.Rand, n int) []F {
	sp := []float64{0, math.Copysign(0, -1), 1, -1, math.Inf(1), math.Inf(-1), math.NaN(), 0.5, 1.5, 2.5, -0.5, -2.5,
		1e-310, -1e-40, 1<<52 + 0.5, -(1<<52 - 0.5), 1<<23 + 0.5, 3.4e38, 0.4, -0.3}
	x := make([]F, n)
	for i := range x {
		if r.IntN(3) == 0 {
			x[i] = F(sp[r.IntN(len(sp))])
		} else {
			x[i] = F(r.NormFloat64() * 4)
		}
	}
	return x
}

// cheapRefUnary is the reference of unary k: Go's arithmetic in F for
// the arithmetic operations (the complex reference would lose signs of
// zero), the catalog's reference otherwise.
func cheapRefUnary[F float32 | float64](k op.Kind, v F, p Params[F]) F {
	switch k {
	case op.Scale:
		return p.A * v
	case op.Negate:
		return -v
	case op.Square:
		return v * v
	case op.Reciprocal:
		return 1 / v
	}
	return F(real(ref[F](k, complex(float64(v), 0), 0, p)))
}

// cheapRefBinary is cheapRefUnary for binary k.
func cheapRefBinary[F float32 | float64](k op.Kind, a, b F) F {
	switch k {
	case op.Add:
		return a + b
	case op.Sub:
		return a - b
	case op.Mul:
		return a * b
	case op.Div:
		return a / b
	}
	return F(real(ref[F](k, complex(float64(a), 0), complex(float64(b), 0), Params[F]{})))
}

func sameBits[F float32 | float64](a, b F) bool {
	return (a != a && b != b) || math.Float64bits(float64(a)) == math.Float64bits(float64(b))
}

func testCheap[F float32 | float64](t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{1, 7, 16, 33, 101, 1000} {
		x, y := cheapInput[F](r, 2*n), cheapInput[F](r, 2*n)
		for _, stride := range []int{1, 2} {
			for _, k := range cheapUnary {
				p := Params[F]{A: 1.5}
				if k == op.Clip {
					p = Params[F]{A: -0.3, B: 0.4}
				}
				d := make([]F, 2*n)
				Unary(nil, k, p, []int{n}, strided.Ref[F]{Data: d, Strides: []int{1}}, strided.Ref[F]{Data: x, Strides: []int{stride}})
				for i := range n {
					v := x[i*stride]
					want := cheapRefUnary(k, v, p)
					if !sameBits(d[i], want) {
						t.Fatalf("%T %v n=%d stride %d: f(%v) = %v, want %v", v, k, n, stride, v, d[i], want)
					}
				}
			}
			for _, k := range cheapBinary {
				for _, form := range []string{"VV", "VS", "SV"} {
					as, bs := stride, stride
					switch form {
					case "VS":
						bs = 0
					case "SV":
						as = 0
					}
					d := make([]F, n)
					Binary(nil, k, []int{n}, strided.Ref[F]{Data: d, Strides: []int{1}},
						strided.Ref[F]{Data: x, Strides: []int{as}}, strided.Ref[F]{Data: y, Strides: []int{bs}})
					for i := range n {
						a, b := x[i*as], y[i*bs]
						want := cheapRefBinary(k, a, b)
						if !sameBits(d[i], want) {
							t.Fatalf("%T %v %s n=%d stride %d: f(%v, %v) = %v, want %v", a, k, form, n, stride, a, b, d[i], want)
						}
					}
				}
			}
		}
	}
}

func TestCheapExact(t *testing.T) {
	t.Run("f32", testCheap[float32])
	t.Run("f64", testCheap[float64])
	t.Run("c64", testCheapComplex[complex64])
	t.Run("c128", testCheapComplex[complex128])
}

// testCheapComplex checks the complex operations that run as float loops
// over the parts (Add, Sub, Negate) against Go's complex arithmetic, bit
// for bit.
func testCheapComplex[C complex64 | complex128](t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	n := 77
	mk := func() []C {
		re, im := cheapInput[float64](r, n), cheapInput[float64](r, n)
		z := make([]C, n)
		for i := range z {
			z[i] = C(complex(re[i], im[i]))
		}
		return z
	}
	x, y := mk(), mk()
	eq := func(a, b C) bool {
		return sameBits(real(complex128(a)), real(complex128(b))) && sameBits(imag(complex128(a)), imag(complex128(b)))
	}
	ref := func(d strided.Ref[C]) strided.Ref[C] { d.Strides = []int{1}; return d }
	for _, k := range []op.Kind{op.Add, op.Sub} {
		d := make([]C, n)
		Binary(nil, k, []int{n}, ref(strided.Ref[C]{Data: d}), ref(strided.Ref[C]{Data: x}), ref(strided.Ref[C]{Data: y}))
		for i := range n {
			want := x[i] + y[i]
			if k == op.Sub {
				want = x[i] - y[i]
			}
			if !eq(d[i], want) {
				t.Fatalf("%v: element %d: got %v, want %v", k, i, d[i], want)
			}
		}
	}
	d := make([]C, n)
	Unary(nil, op.Negate, Params[C]{}, []int{n}, ref(strided.Ref[C]{Data: d}), ref(strided.Ref[C]{Data: x}))
	for i := range n {
		if !eq(d[i], -x[i]) {
			t.Fatal(fmt.Sprintf("Negate: element %d: got %v, want %v", i, d[i], -x[i]))
		}
	}
}
