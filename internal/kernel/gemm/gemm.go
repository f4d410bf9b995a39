// Package gemm computes dense general matrix products
//
//	C = alpha*A*B + beta*C,  A m×k, B k×n, C m×n,
//
// for float32, float64, complex64 and complex128, on strided operands, with a
// GotoBLAS/BLIS-style blocked driver and register-blocked micro-kernels
// (AVX-512 and AVX2+FMA assembly on amd64, a pure-Go twin everywhere).
//
// # Layout
//
// Operands are [Mat] values: element (i, j) lives at Data[Off+i*RS+j*CS].
// Column-major storage has RS = 1, CS = ld; a transposed view swaps the two.
// Read operands (A, B) may use any strides, including zero and negative ones.
// C must have strides under which distinct (i, j) in the m×n range address
// distinct elements, and C must not overlap A or B. Only the m×n elements of
// C are written.
//
// # Validation
//
// This is an internal kernel package: callers validate shapes and bounds
// beforehand. An out-of-range operand panics with a Go bounds error; it never
// reads or writes memory outside Data.
//
// # Algorithm
//
// The product is cut into Kc×Nc blocks of B packed into NR-column panels and
// Mc×Kc blocks of A packed into MR-row panels (zero padded at the edges); a
// micro-kernel multiplies an MR×Kc panel by a Kc×NR panel into an MR×NR tile
// held in registers. Packing absorbs any layout. Small operands that the
// kernels can address directly (column-major A, B with positive strides) are
// read in place; narrower kernels handle the last rows and columns; complex
// products run on the real kernels by the 1M method; products of at most 256
// multiply-adds use plain loops. See docs/gemm.md.
//
// # Variants
//
// [Variants] lists the kernel families ("avx512", "avx2", "generic"); the
// first one the CPU supports is used, and [SetVariant] forces another for
// tests and benchmarks. The build tag purego (or a non-amd64 target) leaves
// only the pure-Go family.
package gemm

import (
	"unsafe"

	"github.com/tenferro-go/tenferro/internal/hugepage"
	"github.com/tenferro-go/tenferro/internal/par"
)

// Scalar is the set of element types the kernels support.
type Scalar interface {
	float32 | float64 | complex64 | complex128
}

// Mat is a strided matrix operand: element (i, j) is Data[Off+i*RS+j*CS].
// Strides may be any int (column-major has RS = 1, CS = ld; a transposed view
// swaps them; zero or negative strides are allowed for read operands).
type Mat[T Scalar] struct {
	Data   []T
	Off    int
	RS, CS int
}

// t returns the transpose of m (the same elements, strides swapped).
func (m Mat[T]) t() Mat[T] {
	m.RS, m.CS = m.CS, m.RS
	return m
}

// shift returns m with its origin moved to element (i, j).
func (m Mat[T]) shift(i, j int) Mat[T] {
	m.Off += i*m.RS + j*m.CS
	return m
}

// Workspace owns the packing buffers (one set per worker) that persist across
// calls, and the task records used to fan out, so that a warm workspace makes
// [Gemm] allocation free. One per engine; not safe for concurrent use. The
// zero value is ready to use.
type Workspace struct {
	workers []workerBuf
	t32     gemmTask[float32]
	t64     gemmTask[float64]
	tc64    gemmTask[complex64]
	tc128   gemmTask[complex128]
}

// workerBuf is one worker's packing storage, shared by all dtypes. The
// buffers are 64-byte aligned views into uint64 backing arrays.
type workerBuf struct {
	a, b []uint64
	tile []uint64
}

// ensure returns ws.workers grown to at least n entries.
func (ws *Workspace) ensure(n int) []workerBuf {
	if len(ws.workers) < n {
		w := make([]workerBuf, n)
		copy(w, ws.workers)
		ws.workers = w
	}
	return ws.workers
}

// typedBuf returns a 64-byte aligned []T of length n carved from *store,
// growing it (once) when it is too small.
func typedBuf[T Scalar](store *[]uint64, n int) []T {
	var z T
	size := int(unsafe.Sizeof(z))
	words := (n*size+7)/8 + 8
	if len(*store) < words {
		*store = hugepage.Make[uint64](words + words/4)
	}
	s := *store
	p := uintptr(unsafe.Pointer(&s[0]))
	skip := int((64-p%64)%64) / 8
	return unsafe.Slice((*T)(unsafe.Pointer(&s[skip])), n)
}

