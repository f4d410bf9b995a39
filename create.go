package tenferro

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/internal/op"
)

// Creation routines. Each returns a new compact column-major tensor that
// owns fresh memory (no pool, no aliasing), validates its shape as [Zeros]
// does (ErrShape for negative extents or more than 2^46 elements,
// ErrMemory beyond [DefaultMemoryBudget]) and accepts zero-size shapes.
// Float64 expressions are written with explicit conversions so that no
// platform fuses them into multiply-adds: the same arguments give the same
// bits on every architecture.

// Eye returns the n×m matrix with ones on the main diagonal and zeros
// elsewhere (true and false for bool): element (i, j) is 1 when i == j.
// It is EyeK(n, m, 0).
func Eye[T Elem](n, m int) (*Tensor[T], error) { return eye[T]("Eye", n, m, 0) }

// EyeK returns the n×m matrix with ones on the k-th diagonal and zeros
// elsewhere (true and false for bool), as NumPy's eye(n, m, k): element
// (i, j) is 1 when j - i == k.
// k > 0 is above the main diagonal, k < 0 below; a diagonal that lies
// outside the matrix (k >= m or k <= -n) gives all zeros.
func EyeK[T Elem](n, m, k int) (*Tensor[T], error) { return eye[T]("EyeK", n, m, k) }

// Identity returns the n×n identity matrix. It is Eye(n, n).
func Identity[T Elem](n int) (*Tensor[T], error) { return eye[T]("Identity", n, n, 0) }

func eye[T Elem](name string, n, m, k int) (*Tensor[T], error) {
	shape := []int{n, m}
	size, err := checkNew[T](name, shape)
	if err != nil {
		return nil, err
	}
	buf := make([]T, size)
	if k < m && k > -n { // the diagonal meets the matrix; -k and m-k fit in int
		// Rows i in [max(0, -k), min(n, m-k)), column j = i+k, stored at i + n*j.
		lo, hi := max(0, -k), min(n, m-k)
		v := one[T]()
		for i := lo; i < hi; i++ {
			buf[i+n*(i+k)] = v
		}
	}
	return wrap(backend.NewStorage(buf, nil), shape), nil
}

// fillReal sets buf[i] to f(i) rounded once to T: the real part, with a
// zero imaginary part, for complex T. The int64 case serves ArangeN, whose
// values are exact integers.
func fillReal[T Scalar | int64](buf []T, f func(i int) float64) {
	switch b := any(buf).(type) {
	case []float32:
		for i := range b {
			b[i] = float32(f(i))
		}
	case []float64:
		for i := range b {
			b[i] = f(i)
		}
	case []complex64:
		for i := range b {
			b[i] = complex(float32(f(i)), 0)
		}
	case []complex128:
		for i := range b {
			b[i] = complex(f(i), 0)
		}
	case []int64:
		for i := range b {
			b[i] = int64(f(i))
		}
	}
}

// finite returns an ErrArgument naming arg of function name when x is NaN
// or infinite.
func finite(name, arg string, x float64) error {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return newError(name, arg, "a finite number", fmt.Sprint(x), ErrArgument)
	}
	return nil
}

