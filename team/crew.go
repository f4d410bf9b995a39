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
//	job    -> idle    the worker finished the part (Store, after clearing it)
//	idle   -> parked  the worker's spin window ran out (CAS)
//	parked -> job     the caller posts a part and sends a wake-up token
//	idle   -> yield   the worker yields its processor once (CAS), and back
//	yield  -> job     the caller posts a part while the worker yields
//	any    -> stop    the crew is shut down (only while no part is posted)
//
// Only idle means the worker is polling; a caller that posts to a parked
// or yielding worker yields its own processor while it waits for the part.
const (
	stIdle uint32 = iota
	stJob
	stParked
	stYield
	stStop
)

// Poll loop pacing: the clock is read every clockEvery polls. A caller
// that waits for a part longer than joinPatience starts yielding.
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
	_        [128 - 56]byte
}

// crew is the set of workers behind a team of width len(workers)+1. A crew
// with default settings moves between teams through the process cache; a
// dedicated crew lives and dies with its team.
type crew struct {
	workers []*worker
	woke    bool // the Run in progress posted to a worker that was not polling
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
		st, parked := w.await(c.spin)
		if st == stStop {
			return
		}
		w.runPart(c, id)
		if parked {
			// A woken worker often starts on the caller's processor, with
			// the caller queued behind it; yield once so the caller is not
			// kept waiting for this worker's spin window. While yielding
			// the worker is not polling, and says so (idle -> yield), so a
			// caller that posts meanwhile knows to yield while it waits.
			if w.state.CompareAndSwap(stIdle, stYield) {
				runtime.Gosched()
				w.state.CompareAndSwap(stYield, stIdle)
			}
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

// await returns the worker's next state other than idle, job or stop, and
// whether it parked on the way. It busy-polls for spin, then parks until
// the caller posts a part.
func (w *worker) await(spin time.Duration) (state uint32, parked bool) {
	if s := w.state.Load(); s != stIdle {
		return s, false
	}
	if spin > 0 {
		start := time.Now()
		for i := 1; ; i++ {
			if s := w.state.Load(); s != stIdle {
				return s, false
			}
			if i%clockEvery == 0 && time.Since(start) >= spin {
				break
			}
			spinPause(1)
		}
	}
	if w.state.CompareAndSwap(stIdle, stParked) {
		<-w.wake
		return w.state.Load(), true
	}
	return w.state.Load(), false
}

// runPart runs the posted part and marks it done. A panic is recovered and
// kept for the caller. If the part calls runtime.Goexit, this goroutine ends
// and a fresh one takes over the worker's slot, so the crew stays whole.
func (w *worker) runPart(c *crew, id int) {
	returned := false
	defer w.done(c, id, &returned)
	w.task.RunPart(w.part, w.parts)
	returned = true
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
// It reports whether the worker was not polling (parked or yielding), so
// that the caller yields while it waits. No part of the worker may be
// outstanding.
func (w *worker) post(t par.Task, part, parts int) (asleep bool) {
	w.task, w.part, w.parts = t, part, parts
	switch w.state.Swap(stJob) {
	case stParked:
		w.wake <- struct{}{}
		return true
	case stYield:
		return true
	}
	return false
}

// join waits until the worker has finished its posted part, by polling.
// If the worker was not polling when the part was posted (woke), or once the wait outlasts
// joinPatience, the poll yields the processor every few polls: a woken
// worker is often queued on the caller's own processor, and a long wait
// should not starve other goroutines. Yielding while a hot worker answers
// would only invite the two goroutines to trade places, so it is not done
// before then.
func (w *worker) join(woke bool) {
	var start time.Time
	for i := 1; w.state.Load() == stJob; i++ {
		if i%clockEvery == 0 {
			if woke {
				runtime.Gosched()
				continue
			}
			if i == clockEvery {
				start = time.Now()
			} else if time.Since(start) > joinPatience {
				woke = true
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
// when a part other than part 0 panicked on a worker. Run waits for all
// parts first, so the team stays usable. A panic in part 0 propagates
// unchanged.
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
