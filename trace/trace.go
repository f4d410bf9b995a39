// Package trace records tensor operations on symbolic inputs into an
// immutable graph that package program compiles.
//
// A [Trace] hands out symbolic variables ([Var]): an element type and a
// shape, no data. Operations on variables (Einsum, Matmul, Add, Sum,
// Permute, ...) check their arguments with the same rules as the eager
// operations of package tenferro (the operation catalog), record one node
// each and return the variable of the result. [Trace.Finish] freezes the
// nodes into a [Graph].
//
// Data enters a graph as inputs ([Trace.Input], bound at every run) or as
// constants ([Trace.Const] copies a tensor into the graph, [Trace.Full]
// makes one from a scalar): tr.Full(dt, 2) is the 2 of x - 2, a 0-d
// constant that broadcasts.
//
// # Semantics
//
// Every operation has the meaning of its eager twin in package tenferro
// (column-major layout, batch axes last for Matmul, NumPy broadcasting for
// the binary operations). All operands of one operation must share one dtype:
// the trace does not promote (mixed dtypes are an ErrDType error; convert
// the inputs before running instead).
//
// # Errors
//
// Record-time errors are *tenferro.Error values naming the operation and the
// argument. A bad shape, axis, permutation or subscript gives exactly the
// error the eager operation gives for the same input. Besides those,
// errors.Is matches tenferro.ErrDType (mixed or unaccepted dtypes) or
// tenferro.ErrArgument (a variable from another trace, the zero Var, use
// after Finish). A failed operation records nothing; the trace stays usable.
//
// # Concurrency
//
// A Trace is used by one goroutine at a time. A Graph is immutable and safe
// for concurrent readers.
package trace

import (
	"fmt"
	"slices"
	"strings"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/internal/op"
)

// Node is one recorded operation. Its slices belong to the graph and must
// not be modified.
type Node struct {
	Op    op.Kind  // the operation (op.None for an input or a constant); Op.String() names it
	DType tf.DType // of the result
	Shape []int    // extents of the result
	Args  []int    // ids of the operand nodes, in order
	Attrs op.Attrs // normalized attributes (alpha, axes, shape, subscripts)
	Input int      // an input's position in the program's input list; -1 for a constant
	// Value holds a constant's elements: a compact tensor the graph owns
	// and nobody writes. Do not modify it.
	Value tf.Value
}

// IsInput reports whether n is a program input.
func (n *Node) IsInput() bool { return n.Op == op.None && n.Input >= 0 }

// IsConst reports whether n is a constant (see [Trace.Const]).
func (n *Node) IsConst() bool { return n.Op == op.None && n.Input < 0 }

// Trace records operations. Build one with New.
type Trace struct {
	nodes    []Node
	inputs   []int
	finished bool
}

// Var is a symbolic tensor of a trace: a handle to the node that produces
// it. The zero Var belongs to no trace and is rejected by every operation.
type Var struct {
	t     *Trace
	id    int
	dt    tf.DType
	shape []int
}

// New returns an empty trace.
func New() *Trace { return &Trace{} }

// DType returns the element type of v.
func (v Var) DType() tf.DType { return v.dt }

// Shape returns the extents of v. The slice belongs to the trace: do not
// modify it.
func (v Var) Shape() []int { return v.shape }

// ID returns the id of the node producing v (its index in the graph).
func (v Var) ID() int { return v.id }

// Rank returns the number of axes of v.
func (v Var) Rank() int { return len(v.shape) }

func argErr(name, arg, expected, actual string) error {
	return tf.Errorf(tf.ErrArgument, name, arg, expected, "%s", actual)
}

// faultError turns a catalog fault into the error of operation name,
// exactly as the eager operations do.
func faultError(name string, f *op.Fault) error {
	return &tf.Error{Op: name, Arg: f.Arg, Expected: f.Expected, Actual: f.Actual, Kind: f.Kind, Err: f.Err}
}

// check validates that v is a live variable of t.
func (t *Trace) check(name, arg string, v Var) error {
	if t.finished {
		return argErr(name, "trace", "a trace that is not finished", "a finished trace")
	}
	if v.t == nil {
		return argErr(name, arg, "a variable of this trace", "the zero Var")
	}
	if v.t != t {
		return argErr(name, arg, "a variable of this trace", "a variable of another trace")
	}
	return nil
}

func (t *Trace) add(n Node) Var {
	id := len(t.nodes)
	t.nodes = append(t.nodes, n)
	return Var{t: t, id: id, dt: n.DType, shape: n.Shape}
}

