package program

import (
	"math/bits"
	"slices"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/internal/op"
)

// Row tiling: a run of commands that reduce and combine rows (a softmax:
// max over the last axis, exp(x - max), sum, divide) makes one pass over
// memory per command, each pass larger than the caches. When every command
// of the run keeps one axis (the tile axis) and treats its rows
// independently, the run executes tile by tile instead: for each block of
// rows along the tile axis, every command of the run runs on that block,
// and the values that live only inside the run (internal values) get
// buffers of one block instead of slots of the whole tensor. A block's
// working set stays in cache, so the run reads its inputs from memory once
// and writes its results once.
//
// Row-local commands are the elementwise ones (unary, binary, fused, with
// broadcasting) and the reductions that return their input's dtype (Sum,
// Prod, Mean, Max, Min, LogSumExp) over axes other than the tile axis. Each
// value of the run has its own tile axis (axes shift under broadcasting and
// reductions) or is fixed: it does not span the tile axis (a broadcast
// operand) and is read whole by every block.

// tileBytes is the working set a block of rows aims for: the bytes of one
// block of every tiled value, about what the second-level cache holds.
var tileBytes = 1 << 20

// forcedTileRows, when positive, is the rows of every block regardless of
// tileBytes and minRunBytes: tests set it to tile small programs.
var forcedTileRows = 0

// minTileRows is the fewest rows a block may have: fewer would spend more
// in per-command overhead than the cache saves.
const minTileRows = 4

// minRunBytes is the shortest contiguous run of memory a block of a value
// outside the command may consist of. Blocks along an axis of small stride
// (the rows of a column-major matrix) are thousands of short runs, which
// the hardware prefetchers do not follow: reading them costs more than the
// passes the tiling saves.
const minRunBytes = 16 << 10

// tileGroup is the tiling of one run of commands.
type tileGroup struct {
	extent int         // rows along the tile axis
	rows   int         // rows per block
	axis   map[int]int // value id -> its tile axis, -1 for a fixed value
	inner  []int       // internal values, in id order (roots and views)
}

// tile replaces the runs of row-local commands that profit from it by
// tiled commands.
func (c *compiler) tile() {
	p := c.p
	last := c.lastReads()
	var out []command
	for i := 0; i < len(p.cmds); {
		j, g := c.bestRun(i, last)
		if g == nil {
			out = append(out, p.cmds[i])
			i++
			continue
		}
		cmd := command{op: cmdTiled, tile: g, sub: slices.Clone(p.cmds[i:j]), dst: p.cmds[j-1].dst}
		for _, s := range cmd.sub {
			cmd.fused += s.fused
		}
		for _, id := range g.inner {
			p.vals[id].inner = true
		}
		p.stats.Tiled += j - i
		out = append(out, cmd)
		i = j
	}
	p.cmds = out
}

// lastReads returns, per value id, the index of the last command reading
// it or a view of it (by root), -1 if none; an output counts as read
// after every command.
func (c *compiler) lastReads() []int {
	p := c.p
	last := make([]int, len(p.vals))
	for i := range last {
		last[i] = -1
	}
	for i, cmd := range p.cmds {
		for _, a := range cmd.args {
			last[c.rootOf(a)] = i
		}
	}
	for _, o := range p.outputs {
		last[c.rootOf(o)] = len(p.cmds)
	}
	return last
}

// rootOf returns the value owning a's storage (a itself unless a view).
func (c *compiler) rootOf(a int) int {
	if v := &c.p.vals[a]; v.kind == valView {
		return v.root
	}
	return a
}

// rowLocal reports whether command cmd may run in row blocks.
func (c *compiler) rowLocal(cmd *command) bool {
	switch cmd.op {
	case cmdUnary, cmdBinary, cmdFused, cmdFusedReduce:
		return true
	case cmdReduce:
		switch cmd.kind {
		case op.Sum, op.Prod, op.Mean, op.Max, op.Min, op.LogSumExp:
			return true
		}
	}
	return false
}

