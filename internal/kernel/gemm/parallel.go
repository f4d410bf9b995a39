package gemm

import "github.com/tenferro-go/tenferro/internal/par"

// gemmTask is the record a fan-out hands to the runner. The workspace keeps
// one per dtype so that a fork allocates nothing. Part p uses worker buffer p.
type gemmTask[T Scalar] struct {
	ws          *Workspace
	kb          *kernelInfo[T]
	m, n, k     int
	alpha, beta T
	a, b, c     Mat[T]
	batch       int // > 0: split over batch items instead of inside one product
	sa, sb, sc  int // batch strides, in elements
}

// clear drops the operand references so the workspace does not keep user
// data alive.
func (t *gemmTask[T]) clear() {
	ws := t.ws
	*t = gemmTask[T]{}
	t.ws = ws
}

// RunPart runs share p of parts: a contiguous range of batch items, or a
// contiguous range of NR-aligned column blocks (MR-aligned row blocks when
// C has more row than column panels) of one product.
func (t *gemmTask[T]) RunPart(p, parts int) {
	w := &t.ws.workers[p]
	kb := t.kb
	if t.batch > 0 {
		lo, hi := par.Split(t.batch, p, parts)
		for l := lo; l < hi; l++ {
			a, b, c := t.a, t.b, t.c
			a.Off += l * t.sa
			b.Off += l * t.sb
			c.Off += l * t.sc
			gemmSerial(kb, w, t.m, t.n, t.k, t.alpha, a, b, t.beta, c)
		}
		return
	}
	nu := (t.n + kb.nr - 1) / kb.nr
	mu := (t.m + kb.mr - 1) / kb.mr
	if nu >= mu {
		lo, hi := par.Split(nu, p, parts)
		lo, hi = lo*kb.nr, min(hi*kb.nr, t.n)
		if lo >= hi {
			return
		}
		gemmSerial(kb, w, t.m, hi-lo, t.k, t.alpha, t.a, t.b.shift(0, lo), t.beta, t.c.shift(0, lo))
		return
	}
	lo, hi := par.Split(mu, p, parts)
	lo, hi = lo*kb.mr, min(hi*kb.mr, t.m)
	if lo >= hi {
		return
	}
	gemmSerial(kb, w, hi-lo, t.n, t.k, t.alpha, t.a.shift(lo, 0), t.b, t.beta, t.c.shift(lo, 0))
}

// taskFor returns the workspace's task record for T.
func taskFor[T Scalar](ws *Workspace) *gemmTask[T] {
	var z T
	switch any(z).(type) {
	case float32:
		return any(&ws.t32).(*gemmTask[T])
	case float64:
		return any(&ws.t64).(*gemmTask[T])
	case complex64:
		return any(&ws.tc64).(*gemmTask[T])
	default:
		return any(&ws.tc128).(*gemmTask[T])
	}
}

// GemmBatched computes, for every batch item l in [0, batch),
//
//	C_l = alpha*A_l*B_l + beta*C_l,
//
// where A_l is a with its offset moved by l*strideA elements (likewise B_l,
// C_l). The items of C must not overlap one another, A or B. With a runner
// it either hands whole items to workers or splits each item, whichever the
// work model predicts is faster: items go to workers when there are at least
// as many as workers and the per-item fan-out cost (ParallelThreshold worth
// of work per item) outweighs the imbalance of an uneven item count.
// Allocates nothing once ws is warm.
func GemmBatched[T Scalar](ws *Workspace, r par.Runner, m, n, k, batch int, alpha T, a Mat[T], strideA int, b Mat[T], strideB int, beta T, c Mat[T], strideC int) {
	if batch <= 0 || m <= 0 || n <= 0 {
		return
	}
	kb := kernelFor[T](activeVariant())
	item := flops[T](m, n, k)
	w := par.Width(r)
	if w > 1 && k > 0 && alpha != 0 && item*batch >= ParallelThreshold && batch >= 2 {
		// Predicted times in flop units: whole items per worker versus
		// each item split w ways plus one fork per item.
		rounds := (batch + w - 1) / w
		overBatch := rounds * item
		inside := batch * (item/w + ParallelThreshold/2)
		if overBatch <= inside || item < ParallelThreshold {
			parts := min(w, batch)
			ws.ensure(parts)
			t := taskFor[T](ws)
			*t = gemmTask[T]{ws: ws, kb: kb, m: m, n: n, k: k, alpha: alpha, beta: beta,
				a: a, b: b, c: c, batch: batch, sa: strideA, sb: strideB, sc: strideC}
			par.Run(r, t, parts)
			t.clear()
			return
		}
	}
	for l := 0; l < batch; l++ {
		al, bl, cl := a, b, c
		al.Off += l * strideA
		bl.Off += l * strideB
		cl.Off += l * strideC
		Gemm(ws, r, m, n, k, alpha, al, bl, beta, cl)
	}
}
