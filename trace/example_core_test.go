package trace_test

import (
	"errors"
	"fmt"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/trace"
)

func ExampleNew() {
	tr := trace.New() // one trace per graph, used by one goroutine
	x, _ := tr.Input(tf.Float64, 3)
	y, _ := tr.Exp(x)
	g, _ := tr.Finish(y)
	fmt.Println(g.NumNodes())
	// Output: 2
}

// Inputs are numbered in declaration order; a bad extent is refused.
func ExampleTrace_Input() {
	tr := trace.New()
	a, _ := tr.Input(tf.Float32, 2, 3)
	s, _ := tr.Input(tf.Complex128) // a 0-d input
	_, err := tr.Input(tf.Float64, -1)
	g, _ := tr.Finish(a, s)
	fmt.Println(a.DType(), a.Shape(), s.Shape(), g.Inputs())
	fmt.Println(errors.Is(err, tf.ErrShape))
	// Output:
	// f32 [2 3] [] [0 1]
	// true
}

// Finish freezes the graph; the trace refuses further use.
func ExampleTrace_Finish() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 2)
	y, _ := tr.Sqrt(x)
	g, _ := tr.Finish(y, x) // outputs may be inputs
	_, err := tr.Exp(x)
	fmt.Println(g.Outputs(), errors.Is(err, tf.ErrArgument))
	// Output: [1 0] true
}

// Const copies a tensor into the graph: changing it afterwards changes
// nothing.
func ExampleTrace_Const() {
	tr := trace.New()
	w, _ := tf.FromSlice([]float64{1, 2, 3}, 3)
	c, _ := tr.Const(tf.ValueOf(w))
	_ = w.Set(100, 0)
	g, _ := tr.Finish(c)
	n := g.Node(c.ID())
	v, _ := tf.As[float64](n.Value)
	first, _ := v.At(0)
	fmt.Println(n.IsConst(), c.Shape(), first)
	// Output: true [3] 1
}

// Full makes a constant from a scalar: with no extents, a 0-d constant
// that broadcasts (the 2 of x - 2).
func ExampleTrace_Full() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float32, 4)
	two, _ := tr.Full(tf.Float32, 2)
	y, _ := tr.Sub(x, two)
	_, err := tr.Full(tf.Float64, 1i) // no imaginary part for a real dtype
	fmt.Println(two.Shape(), y.Shape(), errors.Is(err, tf.ErrArgument))
	// Output: [] [4] true
}

func ExampleTrace_Copy() {
	tr := trace.New()
	x, _ := tr.Input(tf.Bool, 2, 3)
	xt, _ := tr.Permute(x, 1, 0)
	c, _ := tr.Copy(xt) // compact in a compiled program
	fmt.Println(c.DType(), c.Shape())
	// Output: bool [3 2]
}

// Convert changes the dtype as NumPy's astype does; the trace never
// converts implicitly.
func ExampleTrace_Convert() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float32, 3)
	y, _ := tr.Input(tf.Float64, 3)
	_, err := tr.Add(x, y)
	x64, _ := tr.Convert(x, tf.Float64)
	s, _ := tr.Add(x64, y)
	fmt.Println(errors.Is(err, tf.ErrDType), s.DType())
	// Output: true f64
}

// The subscripts are bound to the shapes when recorded; the path is
// planned when the graph is compiled.
func ExampleTrace_Einsum() {
	tr := trace.New()
	a, _ := tr.Input(tf.Complex64, 2, 3)
	b, _ := tr.Input(tf.Complex64, 3, 4, 5)
	c, _ := tr.Einsum("ij,jkb->ikb", a, b)
	_, err := tr.Einsum("ij,jk->ik", a, a)
	fmt.Println(c.DType(), c.Shape())
	fmt.Println(err)
	// Output:
	// c64 [2 4 5]
	// tenferro: Einsum: operands[1]: shape mismatch: einsum: bind: size of label 'j' for operand 1 (2) does not match operand 0 (3)
}

// Batch axes come last; a batch extent of 1 broadcasts.
func ExampleTrace_Matmul() {
	tr := trace.New()
	a, _ := tr.Input(tf.Float64, 2, 3, 5)
	b, _ := tr.Input(tf.Float64, 3, 4, 1)
	c, _ := tr.Matmul(a, b)
	fmt.Println(c.Shape())
	// Output: [2 4 5]
}

func ExampleTrace_Permute() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 2, 3, 4)
	p, _ := tr.Permute(x, 2, 0, 1)
	q, _ := tr.Permute(x, -1, 1, 0)
	fmt.Println(p.Shape(), q.Shape())
	// Output: [4 2 3] [4 3 2]
}

// One extent may be -1, inferred from the element count.
func ExampleTrace_Reshape() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 2, 3, 4)
	r, _ := tr.Reshape(x, 6, -1)
	_, err := tr.Reshape(x, 5, -1)
	fmt.Println(r.Shape(), errors.Is(err, tf.ErrShape))
	// Output: [6 4] true
}

// The mask is bool; the three operands broadcast.
func ExampleTrace_Where() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 2, 3)
	zero, _ := tr.Full(tf.Float64, 0)
	pos, _ := tr.Greater(x, zero)
	y, _ := tr.Where(pos, x, zero)
	_, err := tr.Where(x, x, zero)
	fmt.Println(y.Shape(), errors.Is(err, tf.ErrDType))
	// Output: [2 3] true
}

