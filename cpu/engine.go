// Package cpu implements the tenferro engine on the CPU: a caller-held
// [Engine] that owns a worker team, a buffer pool, GEMM packing scratch and
// a handle to a plan cache.
//
// # Rules
//
// Build an engine once (at program or goroutine start), pass it to every
// operation, and Close it when done. An engine is used by one goroutine at a
// time: an operation that finds the engine busy fails with
// tenferro.ErrEngineBusy instead of racing. For concurrency build one engine
// per goroutine; engines may share one [PlanCache] with [WithPlanCache].
//
// # Threading
//
// A [Serial] engine never leaves the calling goroutine. An engine built with
// [New] over a team runs small operations on the caller too; a kernel fans
// out to the team only when its work estimate passes a calibrated
// threshold, and the caller always does a share.
//
// # Memory
//
// Operations that return tensors take their storage from the engine's
// buffer pool; Release on the result gives it back for the next output.
// The ...Into forms write into caller-owned destinations and allocate
// nothing once the engine is warm.
package cpu

import (
	"fmt"
	"sync/atomic"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
	"github.com/tenferro-go/tenferro/internal/kernel/strided"
	"github.com/tenferro-go/tenferro/internal/par"
	"github.com/tenferro-go/tenferro/team"
)

// Engine is the CPU implementation of tenferro.Engine. Its zero value is not
// usable; build one with [Serial] or [New].
type Engine struct {
	busy   atomic.Int32 // 0 idle, 1 in an operation, 2 closed
	team   *team.Team   // nil for a serial engine
	runner par.Runner   // team as a runner, or nil
	pool   bufferPool
	plans  *PlanCache
	gemmWS *gemm.Workspace // made on first use, like ein
	ein    *einsumWS
	op     string // the operation holding the engine (for busy errors)

	// strides is room for kernel arguments built per call (broadcast and
	// reduction strides), so that building them allocates nothing.
	strides [2][strided.MaxRank]int
}

var _ tf.Engine = (*Engine)(nil)

// Option configures an engine at construction.
type Option func(*Engine)

// WithPlanCache makes the engine use c (which other engines may share)
// instead of a private plan cache.
func WithPlanCache(c *PlanCache) Option {
	return func(e *Engine) {
		if c != nil {
			e.plans = c
		}
	}
}

// WithBufferPoolLimit sets the buffer pool's byte cap (see
// SetBufferPoolLimit).
func WithBufferPoolLimit(bytes int64) Option {
	return func(e *Engine) { e.pool.limit = max(bytes, 0) }
}

// Serial returns an engine without a team: every operation runs on the
// calling goroutine. Building one costs a few small allocations and no
// goroutines.
func Serial(opts ...Option) *Engine {
	e := &Engine{}
	e.pool.limit = envPoolLimit()
	for _, o := range opts {
		o(e)
	}
	if e.plans == nil {
		e.plans = NewPlanCache(0)
	}
	return e
}

// New returns an engine that owns t: kernels with enough work fan out to
// t's workers, and Close closes t. A team of width 1 behaves like Serial.
func New(t *team.Team, opts ...Option) (*Engine, error) {
	if t == nil {
		return nil, tf.Errorf(tf.ErrArgument, "cpu.New", "team", "a team (use cpu.Serial for none)", "nil")
	}
	e := Serial(opts...)
	e.team = t
	if t.Width() > 1 {
		e.runner = t
	}
	return e, nil
}

// Threads returns the number of goroutines an operation may use (1 for a
// serial engine).
func (e *Engine) Threads() int { return par.Width(e.runner) }

// Close closes the engine's team (returning cached workers to the process
// cache) and drops the buffer pool. Operations on a closed engine fail with
// ErrClosed. Close on a busy engine fails with ErrEngineBusy; a second
// Close returns nil.
func (e *Engine) Close() error {
	for {
		switch e.busy.Load() {
		case 2:
			return nil
		case 1:
			return tf.Errorf(tf.ErrEngineBusy, "Close", "engine", "an idle engine", "an engine running %s", e.op)
		}
		if e.busy.CompareAndSwap(0, 2) {
			break
		}
	}
	e.pool.clear()
	if e.team != nil {
		return e.team.Close()
	}
	return nil
}

// gemmWorkspace returns the GEMM packing scratch, made on first use so
// that an engine that never multiplies (or is built per call) does not pay
// for it.
func (e *Engine) gemmWorkspace() *gemm.Workspace {
	if e.gemmWS == nil {
		e.gemmWS = new(gemm.Workspace)
	}
	return e.gemmWS
}

// einsumWorkspace returns the einsum executor's scratch, made on first use.
func (e *Engine) einsumWorkspace() *einsumWS {
	if e.ein == nil {
		e.ein = new(einsumWS)
	}
	return e.ein
}

// Begin implements tenferro.Engine: it claims the engine with one atomic
// compare-and-swap.
func (e *Engine) Begin(op string) error {
	if e.busy.CompareAndSwap(0, 1) {
		e.op = op
		return nil
	}
	if e.busy.Load() == 2 {
		return tf.Errorf(tf.ErrClosed, op, "engine", "an open engine", "a closed engine")
	}
	return tf.Errorf(tf.ErrEngineBusy, op, "engine", "an engine used by one goroutine at a time", "an engine already running an operation on another goroutine")
}

// End implements tenferro.Engine.
func (e *Engine) End() { e.busy.Store(0) }

// Alloc implements tenferro.Engine.
func (e *Engine) Alloc(dt tf.DType, n int) any { return e.pool.alloc(dt, n) }

// BufferPoolStats reports what the buffer pool holds for reuse.
func (e *Engine) BufferPoolStats() BufferPoolStats { return e.pool.stats() }

// SetBufferPoolLimit sets the pool's byte cap (default 100 MiB or
// $TENFERRO_BUFFER_POOL_MAX_BYTES), evicting the smallest buffers until the
// pool fits. A buffer larger than the cap is never kept. 0 disables
// recycling.
func (e *Engine) SetBufferPoolLimit(bytes int64) { e.pool.setLimit(max(bytes, 0)) }

// ClearBufferPool drops every pooled buffer.
func (e *Engine) ClearBufferPool() { e.pool.clear() }

// PlanCache returns the plan cache the engine uses (private unless set by
// WithPlanCache).
func (e *Engine) PlanCache() *PlanCache { return e.plans }

// Runner returns the engine's team as a kernel runner, or nil when
// serial (for packages that drive kernels on the engine's behalf).
func (e *Engine) Runner() par.Runner { return e.runner }

// String describes the engine for logs.
func (e *Engine) String() string {
	return fmt.Sprintf("cpu.Engine(threads=%d)", e.Threads())
}
