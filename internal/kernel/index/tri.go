package index

import (
	"github.com/tenferro-go/tenferro/internal/kernel/strided"
	"github.com/tenferro-go/tenferro/internal/par"
)

// Tri keeps one triangle of every matrix of src and zeroes the rest:
//
//	lower (upper false, Tril): dst[i, j, ...] = src[i, j, ...] if j - i <= k, else 0
//	upper (upper true, Triu):  dst[i, j, ...] = src[i, j, ...] if j - i >= k, else 0
//
// for every multi-index of shape, the shape of both, whose first two axes
// are the matrix axes (row i, column j) and whose further axes index the
// batch; k = 0 is the main diagonal, k > 0 above it, k < 0 below it (NumPy's
// tril and triu). "0" is T's zero value (false for bool). dst may coincide
// exactly with src (the same Data, offset and strides: in place); otherwise
// it must not overlap src. Tri panics when len(shape) < 2. See the package
// comment for the other preconditions; r may be nil (serial).
func Tri[T strided.Elem](r par.Runner, shape []int, dst, src strided.Ref[T], k int, upper bool) {
	if len(shape) < 2 {
		panic("index.Tri: shape has fewer than two axes")
	}
	if empty(shape) {
		return
	}
	// |j - i| < shape[0] + shape[1]: clamping k keeps the predicate and
	// the interval ends in range.
	lim := shape[0] + shape[1]
	k = min(max(k, -lim), lim)
	var t gridTask[T]
	g := &t.g
	for d, e := range shape {
		switch {
		case d < 2 && e != 1:
			g.add("Tri", e, dst.Strides[d], src.Strides[d], kMat, d, 0)
		case d >= 2 && e != 1:
			g.add("Tri", e, dst.Strides[d], src.Strides[d], kIdent, 0, 0)
		}
	}
	g.dOff += dst.Off
	g.sOff += src.Off
	g.normalize()
	t.op, t.k, t.upper, t.dst, t.src = opTri, k, upper, dst.Data, src.Data
	t.alias = same(dst, src)
	runGrid(r, &t)
}

// triRow writes the row [j0, j1) of Tri: the kept interval [a, e) is
// copied, the rest zeroed.
func (t *gridTask[T]) triRow(g *grid, idx *[strided.MaxRank]int, j0, j1, do, D, so, S int) {
	d := g.inner
	i, j := 0, 0
	if g.mi >= 0 && g.mi != d {
		i = idx[g.mi]
	}
	if g.mj >= 0 && g.mj != d {
		j = idx[g.mj]
	}
	k := t.k
	var a, e int
	switch {
	case d == g.mi: // the row runs along i at column j
		if t.upper {
			a, e = j0, j-k+1 // i <= j - k
		} else {
			a, e = j-k, j1 // i >= j - k
		}
	case d == g.mj: // the row runs along j at row i
		if t.upper {
			a, e = i+k, j1 // j >= i + k
		} else {
			a, e = j0, i+k+1 // j <= i + k
		}
	case t.upper && j-i >= k || !t.upper && j-i <= k:
		a, e = j0, j1
	default:
		a, e = j0, j0
	}
	a = min(max(a, j0), j1)
	e = min(max(e, a), j1)
	var zero T
	fillRow(a-j0, t.dst, do+j0*D, D, zero)
	if !t.alias {
		copyRow(e-a, t.dst, do+a*D, D, t.src, so+a*S, S)
	}
	fillRow(j1-e, t.dst, do+e*D, D, zero)
}

// same reports whether a and b are the same view: the same Data, offset and
// strides.
func same[T strided.Elem](a, b strided.Ref[T]) bool {
	if len(a.Data) == 0 || len(b.Data) == 0 || &a.Data[0] != &b.Data[0] || a.Off != b.Off || len(a.Strides) != len(b.Strides) {
		return false
	}
	for d, s := range a.Strides {
		if b.Strides[d] != s {
			return false
		}
	}
	return true
}
