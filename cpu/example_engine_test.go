package cpu_test

import (
	"errors"
	"fmt"
	"math"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/team"
)

// Close ends the engine: later operations fail with ErrClosed, and a
// second Close is harmless.
func ExampleEngine_Close() {
	e := cpu.Serial()
	a, _ := tf.Ones[float64](2)
	fmt.Println(e.Close())
	_, err := tf.Add(e, a, a)
	fmt.Println(errors.Is(err, tf.ErrClosed), e.Close())
	// Output:
	// <nil>
	// true <nil>
}

func ExampleEngine_Threads() {
	t, _ := team.New(team.Threads(2))
	e, _ := cpu.New(t)
	defer e.Close()
	s := cpu.Serial()
	defer s.Close()
	fmt.Println(e.Threads(), s.Threads())
	// Output: 2 1
}

func ExampleEngine_String() {
	e := cpu.Serial()
	defer e.Close()
	fmt.Println(e)
	// Output: cpu.Engine(threads=1)
}

// ClearBufferPool drops the storage the pool keeps for reuse, for example
// after a phase that used large temporaries.
func ExampleEngine_ClearBufferPool() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.Ones[float64](100)
	s, _ := tf.Add(e, a, a)
	s.Release()
	fmt.Println(e.BufferPoolStats().Buffers)
	e.ClearBufferPool()
	fmt.Println(e.BufferPoolStats().Buffers)
	// Output:
	// 1
	// 0
}

// A pool cap of 0 disables recycling: released storage goes to the
// garbage collector.
func ExampleEngine_SetBufferPoolLimit() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.Ones[float64](100) // 800 bytes
	e.SetBufferPoolLimit(0)
	s, _ := tf.Add(e, a, a)
	s.Release()
	fmt.Println(e.BufferPoolStats().Buffers)
	e.SetBufferPoolLimit(1 << 10)
	s, _ = tf.Add(e, a, a)
	s.Release()
	fmt.Printf("%+v\n", e.BufferPoolStats())
	// Output:
	// 0
	// {Buffers:1 CapacityBytes:800}
}

func ExampleWithBufferPoolLimit() {
	e := cpu.Serial(cpu.WithBufferPoolLimit(500))
	defer e.Close()
	small, _ := tf.Ones[float64](10)  // 80 bytes: kept
	large, _ := tf.Ones[float64](100) // 800 bytes: above the cap
	s, _ := tf.Add(e, small, small)
	l, _ := tf.Add(e, large, large)
	s.Release()
	l.Release()
	fmt.Printf("%+v\n", e.BufferPoolStats())
	// Output: {Buffers:1 CapacityBytes:80}
}

// A memory budget makes an operation that would allocate too much fail
// before it allocates anything.
func ExampleEngine_SetMemoryBudget() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.Ones[float64](1000)
	_ = e.SetMemoryBudget(4000) // bytes: 500 float64
	_, err := tf.Add(e, a, a)
	fmt.Println(errors.Is(err, tf.ErrMemory))
	fmt.Println(e.SetMemoryBudget(-1) != nil, e.MemoryBudget())
	// Output:
	// true
	// true 4000
}

// An engine's budget defaults to tenferro.DefaultMemoryBudget; 0 means no
// budget.
func ExampleEngine_MemoryBudget() {
	e := cpu.Serial()
	defer e.Close()
	fmt.Println(e.MemoryBudget() == tf.DefaultMemoryBudget())
	_ = e.SetMemoryBudget(0)
	fmt.Println(e.MemoryBudget() == math.MaxInt64)
	// Output:
	// true
	// true
}

// The budget bounds an einsum's intermediates as well as its output.
func ExampleWithMemoryBudget() {
	e := cpu.Serial(cpu.WithMemoryBudget(1 << 10)) // 1 KiB
	defer e.Close()
	v, _ := tf.Ones[float64](100)
	dot, err := tf.Einsum(e, "i,i->", v, v) // 8 bytes out
	fmt.Println(err)
	dot.Release()
	_, err = tf.Einsum(e, "i,j->ij", v, v) // 80000 bytes out
	fmt.Println(errors.Is(err, tf.ErrMemory))
	// Output:
	// <nil>
	// true
}

// Each engine has a private plan cache unless WithPlanCache shares one.
func ExampleEngine_PlanCache() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.Ones[float64](3, 3)
	for range 3 {
		c, _ := tf.Einsum(e, "ij,jk->ik", a, a)
		c.Release()
	}
	s := e.PlanCache().Stats()
	fmt.Println(s.Entries, s.Hits, s.Misses)
	// Output: 1 2 1
}

// A cache of capacity 1 evicts the least recently used plan.
func ExampleNewPlanCache() {
	c := cpu.NewPlanCache(1)
	e := cpu.Serial(cpu.WithPlanCache(c))
	defer e.Close()
	a, _ := tf.Ones[float64](2, 2)
	for _, sub := range []string{"ij->ji", "ii->i", "ij->ji"} {
		r, _ := tf.Einsum(e, sub, a)
		r.Release()
	}
	fmt.Printf("%+v\n", c.Stats())
	// Output: {Entries:1 Hits:0 Misses:3 Evictions:2}
}

func ExamplePlanCache_Stats() {
	c := cpu.NewPlanCache(0)
	e := cpu.Serial(cpu.WithPlanCache(c))
	defer e.Close()
	a, _ := tf.Ones[float64](2, 2)
	r1, _ := tf.Einsum(e, "ij,jk->ik", a, a)
	r2, _ := tf.Einsum(e, "ij,jk->ik", a, a)
	r1.Release()
	r2.Release()
	fmt.Printf("%+v\n", c.Stats())
	// Output: {Entries:1 Hits:1 Misses:1 Evictions:0}
}

// Clear empties the cache; the counters keep running.
func ExamplePlanCache_Clear() {
	c := cpu.NewPlanCache(0)
	e := cpu.Serial(cpu.WithPlanCache(c))
	defer e.Close()
	a, _ := tf.Ones[float64](2, 2)
	r, _ := tf.Einsum(e, "ij->ji", a)
	r.Release()
	c.Clear()
	r, _ = tf.Einsum(e, "ij->ji", a) // planned again
	r.Release()
	fmt.Printf("%+v\n", c.Stats())
	// Output: {Entries:1 Hits:0 Misses:2 Evictions:0}
}

// An engine with a team evaluates as many slices at once as fit the
// plan's limit together: one at a time for a plan whose slice fills the
// limit, two for one planned for two workers.
func ExampleEngine_ConcurrentSlices() {
	tm, _ := team.New(team.Threads(2))
	e, _ := cpu.New(tm)
	defer e.Close()
	shapes := [][]int{{8, 8, 8}, {8, 8, 8}, {8, 8, 8}, {8, 8, 8}}
	const sub, limit = "abc,cde,efa,bdf->", 2176
	one, _ := tf.PrepareEinsum(tf.Float64, sub, shapes, tf.WithMemoryLimit(limit))
	two, _ := tf.PrepareEinsum(tf.Float64, sub, shapes, tf.WithMemoryLimit(limit), tf.WithSliceWorkers(2))
	serial := cpu.Serial()
	defer serial.Close()
	fmt.Println(e.ConcurrentSlices(one), e.ConcurrentSlices(two), serial.ConcurrentSlices(two))
	// Output: 1 2 1
}
