package team

import "sync/atomic"

// busyState is a team's busy/closed word. The busy bit makes fan-out
// exclusive; a closed team keeps it set, so every later Run goes inline and
// exactly one party (Close, or the Run in progress at Close) releases the
// workers.
type busyState struct{ v atomic.Uint32 }

// acquire takes the busy flag of an open, idle team.
func (s *busyState) acquire() bool { return s.v.CompareAndSwap(0, stateBusy) }

// releaseBusy gives the flag back; it reports false when the team was
// closed meanwhile, in which case the caller must release the workers.
func (s *busyState) releaseBusy() bool { return s.v.CompareAndSwap(stateBusy, 0) }

// close marks the team closed. It reports true when the caller must release
// the workers now (no Run in progress), false when already closed or when
// the Run in progress will do it.
func (s *busyState) close() bool {
	for {
		old := s.v.Load()
		if old&stateClosed != 0 {
			return false
		}
		if s.v.CompareAndSwap(old, stateBusy|stateClosed) {
			return old&stateBusy == 0
		}
	}
}
