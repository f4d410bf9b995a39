package ad

import (
	"errors"
	"fmt"
	"slices"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/internal/op"
	"github.com/tenferro-go/tenferro/trace"
)

// JVP returns the forward-mode graph of g with respect to the inputs at
// positions wrt (indices into g's input list).
//
// The result takes g's inputs followed by one tangent per wrt input (of
// that input's dtype and shape, in wrt order) and returns g's outputs
// followed by one tangent per differentiable output (each output of a
// floating or complex dtype, in output order): J·v, the directional
// derivative along the tangents. Outputs that do not depend on the wrt
// inputs get a zero tangent; integer and boolean outputs get none.
func JVP(g *trace.Graph, wrt ...int) (*trace.Graph, error) { return Options{}.JVP(g, wrt...) }

// JVP is [JVP] with the options o.
func (o Options) JVP(g *trace.Graph, wrt ...int) (*trace.Graph, error) {
	b, err := o.linearize("JVP", g, wrt, true)
	if err != nil {
		return nil, err
	}
	outs := b.primalOutputs()
	for _, id := range g.Outputs() {
		nd := g.Node(id)
		if !differentiable(nd.DType) {
			continue
		}
		if l := b.tan[id]; l >= 0 {
			outs = append(outs, b.tape[l].val)
		} else {
			outs = append(outs, b.zeros(nd.DType, nd.Shape))
		}
	}
	return b.finish(outs)
}

// VJP returns the reverse-mode graph of g with respect to the inputs at
// positions wrt.
//
// The result takes g's inputs followed by one cotangent per
// differentiable output (of that output's dtype and shape, in output
// order) and returns g's outputs followed by one cotangent per wrt input:
// J*·ȳ, the adjoint of the derivative for the real inner product
// <a, b> = Re Σ conj(a)·b (see the package documentation for what this
// means for complex inputs).
func VJP(g *trace.Graph, wrt ...int) (*trace.Graph, error) { return Options{}.VJP(g, wrt...) }

// VJP is [VJP] with the options o.
func (o Options) VJP(g *trace.Graph, wrt ...int) (*trace.Graph, error) {
	b, err := o.linearize("VJP", g, wrt, false)
	if err != nil {
		return nil, err
	}
	seeds := map[int]trace.Var{}
	for _, id := range g.Outputs() {
		nd := g.Node(id)
		if !differentiable(nd.DType) {
			continue
		}
		ct := b.input(nd.DType, nd.Shape)
		if b.err != nil {
			return nil, b.err
		}
		if l := b.tan[id]; l >= 0 {
			b.seed(seeds, l, ct)
		}
	}
	outs := append(b.primalOutputs(), b.transpose(seeds)...)
	return b.finish(outs)
}

// Grad returns the graph of the gradient of g's only output, a real scalar
// (float32 or float64, one element), with respect to the inputs at
// positions wrt: it takes g's inputs and returns one gradient per wrt
// input, of that input's dtype and shape. For a complex input z the
// gradient is ∂L/∂Re z + i·∂L/∂Im z, so that z -= lr·grad decreases L.
func Grad(g *trace.Graph, wrt ...int) (*trace.Graph, error) { return Options{}.Grad(g, wrt...) }

// Grad is [Grad] with the options o.
func (o Options) Grad(g *trace.Graph, wrt ...int) (*trace.Graph, error) {
	return o.grad("Grad", g, wrt, false)
}

// ValueAndGrad is Grad with the value of the loss as the first output,
// followed by the gradients.
func ValueAndGrad(g *trace.Graph, wrt ...int) (*trace.Graph, error) {
	return Options{}.ValueAndGrad(g, wrt...)
}

// ValueAndGrad is [ValueAndGrad] with the options o.
func (o Options) ValueAndGrad(g *trace.Graph, wrt ...int) (*trace.Graph, error) {
	return o.grad("ValueAndGrad", g, wrt, true)
}

