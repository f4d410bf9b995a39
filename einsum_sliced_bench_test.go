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
		in, full, sliced := slicedBuiltin(b, name)
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

// BenchmarkEinsumSlicesConcurrent compares four ways of evaluating all
// slices of a built-in network, with the slicing its plan at 1/8 of the
// unsliced peak chooses (rebuilt without a limit, so that two slices may
// run at once): one serial engine; a team engine of two threads whose
// budget admits one slice at a time (the team works inside each slice);
// the same engine without that budget, which evaluates two slices at once
// (each worker into its own partial result); and, for reference, half of
// the slices on each of two serial engines in two goroutines, summed by
// hand.
func BenchmarkEinsumSlicesConcurrent(b *testing.B) {
	for _, name := range []string{"builtin_mera_closed_8", "builtin_random_regular3_30", "builtin_mps_inner_product_17"} {
		in, _, p1 := slicedBuiltin(b, name)
		p := unlimited(b, p1)
		free := p.Sliced()
		ops := positiveOps(rand.New(rand.NewPCG(77, 78)), in.Shapes)
		out := float64(tf.Numel(p.OutputShape()))
		run := func(b *testing.B, e *cpu.Engine, want int) {
			if got := e.ConcurrentSlices(p); got != want {
				b.Fatalf("%d slices at once, want %d", got, want)
			}
			dst, _ := tf.Zeros[float64](p.OutputShape()...)
			for b.Loop() {
				if err := tf.EinsumPlannedInto(e, dst, p, ops...); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(p.Slices()), "slices")
		}
		b.Run(name+"/serial", func(b *testing.B) {
			e := cpu.Serial()
			defer e.Close()
			run(b, e, 1)
		})
		b.Run(name+"/team2_one_at_a_time", func(b *testing.B) {
			run(b, teamEngine(b, cpu.WithMemoryBudget(int64(free.ConcurrentPeak(2)+out)*8-8)), 1)
		})
		b.Run(name+"/team2_concurrent", func(b *testing.B) { run(b, teamEngine(b), 2) })
		b.Run(name+"/two_serial_engines", func(b *testing.B) {
			es := [2]*cpu.Engine{cpu.Serial(), cpu.Serial()}
			defer es[0].Close()
			defer es[1].Close()
			var parts [2]*tf.Tensor[float64]
			for k := range parts {
				parts[k], _ = tf.Zeros[float64](p.OutputShape()...)
			}
			half := p.Slices() / 2
			bounds := [3]int{0, half, p.Slices()}
			errs := make(chan error, 2)
			for b.Loop() {
				for k := range es {
					go func() {
						errs <- tf.EinsumSlicesInto(es[k], parts[k], p, bounds[k], bounds[k+1], ops...)
					}()
				}
				for range es {
					if err := <-errs; err != nil {
						b.Fatal(err)
					}
				}
				d0, _ := parts[0].Data()
				d1, _ := parts[1].Data()
				for i := range d0 {
					d0[i] += d1[i]
				}
			}
		})
	}
}

// slicedBuiltin returns the named built-in instance, its unsliced plan and
// its plan sliced at 1/8 of the unsliced peak.
func slicedBuiltin(b *testing.B, name string) (instances.Instance, *tf.EinsumPlan, *tf.EinsumPlan) {
	b.Helper()
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
	return in, full, sliced
}
