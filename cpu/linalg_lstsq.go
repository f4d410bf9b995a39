package cpu

import (
	"math"

	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
	"github.com/tenferro-go/tenferro/internal/kernel/lapack"
	"github.com/tenferro-go/tenferro/internal/kernel/strided"
)

// Lstsq implements backend.Linalg: a and b are checked, every item is
// solved into scratch by lapack.Gelss, then the solutions are copied out.
func (k *numeric[T]) Lstsq(x *backend.View[T], rank *backend.View[int64], s any, a, b *backend.View[T], rcond float64) error {
	var so realOut
	if s != nil {
		var err error
		if so, err = realDst("Lstsq", "s", s); err != nil {
			return err
		}
	}
	if err := k.checkFinite(a); err != nil {
		return err
	}
	if err := k.checkFinite(b); err != nil {
		return err
	}
	e, sc := k.e, &k.sc().lin
	m, n, nrhs := a.Shape[0], a.Shape[1], x.Shape[1]
	mn, ld := min(m, n), max(m, n, 1)
	bt := newBatch(x.Shape[2:], sc.idx[:])
	items := bt.count()
	per := ld * nrhs
	buf, sv := sc.spectral(per*items+lapack.GelssWork(m, n, nrhs), mn*items+items)
	work := buf[per*items:]
	ranks := sv[mn*items:]
	for q := range items {
		xm := compact(buf, q*per, ld)
		copyMat(xm, mat(b, itemOff(b, bt.idx)), m, nrhs, full)
		r, info := lapack.Gelss(e.lapackWorkspace(), e.runner, m, n, nrhs, mat(a, itemOff(a, bt.idx)), xm, sv[q*mn:(q+1)*mn], rcond, work)
		if info != 0 {
			return &backend.LinalgFailure{Reason: backend.NoConvergence, Item: bt.item(a.Shape[2:]), Index: info}
		}
		ranks[q] = float64(r)
		bt.next()
	}
	for q := range items {
		copyMat(mat(x, itemOff(x, bt.idx)), compact(buf, q*per, ld), n, nrhs, full)
		if rank != nil {
			rank.Data[batchOff(rank.Shape, rank.Strides, rank.Off, bt.idx)] = int64(ranks[q])
		}
		if s != nil {
			so.setVec(bt.idx, sv[q*mn:(q+1)*mn])
		}
		bt.next()
	}
	return nil
}

// Pinv implements backend.Linalg: Lstsq with b the identity.
func (k *numeric[T]) Pinv(dst, a *backend.View[T], rcond float64) error {
	if err := k.checkFinite(a); err != nil {
		return err
	}
	e, sc := k.e, &k.sc().lin
	m, n := a.Shape[0], a.Shape[1]
	mn, ld := min(m, n), max(m, n, 1)
	bt := newBatch(dst.Shape[2:], sc.idx[:])
	items := bt.count()
	per := ld * m
	buf, sv := sc.spectral(per*items+lapack.GelssWork(m, n, m), mn)
	work := buf[per*items:]
	for q := range items {
		xm := compact(buf, q*per, ld)
		for j := range m {
			for i := range ld {
				var v T
				if i == j {
					v = 1
				}
				*at(xm, i, j) = v
			}
		}
		if _, info := lapack.Gelss(e.lapackWorkspace(), e.runner, m, n, m, mat(a, itemOff(a, bt.idx)), xm, sv, rcond, work); info != 0 {
			return &backend.LinalgFailure{Reason: backend.NoConvergence, Item: q, Index: info}
		}
		bt.next()
	}
	for q := range items {
		copyMat(mat(dst, itemOff(dst, bt.idx)), compact(buf, q*per, ld), n, m, full)
		bt.next()
	}
	return nil
}

// singularValues sets sv to the singular values of the m×n src, computed
// in scratch f; it returns the SVD's info.
func (k *numeric[T]) singularValues(src, f gemm.Mat[T], m, n int, sv []float64) int {
	copyMat(f, src, m, n, full)
	return lapack.Gesvd(k.e.lapackWorkspace(), k.e.runner, lapack.SVDValues, m, n, f, sv, gemm.Mat[T]{}, gemm.Mat[T]{})
}