// Options tune the transforms; the zero value gives the defaults.
type Options struct {
	// Broadening is the ε of the Lorentzian broadening 1/d → d/(d² + ε²)
	// that the derivatives of SVD and Eigh apply to the differences of
	// eigenvalues, to the differences and the sums of singular values
	// (separately, rather than to s_j² - s_i²) and to 1/s, so that
	// degenerate and zero values give finite derivatives (the method of
	// differentiable tensor-network programming). It is absolute, in the
	// units of the values; 0 means 1e-12.
	Broadening float64
	// GaugeTolerance is the relative tolerance of the check that a
	// reverse-mode derivative makes of every complex SVD and Eigh whose
	// vectors the loss reads: the derivative of the loss along the phase
	// of each singular pair (U and V rotated together) or eigenvector must
	// vanish, |∂L/∂φ_k| <= tol·(|Ū_k| + |V̄_k|), else the run fails with
	// tenferro.ErrGauge, since such a loss has no derivative. 0 means
	// 1e-6 for complex128 and 1e-3 for complex64; a negative value turns
	// the check off.
	GaugeTolerance float64
}

func (o Options) eps() float64 {
	if o.Broadening > 0 {
		return o.Broadening
	}
	return 1e-12
}

func (o Options) grad(name string, g *trace.Graph, wrt []int, value bool) (*trace.Graph, error) {
	if g == nil {
		return nil, tf.Errorf(tf.ErrArgument, name, "g", "a graph", "nil")
	}
	if outs := g.Outputs(); len(outs) != 1 {
		return nil, tf.Errorf(tf.ErrArgument, name, "g", "a graph with one output (the loss)", "%d outputs", len(outs))
	}
	nd := g.Node(g.Outputs()[0])
	if nd.DType != tf.Float32 && nd.DType != tf.Float64 {
		return nil, tf.Errorf(tf.ErrDType, name, "output", "a real loss (f32 or f64)", "%v", nd.DType)
	}
	if n := op.Count(nd.Shape); n != 1 {
		return nil, tf.Errorf(tf.ErrShape, name, "output", "a scalar loss (one element)", "shape %v", nd.Shape)
	}
	b, err := o.linearize(name, g, wrt, false)
	if err != nil {
		return nil, err
	}
	seeds := map[int]trace.Var{}
	if l := b.tan[g.Outputs()[0]]; l >= 0 {
		b.seed(seeds, l, b.full(nd.DType, 1, nd.Shape...))
	}
	var outs []trace.Var
	if value {
		outs = b.primalOutputs()
	}
	return b.finish(append(outs, b.transpose(seeds)...))
}

// differentiable reports whether values of dt have derivatives.
func differentiable(dt tf.DType) bool {
	return dt == tf.Float32 || dt == tf.Float64 || dt == tf.Complex64 || dt == tf.Complex128
}

// builder rewrites one graph into a new trace: the primal nodes replayed,
// the linear (tangent) computation on a tape.
type builder struct {
	name   string
	t      *trace.Trace
	g      *trace.Graph
	primal []trace.Var // per node of g: its value in t
	tan    []int       // per node of g: the tape id of its tangent, -1 for zero
	wrt    []int       // tape ids of the wrt inputs' tangents
	tape   []linNode
	eval   bool          // evaluate every linear node as it is emitted (JVP)
	eps    float64       // the broadening of the spectral derivatives
	gtol   float64       // the relative tolerance of the gauge check; < 0: none
	gauges []*gaugeWatch // the complex decompositions whose vectors are differentiated
	// spreadOf maps a value made by broadcastTo to the value it repeats
	// (of the same rank, extent 1 along the repeated axes), which an
	// einsum reads without the copy.
	spreadOf map[int]trace.Var
	memo     map[string]int // linear terms shared by the rules of one decomposition's factors (shared)
	err      error          // the first error; every later step is skipped
	node     string
}