// ParallelThreshold is the product size, in floating-point operations
// (2*m*n*k, times 4 for complex types), below which [Gemm] and
// [GemmBatched] never call the runner. 8e6 flops is about 80 µs of serial
// float64 work on a 2-vCPU AMD EPYC (Zen 5) guest: a two-way split of serial
// time S costs S/2 plus the wake-up of the other worker, which is about
// 0.1 µs for a spinning worker and 75-120 µs for a parked one there, so from
// here a split gains when workers are warm and loses little when they are
// parked. BenchmarkParallelThreshold re-measures the crossover; see
// docs/gemm.md. Set it before products run (it is read without locking).
var ParallelThreshold = 8_000_000

// flops returns the floating-point operation count of one m×n×k product.
func flops[T Scalar](m, n, k int) int {
	f := 2 * m * n * k
	if isComplex[T]() {
		f *= 4
	}
	return f
}

func isComplex[T Scalar]() bool {
	var z T
	switch any(z).(type) {
	case complex64, complex128:
		return true
	}
	return false
}

// Gemm computes C = alpha*A*B + beta*C with A m×k, B k×n and C m×n.
//
// When beta == 0, C is not read (NaN or Inf in C do not propagate); when
// alpha == 0 or k == 0, A and B are not read and C = beta*C. C must not alias
// A or B. Only the m×n elements of C are written. r may be nil (serial); it is
// used only when the product exceeds [ParallelThreshold] and r.Width() > 1.
// Once ws is warm for the sizes in use, Gemm allocates nothing.
func Gemm[T Scalar](ws *Workspace, r par.Runner, m, n, k int, alpha T, a, b Mat[T], beta T, c Mat[T]) {
	if m <= 0 || n <= 0 {
		return
	}
	kb := kernelFor[T](activeVariant())
	if k <= 0 || alpha == 0 {
		scaleC(m, n, beta, c)
		return
	}
	parts := parallelParts[T](r, kb, m, n, k)
	if parts <= 1 {
		w := &ws.ensure(1)[0]
		gemmSerial(kb, w, m, n, k, alpha, a, b, beta, c)
		return
	}
	ws.ensure(parts)
	t := taskFor[T](ws)
	*t = gemmTask[T]{ws: ws, kb: kb, m: m, n: n, k: k, alpha: alpha, beta: beta, a: a, b: b, c: c}
	par.Run(r, t, parts)
	t.clear()
}

// parallelParts decides how many parts a single product is split into.
func parallelParts[T Scalar](r par.Runner, kb *kernelInfo[T], m, n, k int) int {
	w := par.Width(r)
	if w <= 1 || flops[T](m, n, k) < ParallelThreshold {
		return 1
	}
	units := max((n+kb.nr-1)/kb.nr, (m+kb.mr-1)/kb.mr)
	return min(w, units)
}

// scaleC sets C = beta*C over the m×n range (C = 0 when beta == 0, without
// reading C).
func scaleC[T Scalar](m, n int, beta T, c Mat[T]) {
	if beta == 1 {
		return
	}
	for j := 0; j < n; j++ {
		base := c.Off + j*c.CS
		if beta == 0 {
			for i := 0; i < m; i++ {
				c.Data[base+i*c.RS] = 0
			}
			continue
		}
		for i := 0; i < m; i++ {
			c.Data[base+i*c.RS] *= beta
		}
	}
}

