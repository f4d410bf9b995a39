package lapack

import (
	"fmt"
	"testing"

	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
	"github.com/tenferro-go/tenferro/internal/par"
	"github.com/tenferro-go/tenferro/team"
)

// BenchmarkFactorTeam times Potrf, Getrf, Getrs (n right-hand sides) and
// Geqrf at n = 1024 on the
// caller alone and on a team of two workers: the 2-thread speedup that
// docs/linalg.md records.
//
//	go test -run X -bench FactorTeam -benchtime 20x ./internal/kernel/lapack
func BenchmarkFactorTeam(b *testing.B) {
	const n = 1024
	tm, err := team.New(team.Threads(2))
	if err != nil {
		b.Fatal(err)
	}
	defer tm.Close()
	for _, threads := range []int{1, 2} {
		var r par.Runner
		if threads == 2 {
			r = tm
		}
		b.Run(fmt.Sprintf("potrf/f64/threads=%d", threads), func(b *testing.B) {
			var ws Workspace
			benchFactor(b, n, true, float64(n)*n*n/3, func(a gemm.Mat[float64]) { Potrf(&ws, r, Lower, n, a) })
		})
		b.Run(fmt.Sprintf("getrf/f64/threads=%d", threads), func(b *testing.B) {
			var ws Workspace
			ipiv := make([]int, n)
			benchFactor(b, n, false, 2*float64(n)*n*n/3, func(a gemm.Mat[float64]) { Getrf(&ws, r, n, n, a, ipiv) })
		})
		b.Run(fmt.Sprintf("getrs/f64/threads=%d", threads), func(b *testing.B) {
			var ws Workspace
			ipiv := make([]int, n)
			lu := gemm.Mat[float64]{Data: benchInput[float64](n, false), RS: 1, CS: n}
			Getrf(&ws, r, n, n, lu, ipiv)
			rhs := benchInput[float64](n+1, false)[:n*n]
			benchFactor(b, n, false, 2*float64(n)*n*n, func(x gemm.Mat[float64]) {
				copy(x.Data, rhs)
				Getrs(&ws, r, NoTrans, n, n, lu, ipiv, x)
			})
		})
		b.Run(fmt.Sprintf("geqrf/f64/threads=%d", threads), func(b *testing.B) {
			var ws Workspace
			tau := make([]float64, n)
			benchFactor(b, n, false, qrFlops(n), func(a gemm.Mat[float64]) { Geqrf(&ws, r, n, n, a, tau) })
		})
	}
}
