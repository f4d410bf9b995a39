package lapack

// Column-major matrix-vector kernels for the bidiagonal reduction, whose
// matrix-vector products over the trailing matrix are half its work: four
// columns per pass, so that y (or x) is read once per four columns and
// the four products run as independent chains. They serve gemvN and gemvC
// for float64 and complex128 when A's columns and the long vector are
// contiguous. Where AVX-512 is present, groups of four columns run the
// vector loops of gemv_amd64.s over whole 64-byte vectors and the Go loops
// below do the rest (their only form under purego and elsewhere).

// gemvNColF64 computes y[yo:yo+m] += α·A·x for the column-major m×n A at
// a[off:], columns cs apart.
func gemvNColF64(m, n int, alpha float64, a []float64, off, cs int, x []float64, xo, xi int, y []float64) {
	y = y[:m]
	j := 0
	if gemvAVX512 && m >= 8 {
		blocks := m / 8
		var av [4]float64
		for ; j+4 <= n; j += 4 {
			av = [4]float64{alpha * x[xo+j*xi], alpha * x[xo+(j+1)*xi], alpha * x[xo+(j+2)*xi], alpha * x[xo+(j+3)*xi]}
			c0 := a[off+j*cs:][:m]
			c1 := a[off+(j+1)*cs:][:m]
			c2 := a[off+(j+2)*cs:][:m]
			c3 := a[off+(j+3)*cs:][:m]
			gemvN4F64AVX512(blocks, &y[0], &c0[0], &c1[0], &c2[0], &c3[0], &av)
			for i := 8 * blocks; i < m; i++ {
				y[i] += av[0]*c0[i] + av[1]*c1[i] + av[2]*c2[i] + av[3]*c3[i]
			}
		}
	}
	for ; j+4 <= n; j += 4 {
		a0, a1, a2, a3 := alpha*x[xo+j*xi], alpha*x[xo+(j+1)*xi], alpha*x[xo+(j+2)*xi], alpha*x[xo+(j+3)*xi]
		c0 := a[off+j*cs:][:m]
		c1 := a[off+(j+1)*cs:][:m]
		c2 := a[off+(j+2)*cs:][:m]
		c3 := a[off+(j+3)*cs:][:m]
		for i := range y {
			y[i] += a0*c0[i] + a1*c1[i] + a2*c2[i] + a3*c3[i]
		}
	}
	for ; j < n; j++ {
		a0 := alpha * x[xo+j*xi]
		c0 := a[off+j*cs:][:m]
		for i := range y {
			y[i] += a0 * c0[i]
		}
	}
}

// gemvCColF64 computes y[yo+j*yi] += α·(Aᵀ·x)[j] for the column-major m×n
// A at a[off:] and the contiguous x[:m].
func gemvCColF64(m, n int, alpha float64, a []float64, off, cs int, x []float64, y []float64, yo, yi int) {
	x = x[:m]
	j := 0
	if gemvAVX512 && m >= 8 {
		blocks := m / 8
		var acc [32]float64
		for ; j+4 <= n; j += 4 {
			c0 := a[off+j*cs:][:m]
			c1 := a[off+(j+1)*cs:][:m]
			c2 := a[off+(j+2)*cs:][:m]
			c3 := a[off+(j+3)*cs:][:m]
			gemvC4F64AVX512(blocks, &x[0], &c0[0], &c1[0], &c2[0], &c3[0], &acc)
			s := laneSums(&acc)
			for i := 8 * blocks; i < m; i++ {
				v := x[i]
				s[0] += c0[i] * v
				s[1] += c1[i] * v
				s[2] += c2[i] * v
				s[3] += c3[i] * v
			}
			for k, v := range s {
				y[yo+(j+k)*yi] += alpha * v
			}
		}
	}
	for ; j+4 <= n; j += 4 {
		c0 := a[off+j*cs:][:m]
		c1 := a[off+(j+1)*cs:][:m]
		c2 := a[off+(j+2)*cs:][:m]
		c3 := a[off+(j+3)*cs:][:m]
		var s0, s1, s2, s3 float64
		for i, v := range x {
			s0 += c0[i] * v
			s1 += c1[i] * v
			s2 += c2[i] * v
			s3 += c3[i] * v
		}
		y[yo+j*yi] += alpha * s0
		y[yo+(j+1)*yi] += alpha * s1
		y[yo+(j+2)*yi] += alpha * s2
		y[yo+(j+3)*yi] += alpha * s3
	}
	for ; j < n; j++ {
		c0 := a[off+j*cs:][:m]
		var s0 float64
		for i, v := range x {
			s0 += c0[i] * v
		}
		y[yo+j*yi] += alpha * s0
	}
}

