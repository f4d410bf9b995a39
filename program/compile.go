// Package program compiles traced graphs (package trace) into
// shape-specialized programs, binds them to an engine and replays them.
//
// # Compile once, prepare per engine, run many
//
// [Compile] turns a *trace.Graph into an immutable [Program]:
//
//   - common subexpression elimination: nodes with the same operation,
//     dtype, attributes and (canonical) arguments are merged (arguments of
//     Add and Mul are unordered);
//   - permutes into einsums: an einsum reads a permuted operand (without
//     "...") from the permutation's source, relabelled;
//   - dead-code elimination: nodes that no output depends on are dropped
//     (inputs stay: they are the signature);
//   - einsum planning: every einsum is parsed, bound and planned once
//     (einsum.NewPlan) and the plan is stored in its command;
//   - fusion: a tree of elementwise operations (with broadcasting) whose
//     inner results have no other use becomes one fused command, one pass
//     over memory;
//   - recomputation ([WithRecompute], off by default): an elementwise
//     result that several fused commands read is recomputed by each of
//     them instead of stored (checkpointing of elementwise chains, for
//     gradient programs);
//   - fused reductions: a Sum, Mean, Prod, Max or Min of an elementwise
//     tree that nothing else reads evaluates the tree in cache-sized
//     blocks and never stores it; a reduction right after the elementwise
//     command whose result it reads (and others read too) joins it and
//     reduces each block as it is written;
//   - row tiling: a run of elementwise commands and reductions that all
//     keep one axis (a softmax: max over the last axis, exp(x - max), sum,
//     divide) runs block by block along that axis, each block small enough
//     to stay in cache, and the values used only inside the run get
//     buffers of one block; disabled with WithoutFusion;
//   - views: Permute, Reshape, Squeeze, Unsqueeze and Flatten of an
//     intermediate are metadata over its buffer and cost no command (a
//     Reshape or Flatten of a non-compact view, and any view of a program
//     input, first copies the source into a buffer); the other structural
//     and indexing operations are commands (a Split part copies its
//     range);
//   - buffer slots: intermediates are assigned to per-dtype slots by
//     liveness, so values whose lifetimes do not overlap share memory;
//     a slot is sized to the largest value it holds. Outputs are written
//     straight into the caller's tensors when they are computed by a
//     command and not viewed (for a repeated output, its first
//     occurrence); otherwise a final copy moves them there.
//
// Constants of the graph (trace.Const, trace.Full) are part of the program:
// every run reads them in place, and programs prepared on many engines
// share them.
//
// [Prepare] binds a program to one engine: it allocates the slots, builds
// every tensor header and a flat command list. [Prepared.Run] and
// [Prepared.RunInto] check the input signature, claim the engine once and
// replay the commands; RunInto allocates nothing.
//
// # Concurrency
//
// A Program is immutable and may be prepared on many engines at once; a
// Prepared belongs to its engine and is used by one goroutine at a time.
package program

import (
	"errors"
	"fmt"
	"slices"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/einsum"
	"github.com/tenferro-go/tenferro/internal/op"
	"github.com/tenferro-go/tenferro/trace"
)

// Shorthands for the catalog operations the compiler treats specially.
const (
	op0       = op.None // a program input or a constant
	opPermute = op.Permute
	opReshape = op.Reshape
)

// Option configures Compile.
type Option func(*config)

type config struct {
	noCSE, noFusion bool
	recompute       int // WithRecompute's operation limit; 0: store every shared result
	einsum          einsum.Options
}

// WithoutCSE disables common subexpression elimination.
func WithoutCSE() Option { return func(c *config) { c.noCSE = true } }

// WithoutFusion disables the fusion of elementwise chains.
func WithoutFusion() Option { return func(c *config) { c.noFusion = true } }

