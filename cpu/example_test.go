package cpu_test

import (
	"fmt"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/team"
)

func ExampleSerial() {
	e := cpu.Serial() // never leaves the calling goroutine
	defer e.Close()
	a, _ := tf.Ones[float64](3, 3)
	c, _ := tf.Matmul(e, a, a)
	v, _ := c.At(0, 0)
	fmt.Println(e.Threads(), v)
	// Output: 1 3
}

func ExampleNew() {
	t, err := team.New(team.Threads(2))
	if err != nil {
		panic(err)
	}
	e, _ := cpu.New(t) // the engine owns the team; Close closes it
	defer e.Close()
	fmt.Println(e.Threads())
	// Output: 2
}

func ExampleWithPlanCache() {
	shared := cpu.NewPlanCache(0)
	e1 := cpu.Serial(cpu.WithPlanCache(shared))
	e2 := cpu.Serial(cpu.WithPlanCache(shared)) // e.g. on another goroutine
	a, _ := tf.Ones[float64](4, 4)
	c1, _ := tf.Einsum(e1, "ij,jk->ik", a, a)
	c2, _ := tf.Einsum(e2, "ij,jk->ik", a, a) // planned by e1, a cache hit
	c1.Release()
	c2.Release()
	s := shared.Stats()
	fmt.Println(s.Entries, s.Hits, s.Misses)
	// Output: 1 1 1
}

func ExampleEngine_BufferPoolStats() {
	e := cpu.Serial()
	a, _ := tf.Ones[float64](64, 64)
	c, _ := tf.Matmul(e, a, a)
	c.Release() // the 64x64 output's storage goes back to the pool
	fmt.Printf("%+v\n", e.BufferPoolStats())
	c2, _ := tf.Matmul(e, a, a) // and the next output of that size takes it
	defer c2.Release()
	fmt.Printf("%+v\n", e.BufferPoolStats())
	// Output:
	// {Buffers:1 CapacityBytes:32768}
	// {Buffers:0 CapacityBytes:0}
}

// AllocationStats measures what an operation holds at once: here the
// 16 × 16 product of two matrices (2 KiB) while the vector it meets next
// is computed (128 bytes), besides the 8-byte result.
func ExampleEngine_AllocationStats() {
	e := cpu.Serial()
	defer e.Close()
	v, _ := tf.Ones[float64](16)
	m, _ := tf.Ones[float64](16, 16)
	e.ResetAllocationPeak()
	r, _ := tf.EinsumWith(e, "i,ij,jk,kl,l->", []*tf.Tensor[float64]{v, m, m, m, v}, tf.WithPath([][2]int{{1, 2}, {0, 3}, {0, 1}, {0, 1}}))
	st := e.AllocationStats()
	fmt.Println(st.InUseBytes, st.PeakInUseBytes)
	r.Release()
	fmt.Println(e.AllocationStats().InUseBytes)
	// Output:
	// 8 2184
	// 0
}