// Arange returns the vector of values start + i*step for
// i = 0, 1, ..., n-1, where n = ceil((stop - start)/step): the numbers of
// the half-open interval from start towards stop in steps of step, as
// NumPy's arange for floating-point arguments. An empty interval
// (stop <= start for a positive step, stop >= start for a negative one)
// gives an empty vector; a quotient that underflows to zero although
// stop != start counts as one element when positive, as in NumPy.
//
// Each value is computed as start + i*step in float64 (never by repeated
// addition) and rounded once to T; complex T gets a zero imaginary part.
// NumPy multiplies i by the rounded difference (start+step) - start
// instead of step, so its values can differ from these by a few units in
// the last place; its float32 arange also works in float32 throughout.
// As NumPy warns, a non-integer step can put a last value within rounding
// of stop, or leave it out: use [Linspace] when the endpoint matters.
//
// Errors: ErrArgument for a NaN or infinite argument and for step 0;
// ErrShape when the count exceeds 2^46; ErrMemory beyond the budget.
func Arange[T Scalar](start, stop, step float64) (*Tensor[T], error) {
	const name = "Arange"
	for _, a := range [...]struct {
		arg string
		x   float64
	}{{"start", start}, {"stop", stop}, {"step", step}} {
		if err := finite(name, a.arg, a.x); err != nil {
			return nil, err
		}
	}
	if step == 0 {
		return nil, newError(name, "step", "a non-zero step", "0", ErrArgument)
	}
	q := (stop - start) / step
	var n int
	switch {
	case q == 0 && stop != start: // (stop-start)/step underflowed
		if !math.Signbit(q) {
			n = 1
		}
	case !(q <= op.MaxElements): // also catches an overflowed stop-start
		return nil, newError(name, "stop", "at most 2^46 elements",
			fmt.Sprintf("%g elements from start %g, stop %g, step %g", math.Ceil(q), start, stop, step), ErrShape)
	case q > 0:
		n = int(math.Ceil(q))
	}
	shape := []int{n}
	if _, err := checkNew[T](name, shape); err != nil {
		return nil, err
	}
	buf := make([]T, n)
	fillReal(buf, func(i int) float64 { return start + float64(float64(i)*step) })
	return wrap(backend.NewStorage(buf, nil), shape), nil
}

// ArangeN returns the vector 0, 1, ..., n-1 (empty for n == 0). Values
// beyond 2^24 are rounded to the nearest float32 for float32 and
// complex64; complex T gets a zero imaginary part. int64 gives an index
// vector. Negative n is ErrShape.
func ArangeN[T Scalar | int64](n int) (*Tensor[T], error) {
	shape := []int{n}
	if _, err := checkNew[T]("ArangeN", shape); err != nil {
		return nil, err
	}
	buf := make([]T, n)
	fillReal(buf, func(i int) float64 { return float64(i) })
	return wrap(backend.NewStorage(buf, nil), shape), nil
}

// linspaceFunc returns element i of NumPy's linspace(start, stop, n,
// endpoint) in float64, for finite start and stop and n >= 0. With
// div = n-1 (endpoint) or n (no endpoint) and delta = stop - start, the
// value is i*step + start with step = delta/div; (i/div)*delta + start
// when that step underflows to 0; i*delta + start when div == 0. With
// endpoint and n > 1 the last element is stop exactly. Where delta
// overflows (finite arguments of opposite signs near the float64 limit),
// step is stop/div - start/div instead, which NumPy does not do (it
// returns infinities and NaNs there).
func linspaceFunc(start, stop float64, n int, endpoint bool) func(i int) float64 {
	div := n
	if endpoint {
		div = n - 1
	}
	delta := stop - start
	last := -1
	if endpoint && n > 1 {
		last = n - 1
	}
	at := func(i int) float64 { return float64(float64(i)*delta) + start }
	if div > 0 {
		d := float64(div)
		step := delta / d
		if math.IsInf(delta, 0) {
			step = stop/d - start/d
		}
		if step == 0 {
			at = func(i int) float64 { return float64(float64(i)/d*delta) + start }
		} else {
			at = func(i int) float64 { return float64(float64(i)*step) + start }
		}
	}
	return func(i int) float64 {
		if i == last {
			return stop
		}
		return at(i)
	}
}

// linspaceArgs validates the arguments shared by Linspace and Logspace.
func linspaceArgs[T Scalar](name string, start, stop float64, n int) ([]int, error) {
	if err := finite(name, "start", start); err != nil {
		return nil, err
	}
	if err := finite(name, "stop", stop); err != nil {
		return nil, err
	}
	shape := []int{n}
	if _, err := checkNew[T](name, shape); err != nil {
		return nil, err
	}
	return shape, nil
}

