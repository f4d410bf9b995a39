package team

import (
	"context"
	"sync/atomic"
)

// labelGen numbers the calls of SetPartLabels over all teams, so that a
// worker that served another team also notices a change.
var labelGen atomic.Uint64

// SetPartLabels sets the pprof labels that the team's workers carry while
// they run the parts of later Runs: those of ctx (made with
// pprof.WithLabels), or, for a nil ctx, the team's own ([Labels], or none).
// A CPU profile then attributes the workers' time to what the caller was
// doing; engines set it per operation when asked to (cpu.WithProfileLabels).
// The calling goroutine's labels are not changed.
//
// Call it from the goroutine that calls Run, between Runs; it allocates
// nothing, and a worker applies new labels once, at its next part.
func (t *Team) SetPartLabels(ctx context.Context) {
	if t == nil {
		return
	}
	t.partLabels = ctx
	t.partGen = labelGen.Add(1)
}

// PartLabels returns the context of the last SetPartLabels (nil when none
// was set, or after SetPartLabels(nil)).
func (t *Team) PartLabels() context.Context {
	if t == nil {
		return nil
	}
	return t.partLabels
}
