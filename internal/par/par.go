// Package par states the contract between kernels and the worker teams that
// run them, so that kernels can fan out without importing a team
// implementation.
//
// # Contract
//
// A [Runner] runs a [Task] split into parts: Run(t, parts) calls
// t.RunPart(p, parts) exactly once for every p in [0, parts), possibly
// concurrently, and returns only after all parts have returned. The calling
// goroutine runs part 0. parts is clamped to [1, Width()]. A Run issued while
// the runner is already running a task (for example from inside a part) runs
// every part inline on the calling goroutine, in order, and never deadlocks.
//
// A nil Runner means "serial": kernels run everything on the caller. Use
// [Width] and [Run] to treat nil uniformly.
//
// Tasks are passed as interfaces to pointers that the caller keeps (for
// example inside an engine's workspace), so a fork allocates nothing.
package par

// Task is one unit of splittable work.
type Task interface {
	// RunPart runs share part of parts. Parts must write disjoint memory.
	RunPart(part, parts int)
}

// Runner runs tasks on a team of workers.
type Runner interface {
	// Width is the number of goroutines (caller included) a Run can use.
	Width() int
	// Run runs t split into parts, as described in the package comment.
	Run(t Task, parts int)
}

// Width reports r.Width(), or 1 for a nil runner.
func Width(r Runner) int {
	if r == nil {
		return 1
	}
	return r.Width()
}

// Run runs t split into parts on r, or inline in order when r is nil or
// parts <= 1.
func Run(r Runner, t Task, parts int) {
	if r == nil || parts <= 1 {
		if parts < 1 {
			parts = 1
		}
		for p := 0; p < parts; p++ {
			t.RunPart(p, parts)
		}
		return
	}
	r.Run(t, parts)
}

// Split returns the half-open range [lo, hi) of part p when n items are
// divided into parts nearly equal contiguous shares.
func Split(n, part, parts int) (lo, hi int) {
	q, r := n/parts, n%parts
	lo = part*q + min(part, r)
	hi = lo + q
	if part < r {
		hi++
	}
	return lo, hi
}