// bestRun returns the longest run of commands from i that tiles, as its
// end and tiling, or (i, nil).
func (c *compiler) bestRun(i int, last []int) (int, *tileGroup) {
	p := c.p
	if !c.rowLocal(&p.cmds[i]) || !p.vals[p.cmds[i].dst].dt.IsNumber() {
		return i, nil
	}
	dt := p.vals[p.cmds[i].dst].dt
	written := map[int]bool{}
	for _, w := range p.cmds[i].writes() {
		written[w] = true
	}
	j := i + 1
	for ; j < len(p.cmds); j++ {
		cmd := &p.cmds[j]
		if !c.rowLocal(cmd) || p.vals[cmd.dst].dt != dt {
			break
		}
		linked := false
		for _, a := range cmd.args {
			if p.vals[a].dt != dt {
				linked = false
				break
			}
			linked = linked || written[c.rootOf(a)]
		}
		if !linked {
			break
		}
		for _, w := range cmd.writes() {
			written[w] = true
		}
	}
	for ; j >= i+2; j-- {
		if g := c.tiling(i, j, last); g != nil {
			return j, g
		}
	}
	return i, nil
}

// tiling returns the tiling of commands [i, j), or nil when they do not
// tile (no reduction, no consistent tile axis, or a block as large as the
// whole).
func (c *compiler) tiling(i, j int, last []int) *tileGroup {
	p := c.p
	reduces := false
	for _, cmd := range p.cmds[i:j] {
		reduces = reduces || cmd.op == cmdReduce || cmd.op == cmdFusedReduce
	}
	if !reduces {
		return nil
	}
	first := p.vals[p.cmds[i].dst].shape
	for t := len(first) - 1; t >= 0; t-- {
		if first[t] < 2*minTileRows {
			continue
		}
		g := &tileGroup{extent: first[t], axis: map[int]int{}}
		if c.assignAxes(g, i, j, t) && c.sizeBlocks(g, i, j, last) {
			return g
		}
	}
	return nil
}

// assignAxes gives every value of commands [i, j) its tile axis, starting
// from axis t of the first command's result; it reports whether they are
// consistent.
func (c *compiler) assignAxes(g *tileGroup, i, j, t int) bool {
	p := c.p
	set := func(id, a int) bool {
		v := &p.vals[id]
		if a < -1 || a >= 0 && v.shape[a] != g.extent {
			return false
		}
		if old, ok := g.axis[id]; ok {
			return old == a
		}
		if v.kind == valView {
			// A view of a value written here sees the tile axis of its
			// root, and its block is a view of the root's block.
			if ra, ok := g.axis[v.root]; ok && (ra < 0 || c.viewAxis(id, ra) != a) {
				return false
			}
		}
		g.axis[id] = a
		return true
	}
	for k := i; k < j; k++ {
		cmd := &p.cmds[k]
		sp := c.space(cmd)
		ts := -1 // the tile axis in cmd's operand space
		if k == i {
			ts = c.spaceAxis(cmd, t)
		}
		for _, a := range cmd.args {
			if k == i {
				break
			}
			ta, ok := g.axis[a]
			if !ok {
				if ra, rok := g.axis[c.rootOf(a)]; rok && ra >= 0 {
					ta, ok = c.viewAxis(a, ra), true
				}
			}
			if !ok || ta < 0 {
				continue
			}
			d := ta + len(sp) - len(p.vals[a].shape)
			if ts >= 0 && d != ts {
				return false
			}
			ts = d
		}
		td := c.resultAxis(cmd, ts)
		if td < 0 {
			return false
		}
		for _, a := range cmd.args {
			ta := ts - (len(sp) - len(p.vals[a].shape))
			if ta < 0 || p.vals[a].shape[ta] == 1 {
				ta = -1
			}
			if !set(a, ta) {
				return false
			}
		}
		if !set(cmd.dst, td) || cmd.storing && !set(cmd.store, ts) {
			return false
		}
	}
	return true
}

// space returns the shape of cmd's operand space, against which its
// arguments broadcast: the result's for an elementwise command, the
// input's for a reduction, the tree's (the broadcast of its leaves) for a
// fused reduction.
func (c *compiler) space(cmd *command) []int {
	p := c.p
	switch cmd.op {
	case cmdReduce:
		return p.vals[cmd.args[0]].shape
	case cmdFusedReduce:
		var sp []int
		for _, a := range cmd.args {
			sp, _ = op.BroadcastShape(sp, p.vals[a].shape, nil)
		}
		return sp
	}
	return p.vals[cmd.dst].shape
}

