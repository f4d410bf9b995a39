package cpu_test

import (
	"fmt"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
)

// ResetAllocationPeak starts a new measurement from what is in use now.
func ExampleEngine_ResetAllocationPeak() {
	e := cpu.Serial()
	defer e.Close()
	a, _ := tf.Ones[float64](32, 32)
	big, _ := tf.Matmul(e, a, a) // 8 KiB
	big.Release()
	fmt.Println(e.AllocationStats().PeakInUseBytes)
	e.ResetAllocationPeak()
	v, _ := tf.Ones[float64](4)
	s, _ := tf.Sum(e, v)
	fmt.Println(e.AllocationStats().PeakInUseBytes)
	s.Release()
	// Output:
	// 8192
	// 8
}
