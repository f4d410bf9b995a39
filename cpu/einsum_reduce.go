package cpu

import (
	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/internal/kernel/strided"
)

// sumReduce sets, for every multi-index i of shape,
//
//	dst[i] = Σ a[i]        (prod false)
//	dst[i] = Σ a[i]·b[i]   (prod true)
//
// where the sum runs over the axes along which dst has stride 0 (the
// reduced axes), so each distinct dst element receives the sum over its
// fibre; dst is overwritten, not accumulated into. Inputs may have any
// strides (zero and negative included).
//
// Preconditions (validated by the executor): no extent is 0, every view
// stays inside its Data, dst has distinct elements along the axes where its
// stride is not 0 and does not overlap a or b. It reports false, doing
// nothing, when more than strided.MaxRank extents differ from 1.
func sumReduce[T tf.Scalar](l *strided.Layout, shape []int, dst, a, b strided.Ref[T], prod bool) bool {
	if !l.Init(shape) {
		return false
	}
	if l.Empty {
		return true
	}
	l.Add(dst.Off, dst.Strides)
	l.Add(a.Off, a.Strides)
	if prod {
		l.Add(b.Off, b.Strides)
	} else {
		l.Add(0, dst.Strides) // unused third operand keeps the walk uniform
	}
	// Reduced axes (dst stride 0) sort first, ordered by the inputs'
	// strides; contiguous runs fuse.
	l.SortBy(0)
	l.Fuse()
	rank := l.Rank
	nred := 0
	for nred < rank && l.Strides[0][nred] == 0 {
		nred++
	}
	var idx [strided.MaxRank]int
	d0, a0, b0 := l.Off[0], l.Off[1], l.Off[2]
	ad, bd, dd := a.Data, b.Data, dst.Data
	for {
		var v T
		switch {
		case nred > 0:
			v = fibre(l, nred, ad, a0, bd, b0, prod)
		case prod:
			v = ad[a0] * bd[b0]
		default:
			v = ad[a0]
		}
		dd[d0] = v
		d := nred
		for ; d < rank; d++ {
			idx[d]++
			d0 += l.Strides[0][d]
			a0 += l.Strides[1][d]
			b0 += l.Strides[2][d]
			if idx[d] < l.Shape[d] {
				break
			}
			d0 -= l.Strides[0][d] * idx[d]
			a0 -= l.Strides[1][d] * idx[d]
			b0 -= l.Strides[2][d] * idx[d]
			idx[d] = 0
		}
		if d >= rank {
			return true
		}
	}
}

// fibre sums a (times b) over the first nred dimensions of l from offsets
// ao, bo: rows along dimension 0, an odometer over dimensions 1..nred-1.
func fibre[T tf.Scalar](l *strided.Layout, nred int, a []T, ao int, b []T, bo int, prod bool) T {
	n, as, bs := l.Shape[0], l.Strides[1][0], l.Strides[2][0]
	var idx [strided.MaxRank]int
	var total T
	for {
		if prod {
			total += dotRow(n, a, ao, as, b, bo, bs)
		} else {
			total += sumRow(n, a, ao, as)
		}
		d := 1
		for ; d < nred; d++ {
			idx[d]++
			ao += l.Strides[1][d]
			bo += l.Strides[2][d]
			if idx[d] < l.Shape[d] {
				break
			}
			ao -= l.Strides[1][d] * idx[d]
			bo -= l.Strides[2][d] * idx[d]
			idx[d] = 0
		}
		if d >= nred {
			return total
		}
	}
}

// sumRow returns Σ_{i<n} a[ao+i·as] with four partial sums.
func sumRow[T tf.Scalar](n int, a []T, ao, as int) T {
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
	for i := 0; i < n; i++ {
		s0 += a[ao]
		ao += as
	}
	return s0
}

// dotRow returns Σ_{i<n} a[ao+i·as]·b[bo+i·bs] with four partial sums.
func dotRow[T tf.Scalar](n int, a []T, ao, as int, b []T, bo, bs int) T {
	var s0, s1, s2, s3 T
	if as == 1 && bs == 1 {
		x, y := a[ao:ao+n], b[bo:bo+n]
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
	if i < n {
		s0 += a[ao] * b[bo]
	}
	return s0 + s1
}
