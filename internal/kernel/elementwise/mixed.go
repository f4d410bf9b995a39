package elementwise

import (
	"math"
	"sync"

	"github.com/tenferro-go/tenferro/internal/kernel/strided"
	"github.com/tenferro-go/tenferro/internal/op"
	"github.com/tenferro-go/tenferro/internal/par"
)

// The kernels whose operands have different element types: predicates and
// comparisons (a bool destination), Where (a bool mask) and the logical
// operations on bool. They walk the same normalised layouts as Unary and
// Binary, row by row; every row is one switch on the operation and a plain
// loop.

// mixed kernel ids.
const (
	mPredicate = iota // d = k(a), d bool
	mCompare          // d = a k b, d bool
	mSelect           // d = m ? a : b
	mLogical          // d = a k b on bool (b unused for LogicalNot)
)

// mixedTask runs one mixed kernel over l: operands dst (0), then a, b for
// predicates, comparisons and logical operations, mask, a, b for Select.
type mixedTask[D, T strided.Elem] struct {
	l     strided.Layout
	kind  int
	k     op.Kind
	d     []D
	m     []bool
	a, b  []T
	split int
}

func (t *mixedTask[D, T]) RunPart(p, parts int) {
	l := t.l
	lo, hi := par.Split(l.Shape[t.split], p, parts)
	if lo == hi {
		return
	}
	l.Restrict(t.split, lo, hi)
	t.run(&l)
}

func (t *mixedTask[D, T]) run(l *strided.Layout) {
	if l.Rank == 0 {
		t.row(1, l.Off[0], 1, l.Off[1], 1, l.Off[2], 1, l.Off[3], 1)
		return
	}
	n, s := l.Shape[0], &l.Strides
	l.Outer(1, func() {
		c := &l.Cur
		t.row(n, c[0], s[0][0], c[1], s[1][0], c[2], s[2][0], c[3], s[3][0])
	})
}

// row runs n elements; operand o starts at offset oo and moves by stride
// os (operand 3 is b of Select).
func (t *mixedTask[D, T]) row(n, o0, s0, o1, s1, o2, s2, o3, s3 int) {
	switch t.kind {
	case mPredicate:
		predicateRow(t.k, n, any(t.d).([]bool), o0, s0, t.a, o1, s1)
	case mCompare:
		compareRow(t.k, n, any(t.d).([]bool), o0, s0, t.a, o1, s1, t.b, o2, s2)
	case mSelect:
		d := any(t.d).([]T)
		for range n {
			if t.m[o1] {
				d[o0] = t.a[o2]
			} else {
				d[o0] = t.b[o3]
			}
			o0, o1, o2, o3 = o0+s0, o1+s1, o2+s2, o3+s3
		}
	case mLogical:
		logicalRow(t.k, n, any(t.d).([]bool), o0, s0, any(t.a).([]bool), o1, s1, any(t.b).([]bool), o2, s2)
	}
}

// mixedPools holds the parallel tasks, per destination and input element
// type (strided.Kind).
var mixedPools [strided.NumKinds][strided.NumKinds]sync.Pool

// runMixed normalises t's layout and runs it, serially or split across r;
// bytes is the traffic of one element over all operands.
func runMixed[D, T strided.Elem](r par.Runner, t *mixedTask[D, T], bytes int) {
	t.l.Normalize()
	split := splitDim(&t.l, par.Width(r))
	parts := 1
	if split >= 0 {
		parts = strided.Parts(r, bytes*t.l.Size(), ParallelBytes, t.l.Shape[split])
	}
	if parts <= 1 {
		t.run(&t.l)
		return
	}
	pool := &mixedPools[strided.Kind[D]()][strided.Kind[T]()]
	pt, _ := pool.Get().(*mixedTask[D, T])
	if pt == nil {
		pt = new(mixedTask[D, T])
	}
	*pt = *t
	pt.split = split
	r.Run(pt, parts)
	pt.d, pt.m, pt.a, pt.b = nil, nil, nil, nil
	pool.Put(pt)
}

func initMixed(l *strided.Layout, name string, shape []int) bool {
	if !l.Init(shape) {
		panic("elementwise." + name + ": more than strided.MaxRank extents differ from 1")
	}
	return !l.Empty
}

