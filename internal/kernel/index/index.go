// Package index holds the strided kernels of the structural and indexing
// operations: selecting along an axis ([Take], [Gather]), accumulating into
// selected places ([ScatterAdd]), selecting by a boolean mask
// ([MaskedSelect], [CountTrue]), padding ([Pad]), rotating axes ([Roll]) and
// keeping one triangle of matrices ([Tri]).
//
// # Views
//
// Operands are strided.Ref views with column-major logical indices, as in the
// other kernel packages: the element at multi-index (i_0, ..., i_{k-1}) of a
// view is Data[Off + i_0*Strides[0] + ... + i_{k-1}*Strides[k-1]]. Strides
// may be negative (reversed views) or zero (broadcast inputs). Every kernel
// takes the shape of the index space it walks; each function documents which
// operand that shape belongs to.
//
// # Element types
//
// The copying kernels (Take, Gather, MaskedSelect, Pad, Roll, Tri) serve
// every strided.Elem type: the four arithmetic types, int64 and bool.
// ScatterAdd, which adds, serves the arithmetic types and int64 ([Number]).
//
// # Preconditions
//
// Callers validate; the kernels do not repeat the checks and may panic (or
// silently write wrong values) when a precondition is violated:
//
//   - every Ref has len(shape) strides and stays inside its Data over the
//     shape it is used with (strided.Ref.Validate);
//   - at most strided.MaxRank extents of the walked shape differ from 1;
//   - a destination does not overlap itself (no zero stride along an extent
//     above 1) and does not overlap an input, except where a function allows
//     an exact alias (Tri);
//   - axis arguments lie in [0, len(shape)) and the per-function conditions
//     on extents, pads and shifts hold.
//
// Index values are the exception: Take, Gather and ScatterAdd check every
// index against the extent of the indexed axis and panic on the first one
// outside it, so that a bad index can never address memory outside the
// indexed view. Negative indices are out of range: callers normalise them.
//
// # Threads
//
// Above ParallelBytes of memory traffic the work is split across the
// runner's workers along a dimension of the destination (a nil runner is
// serial), so that no two workers write the same element. Results do not
// depend on the runner: in particular ScatterAdd adds the contributions to
// each destination element in the same order serially and in parallel.
//
// # Allocation
//
// No kernel allocates on a warm call: iteration spaces live in fixed-size
// arrays on the stack, and the task handed to a runner comes from a pool.
package index

import (
	"fmt"
	"sync"

	"github.com/tenferro-go/tenferro/internal/kernel/strided"
	"github.com/tenferro-go/tenferro/internal/par"
)

// ParallelBytes is the memory traffic (bytes read plus written) above which
// the kernels fan out to the runner. These kernels move memory like
// permute.Copy, so they share its crossover (measured by permute's
// BenchmarkThreshold, docs/permute.md): waking parked workers costs about
// 100 microseconds, the time one core needs to move about 1 MiB.
var ParallelBytes = 1 << 20

// Number is the set of element types ScatterAdd adds: the arithmetic types
// and int64.
type Number interface {
	strided.Scalar | int64
}

// shortRow is the extent below which the fastest dimension is not walked as
// the row of a mapped copy when the second one is longer.
const shortRow = 16

// Kinds of the dimensions of a grid: how a destination coordinate i along
// the dimension maps to a source coordinate.
const (
	kIdent uint8 = iota // i
	kTake               // idx[i]
	kPad                // the pad mapping of Mode with before b and source extent s
	kMat                // i, a matrix axis of Tri (b holds 0 or 1: which axis)
)

// grid is the iteration space of the mapped copies (Take, Pad, Roll, Tri):
// dimensions of extent n[d] (at least 2, except a lone dummy dimension of
// extent 1 for rank 0) with destination strides ds[d], source strides
// ss[d] and a mapping kind[d] from destination to source coordinates.
// Dimensions of extent 1 are folded into the base offsets before the grid is
// built. walk visits [lo[d], hi[d]) along every dimension: a row along inner
// for every point of the others.
type grid struct {
	rank, inner int
	dOff, sOff  int
	out         int // folded coordinates outside the source (Constant pads)
	mi, mj      int // Tri: the dimensions of matrix axes 0 and 1, -1 when folded
	n, ds, ss   [strided.MaxRank]int
	b, s        [strided.MaxRank]int
	lo, hi      [strided.MaxRank]int
	kind        [strided.MaxRank]uint8
}

