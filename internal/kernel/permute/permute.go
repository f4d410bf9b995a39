// Package permute copies between strided views: dst[i] = src[i] for every
// multi-index i of a shape, whatever the two views' strides. A permutation
// (transpose) of a tensor is such a copy where the destination is compact and
// the source is a permuted view.
//
// # Method
//
// The iteration space is normalised (size-1 dimensions dropped, dimensions
// reversed so dst strides are non-negative, sorted by dst stride, contiguous
// runs fused; see strided.Layout). Then:
//
//   - if dst's fastest dimension spans less than a 64-byte line, or src's
//     fastest has fewer than 64 elements (permutations of many short axes),
//     dst's fastest dimensions are combined into a dst block of one to eight
//     lines and src's fastest remaining ones into a src block of about 1
//     KiB; each (dst block x src block) tile is copied through offset tables
//     on the stack, reading src in runs and writing whole dst lines, with an
//     odometer over the other dimensions (blocks.go; an AVX kernel on amd64
//     for 8-byte elements when both blocks are contiguous);
//   - if both views are unit-stride along the fastest dimension, each row is
//     a copy() call; rows shorter than 64 elements are copied in groups of
//     up to 256 whose offsets are tabulated once (shortRows);
//   - if the source's fastest dimension is another one, the plane of the two
//     dimensions is tiled: for the classic transpose (dst unit-stride along
//     one, src along the other) in strips of source rows walked along the
//     rows, each step writing one whole 64-byte line of dst (16 float32, 8
//     float64 ...), so lines are used whole while in L1; when a stride is a
//     multiple of 1 KiB (rows sharing few cache sets) the strips are grouped
//     in small tiles (see BlockLines);
//     for other strides in Block x Block tiles. On amd64 with AVX, 8-byte
//     elements use an assembly strip kernel (strip_amd64.s; 8x8 zmm blocks
//     with AVX-512F, 8x4 ymm blocks otherwise); the Go loop is its twin
//     (build tag purego, other architectures);
//   - if src is contiguous along a dimension of two or three elements, each
//     group of them is read once and written to two or three dst rows;
//   - otherwise a strided row loop runs.
//
// Above ParallelBytes moved, the work is split along the largest dimension
// across the runner's workers.
//
// # Preconditions
//
// Callers validate: len(dst.Strides) == len(src.Strides) == len(shape), both
// views stay inside their Data (strided.Ref.Validate), at most
// strided.MaxRank extents differ from 1, dst does not overlap itself (no
// zero strides along extents > 1, no aliasing index points) and dst does not
// overlap src. Copy panics when the rank limit is exceeded.
package permute

import (
	"sync"
	"unsafe"

	"github.com/tenferro-go/tenferro/internal/kernel/strided"
	"github.com/tenferro-go/tenferro/internal/par"
)

// ParallelBytes is the number of bytes moved (read plus written) above which
// Copy fans out to the runner. Waking parked workers costs on the order of
// 100 microseconds on the target machines, about the time one core needs to
// move 0.5-1 MiB; BenchmarkThreshold put the crossover of a transpose
// between 256 KiB and 1 MiB (docs/permute.md).
var ParallelBytes = 1 << 20

// Block is the edge (in elements) of the square blocks in which a plane is
// walked when neither view is unit-stride along the tiled dimensions.
var Block = 64

// BlockLines and tileLines shape the tiles of the classic transpose (dst
// unit-stride along one dimension, src along the other): a tile is
// tileLines 64-byte lines of dst tall (tileLines*L source rows, L elements
// per line) and BlockLines lines of src wide, so it reads BlockLines lines of
// each source row and writes tileLines consecutive lines of each destination
// column. Tiles are used for elements of up to 8 bytes when the source row
// stride or the destination column stride is a multiple of 1 KiB (rows sharing few cache sets, as in
// power-of-two shapes); small tiles then keep one tile's source lines within
// L1 and its pages within the TLB. Other strides walk one band of all rows in
// runs of 256 lines, which measured faster for them. 4 x 16 (32 columns x 128
// rows of float64) measured best of widths 2..64 and heights 1..64 lines on
// the 2048x2048 and 256^3 float64 transposes on the development machine
// (docs/permute.md). Values below 1 count as 1.
var (
	BlockLines = 4
	tileLines  = 16
)

