package program

import (
	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/internal/op"
)

// fuse marks the elementwise nodes that fold into their consumer: an
// elementwise node whose only use is one argument of another elementwise
// node (and which is not an output) is computed inside the consumer's
// fused command instead of into a buffer of its own.
//
// Broadcasting composes: a leaf of a fused tree has, on every axis, the
// extent of the tree's root or 1, so the fused kernel reads every leaf at
// the root's shape with stride 0 on its extent-1 axes. An inner node that
// was broadcast is recomputed per element of the root, which costs
// arithmetic but never memory.
//
// Trees are cut to fit the fused kernel's limits (backend.MaxFusedInputs
// distinct leaves, backend.MaxFusedStack stack depth): a cut child becomes
// the root of a tree of its own.
func (c *compiler) fuse() {
	c.inner = make([]bool, c.n)
	ew := func(id int) bool {
		return c.live[id] && c.canon[id] == id && fusable(c.g.Node(id).Op)
	}
	consumer := make([]int, c.n)
	for i := range consumer {
		consumer[i] = -1
	}
	for id := range c.n {
		if c.live[id] && c.canon[id] == id {
			for _, a := range c.args[id] {
				consumer[a] = id
			}
		}
	}
	// A reduction folds the tree that feeds it when it is the tree's only
	// reader: the tree is evaluated in blocks and never stored. A tree
	// read by a reduction and by another command is stored once: computing
	// it twice (a softmax's exponentials) measured slower than writing and
	// reading it back.
	red := func(id int) bool {
		return c.live[id] && c.canon[id] == id && fusableReduction(c.g.Node(id).Op) && c.blockable(c.args[id][0])
	}
	for id := range c.n {
		if ew(id) && c.uses[id] == 1 && c.isOut[id] == 0 && consumer[id] >= 0 && (ew(consumer[id]) || red(consumer[id])) {
			c.inner[id] = true
		}
	}
	if c.cfg.recompute > 0 {
		c.markRecomputed(ew, red)
	}
	// Bottom up, so that trees fill up from the leaves: a node whose tree
	// (its arguments' trees already fit) exceeds the limits cuts the
	// argument whose tree is larger; that argument's tree stays whole.
	for id := range c.n {
		if !ew(id) {
			continue
		}
		for !c.fits(id) {
			best, bestSize := -1, -1
			for _, a := range c.args[id] {
				if c.inner[a] {
					if s := c.treeSize(a); s > bestSize {
						best, bestSize = a, s
					}
				}
			}
			c.inner[best] = false
		}
	}
	for id := range c.n {
		if c.inner[id] && c.uses[id] > 1 {
			c.p.stats.Recomputed++
		}
	}
}

// markRecomputed marks inner (WithRecompute) the elementwise results read
// several times, by fusable consumers only, whose own trees perform at
// most c.cfg.recompute operations. Ids ascend, so a result's arguments are
// decided before it: along a chain, the trees grow until one would exceed
// the limit, whose root is then stored and starts the next segment.
func (c *compiler) markRecomputed(ew, red func(int) bool) {
	stored := make([]bool, c.n) // read by a consumer that cannot fold it
	for id := range c.n {
		if !c.live[id] || c.canon[id] != id || ew(id) || red(id) {
			continue
		}
		for _, a := range c.args[id] {
			stored[a] = true
		}
	}
	for id := range c.n {
		if ew(id) && !c.inner[id] && !stored[id] && c.uses[id] > 1 && c.isOut[id] == 0 && c.treeSize(id) <= c.cfg.recompute {
			c.inner[id] = true
		}
	}
}

// treeSize counts the operations of the fused tree rooted at id.
func (c *compiler) treeSize(id int) int {
	n := 1
	for _, a := range c.args[id] {
		if c.inner[a] {
			n += c.treeSize(a)
		}
	}
	return n
}

// depth returns the stack depth of evaluating id's tree in post order.
func (c *compiler) depth(id int) int {
	args := c.args[id]
	d := func(a int) int {
		if c.inner[a] {
			return c.depth(a)
		}
		return 1
	}
	if len(args) == 1 {
		return d(args[0])
	}
	return max(d(args[0]), d(args[1])+1)
}

func (c *compiler) leaves(id int, out []int) []int {
	for _, a := range c.args[id] {
		if c.inner[a] {
			out = c.leaves(a, out)
			continue
		}
		found := false
		for _, l := range out {
			found = found || l == a
		}
		if !found {
			out = append(out, a)
		}
	}
	return out
}