// add appends a dimension. It panics when the grid already has MaxRank.
func (g *grid) add(name string, n, ds, ss int, kind uint8, b, s int) {
	if g.rank == strided.MaxRank {
		panic("index." + name + ": more than strided.MaxRank extents differ from 1")
	}
	d := g.rank
	g.n[d], g.ds[d], g.ss[d], g.kind[d], g.b[d], g.s[d] = n, ds, ss, kind, b, s
	g.rank++
}

func (g *grid) swap(a, c int) {
	g.n[a], g.n[c] = g.n[c], g.n[a]
	g.ds[a], g.ds[c] = g.ds[c], g.ds[a]
	g.ss[a], g.ss[c] = g.ss[c], g.ss[a]
	g.b[a], g.b[c] = g.b[c], g.b[a]
	g.s[a], g.s[c] = g.s[c], g.s[a]
	g.kind[a], g.kind[c] = g.kind[c], g.kind[a]
}

// normalize prepares the grid for walking: identity dimensions along which
// dst runs backwards are reversed (in dst and src at once), dimensions are
// sorted by |dst stride|, runs of identity dimensions contiguous in both
// views are fused, and the row dimension is chosen: dst's fastest, or the
// second fastest when the fastest is short and the second longer. Mapped
// dimensions keep their direction, since their mappings read coordinates.
func (g *grid) normalize() {
	if g.rank == 0 {
		g.add("", 1, 0, 0, kIdent, 0, 0)
	}
	for d := 0; d < g.rank; d++ {
		if g.kind[d] == kIdent && g.ds[d] < 0 {
			m := g.n[d] - 1
			g.dOff += m * g.ds[d]
			g.sOff += m * g.ss[d]
			g.ds[d], g.ss[d] = -g.ds[d], -g.ss[d]
		}
	}
	for i := 1; i < g.rank; i++ {
		for j := i; j > 0 && abs(g.ds[j]) < abs(g.ds[j-1]); j-- {
			g.swap(j, j-1)
		}
	}
	w := 0
	for d := 1; d < g.rank; d++ {
		if g.kind[w] == kIdent && g.kind[d] == kIdent && g.ds[d] == g.ds[w]*g.n[w] && g.ss[d] == g.ss[w]*g.n[w] {
			g.n[w] *= g.n[d]
			continue
		}
		w++
		g.n[w], g.ds[w], g.ss[w], g.kind[w], g.b[w], g.s[w] = g.n[d], g.ds[d], g.ss[d], g.kind[d], g.b[d], g.s[d]
	}
	g.rank = w + 1
	g.inner = 0
	if g.rank >= 2 && g.n[0] < shortRow && g.n[1] > g.n[0] {
		g.inner = 1
	}
	g.mi, g.mj = -1, -1
	for d := 0; d < g.rank; d++ {
		g.lo[d], g.hi[d] = 0, g.n[d]
		if g.kind[d] == kMat {
			if g.b[d] == 0 {
				g.mi = d
			} else {
				g.mj = d
			}
		}
	}
}

// size returns the number of index points.
func (g *grid) size() int {
	n := 1
	for d := 0; d < g.rank; d++ {
		n *= g.n[d]
	}
	return n
}

// splitDim returns the dimension to split across workers: the longest
// dimension other than the row (so that every worker writes whole rows), or
// the row when it is the only one.
func (g *grid) splitDim() int {
	best := -1
	for d := 0; d < g.rank; d++ {
		if d != g.inner && (best < 0 || g.n[d] > g.n[best]) {
			best = d
		}
	}
	if best < 0 {
		return g.inner
	}
	return best
}

// Operations of a gridTask.
const (
	opTake uint8 = iota
	opPad
	opTri
)

// gridTask is a mapped copy over a grid: Take, Pad (and Roll), Tri.
type gridTask[T strided.Elem] struct {
	g        grid
	op       uint8
	mode     Mode
	upper    bool
	alias    bool // Tri in place: the kept part is already there
	k        int
	value    T
	dst, src []T
	idx      []int64
	split    int
}

func (t *gridTask[T]) RunPart(p, parts int) {
	g := t.g
	d := t.split
	lo, hi := par.Split(g.hi[d]-g.lo[d], p, parts)
	if lo == hi {
		return
	}
	g.lo[d], g.hi[d] = g.lo[d]+lo, g.lo[d]+hi
	t.walk(&g)
}

var gridPools [strided.NumKinds]sync.Pool

// runGrid runs t over its normalised grid, serially or split across r.
func runGrid[T strided.Elem](r par.Runner, t *gridTask[T]) {
	split := t.g.splitDim()
	parts := strided.Parts(r, 2*t.g.size()*strided.ElemSize[T](), ParallelBytes, t.g.n[split])
	if parts <= 1 {
		t.walk(&t.g)
		return
	}
	pool := &gridPools[strided.Kind[T]()]
	pt, _ := pool.Get().(*gridTask[T])
	if pt == nil {
		pt = new(gridTask[T])
	}
	*pt = *t
	pt.split = split
	r.Run(pt, parts)
	pt.dst, pt.src, pt.idx = nil, nil, nil
	pool.Put(pt)
}

