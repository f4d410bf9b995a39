package withtests

import "github.com/tenferro-go/tenferro/cpu"

func benchmarkEnginePerIteration(n int) {
	for i := 0; i < n; i++ {
		e := cpu.Serial() // want `cpu.Serial builds an engine on every iteration`
		e.Close()
	}
}
