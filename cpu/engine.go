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
//
// # Capabilities
//
// The engine runs every operation of package tenferro for the four
// arithmetic dtypes (copy, elementwise, reductions, contraction, fusion,
// index kernels, linear algebra) and storage, copies and the index kernels
// for int64 and bool.
package cpu

import (
	"fmt"
	"math"
	"runtime/trace"
	"sync/atomic"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
	"github.com/tenferro-go/tenferro/internal/kernel/lapack"
	"github.com/tenferro-go/tenferro/internal/kernel/strided"
	"github.com/tenferro-go/tenferro/internal/op"
	"github.com/tenferro-go/tenferro/internal/par"
	"github.com/tenferro-go/tenferro/team"
)

// Engine is the CPU engine. Its zero value is not usable (operations on it
// fail with tenferro.ErrArgument); build one with [Serial] or [New].
type Engine struct {
	state  atomic.Int32 // idle, busy or closed
	team   *team.Team   // nil for a serial engine
	runner par.Runner   // team as a runner, or nil
	pool   *bufferPool  // shared with the workers of concurrent slices
	budget int64        // bytes one operation may allocate (math.MaxInt64: none)
	optErr error        // the first invalid option, returned by New and Begin
	plans  *PlanCache
	// lapackWS holds the GEMM packing scratch (its Gemm field, which
	// Matmul and Einsum use too) and the factorizations' scratch; made on
	// first use.
	lapackWS *lapack.Workspace
	// Room for the strides of kernel arguments built per call by the
	// kernels of every dtype (Fill's stride-0 source, Where's and the
	// logical operations' broadcast inputs).
	fillStrides [strided.MaxRank]int
	dataStrides [3][strided.MaxRank]int
	ix          indexScratch
	prof        profile
	// slicers are the serial engines, sharing pool and plan cache, on
	// which the team's workers evaluate slices of a sliced contraction
	// at once; made on first use.
	slicers []*Engine

	// The kernels of each dtype, and kernels[dt]: a *backend.Kernels[T]
	// listing them.
	f32     numeric[float32]
	f64     numeric[float64]
	c64     numeric[complex64]
	c128    numeric[complex128]
	i64     data[int64]
	b       data[bool]
	kernels [op.NumDTypes]any
}

const (
	idle int32 = iota
	busy
	closed
)

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

// WithMemoryBudget sets the bytes one operation may allocate (see
// SetMemoryBudget). A negative budget is an argument error: New returns
// it, and every operation on an engine Serial built with it fails with it.
func WithMemoryBudget(bytes int64) Option {
	return func(e *Engine) {
		if err := e.SetMemoryBudget(bytes); err != nil && e.optErr == nil {
			e.optErr = err
		}
	}
}

// WithBufferPoolLimit sets the buffer pool's byte cap (see
// SetBufferPoolLimit).
func WithBufferPoolLimit(bytes int64) Option {
	return func(e *Engine) { e.pool.limit = max(bytes, 0) }
}

// Serial returns an engine without a team: every operation runs on the
// calling goroutine. Building one costs one allocation and no goroutines.
func Serial(opts ...Option) *Engine {
	e := &Engine{budget: tf.DefaultMemoryBudget(), pool: &bufferPool{limit: envPoolLimit()}}
	for _, o := range opts {
		o(e)
	}
	if e.plans == nil {
		e.plans = NewPlanCache(0)
	}
	e.initKernels()
	return e
}

// initKernels binds the kernels of every dtype to e.
func (e *Engine) initKernels() {
	e.kernels = [op.NumDTypes]any{
		op.Float32:    e.f32.init(e),
		op.Float64:    e.f64.init(e),
		op.Complex64:  e.c64.init(e),
		op.Complex128: e.c128.init(e),
		op.Int64:      e.i64.init(e),
		op.Bool:       e.b.init(e),
	}
}

