package cpu

import (
	"strconv"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/internal/hugepage"
	"github.com/tenferro-go/tenferro/internal/kernel/elementwise"
	"github.com/tenferro-go/tenferro/internal/kernel/simd"
	"github.com/tenferro-go/tenferro/internal/kernel/strided"
	"github.com/tenferro-go/tenferro/internal/op"
)

// FusedReduceBlock is the number of elements of the program's result that
// a fused reduction evaluates at a time: a block of that size stays in the
// second-level cache between its evaluation and its reduction. Blocks span
// whole extents of every axis but the last one longer than 1, and a range
// of that one (a single index when the other axes alone exceed the size).
var FusedReduceBlock = 1 << 15

// fusedReduction is the state of a fused kernel's Reduce: the evaluation
// shape, the block buffer, the partial results of the blocks along a
// reduced axis and the views passed to the reduction kernels, all kept so
// that a warm call allocates nothing.
type fusedReduction[T strided.Scalar] struct {
	shape, block [strided.MaxRank]int
	blockStrides [strided.MaxRank]int
	buf          []T
	// levels[i] holds, when full[i], the combined partial result of 2^i
	// consecutive blocks (a binary counter), so that the blocks combine
	// pairwise; part is the partial result of the current block.
	levels     [][]T
	full       []bool
	part       []T
	partShape  [strided.MaxRank]int
	partStride [strided.MaxRank]int
	dstShape   [strided.MaxRank]int
	src, out   backend.View[T]
}

// Reduce implements backend.FusedKernel: the program is evaluated block by
// block along the last axis of extent above 1 (see FusedReduceBlock) and
// each block reduced at once. Where that axis is kept, each block's result
// is a range of dst; where it is reduced, the blocks' results are combined
// pairwise (a sum of b blocks has the error bound of the pairwise sum of
// its b partial sums, each of which has the bound of Sum), then copied to
// dst.
func (f *fused[T]) Reduce(kind op.Kind, dst, store *backend.View[T], inputs []*backend.View[T], mask uint64) error {
	const name = "FusedReduce"
	if len(inputs) != f.nin {
		return tf.Errorf(tf.ErrArgument, name, "inputs", strconv.Itoa(f.nin)+" inputs", "%d", len(inputs))
	}
	switch kind {
	case op.Sum, op.Mean, op.Prod:
	case op.Max, op.Min:
		if strided.Kind[T]() > 1 {
			return unsupported(name, kind)
		}
	default:
		return unsupported(name, kind)
	}
	if f.red == nil {
		f.red = new(fusedReduction[T])
	}
	s := f.red
	rank := 0
	for _, in := range inputs {
		rank = max(rank, len(in.Shape))
	}
	shape := s.shape[:rank]
	for d := range shape {
		shape[d] = 1
	}
	for k, in := range inputs {
		lead := rank - len(in.Shape)
		for d, x := range in.Shape {
			switch {
			case shape[lead+d] == 1:
				shape[lead+d] = x
			case x != 1 && x != shape[lead+d]:
				return tf.Errorf(tf.ErrShape, name, "inputs["+strconv.Itoa(k)+"]", "shapes that broadcast", "%v against %v", in.Shape, shape)
			}
		}
	}
	if mask>>uint(rank) != 0 {
		return tf.Errorf(tf.ErrArgument, name, "mask", "axes below rank "+strconv.Itoa(rank), "%#x", mask)
	}
	last := -1
	for d := rank - 1; d >= 0 && last < 0; d-- {
		if shape[d] > 1 {
			last = d
		}
	}
	n := tf.Numel(shape)
	if last < 0 || n == 0 || n <= FusedReduceBlock {
		return f.reduceBlock(kind, dst, store, inputs, shape, mask, -1, 0, 0)
	}
	inner := n / shape[last]
	rows := max(1, FusedReduceBlock/inner)
	if mask&(1<<uint(last)) == 0 {
		// The last axis is kept: each block reduces into its range of dst.
		da := last
		if len(dst.Shape) < rank {
			da -= popcount(mask & (1<<uint(last) - 1))
		}
		for r0 := 0; r0 < shape[last]; r0 += rows {
			b := min(rows, shape[last]-r0)
			copy(s.dstShape[:len(dst.Shape)], dst.Shape)
			s.dstShape[da] = b
			s.out = backend.View[T]{Data: dst.Data, Off: dst.Off + r0*dst.Strides[da], Shape: s.dstShape[:len(dst.Shape)], Strides: dst.Strides}
			if err := f.reduceBlock(kind, &s.out, store, inputs, shape, mask, last, r0, b); err != nil {
				return err
			}
		}
		s.out = backend.View[T]{}
		return nil
	}
	// The last axis is reduced: partial results combine pairwise.
	m := tf.Numel(dst.Shape)
	pshape := s.partShape[:len(dst.Shape)]
	copy(pshape, dst.Shape)
	st := 1
	for d, x := range pshape {
		s.partStride[d] = st
		st *= x
	}
	if cap(s.part) < m {
		s.part = make([]T, m)
	}
	s.part = s.part[:m]
	for i := range s.full {
		s.full[i] = false
	}
	blockKind := kind
	if kind == op.Mean {
		blockKind = op.Sum
	}
	for r0 := 0; r0 < shape[last]; r0 += rows {
		b := min(rows, shape[last]-r0)
		s.out = backend.View[T]{Data: s.part, Shape: pshape, Strides: s.partStride[:len(pshape)]}
		if err := f.reduceBlock(blockKind, &s.out, store, inputs, shape, mask, last, r0, b); err != nil {
			return err
		}
		i := 0
		for ; i < len(s.full) && s.full[i]; i++ {
			combine(kind, s.part, s.levels[i])
			s.full[i] = false
		}
		if i == len(s.full) {
			s.levels = append(s.levels, make([]T, m))
			s.full = append(s.full, false)
		}
		if cap(s.levels[i]) < m {
			s.levels[i] = make([]T, m)
		}
		s.levels[i] = s.levels[i][:m]
		s.levels[i], s.part = s.part, s.levels[i]
		s.full[i] = true
	}
	var acc []T
	for i, full := range s.full {
		if full {
			if acc == nil {
				acc = s.levels[i]
			} else {
				combine(kind, acc, s.levels[i])
			}
		}
	}
	s.out = backend.View[T]{Data: acc, Shape: pshape, Strides: s.partStride[:len(pshape)]}
	err := f.k.Copy(dst, &s.out)
	s.out = backend.View[T]{}
	if err == nil && kind == op.Mean {
		f.k.scale(dst, inverse[T](float64(reducedCount(shape, mask))))
	}
	return err
}