// gemmSerial runs the blocked algorithm on the calling goroutine using the
// packing buffers of w. It assumes m, n, k > 0 and alpha != 0.
func gemmSerial[T Scalar](kb *kernelInfo[T], w *workerBuf, m, n, k int, alpha T, a, b Mat[T], beta T, c Mat[T]) {
	if m*n*k <= tinyProduct {
		gemmTiny(m, n, k, alpha, a, b, beta, c)
		return
	}
	if n <= kb.nr && n <= kb.mr && m > kb.mr && a.CS == 1 && a.RS > 1 {
		// A few columns times a large row-major A: as Cᵀ = Bᵀ·Aᵀ, Aᵀ is
		// a column-major right operand with a single row panel of C
		// above it, which is read in place instead of packed.
		m, n, a, b, c = n, m, b.t(), a.t(), c.t()
	}
	mr, nr := kb.mr, kb.nr
	kc := min(kb.kc, k)
	// Balance the K blocks so that the last one is not a sliver.
	if nk := (k + kc - 1) / kc; nk > 1 {
		kc = (k + nk - 1) / nk
	}
	mc := min(kb.mc, (m+mr-1)/mr*mr)
	nc := min(kb.nc, (n+nr-1)/nr*nr)
	as := max(1, kb.aScale)
	pA, pB := kb.packA, kb.packB
	if pA == nil {
		pA = packA[T]
	}
	if pB == nil {
		pB = packB[T]
	}
	abuf := typedBuf[T](&w.a, mc*kc*as)
	bbuf := typedBuf[T](&w.b, kc*nc)
	tile := typedBuf[T](&w.tile, mr*nr)
	// A small column-major A, and a small B with positive strides, are
	// read in place: their panels stay in cache and packing would cost as
	// much as the product. So is a column-major A of any size when C has
	// a single column panel (n <= nr), and a B of any size when C has a
	// single row panel (m <= mr): each panel is then used once, and
	// packing would copy it for nothing.
	inPlace := as == 1 && a.RS == 1 && a.CS > 0 && (m*k <= kb.inPlace || n <= nr)
	inPlaceB := as == 1 && b.RS > 0 && b.CS > 0 && (k*n <= kb.inPlace || m <= mr)
	for jc := 0; jc < n; jc += nc {
		ncb := min(nc, n-jc)
		for pc := 0; pc < k; pc += kc {
			kcb := min(kc, k-pc)
			var bblk Mat[T]
			if inPlaceB {
				// Only the last, partial column panel is packed.
				if full := ncb / nr * nr; full < ncb {
					pB(bbuf, b, pc, kcb, jc+full, ncb-full, nr)
				}
				bblk = b.shift(pc, jc)
			} else {
				pB(bbuf, b, pc, kcb, jc, ncb, nr)
			}
			betaEff, loadC := beta, beta != 0
			if pc > 0 {
				betaEff, loadC = 1, true
			}
			for ic := 0; ic < m; ic += mc {
				mcb := min(mc, m-ic)
				var ablk Mat[T]
				if inPlace {
					// Full row panels are read from A itself; only the
					// last, partial one is packed (zero padded).
					if full := mcb / mr * mr; full < mcb {
						if _, mre, _ := kb.edgeFor(mcb - full); mre != mcb-full {
							packPanels(kb, pA, abuf, a, ic+full, mcb-full, pc, kcb)
						}
					}
					ablk = a.shift(ic, pc)
				} else {
					packPanels(kb, pA, abuf, a, ic, mcb, pc, kcb)
				}
				macroKernel(kb, kcb, mcb, ncb, abuf, inPlace, ablk, bbuf, inPlaceB, bblk, tile, alpha, betaEff, loadC, c.shift(ic, jc))
			}
		}
	}
}

// packPanels packs rows [i0, i0+mc) of A's columns [p0, p0+kc) for the
// kernels of kb: with pA (a kernel-specific layout, mr-row panels) when kb
// has its own packer, else in mr-row panels and a last partial panel as
// high as the edge kernel that computes it (macroKernel reads it so).
func packPanels[T Scalar](kb *kernelInfo[T], pA func(dst []T, a Mat[T], i0, mc, p0, kc, mr int), dst []T, a Mat[T], i0, mc, p0, kc int) {
	if kb.packA != nil {
		pA(dst, a, i0, mc, p0, kc, kb.mr)
		return
	}
	h := kb.mr
	if r := mc % kb.mr; r != 0 {
		_, h, _ = kb.edgeFor(r)
	}
	packAEdge(dst, a, i0, mc, p0, kc, kb.mr, h)
}

// combine returns alpha·s + beta·c, without reading c unless loadC. Unit
// alpha and beta (the common case) skip their products: a complex product
// by 1+0i would turn an infinite part into NaN (0·Inf), so that
// non-finite entries give the same results on every path here as in the
// assembly kernels, which scale real and imaginary parts apart.
func combine[T Scalar](alpha, s, beta, c T, loadC bool) T {
	if alpha != 1 {
		s *= alpha
	}
	switch {
	case !loadC:
		return s
	case beta == 1:
		return s + c
	}
	return s + beta*c
}

// tinyProduct is the largest m*n*k computed by plain loops: below it the
// fixed cost of tiles, packing and kernel calls (about 100-300 ns) exceeds
// the arithmetic (BenchmarkGemmBatchedSmall).
const tinyProduct = 256

