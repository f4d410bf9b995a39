package team

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"runtime/pprof"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// countTask records how often each part ran and with which parts value.
type countTask struct {
	hits     []atomic.Int32
	badParts atomic.Int32
	parts    int
}

func newCountTask(max int) *countTask { return &countTask{hits: make([]atomic.Int32, max+1)} }

func (c *countTask) RunPart(part, parts int) {
	if parts != c.parts || part < 0 || part >= parts {
		c.badParts.Add(1)
		return
	}
	c.hits[part].Add(1)
}

// check verifies that parts 0..want-1 ran exactly once and no other did.
func (c *countTask) check(t *testing.T, want int, ctx string) {
	t.Helper()
	if n := c.badParts.Load(); n != 0 {
		t.Fatalf("%s: %d calls with a wrong part or parts value (want parts=%d)", ctx, n, want)
	}
	for p := range c.hits {
		got := c.hits[p].Load()
		exp := int32(0)
		if p < want {
			exp = 1
		}
		if got != exp {
			t.Fatalf("%s: part %d ran %d times, want %d", ctx, p, got, exp)
		}
		c.hits[p].Store(0)
	}
}

func clamp(parts, width int) int { return max(1, min(parts, width)) }

func mustNew(t testing.TB, opts ...Option) *Team {
	t.Helper()
	tm, err := New(opts...)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return tm
}

func TestEveryPartOnce(t *testing.T) {
	reps := 200
	if testing.Short() {
		reps = 40
	}
	for _, spin := range []time.Duration{DefaultSpin, 0, 3 * time.Microsecond} {
		for _, width := range []int{1, 2, 3, 5, 8} {
			tm := mustNew(t, Threads(width), Spin(spin))
			if tm.Width() != width {
				t.Fatalf("Width() = %d, want %d", tm.Width(), width)
			}
			task := newCountTask(2 * width)
			for _, parts := range []int{-3, 0, 1, 2, width - 1, width, width + 1, 2 * width} {
				for r := 0; r < reps; r++ {
					task.parts = clamp(parts, width)
					tm.Run(task, parts)
					task.check(t, task.parts, fmt.Sprintf("width %d spin %v parts %d rep %d", width, spin, parts, r))
				}
			}
			if err := tm.Close(); err != nil {
				t.Fatalf("Close: %v", err)
			}
		}
	}
}

// sliceTask writes disjoint shares of a slice; the caller reads them all
// after Run, which the race detector checks for ordering.
type sliceTask struct{ out []int }

func (s *sliceTask) RunPart(part, parts int) {
	n := len(s.out)
	lo, hi := part*n/parts, (part+1)*n/parts
	for i := lo; i < hi; i++ {
		s.out[i] += i + 1
	}
}

func TestWritesVisibleAfterRun(t *testing.T) {
	tm := mustNew(t, Threads(4))
	defer tm.Close()
	for _, n := range []int{0, 1, 3, 7, 64, 1001} {
		st := &sliceTask{out: make([]int, n)}
		for r := 1; r <= 20; r++ {
			tm.Run(st, 4)
			for i, v := range st.out {
				if v != r*(i+1) {
					t.Fatalf("n=%d rep %d: out[%d] = %d, want %d", n, r, i, v, r*(i+1))
				}
			}
		}
	}
}

// nestTask runs an inner Run on the same team from inside every part and
// records, per outer part, the goroutine-local order of inner parts.
type nestTask struct {
	tm    *Team
	inner *orderTask
	bad   atomic.Int32
}

type orderTask struct {
	mu    sync.Mutex
	seq   map[int][]int // outer part -> inner parts in the order they ran
	outer int
}

func (n *nestTask) RunPart(part, parts int) {
	o := &orderTask{seq: map[int][]int{}, outer: part}
	n.tm.Run(o, n.tm.Width())
	got := o.seq[part]
	if len(got) != n.tm.Width() {
		n.bad.Add(1)
		return
	}
	for i, p := range got {
		if p != i {
			n.bad.Add(1)
		}
	}
}

func (o *orderTask) RunPart(part, parts int) {
	// Inline runs happen on one goroutine, in order; the lock only keeps the
	// race detector honest should Run ever (wrongly) fan out.
	o.mu.Lock()
	o.seq[o.outer] = append(o.seq[o.outer], part)
	o.mu.Unlock()
}

func TestNestedRunInline(t *testing.T) {
	for _, width := range []int{2, 3} {
		tm := mustNew(t, Threads(width))
		nt := &nestTask{tm: tm}
		done := make(chan struct{})
		go func() {
			for r := 0; r < 50; r++ {
				tm.Run(nt, width)
			}
			close(done)
		}()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Fatalf("width %d: nested Run did not finish (deadlock)", width)
		}
		if nt.bad.Load() != 0 {
			t.Fatalf("width %d: %d nested runs were not inline and in order", width, nt.bad.Load())
		}
		tm.Close()
	}
}