// reduceBlock evaluates the program over the block of shape that spans
// rows [r0, r0+b) of axis (all of shape when axis < 0), into the block
// buffer or, when store is not nil, into store's block, and reduces it into
// dst.
func (f *fused[T]) reduceBlock(kind op.Kind, dst, store *backend.View[T], inputs []*backend.View[T], shape []int, mask uint64, axis, r0, b int) error {
	s := f.red
	bs := s.block[:len(shape)]
	copy(bs, shape)
	if axis >= 0 {
		bs[axis] = b
	}
	n := tf.Numel(bs)
	var out strided.Ref[T]
	if store != nil {
		out = strided.Ref[T]{Data: store.Data, Off: store.Off, Strides: store.Strides}
		if axis >= 0 {
			out.Off += r0 * store.Strides[axis]
		}
		s.src = backend.View[T]{Data: out.Data, Off: out.Off, Shape: bs, Strides: store.Strides}
	} else {
		if cap(s.buf) < n {
			s.buf = hugepage.Make[T](n)
		}
		st := s.blockStrides[:len(bs)]
		c := 1
		for d, x := range bs {
			st[d] = c
			c *= x
		}
		out = strided.Ref[T]{Data: s.buf[:n], Strides: st}
		s.src = backend.View[T]{Data: s.buf[:n], Shape: bs, Strides: st}
	}
	for k, in := range inputs {
		f.refs[k] = broadcastRef(in, shape, f.strides[k][:len(shape)])
		if axis >= 0 {
			f.refs[k].Off += r0 * f.refs[k].Strides[axis]
		}
	}
	err := elementwise.Eval(nil, &f.scratch, f.prog, bs, out, f.refs[:f.nin])
	for k := range f.nin {
		f.refs[k].Data = nil
	}
	if err == nil {
		err = f.k.Reduce(kind, 0, dst, &s.src, mask)
	}
	s.src = backend.View[T]{}
	return err
}

// combine sets a[i] = a[i] ⊕ b[i] for the merge ⊕ of reduction kind: a
// sum (Sum, Mean), a product, or Go's max and min.
func combine[T strided.Scalar](kind op.Kind, a, b []T) {
	switch x := any(a).(type) {
	case []float32:
		if o, ok := simdMerge(kind); ok {
			simd.VV(o, x, x, any(b).([]float32))
			return
		}
	case []float64:
		if o, ok := simdMerge(kind); ok {
			simd.VV(o, x, x, any(b).([]float64))
			return
		}
	}
	b = b[:len(a)]
	if kind == op.Prod {
		for i := range a {
			a[i] *= b[i]
		}
		return
	}
	for i := range a {
		a[i] += b[i]
	}
}

func simdMerge(kind op.Kind) (simd.Op, bool) {
	switch kind {
	case op.Sum, op.Mean:
		return simd.Add, true
	case op.Prod:
		return simd.Mul, true
	case op.Max:
		return simd.GoMax, true
	case op.Min:
		return simd.GoMin, true
	}
	return 0, false
}

func popcount(m uint64) int {
	n := 0
	for ; m != 0; m &= m - 1 {
		n++
	}
	return n
}
