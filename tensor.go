package tenferro

import (
	"fmt"
	"math"

	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/internal/hugepage"
	"github.com/tenferro-go/tenferro/internal/op"
)

// Tensor is a dense n-dimensional array of T, or a strided view of one.
//
// # Layout
//
// Element (i0, i1, ..., i_{r-1}) lives at Data[off + Σ_d i_d*strides[d]].
// Tensors made by constructors and operations are compact and column-major:
// strides[0] = 1 and strides[d] = strides[d-1]*shape[d-1], so the first index
// is fastest (Fortran, Julia, LAPACK order). Views (Permute, Transpose, Slice,
// Reverse, Diagonal, Broadcast, Reshape, Squeeze, Unsqueeze, Split) change
// only shape, strides and offset; strides may be zero (broadcast) or negative
// (reversed).
//
// # Ownership
//
// A tensor returned by an engine operation borrows storage from that
// engine's buffer pool. [Tensor.Release] returns the storage to the pool;
// afterwards the tensor and every view of it refuse use with [ErrReleased].
// Release is optional: storage that is never released is collected by the
// garbage collector like any other memory, it just does not get recycled.
//
// A Tensor is not safe for concurrent mutation; concurrent reads are fine.
// The zero Tensor is not usable: operations reject it with ErrArgument.
type Tensor[T Elem] struct {
	v      backend.View[T] // data (the storage's buffer), offset, shape, strides
	st     *backend.Storage[T]
	gen    uint64
	inline [8]int // backing store of shape and strides up to rank 4
}

// newHeader returns a tensor header of rank r whose shape and strides are
// zeroed and ready to fill.
func newHeader[T Elem](st *backend.Storage[T], r int) *Tensor[T] {
	t := &Tensor[T]{st: st, gen: st.Gen()}
	var dims []int
	if r <= 4 {
		dims = t.inline[:2*r]
	} else {
		dims = make([]int, 2*r)
	}
	t.v.Data, t.v.Shape, t.v.Strides = st.Buf(), dims[:r:r], dims[r:]
	return t
}

// wrap returns a compact column-major tensor of the given (validated)
// shape over st, starting at element 0.
func wrap[T Elem](st *backend.Storage[T], shape []int) *Tensor[T] {
	t := newHeader(st, len(shape))
	s := 1
	for d, n := range shape {
		t.v.Shape[d] = n
		t.v.Strides[d] = s
		s *= n
	}
	return t
}

// desc describes t for a backend: a pointer into t, so that passing it
// costs neither a copy nor an allocation.
func (t *Tensor[T]) desc() *backend.View[T] { return &t.v }

// checkShape validates extents (non-negative, rank and element count
// within the limits) and returns the element count.
func checkShape(name string, shape []int) (int, error) {
	n, f := op.Numel("shape", shape)
	if f != nil {
		return 0, faultError(name, f)
	}
	return n, nil
}

// checkNew validates the shape of a new tensor of T that a constructor
// allocates (no engine: DefaultMemoryBudget bounds it) and returns its
// element count.
func checkNew[T Elem](name string, shape []int) (int, error) {
	n, err := checkShape(name, shape)
	if err == nil {
		err = checkBudget(name, n, DTypeOf[T]().Size(), defaultBudget())
	}
	return n, err
}

// Numel returns the number of elements of shape (1 for rank 0). It does not
// check for overflow: validate shapes first.
func Numel(shape []int) int { return op.Count(shape) }

// MaxRank is the largest rank any operation or view accepts.
const MaxRank = op.MaxRank

// FromSlice returns a compact column-major tensor that uses data as its
// storage (no copy): element (i, j, ...) is data[i + shape[0]*(j + ...)].
// len(data) must equal the product of shape.
func FromSlice[T Elem](data []T, shape ...int) (*Tensor[T], error) {
	n, err := checkShape("FromSlice", shape)
	if err != nil {
		return nil, err
	}
	if len(data) != n {
		return nil, newError("FromSlice", "data", fmt.Sprintf("%d elements for shape %v", n, shape), fmt.Sprintf("%d", len(data)), ErrShape)
	}
	return wrap(backend.NewStorage(data, nil), shape), nil
}

