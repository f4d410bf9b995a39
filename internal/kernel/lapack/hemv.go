package lapack

import "github.com/tenferro-go/tenferro/internal/kernel/gemm"

// The matrix-vector kernels of the tridiagonal reduction: the Hermitian
// product, which takes half of Hetrd's flops and gains nothing from
// blocking, and the products with a panel's V and W. Each runs several
// columns per pass over its vectors, with as many independent sums, in
// typed loops.

// hemvLower sets y[0:n] = A·x for the n×n Hermitian A whose lower
// triangle is in a (the imaginary part of the diagonal ignored), in one
// pass over the triangle: each stored element a(i, j), i > j, adds to y[i]
// (a·x[j]) and to y[j] (conj(a)·x[i]). Columns are contiguous in a
// column-major a and rows in a row-major one; both run along storage.
func hemvLower[T Scalar](n int, a gemm.Mat[T], x, y []T) {
	switch d := any(a.Data).(type) {
	case []float64:
		hemvR(n, d, a.Off, a.RS, a.CS, any(x).([]float64), any(y).([]float64))
	case []float32:
		hemvR(n, d, a.Off, a.RS, a.CS, any(x).([]float32), any(y).([]float32))
	case []complex128:
		hemvC(n, d, a.Off, a.RS, a.CS, any(x).([]complex128), any(y).([]complex128))
	case []complex64:
		hemvC(n, d, a.Off, a.RS, a.CS, any(x).([]complex64), any(y).([]complex64))
	}
}

func hemvR[F float32 | float64](n int, a []F, off, rs, cs int, x, y []F) {
	x, y = x[:n], y[:n]
	clear(y)
	switch {
	case rs == 1:
		// Four columns at a time below their diagonal block: each row i
		// adds a[i, j:j+4]·x[j:j+4] to y[i] and a[i, j+q]·x[i] to four
		// separate dot products, so the dependency chains are four.
		j := 0
		for ; j+4 <= n; j += 4 {
			o0 := off + j*cs
			o1, o2, o3 := o0+cs, o0+2*cs, o0+3*cs
			x0, x1, x2, x3 := x[j], x[j+1], x[j+2], x[j+3]
			// The 4×4 diagonal block.
			for q := 0; q < 4; q++ {
				oq := o0 + q*cs
				jq := j + q
				y[jq] += a[oq+jq] * x[jq]
				for i := jq + 1; i < j+4; i++ {
					y[i] += a[oq+i] * x[jq]
					y[jq] += a[oq+i] * x[i]
				}
			}
			ys, xs := y[j+4:], x[j+4:]
			m := len(ys)
			c0, c1, c2, c3 := a[o0+j+4:][:m], a[o1+j+4:][:m], a[o2+j+4:][:m], a[o3+j+4:][:m]
			xs = xs[:m]
			if af, isF64 := any(c0).([]float64); isF64 {
				cols := [4][]float64{af, any(c1).([]float64), any(c2).([]float64), any(c3).([]float64)}
				xq := [4]float64{float64(x0), float64(x1), float64(x2), float64(x3)}
				if s, ok := axpyDot4F64(&cols, &xq, any(xs).([]float64), any(ys).([]float64)); ok {
					y[j] += F(s[0])
					y[j+1] += F(s[1])
					y[j+2] += F(s[2])
					y[j+3] += F(s[3])
					continue
				}
			}
			var s0, s1, s2, s3 F
			for k := range ys {
				xi := xs[k]
				a0, a1, a2, a3 := c0[k], c1[k], c2[k], c3[k]
				ys[k] += a0*x0 + a1*x1 + a2*x2 + a3*x3
				s0 += a0 * xi
				s1 += a1 * xi
				s2 += a2 * xi
				s3 += a3 * xi
			}
			y[j] += s0
			y[j+1] += s1
			y[j+2] += s2
			y[j+3] += s3
		}
		for ; j < n; j++ {
			o := off + j*cs
			col := a[o+j+1 : o+n]
			xs, ys := x[j+1:], y[j+1:]
			xs, ys = xs[:len(col)], ys[:len(col)]
			xj := x[j]
			s := a[o+j] * xj
			for k, c := range col {
				ys[k] += c * xj
				s += c * xs[k]
			}
			y[j] += s
		}
	case cs == 1:
		// Row i: y[i] += a[i, :i]·x[:i], y[:i] += a[i, :i]ᵀ·x[i].
		for i := 0; i < n; i++ {
			o := off + i*rs
			row := a[o : o+i]
			xs, ys := x[:len(row)], y[:len(row)]
			xi := x[i]
			s := a[o+i] * xi
			for k, c := range row {
				s += c * xs[k]
				ys[k] += c * xi
			}
			y[i] += s
		}
	default:
		for j := 0; j < n; j++ {
			o := off + j*cs
			xj := x[j]
			s := a[o+j*rs] * xj
			for i := j + 1; i < n; i++ {
				c := a[o+i*rs]
				y[i] += c * xj
				s += c * x[i]
			}
			y[j] += s
		}
	}
}