// Apply records a node from its catalog kind and attributes: the way a
// graph rewriter copies a graph into a new trace, node by node.
func ExampleTrace_Apply() {
	src := trace.New()
	x, _ := src.Input(tf.Float64, 3, 2)
	s, _ := src.Sum(x, 0)
	y, _ := src.Scale(2, s)
	g, _ := src.Finish(y)

	dst := trace.New()
	vars := make([]trace.Var, g.NumNodes())
	for id := range g.NumNodes() {
		n := g.Node(id)
		switch {
		case n.IsInput():
			vars[id], _ = dst.Input(n.DType, n.Shape...)
		case n.IsConst():
			vars[id], _ = dst.Const(n.Value)
		default:
			args := make([]trace.Var, len(n.Args))
			for i, a := range n.Args {
				args[i] = vars[a]
			}
			vars[id], _ = dst.Apply(n.Op, n.Attrs, args...)
		}
	}
	copied, _ := dst.Finish(vars[g.Outputs()[0]])
	fmt.Print(copied)
	// Output:
	// %0 = Input f64[3 2]
	// %1 = Sum f64[2] args=[0] [0]
	// %2 = Scale f64[2] args=[1] (2+0i)
	// outputs [2]
}

func ExampleGraph_Inputs() {
	tr := trace.New()
	a, _ := tr.Input(tf.Float64, 2)
	b, _ := tr.Input(tf.Float64, 2)
	c, _ := tr.Mul(a, b)
	d, _ := tr.Input(tf.Float64, 2) // declared after an operation
	e, _ := tr.Add(c, d)
	g, _ := tr.Finish(e)
	fmt.Println(g.Inputs())
	// Output: [0 1 3]
}

func ExampleGraph_Outputs() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 2)
	y, _ := tr.Exp(x)
	z, _ := tr.Log(x)
	g, _ := tr.Finish(z, y, z) // outputs may repeat
	fmt.Println(g.Outputs())
	// Output: [2 1 2]
}

// Nodes come in recording order: every node's arguments come before it.
func ExampleGraph_Node() {
	tr := trace.New()
	a, _ := tr.Input(tf.Float64, 2, 3)
	b, _ := tr.Input(tf.Float64, 3, 4)
	c, _ := tr.Matmul(a, b)
	g, _ := tr.Finish(c)
	n := g.Node(c.ID())
	fmt.Println(n.Op, n.DType, n.Shape, n.Args)
	// Output: Matmul f64 [2 4] [0 1]
}

// Unused nodes stay in the graph; package program removes them.
func ExampleGraph_NumNodes() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 2)
	_, _ = tr.Sin(x) // dead
	y, _ := tr.Cos(x)
	g, _ := tr.Finish(y)
	fmt.Println(g.NumNodes())
	// Output: 3
}

func ExampleGraph_String() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 3, 2)
	two, _ := tr.Full(tf.Float64, 2)
	y, _ := tr.Mul(x, two)
	s, _ := tr.Sum(y, 0)
	g, _ := tr.Finish(s)
	fmt.Print(g)
	// Output:
	// %0 = Input f64[3 2]
	// %1 = Const f64[]
	// %2 = Mul f64[3 2] args=[0 1]
	// %3 = Sum f64[2] args=[2] [0]
	// outputs [3]
}

func ExampleNode_IsInput() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 2)
	y, _ := tr.Exp(x)
	g, _ := tr.Finish(y)
	nx, ny := g.Node(x.ID()), g.Node(y.ID())
	fmt.Println(nx.IsInput(), nx.Input, ny.IsInput())
	// Output: true 0 false
}

// A constant is neither an input nor an operation: its Value holds the
// elements.
func ExampleNode_IsConst() {
	tr := trace.New()
	c, _ := tr.Full(tf.Int64, 7, 2)
	g, _ := tr.Finish(c)
	n := g.Node(c.ID())
	fmt.Println(n.IsConst(), n.IsInput(), n.Input, n.Value.Shape())
	// Output: true false -1 [2]
}

func ExampleVar_DType() {
	tr := trace.New()
	z, _ := tr.Input(tf.Complex128, 2)
	a, _ := tr.Abs(z) // real
	m, _ := tr.IsNaN(z)
	fmt.Println(z.DType(), a.DType(), m.DType())
	// Output: c128 f64 bool
}

func ExampleVar_Shape() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 2, 3)
	s, _ := tr.Sum(x)
	fmt.Println(x.Shape(), s.Shape())
	// Output: [2 3] []
}

func ExampleVar_Rank() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 2, 3, 4)
	m, _ := tr.Max(x, 0, 2)
	fmt.Println(x.Rank(), m.Rank())
	// Output: 3 1
}

// ID is the variable's node in the finished graph.
func ExampleVar_ID() {
	tr := trace.New()
	x, _ := tr.Input(tf.Float64, 2)
	y, _ := tr.Exp(x)
	g, _ := tr.Finish(y)
	fmt.Println(x.ID(), y.ID(), g.Outputs()[0] == y.ID())
	// Output: 0 1 true
}