// IsPredicate reports whether k is an operation Predicate runs.
func IsPredicate(k op.Kind) bool { return k == op.IsNaN || k == op.IsInf || k == op.IsFinite }

// IsComparison reports whether k is an operation Compare runs.
func IsComparison(k op.Kind) bool {
	switch k {
	case op.Equal, op.NotEqual, op.Less, op.LessEqual, op.Greater, op.GreaterEqual:
		return true
	}
	return false
}

// IsLogical reports whether k is an operation Logical runs.
func IsLogical(k op.Kind) bool {
	switch k {
	case op.LogicalNot, op.LogicalAnd, op.LogicalOr, op.LogicalXor:
		return true
	}
	return false
}

// Predicate sets dst[i] = k(a[i]) for a predicate k (IsNaN, IsInf,
// IsFinite) at every multi-index i of shape. See the package comment for
// preconditions; it panics for another k.
func Predicate[T strided.Scalar](r par.Runner, k op.Kind, shape []int, dst strided.Ref[bool], a strided.Ref[T]) {
	if !IsPredicate(k) {
		panic("elementwise.Predicate: no kernel for " + k.String())
	}
	t := mixedTask[bool, T]{kind: mPredicate, k: k, d: dst.Data, a: a.Data}
	if !initMixed(&t.l, "Predicate", shape) {
		return
	}
	t.l.Add(dst.Off, dst.Strides)
	t.l.Add(a.Off, a.Strides)
	runMixed(r, &t, 1+strided.ElemSize[T]())
}

// Compare sets dst[i] = a[i] k b[i] for a comparison k (Equal, NotEqual,
// Less, LessEqual, Greater, GreaterEqual) at every multi-index i of shape;
// a and b may broadcast by zero strides. IEEE rules: every comparison with
// NaN is false except NotEqual. Ordering comparisons need real T (it
// panics for complex T).
func Compare[T strided.Scalar](r par.Runner, k op.Kind, shape []int, dst strided.Ref[bool], a, b strided.Ref[T]) {
	if !IsComparison(k) {
		panic("elementwise.Compare: no kernel for " + k.String())
	}
	t := mixedTask[bool, T]{kind: mCompare, k: k, d: dst.Data, a: a.Data, b: b.Data}
	if !initMixed(&t.l, "Compare", shape) {
		return
	}
	t.l.Add(dst.Off, dst.Strides)
	t.l.Add(a.Off, a.Strides)
	t.l.Add(b.Off, b.Strides)
	runMixed(r, &t, 1+2*strided.ElemSize[T]())
}

// Select sets dst[i] = a[i] where mask[i], else b[i] (Where), at every
// multi-index i of shape; mask, a and b may broadcast by zero strides.
func Select[T strided.Elem](r par.Runner, shape []int, dst strided.Ref[T], mask strided.Ref[bool], a, b strided.Ref[T]) {
	t := mixedTask[T, T]{kind: mSelect, d: dst.Data, m: mask.Data, a: a.Data, b: b.Data}
	if !initMixed(&t.l, "Select", shape) {
		return
	}
	t.l.Add(dst.Off, dst.Strides)
	t.l.Add(mask.Off, mask.Strides)
	t.l.Add(a.Off, a.Strides)
	t.l.Add(b.Off, b.Strides)
	runMixed(r, &t, 1+3*strided.ElemSize[T]())
}

// Logical sets dst[i] = a[i] k b[i] for LogicalAnd, LogicalOr and
// LogicalXor, and dst[i] = !a[i] for LogicalNot (b is then ignored), at
// every multi-index i of shape.
func Logical(r par.Runner, k op.Kind, shape []int, dst, a, b strided.Ref[bool]) {
	if !IsLogical(k) {
		panic("elementwise.Logical: no kernel for " + k.String())
	}
	if k == op.LogicalNot {
		b = a
	}
	t := mixedTask[bool, bool]{kind: mLogical, k: k, d: dst.Data, a: a.Data, b: b.Data}
	if !initMixed(&t.l, "Logical", shape) {
		return
	}
	t.l.Add(dst.Off, dst.Strides)
	t.l.Add(a.Off, a.Strides)
	t.l.Add(b.Off, b.Strides)
	runMixed(r, &t, 3)
}

