package tenferro

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
)

// Tensor is a dense n-dimensional array of T, or a strided view of one.
//
// # Layout
//
// Element (i0, i1, ..., i_{r-1}) lives at Data[off + Σ_d i_d*strides[d]].
// Tensors made by constructors and operations are compact and column-major:
// strides[0] = 1 and strides[d] = strides[d-1]*shape[d-1], so the first index
// is fastest (Fortran, Julia, LAPACK order). Views (Permute, Transpose, Slice,
// Reverse, Diagonal, Broadcast) change only shape, strides and offset; strides
// may be zero (broadcast) or negative (reversed).
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
type Tensor[T Scalar] struct {
	st      *Storage[T]
	gen     uint64
	off     int
	shape   []int
	strides []int
	inline  [8]int // backing store of shape and strides up to rank 4
}

// newHeader returns a tensor header of rank r whose shape and strides are
// zeroed and ready to fill.
func newHeader[T Scalar](st *Storage[T], r int) *Tensor[T] {
	t := &Tensor[T]{st: st, gen: st.gen}
	var dims []int
	if r <= 4 {
		dims = t.inline[:2*r]
	} else {
		dims = make([]int, 2*r)
	}
	t.shape, t.strides = dims[:r:r], dims[r:]
	return t
}

// setCompact sets shape and compact column-major strides.
func (t *Tensor[T]) setCompact(shape []int) {
	copy(t.shape, shape)
	s := 1
	for d, n := range shape {
		t.strides[d] = s
		s *= n
	}
}

// WrapStorage returns a compact column-major tensor of the given shape over
// st, starting at element 0. It is how backends build their outputs; shape
// must already be validated and st must hold at least Numel(shape) elements.
func WrapStorage[T Scalar](st *Storage[T], shape []int) *Tensor[T] {
	t := newHeader(st, len(shape))
	t.setCompact(shape)
	return t
}

// checkShape validates extents and returns the element count.
func checkShape(op string, shape []int) (int, error) {
	n := 1
	for d, e := range shape {
		if e < 0 {
			return 0, newError(op, "shape", "non-negative extents", fmt.Sprintf("extent %d at axis %d", e, d), ErrShape)
		}
		hi, lo := bits.Mul64(uint64(n), uint64(e))
		if hi != 0 || lo > uint64(maxElements) {
			return 0, newError(op, "shape", fmt.Sprintf("at most %d elements", maxElements), "shape "+fmtInts(shape), ErrShape)
		}
		n = int(lo)
	}
	return n, nil
}

// maxElements bounds element counts so that byte sizes never overflow.
const maxElements = 1 << 46

// Numel returns the number of elements of shape (1 for rank 0). It does not
// check for overflow: validate shapes first.
func Numel(shape []int) int {
	n := 1
	for _, e := range shape {
		n *= e
	}
	return n
}

// FromSlice returns a compact column-major tensor that uses data as its
// storage (no copy): element (i, j, ...) is data[i + shape[0]*(j + ...)].
// len(data) must equal the product of shape.
func FromSlice[T Scalar](data []T, shape ...int) (*Tensor[T], error) {
	n, err := checkShape("FromSlice", shape)
	if err != nil {
		return nil, err
	}
	if len(data) != n {
		return nil, newError("FromSlice", "data", fmt.Sprintf("%d elements for shape %v", n, shape), fmt.Sprintf("%d", len(data)), ErrShape)
	}
	return WrapStorage(NewStorage(data, nil), shape), nil
}

// FromRowMajor returns a new compact column-major tensor holding data read
// in row-major (C, NumPy default) order: data[((i*shape[1])+j)*...] is
// element (i, j, ...). data is copied.
func FromRowMajor[T Scalar](data []T, shape ...int) (*Tensor[T], error) {
	n, err := checkShape("FromRowMajor", shape)
	if err != nil {
		return nil, err
	}
	if len(data) != n {
		return nil, newError("FromRowMajor", "data", fmt.Sprintf("%d elements for shape %v", n, shape), fmt.Sprintf("%d", len(data)), ErrShape)
	}
	t := WrapStorage(NewStorage(make([]T, n), nil), shape)
	// Row-major strides of the source, walked in column-major order of t.
	rs := make([]int, len(shape))
	s := 1
	for d := len(shape) - 1; d >= 0; d-- {
		rs[d] = s
		s *= shape[d]
	}
	idx := make([]int, len(shape))
	src := 0
	buf := t.st.buf
	for k := 0; k < n; k++ {
		buf[k] = data[src]
		for d := 0; d < len(shape); d++ {
			idx[d]++
			src += rs[d]
			if idx[d] < shape[d] {
				break
			}
			src -= rs[d] * idx[d]
			idx[d] = 0
		}
	}
	return t, nil
}