// gemvNColC128 is gemvNColF64 for complex128.
func gemvNColC128(m, n int, alpha complex128, a []complex128, off, cs int, x []complex128, xo, xi int, y []complex128) {
	y = y[:m]
	j := 0
	if gemvAVX512 && m >= 4 {
		blocks := m / 4
		var coef [64]float64
		for ; j+4 <= n; j += 4 {
			var ak [4]complex128
			for k := range ak {
				ak[k] = alpha * x[xo+(j+k)*xi]
			}
			splitCoef(&coef, &ak)
			c0 := a[off+j*cs:][:m]
			c1 := a[off+(j+1)*cs:][:m]
			c2 := a[off+(j+2)*cs:][:m]
			c3 := a[off+(j+3)*cs:][:m]
			gemvN4C128AVX512(blocks, &y[0], &c0[0], &c1[0], &c2[0], &c3[0], &coef)
			for i := 4 * blocks; i < m; i++ {
				y[i] += ak[0]*c0[i] + ak[1]*c1[i] + ak[2]*c2[i] + ak[3]*c3[i]
			}
		}
	}
	for ; j+2 <= n; j += 2 {
		a0, a1 := alpha*x[xo+j*xi], alpha*x[xo+(j+1)*xi]
		r0, i0, r1, i1 := real(a0), imag(a0), real(a1), imag(a1)
		c0 := a[off+j*cs:][:m]
		c1 := a[off+(j+1)*cs:][:m]
		for i := range y {
			u, v := c0[i], c1[i]
			ur, ui, vr, vi := real(u), imag(u), real(v), imag(v)
			y[i] += complex(r0*ur-i0*ui+r1*vr-i1*vi, r0*ui+i0*ur+r1*vi+i1*vr)
		}
	}
	for ; j < n; j++ {
		a0 := alpha * x[xo+j*xi]
		c0 := a[off+j*cs:][:m]
		for i := range y {
			y[i] += a0 * c0[i]
		}
	}
}

// gemvCColC128 is gemvCColF64 for complex128: y[j] += α·Σ conj(A[i,j])·x[i].
func gemvCColC128(m, n int, alpha complex128, a []complex128, off, cs int, x []complex128, y []complex128, yo, yi int) {
	x = x[:m]
	j := 0
	if gemvAVX512 && m >= 4 {
		blocks := m / 4
		var acc [64]float64
		for ; j+4 <= n; j += 4 {
			cols := [4][]complex128{a[off+j*cs:][:m], a[off+(j+1)*cs:][:m], a[off+(j+2)*cs:][:m], a[off+(j+3)*cs:][:m]}
			gemvC4C128AVX512(blocks, &x[0], &cols[0][0], &cols[1][0], &cols[2][0], &cols[3][0], &acc)
			for k, c := range cols {
				sum := conjDotSum(&acc, k)
				sr, si := real(sum), imag(sum)
				for i := 4 * blocks; i < m; i++ {
					u, v := c[i], x[i]
					sr += real(u)*real(v) + imag(u)*imag(v)
					si += real(u)*imag(v) - imag(u)*real(v)
				}
				y[yo+(j+k)*yi] += alpha * complex(sr, si)
			}
		}
	}
	for ; j+2 <= n; j += 2 {
		c0 := a[off+j*cs:][:m]
		c1 := a[off+(j+1)*cs:][:m]
		var sr0, si0, sr1, si1 float64
		for i, v := range x {
			vr, vi := real(v), imag(v)
			u, w := c0[i], c1[i]
			ur, ui, wr, wi := real(u), imag(u), real(w), imag(w)
			sr0 += ur*vr + ui*vi
			si0 += ur*vi - ui*vr
			sr1 += wr*vr + wi*vi
			si1 += wr*vi - wi*vr
		}
		y[yo+j*yi] += alpha * complex(sr0, si0)
		y[yo+(j+1)*yi] += alpha * complex(sr1, si1)
	}
	for ; j < n; j++ {
		c0 := a[off+j*cs:][:m]
		var sr, si float64
		for i, v := range x {
			u := c0[i]
			sr += real(u)*real(v) + imag(u)*imag(v)
			si += real(u)*imag(v) - imag(u)*real(v)
		}
		y[yo+j*yi] += alpha * complex(sr, si)
	}
}

