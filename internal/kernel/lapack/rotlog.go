package lapack

import "github.com/tenferro-go/tenferro/internal/kernel/gemm"

// rotLog records the rotations of successive sweeps in buf and applies
// them to vt's rows and u's columns together, a panel of rows of u (of
// columns of vt) at a time, so that each panel stays in cache while all
// the recorded sweeps pass over it. The rows of u (and the columns of vt)
// are transformed independently, so the order of the sweeps is kept per
// row and the result is the same as applying each sweep at once. A record
// is j0, the rotation count k, the direction, then the k cosines and sines
// for vt and the k cosines and sines for u.
type rotLog[T Scalar] struct {
	buf       []float64
	used      int
	ncvt, nru int
	rowsVT, u gemm.Mat[T] // vt as its transposed view: rows of vt are columns
}

// add records the rotations (cv, sv) on the row pairs (j0+i, j0+i+1) of
// vt and (cu, su) on the column pairs of u, in order i = 0, 1, … when
// forward and in reverse otherwise.
func (l *rotLog[T]) add(forward bool, j0 int, cv, sv, cu, su []float64) {
	k := len(cv)
	need := 3 + 4*k
	if l.used+need > len(l.buf) {
		l.flush()
		if need > len(l.buf) {
			if l.ncvt > 0 {
				Lasr(forward, l.ncvt, l.rowsVT, j0, cv, sv)
			}
			if l.nru > 0 {
				Lasr(forward, l.nru, l.u, j0, cu, su)
			}
			return
		}
	}
	b := l.buf[l.used : l.used+need]
	b[0], b[1], b[2] = float64(j0), float64(k), 0
	if forward {
		b[2] = 1
	}
	copy(b[3:], cv)
	copy(b[3+k:], sv)
	copy(b[3+2*k:], cu)
	copy(b[3+3*k:], su)
	l.used += need
}

// flush applies and forgets the recorded rotations.
func (l *rotLog[T]) flush() {
	if l.used == 0 {
		return
	}
	l.apply(l.rowsVT, l.ncvt, 0)
	l.apply(l.u, l.nru, 2)
	l.used = 0
}

// rotPanelBytes is the size of the panel of a that rotLog.apply keeps in
// cache while the recorded sweeps pass over it (an L2-sized block).
const rotPanelBytes = 1 << 18

// apply runs the recorded rotations (the pair at position which: 0 for
// vt, 2 for u) over the rows-row matrix a. When a's rows are contiguous
// (CS = 1) each row in turn passes through all recorded sweeps, a sweep
// being one pass along the row with the shared element carried in a
// register; otherwise a panel of rows at a time, rotating column pairs.
func (l *rotLog[T]) apply(a gemm.Mat[T], rows, which int) {
	if rows <= 0 {
		return
	}
	if a.CS == 1 {
		r := 0
		if _, ok := any(a.Data).([]float64); ok {
			// Four rows at a time: four independent chains hide the
			// latency of the carried element.
			for ; r+4 <= rows; r += 4 {
				var x [4][]float64
				for q := range x {
					x[q] = any(a.Data[a.Off+(r+q)*a.RS:]).([]float64)
				}
				for o := 0; o < l.used; {
					j0, k, fw := int(l.buf[o]), int(l.buf[o+1]), l.buf[o+2] != 0
					c := l.buf[o+3+which*k : o+3+(which+1)*k]
					s := l.buf[o+3+(which+1)*k : o+3+(which+2)*k]
					rotChain4(fw, x[0][j0:j0+k+1], x[1][j0:j0+k+1], x[2][j0:j0+k+1], x[3][j0:j0+k+1], c, s)
					o += 3 + 4*k
				}
			}
		}
		for ; r < rows; r++ {
			row := a.Data[a.Off+r*a.RS:]
			for o := 0; o < l.used; {
				j0, k, fw := int(l.buf[o]), int(l.buf[o+1]), l.buf[o+2] != 0
				c := l.buf[o+3+which*k : o+3+(which+1)*k]
				s := l.buf[o+3+(which+1)*k : o+3+(which+2)*k]
				rotChain(fw, row[j0:j0+k+1], c, s)
				o += 3 + 4*k
			}
		}
		return
	}
	ncols := 0
	for o := 0; o < l.used; o += 3 + 4*int(l.buf[o+1]) {
		ncols = max(ncols, int(l.buf[o])+int(l.buf[o+1])+1)
	}
	p := max(4, rotPanelBytes/(max(ncols, 1)*elemSize[T]()))
	for r0 := 0; r0 < rows; r0 += p {
		pr := min(p, rows-r0)
		sub := shift(a, r0, 0)
		for o := 0; o < l.used; {
			j0, k, fw := int(l.buf[o]), int(l.buf[o+1]), l.buf[o+2] != 0
			c := l.buf[o+3+which*k : o+3+(which+1)*k]
			s := l.buf[o+3+(which+1)*k : o+3+(which+2)*k]
			Lasr(fw, pr, sub, j0, c, s)
			o += 3 + 4*k
		}
	}
}