// Full returns a new compact tensor with every element equal to v.
func Full[T Scalar](v T, shape ...int) (*Tensor[T], error) {
	n, err := checkShape("Full", shape)
	if err != nil {
		return nil, err
	}
	buf := make([]T, n)
	if v != 0 {
		for i := range buf {
			buf[i] = v
		}
	}
	return WrapStorage(NewStorage(buf, nil), shape), nil
}

// Zeros returns a new compact tensor of zeros.
func Zeros[T Scalar](shape ...int) (*Tensor[T], error) { return Full(T(0), shape...) }

// Ones returns a new compact tensor of ones.
func Ones[T Scalar](shape ...int) (*Tensor[T], error) { return Full(T(1), shape...) }

// Rand returns a new compact tensor of pseudo-random values uniform in
// [0, 1) (both parts for complex T), reproducible from seed. The stream is
// PCG seeded with (seed, 0x7465_6e66) and consumed in column-major order.
func Rand[T Scalar](seed uint64, shape ...int) (*Tensor[T], error) {
	n, err := checkShape("Rand", shape)
	if err != nil {
		return nil, err
	}
	r := rand.New(rand.NewPCG(seed, 0x74656e66))
	buf := make([]T, n)
	FillRand(r, buf)
	return WrapStorage(NewStorage(buf, nil), shape), nil
}

// FillRand fills buf with values uniform in [0, 1) drawn from r (both parts
// for complex T).
func FillRand[T Scalar](r *rand.Rand, buf []T) {
	switch b := any(buf).(type) {
	case []float32:
		for i := range b {
			b[i] = r.Float32()
		}
	case []float64:
		for i := range b {
			b[i] = r.Float64()
		}
	case []complex64:
		for i := range b {
			b[i] = complex(r.Float32(), r.Float32())
		}
	case []complex128:
		for i := range b {
			b[i] = complex(r.Float64(), r.Float64())
		}
	}
}

// check reports ErrReleased (naming op and arg) when t's storage was
// released, and an ErrArgument for a nil tensor.
func (t *Tensor[T]) check(op, arg string) error {
	if t == nil {
		return newError(op, arg, "a tensor", "nil", ErrArgument)
	}
	if t.st.gen != t.gen {
		return newError(op, arg, "a live tensor", "a released tensor", ErrReleased)
	}
	return nil
}

// Valid reports whether t is non-nil and not released.
func (t *Tensor[T]) Valid() bool { return t != nil && t.st.gen == t.gen }

// Release returns t's storage to the pool it came from (if any). t and every
// view sharing its storage become unusable ([ErrReleased]). Releasing a
// released tensor returns ErrReleased; releasing a tensor that owns its
// memory (made by FromSlice, Zeros, ...) only marks it released.
func (t *Tensor[T]) Release() error {
	if err := t.check("Release", "t"); err != nil {
		return err
	}
	st := t.st
	st.gen++
	if st.pool != nil {
		st.pool.Recycle(st)
	}
	return nil
}

// DType returns the element type.
func (t *Tensor[T]) DType() DType { return DTypeOf[T]() }

// Rank returns the number of axes.
func (t *Tensor[T]) Rank() int { return len(t.shape) }

// Shape returns the extents. The slice belongs to t: do not modify it.
func (t *Tensor[T]) Shape() []int { return t.shape }

// Strides returns the element strides. The slice belongs to t: do not
// modify it.
func (t *Tensor[T]) Strides() []int { return t.strides }

// Offset returns the index of element (0, ..., 0) in the storage buffer.
func (t *Tensor[T]) Offset() int { return t.off }

// Dim returns the extent of axis d (negative d counts from the end), or -1
// when d is out of range.
func (t *Tensor[T]) Dim(d int) int {
	if d < 0 {
		d += len(t.shape)
	}
	if d < 0 || d >= len(t.shape) {
		return -1
	}
	return t.shape[d]
}

// Len returns the number of elements.
func (t *Tensor[T]) Len() int { return Numel(t.shape) }

