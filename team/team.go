package team

import (
	"context"
	"runtime"

	"github.com/tenferro-go/tenferro/internal/par"
)

var _ par.Runner = (*Team)(nil)

// Team state bits. busy is held by the Run that fans out (and forever once
// the team is closed); closed marks a closed team.
const (
	stateBusy   uint32 = 1
	stateClosed uint32 = 2
)

// Team is a fixed-width group of goroutines that runs [par.Task] parts: the
// caller of Run plus width-1 worker goroutines. A Team is safe for use by
// several goroutines, but only one Run at a time fans out; the others run
// inline (see the package documentation). The zero Team is not usable; build
// one with [New].
type Team struct {
	state     busyState
	width     int
	dedicated bool
	crew      *crew // nil for width 1 and after Close
	cleanup   runtime.Cleanup
	// The labels of SetPartLabels and their generation (0: none set).
	partLabels context.Context
	partGen    uint64
}

// New builds a team. With default settings (no [OnStart], [Labels] or
// [LockOSThread], spin [DefaultSpin]) it takes idle workers of the same
// width from the process cache when there are any, which costs about a
// microsecond; otherwise it starts fresh worker goroutines. A team with any
// other setting is dedicated: its workers are started now (New returns after
// their OnStart hooks) and stopped by Close. A width-1 team has no workers.
//
// New fails with an error wrapping [ErrThreads], [ErrSpin], [ErrLabels] or
// [ErrOnStart]; options are checked in that order, before any work.
func New(opts ...Option) (*Team, error) {
	cfg := defaultConfig()
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	t := &Team{width: cfg.threads, dedicated: cfg.dedicated()}
	if t.width == 1 {
		return t, nil
	}
	var c *crew
	if !t.dedicated {
		c = cacheGet(t.width)
	}
	if c == nil {
		var err error
		if c, err = newCrew(t.width, &cfg, t.dedicated); err != nil {
			return nil, err
		}
	}
	t.crew = c
	// Safety net: a team dropped without Close still lets go of its
	// workers once it is collected. Close cancels this.
	t.cleanup = runtime.AddCleanup(t, dropCrew, crewRef{c, t.dedicated})
	return t, nil
}

// crewRef is what the cleanup of an unclosed team needs: the crew, and
// whether it goes back to the cache.
type crewRef struct {
	c         *crew
	dedicated bool
}

// dropCrew disposes of the crew of a team that was collected unclosed.
// No Run can be in progress (it would keep the team reachable). It runs on
// the runtime's cleanup goroutine, so it does not wait for workers to exit.
func dropCrew(r crewRef) {
	if r.dedicated {
		r.c.stop()
		return
	}
	go cachePut(r.c)
}

// Width is the number of goroutines, the caller included, that a Run can
// use. It does not change, not even after Close. A nil *Team has width 1.
func (t *Team) Width() int {
	if t == nil {
		return 1
	}
	return t.width
}

// Dedicated reports whether the team was built with a non-default setting
// and therefore owns its workers instead of sharing the process cache.
func (t *Team) Dedicated() bool { return t != nil && t.dedicated }

// Run calls task.RunPart(p, parts) exactly once for every p in [0, parts)
// and returns when all have returned. parts is first clamped to
// [1, Width()]. The calling goroutine runs part 0 and posts part p to
// worker p; parts run concurrently, so they must write disjoint memory, and
// all their writes happen before Run returns. When the caller has finished
// part 0, it takes back and runs itself every part that its worker has not
// started yet (the worker was parked, still waking, or descheduled), so no
// Run waits for a wake-up; parts must not depend on which goroutine runs
// them.
//
// Run runs every part inline on the calling goroutine, in order, when
// parts is 1, when the team is closed, or when the team is already running
// a task (a Run from inside a part, or from another goroutine at the same
// time). It therefore never deadlocks. A nil *Team runs inline too.
//
// Run allocates nothing. It waits for the parts that workers did start by
// polling. If a part panics on a worker, Run waits for the remaining parts
// and re-panics on the caller with a *[PanicError]; a panic in a part that
// the caller runs propagates unchanged once the workers' parts are done.
func (t *Team) Run(task par.Task, parts int) {
	if t == nil {
		runInline(task, min(parts, 1))
		return
	}
	if parts > t.width {
		parts = t.width
	}
	if parts <= 1 || !t.state.acquire() {
		runInline(task, parts)
		return
	}
	c := t.crew
	defer t.end(c, parts)
	for p := 1; p < parts; p++ {
		c.workers[p-1].post(task, p, parts, t.partLabels, t.partGen)
	}
	task.RunPart(0, parts)
	// Parts that no worker has started yet are run here: the caller is
	// free now, and a worker that has not started is parked, waking, or
	// descheduled, so waiting for it can only be slower.
	for p := 1; p < parts; p++ {
		if c.workers[p-1].takeBack() {
			task.RunPart(p, parts)
		}
	}
}

// end waits for the parts that workers took, gives back the busy flag (or
// finishes a Close that came during the Run) and re-panics a worker's
// panic.
func (t *Team) end(c *crew, parts int) {
	var pe *PanicError
	for p := 1; p < parts; p++ {
		w := c.workers[p-1]
		w.join()
		if w.panicked != nil {
			if pe == nil {
				pe = w.panicked
			}
			w.panicked = nil
		}
	}
	if !t.state.releaseBusy() {
		t.release()
	}
	if pe != nil {
		panic(pe)
	}
}

func runInline(task par.Task, parts int) {
	if parts < 1 {
		parts = 1
	}
	for p := 0; p < parts; p++ {
		task.RunPart(p, parts)
	}
}

// Close closes the team and always returns nil; closing again is a no-op
// that returns nil, as is closing a nil *Team. A closed team keeps its Width
// and runs every Run inline.
//
// A default-setting team gives its workers back to the process cache, or,
// if the cache already holds enough teams of that width, stops them and
// waits until they have exited, as a dedicated team always does. A team
// that becomes unreachable without Close is closed (without waiting) when
// the garbage collector finds it, but that is a safety net only. If a
// Run is in progress, Close marks the team closed and returns at once; the
// Run in progress releases the workers when its parts end.
func (t *Team) Close() error {
	if t != nil && t.state.close() {
		t.release()
	}
	return nil
}

// release disposes of the crew. The caller holds the busy flag for good.
func (t *Team) release() {
	c := t.crew
	t.crew = nil
	if c == nil {
		return
	}
	t.cleanup.Stop()
	if t.dedicated {
		c.stop()
		c.exited.Wait()
		return
	}
	cachePut(c)
}