// WithRecompute trades arithmetic for memory (checkpointing of
// elementwise chains): an elementwise result that several fused commands
// read (elementwise trees, or the reductions that fold them) is not stored
// but recomputed inside each of them, when its own fused tree performs at
// most maxOps operations. The values it reads stay stored and are the
// checkpoints; a longer chain is cut into segments of at most maxOps
// operations, each recomputed from the result that ends the segment
// before it.
//
// The typical use is a gradient program (package ad): the forward pass
// of an elementwise chain keeps every intermediate for the backward pass,
// which with WithRecompute recomputes them from the chain's input in its
// own fused commands, so Program.PlannedPeakBytes drops by those
// intermediates. Recomputed results are counted in Stats.Recomputed.
// maxOps <= 0 turns it off (the default); WithoutFusion turns it off too.
func WithRecompute(maxOps int) Option { return func(c *config) { c.recompute = max(maxOps, 0) } }

// WithEinsumOptions sets the planning options of every einsum (default:
// the zero einsum.Options, that is einsum.Auto). With a MemoryLimit, an
// einsum that no path fits within it is evaluated in slices, each within
// the limit (einsum.NewSlicedPlan), several at once where the engine can.
func WithEinsumOptions(o einsum.Options) Option { return func(c *config) { c.einsum = o } }

// opcode is how a command runs: which capability of the engine.
type opcode uint8

const (
	cmdMatmul      opcode = iota // dst = a·b
	cmdEinsum                    // dst = einsum(plan, args)
	cmdBinary                    // dst = kind(a, b)
	cmdUnary                     // dst = kind(a) with attributes alpha, beta
	cmdReduce                    // dst = kind over mask of a
	cmdFused                     // dst = code(args)
	cmdCopy                      // dst = a
	cmdPredicate                 // dst (bool) = kind(a)
	cmdCompare                   // dst (bool) = a kind b
	cmdWhere                     // dst = mask ? a : b
	cmdReal                      // dst (real) = kind(a): Abs, Real, Imag, Angle
	cmdReduceReal                // dst (real) = kind over mask of a: Var, Std, Norm
	cmdArg                       // dst (int64) = kind along the axis of mask: ArgMax, ArgMin
	cmdScan                      // dst = kind along the axis of mask: CumSum, CumProd
	cmdStruct                    // dst = kind(args, attrs): structural and indexing operations
	cmdTiled                     // the commands sub, run block by block along a tile axis
	cmdFusedReduce               // dst = kind over mask of code(args)
	cmdComplex                   // dst (complex) = a + i·b: Complex
	cmdLinalg                    // outs = the factors of kind(args): the linear-algebra operations
	cmdConvert                   // dst = a as dst's dtype: Convert
)

var opcodeNames = [...]string{"matmul", "einsum", "binary", "unary", "reduce", "fused", "copy", "predicate", "compare", "where", "real",
	"reduce", "arg", "scan", "struct", "tiled", "reduce", "complex", "linalg", "convert"}

// command is one step of a program. dst and args are value ids.
type command struct {
	op      opcode
	kind    op.Kind // the catalog operation of binary, unary and reduce commands
	dst     int
	args    []int
	plan    *einsum.Plan
	sliced  *einsum.SlicedPlan // of einsum commands run in slices (plan is one slice's), else nil
	alpha   complex128
	beta    complex128
	mask    uint64
	code    []backend.FusedInstr
	fused   int        // number of graph operations this command performs
	attrs   op.Attrs   // of structural commands, as the trace normalized them
	store   int        // of fused reductions with storing: the value the tree's result is also written to
	storing bool       // store is set
	sub     []command  // of tiled commands: the commands each block runs
	outs    []int      // of linalg commands: the value of each factor by position, -1 if dead
	tile    *tileGroup // of tiled commands: the tile axes and block size
}

// valKind says where a value's elements live.
type valKind uint8

const (
	valInput valKind = iota // a caller's input tensor
	valSlot                 // compact at the start of a slot
	valView                 // a view over a slot-backed value
	valOut                  // a caller's output tensor
	valConst                // a constant of the graph, read in place
)

// value is a tensor of the program: an input, a slot-backed result, a view
// over one, or an output.
type value struct {
	kind    valKind
	dt      tf.DType
	shape   []int
	root    int   // valSlot and valView: the valSlot value owning the storage
	strides []int // valView: strides over root's storage (offset 0)
	parent  int   // valView: the value it views
	perm    []int // valView: the permutation, or nil for a reshape
	slot    int   // valSlot: slot index
	index   int   // valInput / valOut: position in the signature; valConst: in consts
	inner   bool  // lives inside one tiled command: a block buffer, no slot
}

