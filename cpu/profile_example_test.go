package cpu_test

import (
	"fmt"
	"runtime/pprof"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/team"
)

// WithProfileLabels names the engine in CPU profiles: while an operation
// fans out, the team's workers carry the labels tenferro.engine=solver and
// tenferro.op=<the operation>, so `go tool pprof -tagfocus
// tenferro.op=Matmul` keeps the workers' share of the products.
func ExampleWithProfileLabels() {
	tm, _ := team.New(team.Threads(2))
	e, _ := cpu.New(tm, cpu.WithProfileLabels("solver"))
	defer e.Close()
	a, _ := tf.Ones[float64](64, 64)
	c, _ := tf.Matmul(e, a, a)
	c.Release()
	op, _ := pprof.Label(tm.PartLabels(), cpu.LabelOp)
	engine, _ := pprof.Label(tm.PartLabels(), cpu.LabelEngine)
	fmt.Println(engine, op)
	// Output: solver Matmul
}
