package reduce

import (
	"github.com/tenferro-go/tenferro/internal/kernel/simd"
	"github.com/tenferro-go/tenferro/internal/kernel/strided"
)

// pairBase is the length below which rows are summed directly (with four
// interleaved accumulators) rather than split in halves.
const pairBase = 128

// sumRow returns sum_{i<n} a[ao+i*as] by pairwise summation: halves are
// summed recursively down to blocks of pairBase elements, so the rounding
// error grows like log2(n/pairBase) + pairBase/4 rather than n. Contiguous
// real rows go to sumUnit (lanes.go), whose bound is the same.
func sumRow[T strided.Scalar](n int, a []T, ao, as int) T {
	if as == 1 {
		if s, ok := sumReal(a[ao : ao+n]); ok {
			return s
		}
	}
	if n > pairBase {
		h := n / 2
		return sumRow(h, a, ao, as) + sumRow(n-h, a, ao+h*as, as)
	}
	var s0, s1, s2, s3 T
	if as == 1 {
		x := a[ao : ao+n]
		i := 0
		for ; i+4 <= len(x); i += 4 {
			s0 += x[i]
			s1 += x[i+1]
			s2 += x[i+2]
			s3 += x[i+3]
		}
		for ; i < len(x); i++ {
			s0 += x[i]
		}
		return (s0 + s1) + (s2 + s3)
	}
	i := 0
	for ; i+4 <= n; i += 4 {
		s0 += a[ao]
		s1 += a[ao+as]
		s2 += a[ao+2*as]
		s3 += a[ao+3*as]
		ao += 4 * as
	}
	for ; i < n; i++ {
		s0 += a[ao]
		ao += as
	}
	return (s0 + s1) + (s2 + s3)
}

// dotRow returns sum_{i<n} a[ao+i*as]*b[bo+i*bs] by pairwise summation (see
// sumRow).
func dotRow[T strided.Scalar](n int, a []T, ao, as int, b []T, bo, bs int) T {
	if n > pairBase {
		h := n / 2
		return dotRow(h, a, ao, as, b, bo, bs) + dotRow(n-h, a, ao+h*as, as, b, bo+h*bs, bs)
	}
	var s0, s1, s2, s3 T
	if as == 1 && bs == 1 {
		x, y := a[ao:ao+n], b[bo:bo+n]
		y = y[:len(x)]
		i := 0
		for ; i+4 <= len(x); i += 4 {
			s0 += x[i] * y[i]
			s1 += x[i+1] * y[i+1]
			s2 += x[i+2] * y[i+2]
			s3 += x[i+3] * y[i+3]
		}
		for ; i < len(x); i++ {
			s0 += x[i] * y[i]
		}
		return (s0 + s1) + (s2 + s3)
	}
	i := 0
	for ; i+2 <= n; i += 2 {
		s0 += a[ao] * b[bo]
		s1 += a[ao+as] * b[bo+bs]
		ao += 2 * as
		bo += 2 * bs
	}
	for ; i < n; i++ {
		s0 += a[ao] * b[bo]
	}
	return s0 + s1
}

// accRow adds a row into acc: acc[i] += a[ao+i*as] (times b[bo+i*bs] when
// prod) for i < len(acc).
func accRow[T strided.Scalar](acc []T, a []T, ao, as int, b []T, bo, bs int, prod bool) {
	if !prod {
		if as == 1 {
			x := a[ao : ao+len(acc)]
			switch acc := any(acc).(type) {
			case []float32:
				simd.VV(simd.Add, acc, acc, any(x).([]float32))
				return
			case []float64:
				simd.VV(simd.Add, acc, acc, any(x).([]float64))
				return
			}
			for i := range acc {
				acc[i] += x[i]
			}
			return
		}
		for i := range acc {
			acc[i] += a[ao]
			ao += as
		}
		return
	}
	if as == 1 && bs == 1 {
		x, y := a[ao:ao+len(acc)], b[bo:bo+len(acc)]
		for i := range acc {
			acc[i] += x[i] * y[i]
		}
		return
	}
	if as == 1 && bs == 0 {
		x, y := a[ao:ao+len(acc)], b[bo]
		for i := range acc {
			acc[i] += x[i] * y
		}
		return
	}
	if as == 0 && bs == 1 {
		x, y := a[ao], b[bo:bo+len(acc)]
		for i := range acc {
			acc[i] += x * y[i]
		}
		return
	}
	for i := range acc {
		acc[i] += a[ao] * b[bo]
		ao += as
		bo += bs
	}
}
