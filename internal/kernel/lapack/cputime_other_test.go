//go:build !unix

package lapack

// cpuSeconds is unavailable here; benchmarks then report wall rates only.
func cpuSeconds() float64 { return 0 }