// gemmTiny computes C = alpha*A*B + beta*C by dot products, reading C only
// when beta != 0. It assumes m, n, k > 0.
func gemmTiny[T Scalar](m, n, k int, alpha T, a, b Mat[T], beta T, c Mat[T]) {
	for j := 0; j < n; j++ {
		for i := 0; i < m; i++ {
			var s T
			ai, bj := a.Off+i*a.RS, b.Off+j*b.CS
			for p := 0; p < k; p++ {
				s += a.Data[ai+p*a.CS] * b.Data[bj+p*b.RS]
			}
			ci := &c.Data[c.Off+i*c.RS+j*c.CS]
			*ci = combine(alpha, s, beta, *ci, beta != 0)
		}
	}
}

// macroKernel multiplies the mcb×kcb block of A by the packed kcb×ncb block
// of B into C (already shifted to the block origin). A is packed in abuf, or
// when inPlace read from ablk (shifted to the block origin, RS = 1) with only
// its last partial row panel packed at the start of abuf; likewise B in bbuf
// or, when inPlaceB, in bblk (positive strides) with its last partial
// column panel packed at the start of bbuf.
func macroKernel[T Scalar](kb *kernelInfo[T], kcb, mcb, ncb int, abuf []T, inPlace bool, ablk Mat[T], bbuf []T, inPlaceB bool, bblk Mat[T], tile []T, alpha, beta T, loadC bool, c Mat[T]) {
	mr, nr := kb.mr, kb.nr
	as := max(1, kb.aScale)
	// unit: C's columns are contiguous and the kernels may scale by alpha
	// and beta; direct: whole tiles may be stored in place too (columns
	// at least mr apart). A masked kernel stores a partial tile in place
	// whenever unit holds.
	unit := c.RS == 1 && (!kb.realScalars || isRealScalar(alpha) && isRealScalar(beta))
	direct := unit && c.CS >= mr
	for jr := 0; jr < ncb; jr += nr {
		nrb := min(nr, ncb-jr)
		bp, ldbp, ldbj := bbuf[jr*kcb:], nr, 1
		if inPlaceB {
			if nrb == nr {
				o := bblk.Off + jr*bblk.CS
				bp, ldbp, ldbj = bblk.Data[o:o+(kcb-1)*bblk.RS+(nr-1)*bblk.CS+1], bblk.RS, bblk.CS
			} else {
				bp = bbuf
			}
		}
		for ir := 0; ir < mcb; ir += mr {
			mrb := min(mr, mcb-ir)
			kern, mre, kernM := kb.edgeFor(mrb)
			nre := nr
			if mrb == mr && nrb < nr {
				kern, nre, kernM = kb.colEdgeFor(nrb)
			}
			ap, lda := abuf[ir*kcb*as:], mr
			if mrb < mr && kb.packA == nil {
				lda = mre // a partial panel is packed as high as its kernel (packPanels)
			}
			if inPlace {
				if mrb == mre {
					o := ablk.Off + ir
					ap, lda = ablk.Data[o:o+(kcb-1)*ablk.CS+mre], ablk.CS
				} else {
					ap = abuf
				}
			}
			off := c.Off + ir*c.RS + jr*c.CS
			if direct && mrb == mre && nrb == nre {
				kern(kcb, ap, lda, bp, ldbp, ldbj, c.Data[off:off+(nre-1)*c.CS+mre], c.CS, alpha, beta, loadC)
				continue
			}
			if unit && kernM != nil && (nrb == 1 || c.CS >= mrb) {
				kernM(kcb, ap, lda, bp, ldbp, ldbj, c.Data[off:off+(nrb-1)*c.CS+mrb], c.CS, alpha, beta, loadC, mrb, nrb)
				continue
			}
			kern(kcb, ap, lda, bp, ldbp, ldbj, tile, mr, 1, 0, false)
			for j := 0; j < nrb; j++ {
				cj := off + j*c.CS
				tj := tile[j*mr : j*mr+mrb]
				for i, v := range tj {
					p := &c.Data[cj+i*c.RS]
					*p = combine(alpha, v, beta, *p, loadC)
				}
			}
		}
	}
}

