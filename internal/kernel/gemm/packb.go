package gemm

// packARowMajor packs one mr-row panel of an A block whose columns are
// contiguous (CS = 1), of which the first rows are present: row i of the
// block starts at data[base+i*rs] and holds kc values; pan receives, for
// each p, the mr values of column p, rows past rows zero. Eight rows at a
// time are read side by side, so that each column's eight values are
// stored together instead of one row scattering kc values over the panel.
func packARowMajor[T Scalar](pan, data []T, base, rs, kc, mr, rows int) {
	row := func(i int) []T { return data[base+i*rs : base+i*rs+kc] }
	h := 0
	for ; h+8 <= rows; h += 8 {
		r0, r1, r2, r3 := row(h), row(h+1), row(h+2), row(h+3)
		r4, r5, r6, r7 := row(h+4), row(h+5), row(h+6), row(h+7)
		r1, r2, r3, r4, r5, r6, r7 = r1[:len(r0)], r2[:len(r0)], r3[:len(r0)], r4[:len(r0)], r5[:len(r0)], r6[:len(r0)], r7[:len(r0)]
		for p := range r0 {
			q := pan[mr*p+h : mr*p+h+8 : mr*p+h+8]
			q[0], q[1], q[2], q[3] = r0[p], r1[p], r2[p], r3[p]
			q[4], q[5], q[6], q[7] = r4[p], r5[p], r6[p], r7[p]
		}
	}
	for ; h+4 <= rows; h += 4 {
		r0, r1, r2, r3 := row(h), row(h+1), row(h+2), row(h+3)
		r1, r2, r3 = r1[:len(r0)], r2[:len(r0)], r3[:len(r0)]
		for p := range r0 {
			q := pan[mr*p+h : mr*p+h+4 : mr*p+h+4]
			q[0], q[1], q[2], q[3] = r0[p], r1[p], r2[p], r3[p]
		}
	}
	for ; h < rows; h++ {
		for p, v := range row(h) {
			pan[p*mr+h] = v
		}
	}
	if rows < mr {
		for p := 0; p < kc; p++ {
			clear(pan[p*mr+rows : p*mr+mr])
		}
	}
}

// packBColMajor packs a full nr-column panel of a B block whose rows are
// contiguous (RS = 1): column j of the block starts at data[base+j*cs] and
// holds kc values; pan receives, for each p, the nr values of row p. The
// common tile widths are unrolled so the copies run without bounds checks.
func packBColMajor[T Scalar](pan, data []T, base, cs, kc, nr int) {
	col := func(j int) []T { return data[base+j*cs : base+j*cs+kc] }
	switch nr {
	case 8:
		c0, c1, c2, c3 := col(0), col(1), col(2), col(3)
		c4, c5, c6, c7 := col(4), col(5), col(6), col(7)
		c1, c2, c3, c4, c5, c6, c7 = c1[:len(c0)], c2[:len(c0)], c3[:len(c0)], c4[:len(c0)], c5[:len(c0)], c6[:len(c0)], c7[:len(c0)]
		for p := range c0 {
			q := pan[8*p : 8*p+8 : 8*p+8]
			q[0], q[1], q[2], q[3] = c0[p], c1[p], c2[p], c3[p]
			q[4], q[5], q[6], q[7] = c4[p], c5[p], c6[p], c7[p]
		}
	case 6:
		c0, c1, c2, c3, c4, c5 := col(0), col(1), col(2), col(3), col(4), col(5)
		c1, c2, c3, c4, c5 = c1[:len(c0)], c2[:len(c0)], c3[:len(c0)], c4[:len(c0)], c5[:len(c0)]
		for p := range c0 {
			q := pan[6*p : 6*p+6 : 6*p+6]
			q[0], q[1], q[2], q[3], q[4], q[5] = c0[p], c1[p], c2[p], c3[p], c4[p], c5[p]
		}
	case 14:
		// Two passes of seven columns keep the live slices in registers.
		for h := 0; h < 14; h += 7 {
			c0, c1, c2, c3 := col(h), col(h+1), col(h+2), col(h+3)
			c4, c5, c6 := col(h+4), col(h+5), col(h+6)
			c1, c2, c3, c4, c5, c6 = c1[:len(c0)], c2[:len(c0)], c3[:len(c0)], c4[:len(c0)], c5[:len(c0)], c6[:len(c0)]
			for p := range c0 {
				q := pan[14*p+h : 14*p+h+7 : 14*p+h+7]
				q[0], q[1], q[2], q[3] = c0[p], c1[p], c2[p], c3[p]
				q[4], q[5], q[6] = c4[p], c5[p], c6[p]
			}
		}
	default:
		// The same transposition as a row-major A panel's.
		packARowMajor(pan, data, base, cs, kc, nr, nr)
	}
}
