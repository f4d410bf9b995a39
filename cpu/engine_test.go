package cpu_test

import (
	"errors"
	"fmt"
	"sync"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/team"
)

func TestBufferPoolEvidence(t *testing.T) {
	e := cpu.Serial()
	a, _ := tf.Ones[float64](64, 64)
	c, err := tf.Matmul(e, a, a)
	if err != nil {
		t.Fatal(err)
	}
	if got := e.BufferPoolStats(); got != (cpu.BufferPoolStats{}) {
		t.Fatalf("pool before release: %+v", got)
	}
	c.Release()
	want := cpu.BufferPoolStats{Buffers: 1, CapacityBytes: 64 * 64 * 8}
	if got := e.BufferPoolStats(); got != want {
		t.Fatalf("pool after release: %+v, want %+v", got, want)
	}
	// The next output of that size takes the buffer back.
	c2, _ := tf.Matmul(e, a, a)
	if got := e.BufferPoolStats(); got.Buffers != 0 {
		t.Fatalf("pool after reuse: %+v", got)
	}
	if v, _ := c2.At(5, 7); v != 64 {
		t.Fatalf("reused output computed %v, want 64", v)
	}
	// The old tensor stays dead even though its storage lives on in c2.
	if _, err := c.At(0, 0); !errors.Is(err, tf.ErrReleased) {
		t.Fatalf("old output after reuse: %v", err)
	}
	fresh := cpu.Serial()
	if got := fresh.BufferPoolStats(); got != (cpu.BufferPoolStats{}) {
		t.Fatalf("fresh pool: %+v", got)
	}
}

func TestBufferPoolBestFitAndEviction(t *testing.T) {
	e := cpu.Serial(cpu.WithBufferPoolLimit(10_000))
	var outs []*tf.Tensor[float64]
	for _, n := range []int{100, 400, 200} { // 800, 3200, 1600 bytes
		x, _ := tf.NewTensor[float64](e, n)
		outs = append(outs, x)
	}
	for _, x := range outs {
		x.Release()
	}
	if got := e.BufferPoolStats(); got.Buffers != 3 || got.CapacityBytes != 5600 {
		t.Fatalf("after release: %+v", got)
	}
	// Best fit: 150 elements take the 200-element buffer, not the 400 one.
	x, _ := tf.NewTensor[float64](e, 150)
	if got := e.BufferPoolStats(); got.CapacityBytes != 5600-1600 {
		t.Fatalf("best fit took the wrong buffer: %+v", got)
	}
	x.Release()
	// Lowering the cap evicts the smallest first.
	e.SetBufferPoolLimit(5000)
	if got := e.BufferPoolStats(); got.Buffers != 2 || got.CapacityBytes != 4800 {
		t.Fatalf("after eviction: %+v", got)
	}
	// Buffers over the cap are never kept; dtypes do not mix.
	big, _ := tf.NewTensor[float32](e, 2000) // 8000 bytes
	big.Release()
	if got := e.BufferPoolStats(); got.Buffers != 2 {
		t.Fatalf("oversized buffer kept: %+v", got)
	}
	c, _ := tf.NewTensor[complex128](e, 10)
	c.Release()
	if got := e.BufferPoolStats(); got.Buffers != 3 {
		t.Fatalf("c128 buffer not pooled: %+v", got)
	}
	e.ClearBufferPool()
	if got := e.BufferPoolStats(); got != (cpu.BufferPoolStats{}) {
		t.Fatalf("after clear: %+v", got)
	}
}

func TestEngineBusy(t *testing.T) {
	e := cpu.Serial()
	be := e.Backend()
	if err := be.Begin("held"); err != nil {
		t.Fatal(err)
	}
	if err := be.Begin("again"); !errors.Is(err, tf.ErrEngineBusy) {
		t.Fatalf("Begin on a busy engine: %v", err)
	}
	a, _ := tf.Ones[float64](2, 2)
	if _, err := tf.Matmul(e, a, a); !errors.Is(err, tf.ErrEngineBusy) {
		t.Fatalf("Matmul on a busy engine: %v", err)
	}
	if err := e.Close(); !errors.Is(err, tf.ErrEngineBusy) {
		t.Fatalf("Close on a busy engine: %v", err)
	}
	be.End()
	if _, err := tf.Matmul(e, a, a); err != nil {
		t.Fatal(err)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := tf.Matmul(e, a, a); !errors.Is(err, tf.ErrClosed) {
		t.Fatalf("Matmul on a closed engine: %v", err)
	}
	if err := e.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if err := be.Begin("closed"); !errors.Is(err, tf.ErrClosed) {
		t.Fatalf("Begin on a closed engine: %v", err)
	}
}

// plans returns the plan cache of e as the backend contract sees it (the
// cache's Get and Put are not exported; package tenferro reaches them
// through Contraction.Plans).
func plans(e *cpu.Engine) backend.PlanStore {
	return backend.KernelsOf[float64](e.Backend()).Contraction.Plans()
}

// TestEngineSharedByGoroutines uses one engine from many goroutines: every
// call either succeeds with the right result or reports ErrEngineBusy; with
// -race it also proves there is no data race.
func TestEngineSharedByGoroutines(t *testing.T) {
	e := cpu.Serial()
	a, _ := tf.Ones[float64](16, 16)
	var wg sync.WaitGroup
	var mu sync.Mutex
	busy := 0
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				c, err := tf.Matmul(e, a, a)
				if errors.Is(err, tf.ErrEngineBusy) {
					mu.Lock()
					busy++
					mu.Unlock()
					continue
				}
				if err != nil {
					t.Error(err)
					return
				}
				if v, _ := c.At(3, 3); v != 16 {
					t.Errorf("got %v", v)
				}
				c.Release()
			}
		}()
	}
	wg.Wait()
	t.Logf("%d of 1600 calls found the engine busy", busy)
}

