package tenferro

// Storage is the typed buffer behind one or more tensors. A tensor and every
// view taken from it share one Storage; the storage's generation counts how
// many times it was released, and a tensor is usable only while the
// generation it was created with is current. This is how Release makes every
// view of an output refuse further use, and how an engine can hand the same
// Storage object to a later output without old views seeing the new data as
// theirs.
//
// Engines (backends) create Storage with [NewStorage] and recycle it through
// a [Recycler]; users never need to touch it.
type Storage[T Scalar] struct {
	buf  []T
	pool Recycler
	gen  uint64
}

// Recycler takes back storage released by [Tensor.Release]. A backend's
// buffer pool implements it; s is a *Storage[T] for one of the four element
// types. Recycle is called on the goroutine that releases the tensor.
type Recycler interface {
	Recycle(s any)
}

// NewStorage wraps buf as storage; pool (may be nil) receives it on release.
func NewStorage[T Scalar](buf []T, pool Recycler) *Storage[T] {
	return &Storage[T]{buf: buf, pool: pool}
}

// Buf returns the whole buffer (length = the element count last requested).
func (s *Storage[T]) Buf() []T { return s.buf }

// Cap returns the capacity of the buffer in elements.
func (s *Storage[T]) Cap() int { return cap(s.buf) }

// Reuse prepares recycled storage for a new owner of n elements, n <=
// Cap(). It keeps the generation, so tensors released earlier stay released.
func (s *Storage[T]) Reuse(n int) { s.buf = s.buf[:n] }

// Generation returns the current generation (for backends and tests).
func (s *Storage[T]) Generation() uint64 { return s.gen }