// New returns an engine that owns t: kernels with enough work fan out to
// t's workers, and Close closes t. A team of width 1 behaves like Serial.
// When New fails (a nil team, an invalid option) the caller keeps t.
func New(t *team.Team, opts ...Option) (*Engine, error) {
	if t == nil {
		return nil, tf.Errorf(tf.ErrArgument, "cpu.New", "team", "a team (use cpu.Serial for none)", "nil")
	}
	e := Serial(opts...)
	if e.optErr != nil {
		return nil, e.optErr
	}
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
// ErrClosed. Close while an operation runs (on another goroutine) fails
// with ErrEngineBusy and changes nothing; a second Close (or Close of a nil
// engine) returns nil.
func (e *Engine) Close() error {
	if e == nil {
		return nil
	}
	for {
		switch e.state.Load() {
		case closed:
			return nil
		case busy:
			return tf.Errorf(tf.ErrEngineBusy, "Close", "engine", "an idle engine", "an engine running an operation")
		}
		if e.state.CompareAndSwap(idle, closed) {
			break
		}
	}
	e.pool.clear()
	e.slicers = nil
	if e.team != nil {
		return e.team.Close()
	}
	return nil
}

// gemmWorkspace returns the GEMM packing scratch, made on first use so
// that an engine that never multiplies (or is built per call) does not pay
// for it. It is the Gemm field of the LAPACK workspace, so products and
// factorizations share one set of packing buffers.
func (e *Engine) gemmWorkspace() *gemm.Workspace { return &e.lapackWorkspace().Gemm }

// lapackWorkspace returns the factorizations' workspace, made on first use.
func (e *Engine) lapackWorkspace() *lapack.Workspace {
	if e.lapackWS == nil {
		e.lapackWS = new(lapack.Workspace)
	}
	return e.lapackWS
}

// Backend implements tenferro.Engine: it hands the operations of package
// tenferro the engine's kernels, which they call after validating their
// arguments.
func (e *Engine) Backend() backend.Engine { return (*contract)(e) }

// contract is the engine seen through the backend contract. Its methods
// assume validated arguments, which is why they are not methods of Engine.
type contract Engine

// Begin implements backend.Engine: one atomic compare-and-swap.
func (c *contract) Begin(name string) error {
	if c == nil || c.plans == nil {
		return tf.Errorf(tf.ErrArgument, name, "e", "an engine built by cpu.Serial or cpu.New", "a nil or zero cpu.Engine")
	}
	if c.optErr != nil {
		return c.optErr
	}
	if c.state.CompareAndSwap(idle, busy) {
		if c.prof.on || trace.IsEnabled() {
			c.beginProfile(name)
		}
		return nil
	}
	if c.state.Load() == closed {
		return tf.Errorf(tf.ErrClosed, name, "engine", "an open engine", "a closed engine")
	}
	return tf.Errorf(tf.ErrEngineBusy, name, "engine", "an engine used by one goroutine at a time", "an engine already running an operation on another goroutine")
}

// End implements backend.Engine.
func (c *contract) End() {
	if c.prof.op != nil || c.prof.step != nil {
		c.endProfile()
	}
	c.state.Store(idle)
}

// Kernels implements backend.Engine.
func (c *contract) Kernels(dt op.DType) any {
	if c != nil && dt < op.NumDTypes {
		return c.kernels[dt]
	}
	return nil
}

// MemoryBudget implements backend.Engine.
func (c *contract) MemoryBudget() int64 { return c.budget }

// SetMemoryBudget sets the bytes one operation may allocate: its output,
// its intermediates (an einsum's peak, as the plan computes it) and a
// compiled program's slots. An operation that would need more fails with
// tenferro.ErrMemory before it allocates anything, and einsum planning
// avoids intermediates above it. 0 (or math.MaxInt64) means no budget; a
// negative budget is an ErrArgument error and leaves the budget as it was.
// The default is tenferro.DefaultMemoryBudget() (three quarters of
// GOMEMLIMIT or of the machine's memory).
func (e *Engine) SetMemoryBudget(bytes int64) error {
	if bytes < 0 {
		return tf.Errorf(tf.ErrArgument, "SetMemoryBudget", "bytes", "a budget >= 0 (0: none)", "%d", bytes)
	}
	if bytes == 0 {
		bytes = math.MaxInt64
	}
	e.budget = bytes
	return nil
}

// MemoryBudget returns the bytes one operation may allocate
// (math.MaxInt64: no budget).
func (e *Engine) MemoryBudget() int64 { return e.budget }

// BufferPoolStats reports what the buffer pool holds for reuse.
func (e *Engine) BufferPoolStats() BufferPoolStats { return e.pool.stats() }

// AllocationStats reports the storage the pool has handed out: now and at
// most at once (see AllocationStats). Comparing PeakInUseBytes after an
// operation with a plan's peak measures what the operation held.
func (e *Engine) AllocationStats() AllocationStats { return e.pool.allocationStats() }

// ResetAllocationPeak restarts AllocationStats.PeakInUseBytes from the
// bytes in use now.
func (e *Engine) ResetAllocationPeak() { e.pool.resetPeak() }

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

// String describes the engine for logs.
func (e *Engine) String() string {
	return fmt.Sprintf("cpu.Engine(threads=%d)", e.Threads())
}