// walk calls row for every point of the dimensions other than the row one,
// in column-major order, keeping the destination and source offsets and
// the count of coordinates outside the source up to date one dimension at
// a time.
func (t *gridTask[T]) walk(g *grid) {
	var idx, dc, sc, oc [strided.MaxRank]int
	do, so, out := g.dOff, g.sOff, g.out
	for d := 0; d < g.rank; d++ {
		if g.lo[d] >= g.hi[d] {
			return
		}
		if d == g.inner {
			continue
		}
		idx[d] = g.lo[d]
		dc[d], sc[d], oc[d] = t.coord(g, d, idx[d])
		do, so, out = do+dc[d], so+sc[d], out+oc[d]
	}
	for {
		t.row(g, &idx, do, so, out)
		d := 0
		for ; d < g.rank; d++ {
			if d == g.inner {
				continue
			}
			idx[d]++
			carry := idx[d] == g.hi[d]
			if carry {
				idx[d] = g.lo[d] // a worker's share starts at lo, not 0
			}
			c, s, o := t.coord(g, d, idx[d])
			do, so, out = do+c-dc[d], so+s-sc[d], out+o-oc[d]
			dc[d], sc[d], oc[d] = c, s, o
			if !carry {
				break
			}
		}
		if d == g.rank {
			return
		}
	}
}

// coord returns the destination and source offsets of coordinate i along
// dimension d, and 1 when the coordinate lies outside the source (a
// Constant pad), else 0.
func (t *gridTask[T]) coord(g *grid, d, i int) (dc, sc, out int) {
	dc = i * g.ds[d]
	switch g.kind[d] {
	case kTake:
		return dc, int(t.idx[i]) * g.ss[d], 0
	case kPad:
		u := padSrc(t.mode, i-g.b[d], g.s[d])
		if u < 0 {
			return dc, 0, 1
		}
		return dc, u * g.ss[d], 0
	}
	return dc, i * g.ss[d], 0
}

// row writes the row of the current point: destination offset do, source
// offset so (both at row coordinate 0), out coordinates outside the source.
func (t *gridTask[T]) row(g *grid, idx *[strided.MaxRank]int, do, so, out int) {
	d := g.inner
	j0, j1 := g.lo[d], g.hi[d]
	D, S := g.ds[d], g.ss[d]
	switch {
	case t.op == opTri:
		t.triRow(g, idx, j0, j1, do, D, so, S)
	case out > 0:
		fillRow(j1-j0, t.dst, do+j0*D, D, t.value)
	case g.kind[d] == kTake:
		takeRow(t.dst, do, D, t.src, so, S, t.idx, j0, j1)
	case g.kind[d] == kPad:
		t.padRow(j0, j1, do, D, so, S, g.b[d], g.s[d])
	default:
		copyRow(j1-j0, t.dst, do+j0*D, D, t.src, so+j0*S, S)
	}
}

// copyRow copies n elements: dst[do+i*ds] = src[so+i*ss].
func copyRow[T strided.Elem](n int, dst []T, do, ds int, src []T, so, ss int) {
	if n <= 0 {
		return
	}
	if ds == 1 {
		d := dst[do : do+n]
		if ss == 1 {
			copy(d, src[so:so+n])
			return
		}
		for i := range d {
			d[i] = src[so]
			so += ss
		}
		return
	}
	for range n {
		dst[do] = src[so]
		do += ds
		so += ss
	}
}

// fillRow sets n elements: dst[do+i*ds] = v.
func fillRow[T strided.Elem](n int, dst []T, do, ds int, v T) {
	if n <= 0 {
		return
	}
	if ds == 1 {
		d := dst[do : do+n]
		for i := range d {
			d[i] = v
		}
		return
	}
	for range n {
		dst[do] = v
		do += ds
	}
}

// empty reports whether shape has an extent 0.
func empty(shape []int) bool {
	for _, e := range shape {
		if e == 0 {
			return true
		}
	}
	return false
}

// badIndex panics with the message of an index outside [0, n).
//
//go:noinline
func badIndex(name string, k int64, n int) {
	panic(fmt.Sprintf("index.%s: index %d out of range [0, %d)", name, k, n))
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// mod returns x mod m in [0, m) for m > 0.
func mod(x, m int) int {
	x %= m
	if x < 0 {
		x += m
	}
	return x
}