// MatrixNorm implements backend.Linalg.
func (k *numeric[T]) MatrixNorm(dst any, a *backend.View[T], ord backend.NormOrd) error {
	do, err := realDst("MatrixNorm", "dst", dst)
	if err != nil {
		return err
	}
	sc := &k.sc().lin
	m, n := a.Shape[0], a.Shape[1]
	mn := min(m, n)
	bt := newBatch(a.Shape[2:], sc.idx[:])
	items := bt.count()
	spectral := ord == backend.NormTwo || ord == backend.NormNegTwo || ord == backend.NormNuclear
	var vals []float64
	var f gemm.Mat[T]
	if spectral {
		var buf []T
		buf, vals = sc.spectral(m*n, mn+items)
		f = compact(buf, 0, max(m, 1))
	} else {
		_, vals = sc.spectral(0, items)
	}
	out := vals[len(vals)-items:]
	for q := range items {
		am := mat(a, itemOff(a, bt.idx))
		if !spectral {
			out[q] = entryNorm(am, m, n, ord)
			bt.next()
			continue
		}
		if hasNaN(am, m, n) {
			out[q] = math.NaN()
			bt.next()
			continue
		}
		if info := k.singularValues(am, f, m, n, vals[:mn]); info != 0 {
			return &backend.LinalgFailure{Reason: backend.NoConvergence, Item: q, Index: info}
		}
		out[q] = spectralNorm(vals[:mn], ord)
		bt.next()
	}
	do.setBatch(&bt, out)
	return nil
}

// spectralNorm is the norm ord (2, −2 or nuclear) from the singular values.
func spectralNorm(s []float64, ord backend.NormOrd) float64 {
	switch {
	case len(s) == 0:
		return 0
	case ord == backend.NormTwo:
		return s[0]
	case ord == backend.NormNegTwo:
		return s[len(s)-1]
	}
	t := 0.0
	for _, v := range s {
		t += v
	}
	return t
}

// hasNaN reports whether the m×n a has a NaN or infinite entry.
func hasNaN[T strided.Scalar](a gemm.Mat[T], m, n int) bool {
	return load(gemm.Mat[T]{}, a, m, n, full, 0) != nil
}

// entryNorm is the Frobenius, 1, −1, ∞ or −∞ norm of the m×n a, computed
// in float64 (the Frobenius norm scaled by the largest modulus, so that it
// neither overflows nor underflows). An empty matrix has norm 0.
func entryNorm[T strided.Scalar](a gemm.Mat[T], m, n int, ord backend.NormOrd) float64 {
	if m == 0 || n == 0 {
		return 0
	}
	switch ord {
	case backend.NormFro:
		// One pass of plain squares, in float64, unless they overflow or
		// may have lost digits to underflow (float64 entries only).
		if ss := sumSquares(a, m, n); ss != ss || ss > 0x1p-968 && ss < math.Inf(1) {
			return math.Sqrt(ss)
		}
		big := 0.0
		for j := range n {
			for i := range m {
				big = max(big, modulus(*at(a, i, j)))
			}
		}
		if big == 0 || math.IsInf(big, 0) || big != big {
			return big
		}
		s := 0.0
		for j := range n {
			for i := range m {
				v := modulus(*at(a, i, j)) / big
				s += v * v
			}
		}
		return big * math.Sqrt(s)
	case backend.NormOne, backend.NormNegOne:
		best := 0.0
		for j := range n {
			c := 0.0
			for i := range m {
				c += modulus(*at(a, i, j))
			}
			best = pick(best, c, j, ord == backend.NormOne)
		}
		return best
	}
	best := 0.0
	for i := range m {
		r := 0.0
		for j := range n {
			r += modulus(*at(a, i, j))
		}
		best = pick(best, r, i, ord == backend.NormInf)
	}
	return best
}

// sumSquares is Σ|aᵢⱼ|² of the m×n a in float64, one typed loop per
// column.
func sumSquares[T strided.Scalar](a gemm.Mat[T], m, n int) float64 {
	switch d := any(a.Data).(type) {
	case []float32:
		return sumSquaresReal(d, a.Off, a.RS, a.CS, m, n)
	case []float64:
		return sumSquaresReal(d, a.Off, a.RS, a.CS, m, n)
	case []complex64:
		return sumSquaresComplex(d, a.Off, a.RS, a.CS, m, n)
	case []complex128:
		return sumSquaresComplex(d, a.Off, a.RS, a.CS, m, n)
	}
	return 0
}

func sumSquaresReal[F float32 | float64](d []F, off, rs, cs, m, n int) float64 {
	s := 0.0
	for j := range n {
		o := off + j*cs
		if rs == 1 {
			for _, v := range d[o : o+m] {
				s += float64(v) * float64(v)
			}
			continue
		}
		for i := range m {
			v := float64(d[o+i*rs])
			s += v * v
		}
	}
	return s
}