// Linspace returns n evenly spaced values from start to stop, as NumPy's
// linspace(start, stop, n, endpoint): with endpoint the values are
// start + i*(stop-start)/(n-1) for i = 0..n-1 and the last one is stop
// exactly (after rounding to T); without it they are
// start + i*(stop-start)/n, which leaves stop out. n == 1 gives [start]
// and n == 0 an empty vector.
//
// The step is computed once as NumPy does (step = (stop-start)/div, then
// i*step + start in float64, with NumPy's fallback when step underflows)
// and each value is rounded once to T, so float64 results equal NumPy's
// bit for bit and float32 ones equal NumPy's linspace(..., dtype=float32).
// Complex T gets a zero imaginary part.
//
// Errors: ErrArgument for a NaN or infinite start or stop; ErrShape for
// negative n; ErrMemory beyond the budget.
func Linspace[T Scalar](start, stop float64, n int, endpoint bool) (*Tensor[T], error) {
	shape, err := linspaceArgs[T]("Linspace", start, stop, n)
	if err != nil {
		return nil, err
	}
	buf := make([]T, n)
	fillReal(buf, linspaceFunc(start, stop, n, endpoint))
	return wrap(backend.NewStorage(buf, nil), shape), nil
}

// Logspace returns base**y for y = Linspace(start, stop, n, endpoint), as
// NumPy's logspace: n values spaced evenly on a logarithmic scale from
// base**start to base**stop (base**stop included when endpoint). Powers
// are math.Pow in float64 rounded once to T (so they may differ from
// NumPy's C pow by an ulp); a result beyond the range of T is ±Inf, and a
// negative base gives NaN for non-integer exponents, as math.Pow does.
// Complex T gets a zero imaginary part.
//
// Errors: ErrArgument for a NaN or infinite start, stop or base; ErrShape
// for negative n; ErrMemory beyond the budget.
func Logspace[T Scalar](start, stop float64, n int, endpoint bool, base float64) (*Tensor[T], error) {
	shape, err := linspaceArgs[T]("Logspace", start, stop, n)
	if err != nil {
		return nil, err
	}
	if err := finite("Logspace", "base", base); err != nil {
		return nil, err
	}
	buf := make([]T, n)
	y := linspaceFunc(start, stop, n, endpoint)
	fillReal(buf, func(i int) float64 { return math.Pow(base, y(i)) })
	return wrap(backend.NewStorage(buf, nil), shape), nil
}

// newPCG returns the generator of seed that Rand, RandN and RandUniform
// draw from.
func newPCG(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x74656e66)) }

// Rand returns a new compact tensor of pseudo-random values uniform in
// [0, 1) (both parts for complex T), reproducible from seed. The stream is
// PCG seeded with (seed, 0x7465_6e66) and consumed in column-major order.
func Rand[T Scalar](seed uint64, shape ...int) (*Tensor[T], error) {
	n, err := checkNew[T]("Rand", shape)
	if err != nil {
		return nil, err
	}
	r := newPCG(seed)
	buf := make([]T, n)
	FillRand(r, buf)
	return wrap(backend.NewStorage(buf, nil), shape), nil
}

// FillRand fills buf with values uniform in [0, 1) drawn from r (both parts
// for complex T).
func FillRand[T Scalar](r *rand.Rand, buf []T) {
	switch b := any(buf).(type) {
	case []float32:
		for i := range b {
			b[i] = r.Float32()
		}
	case []float64:
		for i := range b {
			b[i] = r.Float64()
		}
	case []complex64:
		for i := range b {
			b[i] = complex(r.Float32(), r.Float32())
		}
	case []complex128:
		for i := range b {
			b[i] = complex(r.Float64(), r.Float64())
		}
	}
}

// RandN returns a new compact tensor of pseudo-random standard normal
// values, reproducible from seed: N(0, 1) for real T, and for complex T
// the standard complex normal, whose real and imaginary parts are
// independent N(0, 1/2) so that E[z] = 0 and E|z|² = 1 (PyTorch's randn
// convention for complex dtypes).
//
// The values are reproducible: the generator is math/rand/v2's PCG seeded
// with rand.NewPCG(seed, 0x74656e66) (the stream constant spells "tenf"),
// as for [Rand], and elements are filled in column-major order (the order
// of [Tensor.Data]) as [FillRandN] fills a buffer: one NormFloat64 draw
// per real element, two per complex element. The tests pin the first
// values, so a change of generator, order or scaling cannot pass unseen.
func RandN[T Scalar](seed uint64, shape ...int) (*Tensor[T], error) {
	n, err := checkNew[T]("RandN", shape)
	if err != nil {
		return nil, err
	}
	buf := make([]T, n)
	FillRandN(newPCG(seed), buf)
	return wrap(backend.NewStorage(buf, nil), shape), nil
}

