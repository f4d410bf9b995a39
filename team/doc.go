// Package team runs split work on teams of worker goroutines. A [Team]
// implements the fork contract of the kernels: Run(t, parts) calls
// t.RunPart(p, parts) exactly once for each p in [0, parts) and returns when
// all parts have returned, with the calling goroutine running part 0.
//
//	tm, err := team.New(team.Threads(2))
//	if err != nil { ... }
//	defer tm.Close()
//	tm.Run(task, tm.Width())
//
// # Widths
//
// A team of width n is the calling goroutine plus n-1 workers. The width is
// fixed by [Threads] (default runtime.GOMAXPROCS(0)) and must lie in
// [1, MaxThreads]; a bad width is an error from [New], never a silent
// default. Run clamps parts to [1, Width]; a width-1 team has no workers and
// runs everything on the caller. A width above GOMAXPROCS is allowed but
// makes workers, which spin while idle, compete for processors.
//
// # The process cache
//
// A team built with default settings draws on a process-wide cache of idle
// workers keyed by width: Close gives the workers back and the next New of
// the same width takes them, for well under a microsecond. The cache holds
// at most 4 idle teams per width; workers closed beyond that are stopped.
// Cached workers stay parked, costing a goroutine stack each, for the life
// of the process. Any non-default setting ([OnStart], [Labels],
// [LockOSThread], or a [Spin] other than [DefaultSpin]) makes the team
// dedicated: New starts fresh workers and waits for their start hooks, and
// Close stops them and waits until they have exited. [ReadCacheStats]
// reports the cache's contents and counters.
//
// # Wait policy
//
// Waking a parked goroutine on another core costs tens to hundreds of
// microseconds, while a worker that busy-polls a word answers at once: a
// Run of an empty task on a hot width-2 team takes about half a microsecond,
// two cache-line transfers. So after each part a worker polls for the spin
// window set by [Spin] (default [DefaultSpin]), without yielding its
// processor (the window bounds how long it holds it), and only then parks
// on a channel. A burst of operations thus keeps the team hot, and an idle
// team costs nothing. Spin(0) parks at once.
//
// The caller, after its own part, polls until every worker's part is done.
// When a worker had parked this includes its wake-up time: that is correct
// but slow, which is why kernels fan out only when the work outweighs it.
// In that case the caller yields its processor while it waits, since the
// woken worker is often queued right behind it; a woken worker yields once
// after its part for the same reason.
//
// # Nesting
//
// Only one Run at a time fans out on a team; a busy flag taken with an
// atomic compare-and-swap decides. A Run that finds the team busy, whether
// issued from inside a part (on the caller or on a worker) or from another
// goroutine at the same moment, runs all its parts inline on its own
// goroutine, in order. Nested and concurrent use therefore never deadlocks
// and never oversubscribes. A closed team runs every Run inline too.
//
// A panic in part 0 propagates from Run as usual once the workers' parts
// have finished; a panic in another part is recovered on the worker and
// re-raised on the caller as a *[PanicError]. Either way the team remains
// usable.
package team