type copyTask[T strided.Elem] struct {
	l        strided.Layout
	dst, src []T
	split    int
}

func (t *copyTask[T]) RunPart(p, parts int) {
	l := t.l
	lo, hi := par.Split(l.Shape[t.split], p, parts)
	if lo == hi {
		return
	}
	l.Restrict(t.split, lo, hi)
	run(&l, t.dst, t.src)
}

var copyPools [strided.NumKinds]sync.Pool

// Copy sets dst[i] = src[i] for every multi-index i of shape. See the
// package comment for preconditions. r may be nil (serial).
func Copy[T strided.Elem](r par.Runner, shape []int, dst, src strided.Ref[T]) {
	var l strided.Layout
	if !l.Init(shape) {
		panic("permute.Copy: more than strided.MaxRank extents differ from 1")
	}
	if l.Empty {
		return
	}
	l.Add(dst.Off, dst.Strides)
	l.Add(src.Off, src.Strides)
	l.Normalize()
	n := l.Size()
	split := l.SplitDim(0)
	parts := 1
	if split >= 0 {
		parts = strided.Parts(r, 2*n*strided.ElemSize[T](), ParallelBytes, l.Shape[split])
	}
	if parts <= 1 {
		run(&l, dst.Data, src.Data)
		return
	}
	pool := &copyPools[strided.Kind[T]()]
	t, _ := pool.Get().(*copyTask[T])
	if t == nil {
		t = new(copyTask[T])
	}
	t.l, t.dst, t.src, t.split = l, dst.Data, src.Data, split
	r.Run(t, parts)
	t.dst, t.src = nil, nil
	pool.Put(t)
}

// run copies over a normalised layout with operands dst (0) and src (1).
func run[T strided.Elem](l *strided.Layout, dst, src []T) {
	if l.Rank == 0 {
		dst[l.Off[0]] = src[l.Off[1]]
		return
	}
	if a, b, ok := blockPlan[T](l); ok {
		blocks(l, a, b, dst, src)
		return
	}
	n0 := l.Shape[0]
	ds, ss := l.Strides[0][0], l.Strides[1][0]
	if ds == 1 && ss == 1 {
		if n0 < shortRow && l.Rank > 2 {
			shortRows(l, dst, src)
			return
		}
		l.Outer(1, func() {
			off := &l.Cur
			copy(dst[off[0]:off[0]+n0], src[off[1]:off[1]+n0])
		})
		return
	}
	// The source's fastest dimension.
	p := 0
	for d := 1; d < l.Rank; d++ {
		if abs(l.Strides[1][d]) < abs(l.Strides[1][p]) {
			p = d
		}
	}
	if p != 0 && n0 >= 4 && l.Shape[p] >= 4 {
		l.Swap(1, p)
		n1 := l.Shape[1]
		d1, s1 := l.Strides[0][1], l.Strides[1][1]
		b := Block
		l.Outer(2, func() {
			off := &l.Cur
			tile(b, n0, n1, dst, off[0], ds, d1, src, off[1], ss, s1)
		})
		return
	}
	if p != 0 && ds == 1 && l.Strides[1][p] == 1 && l.Shape[p] <= 3 {
		// Two or three src-contiguous columns: read each group of them
		// once and write two or three dst rows side by side.
		l.Swap(1, p)
		n1, d1 := l.Shape[1], l.Strides[0][1]
		l.Outer(2, func() {
			off := &l.Cur
			narrow(n0, n1, dst, off[0], d1, src, off[1], ss)
		})
		return
	}
	l.Outer(1, func() {
		off := &l.Cur
		row(n0, dst, off[0], ds, src, off[1], ss)
	})
}

// narrow copies dst[do+i+j*d1] = src[so+i*s0+j] for i < n0 and j < n1,
// n1 = 2 or 3: a transpose with two or three src-contiguous columns.
func narrow[T strided.Elem](n0, n1 int, dst []T, do, d1 int, src []T, so, s0 int) {
	a := dst[do : do+n0]
	b := dst[do+d1:][:len(a)]
	if n1 == 2 {
		for i := range a {
			s := src[so : so+2]
			a[i], b[i] = s[0], s[1]
			so += s0
		}
		return
	}
	c := dst[do+2*d1:][:len(a)]
	for i := range a {
		s := src[so : so+3]
		a[i], b[i], c[i] = s[0], s[1], s[2]
		so += s0
	}
}