// rotChain applies the rotations (c[i], s[i]) to the element pairs
// (x[i], x[i+1]) of the row x (len(c)+1 elements), in order i = 0, 1, …
// when forward and in reverse otherwise, as [Rot] does to column pairs:
// x[i] ← c·x[i] + s·x[i+1], x[i+1] ← c·x[i+1] − s·x[i].
func rotChain[T Scalar](forward bool, x []T, c, s []float64) {
	switch p := any(x).(type) {
	case []float64:
		rotChainR(forward, p, c, s)
	case []complex128:
		rotChainC(forward, p, c, s)
	case []float32:
		rotChainR(forward, p, c, s)
	case []complex64:
		rotChainC(forward, p, c, s)
	}
}

func rotChainR[F float32 | float64](forward bool, x []F, c, s []float64) {
	k := len(c)
	x = x[:k+1]
	s = s[:k]
	if forward {
		t := x[0]
		for i, ci := range c {
			cc, ss := F(ci), F(s[i])
			b := x[i+1]
			x[i] = cc*t + ss*b
			t = cc*b - ss*t
		}
		x[k] = t
		return
	}
	t := x[k]
	for i := k - 1; i >= 0; i-- {
		cc, ss := F(c[i]), F(s[i])
		a := x[i]
		x[i+1] = cc*t - ss*a
		t = cc*a + ss*t
	}
	x[0] = t
}

// rotChain4 is rotChain on four float64 rows at once.
func rotChain4(forward bool, x0, x1, x2, x3 []float64, c, s []float64) {
	k := len(c)
	x0, x1, x2, x3 = x0[:k+1], x1[:k+1], x2[:k+1], x3[:k+1]
	s = s[:k]
	if forward {
		t0, t1, t2, t3 := x0[0], x1[0], x2[0], x3[0]
		for i, cc := range c {
			ss := s[i]
			b0, b1, b2, b3 := x0[i+1], x1[i+1], x2[i+1], x3[i+1]
			x0[i], x1[i], x2[i], x3[i] = cc*t0+ss*b0, cc*t1+ss*b1, cc*t2+ss*b2, cc*t3+ss*b3
			t0, t1, t2, t3 = cc*b0-ss*t0, cc*b1-ss*t1, cc*b2-ss*t2, cc*b3-ss*t3
		}
		x0[k], x1[k], x2[k], x3[k] = t0, t1, t2, t3
		return
	}
	t0, t1, t2, t3 := x0[k], x1[k], x2[k], x3[k]
	for i := k - 1; i >= 0; i-- {
		cc, ss := c[i], s[i]
		a0, a1, a2, a3 := x0[i], x1[i], x2[i], x3[i]
		x0[i+1], x1[i+1], x2[i+1], x3[i+1] = cc*t0-ss*a0, cc*t1-ss*a1, cc*t2-ss*a2, cc*t3-ss*a3
		t0, t1, t2, t3 = cc*a0+ss*t0, cc*a1+ss*t1, cc*a2+ss*t2, cc*a3+ss*t3
	}
	x0[0], x1[0], x2[0], x3[0] = t0, t1, t2, t3
}

func rotChainC[C complex64 | complex128](forward bool, x []C, c, s []float64) {
	k := len(c)
	x = x[:k+1]
	s = s[:k]
	if forward {
		t := complex128(x[0])
		tr, ti := real(t), imag(t)
		for i, cc := range c {
			ss := s[i]
			b := complex128(x[i+1])
			br, bi := real(b), imag(b)
			x[i] = C(complex(cc*tr+ss*br, cc*ti+ss*bi))
			tr, ti = cc*br-ss*tr, cc*bi-ss*ti
		}
		x[k] = C(complex(tr, ti))
		return
	}
	t := complex128(x[k])
	tr, ti := real(t), imag(t)
	for i := k - 1; i >= 0; i-- {
		cc, ss := c[i], s[i]
		a := complex128(x[i])
		ar, ai := real(a), imag(a)
		x[i+1] = C(complex(cc*tr-ss*ar, cc*ti-ss*ai))
		tr, ti = cc*ar+ss*tr, cc*ai+ss*ti
	}
	x[0] = C(complex(tr, ti))
}

// elemSize returns the size of a T in bytes.
func elemSize[T Scalar]() int {
	var z T
	switch any(z).(type) {
	case float32:
		return 4
	case float64, complex64:
		return 8
	}
	return 16
}