// slot is a buffer shared by values with disjoint lifetimes.
type slot struct {
	dt    tf.DType
	elems int
}

// Program is a compiled, shape-specialized graph. It is immutable.
type Program struct {
	vals    []value
	cmds    []command
	slots   []slot
	inputs  []int      // value ids of the inputs
	consts  []tf.Value // the graph's constants, which no command writes
	outputs []int      // value ids (valOut) of the outputs
	scratch int64      // largest engine pool draw of one command, in bytes
	stats   Stats
}

// Stats counts what the compiler passes did.
type Stats struct {
	Nodes      int // nodes in the graph
	CSE        int // nodes merged into an equal earlier node
	Dead       int // nodes removed as dead (after CSE)
	Fused      int // elementwise operations folded into fused commands
	Recomputed int // shared elementwise results recomputed by each reader (WithRecompute)
	Tiled      int // commands that run block by block inside tiled commands
	Views      int // Permute/Reshape nodes realized as views
	Absorbed   int // einsum operands read through a Permute without it
	Copies     int // copy commands (materialized inputs, output copies)
	Commands   int // commands in the program
	Slots      int // buffer slots
	SlotBytes  int64
	ValueBytes int64 // bytes of all slot-backed values, were none shared
}

// Stats returns what the compiler passes did.
func (p *Program) Stats() Stats { return p.stats }

// NumCommands returns the number of commands a run replays.
func (p *Program) NumCommands() int { return len(p.cmds) }

// PlannedPeakBytes returns the memory a run of a prepared program needs
// besides the caller's inputs and outputs: the slots plus the largest
// amount the engine draws from its pool during one command (einsum
// intermediates and pre-reductions, following each plan's steps). GEMM
// packing panels and the blocks of fused kernels (at most about a MiB
// each), which an engine's kernels keep resident, are not counted.
func (p *Program) PlannedPeakBytes() int64 { return p.stats.SlotBytes + p.scratch }

// InputSignature returns the dtype and shape of input i. The shape belongs
// to the program: do not modify it.
func (p *Program) InputSignature(i int) (tf.DType, []int) {
	v := &p.vals[p.inputs[i]]
	return v.dt, v.shape
}

// NumInputs returns the number of inputs.
func (p *Program) NumInputs() int { return len(p.inputs) }

// NumOutputs returns the number of outputs.
func (p *Program) NumOutputs() int { return len(p.outputs) }

// OutputSignature returns the dtype and shape of output j. The shape
// belongs to the program: do not modify it.
func (p *Program) OutputSignature(j int) (tf.DType, []int) {
	v := &p.vals[p.outputs[j]]
	return v.dt, v.shape
}

// Compile specializes g to its shapes: it merges equal nodes, drops dead
// ones, plans every einsum, fuses elementwise trees, realizes views and
// assigns buffer slots by liveness (see the package documentation).
func Compile(g *trace.Graph, opts ...Option) (*Program, error) {
	if g == nil {
		return nil, tf.Errorf(tf.ErrArgument, "Compile", "g", "a graph", "nil")
	}
	var cfg config
	for _, o := range opts {
		o(&cfg)
	}
	c := &compiler{g: g, cfg: cfg, n: g.NumNodes()}
	c.p = &Program{}
	c.p.stats.Nodes = c.n
	c.cse()
	c.absorbPermutes()
	c.dce()
	if !cfg.noFusion {
		c.fuse()
	}
	if err := c.schedule(); err != nil {
		return nil, err
	}
	if !cfg.noFusion {
		c.mergeStores()
		c.tile()
	}
	c.assignSlots()
	c.p.stats.Commands = len(c.p.cmds)
	return c.p, nil
}

