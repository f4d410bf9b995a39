package cpu

import (
	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/internal/kernel/index"
	"github.com/tenferro-go/tenferro/internal/kernel/permute"
	"github.com/tenferro-go/tenferro/internal/kernel/strided"
	"github.com/tenferro-go/tenferro/internal/op"
	"github.com/tenferro-go/tenferro/internal/par"
)

// The Index capability of every dtype, on the kernels of
// internal/kernel/index.

var _ backend.Index[bool] = (*data[bool])(nil)

// indexScratch is what the index kernels reuse from call to call, so that
// a warm engine allocates nothing: the checked index values, strides of
// compact and broadcast operands, and per dtype the room of a masked
// selection into a destination that is not unit-stride.
type indexScratch struct {
	idx     []int64
	strides [3][strided.MaxRank]int
	sel     [op.NumDTypes]any // []T
}

// indices copies index into the engine's scratch as a compact column-major
// view, checks every value against extent and turns negative values into
// positions from the end. The first value outside [-extent, extent) gives
// an *IndexError.
func (e *Engine) indices(index *backend.View[int64], extent int) (strided.Ref[int64], error) {
	n := op.Count(index.Shape)
	if cap(e.ix.idx) < n {
		e.ix.idx = make([]int64, n)
	}
	buf := e.ix.idx[:n]
	st := e.ix.strides[2][:len(index.Shape)]
	s := 1
	for d, x := range index.Shape {
		st[d] = s
		s *= x
	}
	out := strided.Ref[int64]{Data: buf, Strides: st}
	permute.Copy(e.runner, index.Shape, out, ref(index))
	ext := int64(extent)
	for i, v := range buf {
		if v < 0 {
			v += ext
		}
		if uint64(v) >= uint64(ext) {
			return out, &backend.IndexError{At: i, Value: buf[i], Extent: extent}
		}
		buf[i] = v
	}
	return out, nil
}

// Take implements backend.Index.
func (k *data[T]) Take(dst, src *backend.View[T], axis int, idx *backend.View[int64]) error {
	ix, err := k.e.indices(idx, src.Shape[axis])
	if err != nil {
		return err
	}
	index.Take(k.e.runner, dst.Shape, axis, ref(dst), ref(src), ix.Data, src.Shape[axis])
	return nil
}

// Gather implements backend.Index.
func (k *data[T]) Gather(dst, src *backend.View[T], axis int, idx *backend.View[int64]) error {
	ix, err := k.e.indices(idx, src.Shape[axis])
	if err != nil {
		return err
	}
	index.Gather(k.e.runner, dst.Shape, axis, ref(dst), ref(src), ix, src.Shape[axis])
	return nil
}

// ScatterAdd implements backend.Index for the dtypes that add (all but
// bool).
func (k *data[T]) ScatterAdd(dst, base *backend.View[T], axis int, idx *backend.View[int64], src *backend.View[T]) error {
	if backend.DTypeOf[T]() == op.Bool {
		return tf.Errorf(tf.ErrUnsupported, "ScatterAdd", "dst", "a dtype with addition", "bool")
	}
	ix, err := k.e.indices(idx, dst.Shape[axis])
	if err != nil {
		return err
	}
	r := k.e.runner
	if !sameView(dst, base) {
		permute.Copy(r, dst.Shape, ref(dst), ref(base))
	}
	shape := idx.Shape
	switch d := any(dst).(type) {
	case *backend.View[float32]:
		scatter(r, shape, axis, d, ix, any(src).(*backend.View[float32]))
	case *backend.View[float64]:
		scatter(r, shape, axis, d, ix, any(src).(*backend.View[float64]))
	case *backend.View[complex64]:
		scatter(r, shape, axis, d, ix, any(src).(*backend.View[complex64]))
	case *backend.View[complex128]:
		scatter(r, shape, axis, d, ix, any(src).(*backend.View[complex128]))
	case *backend.View[int64]:
		scatter(r, shape, axis, d, ix, any(src).(*backend.View[int64]))
	}
	return nil
}

func scatter[U index.Number](r par.Runner, shape []int, axis int, dst *backend.View[U], ix strided.Ref[int64], src *backend.View[U]) {
	index.ScatterAdd(r, shape, axis, ref(dst), ix, ref(src), dst.Shape[axis])
}

// sameView reports whether a and b are the same view of one buffer.
func sameView[T backend.Elem](a, b *backend.View[T]) bool {
	if len(a.Data) == 0 || len(b.Data) == 0 || &a.Data[0] != &b.Data[0] || a.Off != b.Off {
		return false
	}
	for d, s := range a.Strides {
		if b.Strides[d] != s {
			return false
		}
	}
	return true
}

// CountTrue implements backend.Index.
func (k *data[T]) CountTrue(mask *backend.View[bool], shape []int) int {
	return index.CountTrue(k.e.runner, shape, broadcastRef(mask, shape, k.e.ix.strides[0][:]))
}

// MaskedSelect implements backend.Index: straight into dst when it is
// unit-stride, else through the engine's scratch and a copy.
func (k *data[T]) MaskedSelect(dst, src *backend.View[T], mask *backend.View[bool], shape []int) (int, error) {
	e := k.e
	ms := broadcastRef(mask, shape, e.ix.strides[0][:])
	ss := broadcastRef(src, shape, e.ix.strides[1][:])
	m := dst.Shape[0]
	direct := m <= 1 || dst.Strides[0] == 1
	var out []T
	switch {
	case m == 0:
	case direct:
		out = dst.Data[dst.Off : dst.Off+m]
	default:
		buf, _ := e.ix.sel[backend.DTypeOf[T]()].([]T)
		if cap(buf) < m {
			buf = make([]T, m)
			e.ix.sel[backend.DTypeOf[T]()] = buf
		}
		out = buf[:m]
	}
	n := index.MaskedSelect(e.runner, shape, out, ss, ms)
	var zero T
	for i := n; i < m; i++ {
		out[i] = zero
	}
	if !direct {
		one := e.ix.strides[2][:1]
		one[0] = 1
		permute.Copy(e.runner, dst.Shape, ref(dst), strided.Ref[T]{Data: out, Strides: one})
	}
	return n, nil
}

// Pad implements backend.Index.
func (k *data[T]) Pad(dst, src *backend.View[T], before []int, mode op.PadMode, value T) error {
	index.Pad(k.e.runner, padModes[mode], dst.Shape, ref(dst), src.Shape, ref(src), before, value)
	return nil
}

// padModes maps the catalog's pad modes to the kernel's.
var padModes = [op.NumPadModes]index.Mode{
	op.PadConstant:  index.Constant,
	op.PadEdge:      index.Edge,
	op.PadReflect:   index.Reflect,
	op.PadSymmetric: index.Symmetric,
	op.PadWrap:      index.Wrap,
}

// Roll implements backend.Index.
func (k *data[T]) Roll(dst, src *backend.View[T], shifts []int) error {
	index.Roll(k.e.runner, dst.Shape, ref(dst), ref(src), shifts)
	return nil
}

// Tri implements backend.Index.
func (k *data[T]) Tri(dst, src *backend.View[T], kk int, upper bool) error {
	index.Tri(k.e.runner, dst.Shape, ref(dst), ref(src), kk, upper)
	return nil
}
