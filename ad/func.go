package ad

import (
	"slices"
	"sync"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/program"
	"github.com/tenferro-go/tenferro/trace"
)

// Func is a function recorded on a trace: given one variable per input it
// records its computation on tr and returns the result, a real scalar
// loss for ValueAndGradFunc.
type Func func(tr *trace.Trace, xs []trace.Var) (trace.Var, error)

// Compiled is the value and gradient of a Func, compiled on first use for
// every input signature (dtypes and shapes) and prepared once per engine.
// After the first call with a signature and an engine, RunInto allocates
// nothing and costs what the prepared program costs. A Compiled is safe for
// concurrent use; calls on one engine are serialized (an engine is used by
// one goroutine at a time).
type Compiled struct {
	f    Func
	wrt  []int
	ad   Options
	opts []program.Option

	mu      sync.Mutex
	entries []*entry // most recently used first
}

// entry is one signature prepared on one engine.
type entry struct {
	be     backend.Engine
	dts    []tf.DType
	shapes [][]int
	pp     *program.Prepared
}

// ValueAndGradFunc returns the value and gradient of f with respect to its
// inputs at positions wrt (every input when wrt is empty), compiled with
// the given program options.
func ValueAndGradFunc(f Func, wrt []int, opts ...program.Option) *Compiled {
	return Options{}.ValueAndGradFunc(f, wrt, opts...)
}

// ValueAndGradFunc is [ValueAndGradFunc] with the options o.
func (o Options) ValueAndGradFunc(f Func, wrt []int, opts ...program.Option) *Compiled {
	return &Compiled{f: f, wrt: slices.Clone(wrt), ad: o, opts: opts}
}

// Run evaluates the loss and its gradients at inputs on e, into new
// tensors from e's pool: the loss, then one gradient per wrt input.
func (c *Compiled) Run(e tf.Engine, inputs ...tf.Value) ([]tf.Value, error) {
	pp, err := c.prepared(e, inputs)
	if err != nil {
		return nil, err
	}
	defer c.mu.Unlock()
	return pp.Run(inputs...)
}

// RunInto evaluates the loss and its gradients into outputs (the loss,
// then one gradient per wrt input, each of the signature Run would
// return). It allocates nothing once the signature is prepared on e.
func (c *Compiled) RunInto(e tf.Engine, outputs []tf.Value, inputs ...tf.Value) error {
	pp, err := c.prepared(e, inputs)
	if err != nil {
		return err
	}
	defer c.mu.Unlock()
	return pp.RunInto(outputs, inputs...)
}

// prepared returns the prepared program for e and the inputs' signature,
// building it on first use, with c.mu held (the caller unlocks it).
func (c *Compiled) prepared(e tf.Engine, inputs []tf.Value) (*program.Prepared, error) {
	const name = "ValueAndGradFunc"
	if e == nil || e.Backend() == nil {
		return nil, tf.Errorf(tf.ErrArgument, name, "e", "an engine", "%v", e)
	}
	be := e.Backend()
	for i, v := range inputs {
		if !v.Valid() {
			return nil, tf.Errorf(tf.ErrArgument, name, "inputs", "valid tensors", "inputs[%d] is not", i)
		}
	}
	c.mu.Lock()
	for k, en := range c.entries {
		if en.be == be && en.matches(inputs) {
			if k > 0 {
				copy(c.entries[1:k+1], c.entries[:k])
				c.entries[0] = en
			}
			return en.pp, nil
		}
	}
	en, err := c.build(e, inputs)
	if err != nil {
		c.mu.Unlock()
		return nil, err
	}
	c.entries = slices.Insert(c.entries, 0, en)
	return en.pp, nil
}

func (en *entry) matches(inputs []tf.Value) bool {
	if len(inputs) != len(en.dts) {
		return false
	}
	for i, v := range inputs {
		if v.DType() != en.dts[i] || !slices.Equal(v.Shape(), en.shapes[i]) {
			return false
		}
	}
	return true
}

// build traces f on the inputs' signature, differentiates, compiles and
// prepares it on e.
func (c *Compiled) build(e tf.Engine, inputs []tf.Value) (*entry, error) {
	en := &entry{be: e.Backend()}
	tr := trace.New()
	xs := make([]trace.Var, len(inputs))
	for i, v := range inputs {
		en.dts = append(en.dts, v.DType())
		en.shapes = append(en.shapes, slices.Clone(v.Shape()))
		x, err := tr.Input(v.DType(), v.Shape()...)
		if err != nil {
			return nil, err
		}
		xs[i] = x
	}
	loss, err := c.f(tr, xs)
	if err != nil {
		return nil, err
	}
	g, err := tr.Finish(loss)
	if err != nil {
		return nil, err
	}
	wrt := c.wrt
	if len(wrt) == 0 {
		for i, v := range inputs {
			if differentiable(v.DType()) {
				wrt = append(wrt, i)
			}
		}
	}
	vg, err := c.ad.ValueAndGrad(g, wrt...)
	if err != nil {
		return nil, err
	}
	p, err := program.Compile(vg, c.opts...)
	if err != nil {
		return nil, err
	}
	if en.pp, err = program.Prepare(p, e); err != nil {
		return nil, err
	}
	return en, nil
}