// axpyDot4F64 sets ys[i] += Σk xq[k]·c[k][i] and returns s[k] =
// Σi c[k][i]·xs[i] over the len(ys) rows (a symmetric product's update of
// four columns below their diagonal block), in one AVX-512 pass over whole
// vectors; ok is false, and nothing is done, where it does not run.
func axpyDot4F64(c *[4][]float64, xq *[4]float64, xs, ys []float64) (s [4]float64, ok bool) {
	m := len(ys)
	if !gemvAVX512 || m < 8 {
		return s, false
	}
	blocks := m / 8
	var acc [32]float64
	hemv4F64AVX512(blocks, &ys[0], &xs[0], &c[0][0], &c[1][0], &c[2][0], &c[3][0], xq, &acc)
	s = laneSums(&acc)
	for i := 8 * blocks; i < m; i++ {
		xi := xs[i]
		ys[i] += xq[0]*c[0][i] + xq[1]*c[1][i] + xq[2]*c[2][i] + xq[3]*c[3][i]
		for k := range s {
			s[k] += c[k][i] * xi
		}
	}
	return s, true
}

// axpyDot4C128 is axpyDot4F64 for complex128 with conjugated sums:
// s[k] = Σi conj(c[k][i])·xs[i].
func axpyDot4C128(c *[4][]complex128, xq *[4]complex128, xs, ys []complex128) (s [4]complex128, ok bool) {
	m := len(ys)
	if !gemvAVX512 || m < 4 {
		return s, false
	}
	blocks := m / 4
	var coef [64]float64
	splitCoef(&coef, xq)
	var acc [64]float64
	hemv4C128AVX512(blocks, &ys[0], &xs[0], &c[0][0], &c[1][0], &c[2][0], &c[3][0], &coef, &acc)
	for k := range s {
		s[k] = conjDotSum(&acc, k)
	}
	for i := 4 * blocks; i < m; i++ {
		xi := xs[i]
		ys[i] += xq[0]*c[0][i] + xq[1]*c[1][i] + xq[2]*c[2][i] + xq[3]*c[3][i]
		for k := range s {
			u := c[k][i]
			s[k] += complex(real(u), -imag(u)) * xi
		}
	}
	return s, true
}

// splitCoef lays out the four complex factors a[k] for the AVX-512 loops:
// coef[16k:16k+8] holds re a[k] in every lane, coef[16k+8:16k+16] the pairs
// (-im a[k], im a[k]).
func splitCoef(coef *[64]float64, a *[4]complex128) {
	for k, v := range a {
		re, im := real(v), imag(v)
		for l := 0; l < 8; l += 2 {
			coef[16*k+l], coef[16*k+l+1] = re, re
			coef[16*k+8+l], coef[16*k+8+l+1] = -im, im
		}
	}
}

// conjDotSum returns column k's Σ conj(c)·x from the split sums of the
// AVX-512 loops: the real part is the sum of all eight lanes of
// acc[16k:16k+8], the imaginary part the even minus the odd lanes of
// acc[16k+8:16k+16].
func conjDotSum(acc *[64]float64, k int) complex128 {
	var sr, si float64
	for l := 0; l < 8; l += 2 {
		sr += acc[16*k+l] + acc[16*k+l+1]
		si += acc[16*k+8+l] - acc[16*k+8+l+1]
	}
	return complex(sr, si)
}

// laneSums returns the sums of the four columns' eight lanes in acc.
func laneSums(acc *[32]float64) (s [4]float64) {
	for k := range s {
		for _, v := range acc[8*k : 8*k+8] {
			s[k] += v
		}
	}
	return s
}

// ger4 sets c[k][i] -= v[k]·x[i] over the len(x) rows (a rank-1 update of
// four columns) with the AVX-512 loops for float64 and complex128, and
// reports whether it did; nothing is done otherwise.
func ger4[T Scalar](x []T, c *[4][]T, v *[4]T) bool {
	if !gemvAVX512 {
		return false
	}
	switch xs := any(x).(type) {
	case []float64:
		m := len(xs)
		if m < 8 {
			return false
		}
		cs := any(c).(*[4][]float64)
		vs := any(v).(*[4]float64)
		blocks := m / 8
		ger4F64AVX512(blocks, &xs[0], &cs[0][0], &cs[1][0], &cs[2][0], &cs[3][0], vs)
		for i := 8 * blocks; i < m; i++ {
			for k := range cs {
				cs[k][i] -= xs[i] * vs[k]
			}
		}
		return true
	case []complex128:
		m := len(xs)
		if m < 4 {
			return false
		}
		cs := any(c).(*[4][]complex128)
		vs := any(v).(*[4]complex128)
		var coef [64]float64
		splitCoef(&coef, vs)
		blocks := m / 4
		ger4C128AVX512(blocks, &xs[0], &cs[0][0], &cs[1][0], &cs[2][0], &cs[3][0], &coef)
		for i := 4 * blocks; i < m; i++ {
			for k := range cs {
				cs[k][i] -= xs[i] * vs[k]
			}
		}
		return true
	}
	return false
}
