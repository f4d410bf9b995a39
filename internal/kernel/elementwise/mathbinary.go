package elementwise

import (
	"math"

	"github.com/tenferro-go/tenferro/internal/kernel/simd"
	"github.com/tenferro-go/tenferro/internal/kernel/vmath"
	"github.com/tenferro-go/tenferro/internal/op"
	"github.com/tenferro-go/tenferro/internal/op/scalar"
)

// The real binary functions Pow, Atan2 and Hypot. Pow and Atan2 are
// vmath's kernels. Hypot runs its common case (finite arguments in range)
// as a loop over a block of vector kernels and hands the rare special
// arguments (zeros, infinities, NaN, extreme magnitudes) to the catalog's
// scalar definition, so that the special values are exactly the
// catalog's.

// mathBlock is the number of elements a binary function stages in float64
// at a time (2 KiB: in L1 beside its arguments).
const mathBlock = 256

// blockAt returns the block of z, x and y that starts at lo: at most
// mathBlock elements, all three of one length (x and y at least as long as
// z).
func blockAt[F float32 | float64](z, x, y []F, lo int) (zs, xs, ys []F) {
	zs = z[lo:min(lo+mathBlock, len(z))]
	return zs, x[lo:][:len(zs)], y[lo:][:len(zs)]
}

// floatBinary sets z[i] = k(x[i], y[i]) for the real binary functions.
func floatBinary[F float32 | float64](k op.Kind, z, x, y []F) {
	x, y = x[:len(z)], y[:len(z)]
	switch k {
	case op.Pow:
		vmath.Pow(z, x, y)
	case op.Atan2:
		vmath.Atan2(z, x, y)
	case op.Hypot:
		switch zz := any(z).(type) {
		case []float32:
			hypot32(zz, any(x).([]float32), any(y).([]float32))
		case []float64:
			hypot64(zz, any(x).([]float64), any(y).([]float64))
		}
	default:
		panic("elementwise: no kernel for " + k.String())
	}
}

// hypot64 sets z[i] = scalar.Hypot(x[i], y[i]) bit for bit: the square
// root (vmath's, correctly rounded) of the sum of the rounded squares
// where the larger magnitude lies in [2^-500, 2^500] and scalar.Hypot
// does not scale (vector loops), and scalar.Hypot itself elsewhere
// (zeros, infinities, NaN, extreme magnitudes). z may be x or y: a block
// is written once it is done.
func hypot64(z, x, y []float64) {
	lb := math.Float64bits(0x1p-500)
	sb := math.Float64bits(0x1p500) - lb
	var sq, sq2 [mathBlock]float64
	for lo := 0; lo < len(z); lo += mathBlock {
		zs, xs, ys := blockAt(z, x, y, lo)
		s, t := sq[:len(zs)], sq2[:len(zs)]
		simd.Unary(simd.Square, s, xs, 0, 0)
		simd.Unary(simd.Square, t, ys, 0, 0)
		simd.VV(simd.Add, s, s, t)
		vmath.Sqrt(s, s)
		for i := range s {
			// The larger magnitude's bits, outside [2^-500, 2^500]
			// (NaN and infinities included): scalar.Hypot scales.
			m := max(math.Float64bits(xs[i])&^(1<<63), math.Float64bits(ys[i])&^(1<<63))
			if m-lb > sb {
				s[i] = scalar.Hypot(xs[i], ys[i])
			}
		}
		copy(zs, s)
	}
}

// hypot32 sets z[i] = float32(scalar.Hypot32(x[i], y[i])): √(x² + y²) in
// float64, where the squares of float32 values are exact and never
// overflow, rounded to float32 once; a NaN beside an infinity gives +Inf.
func hypot32(z, x, y []float32) {
	var buf [mathBlock]float64
	for lo := 0; lo < len(z); lo += mathBlock {
		zs, xs, ys := blockAt(z, x, y, lo)
		s := buf[:len(zs)]
		for i := range s {
			a, b := float64(xs[i]), float64(ys[i])
			s[i] = a*a + b*b
		}
		vmath.Sqrt(s, s)
		for i, h := range s {
			if h != h {
				h = scalar.Hypot32(xs[i], ys[i])
			}
			zs[i] = float32(h)
		}
	}
}