// compiler holds the per-node state of one compilation. Node ids are the
// graph's; value ids are the program's.
type compiler struct {
	g     *trace.Graph
	cfg   config
	n     int
	p     *Program
	canon []int          // node -> representative node (CSE)
	exprs []*einsum.Expr // einsum nodes rewritten by absorbPermutes
	args  [][]int        // canonical arguments per node
	live  []bool
	uses  []int  // consumer argument occurrences + output occurrences
	isOut []int  // output occurrences per node
	inner []bool // folded into the fused command of a consumer
	val   []int  // node -> value id (-1 before scheduling)
}

func (c *compiler) cse() {
	c.canon = make([]int, c.n)
	c.args = make([][]int, c.n)
	seen := map[string]int{}
	for id := range c.n {
		nd := c.g.Node(id)
		args := make([]int, len(nd.Args))
		for i, a := range nd.Args {
			args[i] = c.canon[a]
		}
		c.args[id] = args
		c.canon[id] = id
		if nd.Op == op0 || c.cfg.noCSE { // inputs and constants stay apart
			continue
		}
		key := nodeKey(nd, args)
		if r, ok := seen[key]; ok {
			c.canon[id] = r
			c.p.stats.CSE++
			continue
		}
		seen[key] = id
	}
}

// nodeKey renders everything that determines a node's result; the
// arguments of commutative operations are unordered.
func nodeKey(nd trace.Node, args []int) string {
	a := args
	if nd.Op.Info().Commutative && a[0] > a[1] {
		a = []int{a[1], a[0]}
	}
	return fmt.Sprintf("%d|%d|%v|%v|%s", nd.Op, nd.DType, nd.Shape, a, nd.Attrs.Key(nd.Op))
}

func (c *compiler) dce() {
	c.live = make([]bool, c.n)
	c.uses = make([]int, c.n)
	c.isOut = make([]int, c.n)
	for _, o := range c.g.Outputs() {
		r := c.canon[o]
		c.live[r] = true
		c.isOut[r]++
		c.uses[r]++
	}
	for id := c.n - 1; id >= 0; id-- {
		if !c.live[id] {
			continue
		}
		for _, a := range c.args[id] {
			c.live[a] = true
			c.uses[a]++
		}
	}
	for _, id := range c.g.Inputs() {
		c.live[id] = true
	}
	for id := range c.n {
		if !c.live[id] && c.canon[id] == id {
			c.p.stats.Dead++
		}
	}
}