// FromRowMajor returns a new compact column-major tensor holding data read
// in row-major (C, NumPy default) order: data[((i*shape[1])+j)*...] is
// element (i, j, ...). data is copied.
func FromRowMajor[T Elem](data []T, shape ...int) (*Tensor[T], error) {
	n, err := checkNew[T]("FromRowMajor", shape)
	if err != nil {
		return nil, err
	}
	if len(data) != n {
		return nil, newError("FromRowMajor", "data", fmt.Sprintf("%d elements for shape %v", n, shape), fmt.Sprintf("%d", len(data)), ErrShape)
	}
	// Read data as a view of shape with row-major strides.
	src := wrap(backend.NewStorage(data, nil), shape)
	s := 1
	for d := len(shape) - 1; d >= 0; d-- {
		src.v.Strides[d] = s
		s *= shape[d]
	}
	t := wrap(backend.NewStorage(hugepage.Make[T](n), nil), shape)
	copyStrided(t, src)
	return t, nil
}

// Full returns a new compact tensor with every element equal to v.
func Full[T Elem](v T, shape ...int) (*Tensor[T], error) {
	n, err := checkNew[T]("Full", shape)
	if err != nil {
		return nil, err
	}
	return full(v, n, shape), nil
}

func full[T Elem](v T, n int, shape []int) *Tensor[T] {
	buf := hugepage.Make[T](n)
	if !zeroBits(v) {
		for i := range buf {
			buf[i] = v
		}
	}
	return wrap(backend.NewStorage(buf, nil), shape)
}

// zeroBits reports whether v is the zero value bit for bit: -0 compares
// equal to 0 but is not what a fresh buffer holds.
func zeroBits[T Elem](v T) bool {
	switch x := any(v).(type) {
	case float32:
		return math.Float32bits(x) == 0
	case float64:
		return math.Float64bits(x) == 0
	case complex64:
		return math.Float32bits(real(x)) == 0 && math.Float32bits(imag(x)) == 0
	case complex128:
		return math.Float64bits(real(x)) == 0 && math.Float64bits(imag(x)) == 0
	}
	var zero T
	return v == zero
}

// Zeros returns a new compact tensor of zeros (false for bool).
func Zeros[T Elem](shape ...int) (*Tensor[T], error) {
	n, err := checkNew[T]("Zeros", shape)
	if err != nil {
		return nil, err
	}
	var zero T
	return full(zero, n, shape), nil
}

// Ones returns a new compact tensor of ones (true for bool).
func Ones[T Elem](shape ...int) (*Tensor[T], error) {
	n, err := checkNew[T]("Ones", shape)
	if err != nil {
		return nil, err
	}
	return full(one[T](), n, shape), nil
}

// check reports ErrReleased (naming op and arg) when t's storage was
// released, and an ErrArgument for a nil or zero tensor.
func (t *Tensor[T]) check(op, arg string) error {
	if t == nil {
		return newError(op, arg, "a tensor", "nil", ErrArgument)
	}
	if t.st == nil {
		return newError(op, arg, "a tensor made by a constructor or an operation", "the zero Tensor", ErrArgument)
	}
	if t.st.Gen() != t.gen {
		return newError(op, arg, "a live tensor", "a released tensor", ErrReleased)
	}
	return nil
}

// Valid reports whether t is non-nil, not the zero Tensor and not released.
func (t *Tensor[T]) Valid() bool { return t != nil && t.st != nil && t.st.Gen() == t.gen }

// Release returns t's storage to the pool it came from (if any). t and every
// view sharing its storage become unusable ([ErrReleased]). Releasing a
// released tensor returns ErrReleased; releasing a tensor that owns its
// memory (made by FromSlice, Zeros, ...) only marks it released.
func (t *Tensor[T]) Release() error {
	if err := t.check("Release", "t"); err != nil {
		return err
	}
	t.st.Release()
	return nil
}

// DType returns the element type.
func (t *Tensor[T]) DType() DType { return DTypeOf[T]() }

// Rank returns the number of axes.
func (t *Tensor[T]) Rank() int { return len(t.v.Shape) }

// Shape returns the extents. The slice belongs to t: do not modify it.
func (t *Tensor[T]) Shape() []int { return t.v.Shape }

// Strides returns the element strides. The slice belongs to t: do not
// modify it.
func (t *Tensor[T]) Strides() []int { return t.v.Strides }

// Offset returns the index of element (0, ..., 0) in the storage buffer.
func (t *Tensor[T]) Offset() int { return t.v.Off }

// Dim returns the extent of axis d (negative d counts from the end, -1 is
// the last axis), or -1 when d is out of range.
func (t *Tensor[T]) Dim(d int) int {
	d, f := op.Axis("d", d, len(t.v.Shape))
	if f != nil {
		return -1
	}
	return t.v.Shape[d]
}

