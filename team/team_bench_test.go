package team

import (
	"fmt"
	"slices"
	"sync/atomic"
	"testing"
	"time"
)

type emptyTask struct{}

func (emptyTask) RunPart(part, parts int) {}

// BenchmarkNewCached measures New+Close of a default width-2 team, which
// takes its worker from the process cache and gives it back.
func BenchmarkNewCached(b *testing.B) {
	mustNew(b, Threads(2)).Close() // warm the cache
	st0 := ReadCacheStats()
	for b.Loop() {
		tm, err := New(Threads(2))
		if err != nil {
			b.Fatal(err)
		}
		tm.Close()
	}
	if st := ReadCacheStats(); st.Spawned != st0.Spawned {
		b.Fatalf("cached New spawned %d workers", st.Spawned-st0.Spawned)
	}
}

// BenchmarkNewDedicated measures New+Close of a width-2 team that owns its
// worker: start a goroutine, wait for its hook, stop and join it.
func BenchmarkNewDedicated(b *testing.B) {
	for _, c := range []struct {
		name string
		opt  Option
	}{
		{"OnStart", OnStart(func(int) {})},
		{"LockOSThread", LockOSThread()},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				tm, err := New(Threads(2), c.opt)
				if err != nil {
					b.Fatal(err)
				}
				tm.Close()
			}
		})
	}
}

// BenchmarkRunEmpty measures a fork-join of an empty task from outside the
// team: the dispatch cost alone. The caller usually finishes part 0 before
// the worker takes part 1 and then runs part 1 itself, so this is the cost
// of posting and taking back, not of a hand-off (see BenchmarkRunLatency).
func BenchmarkRunEmpty(b *testing.B) {
	for _, c := range []struct {
		width int
		spin  time.Duration
	}{{1, DefaultSpin}, {2, DefaultSpin}, {2, 0}} {
		name := fmt.Sprintf("width=%d", c.width)
		if c.spin == 0 {
			name += "/Spin0"
		}
		b.Run(name, func(b *testing.B) {
			tm := mustNew(b, Threads(c.width), Spin(c.spin))
			defer tm.Close()
			var task emptyTask
			tm.Run(task, c.width)
			for b.Loop() {
				tm.Run(task, c.width)
			}
		})
	}
}

// nestedBench runs b.N inner Runs from inside part 0 of one outer Run, so
// every inner Run takes the inline path.
type nestedBench struct {
	tm *Team
	b  *testing.B
}

func (n *nestedBench) RunPart(part, parts int) {
	if part != 0 {
		return
	}
	var task emptyTask
	for n.b.Loop() {
		n.tm.Run(task, 2)
	}
}

// BenchmarkRunNested measures a Run issued from inside a part of the same
// team: the busy flag sends it inline.
func BenchmarkRunNested(b *testing.B) {
	tm := mustNew(b, Threads(2))
	defer tm.Close()
	tm.Run(&nestedBench{tm: tm, b: b}, 2)
}

// handoffTask makes part 0 wait until part 1 has started, so part 1
// certainly runs on the worker: a Run then costs one real hand-off.
type handoffTask struct{ started atomic.Bool }

func (h *handoffTask) RunPart(part, parts int) {
	if part != 0 {
		h.started.Store(true)
		return
	}
	for !h.started.Load() {
		spinPause(1)
	}
	h.started.Store(false)
}

// BenchmarkRunLatency times every Run of a width-2 team whose part 0 waits
// for part 1 to start on the worker (an empty task would be finished by the
// caller alone), and reports the median and 99th percentile, which on a
// shared machine say more than the mean: a worker whose OS thread was
// descheduled inflates the mean but not the median. With spin=0 every Run
// pays the wake-up of a parked worker.
func BenchmarkRunLatency(b *testing.B) {
	for _, spin := range []time.Duration{DefaultSpin, 0} {
		b.Run(fmt.Sprintf("spin=%v", spin), func(b *testing.B) {
			tm := mustNew(b, Threads(2), Spin(spin))
			defer tm.Close()
			task := &handoffTask{}
			var lat []time.Duration
			for b.Loop() {
				s := time.Now()
				tm.Run(task, 2)
				lat = append(lat, time.Since(s))
			}
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Nanoseconds()), "p50-ns")
			b.ReportMetric(float64(lat[len(lat)*99/100].Nanoseconds()), "p99-ns")
		})
	}
}

// busyTask keeps each part busy for d (by the clock), like a kernel share.
type busyTask struct{ d time.Duration }

func (t *busyTask) RunPart(part, parts int) { busyFor(t.d) }

func busyFor(d time.Duration) {
	for s := time.Now(); time.Since(s) < d; {
	}
}

// BenchmarkRunAfterGap is the measurement behind DefaultSpin. The caller
// does gap of serial work, then runs a task whose two parts take 20 µs
// each, and the median Run time is reported: about 20 µs when the worker
// is still spinning, and 20 µs plus a wake-up (or the serial 40 µs, when
// the woken worker runs after part 0 on the caller's processor) when it has
// parked. A spin window longer than the gaps between a burst's operations
// keeps the burst parallel; beyond about one wake-up's cost, spinning
// longer buys little.
func BenchmarkRunAfterGap(b *testing.B) {
	const work = 20 * time.Microsecond
	for _, gap := range []time.Duration{5 * time.Microsecond, 50 * time.Microsecond, 500 * time.Microsecond} {
		for _, spin := range []time.Duration{DefaultSpin, 0} {
			b.Run(fmt.Sprintf("gap=%v/spin=%v", gap, spin), func(b *testing.B) {
				tm := mustNew(b, Threads(2), Spin(spin))
				defer tm.Close()
				task := &busyTask{d: work}
				var lat []time.Duration
				for b.Loop() {
					busyFor(gap)
					s := time.Now()
					tm.Run(task, 2)
					lat = append(lat, time.Since(s))
				}
				slices.Sort(lat)
				b.ReportMetric(float64(lat[len(lat)/2].Nanoseconds())/1e3, "p50-µs")
			})
		}
	}
}
