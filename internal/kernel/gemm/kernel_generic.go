package gemm

// kernGeneric4x4 is the pure-Go 4×4 micro-kernel (see [microKernel] for the
// contract). Sixteen scalar accumulators stay in registers on amd64.
func kernGeneric4x4[T Scalar](kc int, a []T, lda int, b []T, ldbp, ldbj int, c []T, ldc int, alpha, beta T, loadC bool) {
	var c00, c10, c20, c30 T
	var c01, c11, c21, c31 T
	var c02, c12, c22, c32 T
	var c03, c13, c23, c33 T
	for p := 0; p < kc; p++ {
		ap := a[p*lda : p*lda+4 : p*lda+4]
		o := p * ldbp
		a0, a1, a2, a3 := ap[0], ap[1], ap[2], ap[3]
		b0, b1, b2, b3 := b[o], b[o+ldbj], b[o+2*ldbj], b[o+3*ldbj]
		c00 += a0 * b0
		c10 += a1 * b0
		c20 += a2 * b0
		c30 += a3 * b0
		c01 += a0 * b1
		c11 += a1 * b1
		c21 += a2 * b1
		c31 += a3 * b1
		c02 += a0 * b2
		c12 += a1 * b2
		c22 += a2 * b2
		c32 += a3 * b2
		c03 += a0 * b3
		c13 += a1 * b3
		c23 += a2 * b3
		c33 += a3 * b3
	}
	store4(c[0:4], c00, c10, c20, c30, alpha, beta, loadC)
	store4(c[ldc:ldc+4], c01, c11, c21, c31, alpha, beta, loadC)
	store4(c[2*ldc:2*ldc+4], c02, c12, c22, c32, alpha, beta, loadC)
	store4(c[3*ldc:3*ldc+4], c03, c13, c23, c33, alpha, beta, loadC)
}

func store4[T Scalar](c []T, v0, v1, v2, v3, alpha, beta T, loadC bool) {
	c = c[:4]
	c[0] = combine(alpha, v0, beta, c[0], loadC)
	c[1] = combine(alpha, v1, beta, c[1], loadC)
	c[2] = combine(alpha, v2, beta, c[2], loadC)
	c[3] = combine(alpha, v3, beta, c[3], loadC)
}

// kernGeneric4x2 is the pure-Go 4×2 micro-kernel used for complex types,
// whose eight complex accumulators (sixteen reals) fill the register file.
func kernGeneric4x2[T Scalar](kc int, a []T, lda int, b []T, ldbp, ldbj int, c []T, ldc int, alpha, beta T, loadC bool) {
	var c00, c10, c20, c30 T
	var c01, c11, c21, c31 T
	for p := 0; p < kc; p++ {
		ap := a[p*lda : p*lda+4 : p*lda+4]
		a0, a1, a2, a3 := ap[0], ap[1], ap[2], ap[3]
		b0, b1 := b[p*ldbp], b[p*ldbp+ldbj]
		c00 += a0 * b0
		c10 += a1 * b0
		c20 += a2 * b0
		c30 += a3 * b0
		c01 += a0 * b1
		c11 += a1 * b1
		c21 += a2 * b1
		c31 += a3 * b1
	}
	store4(c[0:4], c00, c10, c20, c30, alpha, beta, loadC)
	store4(c[ldc:ldc+4], c01, c11, c21, c31, alpha, beta, loadC)
}
