package cpu

import (
	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/internal/kernel/lapack"
	"github.com/tenferro-go/tenferro/internal/par"
)

// Batches of matrices are spread over the engine's team by item: the items
// are split into contiguous ranges, one per worker, each worker running
// the serial kernels with a workspace of its own. A single item, or a
// batch whose total work is below batchParMinWork, runs on the caller with
// the engine's workspace and its runner (so that one large matrix still
// parallelizes inside the kernels).

// batchParMinWork is the least total work (items × n³, n the matrix order)
// of a batch that is spread over the team: 2¹⁶ is about 64 8×8
// factorizations, tens of microseconds on one core, well above the
// microseconds a fork costs.
const batchParMinWork = 1 << 16

// rangeBody runs items [lo, hi) of a batched operation with workspace ws
// and runner r (nil inside a worker), and returns the failure of its
// lowest failing item, or nil.
type rangeBody interface {
	run(ws *lapack.Workspace, r par.Runner, lo, hi int) *backend.LinalgFailure
}

// batchTask runs a rangeBody split over the team; it lives in the
// engine's scratch so that a fork allocates nothing.
type batchTask struct {
	body  rangeBody
	items int
	ws    []*lapack.Workspace
	fails []*backend.LinalgFailure
}

// RunPart implements par.Task.
func (t *batchTask) RunPart(part, parts int) {
	lo, hi := par.Split(t.items, part, parts)
	t.fails[part] = t.body.run(t.ws[part], nil, lo, hi)
}

// forEach runs body over items items of about work operations each (n³
// for order n), on the team when the batch is large enough. It returns the
// failure of the lowest failing item, or nil. Bodies write only their own
// items' memory, so that parts never share a destination.
func (k *numeric[T]) forEach(body rangeBody, items, work int) error {
	e, s := k.e, &k.sc().lin
	parts := 1
	if w := par.Width(e.runner); w > 1 && items > 1 && items*max(work, 1) >= batchParMinWork {
		parts = min(w, items)
	}
	if parts == 1 {
		if f := body.run(e.lapackWorkspace(), e.runner, 0, items); f != nil {
			return f
		}
		return nil
	}
	for len(s.ws) < parts {
		s.ws = append(s.ws, new(lapack.Workspace))
	}
	if cap(s.fails) < parts {
		s.fails = make([]*backend.LinalgFailure, parts)
	}
	t := &s.task
	t.body, t.items, t.ws, t.fails = body, items, s.ws[:parts], s.fails[:parts]
	e.runner.Run(t, parts)
	var fail *backend.LinalgFailure
	for i, f := range t.fails {
		if f != nil && fail == nil {
			fail = f
		}
		t.fails[i] = nil
	}
	t.body = nil
	if fail != nil {
		return fail
	}
	return nil
}

// startBatch returns the odometer of a batch shape positioned at linear
// item lo (column-major order, as batch.next walks it).
func startBatch(shape, room []int, lo int) batch {
	b := batch{shape: shape, idx: room[:len(shape)]}
	for d, x := range shape {
		if x > 0 {
			b.idx[d] = lo % x
			lo /= x
		} else {
			b.idx[d] = 0
		}
	}
	return b
}

// cube returns n³, the work unit of forEach.
func cube(n int) int { return n * n * n }
