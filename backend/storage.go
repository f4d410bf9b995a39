package backend

import (
	"unsafe"

	"github.com/tenferro-go/tenferro/internal/op"
)

// Storage is the typed buffer behind one or more tensors. A tensor and every
// view taken from it share one Storage; the storage's generation counts how
// many times it was released, and a tensor is usable only while the
// generation it was created with is current. This is how releasing a tensor
// makes every view of it refuse further use, and how an engine can hand the
// same Storage to a later output without old views seeing the new data as
// theirs.
type Storage[T Elem] struct {
	buf  []T
	pool Recycler
	gen  uint64
}

// Recycler takes back storage whose tensor was released: an engine's buffer
// pool implements it. s is a *Storage[T]. Recycle may be called from any
// goroutine.
type Recycler interface {
	Recycle(s any)
}

// NewStorage wraps buf as storage; pool (may be nil) receives it when its
// tensor is released.
func NewStorage[T Elem](buf []T, pool Recycler) *Storage[T] {
	return &Storage[T]{buf: buf, pool: pool}
}

// Buf returns the buffer (length = the element count last requested).
func (s *Storage[T]) Buf() []T { return s.buf }

// Cap returns the capacity of the buffer in elements.
func (s *Storage[T]) Cap() int { return cap(s.buf) }

// Len returns the element count last requested (the length of Buf).
func (s *Storage[T]) Len() int { return len(s.buf) }

// Gen returns the current generation.
func (s *Storage[T]) Gen() uint64 { return s.gen }

// Reuse prepares recycled storage for a new owner of n <= Cap() elements.
// It keeps the generation, so tensors released earlier stay released.
func (s *Storage[T]) Reuse(n int) { s.buf = s.buf[:n] }

// Release starts a new generation (every tensor of the old one becomes
// unusable) and hands the storage to its pool, if any.
func (s *Storage[T]) Release() {
	s.gen++
	if s.pool != nil {
		s.pool.Recycle(s)
	}
}

// DType returns the dtype of the storage's element type.
func (s *Storage[T]) DType() op.DType { return DTypeOf[T]() }

// DTypeOf returns the catalog's dtype code of the element type T.
func DTypeOf[T Elem]() op.DType {
	var z T
	// The size is a constant of each instantiation; it settles three of
	// the six types without comparing types at run time.
	switch unsafe.Sizeof(z) {
	case 4:
		return op.Float32
	case 16:
		return op.Complex128
	case 1:
		return op.Bool
	}
	switch any(z).(type) {
	case float32:
		return op.Float32
	case float64:
		return op.Float64
	case complex64:
		return op.Complex64
	case complex128:
		return op.Complex128
	case int64:
		return op.Int64
	case bool:
		return op.Bool
	}
	return op.InvalidDType
}