// schedule creates the values and commands in node order.
func (c *compiler) schedule() error {
	p := c.p
	c.val = make([]int, c.n)
	for i := range c.val {
		c.val[i] = -1
	}
	viewed := make([]bool, c.n)
	for id := range c.n {
		op := c.g.Node(id).Op
		if c.live[id] && isView(op) {
			viewed[c.args[id][0]] = true
		}
	}
	outIdx := make([]int, c.n) // output index of a direct output, or -1
	for i := range outIdx {
		outIdx[i] = -1
	}
	for j, o := range c.g.Outputs() {
		r := c.canon[o]
		op := c.g.Node(r).Op
		if outIdx[r] < 0 && !viewed[r] && op != op0 && !isView(op) {
			outIdx[r] = j
		}
	}
	materialized := map[int]int{} // node -> value id of its compact copy
	var groups linalgGroups       // the commands of the decompositions
	for _, id := range c.g.Inputs() {
		nd := c.g.Node(id)
		c.val[id] = len(p.vals)
		p.inputs = append(p.inputs, len(p.vals))
		p.vals = append(p.vals, value{kind: valInput, dt: nd.DType, shape: nd.Shape, index: nd.Input})
	}
	p.outputs = make([]int, len(c.g.Outputs()))
	newResult := func(id int) int {
		nd := c.g.Node(id)
		v := value{kind: valSlot, dt: nd.DType, shape: nd.Shape}
		if j := outIdx[id]; j >= 0 {
			v = value{kind: valOut, dt: nd.DType, shape: nd.Shape, index: j}
			p.outputs[j] = len(p.vals)
		}
		vid := len(p.vals)
		v.root = vid
		p.vals = append(p.vals, v)
		c.val[id] = vid
		return vid
	}
	for id := range c.n {
		if !c.live[id] || c.canon[id] != id || c.inner != nil && c.inner[id] {
			continue
		}
		nd := c.g.Node(id)
		args := make([]int, len(c.args[id]))
		for i, a := range c.args[id] {
			args[i] = c.val[a]
		}
		switch {
		case nd.IsConst():
			c.val[id] = len(p.vals)
			p.vals = append(p.vals, value{kind: valConst, dt: nd.DType, shape: nd.Shape, index: len(p.consts)})
			p.consts = append(p.consts, nd.Value)
			continue
		case nd.Op == op0:
			continue
		case isView(nd.Op):
			src := args[0]
			strides, ok := c.viewStrides(nd, src)
			if !ok {
				m, done := materialized[c.args[id][0]]
				if !done {
					sv := p.vals[src]
					m = len(p.vals)
					p.vals = append(p.vals, value{kind: valSlot, dt: sv.dt, shape: sv.shape, root: m})
					p.cmds = append(p.cmds, command{op: cmdCopy, dst: m, args: []int{src}})
					p.stats.Copies++
					materialized[c.args[id][0]] = m
				}
				src = m
				strides, _ = c.viewStrides(nd, src)
			}
			c.val[id] = len(p.vals)
			vv := value{kind: valView, dt: nd.DType, shape: nd.Shape, root: p.vals[src].root, strides: strides, parent: src}
			if nd.Op == opPermute {
				vv.perm = nd.Attrs.Axes
			}
			p.vals = append(p.vals, vv)
			p.stats.Views++
			continue
		}
		if nd.Op.Category() == op.Linalg {
			groups.add(p, nodeView{nd.Op, nd.Attrs}, args, newResult(id))
			continue
		}
		cmd := command{args: args, fused: 1, kind: nd.Op, alpha: nd.Attrs.Alpha, beta: nd.Attrs.Beta}
		switch cat := nd.Op.Category(); {
		case nd.Op == op.Matmul:
			cmd.op = cmdMatmul
		case nd.Op == op.Einsum:
			pl, sp, err := c.plan(id, nd)
			if err != nil {
				return err
			}
			cmd.op, cmd.plan, cmd.sliced = cmdEinsum, pl, sp
		case cat == op.Reduction || cat == op.Scan:
			for _, a := range nd.Attrs.Axes {
				cmd.mask |= 1 << uint(a)
			}
			switch {
			case c.inner != nil && c.inner[c.args[id][0]]:
				code, leaves, n := c.fusedCode(c.args[id][0])
				cmd.op, cmd.code, cmd.fused = cmdFusedReduce, code, n+1
				cmd.args = cmd.args[:0]
				for _, l := range leaves {
					cmd.args = append(cmd.args, c.val[l])
				}
				p.stats.Fused += n
			case cat == op.Scan:
				cmd.op = cmdScan
			case nd.Op.Info().Result == op.RealDType:
				cmd.op = cmdReduceReal
			case nd.Op.Info().Result == op.IndexDType:
				cmd.op = cmdArg
			default:
				cmd.op = cmdReduce
			}
		case cat == op.Select:
			cmd.op = cmdWhere
		case (cat == op.Unary || cat == op.Binary) && nd.Op.Info().Result == op.BoolDType:
			cmd.op = cmdPredicate
			if cat == op.Binary {
				cmd.op = cmdCompare
			}
		case cat == op.Unary && nd.Op.Info().Result == op.RealDType:
			cmd.op = cmdReal
		case cat == op.Binary && nd.Op.Info().Result == op.ComplexDType:
			cmd.op = cmdComplex // never fused: fused kernels run in one dtype
		case cat == op.Unary || cat == op.Binary:
			if c.inner != nil && c.hasInner(id) {
				code, leaves, n := c.fusedCode(id)
				cmd.op, cmd.code, cmd.fused = cmdFused, code, n
				cmd.args = cmd.args[:0]
				for _, l := range leaves {
					cmd.args = append(cmd.args, c.val[l])
				}
				p.stats.Fused += n
				break
			}
			cmd.op = cmdUnary
			if cat == op.Binary {
				cmd.op = cmdBinary
			}
		case nd.Op == op.Convert:
			cmd.op = cmdConvert // never fused: it changes the dtype
		case cat == op.Data || nd.Op == op.Contiguous:
			cmd.op = cmdCopy
		case cat == op.Structural || cat == op.Indexing:
			cmd.op, cmd.attrs = cmdStruct, nd.Attrs
		default:
			return tf.Errorf(tf.ErrArgument, "Compile", "g", "operations the compiler knows", "%v at node %d", nd.Op, id)
		}
		cmd.dst = newResult(id)
		p.cmds = append(p.cmds, cmd)
	}
	// Outputs that are not written in place get a final copy.
	for j, o := range c.g.Outputs() {
		r := c.canon[o]
		if outIdx[r] == j {
			continue
		}
		src := c.val[r]
		nd := c.g.Node(r)
		dst := len(p.vals)
		p.vals = append(p.vals, value{kind: valOut, dt: nd.DType, shape: nd.Shape, index: j, root: dst})
		p.outputs[j] = dst
		p.cmds = append(p.cmds, command{op: cmdCopy, dst: dst, args: []int{src}})
		p.stats.Copies++
	}
	return nil
}