// packA copies rows [i0, i0+mc) and columns [p0, p0+kc) of a into dst as
// ceil(mc/mr) panels; panel q holds, for each p, the mr values of rows
// q*mr..q*mr+mr-1 (rows beyond mc are zero).
func packA[T Scalar](dst []T, a Mat[T], i0, mc, p0, kc, mr int) {
	packAEdge(dst, a, i0, mc, p0, kc, mr, mr)
}

// packAEdge is packA with the last panel, when partial, h rows high (mc%mr
// <= h <= mr): the height of the edge kernel that computes it, so that a
// short panel is not padded with zeros to mr rows.
func packAEdge[T Scalar](dst []T, a Mat[T], i0, mc, p0, kc, mr, h int) {
	if full := mc / mr * mr; a.RS == 1 && full > 0 {
		// Column-major: read each column once, sequentially, and scatter
		// it over the full panels; the partial panel goes below.
		for p := 0; p < kc; p++ {
			s := a.Off + i0 + (p0+p)*a.CS
			src := a.Data[s : s+full]
			for ir := 0; ir < full; ir += mr {
				d := ir*kc + p*mr
				copy(dst[d:d+mr], src[ir:ir+mr])
			}
		}
		if full == mc {
			return
		}
		packAEdge(dst[full*kc:], a, i0+full, mc-full, p0, kc, mr, h)
		return
	}
	for ir := 0; ir < mc; ir += mr {
		rows := min(mr, mc-ir)
		if rows < mr {
			mr = h // the last panel
		}
		pan := dst[ir*kc : ir*kc+mr*kc]
		base := a.Off + (i0+ir)*a.RS + p0*a.CS
		switch {
		case a.RS == 1:
			for p := 0; p < kc; p++ {
				s := base + p*a.CS
				d := pan[p*mr : p*mr+mr]
				copy(d[:rows], a.Data[s:s+rows])
				clear(d[rows:])
			}
		case a.CS == 1:
			packARowMajor(pan, a.Data, base, a.RS, kc, mr, rows)
		default:
			for p := 0; p < kc; p++ {
				s := base + p*a.CS
				d := pan[p*mr : p*mr+mr]
				for i := 0; i < rows; i++ {
					d[i] = a.Data[s+i*a.RS]
				}
				clear(d[rows:])
			}
		}
	}
}

// packB copies rows [p0, p0+kc) and columns [j0, j0+nc) of b into dst as
// ceil(nc/nr) panels; panel q holds, for each p, the nr values of columns
// q*nr..q*nr+nr-1 (columns beyond nc are zero).
func packB[T Scalar](dst []T, b Mat[T], p0, kc, j0, nc, nr int) {
	if full := nc / nr * nr; b.CS == 1 && full > 0 {
		// Row-major: read each row once, sequentially, and scatter it over
		// the full panels; the partial panel goes below.
		for p := 0; p < kc; p++ {
			s := b.Off + (p0+p)*b.RS + j0
			src := b.Data[s : s+full]
			for jr := 0; jr < full; jr += nr {
				d := jr*kc + p*nr
				copy(dst[d:d+nr], src[jr:jr+nr])
			}
		}
		if full == nc {
			return
		}
		packB(dst[full*kc:], b, p0, kc, j0+full, nc-full, nr)
		return
	}
	for jr := 0; jr < nc; jr += nr {
		cols := min(nr, nc-jr)
		pan := dst[jr*kc : jr*kc+nr*kc]
		base := b.Off + p0*b.RS + (j0+jr)*b.CS
		switch {
		case b.CS == 1 && cols == nr:
			for p := 0; p < kc; p++ {
				s := base + p*b.RS
				copy(pan[p*nr:p*nr+nr], b.Data[s:s+nr])
			}
		case b.RS == 1 && cols == nr:
			packBColMajor(pan, b.Data, base, b.CS, kc, nr)
		case b.RS == 1:
			for j := 0; j < cols; j++ {
				src := b.Data[base+j*b.CS : base+j*b.CS+kc]
				for p, v := range src {
					pan[p*nr+j] = v
				}
			}
			for j := cols; j < nr; j++ {
				for p := 0; p < kc; p++ {
					pan[p*nr+j] = 0
				}
			}
		default:
			for p := 0; p < kc; p++ {
				s := base + p*b.RS
				d := pan[p*nr : p*nr+nr]
				for j := 0; j < cols; j++ {
					d[j] = b.Data[s+j*b.CS]
				}
				clear(d[cols:])
			}
		}
	}
}
