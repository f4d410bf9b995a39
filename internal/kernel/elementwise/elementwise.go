// Package elementwise applies element-wise operations to strided views:
// dst[i] = f(a[i]) ([Unary]), dst[i] = a[i] op b[i] ([Binary]), dst[i] = v
// ([Fill]), and a fused evaluator of short instruction lists ([Eval]).
//
// # Broadcasting
//
// Inputs broadcast by zero strides: an input with stride 0 along an axis
// repeats its element along that axis.
//
// # Preconditions
//
// Callers validate: every Ref has len(shape) strides and stays inside its
// Data over shape (strided.Ref.Validate); at most strided.MaxRank extents
// differ from 1 (the kernels panic otherwise); dst does not overlap itself
// (no zero stride along an extent > 1). dst may coincide exactly with an
// input (same Data, offset and strides: an in-place update) but must not
// otherwise overlap one.
//
// # Tiles
//
// Binary walks the destination's fastest dimensions in order. When the
// destination is compact over its leading dimensions (at most TileElems
// elements) but an input is not (a transposed or partly broadcast read, as
// in the batched outer product C[j,k,o,t] = A[k,j,t]*B[o,t]), that input is
// gathered tile by tile into a stack buffer in the destination's order, so
// every tile becomes one unit-stride row; a tile is reused while the
// input's offset stays put (broadcast dimensions), so such a product costs
// about what its compact twin does.
//
// # Threads
//
// Above ParallelBytes of traffic the work is split across the runner's
// workers along the destination's outermost dimension whose extent splits
// evenly (else its largest), so that each worker writes whole rows; a nil
// runner is serial.
package elementwise

import (
	"sync"

	"github.com/tenferro-go/tenferro/internal/kernel/strided"
	"github.com/tenferro-go/tenferro/internal/op"
	"github.com/tenferro-go/tenferro/internal/par"
)

// ParallelBytes is the memory traffic (bytes read plus written) above which
// the kernels fan out to the runner. Waking parked workers costs about 100
// microseconds on the target machines, the time one core needs to stream
// about 1 MiB; the same crossover as permute.ParallelBytes (measured by
// permute's BenchmarkThreshold, docs/permute.md).
var ParallelBytes = 1 << 20

// shortRow is the length below which the fastest dimension is swapped with
// the second one for the inner loop.
const shortRow = 16

// kernel ids for the shared task type.
const (
	kUnary = iota
	kBinary
	kFill
)

type task[T strided.Scalar] struct {
	l       strided.Layout
	kind    int
	k       op.Kind
	p       Params[T] // attributes; p.A is Fill's value
	d, a, b []T
	split   int
}

func (t *task[T]) RunPart(p, parts int) {
	l := t.l
	lo, hi := par.Split(l.Shape[t.split], p, parts)
	if lo == hi {
		return
	}
	l.Restrict(t.split, lo, hi)
	t.run(&l)
}

func (t *task[T]) run(l *strided.Layout) {
	if t.kind == kBinary && binaryTiled(l, t.k, t.d, t.a, t.b) {
		return
	}
	// A short fastest dimension costs a row call per few elements: walk
	// the longer second dimension in the inner loop instead.
	if l.Rank >= 2 && l.Shape[0] < shortRow && l.Shape[1] > l.Shape[0] {
		l.Swap(0, 1)
	}
	switch t.kind {
	case kUnary:
		unaryRun(l, t.k, t.p, t.d, t.a)
	case kBinary:
		binaryRun(l, t.k, t.d, t.a, t.b)
	default:
		fillRun(l, t.p.A, t.d)
	}
}

var pools [4]sync.Pool

// dispatch runs t over its layout (already normalised, not empty), serially
// or split across r.
func dispatch[T strided.Scalar](r par.Runner, t *task[T], nops int) {
	split := splitDim(&t.l, par.Width(r))
	parts := 1
	if split >= 0 {
		parts = strided.Parts(r, nops*t.l.Size()*strided.ElemSize[T](), ParallelBytes, t.l.Shape[split])
	}
	if parts <= 1 {
		t.run(&t.l)
		return
	}
	pool := &pools[strided.Kind[T]()]
	pt, _ := pool.Get().(*task[T])
	if pt == nil {
		pt = new(task[T])
	}
	*pt = *t
	pt.split = split
	r.Run(pt, parts)
	pt.d, pt.a, pt.b = nil, nil, nil
	pool.Put(pt)
}

