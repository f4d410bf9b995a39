package cpu

import (
	"container/list"
	"sync"
)

// DefaultPlanCacheEntries is the capacity of a plan cache made by
// NewPlanCache(0).
const DefaultPlanCacheEntries = 1024

// PlanCache maps plan keys (subscripts, shapes, dtype and options, encoded
// by the caller) to immutable plans. One cache may be shared by several
// engines on different goroutines: lookups take a lock held only
// for the lookup or insert, never while a plan is built or used. Entries are
// evicted least recently used first when the cache is full.
type PlanCache struct {
	mu        sync.Mutex
	entries   map[string]*list.Element // made on first Put
	order     list.List                // front = most recently used
	capacity  int
	hits      uint64
	misses    uint64
	evictions uint64
}

type planEntry struct {
	key  string
	plan any
}

// PlanCacheStats counts a cache's contents and traffic.
type PlanCacheStats struct {
	Entries   int
	Hits      uint64
	Misses    uint64
	Evictions uint64
}

// NewPlanCache returns an empty cache holding at most capacity plans
// (DefaultPlanCacheEntries when capacity <= 0).
func NewPlanCache(capacity int) *PlanCache {
	if capacity <= 0 {
		capacity = DefaultPlanCacheEntries
	}
	return &PlanCache{capacity: capacity}
}

// get returns the plan stored under key and counts a hit or a miss.
func (c *PlanCache) get(key string) (any, bool) {
	c.mu.Lock()
	el, ok := c.entries[key]
	if ok {
		c.hits++
		c.order.MoveToFront(el)
		c.mu.Unlock()
		return el.Value.(*planEntry).plan, true
	}
	c.misses++
	c.mu.Unlock()
	return nil, false
}

// put stores plan under key (keeping an existing entry if another engine
// stored one first) and returns the plan now cached.
func (c *PlanCache) put(key string, plan any) any {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.entries[key]; ok {
		return el.Value.(*planEntry).plan
	}
	if c.entries == nil {
		c.entries = make(map[string]*list.Element)
	}
	c.entries[key] = c.order.PushFront(&planEntry{key: key, plan: plan})
	for c.order.Len() > c.capacity {
		old := c.order.Back()
		c.order.Remove(old)
		delete(c.entries, old.Value.(*planEntry).key)
		c.evictions++
	}
	return plan
}

// Stats returns the number of entries and the hit, miss and eviction
// counts since the cache was made.
func (c *PlanCache) Stats() PlanCacheStats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return PlanCacheStats{Entries: c.order.Len(), Hits: c.hits, Misses: c.misses, Evictions: c.evictions}
}

// Clear removes every entry; the counters keep running.
func (c *PlanCache) Clear() {
	c.mu.Lock()
	clear(c.entries)
	c.order.Init()
	c.mu.Unlock()
}

// planStore is a cache seen through the backend contract, which stores the
// plans of package tenferro under keys it builds.
type planStore PlanCache

func (s *planStore) Get(key string) (any, bool)   { return (*PlanCache)(s).get(key) }
func (s *planStore) Put(key string, plan any) any { return (*PlanCache)(s).put(key, plan) }
