package cpu_test

import (
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
)

// TestAllocationStats: outputs count while they are out, in the bytes
// they were requested for (a recycled larger buffer included), and the
// high-water mark holds until ResetAllocationPeak.
func TestAllocationStats(t *testing.T) {
	e := cpu.Serial()
	defer e.Close()
	if got := e.AllocationStats(); got != (cpu.AllocationStats{}) {
		t.Fatalf("fresh engine: %+v", got)
	}
	a, _ := tf.Ones[float64](64, 64)
	b, _ := tf.Ones[float64](32, 32)
	c, _ := tf.Matmul(e, a, a) // 32 KiB
	d, _ := tf.Matmul(e, b, b) // 8 KiB
	want := cpu.AllocationStats{InUseBytes: 40 << 10, PeakInUseBytes: 40 << 10}
	if got := e.AllocationStats(); got != want {
		t.Fatalf("two outputs: %+v, want %+v", got, want)
	}
	c.Release()
	d.Release()
	if got := e.AllocationStats(); got.InUseBytes != 0 || got.PeakInUseBytes != 40<<10 {
		t.Fatalf("after release: %+v", got)
	}
	e.ResetAllocationPeak()
	// A 16x16 product reuses the 32x32 buffer: it counts 2 KiB.
	s, _ := tf.Ones[float64](16, 16)
	r, _ := tf.Matmul(e, s, s)
	if got := e.AllocationStats(); got.InUseBytes != 2<<10 || got.PeakInUseBytes != 2<<10 {
		t.Fatalf("recycled output: %+v", got)
	}
	r.Release()
	// Intermediates of an einsum come and go: the peak sees them.
	e.ResetAllocationPeak()
	v, _ := tf.Ones[float64](64)
	out, err := tf.Einsum(e, "i,ij,jk,k->", v, a, a, v)
	if err != nil {
		t.Fatal(err)
	}
	if got := e.AllocationStats(); got.InUseBytes != 8 || got.PeakInUseBytes <= 8 {
		t.Fatalf("einsum: %+v", got)
	}
	out.Release()
}
