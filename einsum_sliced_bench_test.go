package tenferro_test

import (
	"math"
	"math/rand/v2"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/internal/instances"
)

// BenchmarkEinsumSliced compares the unsliced evaluation of built-in
// suite instances with their sliced evaluation at 1/8 of the unsliced
// peak (prepared plans into a reused destination, serial engine). It
// reports the slices and the FLOP overhead of the sliced plan.
func BenchmarkEinsumSliced(b *testing.B) {
	for _, name := range []string{"builtin_mera_closed_8", "builtin_random_regular3_30", "builtin_mps_inner_product_17"} {
		var in instances.Instance
		for _, x := range instances.Builtin(1) {
			if x.Name == name {
				in = x
			}
		}
		full, err := tf.PrepareEinsum(tf.Float64, in.Subscripts, in.Shapes)
		if err != nil {
			b.Fatal(err)
		}
		sliced, err := tf.PrepareEinsum(tf.Float64, in.Subscripts, in.Shapes, tf.WithMemoryLimit(math.Floor(full.Plan().Peak/8)))
		if err != nil {
			b.Fatal(err)
		}
		ops := positiveOps(rand.New(rand.NewPCG(71, 72)), in.Shapes)
		for _, c := range []struct {
			kind string
			p    *tf.EinsumPlan
		}{{"unsliced", full}, {"sliced_1_8", sliced}} {
			b.Run(name+"/"+c.kind, func(b *testing.B) {
				e := cpu.Serial()
				defer e.Close()
				dst, _ := tf.Zeros[float64](c.p.OutputShape()...)
				for b.Loop() {
					if err := tf.EinsumPlannedInto(e, dst, c.p, ops...); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(c.p.Slices()), "slices")
				if sp := c.p.Sliced(); sp != nil {
					b.ReportMetric(sp.FlopOverhead, "flop-overhead")
				}
			})
		}
	}
}