// IsCompact reports whether t is compact column-major (strides as a new
// tensor of its shape would have, ignoring axes of extent 1), so that its
// elements are Storage()[Offset() : Offset()+Len()] in column-major order.
func (t *Tensor[T]) IsCompact() bool {
	s := 1
	for d, n := range t.shape {
		if n != 1 && t.strides[d] != s {
			return n == 0 || t.Len() == 0
		}
		s *= n
	}
	return true
}

// Storage returns the whole backing buffer (for backends and kernels that
// use Offset and Strides), or nil when t is released.
func (t *Tensor[T]) Storage() []T {
	if !t.Valid() {
		return nil
	}
	return t.st.buf
}

// Data returns the elements of a compact tensor in column-major order,
// sharing memory with t. It fails with ErrLayout for other views (use
// Contiguous or Clone first) and ErrReleased after Release.
func (t *Tensor[T]) Data() ([]T, error) {
	if err := t.check("Data", "t"); err != nil {
		return nil, err
	}
	if !t.IsCompact() {
		return nil, newError("Data", "t", "a compact column-major tensor", fmt.Sprintf("strides %v for shape %v", t.strides, t.shape), ErrLayout)
	}
	n := t.Len()
	return t.st.buf[t.off : t.off+n : t.off+n], nil
}

// index returns the storage index of idx after bounds checks.
func (t *Tensor[T]) index(op string, idx []int) (int, error) {
	if err := t.check(op, "t"); err != nil {
		return 0, err
	}
	if len(idx) != len(t.shape) {
		return 0, newError(op, "index", fmt.Sprintf("%d indices", len(t.shape)), fmt.Sprintf("%d", len(idx)), ErrShape)
	}
	p := t.off
	for d, i := range idx {
		if i < 0 || i >= t.shape[d] {
			return 0, newError(op, "index", fmt.Sprintf("0 <= index < %d at axis %d", t.shape[d], d), fmt.Sprintf("%d", i), ErrArgument)
		}
		p += i * t.strides[d]
	}
	return p, nil
}

// At returns element idx.
func (t *Tensor[T]) At(idx ...int) (T, error) {
	p, err := t.index("At", idx)
	if err != nil {
		return 0, err
	}
	return t.st.buf[p], nil
}

// Set stores v at element idx. On a broadcast view (zero stride) it writes
// the one shared element.
func (t *Tensor[T]) Set(v T, idx ...int) error {
	p, err := t.index("Set", idx)
	if err != nil {
		return err
	}
	t.st.buf[p] = v
	return nil
}

// Clone returns a new compact column-major copy of t that owns fresh memory
// (not from any pool).
func (t *Tensor[T]) Clone() (*Tensor[T], error) {
	if err := t.check("Clone", "t"); err != nil {
		return nil, err
	}
	c := WrapStorage(NewStorage(make([]T, t.Len()), nil), t.shape)
	copyStrided(c, t)
	return c, nil
}

// copyStrided copies src into dst elementwise (same shape), walking dst in
// column-major order. A plain reference loop used by constructors and
// Clone; engines use the blocked kernels.
func copyStrided[T Scalar](dst, src *Tensor[T]) {
	n := src.Len()
	if n == 0 {
		return
	}
	r := len(src.shape)
	var idxBuf [16]int
	idx := idxBuf[:0]
	if r <= len(idxBuf) {
		idx = idxBuf[:r]
	} else {
		idx = make([]int, r)
	}
	ps, pd := src.off, dst.off
	sb, db := src.st.buf, dst.st.buf
	for k := 0; k < n; k++ {
		db[pd] = sb[ps]
		for d := 0; d < r; d++ {
			idx[d]++
			ps += src.strides[d]
			pd += dst.strides[d]
			if idx[d] < src.shape[d] {
				break
			}
			ps -= src.strides[d] * idx[d]
			pd -= dst.strides[d] * idx[d]
			idx[d] = 0
		}
	}
}

// String formats small tensors fully and large ones by shape only.
func (t *Tensor[T]) String() string {
	if t == nil {
		return "Tensor(nil)"
	}
	if !t.Valid() {
		return fmt.Sprintf("Tensor[%v](released)", t.DType())
	}
	if t.Len() > 64 {
		return fmt.Sprintf("Tensor[%v]%v", t.DType(), t.shape)
	}
	c, _ := t.Clone()
	return fmt.Sprintf("Tensor[%v]%v%v", t.DType(), t.shape, c.st.buf)
}
