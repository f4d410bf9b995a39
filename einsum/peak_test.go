package einsum

import (
	"testing"

	"github.com/tenferro-go/tenferro/internal/kernel/strided"
)

// TestPeakModelRank: the peak model sends steps to the strided kernels
// under the same rank limit the executor's kernels have.
func TestPeakModelRank(t *testing.T) {
	if stridedMaxRank != strided.MaxRank {
		t.Fatalf("stridedMaxRank %d, the strided kernels' MaxRank %d", stridedMaxRank, strided.MaxRank)
	}
}
