package loops

import "github.com/tenferro-go/tenferro/cpu"

// Test files are skipped unless -testfiles is set (package withtests).
func benchmarkEnginePerIteration(n int) {
	for i := 0; i < n; i++ {
		e := cpu.Serial()
		e.Close()
	}
}