// linearize replays g into a new trace and records its linearization
// with respect to the inputs wrt.
func (o Options) linearize(name string, g *trace.Graph, wrt []int, eval bool) (*builder, error) {
	if g == nil {
		return nil, tf.Errorf(tf.ErrArgument, name, "g", "a graph", "nil")
	}
	if err := checkWrt(name, g, wrt); err != nil {
		return nil, err
	}
	b := &builder{name: name, t: trace.New(), g: g, eval: eval, eps: o.eps(), gtol: o.GaugeTolerance,
		primal: make([]trace.Var, g.NumNodes()), tan: make([]int, g.NumNodes())}
	for i := range b.tan {
		b.tan[i] = -1
	}
	for _, id := range g.Inputs() {
		nd := g.Node(id)
		b.primal[id] = b.input(nd.DType, nd.Shape)
	}
	for _, w := range wrt {
		id := g.Inputs()[w]
		nd := g.Node(id)
		l := b.emitInput(nd.DType, nd.Shape)
		b.tan[id] = l
		b.wrt = append(b.wrt, l)
	}
	live := liveNodes(g)
	for id := range g.NumNodes() {
		nd := g.Node(id)
		if nd.IsInput() || !live[id] {
			continue
		}
		if nd.IsConst() {
			b.primal[id] = b.p(b.t.Const(nd.Value))
			continue
		}
		xs := make([]trace.Var, len(nd.Args))
		ts := make([]int, len(nd.Args))
		any := false
		for i, a := range nd.Args {
			xs[i], ts[i] = b.primal[a], b.tan[a]
			any = any || ts[i] >= 0
		}
		if any && nd.Op == op.Einsum && len(xs) > 2 {
			// Differentiate the pairwise contractions of its path, so
			// that the derivative costs what the forward pass does.
			b.node = fmt.Sprintf("node %d (%v)", id, nd.Op)
			b.primal[id], b.tan[id] = b.pairwise(&nd, xs, ts)
			if b.err != nil {
				return nil, b.err
			}
			continue
		}
		y := b.p(b.t.Apply(nd.Op, nd.Attrs, xs...))
		b.primal[id] = y
		if b.err != nil {
			return nil, b.err
		}
		if !any || !differentiable(nd.DType) {
			continue
		}
		rule := jvpRules[nd.Op]
		if rule == nil {
			return nil, tf.Errorf(tf.ErrUnsupported, name, fmt.Sprintf("node %d", id),
				"an operation with a derivative rule", "%v", nd.Op)
		}
		b.node = fmt.Sprintf("node %d (%v)", id, nd.Op)
		b.tan[id] = rule(b, &nd, xs, y, ts)
		b.watchGauge(id, &nd, y)
		if b.err != nil {
			return nil, b.err
		}
	}
	return b, nil
}

func checkWrt(name string, g *trace.Graph, wrt []int) error {
	n := len(g.Inputs())
	for i, w := range wrt {
		arg := fmt.Sprintf("wrt[%d]", i)
		if w < 0 || w >= n {
			return tf.Errorf(tf.ErrArgument, name, arg, fmt.Sprintf("an input position in [0, %d)", n), "%d", w)
		}
		if slices.Index(wrt, w) < i {
			return tf.Errorf(tf.ErrArgument, name, arg, "distinct inputs", "input %d twice", w)
		}
		if dt := g.Node(g.Inputs()[w]).DType; !differentiable(dt) {
			return tf.Errorf(tf.ErrDType, name, arg, "a floating or complex input", "input %d is %v", w, dt)
		}
	}
	return nil
}

func (b *builder) primalOutputs() []trace.Var {
	outs := make([]trace.Var, 0, len(b.g.Outputs()))
	for _, id := range b.g.Outputs() {
		outs = append(outs, b.primal[id])
	}
	return outs
}

func (b *builder) finish(outs []trace.Var) (*trace.Graph, error) {
	if b.err != nil {
		return nil, b.err
	}
	g, err := b.t.Finish(outs...)
	if err != nil {
		return nil, b.fail(err)
	}
	return g, nil
}

// fail records the first error, wrapped with the transform and the node
// being differentiated.
func (b *builder) fail(err error) error {
	if b.err == nil && err != nil {
		var e *tf.Error
		if errors.As(err, &e) && b.node != "" {
			err = fmt.Errorf("%s: %s: %w", b.name, b.node, err)
		}
		b.err = err
	}
	return b.err
}

// p passes v through, recording err.
func (b *builder) p(v trace.Var, err error) trace.Var {
	if err != nil {
		b.fail(err)
	}
	return v
}

func (b *builder) input(dt tf.DType, shape []int) trace.Var {
	if b.err != nil {
		return trace.Var{}
	}
	return b.p(b.t.Input(dt, shape...))
}

// liveNodes marks the nodes some output of g depends on.
func liveNodes(g *trace.Graph) []bool {
	live := make([]bool, g.NumNodes())
	for _, o := range g.Outputs() {
		live[o] = true
	}
	for id := g.NumNodes() - 1; id >= 0; id-- {
		if live[id] {
			for _, a := range g.Node(id).Args {
				live[a] = true
			}
		}
	}
	return live
}