// plan binds and plans einsum node id (with its operands as rewritten by
// absorbPermutes).
func (c *compiler) plan(id int, nd trace.Node) (*einsum.Plan, *einsum.SlicedPlan, error) {
	shapes := make([][]int, len(c.args[id]))
	for i, a := range c.args[id] {
		shapes[i] = c.g.Node(a).Shape
	}
	expr := c.exprs[id]
	var err error
	if expr == nil {
		expr, err = einsum.Parse(nd.Attrs.Subscripts)
	}
	if err == nil {
		var prob *einsum.Problem
		if prob, err = expr.Bind(shapes); err == nil {
			var pl *einsum.Plan
			if pl, err = einsum.NewPlan(prob, c.cfg.einsum); err == nil {
				return pl, nil, nil
			}
			if errors.Is(err, einsum.ErrMemoryLimit) {
				// No path fits the limit: evaluate the contraction in
				// slices, each within it.
				var sp *einsum.SlicedPlan
				if sp, err = einsum.NewSlicedPlan(prob, c.cfg.einsum); err == nil {
					return sp.Plan, sp, nil
				}
			}
		}
	}
	return nil, nil, &tf.Error{Op: "Compile", Arg: "einsum " + nd.Attrs.Subscripts, Kind: tf.ErrArgument, Err: err}
}

// absorbPermutes lets an einsum read a permuted operand through the
// permutation's source: for P = Permute(X, perm) labelled L (no "..."),
// X is labelled L' with L'[perm[d]] = L[d]. The einsum then reads X in
// place, with whatever strides it has, and the Permute, if nothing else
// uses it, is dead.
func (c *compiler) absorbPermutes() {
	c.exprs = make([]*einsum.Expr, c.n)
	for id := range c.n {
		nd := c.g.Node(id)
		if nd.Op != op.Einsum || c.canon[id] != id {
			continue
		}
		var expr *einsum.Expr
		var inputs [][]int
		args := slices.Clone(c.args[id])
		absorbed := 0
		for k, a := range args {
			if c.g.Node(a).Op != opPermute {
				continue
			}
			if expr == nil {
				var err error
				if expr, err = einsum.Parse(nd.Attrs.Subscripts); err != nil {
					break
				}
				inputs = make([][]int, len(expr.Inputs))
				for i, in := range expr.Inputs {
					inputs[i] = slices.Clone(in)
				}
			}
			labels := inputs[k]
			if slices.Contains(labels, einsum.Ellipsis) {
				continue
			}
			for c.g.Node(a).Op == opPermute {
				perm := c.g.Node(a).Attrs.Axes
				nl := make([]int, len(labels))
				for d, l := range labels {
					nl[perm[d]] = l
				}
				labels, a = nl, c.args[a][0]
				absorbed++
			}
			inputs[k], args[k] = labels, a
		}
		if absorbed == 0 {
			continue
		}
		e2, err := einsum.FromLabels(inputs, expr.Output, false)
		if err != nil {
			continue
		}
		c.exprs[id], c.args[id] = e2, args
		c.p.stats.Absorbed += absorbed
	}
}
