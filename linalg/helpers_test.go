package linalg_test

import (
	"math"
	"math/cmplx"
	"math/rand/v2"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
)

// sizes are the matrix orders every op family is checked at.
var sizes = []int{0, 1, 2, 3, 7, 33, 130}

// batches are the batch shapes checked at small sizes (two batch axes).
var batches = [][]int{nil, {2, 3}}

func engine(t testing.TB) *cpu.Engine {
	e := cpu.Serial()
	t.Cleanup(func() { e.Close() })
	return e
}

func c128[T tf.Scalar](v T) complex128 {
	switch x := any(v).(type) {
	case float32:
		return complex(float64(x), 0)
	case float64:
		return complex(x, 0)
	case complex64:
		return complex128(x)
	}
	return any(v).(complex128)
}

func from[T tf.Scalar](c complex128) T {
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

func isComplex[T tf.Scalar]() bool { return tf.DTypeOf[T]().IsComplex() }

// eps is the unit roundoff of T.
func eps[T tf.Scalar]() float64 {
	if d := tf.DTypeOf[T](); d == tf.Float32 || d == tf.Complex64 {
		return 0x1p-24
	}
	return 0x1p-53
}

// mat is one matrix, column-major, in complex128.
type mat struct {
	m, n int
	v    []complex128
}

func (a mat) at(i, j int) complex128 { return a.v[i+j*a.m] }

func newMat(m, n int) mat { return mat{m, n, make([]complex128, m*n)} }

func eye(n int) mat {
	a := newMat(n, n)
	for i := range n {
		a.v[i+i*n] = 1
	}
	return a
}

func mul(a, b mat) mat {
	c := newMat(a.m, b.n)
	for j := range b.n {
		for p := range a.n {
			bp := b.at(p, j)
			for i := range a.m {
				c.v[i+j*c.m] += a.at(i, p) * bp
			}
		}
	}
	return c
}

func sub(a, b mat) mat {
	c := newMat(a.m, a.n)
	for i := range c.v {
		c.v[i] = a.v[i] - b.v[i]
	}
	return c
}

func adj(a mat) mat {
	c := newMat(a.n, a.m)
	for j := range a.n {
		for i := range a.m {
			c.v[j+i*c.m] = cmplx.Conj(a.at(i, j))
		}
	}
	return c
}

func fro(a mat) float64 {
	s := 0.0
	for _, v := range a.v {
		s += real(v)*real(v) + imag(v)*imag(v)
	}
	return math.Sqrt(s)
}

// items reads the matrices of t (rows, cols, batch...) through its
// strides, in column-major batch order.
func items[T tf.Scalar](t testing.TB, x *tf.Tensor[T]) []mat {
	t.Helper()
	s := x.Shape()
	m, n, nb := s[0], s[1], tf.Numel(s[2:])
	out := make([]mat, nb)
	idx := make([]int, len(s))
	for q := range nb {
		r := q
		for d := 2; d < len(s); d++ {
			idx[d], r = r%s[d], r/s[d]
		}
		a := newMat(m, n)
		for j := range n {
			for i := range m {
				idx[0], idx[1] = i, j
				v, err := x.At(idx...)
				if err != nil {
					t.Fatal(err)
				}
				a.v[i+j*m] = c128(v)
			}
		}
		out[q] = a
	}
	return out
}

// scalars reads the elements of x in column-major order.
func scalars[T tf.Scalar](t testing.TB, x *tf.Tensor[T]) []complex128 {
	t.Helper()
	c, err := tf.Copy(cpu.Serial(), x)
	if err != nil {
		t.Fatal(err)
	}
	d, _ := c.Data()
	out := make([]complex128, len(d))
	for i, v := range d {
		out[i] = c128(v)
	}
	return out
}

// layouts name the ways a tensor is placed in memory.
var layouts = []string{"compact", "transposed", "strided", "reversed"}

// place returns a tensor of shape (m, n, batch...) holding ms in layout:
// compact, a transposed view, a view with row step 2 and an offset into a
// larger buffer, or a view with reversed rows.
func place[T tf.Scalar](t testing.TB, ms []mat, m, n int, batch []int, layout string) *tf.Tensor[T] {
	t.Helper()
	shape := append([]int{m, n}, batch...)
	var x *tf.Tensor[T]
	var err error
	switch layout {
	case "compact":
		x, err = tf.Zeros[T](shape...)
	case "transposed":
		bs := append([]int{n, m}, batch...)
		var b *tf.Tensor[T]
		if b, err = tf.Zeros[T](bs...); err == nil {
			perm := make([]int, len(shape))
			for d := range perm {
				perm[d] = d
			}
			perm[0], perm[1] = 1, 0
			x, err = b.Permute(perm...)
		}
	case "strided":
		bs := append([]int{2*m + 3, n + 1}, batch...)
		var b *tf.Tensor[T]
		if b, err = tf.Full[T](from[T](complex(99, 0)), bs...); err == nil {
			if b, err = b.Slice(0, 3, 3+2*m, 2); err == nil {
				x, err = b.Slice(1, 1, n+1, 1)
			}
		}
	case "reversed":
		var b *tf.Tensor[T]
		if b, err = tf.Zeros[T](shape...); err == nil {
			x, err = b.Reverse(0)
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	idx := make([]int, len(shape))
	for q, a := range ms {
		r := q
		for d := 2; d < len(shape); d++ {
			idx[d], r = r%shape[d], r/shape[d]
		}
		for j := range n {
			for i := range m {
				idx[0], idx[1] = i, j
				if err := x.Set(from[T](a.at(i, j)), idx...); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	return x
}

// randMat returns an m×n matrix of standard normal entries (complex for
// complex T).
func randMat[T tf.Scalar](r *rand.Rand, m, n int) mat {
	a := newMat(m, n)
	for i := range a.v {
		if isComplex[T]() {
			a.v[i] = complex(r.NormFloat64(), r.NormFloat64())
		} else {
			a.v[i] = complex(r.NormFloat64(), 0)
		}
	}
	return round[T](a)
}

// round rounds a to T's precision.
func round[T tf.Scalar](a mat) mat {
	for i, v := range a.v {
		a.v[i] = c128(from[T](v))
	}
	return a
}

// wellConditioned returns a random n×n matrix plus √n·I shifted diagonal:
// its condition number stays small at every size.
func wellConditioned[T tf.Scalar](r *rand.Rand, n int) mat {
	a := randMat[T](r, n, n)
	for i := range n {
		a.v[i+i*n] += complex(2*math.Sqrt(float64(n))+1, 0)
	}
	return round[T](a)
}

// hpd returns a random Hermitian positive definite n×n matrix, B·Bᴴ/n + I.
func hpd[T tf.Scalar](r *rand.Rand, n int) mat {
	b := randMat[T](r, n, n)
	a := mul(b, adj(b))
	for i := range a.v {
		a.v[i] /= complex(float64(max(n, 1)), 0)
	}
	for i := range n {
		a.v[i+i*n] = complex(real(a.v[i+i*n])+1, 0)
	}
	// Exactly Hermitian after rounding.
	a = round[T](a)
	for j := range n {
		for i := j + 1; i < n; i++ {
			a.v[j+i*n] = cmplx.Conj(a.v[i+j*n])
		}
	}
	return a
}

func many(nb int, f func() mat) []mat {
	out := make([]mat, nb)
	for q := range out {
		out[q] = f()
	}
	return out
}

// forTypes runs f for each of the four dtypes.
func forTypes(t *testing.T, f32, f64, c64, c128 func(t *testing.T)) {
	t.Run("f32", f32)
	t.Run("f64", f64)
	t.Run("c64", c64)
	t.Run("c128", c128)
}

// bound fails t when got > c·n·eps (LAPACK's test suites accept ratios
// below 30).
func bound(t testing.TB, what string, got float64, c float64, n int, eps float64) {
	t.Helper()
	if lim := c * float64(max(n, 1)) * eps; !(got <= lim) {
		t.Errorf("%s = %.3g, want <= %.3g (%g·n·eps)", what, got, lim, c)
	}
}

func nanF() float64 { return math.NaN() }