func predicateRow[T strided.Elem](k op.Kind, n int, d []bool, do, ds int, a []T, ao, as int) {
	switch a := any(a).(type) {
	case []float64:
		predicateFloat(k, n, d, do, ds, a, ao, as)
	case []float32:
		predicateFloat(k, n, d, do, ds, a, ao, as)
	case []complex128:
		predicateComplex(k, n, d, do, ds, a, ao, as)
	case []complex64:
		predicateComplex(k, n, d, do, ds, a, ao, as)
	}
}

func predicateFloat[F float32 | float64](k op.Kind, n int, d []bool, do, ds int, a []F, ao, as int) {
	for range n {
		d[do] = floatPredicate(k, float64(a[ao]))
		do, ao = do+ds, ao+as
	}
}

func predicateComplex[C complex64 | complex128](k op.Kind, n int, d []bool, do, ds int, a []C, ao, as int) {
	for range n {
		v := complex128(a[ao])
		re, im := floatPredicate(k, real(v)), floatPredicate(k, imag(v))
		if k == op.IsFinite {
			d[do] = re && im // finite when both parts are
		} else {
			d[do] = re || im // NaN or infinite when either part is
		}
		do, ao = do+ds, ao+as
	}
}

func floatPredicate(k op.Kind, x float64) bool {
	switch k {
	case op.IsNaN:
		return x != x
	case op.IsInf:
		return math.IsInf(x, 0)
	}
	return !math.IsInf(x, 0) && x == x
}

func compareRow[T strided.Elem](k op.Kind, n int, d []bool, do, ds int, a []T, ao, as int, b []T, bo, bs int) {
	switch a := any(a).(type) {
	case []float64:
		compareOrdered(k, n, d, do, ds, a, ao, as, any(b).([]float64), bo, bs)
	case []float32:
		compareOrdered(k, n, d, do, ds, a, ao, as, any(b).([]float32), bo, bs)
	case []complex128:
		compareEqual(k, n, d, do, ds, a, ao, as, any(b).([]complex128), bo, bs)
	case []complex64:
		compareEqual(k, n, d, do, ds, a, ao, as, any(b).([]complex64), bo, bs)
	}
}

func compareOrdered[F float32 | float64](k op.Kind, n int, d []bool, do, ds int, a []F, ao, as int, b []F, bo, bs int) {
	switch k {
	case op.Less:
		for range n {
			d[do] = a[ao] < b[bo]
			do, ao, bo = do+ds, ao+as, bo+bs
		}
	case op.LessEqual:
		for range n {
			d[do] = a[ao] <= b[bo]
			do, ao, bo = do+ds, ao+as, bo+bs
		}
	case op.Greater:
		for range n {
			d[do] = a[ao] > b[bo]
			do, ao, bo = do+ds, ao+as, bo+bs
		}
	case op.GreaterEqual:
		for range n {
			d[do] = a[ao] >= b[bo]
			do, ao, bo = do+ds, ao+as, bo+bs
		}
	default:
		compareEqual(k, n, d, do, ds, a, ao, as, b, bo, bs)
	}
}

func compareEqual[T comparable](k op.Kind, n int, d []bool, do, ds int, a []T, ao, as int, b []T, bo, bs int) {
	if k != op.Equal && k != op.NotEqual {
		panic("elementwise.Compare: " + k.String() + " needs a real dtype")
	}
	ne := k == op.NotEqual
	for range n {
		d[do] = (a[ao] == b[bo]) != ne
		do, ao, bo = do+ds, ao+as, bo+bs
	}
}

func logicalRow(k op.Kind, n int, d []bool, do, ds int, a []bool, ao, as int, b []bool, bo, bs int) {
	switch k {
	case op.LogicalNot:
		for range n {
			d[do] = !a[ao]
			do, ao = do+ds, ao+as
		}
	case op.LogicalAnd:
		for range n {
			d[do] = a[ao] && b[bo]
			do, ao, bo = do+ds, ao+as, bo+bs
		}
	case op.LogicalOr:
		for range n {
			d[do] = a[ao] || b[bo]
			do, ao, bo = do+ds, ao+as, bo+bs
		}
	case op.LogicalXor:
		for range n {
			d[do] = a[ao] != b[bo]
			do, ao, bo = do+ds, ao+as, bo+bs
		}
	}
}