// TestEnginePerGoroutineSharedPlanCache is the supported concurrent shape:
// one engine per goroutine, one plan cache for all.
func TestEnginePerGoroutineSharedPlanCache(t *testing.T) {
	cache := cpu.NewPlanCache(4)
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			tm, err := team.New(team.Threads(2))
			if err != nil {
				t.Error(err)
				return
			}
			e, _ := cpu.New(tm, cpu.WithPlanCache(cache))
			defer e.Close()
			a, _ := tf.Ones[float64](96, 96)
			for i := 0; i < 20; i++ {
				key := fmt.Sprint("k", (g+i)%6)
				if _, ok := plans(e).Get(key); !ok {
					plans(e).Put(key, i)
				}
				c, err := tf.Matmul(e, a, a)
				if err != nil {
					t.Error(err)
					return
				}
				c.Release()
			}
		}(g)
	}
	wg.Wait()
	s := cache.Stats()
	if s.Entries > 4 || s.Hits+s.Misses != 80 || s.Evictions == 0 {
		t.Fatalf("stats %+v", s)
	}
}

func TestPlanCache(t *testing.T) {
	cache := cpu.NewPlanCache(2)
	e := cpu.Serial(cpu.WithPlanCache(cache))
	if e.PlanCache() != cache {
		t.Fatal("WithPlanCache: the engine uses another cache")
	}
	c := plans(e)
	// Every dtype's kernels reach the same cache.
	if c32 := backend.KernelsOf[complex64](e.Backend()).Contraction.Plans(); c32 != c {
		t.Fatal("the dtypes' plan stores differ")
	}
	if _, ok := c.Get("a"); ok {
		t.Fatal("empty cache hit")
	}
	c.Put("a", 1)
	c.Put("b", 2)
	if v, ok := c.Get("a"); !ok || v != 1 {
		t.Fatal("miss after put")
	}
	if got := c.Put("a", 99); got != 1 {
		t.Fatalf("Put kept %v, want the first plan", got)
	}
	c.Put("c", 3) // evicts b, the least recently used
	if _, ok := c.Get("b"); ok {
		t.Fatal("b survived eviction")
	}
	s := cache.Stats()
	if s.Entries != 2 || s.Hits != 1 || s.Misses != 2 || s.Evictions != 1 {
		t.Fatalf("stats %+v", s)
	}
	cache.Clear()
	if cache.Stats().Entries != 0 {
		t.Fatal("Clear left entries")
	}
	if cpu.Serial().PlanCache() == cpu.Serial().PlanCache() {
		t.Fatal("engines share a private cache")
	}
}

func TestNewErrors(t *testing.T) {
	if _, err := cpu.New(nil); !errors.Is(err, tf.ErrArgument) {
		t.Fatalf("New(nil): %v", err)
	}
	tm, _ := team.New(team.Threads(1))
	e, err := cpu.New(tm)
	if err != nil || e.Threads() != 1 {
		t.Fatalf("width-1 team: %v %v", e, err)
	}
	e.Close()
}

func TestCopy(t *testing.T) {
	e := cpu.Serial()
	x, _ := tf.FromSlice([]float64{0, 1, 2, 3, 4, 5}, 2, 3)
	xt, _ := x.Transpose()
	c, err := tf.Copy(e, xt)
	if err != nil {
		t.Fatal(err)
	}
	d, err := c.Data()
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{0, 2, 4, 1, 3, 5}
	for i := range want {
		if d[i] != want[i] {
			t.Fatalf("Copy = %v, want %v", d, want)
		}
	}
	dst, _ := tf.Zeros[float64](3, 2)
	if err := tf.CopyInto(e, dst, xt); err != nil {
		t.Fatal(err)
	}
	if v, _ := dst.At(2, 1); v != 5 {
		t.Fatalf("CopyInto: %v", v)
	}
	if err := tf.CopyInto(e, dst, x); !errors.Is(err, tf.ErrShape) {
		t.Fatalf("CopyInto shape: %v", err)
	}
}
