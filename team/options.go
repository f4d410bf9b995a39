package team

import (
	"errors"
	"fmt"
	"runtime"
	"time"
)

// DefaultSpin is the default wait policy: an idle worker busy-polls for this
// long after its last part before it parks. It is sized like the cost of
// waking a parked goroutine on another core (75-120 µs on the 2-vCPU machines
// the project measures on): spinning for about as long as a wake-up costs
// never loses more than a factor of two against the best choice made in
// hindsight, and a burst of operations whose gaps are shorter than the
// window finds its workers hot (see BenchmarkRunAfterGap).
const DefaultSpin = 100 * time.Microsecond

// MaxThreads is the largest width [Threads] accepts.
const MaxThreads = 4096

// Errors returned by [New]. They are wrapped with the option and the value
// that was rejected; test for them with [errors.Is].
var (
	// ErrThreads reports a thread count outside [1, MaxThreads].
	ErrThreads = errors.New("team: invalid thread count")
	// ErrSpin reports a negative spin duration.
	ErrSpin = errors.New("team: invalid spin duration")
	// ErrLabels reports pprof labels that are not key/value pairs.
	ErrLabels = errors.New("team: invalid pprof labels")
	// ErrOnStart reports that an OnStart hook panicked; the team is not built.
	ErrOnStart = errors.New("team: OnStart hook panicked")
)

// An Option configures a team built by [New].
type Option func(*config)

// config is the settled form of the options passed to New.
type config struct {
	threads   int
	threadsOK bool // false when Threads was given an invalid value
	spin      time.Duration
	onStart   func(worker int)
	labels    []string
	lock      bool
}

func defaultConfig() config {
	return config{threads: runtime.GOMAXPROCS(0), threadsOK: true, spin: DefaultSpin}
}

// validate checks the configuration in a fixed order: threads, spin, labels.
func (c *config) validate() error {
	if !c.threadsOK || c.threads < 1 || c.threads > MaxThreads {
		return fmt.Errorf("team.New: Threads(%d): %w: want 1 <= n <= %d", c.threads, ErrThreads, MaxThreads)
	}
	if c.spin < 0 {
		return fmt.Errorf("team.New: Spin(%v): %w: want a duration >= 0", c.spin, ErrSpin)
	}
	if len(c.labels)%2 != 0 {
		return fmt.Errorf("team.New: Labels(%d strings): %w: want an even number (key, value, ...)", len(c.labels), ErrLabels)
	}
	return nil
}

// dedicated reports whether any setting differs from the defaults, which
// makes a team own fresh workers instead of sharing the process cache.
func (c *config) dedicated() bool {
	return c.onStart != nil || len(c.labels) > 0 || c.lock || c.spin != DefaultSpin
}

// Threads sets the width of the team: the number of goroutines, the caller
// included, that a Run can use. The default is runtime.GOMAXPROCS(0). A width
// above GOMAXPROCS is allowed but wasteful: spinning workers then hold
// processors that other workers of the same Run are queued for. n must lie
// in [1, MaxThreads]; anything else makes New fail with [ErrThreads].
func Threads(n int) Option {
	return func(c *config) {
		c.threads = n
		c.threadsOK = n >= 1 && n <= MaxThreads
	}
}

// OnStart sets a hook that runs once on each worker goroutine when it starts,
// before it takes any part, with the worker's index in [1, width). Worker 0
// is the goroutine that calls Run, so the hook never runs for it. With
// [LockOSThread] the hook runs on the locked thread, so it may set
// thread-level state such as CPU affinity. New returns after every hook has
// returned; a hook that panics makes New fail with [ErrOnStart]. A nil hook
// is the default (none). A hook makes the team dedicated.
func OnStart(hook func(worker int)) Option {
	return func(c *config) { c.onStart = hook }
}

// Labels sets pprof labels, given as key, value, key, value, ..., that are
// applied to every worker goroutine, so profiles attribute the workers' time
// to them. An odd count makes New fail with [ErrLabels]. No labels is the
// default. Labels make the team dedicated.
func Labels(labels ...string) Option {
	return func(c *config) { c.labels = append([]string(nil), labels...) }
}

// LockOSThread makes every worker goroutine call runtime.LockOSThread when it
// starts. Workers exit without unlocking, so their threads end with the team.
// It makes the team dedicated.
func LockOSThread() Option {
	return func(c *config) { c.lock = true }
}

// Spin sets the wait policy: an idle worker busy-polls for d after its last
// part before it parks; d == 0 parks at once. A parked worker costs nothing
// but needs a wake-up (tens to hundreds of microseconds) before it takes
// parts again, and meanwhile the caller runs them itself, serially; a
// spinning worker answers in well under a microsecond but keeps a processor
// busy. The default is [DefaultSpin]; another value makes the team
// dedicated. A negative d makes New fail with [ErrSpin].
func Spin(d time.Duration) Option {
	return func(c *config) {
		c.spin = d
	}
}