// FillRandN fills buf, in order, with standard normal values drawn from r:
// r.NormFloat64() per real element (rounded to float32 for float32), and
// for complex T two draws per element, real part then imaginary part,
// each multiplied by √½ (then rounded to float32 for complex64), so that
// E|z|² = 1.
func FillRandN[T Scalar](r *rand.Rand, buf []T) {
	const h = 1 / math.Sqrt2
	switch b := any(buf).(type) {
	case []float32:
		for i := range b {
			b[i] = float32(r.NormFloat64())
		}
	case []float64:
		for i := range b {
			b[i] = r.NormFloat64()
		}
	case []complex64:
		for i := range b {
			re := float32(r.NormFloat64() * h)
			b[i] = complex(re, float32(r.NormFloat64()*h))
		}
	case []complex128:
		for i := range b {
			re := r.NormFloat64() * h
			b[i] = complex(re, r.NormFloat64()*h)
		}
	}
}

// RandUniform returns a new compact tensor of pseudo-random values
// uniform in [lo, hi) (both parts for complex T), reproducible from seed.
// Each value is lo + (hi-lo)*u in float64, rounded to T, for the u in
// [0, 1) that [Rand] would put there (Float32 draws for float32 and
// complex64, Float64 draws otherwise; same stream, same order), so
// RandUniform(seed, 0, 1, shape...) equals Rand(seed, shape...). A value
// that rounding carries up to hi is replaced by the largest T below hi,
// so every value v satisfies T(lo) <= v < T(hi).
//
// Errors: ErrArgument when lo or hi is NaN or infinite (in float64 or once
// rounded to T), when T(lo) >= T(hi) (the interval is empty in T) or when
// hi - lo overflows; ErrShape and ErrMemory as for [Zeros].
func RandUniform[T Scalar](seed uint64, lo, hi float64, shape ...int) (*Tensor[T], error) {
	const name = "RandUniform"
	if err := finite(name, "lo", lo); err != nil {
		return nil, err
	}
	if err := finite(name, "hi", hi); err != nil {
		return nil, err
	}
	single := DTypeOf[T]().Real() == Float32
	l, h := lo, hi
	if single {
		l, h = float64(float32(lo)), float64(float32(hi))
	}
	if err := finite(name, "lo", l); err != nil {
		return nil, err
	}
	if err := finite(name, "hi", h); err != nil {
		return nil, err
	}
	if !(l < h) {
		return nil, newError(name, "hi", fmt.Sprintf("hi > lo = %g in %v", l, DTypeOf[T]().Real()), fmt.Sprint(h), ErrArgument)
	}
	width := hi - lo
	if math.IsInf(width, 0) {
		return nil, newError(name, "hi", "hi - lo within the float64 range", fmt.Sprintf("lo %g, hi %g", lo, hi), ErrArgument)
	}
	n, err := checkNew[T](name, shape)
	if err != nil {
		return nil, err
	}
	r := newPCG(seed)
	buf := make([]T, n)
	if single {
		below := math.Nextafter32(float32(h), float32(math.Inf(-1)))
		part := func() float32 {
			v := float32(lo + float64(width*float64(r.Float32())))
			return min(v, below)
		}
		switch b := any(buf).(type) {
		case []float32:
			for i := range b {
				b[i] = part()
			}
		case []complex64:
			for i := range b {
				re := part()
				b[i] = complex(re, part())
			}
		}
	} else {
		below := math.Nextafter(h, math.Inf(-1))
		part := func() float64 { return min(lo+float64(width*r.Float64()), below) }
		switch b := any(buf).(type) {
		case []float64:
			for i := range b {
				b[i] = part()
			}
		case []complex128:
			for i := range b {
				re := part()
				b[i] = complex(re, part())
			}
		}
	}
	return wrap(backend.NewStorage(buf, nil), shape), nil
}
