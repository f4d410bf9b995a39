package linalg_test

import (
	"math/rand/v2"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/linalg"
)

// BenchmarkEigshHeisenberg: the ground state of the L = 14 open Heisenberg
// chain (dimension 16384) from a random start, on a warm Lanczos.
func BenchmarkEigshHeisenberg(b *testing.B) {
	e := engine(b)
	r := rand.New(rand.NewPCG(1, 2))
	const l = 14
	n := 1 << l
	d := make([]float64, n)
	for i := range d {
		d[i] = r.Float64() - 0.5
	}
	x0, _ := tf.FromSlice(d, n)
	op := heisenberg[float64](l)
	var lz linalg.Lanczos[float64]
	var res linalg.EigshResult[float64]
	for b.Loop() {
		if err := lz.Solve(e, op, x0, linalg.EigshOptions{}, &res); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(res.Matvecs), "matvecs")
	b.ReportMetric(res.Values[0], "E0")
}

// BenchmarkExpmVHeisenberg: exp(−i·H·t)·v for the L = 14 chain, t = 1.
func BenchmarkExpmVHeisenberg(b *testing.B) {
	e := engine(b)
	r := rand.New(rand.NewPCG(3, 4))
	const l = 14
	n := 1 << l
	d := make([]complex128, n)
	for i := range d {
		d[i] = complex(r.Float64()-0.5, r.Float64()-0.5)
	}
	v, _ := tf.FromSlice(d, n)
	dst, _ := tf.Zeros[complex128](n)
	op := heisenberg[complex128](l)
	var k linalg.KrylovExp[complex128]
	var info linalg.ExpmVInfo
	for b.Loop() {
		var err error
		if info, err = k.ExpmVInto(e, dst, op, complex(0, -1), v, linalg.ExpmVOptions{Hermitian: true}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(info.Matvecs), "matvecs")
	b.ReportMetric(float64(info.Steps), "steps")
}
