package cpu_test

import (
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/backend/enginetest"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/internal/kernel/elementwise"
	"github.com/tenferro-go/tenferro/internal/kernel/gemm"
	"github.com/tenferro-go/tenferro/internal/kernel/index"
	"github.com/tenferro-go/tenferro/internal/kernel/permute"
	"github.com/tenferro-go/tenferro/internal/kernel/reduce"
	"github.com/tenferro-go/tenferro/team"
)

// TestConformance runs the engine conformance suite on a serial engine, on
// a team engine, and on a team engine whose kernels fan out on tiny work
// (thresholds lowered) so that every parallel path meets the suite.
func TestConformance(t *testing.T) {
	teamEngine := func(t testing.TB) tf.Engine {
		tm, err := team.New(team.Threads(2))
		if err != nil {
			t.Fatal(err)
		}
		e, err := cpu.New(tm)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	t.Run("serial", func(t *testing.T) {
		enginetest.Run(t, func(testing.TB) tf.Engine { return cpu.Serial() })
	})
	t.Run("team", func(t *testing.T) { enginetest.Run(t, teamEngine) })
	t.Run("team-fan-out", func(t *testing.T) {
		lower(t, &elementwise.ParallelBytes, 64)
		lower(t, &permute.ParallelBytes, 64)
		lower(t, &reduce.ParallelBytes, 64)
		lower(t, &index.ParallelBytes, 64)
		lower(t, &gemm.ParallelThreshold, 64)
		enginetest.Run(t, teamEngine)
	})
}

// lower sets *threshold to v for the rest of the test.
func lower(t *testing.T, threshold *int, v int) {
	old := *threshold
	*threshold = v
	t.Cleanup(func() { *threshold = old })
}
