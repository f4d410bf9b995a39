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
// microseconds (about 100 µs median on the 2-vCPU machines the project
// measures on), while a worker that busy-polls a word answers at once: a
// hand-off to a hot worker and back takes about 0.15 µs there. So after
// each part a worker polls for the spin window set by [Spin] (default
// [DefaultSpin]), without yielding its processor (the window bounds how
// long it holds it), and only then parks on a channel. A burst of
// operations thus keeps the team hot, and an idle team costs nothing.
// Spin(0) parks at once.
//
// The caller never waits for a wake-up. It posts parts 1..parts-1 to their
// workers (waking the parked ones), runs part 0, and then takes back and
// runs itself every part whose worker has not started it yet; only parts
// that a worker did start are waited for, by polling. A Run on a cold team
// therefore costs at most the serial time plus the posting, and a tiny task
// is usually finished by the caller alone. Which goroutine runs a part
// other than 0 is not fixed; parts must not depend on it.
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
// A panic in a part the caller runs propagates from Run as usual once the
// workers' parts have finished; a panic in a part on a worker is recovered
// there and re-raised on the caller as a *[PanicError]. Either way the team
// remains usable.
package team