func hemvC[C complex64 | complex128](n int, a []C, off, rs, cs int, x, y []C) {
	x, y = x[:n], y[:n]
	clear(y)
	cj := func(c C) C {
		z := complex128(c)
		return C(complex(real(z), -imag(z)))
	}
	re := func(c C) C { return C(complex(real(complex128(c)), 0)) }
	switch {
	case rs == 1:
		// Four columns at a time below their diagonal block where the
		// AVX-512 loops run (complex128), then two.
		j := 0
		if ac, isC128 := any(a).([]complex128); isC128 && gemvAVX512 {
			xc, yc := any(x).([]complex128), any(y).([]complex128)
			for ; j+4 <= n && n-j-4 >= 4; j += 4 {
				o0 := off + j*cs
				// The 4×4 diagonal block.
				for q := 0; q < 4; q++ {
					oq := o0 + q*cs
					jq := j + q
					yc[jq] += complex(real(ac[oq+jq]), 0) * xc[jq]
					for i := jq + 1; i < j+4; i++ {
						u := ac[oq+i]
						yc[i] += u * xc[jq]
						yc[jq] += complex(real(u), -imag(u)) * xc[i]
					}
				}
				m := n - j - 4
				cols := [4][]complex128{ac[o0+j+4:][:m], ac[o0+cs+j+4:][:m], ac[o0+2*cs+j+4:][:m], ac[o0+3*cs+j+4:][:m]}
				xq := [4]complex128{xc[j], xc[j+1], xc[j+2], xc[j+3]}
				s, _ := axpyDot4C128(&cols, &xq, xc[j+4:][:m], yc[j+4:][:m])
				for q, v := range s {
					yc[j+q] += v
				}
			}
		}
		for ; j+2 <= n; j += 2 {
			o0 := off + j*cs
			o1 := o0 + cs
			x0, x1 := x[j], x[j+1]
			a10 := a[o0+j+1]
			y[j] += re(a[o0+j])*x0 + cj(a10)*x1
			y[j+1] += a10*x0 + re(a[o1+j+1])*x1
			ys, xs := y[j+2:], x[j+2:]
			m := len(ys)
			c0, c1 := a[o0+j+2:][:m], a[o1+j+2:][:m]
			xs = xs[:m]
			var s0, s1 C
			for k := range ys {
				xi := xs[k]
				a0, a1 := c0[k], c1[k]
				ys[k] += a0*x0 + a1*x1
				s0 += cj(a0) * xi
				s1 += cj(a1) * xi
			}
			y[j] += s0
			y[j+1] += s1
		}
		if j < n {
			y[j] += re(a[off+j*cs+j]) * x[j]
		}
	case cs == 1:
		for i := 0; i < n; i++ {
			o := off + i*rs
			row := a[o : o+i]
			xs, ys := x[:len(row)], y[:len(row)]
			xi := x[i]
			s := re(a[o+i]) * xi
			for k, c := range row {
				s += c * xs[k]
				ys[k] += cj(c) * xi
			}
			y[i] += s
		}
	default:
		for j := 0; j < n; j++ {
			o := off + j*cs
			xj := x[j]
			s := re(a[o+j*rs]) * xj
			for i := j + 1; i < n; i++ {
				c := a[o+i*rs]
				y[i] += c * xj
				s += cj(c) * x[i]
			}
			y[j] += s
		}
	}
}