// row copies n elements: dst[do+i*ds] = src[so+i*ss].
func row[T strided.Elem](n int, dst []T, do, ds int, src []T, so, ss int) {
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
	for i := 0; i < n; i++ {
		dst[do] = src[so]
		do += ds
		so += ss
	}
}

// tile copies the n0 x n1 plane dst[do+i*d0+j*d1] = src[so+i*s0+j*s1] in
// b x b tiles.
func tile[T strided.Elem](b, n0, n1 int, dst []T, do, d0, d1 int, src []T, so, s0, s1 int) {
	if d0 == 1 && s1 == 1 {
		transpose(n0, n1, dst, do, d1, src, so, s0)
		return
	}
	for jb := 0; jb < n1; jb += b {
		je := min(jb+b, n1)
		for ib := 0; ib < n0; ib += b {
			m := min(ib+b, n0) - ib
			for j := jb; j < je; j++ {
				row(m, dst, do+ib*d0+j*d1, d0, src, so+ib*s0+j*s1, s0)
			}
		}
	}
}

// transpose copies dst[do+i+j*d1] = src[so+i*s0+j] for i < n0, j < n1: the
// classic transpose, where dst is contiguous along i and src along j.
//
// The plane is walked in tiles of tileLines*L rows by BlockLines*L columns
// (L elements per 64-byte line: 128 x 32 float64 by default), tile rows
// outermost, and each tile in strips of L source rows (see stripRows): each
// strip step reads one element from each of its L rows and writes one whole
// line of one dst column. A tile reads BlockLines lines of each of its rows
// and writes tileLines consecutive lines of each of its columns, so for
// large power-of-two strides (16 KiB rows of a 2048x2048 float64 matrix, 512
// KiB in the 256^3 rotations) one tile touches about tileLines*L source
// pages and BlockLines*L destination pages (160 by default, within the
// second-level TLB and 32 KiB of source within L1), where a strip running the
// whole row length touched one destination page per column. Consecutive
// tiles of a row band continue the same source rows, so the prefetcher sees
// the rows as streams.
func transpose[T strided.Elem](n0, n1 int, dst []T, do, d1 int, src []T, so, s0 int) {
	h := stripRows[T]()
	n0h := n0 - n0%h
	tr := max(tileLines, 1) * h
	tc := max(BlockLines, 1) * microTile[T]()
	if es := strided.ElemSize[T](); es > 8 || !aliased(s0*es) && !aliased(d1*es) {
		// Rows spread over the cache sets, or strips of only four
		// complex128 rows (for which tiles of 16 x 64 measured 1.3-1.6x
		// slower on a 1024x1024 transpose): one band of all rows, long
		// runs along them.
		tr, tc = max(n0h, 1), streamLines*microTile[T]()
	}
	for ib := 0; ib < n0h; ib += tr {
		ie := min(ib+tr, n0h)
		for jb := 0; jb < n1; jb += tc {
			jm := min(tc, n1-jb)
			for i := ib; i < ie; i += h {
				strip(h, jm, dst, do+i+jb*d1, d1, src, so+i*s0+jb, s0)
			}
		}
	}
	if n0h < n0 {
		for j := 0; j < n1; j++ {
			row(n0-n0h, dst, do+n0h+j*d1, 1, src, so+n0h*s0+j, s0)
		}
	}
}

// streamLines is the run length (in 64-byte lines of each source row) of the
// transpose when neither stride is aliased: all rows form one band.
const streamLines = 256

// aliased reports whether a stride of b bytes is a multiple of 1 KiB, so that
// consecutive rows (or columns) fall into at most 1/16 of the L1 cache sets
// and evict each other unless the transpose is tiled.
func aliased(b int) bool {
	return b%1024 == 0
}

// stripRows returns the strip height of transpose: one 64-byte line of dst
// per column (16, 8, 8, 4 rows for float32, float64, complex64, complex128).
func stripRows[T strided.Elem]() int {
	return microTile[T]()
}

