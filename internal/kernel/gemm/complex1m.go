package gemm

import "unsafe"

// The 1M method runs a complex product on a real micro-kernel. A complex
// product c = a*b is, in real terms,
//
//	[re c]   [re a  -im a] [re b]
//	[im c] = [im a   re a] [im b],
//
// so an m×k complex A expanded into the 2m×2k real matrix of these 2×2
// blocks, times the k×n complex B read as a 2k×n real matrix of (re, im)
// pairs, gives C read as a 2m×n real matrix with re and im interleaved, which
// is exactly how complex column-major storage lies in memory. The real
// kernel therefore does all the work at real speed, with no extra flops:
// a complex multiply-add is 8 real flops either way.
//
// Packed A for an mr-row complex panel holds, for each p, the mr values a_i
// followed by the mr values i*a_i (2*mr complex = 4*mr reals: the two real
// k-columns [re a; im a] and [-im a; re a] interleaved by row). Packed B for
// an nr-column panel holds, for each p, the nr real parts then the nr
// imaginary parts. The real kernel sees kc' = 2*kc and mr' = 2*mr.

// realView reinterprets complex storage as its interleaved real parts.
func realView[C complex64 | complex128, R float32 | float64](x []C) []R {
	if len(x) == 0 {
		return nil
	}
	return unsafe.Slice((*R)(unsafe.Pointer(unsafe.SliceData(x))), 2*len(x))
}

// complex1M builds a complex kernel (mr/2 × nr tile) on the real kernel rk.
// The result takes real alpha and beta only (realScalars); the driver routes
// products with non-real scalars through its temporary tile.
func complex1M[C complex64 | complex128, R float32 | float64](rk kernelInfo[R]) kernelInfo[C] {
	kb := kernelInfo[C]{
		mr: rk.mr / 2, nr: rk.nr,
		kc: rk.kc / 2, mc: rk.mc / 2, nc: rk.nc,
		aScale: 2, realScalars: true,
		packA: packA1M[C],
		packB: packB1M[C, R],
		kern:  kern1M[C, R](rk.kern, rk.mr, rk.nr),
		lanes: rk.lanes / 2,
	}
	if rk.lanes%2 == 0 {
		for _, e := range rk.edge {
			kb.edge = append(kb.edge, kern1M[C, R](e, rk.mr, rk.nr))
		}
	}
	for _, e := range rk.colEdge {
		kb.colEdge = append(kb.colEdge, colEdge[C]{nr: e.nr, kern: kern1M[C, R](e.kern, rk.mr, rk.nr)})
	}
	return kb
}

// kern1M runs the real kernel rk (whose full panels have mr reals per
// k step) on 1M-packed complex panels; an edge kernel reads the first rows
// of each packed step.
func kern1M[C complex64 | complex128, R float32 | float64](rk microKernel[R], mr, nr int) microKernel[C] {
	return func(kc int, a []C, _ int, b []C, _, _ int, c []C, ldc int, alpha, beta C, loadC bool) {
		rk(2*kc, realView[C, R](a), mr, realView[C, R](b), nr, 1, realView[C, R](c), 2*ldc,
			R(real(complex128(alpha))), R(real(complex128(beta))), loadC)
	}
}

// timesI returns i*v, built from parts so that infinities do not turn into
// NaN through multiplication by zero.
func timesI[C complex64 | complex128](v C) C {
	z := complex128(v)
	return C(complex(-imag(z), real(z)))
}

// packA1M packs rows [i0, i0+mc) and columns [p0, p0+kc) of a into
// ceil(mc/mr) panels of 2*mr*kc complex values in the 1M layout.
func packA1M[C complex64 | complex128](dst []C, a Mat[C], i0, mc, p0, kc, mr int) {
	for ir := 0; ir < mc; ir += mr {
		rows := min(mr, mc-ir)
		pan := dst[2*ir*kc : 2*(ir+mr)*kc]
		base := a.Off + (i0+ir)*a.RS + p0*a.CS
		for p := 0; p < kc; p++ {
			d := pan[2*p*mr : 2*(p+1)*mr]
			s := base + p*a.CS
			if a.RS == 1 {
				src := a.Data[s : s+rows]
				copy(d, src)
				for i, v := range src {
					d[mr+i] = timesI(v)
				}
			} else {
				for i := 0; i < rows; i++ {
					v := a.Data[s+i*a.RS]
					d[i] = v
					d[mr+i] = timesI(v)
				}
			}
			clear(d[rows:mr])
			clear(d[mr+rows:])
		}
	}
}

// packB1M packs rows [p0, p0+kc) and columns [j0, j0+nc) of b into
// ceil(nc/nr) panels of kc*nr complex values (2*kc*nr reals) in the 1M
// layout.
func packB1M[C complex64 | complex128, R float32 | float64](dst []C, b Mat[C], p0, kc, j0, nc, nr int) {
	dr := realView[C, R](dst)
	for jr := 0; jr < nc; jr += nr {
		cols := min(nr, nc-jr)
		pan := dr[2*jr*kc : 2*(jr+nr)*kc]
		base := b.Off + p0*b.RS + (j0+jr)*b.CS
		for p := 0; p < kc; p++ {
			re := pan[2*p*nr : 2*p*nr+nr]
			im := pan[(2*p+1)*nr : (2*p+2)*nr]
			s := base + p*b.RS
			for j := 0; j < cols; j++ {
				v := complex128(b.Data[s+j*b.CS])
				re[j] = R(real(v))
				im[j] = R(imag(v))
			}
			clear(re[cols:])
			clear(im[cols:])
		}
	}
}

// isRealScalar reports whether v has a zero imaginary part (always true for
// real types).
func isRealScalar[T Scalar](v T) bool {
	switch p := any(&v).(type) {
	case *complex64:
		return imag(*p) == 0
	case *complex128:
		return imag(*p) == 0
	}
	return true
}
