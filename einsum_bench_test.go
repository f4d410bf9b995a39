package tenferro_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/backend/enginetest"
	"github.com/tenferro-go/tenferro/cpu"
)

// benchCases are a tiny product (overhead), a matrix chain, batched products with the batch axis last
// (each item contiguous) and first (fastest, strided items) and an MPS-like
// contraction.
var benchCases = []einsumCase{
	{"ij,jk->ik", [][]int{{4, 4}, {4, 4}}}, // dispatch overhead
	{"ab,bc,cd->ad", [][]int{{64, 64}, {64, 64}, {64, 64}}},
	{"ab,bc,cd->ad", [][]int{{256, 256}, {256, 256}, {256, 256}}},
	{"ijb,jkb->ikb", [][]int{{32, 32, 64}, {32, 32, 64}}},
	{"bij,bjk->bik", [][]int{{64, 32, 32}, {64, 32, 32}}},
	{"ab,apc,bpd->cd", [][]int{{64, 64}, {64, 4, 64}, {64, 4, 64}}},
}

// BenchmarkEinsum compares a prepared plan evaluated into a reused
// destination (EinsumPlannedInto) with the one-call form (Einsum: plan
// cache lookup, pooled output, Release), on a serial engine.
func BenchmarkEinsum(b *testing.B) {
	for _, c := range benchCases {
		e := cpu.Serial()
		rng := rand.New(rand.NewPCG(1, 1))
		ops := make([]*tf.Tensor[float64], len(c.shapes))
		for k, s := range c.shapes {
			ops[k] = enginetest.Operand[float64](b, rng, s, enginetest.Compact)
		}
		p, err := tf.PrepareEinsum(tf.Float64, c.sub, c.shapes)
		if err != nil {
			b.Fatal(err)
		}
		dst, _ := tf.Zeros[float64](p.OutputShape()...)
		flops := p.Plan().Flops
		name := fmt.Sprintf("%s/%v", c.sub, c.shapes[0])
		b.Run(name+"/prepared", func(b *testing.B) {
			for b.Loop() {
				if err := tf.EinsumPlannedInto(e, dst, p, ops...); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
		b.Run(name+"/unprepared", func(b *testing.B) {
			for b.Loop() {
				out, err := tf.Einsum(e, c.sub, ops...)
				if err != nil {
					b.Fatal(err)
				}
				out.Release()
			}
			b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
		e.Close()
	}
}
