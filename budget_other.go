//go:build !linux

package tenferro

// physicalMemory returns the machine's memory in bytes, or 0 where it is
// not known (DefaultMemoryBudget then assumes 4 GiB).
func physicalMemory() int64 { return 0 }