// record checks and records operation k of the catalog on args with
// attributes a: variables of this trace, dtypes by the catalog's policy,
// shapes and attributes by its shape rule.
func (t *Trace) record(k op.Kind, a op.Attrs, args ...Var) (Var, error) {
	info := k.Info()
	name := info.Name
	dts := make([]op.DType, len(args))
	shapes := make([][]int, len(args))
	names := info.Args
	for i, v := range args {
		arg := op.OperandName(i)
		if i < len(names) {
			arg = names[i]
		}
		if err := t.check(name, arg, v); err != nil {
			return Var{}, err
		}
		dts[i], shapes[i] = op.DType(v.dt), v.shape
	}
	dt, f := k.DTypeWith(names, &a, dts...)
	if f != nil {
		return Var{}, faultError(name, f)
	}
	if info.Attr == op.AlphaAttr && !dt.IsComplex() && imag(a.Alpha) != 0 {
		return Var{}, tf.Errorf(tf.ErrDType, name, "alpha", "a real factor for "+dt.String(), "%v", a.Alpha)
	}
	a.Axes, a.Shape, a.Ints = slices.Clone(a.Axes), slices.Clone(a.Shape), slices.Clone(a.Ints)
	shape, f := k.Shape(&a, shapes)
	if f != nil {
		return Var{}, faultError(name, f)
	}
	ids := make([]int, len(args))
	for i, v := range args {
		ids[i] = v.id
	}
	return t.add(Node{Op: k, DType: tf.DType(dt), Shape: shape, Args: ids, Attrs: a}), nil
}

// Apply records operation k of the catalog with normalized attributes a on
// args, with the same checks as the typed methods: the generic form that
// graph rewriters (package ad) replay nodes through. A Split node is one
// part: a.Axes holds the axis and a.Ints its range [start, stop).
func (t *Trace) Apply(k op.Kind, a op.Attrs, args ...Var) (Var, error) {
	if !k.Valid() {
		return Var{}, argErr("Apply", "k", "an operation of the catalog", k.String())
	}
	return t.record(k, a, args...)
}

// Input declares the next program input: a tensor of dtype dt and the given
// shape. Inputs are numbered in the order they are declared.
func (t *Trace) Input(dt tf.DType, shape ...int) (Var, error) {
	const name = "Input"
	if t.finished {
		return Var{}, argErr(name, "trace", "a trace that is not finished", "a finished trace")
	}
	if !dt.Valid() {
		return Var{}, tf.Errorf(tf.ErrDType, name, "dt", "a valid dtype", "%v", dt)
	}
	if _, f := op.Numel("shape", shape); f != nil {
		return Var{}, faultError(name, f)
	}
	v := t.add(Node{Op: op.None, DType: dt, Shape: slices.Clone(shape), Input: len(t.inputs)})
	t.inputs = append(t.inputs, v.id)
	return v, nil
}

// Finish ends recording and returns the graph computing outputs. The trace
// refuses further use. Nodes that no output depends on are kept in the
// graph (package program removes them); outputs may repeat and may be
// inputs.
func (t *Trace) Finish(outputs ...Var) (*Graph, error) {
	const name = "Finish"
	if len(outputs) == 0 {
		return nil, argErr(name, "outputs", "at least one output", "none")
	}
	for i, v := range outputs {
		if err := t.check(name, fmt.Sprintf("outputs[%d]", i), v); err != nil {
			return nil, err
		}
	}
	t.finished = true
	g := &Graph{nodes: t.nodes, inputs: t.inputs, outputs: make([]int, len(outputs))}
	for i, v := range outputs {
		g.outputs[i] = v.id
	}
	t.nodes, t.inputs = nil, nil
	return g, nil
}

// Graph is a finished trace: nodes in recording order (so every node's
// arguments come before it), the input nodes and the output nodes. It is
// immutable.
type Graph struct {
	nodes   []Node
	inputs  []int
	outputs []int
}

// NumNodes returns the number of nodes.
func (g *Graph) NumNodes() int { return len(g.nodes) }

// Node returns node id. Its slices must not be modified.
func (g *Graph) Node(id int) Node { return g.nodes[id] }

// Inputs returns the ids of the input nodes in input order. Do not modify
// the slice.
func (g *Graph) Inputs() []int { return g.inputs }

// Outputs returns the ids of the output nodes in output order. Do not
// modify the slice.
func (g *Graph) Outputs() []int { return g.outputs }

// String lists the nodes, one a line.
func (g *Graph) String() string {
	var b strings.Builder
	for id, n := range g.nodes {
		what := n.Op.String()
		switch {
		case n.IsInput():
			what = "Input"
		case n.IsConst():
			what = "Const"
		}
		fmt.Fprintf(&b, "%%%d = %s %s%v", id, what, n.DType, n.Shape)
		if len(n.Args) > 0 {
			fmt.Fprintf(&b, " args=%v", n.Args)
		}
		if key := n.Attrs.Key(n.Op); key != "" && n.Op != op.None {
			fmt.Fprintf(&b, " %s", key)
		}
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "outputs %v\n", g.outputs)
	return b.String()
}