func (c *compiler) fits(id int) bool {
	return len(c.leaves(id, nil)) <= backend.MaxFusedInputs && c.depth(id) <= backend.MaxFusedStack
}

func (c *compiler) hasInner(id int) bool {
	for _, a := range c.args[id] {
		if c.inner[a] {
			return true
		}
	}
	return false
}

// fusedCode emits the stack program of id's tree: its distinct leaves (in
// order of first load) and the number of graph operations it performs.
func (c *compiler) fusedCode(id int) (code []backend.FusedInstr, leaves []int, ops int) {
	leaves = c.leaves(id, nil)
	var emit func(id int)
	emit = func(id int) {
		ops++
		for _, a := range c.args[id] {
			if c.inner[a] {
				emit(a)
				continue
			}
			for k, l := range leaves {
				if l == a {
					code = append(code, backend.FusedInstr{Load: true, Arg: k})
				}
			}
		}
		nd := c.g.Node(id)
		code = append(code, backend.FusedInstr{Op: nd.Op, Alpha: nd.Attrs.Alpha, Beta: nd.Attrs.Beta})
	}
	emit(id)
	return code, leaves, ops
}

// fusableReduction reports whether reduction k may fold the elementwise
// tree that feeds it (backend.FusedKernel.Reduce).
func fusableReduction(k op.Kind) bool {
	switch k {
	case op.Sum, op.Mean, op.Prod, op.Max, op.Min:
		return true
	}
	return false
}

// maxBlockBytes bounds the block a fused reduction evaluates at a time:
// the elements of its tree's result with one index along the tree's last
// axis of extent above 1. Larger trees are stored and reduced as usual.
const maxBlockBytes = 1 << 20

// blockable reports whether the tree rooted at node id is small enough per
// index of its last axis to be evaluated block by block.
func (c *compiler) blockable(id int) bool {
	nd := c.g.Node(id)
	return blockableShape(nd.Shape, nd.DType)
}

// blockableShape reports whether a tree's result of the given shape and
// dtype has at most maxBlockBytes per index of its last axis of extent
// above 1.
func blockableShape(shape []int, dt tf.DType) bool {
	inner := tf.Numel(shape)
	for d := len(shape) - 1; d >= 0; d-- {
		if shape[d] > 1 {
			inner /= shape[d]
			break
		}
	}
	return inner*dt.Size() <= maxBlockBytes
}

// fusable reports whether operation k may be part of a fused tree: an
// elementwise operation on numbers whose result has its inputs' dtype
// (fused kernels run in one dtype).
func fusable(k op.Kind) bool {
	in := k.Info()
	return (in.Category == op.Unary || in.Category == op.Binary) && in.Result == op.SameDType && in.Accept&op.Numbers != 0
}

// mergeStores joins an elementwise command and the reduction right after
// it that reads its result into one fused reduction that also stores the
// result (a softmax's exponentials, summed and then divided): the result is
// written once and reduced from cache, not written and read back.
func (c *compiler) mergeStores() {
	p := c.p
	out := p.cmds[:0]
	for i := 0; i < len(p.cmds); i++ {
		cmd := p.cmds[i]
		if i+1 < len(p.cmds) {
			if m, ok := c.storeMerge(&cmd, &p.cmds[i+1]); ok {
				out = append(out, m)
				p.stats.Fused++
				i++
				continue
			}
		}
		out = append(out, cmd)
	}
	p.cmds = out
}

// storeMerge returns the fused reduction of elementwise command f and
// reduction r when r reads f's result and the result blocks.
func (c *compiler) storeMerge(f, r *command) (command, bool) {
	p := c.p
	if r.op != cmdReduce || !fusableReduction(r.kind) || r.args[0] != f.dst {
		return command{}, false
	}
	v := &p.vals[f.dst]
	if v.kind != valSlot && v.kind != valOut || v.dt != p.vals[r.dst].dt || !blockableShape(v.shape, v.dt) {
		return command{}, false
	}
	m := command{op: cmdFusedReduce, kind: r.kind, mask: r.mask, dst: r.dst, args: f.args, store: f.dst, storing: true, fused: f.fused + 1}
	switch f.op {
	case cmdFused:
		m.code = f.code
	case cmdUnary:
		m.code = []backend.FusedInstr{{Load: true}, {Op: f.kind, Alpha: f.alpha, Beta: f.beta}}
	case cmdBinary:
		m.code = []backend.FusedInstr{{Load: true}, {Load: true, Arg: 1}, {Op: f.kind}}
	default:
		return command{}, false
	}
	return m, true
}