// strip copies dst[do+i+j*d1] = src[so+i*s0+j] for i < h, j < m, with h =
// 16, 8 or 4.
func strip[T strided.Elem](h, m int, dst []T, do, d1 int, src []T, so, s0 int) {
	if h == 16 {
		r0 := src[so : so+m]
		r1 := src[so+s0:][:len(r0)]
		r2 := src[so+2*s0:][:len(r0)]
		r3 := src[so+3*s0:][:len(r0)]
		r4 := src[so+4*s0:][:len(r0)]
		r5 := src[so+5*s0:][:len(r0)]
		r6 := src[so+6*s0:][:len(r0)]
		r7 := src[so+7*s0:][:len(r0)]
		r8 := src[so+8*s0:][:len(r0)]
		r9 := src[so+9*s0:][:len(r0)]
		r10 := src[so+10*s0:][:len(r0)]
		r11 := src[so+11*s0:][:len(r0)]
		r12 := src[so+12*s0:][:len(r0)]
		r13 := src[so+13*s0:][:len(r0)]
		r14 := src[so+14*s0:][:len(r0)]
		r15 := src[so+15*s0:][:len(r0)]
		for j := range r0 {
			d := (*[16]T)(dst[do+j*d1:])
			d[0], d[1], d[2], d[3] = r0[j], r1[j], r2[j], r3[j]
			d[4], d[5], d[6], d[7] = r4[j], r5[j], r6[j], r7[j]
			d[8], d[9], d[10], d[11] = r8[j], r9[j], r10[j], r11[j]
			d[12], d[13], d[14], d[15] = r12[j], r13[j], r14[j], r15[j]
		}
		return
	}
	if h == 8 {
		if haveStrip8 && m >= 4 && s0 > 0 && d1 > 0 && strided.ElemSize[T]() == 8 {
			// Bounds of the assembly kernel's accesses, checked here.
			_ = src[so]
			_ = src[so+7*s0+m-1]
			_ = dst[do]
			_ = dst[do+(m-1)*d1+7]
			if m8 := m &^ 7; haveStrip8z && m8 > 0 {
				strip8x8z((*uint64)(unsafe.Pointer(&dst[do])), d1, (*uint64)(unsafe.Pointer(&src[so])), s0, m8)
				if m8 == m {
					return
				}
				do += m8 * d1
				so += m8
				m -= m8
			}
		}
		if haveStrip8 && m >= 4 && s0 > 0 && d1 > 0 && strided.ElemSize[T]() == 8 {
			m4 := m &^ 3
			strip8x8((*uint64)(unsafe.Pointer(&dst[do])), d1, (*uint64)(unsafe.Pointer(&src[so])), s0, m4)
			if m4 == m {
				return
			}
			do += m4 * d1
			so += m4
			m -= m4
		}
		r0 := src[so : so+m]
		r1 := src[so+s0:][:len(r0)]
		r2 := src[so+2*s0:][:len(r0)]
		r3 := src[so+3*s0:][:len(r0)]
		r4 := src[so+4*s0:][:len(r0)]
		r5 := src[so+5*s0:][:len(r0)]
		r6 := src[so+6*s0:][:len(r0)]
		r7 := src[so+7*s0:][:len(r0)]
		for j := range r0 {
			d := (*[8]T)(dst[do+j*d1:])
			d[0], d[1], d[2], d[3] = r0[j], r1[j], r2[j], r3[j]
			d[4], d[5], d[6], d[7] = r4[j], r5[j], r6[j], r7[j]
		}
		return
	}
	r0 := src[so : so+m]
	r1 := src[so+s0:][:len(r0)]
	r2 := src[so+2*s0:][:len(r0)]
	r3 := src[so+3*s0:][:len(r0)]
	for j := range r0 {
		d := (*[4]T)(dst[do+j*d1:])
		d[0], d[1], d[2], d[3] = r0[j], r1[j], r2[j], r3[j]
	}
}

// microTile returns the number of elements in a 64-byte cache line.
func microTile[T strided.Elem]() int {
	return 64 / strided.ElemSize[T]()
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