// mvSub sets y[0:q] −= A·t1 + B·t2 for the q×c column-major blocks A and
// B whose column p starts at a[off+p*ld] and b[off+p*ld].
func mvSub[T Scalar](q, c int, a, b []T, off, ld int, t1, t2, y []T) {
	switch ys := any(y).(type) {
	case []float64:
		mvSubR(q, c, any(a).([]float64), off, ld, any(t1).([]float64), ys)
		mvSubR(q, c, any(b).([]float64), off, ld, any(t2).([]float64), ys)
		return
	case []float32:
		mvSubR(q, c, any(a).([]float32), off, ld, any(t1).([]float32), ys)
		mvSubR(q, c, any(b).([]float32), off, ld, any(t2).([]float32), ys)
	case []complex128:
		mvSubR(q, c, any(a).([]complex128), off, ld, any(t1).([]complex128), ys)
		mvSubR(q, c, any(b).([]complex128), off, ld, any(t2).([]complex128), ys)
	case []complex64:
		mvSubR(q, c, any(a).([]complex64), off, ld, any(t1).([]complex64), ys)
		mvSubR(q, c, any(b).([]complex64), off, ld, any(t2).([]complex64), ys)
	}
}

// mvSubR is mvSub's product with one block, four columns per pass over y.
func mvSubR[F Scalar](q, c int, a []F, off, ld int, t, y []F) {
	y = y[:q]
	p := 0
	for ; p+4 <= c; p += 4 {
		o := off + p*ld
		c0, c1, c2, c3 := a[o:][:q], a[o+ld:][:q], a[o+2*ld:][:q], a[o+3*ld:][:q]
		t0, t1, t2, t3 := t[p], t[p+1], t[p+2], t[p+3]
		for k := range y {
			y[k] -= c0[k]*t0 + c1[k]*t1 + c2[k]*t2 + c3[k]*t3
		}
	}
	for ; p < c; p++ {
		col := a[off+p*ld:][:q]
		tp := t[p]
		for k := range y {
			y[k] -= col[k] * tp
		}
	}
}

// mvConjT sets t[p] = A[:, p]ᴴ·v for the q×c column-major block A whose
// column p starts at a[off+p*ld].
func mvConjT[T Scalar](q, c int, a []T, off, ld int, v, t []T) {
	switch ts := any(t).(type) {
	case []float64:
		mvTR(q, c, any(a).([]float64), off, ld, any(v).([]float64), ts)
		return
	case []float32:
		mvTR(q, c, any(a).([]float32), off, ld, any(v).([]float32), ts)
	case []complex128:
		mvTC(q, c, any(a).([]complex128), off, ld, any(v).([]complex128), ts)
	case []complex64:
		mvTC(q, c, any(a).([]complex64), off, ld, any(v).([]complex64), ts)
	}
}

// mvTC is mvConjT for complex types, two columns per pass over v.
func mvTC[C complex64 | complex128](q, c int, a []C, off, ld int, v, t []C) {
	v = v[:q]
	cj := func(c C) C {
		z := complex128(c)
		return C(complex(real(z), -imag(z)))
	}
	p := 0
	for ; p+2 <= c; p += 2 {
		o := off + p*ld
		c0, c1 := a[o:][:q], a[o+ld:][:q]
		var s0, s1 C
		for k, x := range v {
			s0 += cj(c0[k]) * x
			s1 += cj(c1[k]) * x
		}
		t[p], t[p+1] = s0, s1
	}
	if p < c {
		col := a[off+p*ld:][:q]
		var s C
		for k, x := range v {
			s += cj(col[k]) * x
		}
		t[p] = s
	}
}

// mvTR is mvConjT for real types, four columns (four dot products) per
// pass over v.
func mvTR[F float32 | float64](q, c int, a []F, off, ld int, v, t []F) {
	v = v[:q]
	p := 0
	for ; p+4 <= c; p += 4 {
		o := off + p*ld
		c0, c1, c2, c3 := a[o:][:q], a[o+ld:][:q], a[o+2*ld:][:q], a[o+3*ld:][:q]
		var s0, s1, s2, s3 F
		for k, x := range v {
			s0 += c0[k] * x
			s1 += c1[k] * x
			s2 += c2[k] * x
			s3 += c3[k] * x
		}
		t[p], t[p+1], t[p+2], t[p+3] = s0, s1, s2, s3
	}
	for ; p < c; p++ {
		col := a[off+p*ld:][:q]
		var s F
		for k, x := range v {
			s += col[k] * x
		}
		t[p] = s
	}
}
