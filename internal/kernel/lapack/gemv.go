package lapack

// Column-major matrix-vector kernels for the bidiagonal reduction, whose
// matrix-vector products over the trailing matrix are half its work: four
// columns per pass, so that y (or x) is read once per four columns and
// the four products run as independent chains. They serve gemvN and gemvC
// for float64 and complex128 when A's columns and the long vector are
// contiguous.

// gemvNColF64 computes y[yo:yo+m] += α·A·x for the column-major m×n A at
// a[off:], columns cs apart.
func gemvNColF64(m, n int, alpha float64, a []float64, off, cs int, x []float64, xo, xi int, y []float64) {
	y = y[:m]
	j := 0
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
