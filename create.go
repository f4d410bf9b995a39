package tenferro

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/internal/hugepage"
	"github.com/tenferro-go/tenferro/internal/op"
)

// Creation routines. Each returns a new compact column-major tensor that
// owns fresh memory (no pool, no aliasing), validates its shape as [Zeros]
// does (ErrShape for negative extents or more than 2^46 elements,
// ErrMemory beyond [DefaultMemoryBudget]) and accepts zero-size shapes.
// Float64 expressions are written with explicit conversions so that no
// platform fuses them into multiply-adds: the same arguments give the same
// bits on every architecture.
//
// Each has an engine operation that writes the same values into a
// destination instead (create_into.go): [FillInto] for Full, Zeros and
// Ones, [EyeInto] for Eye, EyeK and Identity, [ArangeInto] for Arange
// and, with start 0 and step 1, ArangeN (not for int64), [LinspaceInto],
// [LogspaceInto], [RandInto], [RandNInto] and [RandUniformInto] (the
// random forms draw from a caller's *rand.Rand, as FillRand and
// FillRandN do). With a destination from the engine's pool
// a loop reuses one buffer and allocates nothing:
//
//	x, _ := tenferro.NewTensor[float64](e, n)
//	defer x.Release()
//	for ... {
//		_ = tenferro.LinspaceInto(e, x, lo, hi, true)
//		...
//	}
//
// The destination may be any view with distinct elements; it receives the
// values in its column-major element order. Both forms share one
// implementation of each formula, so they agree bit for bit.

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
	t := wrap(backend.NewStorage(hugepage.Make[T](size), nil), shape)
	setDiagonal(&t.v, k)
	return t, nil
}

// setDiagonal sets the elements (i, i+k) of the rank-2 view v to one
// (true for bool) and leaves the others alone.
func setDiagonal[T Elem](v *backend.View[T], k int) {
	n, m := v.Shape[0], v.Shape[1]
	if !(k < m && k > -n) { // the diagonal misses the matrix; else -k and m-k fit in int
		return
	}
	// Rows i in [max(0, -k), min(n, m-k)), column j = i+k.
	lo, hi := max(0, -k), min(n, m-k)
	p, s := v.Off+lo*v.Strides[0]+(lo+k)*v.Strides[1], v.Strides[0]+v.Strides[1]
	x := one[T]()
	for range hi - lo {
		v.Data[p] = x
		p += s
	}
}

// fillReal sets the elements of v, in column-major order, to f(0),
// f(1), ... rounded once to T: the real part, with a zero imaginary part,
// for complex T. The int64 case serves ArangeN, whose values are exact
// integers.
func fillReal[T Scalar | int64](v *backend.View[T], f func(i int) float64) {
	switch d := any(v.Data).(type) {
	case []float32:
		eachRun(v.Shape, v.Strides, v.Off, func(i, p, n, s int) {
			for k := range n {
				d[p+k*s] = float32(f(i + k))
			}
		})
	case []float64:
		eachRun(v.Shape, v.Strides, v.Off, func(i, p, n, s int) {
			for k := range n {
				d[p+k*s] = f(i + k)
			}
		})
	case []complex64:
		eachRun(v.Shape, v.Strides, v.Off, func(i, p, n, s int) {
			for k := range n {
				d[p+k*s] = complex(float32(f(i+k)), 0)
			}
		})
	case []complex128:
		eachRun(v.Shape, v.Strides, v.Off, func(i, p, n, s int) {
			for k := range n {
				d[p+k*s] = complex(f(i+k), 0)
			}
		})
	case []int64:
		eachRun(v.Shape, v.Strides, v.Off, func(i, p, n, s int) {
			for k := range n {
				d[p+k*s] = int64(f(i + k))
			}
		})
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
	t := wrap(backend.NewStorage(hugepage.Make[T](n), nil), shape)
	fillArange(&t.v, start, step)
	return t, nil
}

// arangeAt is element i of Arange and ArangeInto: start + i*step in
// float64, the product rounded before the sum.
func arangeAt(start, step float64, i int) float64 { return start + float64(float64(i)*step) }

// fillArange sets element i of the vector v to arangeAt(start, step, i)
// rounded once to T.
func fillArange[T Scalar](v *backend.View[T], start, step float64) {
	fillReal(v, func(i int) float64 { return arangeAt(start, step, i) })
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
	t := wrap(backend.NewStorage(hugepage.Make[T](n), nil), shape)
	fillReal(&t.v, func(i int) float64 { return float64(i) })
	return t, nil
}

// linspace is NumPy's linspace(start, stop, n, endpoint) in float64, for
// finite start and stop and n >= 0: element i is at(i). With div = n-1
// (endpoint) or n (no endpoint) and delta = stop - start, the value is
// i*step + start with step = delta/div; (i/div)*delta + start when that
// step underflows to 0; i*delta + start when div == 0. With endpoint and
// n > 1 the last element is stop exactly. Where delta overflows (finite
// arguments of opposite signs near the float64 limit), step is
// stop/div - start/div instead, which NumPy does not do (it returns
// infinities and NaNs there).
type linspace struct {
	start, stop float64
	step        float64 // i*step + start, unless div > 0
	div, delta  float64 // when div > 0 (step underflowed): (i/div)*delta + start
	last        int     // the index that is stop exactly, or -1
}

func newLinspace(start, stop float64, n int, endpoint bool) linspace {
	div := n
	if endpoint {
		div = n - 1
	}
	delta := stop - start
	l := linspace{start: start, stop: stop, step: delta, last: -1}
	if endpoint && n > 1 {
		l.last = n - 1
	}
	if div > 0 {
		d := float64(div)
		step := delta / d
		if math.IsInf(delta, 0) {
			step = stop/d - start/d
		}
		if step == 0 {
			l.div, l.delta = d, delta
		} else {
			l.step = step
		}
	}
	return l
}

// at returns element i.
func (l *linspace) at(i int) float64 {
	switch {
	case i == l.last:
		return l.stop
	case l.div > 0:
		return float64(float64(i)/l.div*l.delta) + l.start
	}
	return float64(float64(i)*l.step) + l.start
}

// fillLinspace sets the vector v to linspace(start, stop, len(v),
// endpoint), each value rounded once to T.
func fillLinspace[T Scalar](v *backend.View[T], start, stop float64, endpoint bool) {
	l := newLinspace(start, stop, v.Shape[0], endpoint)
	fillReal(v, l.at)
}

// fillLogspace sets the vector v to base**y for y = linspace(start, stop,
// len(v), endpoint), each power rounded once to T.
func fillLogspace[T Scalar](v *backend.View[T], start, stop float64, endpoint bool, base float64) {
	l := newLinspace(start, stop, v.Shape[0], endpoint)
	fillReal(v, func(i int) float64 { return math.Pow(base, l.at(i)) })
}

// linspaceEnds validates the end points of Linspace and Logspace and
// their Into forms.
func linspaceEnds(name string, start, stop float64) error {
	if err := finite(name, "start", start); err != nil {
		return err
	}
	return finite(name, "stop", stop)
}

// linspaceArgs validates the arguments shared by Linspace and Logspace.
func linspaceArgs[T Scalar](name string, start, stop float64, n int) ([]int, error) {
	if err := linspaceEnds(name, start, stop); err != nil {
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
	t := wrap(backend.NewStorage(hugepage.Make[T](n), nil), shape)
	fillLinspace(&t.v, start, stop, endpoint)
	return t, nil
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
	t := wrap(backend.NewStorage(hugepage.Make[T](n), nil), shape)
	fillLogspace(&t.v, start, stop, endpoint, base)
	return t, nil
}

// newPCG returns the generator of seed that Rand, RandN and RandUniform
// draw from.
func newPCG(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x74656e66)) }

