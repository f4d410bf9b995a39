package team

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tenferro-go/tenferro/internal/par"
)

// Worker states. A worker's state word is the only thing the caller and the
// worker synchronize on:
//
//	idle   -> job     the caller posts a part (Swap; wakes the worker if parked)
//	job    -> run     the worker takes the part (CAS)
//	job    -> idle    the caller takes the part back to run it itself (CAS)
//	run    -> idle    the worker finished the part (Store, after clearing it)
//	idle   -> parked  the worker's spin window ran out (CAS)
//	parked -> job     the caller posts a part and sends a wake-up token
//	idle   -> stop    the crew is shut down (only while no part is posted)
//	parked -> stop    likewise, with a wake-up token
//
// A token is sent exactly when a Swap finds the worker parked, and a worker
// parks only by the CAS that precedes its receive, so every park is matched
// by one token. A worker woken for a part that the caller took back finds
// idle and simply waits again.
const (
	stIdle uint32 = iota
	stJob
	stRun
	stParked
	stStop
)

// Poll loop pacing: the clock is read every clockEvery polls. A caller
// that waits longer than joinPatience for a running part starts yielding
// its processor, so that a long wait does not starve other goroutines.
//
// An idle worker does not yield while it spins: a yield puts it on the
// global run queue, from where the caller's own processor may pick it up,
// and the two goroutines then share one processor while the other sleeps.
// The spin window bounds how long it holds its processor.
const (
	clockEvery   = 64
	joinPatience = 50 * time.Microsecond
)

// worker is one parked-or-spinning goroutine of a crew. The fields after
// state are written by the caller before it posts a part and by the worker
// before it marks the part done; the atomic state orders those writes. All
// of them share one cache line, so a hand-off moves a single line each way,
// and the padding keeps other data off it.
type worker struct {
	state    atomic.Uint32
	part     int
	parts    int
	task     par.Task
	panicked *PanicError
	wake     chan struct{} // capacity 1: one token per park
	// The part labels of the posting team (see SetPartLabels): labels,
	// and gen, which names them; applied is the gen the worker's goroutine
	// carries, written by the worker only.
	labels  context.Context
	gen     uint64
	applied uint64
	_       [128 - 88]byte
}

// crew is the set of workers behind a team of width len(workers)+1. A crew
// with default settings moves between teams through the process cache; a
// dedicated crew lives and dies with its team.
type crew struct {
	workers []*worker
	spin    time.Duration
	lock    bool
	onStart func(int)
	labels  context.Context // nil for default crews: workers clear their labels

	started  sync.WaitGroup // counts workers that have not finished starting
	exited   sync.WaitGroup // counts live worker goroutines
	startErr atomic.Pointer[error]
}

// liveWorkers counts worker goroutines started and not yet finished.
var liveWorkers atomic.Int64

// newCrew starts width-1 workers. For a dedicated crew it waits until every
// worker has finished its start (hooks included) and reports a hook panic.
func newCrew(width int, cfg *config, wait bool) (*crew, error) {
	c := &crew{
		workers: make([]*worker, width-1),
		spin:    cfg.spin,
		lock:    cfg.lock,
		onStart: cfg.onStart,
	}
	if len(cfg.labels) > 0 {
		c.labels = pprof.WithLabels(context.Background(), pprof.Labels(cfg.labels...))
	}
	c.started.Add(width - 1)
	for i := range c.workers {
		w := &worker{wake: make(chan struct{}, 1)}
		c.workers[i] = w
		c.spawn(w, i+1, true)
	}
	if !wait {
		return c, nil
	}
	c.started.Wait()
	if e := c.startErr.Load(); e != nil {
		c.stop()
		c.exited.Wait()
		return nil, *e
	}
	return c, nil
}

// spawn starts a worker goroutine for slot w.
func (c *crew) spawn(w *worker, id int, first bool) {
	c.exited.Add(1)
	liveWorkers.Add(1)
	cache.spawned.Add(1)
	go c.work(w, id, first)
}

// work is the body of a worker goroutine: start, then take parts until
// stopped. first is false for a goroutine that replaces one that left
// through runtime.Goexit inside a part.
func (c *crew) work(w *worker, id int, first bool) {
	defer c.exited.Done()
	defer liveWorkers.Add(-1)
	if c.lock {
		runtime.LockOSThread()
	}
	if c.labels != nil {
		pprof.SetGoroutineLabels(c.labels)
	} else {
		// A new goroutine inherits its creator's labels; cached workers
		// serve many teams and must not carry them.
		pprof.SetGoroutineLabels(context.Background())
	}
	if c.onStart != nil {
		c.runHook(id)
	}
	if first {
		c.started.Done()
	}
	for {
		switch w.await(c.spin) {
		case stStop:
			return
		case stJob:
			if w.state.CompareAndSwap(stJob, stRun) {
				w.runPart(c, id)
			}
			// Otherwise the caller took the part back.
		}
	}
}

