package team

import (
	"sync"
	"sync/atomic"
)

// cacheDepth bounds the process cache: at most this many idle crews are kept
// per width. A crew closed beyond that is stopped (and joined). The cache
// therefore holds at most cacheDepth*(w-1) parked goroutines for each width
// w in use.
const cacheDepth = 4

// cache is the process-wide store of idle default-setting crews, keyed by
// team width. Crews come back most recently closed first, so a team built
// right after another closed finds workers that are still spinning.
var cache struct {
	mu   sync.Mutex
	idle map[int][]*crew

	spawned atomic.Uint64
	hits    atomic.Uint64
	misses  atomic.Uint64
}

// cacheGet takes an idle crew of the given width, or returns nil.
func cacheGet(width int) *crew {
	cache.mu.Lock()
	s := cache.idle[width]
	if len(s) == 0 {
		cache.mu.Unlock()
		cache.misses.Add(1)
		return nil
	}
	c := s[len(s)-1]
	s[len(s)-1] = nil
	cache.idle[width] = s[:len(s)-1]
	cache.mu.Unlock()
	cache.hits.Add(1)
	return c
}

// cachePut gives an idle crew back, or stops it and waits for its workers
// to exit when the cache is full for its width.
func cachePut(c *crew) {
	width := len(c.workers) + 1
	cache.mu.Lock()
	if cache.idle == nil {
		cache.idle = make(map[int][]*crew)
	}
	s := cache.idle[width]
	if len(s) < cacheDepth {
		cache.idle[width] = append(s, c)
		cache.mu.Unlock()
		return
	}
	cache.mu.Unlock()
	c.stop()
	c.exited.Wait()
}

// CacheStats describes the process cache of idle worker teams.
type CacheStats struct {
	// Idle is the number of idle teams held in the cache, over all widths.
	Idle int
	// IdleWorkers is the number of parked worker goroutines they hold.
	IdleWorkers int
	// Spawned counts worker goroutines started since the process began, by
	// cached and dedicated teams alike.
	Spawned uint64
	// Hits and Misses count the calls of New for default-setting teams of
	// width 2 or more that took workers from the cache or had to start them.
	Hits, Misses uint64
}

// ReadCacheStats returns a snapshot of the process cache's counters.
func ReadCacheStats() CacheStats {
	var st CacheStats
	cache.mu.Lock()
	for _, s := range cache.idle {
		st.Idle += len(s)
		for _, c := range s {
			st.IdleWorkers += len(c.workers)
		}
	}
	cache.mu.Unlock()
	st.Spawned = cache.spawned.Load()
	st.Hits = cache.hits.Load()
	st.Misses = cache.misses.Load()
	return st
}
