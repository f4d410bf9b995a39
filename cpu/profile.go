package cpu

import (
	"context"
	"runtime/pprof"
	"runtime/trace"

	"github.com/tenferro-go/tenferro/backend"
)

// The pprof label keys of WithProfileLabels.
const (
	LabelEngine = "tenferro.engine"
	LabelOp     = "tenferro.op"
)

// WithProfileLabels makes the engine label its team's workers for pprof
// while they run an operation's parts: LabelEngine is name and LabelOp the
// operation ("Matmul", "EinsumInto", a prepared program's command such as
// "einsum" or "Exp"), so a CPU profile shows which operation the workers'
// time went to (pprof -tagfocus, -tagshow). The calling goroutine is not
// relabeled: wrap calls in pprof.Do to label it; its stack already names
// the operation. Labels cost one map lookup per operation (an allocation
// the first time an operation name is seen) and nothing without a team.
//
// Independently of this option, while an execution trace runs
// (runtime/trace.Start) every operation, and every command of a prepared
// program, is a trace region named after it on the calling goroutine.
func WithProfileLabels(name string) Option {
	return func(e *Engine) {
		e.prof.on, e.prof.name = true, name
	}
}

// profile is the engine's profiling state; it is touched only between
// Begin and End, by the goroutine that holds the engine.
type profile struct {
	on     bool
	name   string
	labels map[string]context.Context // per operation name
	last   string                     // the operation the team is labelled for
	op     *trace.Region              // the region of Begin, or nil
	step   *trace.Region              // the region of the last Mark, or nil
}

var _ backend.Marker = (*contract)(nil)

// beginProfile starts the profile of operation op: labels and the trace region.
func (c *contract) beginProfile(op string) {
	if trace.IsEnabled() {
		c.prof.op = trace.StartRegion(context.Background(), op)
	}
	c.label(op)
}

// label points the team's part labels at op.
func (c *contract) label(op string) {
	p := &c.prof
	if !p.on || c.team == nil || op == p.last {
		return
	}
	ctx, ok := p.labels[op]
	if !ok {
		if p.labels == nil {
			p.labels = map[string]context.Context{}
		}
		ctx = pprof.WithLabels(context.Background(), pprof.Labels(LabelEngine, p.name, LabelOp, op))
		p.labels[op] = ctx
	}
	c.team.SetPartLabels(ctx)
	p.last = op
}

// endProfile closes the regions that Begin and Mark opened.
func (c *contract) endProfile() {
	p := &c.prof
	if p.step != nil {
		p.step.End()
		p.step = nil
	}
	if p.op != nil {
		p.op.End()
		p.op = nil
	}
}

// Marking implements backend.Marker.
func (c *contract) Marking() bool { return c.prof.on || trace.IsEnabled() }

// Mark implements backend.Marker.
func (c *contract) Mark(op string) {
	p := &c.prof
	if p.step != nil {
		p.step.End()
		p.step = nil
	}
	if trace.IsEnabled() {
		p.step = trace.StartRegion(context.Background(), op)
	}
	c.label(op)
}
