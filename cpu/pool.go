package cpu

import (
	"os"
	"strconv"
	"sync"

	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/internal/hugepage"
	"github.com/tenferro-go/tenferro/internal/op"
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

// AllocationStats describes the storage an engine's pool has handed out
// (outputs and intermediates), in the bytes each buffer was requested for
// (a recycled buffer may be larger; BufferPoolStats counts what the pool
// keeps besides): InUseBytes is what is out now (a tensor dropped without
// Release stays counted), PeakInUseBytes the most that was out at once
// since the engine was built or since ResetAllocationPeak. Storage the
// caller allocates (Zeros, FromSlice, destinations of Into forms) is not
// counted.
type AllocationStats struct {
	InUseBytes     int64
	PeakInUseBytes int64
}

// bufferPool keeps released output storage for reuse: one list per dtype,
// best fit by capacity on reuse, smallest evicted first when the total
// capacity exceeds the limit. It is guarded by a mutex because tensors may
// be released from any goroutine; the engine's own use is uncontended.
type bufferPool struct {
	mu    sync.Mutex
	lists [op.NumDTypes][]pooled
	bytes int64
	limit int64
	// Storage handed out and not yet returned, and its high-water mark.
	inUse, peak int64
}

// pooled is one buffer waiting for reuse: a *backend.Storage[T] of the
// list's dtype, its capacity in elements and in bytes.
type pooled struct {
	st    any
	elems int
	bytes int64
}

// recyclable is what the pool needs of a *backend.Storage[T].
type recyclable interface {
	DType() op.DType
	Cap() int
	Len() int
}

// Recycle implements backend.Recycler.
func (p *bufferPool) Recycle(s any) {
	st, ok := s.(recyclable)
	if !ok || !st.DType().Valid() {
		return
	}
	b := int64(st.Cap()) * int64(st.DType().Size())
	p.mu.Lock()
	p.inUse = max(p.inUse-int64(st.Len())*int64(st.DType().Size()), 0)
	if b > 0 && b <= p.limit {
		dt := st.DType()
		p.lists[dt] = append(p.lists[dt], pooled{st: s, elems: st.Cap(), bytes: b})
		p.bytes += b
		p.evict()
	}
	p.mu.Unlock()
}

// poolAlloc returns storage for n elements of T: the best-fitting pooled
// buffer (smallest capacity >= n) or a new one.
func poolAlloc[T backend.Elem](p *bufferPool, n int) *backend.Storage[T] {
	dt := backend.DTypeOf[T]()
	p.mu.Lock()
	l := p.lists[dt]
	best := -1
	for i, b := range l {
		if b.elems >= n && (best < 0 || b.elems < l[best].elems) {
			best = i
		}
	}
	if best >= 0 {
		got := l[best]
		p.lists[dt] = drop(l, best)
		p.bytes -= got.bytes
		p.handOut(int64(n) * int64(dt.Size()))
		p.mu.Unlock()
		st := got.st.(*backend.Storage[T])
		st.Reuse(n)
		return st
	}
	p.handOut(int64(n) * int64(dt.Size()))
	p.mu.Unlock()
	return backend.NewStorage(hugepage.Make[T](n), p)
}

// handOut counts b bytes of storage handed out. Caller holds mu.
func (p *bufferPool) handOut(b int64) {
	p.inUse += b
	p.peak = max(p.peak, p.inUse)
}

func (p *bufferPool) allocationStats() AllocationStats {
	if p == nil { // the zero Engine has none
		return AllocationStats{}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return AllocationStats{InUseBytes: p.inUse, PeakInUseBytes: p.peak}
}

func (p *bufferPool) resetPeak() {
	if p == nil { // the zero Engine has none
		return
	}
	p.mu.Lock()
	p.peak = p.inUse
	p.mu.Unlock()
}

func drop(l []pooled, i int) []pooled {
	last := len(l) - 1
	l[i] = l[last]
	l[last] = pooled{}
	return l[:last]
}

// evict drops the smallest buffers (over all dtypes) until the pool fits
// its limit. Caller holds mu.
func (p *bufferPool) evict() {
	for p.bytes > p.limit {
		dt, idx := -1, -1
		for d := range p.lists {
			for i, b := range p.lists[d] {
				if dt < 0 || b.bytes < p.lists[dt][idx].bytes {
					dt, idx = d, i
				}
			}
		}
		if dt < 0 {
			p.bytes = 0
			return
		}
		p.bytes -= p.lists[dt][idx].bytes
		p.lists[dt] = drop(p.lists[dt], idx)
	}
}

func (p *bufferPool) stats() BufferPoolStats {
	if p == nil { // the zero Engine has none
		return BufferPoolStats{}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for _, l := range p.lists {
		n += len(l)
	}
	return BufferPoolStats{Buffers: n, CapacityBytes: p.bytes}
}

func (p *bufferPool) setLimit(n int64) {
	if p == nil { // the zero Engine has none
		return
	}
	p.mu.Lock()
	p.limit = n
	p.evict()
	p.mu.Unlock()
}

func (p *bufferPool) clear() {
	if p == nil { // the zero Engine has none
		return
	}
	p.mu.Lock()
	for d := range p.lists {
		clear(p.lists[d])
		p.lists[d] = p.lists[d][:0]
	}
	p.bytes = 0
	p.mu.Unlock()
}
