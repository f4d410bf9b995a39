package team

import (
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

func TestDedicatedCloseJoins(t *testing.T) {
	before := liveWorkers.Load()
	var started, onLocked atomic.Int32
	seen := make([]atomic.Int32, 5)
	tm := mustNew(t, Threads(5), LockOSThread(), OnStart(func(w int) {
		started.Add(1)
		if w >= 1 && w < 5 {
			seen[w].Add(1)
		}
		onLocked.Add(1)
	}))
	if !tm.Dedicated() {
		t.Fatal("team with OnStart is not dedicated")
	}
	// New waits for the hooks.
	if n := started.Load(); n != 4 {
		t.Fatalf("OnStart ran %d times by the end of New, want 4", n)
	}
	for w := 1; w < 5; w++ {
		if seen[w].Load() != 1 {
			t.Fatalf("OnStart(%d) ran %d times", w, seen[w].Load())
		}
	}
	if got := liveWorkers.Load() - before; got != 4 {
		t.Fatalf("live workers grew by %d, want 4", got)
	}
	task := newCountTask(5)
	task.parts = 5
	tm.Run(task, 5)
	task.check(t, 5, "dedicated")
	if err := tm.Close(); err != nil {
		t.Fatal(err)
	}
	if got := liveWorkers.Load(); got != before {
		t.Fatalf("after Close, live workers = %d, want %d (not joined)", got, before)
	}
	if err := tm.Close(); err != nil {
		t.Fatalf("second Close = %v, want nil", err)
	}
	task.parts = 1 // closed: inline, in order
	tm.Run(task, 1)
	task.check(t, 1, "closed")
	task.parts = 5
	tm.Run(task, 5)
	task.check(t, 5, "closed")
}

func TestCachedReuse(t *testing.T) {
	const width = 7 // a width no other test uses
	tm := mustNew(t, Threads(width))
	if tm.Dedicated() {
		t.Fatal("default team is dedicated")
	}
	tm.Close()
	st0 := ReadCacheStats()
	if st0.Idle < 1 || st0.IdleWorkers < width-1 {
		t.Fatalf("after Close: cache %+v, want at least one idle team", st0)
	}
	task := newCountTask(width)
	task.parts = width
	for i := 0; i < 50; i++ {
		tm := mustNew(t, Threads(width))
		tm.Run(task, width)
		task.check(t, width, "cached")
		tm.Close()
	}
	st1 := ReadCacheStats()
	if st1.Spawned != st0.Spawned {
		t.Fatalf("cached New spawned %d workers, want 0", st1.Spawned-st0.Spawned)
	}
	if st1.Hits-st0.Hits != 50 {
		t.Fatalf("cache hits grew by %d, want 50", st1.Hits-st0.Hits)
	}
}

// drainCache stops and joins the idle crews of one width, so that a test
// starts from an empty cache for it.
func drainCache(width int) {
	cache.mu.Lock()
	s := cache.idle[width]
	delete(cache.idle, width)
	cache.mu.Unlock()
	for _, c := range s {
		c.stop()
		c.exited.Wait()
	}
}

func TestCacheBounded(t *testing.T) {
	const width = 6
	drainCache(width)
	before := liveWorkers.Load()
	var teams []*Team
	for i := 0; i < cacheDepth+3; i++ {
		teams = append(teams, mustNew(t, Threads(width)))
	}
	for _, tm := range teams {
		tm.Close()
	}
	cache.mu.Lock()
	n := len(cache.idle[width])
	cache.mu.Unlock()
	if n != cacheDepth {
		t.Fatalf("cache holds %d idle teams of width %d, want %d", n, width, cacheDepth)
	}
	// The teams beyond the bound were stopped and joined by their Close.
	if got, want := liveWorkers.Load(), before+int64(cacheDepth*(width-1)); got != want {
		t.Fatalf("live workers %d, want %d", got, want)
	}
	drainCache(width)
	if got := liveWorkers.Load(); got != before {
		t.Fatalf("after draining the cache: live workers %d, want %d", got, before)
	}
}

type closeInside struct {
	tm *Team
	n  atomic.Int32
}

func (c *closeInside) RunPart(part, parts int) {
	c.n.Add(1)
	if part == parts-1 {
		c.tm.Close()
	}
}

func TestCloseDuringRun(t *testing.T) {
	for _, ded := range []bool{false, true} {
		before := liveWorkers.Load()
		opts := []Option{Threads(3)}
		if ded {
			opts = append(opts, LockOSThread())
		}
		tm := mustNew(t, opts...)
		ct := &closeInside{tm: tm}
		tm.Run(ct, 3)
		if ct.n.Load() != 3 {
			t.Fatalf("dedicated=%v: %d parts ran, want 3", ded, ct.n.Load())
		}
		if ded && liveWorkers.Load() != before {
			t.Fatalf("workers not joined after Run that saw Close: live %d want %d", liveWorkers.Load(), before)
		}
		ct.n.Store(0)
		tm.Run(ct, 3) // inline now
		if ct.n.Load() != 3 {
			t.Fatalf("closed team ran %d parts, want 3", ct.n.Load())
		}
	}
}

func TestUnclosedTeamIsCollected(t *testing.T) {
	before := liveWorkers.Load()
	func() {
		tm := mustNew(t, Threads(3), OnStart(func(int) {}))
		tm.Run(emptyTask{}, 3)
	}()
	deadline := time.Now().Add(10 * time.Second)
	for liveWorkers.Load() != before && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	if got := liveWorkers.Load(); got != before {
		t.Fatalf("dropped dedicated team: %d workers still live", got-before)
	}
}

func TestCloseWhileRunning(t *testing.T) {
	for i := 0; i < 20; i++ {
		opts := []Option{Threads(3)}
		if i%2 == 1 {
			opts = append(opts, Spin(0))
		}
		tm := mustNew(t, opts...)
		task := newCountTask(3)
		task.parts = 3
		done := make(chan string)
		go func() {
			for r := 0; r < 200; r++ {
				tm.Run(task, 3)
				for p := 0; p < 3; p++ {
					if n := task.hits[p].Swap(0); n != 1 {
						done <- fmt.Sprintf("run %d: part %d ran %d times", r, p, n)
						return
					}
				}
			}
			done <- ""
		}()
		time.Sleep(time.Duration(i*10) * time.Microsecond)
		tm.Close()
		if msg := <-done; msg != "" {
			t.Fatal(msg)
		}
	}
}