func sumSquaresComplex[C complex64 | complex128](d []C, off, rs, cs, m, n int) float64 {
	s := 0.0
	for j := range n {
		o := off + j*cs
		for i := range m {
			v := complex128(d[o+i*rs])
			s += real(v)*real(v) + imag(v)*imag(v)
		}
	}
	return s
}

// pick folds v, the j-th of a sequence, into the running maximum (or
// minimum) best; NaN propagates.
func pick(best, v float64, j int, maximum bool) float64 {
	switch {
	case j == 0:
		return v
	case maximum:
		return max(best, v)
	}
	return min(best, v)
}

// modulus is |v|.
func modulus[T strided.Scalar](v T) float64 {
	switch x := any(v).(type) {
	case float32:
		return math.Abs(float64(x))
	case float64:
		return math.Abs(x)
	case complex64:
		return math.Hypot(float64(real(x)), float64(imag(x)))
	case complex128:
		return math.Hypot(real(x), imag(x))
	}
	return 0
}

// Cond implements backend.Linalg.
func (k *numeric[T]) Cond(dst any, a *backend.View[T], ord backend.NormOrd) error {
	do, err := realDst("Cond", "dst", dst)
	if err != nil {
		return err
	}
	e, sc := k.e, &k.sc().lin
	m, n := a.Shape[0], a.Shape[1]
	mn := min(m, n)
	bt := newBatch(a.Shape[2:], sc.idx[:])
	items := bt.count()
	buf, vals := sc.spectral(2*m*n, mn+items)
	_, piv := sc.factors(2*m*n, n)
	out := vals[mn:]
	f, g := compact(buf, 0, max(m, 1)), compact(buf, m*n, max(m, 1))
	for q := range items {
		am := mat(a, itemOff(a, bt.idx))
		switch {
		case hasNaN(am, m, n):
			out[q] = math.NaN()
		case ord == backend.NormTwo || ord == backend.NormNegTwo:
			if info := k.singularValues(am, f, m, n, vals[:mn]); info != 0 {
				return &backend.LinalgFailure{Reason: backend.NoConvergence, Item: q, Index: info}
			}
			switch {
			case mn == 0:
				out[q] = 0
			case ord == backend.NormTwo:
				out[q] = vals[0] / vals[mn-1]
			default:
				out[q] = vals[mn-1] / vals[0]
			}
		default:
			copyMat(f, am, n, n, full)
			if lapack.Getrf(e.lapackWorkspace(), e.runner, n, n, f, piv) != 0 {
				out[q] = math.Inf(1)
				break
			}
			lapack.Getri(e.lapackWorkspace(), e.runner, n, f, piv, g)
			out[q] = entryNorm(am, n, n, ord) * entryNorm(g, n, n, ord)
		}
		bt.next()
	}
	do.setBatch(&bt, out)
	return nil
}

// MatrixRank implements backend.Linalg.
func (k *numeric[T]) MatrixRank(dst *backend.View[int64], a *backend.View[T], atol, rtol float64) error {
	if err := k.checkFinite(a); err != nil {
		return err
	}
	sc := &k.sc().lin
	m, n := a.Shape[0], a.Shape[1]
	mn := min(m, n)
	bt := newBatch(a.Shape[2:], sc.idx[:])
	items := bt.count()
	buf, vals := sc.spectral(m*n, mn+items)
	out := vals[mn:]
	f := compact(buf, 0, max(m, 1))
	for q := range items {
		if info := k.singularValues(mat(a, itemOff(a, bt.idx)), f, m, n, vals[:mn]); info != 0 {
			return &backend.LinalgFailure{Reason: backend.NoConvergence, Item: q, Index: info}
		}
		r := 0
		if mn > 0 {
			tol := max(atol, rtol*vals[0])
			for r < mn && vals[r] > tol {
				r++
			}
		}
		out[q] = float64(r)
		bt.next()
	}
	for q := range items {
		dst.Data[batchOff(dst.Shape, dst.Strides, dst.Off, bt.idx)] = int64(out[q])
		bt.next()
	}
	return nil
}

// Expm implements backend.Linalg: every item is checked, then
// exponentiated into dst.
func (k *numeric[T]) Expm(dst, a *backend.View[T]) error {
	if err := k.checkFinite(a); err != nil {
		return err
	}
	e, sc := k.e, &k.sc().lin
	n := a.Shape[0]
	bt := newBatch(dst.Shape[2:], sc.idx[:])
	for range bt.count() {
		lapack.Expm(e.lapackWorkspace(), e.runner, n, mat(a, itemOff(a, bt.idx)), mat(dst, itemOff(dst, bt.idx)))
		bt.next()
	}
	return nil
}