// spaceAxis returns the axis of cmd's operand space that its result's axis
// td comes from (-1 if none).
func (c *compiler) spaceAxis(cmd *command, td int) int {
	if cmd.op != cmdReduce && cmd.op != cmdFusedReduce {
		return td
	}
	kept := -1
	for d := range c.space(cmd) {
		if cmd.mask&(1<<uint(d)) == 0 {
			if kept++; kept == td {
				return d
			}
		}
	}
	return -1
}

// resultAxis returns the axis of cmd's result that axis ts of its operand
// space becomes, or -1 when a reduction reduces it (or ts < 0).
func (c *compiler) resultAxis(cmd *command, ts int) int {
	if ts < 0 || cmd.op != cmdReduce && cmd.op != cmdFusedReduce {
		return ts
	}
	if cmd.mask&(1<<uint(ts)) != 0 {
		return -1
	}
	return ts - bits.OnesCount64(cmd.mask&(1<<uint(ts)-1))
}

// viewAxis returns the axis of view id that corresponds to axis ra of its
// root, or -2 when the view does not map the root's axes one to one (a
// reshape that merges or splits axes).
func (c *compiler) viewAxis(id, ra int) int {
	v := &c.p.vals[id]
	root := &c.p.vals[v.root]
	rs := compactStrides(root.shape)
	found := -2
	for d, x := range v.shape {
		if x == 1 {
			continue
		}
		m := -1
		for e, y := range root.shape {
			if y == x && rs[e] == v.strides[d] {
				m = e
			}
		}
		if m < 0 {
			return -2
		}
		if m == ra {
			found = d
		}
	}
	return found
}

// sizeBlocks decides which values of commands [i, j) are internal and how
// many rows a block has; it reports false when blocks would not help.
func (c *compiler) sizeBlocks(g *tileGroup, i, j int, last []int) bool {
	p := c.p
	bytesPerRow := 0
	for id, a := range g.axis {
		v := &p.vals[id]
		if a < 0 {
			continue
		}
		if v.kind == valView {
			if ra, ok := g.axis[v.root]; ok && ra >= 0 {
				continue // counted with its root
			}
		}
		bytesPerRow += tf.Numel(v.shape) / g.extent * v.dt.Size()
	}
	// Internal: written here, read nowhere after the run, not an output.
	internal := map[int]bool{}
	for _, cmd := range p.cmds[i:j] {
		for _, w := range cmd.writes() {
			if v := &p.vals[w]; v.kind == valSlot && last[w] < j {
				internal[w] = true
			}
		}
	}
	g.rows = tileBytes / max(bytesPerRow, 1)
	if g.rows >= 32 {
		g.rows &^= 15
	}
	if forcedTileRows > 0 {
		g.rows = forcedTileRows
	} else {
		if g.rows < minTileRows || g.rows*2 > g.extent {
			return false
		}
		for id, a := range g.axis {
			if v := &p.vals[id]; a >= 0 && !internal[c.rootOf(id)] && g.rows*c.strideOf(id, a)*v.dt.Size() < minRunBytes {
				return false
			}
		}
	}
	g.inner = g.inner[:0]
	for id := range p.vals {
		r := c.rootOf(id)
		if !internal[r] {
			continue
		}
		if id != r {
			a := c.viewAxis(id, g.axis[r])
			if old, ok := g.axis[id]; a < 0 || ok && old != a {
				return false
			}
			g.axis[id] = a
		}
		g.inner = append(g.inner, id)
	}
	return true
}

// blockElems returns the elements of one block of tiled value v.
func (g *tileGroup) blockElems(v *value) int {
	return tf.Numel(v.shape) / g.extent * g.rows
}

// strideOf returns the stride of value id along axis a: its view's, else
// the compact column-major one (the layout the compiler assumes for the
// caller's tensors).
func (c *compiler) strideOf(id, a int) int {
	if v := &c.p.vals[id]; v.kind == valView {
		return v.strides[a]
	}
	return tf.Numel(c.p.vals[id].shape[:a])
}
