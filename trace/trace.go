// Package trace records tensor operations on symbolic inputs into an
// immutable graph that package program compiles.
//
// A [Trace] hands out symbolic [Value]s: an element type and a shape, no
// data. Operations on values (Einsum, Matmul, Add, Sum, Permute, ...) check
// their arguments exactly as the eager operations of package tenferro do,
// record one node each and return the value of the result. [Trace.Finish]
// freezes the nodes that the given outputs depend on into a [Graph].
//
// # Semantics
//
// Every operation has the meaning of its eager twin in package tenferro
// (column-major layout, batch axes last for Matmul, extent-1 broadcasting
// for Add, Sub and Mul). All operands of one operation must share one dtype:
// the trace does not promote (mixed dtypes are an ErrDType error; convert
// the inputs before running instead).
//
// # Errors
//
// Record-time errors are *tenferro.Error values naming the operation and the
// argument; errors.Is matches tenferro.ErrShape (extents, ranks, einsum
// binding), tenferro.ErrDType (mixed dtypes) or tenferro.ErrArgument (a value
// from another trace, the zero Value, a bad axis or permutation, wrong
// arity, subscripts that do not parse, use after Finish). A failed operation
// records nothing; the trace stays usable.
//
// # Concurrency
//
// A Trace is used by one goroutine at a time. A Graph is immutable and safe
// for concurrent readers.
package trace

import (
	"fmt"
	"slices"

	tf "github.com/tenferro-go/tenferro"
)

// Op names the operation of a node.
type Op uint8

// The recorded operations.
const (
	OpInput   Op = iota // a program input
	OpEinsum            // Einstein summation (Subscripts)
	OpMatmul            // batched matrix product, batch axes last
	OpAdd               // a + b with extent-1 broadcasting
	OpSub               // a - b
	OpMul               // a·b (Hadamard)
	OpScale             // Alpha·a
	OpNegate            // -a
	OpConj              // conj(a) (identity on real dtypes)
	OpSum               // sum over Axes
	OpPermute           // axis d of the result is axis Axes[d] of a
	OpReshape           // same column-major element order, new shape
)

var opNames = [...]string{"Input", "Einsum", "Matmul", "Add", "Sub", "Mul", "Scale", "Negate", "Conj", "Sum", "Permute", "Reshape"}

func (o Op) String() string {
	if int(o) < len(opNames) {
		return opNames[o]
	}
	return fmt.Sprintf("Op(%d)", int(o))
}

// IsElementwise reports whether o maps elements one to one (Add, Sub, Mul,
// Scale, Negate, Conj).
func (o Op) IsElementwise() bool {
	return o >= OpAdd && o <= OpConj
}

// Node is one recorded operation. Its slices belong to the graph and must
// not be modified.
type Node struct {
	Op         Op
	DType      tf.DType
	Shape      []int      // extents of the result
	Args       []int      // ids of the operand nodes, in order
	Subscripts string     // OpEinsum
	Alpha      complex128 // OpScale
	Axes       []int      // OpSum: summed axes (increasing); OpPermute: the permutation
	Input      int        // OpInput: position in the program's input list
}

// Trace records operations. Build one with New.
type Trace struct {
	nodes    []Node
	inputs   []int
	finished bool
}

// Value is a symbolic tensor of a trace: a handle to the node that
// produces it. The zero Value belongs to no trace and is rejected by every
// operation.
type Value struct {
	t     *Trace
	id    int
	dt    tf.DType
	shape []int
}

// New returns an empty trace.
func New() *Trace { return &Trace{} }

// DType returns the element type of v.
func (v Value) DType() tf.DType { return v.dt }

// Shape returns the extents of v. The slice belongs to the trace: do not
// modify it.
func (v Value) Shape() []int { return v.shape }

// ID returns the id of the node producing v (its index in the graph).
func (v Value) ID() int { return v.id }

// Rank returns the number of axes of v.
func (v Value) Rank() int { return len(v.shape) }

func argErr(op, arg, expected, actual string) error {
	return tf.Errorf(tf.ErrArgument, op, arg, expected, "%s", actual)
}

// check validates that v is a live value of t.
func (t *Trace) check(op, arg string, v Value) error {
	if t.finished {
		return argErr(op, "trace", "a trace that is not finished", "a finished trace")
	}
	if v.t == nil {
		return argErr(op, arg, "a value of this trace", "the zero Value")
	}
	if v.t != t {
		return argErr(op, arg, "a value of this trace", "a value of another trace")
	}
	return nil
}

// sameDType checks that every value has the dtype of the first.
func sameDType(op string, names []string, vals []Value) error {
	for i := 1; i < len(vals); i++ {
		if vals[i].dt != vals[0].dt {
			return tf.Errorf(tf.ErrDType, op, names[i], vals[0].dt.String()+" like "+names[0], "%s", vals[i].dt)
		}
	}
	return nil
}

func (t *Trace) add(n Node) Value {
	id := len(t.nodes)
	t.nodes = append(t.nodes, n)
	return Value{t: t, id: id, dt: n.DType, shape: n.Shape}
}

// Input declares the next program input: a tensor of dtype dt and the given
// shape. Inputs are numbered in the order they are declared.
func (t *Trace) Input(dt tf.DType, shape ...int) (Value, error) {
	const op = "Input"
	if t.finished {
		return Value{}, argErr(op, "trace", "a trace that is not finished", "a finished trace")
	}
	if !dt.Valid() {
		return Value{}, tf.Errorf(tf.ErrDType, op, "dt", "f32, f64, c64 or c128", "%v", dt)
	}
	if len(shape) > tf.MaxRank {
		return Value{}, tf.Errorf(tf.ErrShape, op, "shape", fmt.Sprintf("rank <= %d", tf.MaxRank), "rank %d", len(shape))
	}
	n := 1
	for d, x := range shape {
		if x < 0 {
			return Value{}, tf.Errorf(tf.ErrShape, op, "shape", "non-negative extents", "%d at axis %d", x, d)
		}
		if x > 0 && n > (1<<50)/x {
			return Value{}, tf.Errorf(tf.ErrShape, op, "shape", "at most 2^50 elements", "%v", shape)
		}
		n *= x
	}
	v := t.add(Node{Op: OpInput, DType: dt, Shape: slices.Clone(shape), Input: len(t.inputs)})
	t.inputs = append(t.inputs, v.id)
	return v, nil
}

// Finish ends recording and returns the graph computing outputs. The trace
// refuses further use. Nodes that no output depends on are kept in the
// graph (package program removes them); outputs may repeat and may be
// inputs.
func (t *Trace) Finish(outputs ...Value) (*Graph, error) {
	const op = "Finish"
	if len(outputs) == 0 {
		return nil, argErr(op, "outputs", "at least one output", "none")
	}
	for i, v := range outputs {
		if err := t.check(op, fmt.Sprintf("outputs[%d]", i), v); err != nil {
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
	s := ""
	for id, n := range g.nodes {
		s += fmt.Sprintf("%%%d = %v %s%v", id, n.Op, n.DType, n.Shape)
		if len(n.Args) > 0 {
			s += fmt.Sprintf(" args=%v", n.Args)
		}
		switch n.Op {
		case OpEinsum:
			s += fmt.Sprintf(" %q", n.Subscripts)
		case OpScale:
			s += fmt.Sprintf(" alpha=%v", n.Alpha)
		case OpSum, OpPermute:
			s += fmt.Sprintf(" axes=%v", n.Axes)
		}
		s += "\n"
	}
	return s + fmt.Sprintf("outputs %v\n", g.outputs)
}
