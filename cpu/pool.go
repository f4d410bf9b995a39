package cpu

import (
	"os"
	"strconv"
	"sync"

	tf "github.com/tenferro-go/tenferro"
)

// DefaultBufferPoolLimit is the byte cap of a new engine's buffer pool
// unless TENFERRO_BUFFER_POOL_MAX_BYTES overrides it.
const DefaultBufferPoolLimit = 100 << 20

// BufferPoolEnv names the environment variable that overrides
// DefaultBufferPoolLimit for engines built after the process read it (the
// value is read once per process, a non-negative integer number of bytes).
const BufferPoolEnv = "TENFERRO_BUFFER_POOL_MAX_BYTES"

var envPoolLimit = sync.OnceValue(func() int64 {
	if v, ok := os.LookupEnv(BufferPoolEnv); ok {
		if n, err := strconv.ParseInt(v, 10, 64); err == nil && n >= 0 {
			return n
		}
	}
	return DefaultBufferPoolLimit
})

// BufferPoolStats describes the storage an engine's pool holds for reuse.
type BufferPoolStats struct {
	Buffers       int   // buffers waiting for reuse
	CapacityBytes int64 // their total capacity in bytes
}

// bufferPool keeps released output storage for reuse: one list per dtype,
// best fit by capacity on reuse, smallest evicted first when the total
// capacity exceeds the limit. It is guarded by a mutex because tensors may
// be released from any goroutine; the engine's own use is uncontended.
type bufferPool struct {
	mu    sync.Mutex
	f32   []*tf.Storage[float32]
	f64   []*tf.Storage[float64]
	c64   []*tf.Storage[complex64]
	c128  []*tf.Storage[complex128]
	bytes int64
	limit int64
}

// Recycle implements tf.Recycler.
func (p *bufferPool) Recycle(s any) {
	p.mu.Lock()
	switch st := s.(type) {
	case *tf.Storage[float32]:
		p.f32 = put(p, p.f32, st, 4)
	case *tf.Storage[float64]:
		p.f64 = put(p, p.f64, st, 8)
	case *tf.Storage[complex64]:
		p.c64 = put(p, p.c64, st, 8)
	case *tf.Storage[complex128]:
		p.c128 = put(p, p.c128, st, 16)
	}
	p.evict()
	p.mu.Unlock()
}

func put[T tf.Scalar](p *bufferPool, list []*tf.Storage[T], st *tf.Storage[T], size int64) []*tf.Storage[T] {
	b := int64(st.Cap()) * size
	if b > p.limit || b == 0 {
		return list
	}
	p.bytes += b
	return append(list, st)
}

// take removes and returns the best-fitting storage (smallest capacity >=
// n) from list, or nil.
func take[T tf.Scalar](p *bufferPool, list *[]*tf.Storage[T], n int, size int64) *tf.Storage[T] {
	best := -1
	l := *list
	for i, st := range l {
		if c := st.Cap(); c >= n && (best < 0 || c < l[best].Cap()) {
			best = i
		}
	}
	if best < 0 {
		return nil
	}
	st := l[best]
	last := len(l) - 1
	l[best] = l[last]
	l[last] = nil
	*list = l[:last]
	p.bytes -= int64(st.Cap()) * size
	st.Reuse(n)
	return st
}

// evict drops the smallest buffers (over all dtypes) until the pool fits
// its limit. Caller holds mu.
func (p *bufferPool) evict() {
	for p.bytes > p.limit {
		var (
			minBytes int64 = -1
			which    int
			idx      int
		)
		scan := func(kind, i int, b int64) {
			if minBytes < 0 || b < minBytes {
				minBytes, which, idx = b, kind, i
			}
		}
		for i, s := range p.f32 {
			scan(0, i, int64(s.Cap())*4)
		}
		for i, s := range p.f64 {
			scan(1, i, int64(s.Cap())*8)
		}
		for i, s := range p.c64 {
			scan(2, i, int64(s.Cap())*8)
		}
		for i, s := range p.c128 {
			scan(3, i, int64(s.Cap())*16)
		}
		if minBytes < 0 {
			p.bytes = 0
			return
		}
		switch which {
		case 0:
			p.f32 = drop(p.f32, idx)
		case 1:
			p.f64 = drop(p.f64, idx)
		case 2:
			p.c64 = drop(p.c64, idx)
		case 3:
			p.c128 = drop(p.c128, idx)
		}
		p.bytes -= minBytes
	}
}

func drop[T tf.Scalar](l []*tf.Storage[T], i int) []*tf.Storage[T] {
	last := len(l) - 1
	l[i] = l[last]
	l[last] = nil
	return l[:last]
}

// alloc returns storage of n elements for dt, reused when one fits.
func (p *bufferPool) alloc(dt tf.DType, n int) any {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch dt {
	case tf.Float32:
		return getOrNew(p, &p.f32, n, 4)
	case tf.Float64:
		return getOrNew(p, &p.f64, n, 8)
	case tf.Complex64:
		return getOrNew(p, &p.c64, n, 8)
	case tf.Complex128:
		return getOrNew(p, &p.c128, n, 16)
	}
	return nil
}

func getOrNew[T tf.Scalar](p *bufferPool, list *[]*tf.Storage[T], n int, size int64) *tf.Storage[T] {
	if st := take(p, list, n, size); st != nil {
		return st
	}
	return tf.NewStorage(make([]T, n), p)
}

func (p *bufferPool) stats() BufferPoolStats {
	p.mu.Lock()
	defer p.mu.Unlock()
	return BufferPoolStats{Buffers: len(p.f32) + len(p.f64) + len(p.c64) + len(p.c128), CapacityBytes: p.bytes}
}

func (p *bufferPool) setLimit(n int64) {
	p.mu.Lock()
	p.limit = n
	p.evict()
	p.mu.Unlock()
}

func (p *bufferPool) clear() {
	p.mu.Lock()
	clear(p.f32)
	clear(p.f64)
	clear(p.c64)
	clear(p.c128)
	p.f32, p.f64, p.c64, p.c128 = p.f32[:0], p.f64[:0], p.c64[:0], p.c128[:0]
	p.bytes = 0
	p.mu.Unlock()
}