// splitDim returns the dimension of l to split across w workers: the
// outermost one along which the destination moves whose extent splits
// evenly enough (a multiple of w, or at least 4w), else the largest
// (strided.Layout.SplitDim). Splitting an outer dimension gives each worker
// whole rows far apart in memory; splitting the fastest one would
// interleave the workers' pieces of every row, and each core's prefetcher
// would then pull lines the other is writing (measured 4x slower on a
// (256,64,64) product).
func splitDim(l *strided.Layout, w int) int {
	for d := l.Rank - 1; d >= 1; d-- {
		if e := l.Shape[d]; l.Strides[0][d] != 0 && e >= w && (e%w == 0 || e >= 4*w) {
			return d
		}
	}
	return l.SplitDim(0)
}

func initLayout(l *strided.Layout, op string, shape []int) bool {
	if !l.Init(shape) {
		panic("elementwise." + op + ": more than strided.MaxRank extents differ from 1")
	}
	return !l.Empty
}

// Unary sets dst[i] = k(a[i]) for every multi-index i of shape, where k is
// an elementwise unary operation of the catalog and p its attributes (the
// factor of Scale, the bounds of Clip). It panics when the package has no
// kernel for k (see Supports). See the package comment for preconditions.
func Unary[T strided.Scalar](r par.Runner, k op.Kind, p Params[T], shape []int, dst, a strided.Ref[T]) {
	if !Supports(k) || k.Category() == op.Binary {
		panic("elementwise.Unary: no kernel for " + k.String())
	}
	var t task[T]
	if !initLayout(&t.l, "Unary", shape) {
		return
	}
	t.l.Add(dst.Off, dst.Strides)
	t.l.Add(a.Off, a.Strides)
	t.l.Normalize()
	t.kind, t.k, t.p, t.d, t.a = kUnary, k, p, dst.Data, a.Data
	dispatch(r, &t, 2)
}

// Binary sets dst[i] = k(a[i], b[i]) for every multi-index i of shape,
// where k is an elementwise binary operation of the catalog; a and b may
// broadcast by zero strides. It panics when the package has no kernel for
// k (see Supports). See the package comment for preconditions.
func Binary[T strided.Scalar](r par.Runner, k op.Kind, shape []int, dst, a, b strided.Ref[T]) {
	if !Supports(k) || k.Category() != op.Binary {
		panic("elementwise.Binary: no kernel for " + k.String())
	}
	var t task[T]
	if !initLayout(&t.l, "Binary", shape) {
		return
	}
	t.l.Add(dst.Off, dst.Strides)
	t.l.Add(a.Off, a.Strides)
	t.l.Add(b.Off, b.Strides)
	t.l.Normalize()
	t.kind, t.k, t.d, t.a, t.b = kBinary, k, dst.Data, a.Data, b.Data
	dispatch(r, &t, 3)
}

// Fill sets dst[i] = v for every multi-index i of shape.
func Fill[T strided.Scalar](r par.Runner, shape []int, dst strided.Ref[T], v T) {
	var t task[T]
	if !initLayout(&t.l, "Fill", shape) {
		return
	}
	t.l.Add(dst.Off, dst.Strides)
	t.l.Normalize()
	t.kind, t.p.A, t.d = kFill, v, dst.Data
	dispatch(r, &t, 1)
}

func fillRun[T strided.Scalar](l *strided.Layout, v T, d []T) {
	if l.Rank == 0 {
		d[l.Off[0]] = v
		return
	}
	n, ds := l.Shape[0], l.Strides[0][0]
	l.Outer(1, func() {
		o := l.Cur[0]
		if ds == 1 {
			row := d[o : o+n]
			for i := range row {
				row[i] = v
			}
			return
		}
		for i := 0; i < n; i++ {
			d[o] = v
			o += ds
		}
	})
}

func unaryRun[T strided.Scalar](l *strided.Layout, k op.Kind, p Params[T], d, a []T) {
	if l.Rank == 0 {
		unaryRow(k, p, 1, d, l.Off[0], 1, a, l.Off[1], 1)
		return
	}
	n, ds, as := l.Shape[0], l.Strides[0][0], l.Strides[1][0]
	l.Outer(1, func() {
		unaryRow(k, p, n, d, l.Cur[0], ds, a, l.Cur[1], as)
	})
}

func binaryRun[T strided.Scalar](l *strided.Layout, k op.Kind, d, a, b []T) {
	if l.Rank == 0 {
		binaryRow(k, 1, d, l.Off[0], 1, a, l.Off[1], 1, b, l.Off[2], 1)
		return
	}
	n, ds, as, bs := l.Shape[0], l.Strides[0][0], l.Strides[1][0], l.Strides[2][0]
	l.Outer(1, func() {
		binaryRow(k, n, d, l.Cur[0], ds, a, l.Cur[1], as, b, l.Cur[2], bs)
	})
}
