package lapack

import (
	"math"

	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
)

// Lartg returns a plane rotation with
//
//	[ c  s] [f]   [r]
//	[−s  c] [g] = [0],   c² + s² = 1,
//
// computed without overflow or harmful underflow (LAPACK 3.10's dlartg
// algorithm: scaled only when f or g is outside the safe range). g = 0
// gives c = 1, s = 0, r = f; f = 0 gives c = 0, s = sign(g), r = |g|.
// Otherwise r has the sign of f, so that c > 0.
func Lartg(f, g float64) (c, s, r float64) {
	const (
		safmin = 0x1p-1022
		safmax = 0x1p1022
	)
	rtmin := math.Sqrt(safmin)
	rtmax := math.Sqrt(safmax / 2)
	switch {
	case g == 0:
		return 1, 0, f
	case f == 0:
		return 0, math.Copysign(1, g), math.Abs(g)
	}
	f1, g1 := math.Abs(f), math.Abs(g)
	if f1 > rtmin && f1 < rtmax && g1 > rtmin && g1 < rtmax {
		d := math.Sqrt(f*f + g*g)
		c = f1 / d
		r = math.Copysign(d, f)
		return c, g / r, r
	}
	u := math.Min(safmax, math.Max(safmin, math.Max(f1, g1)))
	fs, gs := f/u, g/u
	d := math.Sqrt(fs*fs + gs*gs)
	c = math.Abs(fs) / d
	r = math.Copysign(d, f)
	s = gs / r
	return c, s, r * u
}

// Rot applies the plane rotation (c, s) to the column pair (j1, j2) of
// the m-row matrix a from the right:
//
//	a[:, j1] ← c·a[:, j1] + s·a[:, j2]
//	a[:, j2] ← c·a[:, j2] − s·a[:, j1]
//
// (real c and s for every element type, as in the tridiagonal and
// bidiagonal QR iterations). Columns of a column-major a are contiguous.
func Rot[T Scalar](m int, a gemm.Mat[T], j1, j2 int, c, s float64) {
	x, y := a.Off+j1*a.CS, a.Off+j2*a.CS
	switch d := any(a.Data).(type) {
	case []float32:
		rotR(d, m, x, y, a.RS, float32(c), float32(s))
	case []float64:
		rotR(d, m, x, y, a.RS, c, s)
	case []complex64:
		rotC(d, m, x, y, a.RS, c, s)
	case []complex128:
		rotC(d, m, x, y, a.RS, c, s)
	}
}

func rotR[F float32 | float64](d []F, m, x, y, inc int, c, s F) {
	if inc == 1 {
		xs, ys := d[x:x+m], d[y:y+m]
		for i := range xs {
			u, v := xs[i], ys[i]
			xs[i] = c*u + s*v
			ys[i] = c*v - s*u
		}
		return
	}
	for i := range m {
		u, v := d[x+i*inc], d[y+i*inc]
		d[x+i*inc] = c*u + s*v
		d[y+i*inc] = c*v - s*u
	}
}

func rotC[C complex64 | complex128](d []C, m, x, y, inc int, c, s float64) {
	for i := range m {
		p, q := x+i*inc, y+i*inc
		u, v := complex128(d[p]), complex128(d[q])
		d[p] = C(complex(c*real(u)+s*real(v), c*imag(u)+s*imag(v)))
		d[q] = C(complex(c*real(v)-s*real(u), c*imag(v)-s*imag(u)))
	}
}

// Lasr applies the rotations (c[k], s[k]), k = 0, …, len(c)−1, to the
// column pairs (j0+k, j0+k+1) of the m-row matrix a from the right (see
// [Rot]), in order k = 0, 1, … when forward and in reverse order otherwise:
// the update of a's eigenvector or singular vector matrix by one sweep of
// a tridiagonal or bidiagonal QR iteration. Identity rotations (c = 1,
// s = 0) are skipped.
func Lasr[T Scalar](forward bool, m int, a gemm.Mat[T], j0 int, c, s []float64) {
	n := len(c)
	for t := range n {
		k := t
		if !forward {
			k = n - 1 - t
		}
		if c[k] != 1 || s[k] != 0 {
			Rot(m, a, j0+k, j0+k+1, c[k], s[k])
		}
	}
}