// flat returns buf as a compact vector view whose shape and strides live
// in dims.
func flat[T Elem](buf []T, dims *[2]int) *backend.View[T] {
	dims[0], dims[1] = len(buf), 1
	return &backend.View[T]{Data: buf, Shape: dims[:1], Strides: dims[1:]}
}

// Rand returns a new compact tensor of pseudo-random values uniform in
// [0, 1) (both parts for complex T), reproducible from seed. The stream is
// PCG seeded with (seed, 0x7465_6e66) and consumed in column-major order.
func Rand[T Scalar](seed uint64, shape ...int) (*Tensor[T], error) {
	n, err := checkNew[T]("Rand", shape)
	if err != nil {
		return nil, err
	}
	t := wrap(backend.NewStorage(hugepage.Make[T](n), nil), shape)
	fillRand(&t.v, newPCG(seed))
	return t, nil
}

// FillRand fills buf with values uniform in [0, 1) drawn from r (both parts
// for complex T).
func FillRand[T Scalar](r *rand.Rand, buf []T) {
	var dims [2]int
	fillRand(flat(buf, &dims), r)
}

// fillRand sets the elements of v, in column-major order, to values
// uniform in [0, 1) drawn from r: r.Float32() per float32 part,
// r.Float64() per float64 part, real part first.
func fillRand[T Scalar](v *backend.View[T], r *rand.Rand) {
	switch d := any(v.Data).(type) {
	case []float32:
		eachRun(v.Shape, v.Strides, v.Off, func(_, p, n, s int) {
			for k := range n {
				d[p+k*s] = r.Float32()
			}
		})
	case []float64:
		eachRun(v.Shape, v.Strides, v.Off, func(_, p, n, s int) {
			for k := range n {
				d[p+k*s] = r.Float64()
			}
		})
	case []complex64:
		eachRun(v.Shape, v.Strides, v.Off, func(_, p, n, s int) {
			for k := range n {
				re := r.Float32()
				d[p+k*s] = complex(re, r.Float32())
			}
		})
	case []complex128:
		eachRun(v.Shape, v.Strides, v.Off, func(_, p, n, s int) {
			for k := range n {
				re := r.Float64()
				d[p+k*s] = complex(re, r.Float64())
			}
		})
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
	t := wrap(backend.NewStorage(hugepage.Make[T](n), nil), shape)
	fillRandN(&t.v, newPCG(seed))
	return t, nil
}

// FillRandN fills buf, in order, with standard normal values drawn from r:
// r.NormFloat64() per real element (rounded to float32 for float32), and
// for complex T two draws per element, real part then imaginary part,
// each multiplied by √½ (then rounded to float32 for complex64), so that
// E|z|² = 1.
func FillRandN[T Scalar](r *rand.Rand, buf []T) {
	var dims [2]int
	fillRandN(flat(buf, &dims), r)
}

// fillRandN sets the elements of v, in column-major order, to the normal
// values FillRandN describes.
func fillRandN[T Scalar](v *backend.View[T], r *rand.Rand) {
	const h = 1 / math.Sqrt2
	switch d := any(v.Data).(type) {
	case []float32:
		eachRun(v.Shape, v.Strides, v.Off, func(_, p, n, s int) {
			for k := range n {
				d[p+k*s] = float32(r.NormFloat64())
			}
		})
	case []float64:
		eachRun(v.Shape, v.Strides, v.Off, func(_, p, n, s int) {
			for k := range n {
				d[p+k*s] = r.NormFloat64()
			}
		})
	case []complex64:
		eachRun(v.Shape, v.Strides, v.Off, func(_, p, n, s int) {
			for k := range n {
				re := float32(r.NormFloat64() * h)
				d[p+k*s] = complex(re, float32(r.NormFloat64()*h))
			}
		})
	case []complex128:
		eachRun(v.Shape, v.Strides, v.Off, func(_, p, n, s int) {
			for k := range n {
				re := r.NormFloat64() * h
				d[p+k*s] = complex(re, r.NormFloat64()*h)
			}
		})
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
	u, err := uniformArgs[T](name, lo, hi)
	if err != nil {
		return nil, err
	}
	n, err := checkNew[T](name, shape)
	if err != nil {
		return nil, err
	}
	t := wrap(backend.NewStorage(hugepage.Make[T](n), nil), shape)
	fillUniform(&t.v, newPCG(seed), u)
	return t, nil
}

// uniform is a validated interval [lo, hi) of RandUniform: values are
// lo + width*u, at most below32 (float32 parts) or below (float64 parts).
type uniform struct {
	lo, width float64
	below     float64 // the largest float64 below hi
	below32   float32 // the largest float32 below float32(hi)
}

// uniformArgs validates the interval [lo, hi) of RandUniform and
// RandUniformInto for T.
func uniformArgs[T Scalar](name string, lo, hi float64) (uniform, error) {
	if err := finite(name, "lo", lo); err != nil {
		return uniform{}, err
	}
	if err := finite(name, "hi", hi); err != nil {
		return uniform{}, err
	}
	l, h := lo, hi
	if DTypeOf[T]().Real() == Float32 {
		l, h = float64(float32(lo)), float64(float32(hi))
	}
	if err := finite(name, "lo", l); err != nil {
		return uniform{}, err
	}
	if err := finite(name, "hi", h); err != nil {
		return uniform{}, err
	}
	if !(l < h) {
		return uniform{}, newError(name, "hi", fmt.Sprintf("hi > lo = %g in %v", l, DTypeOf[T]().Real()), fmt.Sprint(h), ErrArgument)
	}
	width := hi - lo
	if math.IsInf(width, 0) {
		return uniform{}, newError(name, "hi", "hi - lo within the float64 range", fmt.Sprintf("lo %g, hi %g", lo, hi), ErrArgument)
	}
	return uniform{
		lo: lo, width: width,
		below:   math.Nextafter(hi, math.Inf(-1)),
		below32: math.Nextafter32(float32(hi), float32(math.Inf(-1))),
	}, nil
}

// part32 maps a Float32 draw to a float32 part of [lo, hi).
func (u *uniform) part32(r *rand.Rand) float32 {
	return min(float32(u.lo+float64(u.width*float64(r.Float32()))), u.below32)
}

// part64 maps a Float64 draw to a float64 part of [lo, hi).
func (u *uniform) part64(r *rand.Rand) float64 {
	return min(u.lo+float64(u.width*r.Float64()), u.below)
}

// fillUniform sets the elements of v, in column-major order, to values of
// u drawn from r as RandUniform describes.
func fillUniform[T Scalar](v *backend.View[T], r *rand.Rand, u uniform) {
	switch d := any(v.Data).(type) {
	case []float32:
		eachRun(v.Shape, v.Strides, v.Off, func(_, p, n, s int) {
			for k := range n {
				d[p+k*s] = u.part32(r)
			}
		})
	case []float64:
		eachRun(v.Shape, v.Strides, v.Off, func(_, p, n, s int) {
			for k := range n {
				d[p+k*s] = u.part64(r)
			}
		})
	case []complex64:
		eachRun(v.Shape, v.Strides, v.Off, func(_, p, n, s int) {
			for k := range n {
				re := u.part32(r)
				d[p+k*s] = complex(re, u.part32(r))
			}
		})
	case []complex128:
		eachRun(v.Shape, v.Strides, v.Off, func(_, p, n, s int) {
			for k := range n {
				re := u.part64(r)
				d[p+k*s] = complex(re, u.part64(r))
			}
		})
	}
}