func TestConcurrentRun(t *testing.T) {
	const width = 3
	tm := mustNew(t, Threads(width))
	defer tm.Close()
	reps := 500
	if testing.Short() {
		reps = 100
	}
	var wg sync.WaitGroup
	errs := make(chan string, 4)
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			task := newCountTask(width)
			task.parts = width
			for r := 0; r < reps; r++ {
				tm.Run(task, width)
				if task.badParts.Load() != 0 {
					errs <- "wrong part arguments"
					return
				}
				for p := 0; p < width; p++ {
					if n := task.hits[p].Swap(0); n != 1 {
						errs <- fmt.Sprintf("part %d ran %d times", p, n)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
}

func TestOptionErrors(t *testing.T) {
	cases := []struct {
		name string
		opts []Option
		want error
	}{
		{"Threads(0)", []Option{Threads(0)}, ErrThreads},
		{"Threads(-1)", []Option{Threads(-1)}, ErrThreads},
		{"Threads(max+1)", []Option{Threads(MaxThreads + 1)}, ErrThreads},
		{"Spin(-1)", []Option{Threads(2), Spin(-time.Nanosecond)}, ErrSpin},
		{"Labels odd", []Option{Threads(2), Labels("k")}, ErrLabels},
		{"Threads before Spin", []Option{Threads(0), Spin(-1)}, ErrThreads},
	}
	for _, c := range cases {
		tm, err := New(c.opts...)
		if tm != nil || err == nil {
			t.Fatalf("%s: New = %v, %v; want an error", c.name, tm, err)
		}
		if !errors.Is(err, c.want) {
			t.Fatalf("%s: error %q does not wrap %q", c.name, err, c.want)
		}
	}
	err := func() error { _, err := New(Threads(0)); return err }()
	if !strings.Contains(err.Error(), "Threads(0)") {
		t.Fatalf("error %q does not name the argument", err)
	}
	// The last Threads wins, and a valid value overrides an invalid one.
	tm, err := New(Threads(0), Threads(2), nil)
	if err != nil || tm.Width() != 2 {
		t.Fatalf("New(Threads(0), Threads(2), nil) = %v, %v", tm, err)
	}
	tm.Close()
}

func TestDefaultWidth(t *testing.T) {
	tm := mustNew(t)
	defer tm.Close()
	if tm.Width() != runtime.GOMAXPROCS(0) || tm.Dedicated() {
		t.Fatalf("default team: width %d dedicated %v; want %d false", tm.Width(), tm.Dedicated(), runtime.GOMAXPROCS(0))
	}
}

func TestWidthOneHasNoWorkers(t *testing.T) {
	st0 := ReadCacheStats()
	tm := mustNew(t, Threads(1), OnStart(func(int) { t.Error("OnStart called for a width-1 team") }))
	task := newCountTask(3)
	task.parts = 1
	tm.Run(task, 3)
	task.check(t, 1, "width 1")
	tm.Close()
	if st1 := ReadCacheStats(); st1.Spawned != st0.Spawned {
		t.Fatalf("width-1 team spawned %d workers", st1.Spawned-st0.Spawned)
	}
}

// gate makes part 0 wait (up to a few seconds) until every other part has
// started, so those parts certainly run on workers and are not taken back.
type gate struct{ started atomic.Int32 }

func (g *gate) arrive(part, parts int) {
	if part != 0 {
		g.started.Add(1)
		return
	}
	deadline := time.Now().Add(5 * time.Second)
	for g.started.Load() < int32(parts-1) && time.Now().Before(deadline) {
		runtime.Gosched()
	}
	g.started.Store(0)
}

type panicTask struct {
	gate
	at  int
	ran atomic.Int32
}

func (p *panicTask) RunPart(part, parts int) {
	p.arrive(part, parts)
	p.ran.Add(1)
	if part == p.at {
		panic(fmt.Errorf("boom in %d", part))
	}
}

type goexitTask struct {
	gate
	at int
}

func (g *goexitTask) RunPart(part, parts int) {
	g.arrive(part, parts)
	if part == g.at {
		runtime.Goexit()
	}
}

// plainPanic panics in part int(p) with no gate.
type plainPanic int

func (p plainPanic) RunPart(part, parts int) {
	if part == int(p) {
		panic(fmt.Errorf("boom in %d", part))
	}
}

// runRecover runs tm.Run(task, parts) and returns what it panicked with.
func runRecover(tm *Team, task interface{ RunPart(int, int) }, parts int) (r any) {
	defer func() { r = recover() }()
	tm.Run(task, parts)
	return nil
}

func TestPanicsAndGoexit(t *testing.T) {
	tm := mustNew(t, Threads(3))
	defer tm.Close()
	for _, at := range []int{0, 1, 2} {
		pt := &panicTask{at: at}
		r := runRecover(tm, pt, 3)
		if r == nil {
			t.Fatalf("panic in part %d was lost", at)
		}
		if pt.ran.Load() != 3 {
			t.Fatalf("part %d panicked: %d parts ran, want 3", at, pt.ran.Load())
		}
		if at == 0 {
			if err, ok := r.(error); !ok || err.Error() != "boom in 0" {
				t.Fatalf("part 0: recovered %T %v, want the original error", r, r)
			}
			continue
		}
		pe, ok := r.(*PanicError)
		if !ok || pe.Part != at || !strings.Contains(pe.Error(), fmt.Sprintf("boom in %d", at)) {
			t.Fatalf("recovered %T %v, want *PanicError for part %d", r, r, at)
		}
		if errors.Unwrap(pe) == nil || len(pe.Stack) == 0 {
			t.Fatal("PanicError does not unwrap to the error value or lacks the stack")
		}
	}
	for _, at := range []int{1, 2} {
		if r := runRecover(tm, &goexitTask{at: at}, 3); r == nil {
			t.Fatalf("Goexit in part %d: nothing recovered, want *PanicError", at)
		} else if _, ok := r.(*PanicError); !ok {
			t.Fatalf("Goexit in part %d: recovered %v, want *PanicError", at, r)
		}
	}
	// The team still works, with every worker.
	task := newCountTask(3)
	task.parts = 3
	for i := 0; i < 20; i++ {
		tm.Run(task, 3)
		task.check(t, 3, "after panics")
	}
	g := &goexitTask{at: -1}
	for i := 0; i < 5; i++ {
		if r := runRecover(tm, g, 3); r != nil {
			t.Fatalf("gated run after Goexit: %v", r)
		}
	}
}

// TestTakeBack silences a team's workers so that no posted part is ever
// started: the caller must run every part itself, once each.
func TestTakeBack(t *testing.T) {
	tm := mustNew(t, Threads(4), Spin(0))
	c := tm.crew
	c.stop()
	c.exited.Wait()
	for _, w := range c.workers {
		w.state.Store(stIdle)
	}
	task := newCountTask(4)
	for _, parts := range []int{2, 3, 4} {
		task.parts = parts
		tm.Run(task, parts)
		task.check(t, parts, "taken back")
	}
	r := runRecover(tm, plainPanic(3), 4) // the last part: none is left posted
	if err, ok := r.(error); !ok || err.Error() != "boom in 3" {
		t.Fatalf("panic in a part run by the caller: recovered %T %v, want the original error", r, r)
	}
	task.parts = 4
	tm.Run(task, 4)
	task.check(t, 4, "after panic")
	tm.Close()
}

func TestOnStartPanic(t *testing.T) {
	before := liveWorkers.Load()
	tm, err := New(Threads(3), OnStart(func(w int) {
		if w == 2 {
			panic("no affinity")
		}
	}))
	if tm != nil || !errors.Is(err, ErrOnStart) || !strings.Contains(err.Error(), "no affinity") {
		t.Fatalf("New = %v, %v; want ErrOnStart naming the panic", tm, err)
	}
	if liveWorkers.Load() != before {
		t.Fatalf("failed New left %d workers running", liveWorkers.Load()-before)
	}
}

type labelTask struct {
	release chan struct{}
	ready   sync.WaitGroup
}

func (l *labelTask) RunPart(part, parts int) {
	if part > 0 {
		l.ready.Done()
		<-l.release
	}
}

// labeledWorkers counts worker goroutines whose pprof labels include
// label, from the goroutine profile (which groups goroutines by stack and
// labels, one blank-line-separated block per group, with a count first).
func labeledWorkers(t *testing.T, label string) int {
	t.Helper()
	var buf bytes.Buffer
	if err := pprof.Lookup("goroutine").WriteTo(&buf, 1); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, block := range strings.Split(buf.String(), "\n\n") {
		if !strings.Contains(block, "(*crew).work") || !strings.Contains(block, label) {
			continue
		}
		k := -1
		for _, line := range strings.Split(block, "\n") {
			if _, err := fmt.Sscanf(line, "%d @", &k); err == nil {
				break
			}
		}
		if k < 0 {
			t.Fatalf("no goroutine count in profile block %q", block)
		}
		n += k
	}
	return n
}

func TestLabels(t *testing.T) {
	const label = `"tenferro":"team-test"`
	tm := mustNew(t, Threads(3), Labels("tenferro", "team-test"))
	if !tm.Dedicated() {
		t.Fatal("team with labels is not dedicated")
	}
	if n := labeledWorkers(t, label); n != 2 {
		t.Fatalf("%d workers carry the team's labels, want 2", n)
	}
	tm.Close()
	// Default workers started from a labeled goroutine do not inherit its
	// labels: they serve other teams later.
	pprof.Do(context.Background(), pprof.Labels("tenferro", "caller"), func(context.Context) {
		tm := mustNew(t, Threads(9))
		defer tm.Close()
		tm.Run(&meetTask{}, 9) // every worker has started and run a part
		if n := labeledWorkers(t, `"tenferro":"caller"`); n != 0 {
			t.Fatalf("%d cached workers inherited the caller's labels", n)
		}
	})
}

type sleepTask struct{ d time.Duration }

func (s *sleepTask) RunPart(part, parts int) {
	if part == 1 {
		time.Sleep(s.d)
	}
}

func TestParkAndWake(t *testing.T) {
	// Spin(0): workers park after every part, so every Run takes the wake
	// path; a short spin makes the park/post race frequent.
	for _, spin := range []time.Duration{0, time.Microsecond, 20 * time.Microsecond} {
		tm := mustNew(t, Threads(3), Spin(spin))
		task := newCountTask(3)
		rng := rand.New(rand.NewPCG(1, uint64(spin)))
		for i := 0; i < 300; i++ {
			parts := 1 + rng.IntN(3)
			task.parts = parts
			tm.Run(task, parts)
			task.check(t, parts, fmt.Sprintf("spin %v run %d", spin, i))
			if rng.IntN(8) == 0 {
				time.Sleep(time.Duration(rng.IntN(50)) * time.Microsecond)
			}
		}
		tm.Run(&sleepTask{d: time.Millisecond}, 2)
		tm.Close()
	}
}

func TestRunAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	// Default spin (hot hand-off or take-back), Spin(0) (every Run wakes a
	// parked worker), and a gated task (the worker certainly runs part 1).
	for _, spin := range []time.Duration{DefaultSpin, 0} {
		tm := mustNew(t, Threads(2), Spin(spin))
		task := newCountTask(2)
		task.parts = 2
		if n := testing.AllocsPerRun(200, func() { tm.Run(task, 2) }); n != 0 {
			t.Fatalf("spin %v: Run allocates %v times per call, want 0", spin, n)
		}
		g := &goexitTask{at: -1}
		if n := testing.AllocsPerRun(50, func() { tm.Run(g, 2) }); n != 0 {
			t.Fatalf("spin %v: Run of a gated task allocates %v times per call, want 0", spin, n)
		}
		for p := range task.hits {
			task.hits[p].Store(0)
		}
		nt := &nestedAllocTask{tm: tm, inner: task}
		if n := testing.AllocsPerRun(200, func() { tm.Run(nt, 2) }); n != 0 {
			t.Fatalf("spin %v: nested Run allocates %v times per call, want 0", spin, n)
		}
		tm.Close()
	}
}

type nestedAllocTask struct {
	tm    *Team
	inner *countTask
}

func (n *nestedAllocTask) RunPart(part, parts int) {
	if part == 0 {
		n.inner.parts = 2
		n.tm.Run(n.inner, 2)
	}
}

// TestCloseWhileRunning closes a team from one goroutine while another
// runs tasks on it: every Run completes with every part once.

func TestNilTeam(t *testing.T) {
	var tm *Team
	task := newCountTask(3)
	task.parts = 1
	tm.Run(task, 3)
	task.check(t, 1, "nil team")
	if tm.Width() != 1 || tm.Dedicated() || tm.Close() != nil {
		t.Fatalf("nil team: Width %d Dedicated %v", tm.Width(), tm.Dedicated())
	}
}

// meetTask: every part waits until all parts have arrived, which can only
// happen if they run concurrently on distinct goroutines.
type meetTask struct {
	arrived atomic.Int32
	failed  atomic.Bool
}

func (m *meetTask) RunPart(part, parts int) {
	m.arrived.Add(1)
	deadline := time.Now().Add(10 * time.Second)
	for m.arrived.Load() < int32(parts) {
		if time.Now().After(deadline) {
			m.failed.Store(true)
			return
		}
		runtime.Gosched()
	}
}

func TestPartsRunConcurrently(t *testing.T) {
	for _, spin := range []time.Duration{DefaultSpin, 0} {
		tm := mustNew(t, Threads(3), Spin(spin))
		for i := 0; i < 5; i++ {
			m := &meetTask{}
			tm.Run(m, 3)
			if m.failed.Load() || m.arrived.Load() != 3 {
				t.Fatalf("spin %v: parts did not run concurrently (arrived %d)", spin, m.arrived.Load())
			}
		}
		tm.Close()
	}
}