func (c *crew) runHook(id int) {
	defer func() {
		if r := recover(); r != nil {
			err := fmt.Errorf("team.New: OnStart(worker %d): %w: %v", id, ErrOnStart, r)
			c.startErr.CompareAndSwap(nil, &err)
		}
	}()
	c.onStart(id)
}

// await returns the worker's next state other than idle: job or stop
// (idle only after a wake-up whose part the caller took back). It
// busy-polls for spin, then parks until the caller posts a part.
func (w *worker) await(spin time.Duration) uint32 {
	if s := w.state.Load(); s != stIdle {
		return s
	}
	if spin > 0 {
		start := time.Now()
		for i := 1; ; i++ {
			if s := w.state.Load(); s != stIdle {
				return s
			}
			if i%clockEvery == 0 && time.Since(start) >= spin {
				break
			}
			spinPause(1)
		}
	}
	if w.state.CompareAndSwap(stIdle, stParked) {
		<-w.wake
	}
	return w.state.Load()
}

// runPart runs the posted part and marks it done. A panic is recovered and
// kept for the caller. If the part calls runtime.Goexit, this goroutine ends
// and a fresh one takes over the worker's slot, so the crew stays whole.
func (w *worker) runPart(c *crew, id int) {
	if w.gen != w.applied {
		w.applyLabels(c)
	}
	returned := false
	defer w.done(c, id, &returned)
	w.task.RunPart(w.part, w.parts)
	returned = true
}

// applyLabels gives the worker's goroutine the part labels it was posted
// with, or its crew's own labels when the team has none.
func (w *worker) applyLabels(c *crew) {
	switch {
	case w.labels != nil:
		pprof.SetGoroutineLabels(w.labels)
	case c.labels != nil:
		pprof.SetGoroutineLabels(c.labels)
	default:
		pprof.SetGoroutineLabels(context.Background())
	}
	w.applied = w.gen
}

// done is deferred by runPart; it must call recover directly.
func (w *worker) done(c *crew, id int, returned *bool) {
	if !*returned {
		if r := recover(); r != nil {
			w.panicked = &PanicError{Part: w.part, Value: r, Stack: debug.Stack()}
		} else {
			w.panicked = &PanicError{Part: w.part, Value: "runtime.Goexit called inside a part"}
			c.spawn(w, id, false)
		}
	}
	w.task = nil
	w.state.Store(stIdle)
}

// post hands part of parts of t to the worker and wakes it if it parked.
// No part of the worker may be outstanding.
func (w *worker) post(t par.Task, part, parts int, labels context.Context, gen uint64) {
	w.task, w.part, w.parts = t, part, parts
	w.labels, w.gen = labels, gen
	if w.state.Swap(stJob) == stParked {
		w.wake <- struct{}{}
	}
}

// takeBack withdraws a posted part that the worker has not started, and
// reports whether it did; the caller must then run the part itself.
func (w *worker) takeBack() bool {
	if !w.state.CompareAndSwap(stJob, stIdle) {
		return false
	}
	w.task = nil
	return true
}

// join waits until the worker has finished its posted part, by polling.
// Once the wait outlasts joinPatience the poll yields the processor every
// few polls. Yielding sooner would only invite the caller and a hot worker
// to trade places on one processor.
func (w *worker) join() {
	var start time.Time
	for i := 1; ; i++ {
		if s := w.state.Load(); s != stJob && s != stRun {
			return
		}
		if i%clockEvery == 0 {
			if i == clockEvery {
				start = time.Now()
			} else if time.Since(start) > joinPatience {
				runtime.Gosched()
			}
		}
		spinPause(1)
	}
}

// stop tells every worker to exit. No part may be outstanding. It does not
// wait; use c.exited for that.
func (c *crew) stop() {
	for _, w := range c.workers {
		if w.state.Swap(stStop) == stParked {
			w.wake <- struct{}{}
		}
	}
}

// PanicError is the value with which Run re-panics on the calling goroutine
// when a part panicked on a worker. Run waits for all parts first, so the
// team stays usable. A panic in a part that ran on the caller (part 0, or a
// part the caller took back) propagates unchanged.
type PanicError struct {
	Part  int    // the part that panicked
	Value any    // the value it panicked with
	Stack []byte // the worker's stack at the panic (nil for Goexit)
}

func (e *PanicError) Error() string {
	return fmt.Sprintf("team: part %d panicked: %v\n\nworker stack:\n%s", e.Part, e.Value, e.Stack)
}

// Unwrap returns the panic value when it is an error.
func (e *PanicError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}