// Len returns the number of elements.
func (t *Tensor[T]) Len() int { return Numel(t.v.Shape) }

// IsCompact reports whether t is compact column-major (strides as a new
// tensor of its shape would have, ignoring axes of extent 1), so that its
// elements are Storage()[Offset() : Offset()+Len()] in column-major order.
func (t *Tensor[T]) IsCompact() bool {
	s := 1
	for d, n := range t.v.Shape {
		if n != 1 && t.v.Strides[d] != s {
			return n == 0 || t.Len() == 0
		}
		s *= n
	}
	return true
}

// Storage returns the whole backing buffer (read it with Offset and
// Strides), or nil when t is released.
func (t *Tensor[T]) Storage() []T {
	if !t.Valid() {
		return nil
	}
	return t.st.Buf()
}

// Data returns the elements of a compact tensor in column-major order,
// sharing memory with t. It fails with ErrLayout for other views (use
// Copy or Clone first) and ErrReleased after Release.
func (t *Tensor[T]) Data() ([]T, error) {
	if err := t.check("Data", "t"); err != nil {
		return nil, err
	}
	if !t.IsCompact() {
		return nil, newError("Data", "t", "a compact column-major tensor", fmt.Sprintf("strides %v for shape %v", t.v.Strides, t.v.Shape), ErrLayout)
	}
	n := t.Len()
	if n == 0 {
		// An empty view may carry any offset (a slice past the end of its
		// axis): it has no elements to share.
		return []T{}, nil
	}
	return t.st.Buf()[t.v.Off : t.v.Off+n : t.v.Off+n], nil
}

// index returns the storage index of idx after bounds checks; negative
// indices count from the end of their axis, as in NumPy.
func (t *Tensor[T]) index(name string, idx []int) (int, error) {
	if err := t.check(name, "t"); err != nil {
		return 0, err
	}
	if len(idx) != len(t.v.Shape) {
		return 0, newError(name, "index", fmt.Sprintf("%d indices", len(t.v.Shape)), fmt.Sprintf("%d", len(idx)), ErrShape)
	}
	p := t.v.Off
	for d, i := range idx {
		n := t.v.Shape[d]
		if i < -n || i >= n {
			return 0, newError(name, "index", fmt.Sprintf("-%d <= index < %d at axis %d", n, n, d), fmt.Sprintf("%d", i), ErrArgument)
		}
		if i < 0 {
			i += n
		}
		p += i * t.v.Strides[d]
	}
	return p, nil
}

// At returns element idx (negative indices count from the end of their
// axis).
func (t *Tensor[T]) At(idx ...int) (T, error) {
	p, err := t.index("At", idx)
	if err != nil {
		var zero T
		return zero, err
	}
	return t.st.Buf()[p], nil
}

// Set stores v at element idx (negative indices count from the end). On a
// broadcast view (zero stride) it writes the one shared element.
func (t *Tensor[T]) Set(v T, idx ...int) error {
	p, err := t.index("Set", idx)
	if err != nil {
		return err
	}
	t.st.Buf()[p] = v
	return nil
}

// Clone returns a new compact column-major copy of t that owns fresh memory
// (not from any pool).
func (t *Tensor[T]) Clone() (*Tensor[T], error) {
	if err := t.check("Clone", "t"); err != nil {
		return nil, err
	}
	if _, err := checkNew[T]("Clone", t.v.Shape); err != nil {
		return nil, err
	}
	c := wrap(backend.NewStorage(hugepage.Make[T](t.Len()), nil), t.v.Shape)
	copyStrided(c, t)
	return c, nil
}

// copyStrided copies src into dst elementwise (same shape), walking dst in
// column-major order. A plain reference loop used by constructors and
// Clone; engines use the blocked kernels.
func copyStrided[T Elem](dst, src *Tensor[T]) {
	n := src.Len()
	if n == 0 {
		return
	}
	r := len(src.v.Shape)
	var idxBuf [MaxRank]int
	idx := idxBuf[:r]
	ps, pd := src.v.Off, dst.v.Off
	sb, db := src.st.Buf(), dst.st.Buf()
	for k := 0; k < n; k++ {
		db[pd] = sb[ps]
		for d := 0; d < r; d++ {
			idx[d]++
			ps += src.v.Strides[d]
			pd += dst.v.Strides[d]
			if idx[d] < src.v.Shape[d] {
				break
			}
			ps -= src.v.Strides[d] * idx[d]
			pd -= dst.v.Strides[d] * idx[d]
			idx[d] = 0
		}
	}
}
