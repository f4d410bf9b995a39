package program

import (
	"fmt"
	"strconv"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/internal/op"
)

// Prepared is a program bound to one engine: slot storage, a register file
// per dtype holding a view per value, and a flat list of steps, each bound
// to the engine's kernels. It is used by one goroutine at a time (the
// engine's rule); prepare a program once per engine for concurrency.
type Prepared struct {
	p         *Program
	e         tf.Engine
	be        backend.Engine
	steps     []step
	names     []string       // per step, for marker
	marker    backend.Marker // the engine's, when it has one
	inputs    []binder       // per input
	outputs   []binder       // per output
	slotBytes int64
}

// step is one command bound to an engine.
type step interface {
	run() error
}

// binder sets (and clears) the register of one signature value from a
// caller's tensor.
type binder interface {
	bind(v tf.Value)
	unbind()
	// alloc returns a new tensor of the value's dtype and shape from the
	// engine's pool.
	alloc(e tf.Engine) (tf.Value, error)
}

// Prepare binds p to engine e: it allocates p's slots (owned by the
// Prepared, not by e's pool), builds the register files and binds every
// command to the engine's kernels. It fails with tenferro.ErrUnsupported
// when the engine lacks a capability the program needs.
func Prepare(p *Program, e tf.Engine) (*Prepared, error) {
	const name = "Prepare"
	if p == nil {
		return nil, tf.Errorf(tf.ErrArgument, name, "p", "a program", "nil")
	}
	if e == nil {
		return nil, tf.Errorf(tf.ErrArgument, name, "e", "an engine", "nil")
	}
	be := e.Backend()
	if be == nil {
		return nil, tf.Errorf(tf.ErrArgument, name, "e", "an engine", "%T without a backend", e)
	}
	// Claiming checks that the engine is usable (not nil, zero or
	// closed); the kernels bound below belong to it.
	if err := be.Begin(name); err != nil {
		return nil, err
	}
	defer be.End()
	if budget := be.MemoryBudget(); budget > 0 && p.PlannedPeakBytes() > budget {
		return nil, tf.Errorf(tf.ErrMemory, name, "p", "at most "+strconv.FormatInt(budget, 10)+" bytes of slots and intermediates (the engine's memory budget)", "%d bytes", p.PlannedPeakBytes())
	}
	pp := &Prepared{p: p, e: e, be: be}
	b := &preparer{p: p, be: be}
	storage := make([]any, len(p.slots))
	for i, s := range p.slots {
		storage[i] = b.dtype(s.dt).slot(s.elems)
		pp.slotBytes += int64(s.elems * s.dt.Size())
	}
	for id := range p.vals {
		v := &p.vals[id]
		if v.inner {
			continue // a block buffer of its tiled command's step
		}
		switch v.kind {
		case valSlot:
			b.dtype(v.dt).view(b, id, storage[v.slot], compactStrides(v.shape))
		case valView:
			b.dtype(v.dt).view(b, id, storage[p.vals[v.root].slot], v.strides)
		case valConst:
			b.dtype(v.dt).constant(b, id, p.consts[v.index])
		}
	}
	for i, c := range p.cmds {
		s, err := b.dtype(stepDType(p, &c)).step(b, &c)
		if err != nil {
			return nil, tf.WrapError(name, "command "+strconv.Itoa(i), err)
		}
		pp.steps = append(pp.steps, s)
		pp.names = append(pp.names, commandName(&c))
	}
	pp.marker, _ = be.(backend.Marker)
	for _, id := range p.inputs {
		pp.inputs = append(pp.inputs, b.dtype(p.vals[id].dt).binder(b, id))
	}
	for _, id := range p.outputs {
		pp.outputs = append(pp.outputs, b.dtype(p.vals[id].dt).binder(b, id))
	}
	return pp, nil
}

// commandName names command c in profiles: its catalog operation
// ("Exp", "Sum", "SVDU"), else how it runs ("einsum", "matmul", "fused").
func commandName(c *command) string {
	switch c.op {
	case cmdMatmul, cmdEinsum, cmdFused, cmdCopy, cmdTiled, cmdConvert, cmdComplex, cmdWhere:
	default:
		if c.kind.Valid() {
			return c.kind.String()
		}
	}
	return opcodeNames[c.op]
}

// stepDType is the dtype whose builder makes command c's step: its
// inputs' for the commands whose result has another dtype (predicates,
// comparisons, complex parts, Complex, Where's values), else its result's.
func stepDType(p *Program, c *command) tf.DType {
	switch c.op {
	case cmdPredicate, cmdCompare, cmdReal, cmdReduceReal, cmdArg, cmdComplex, cmdLinalg, cmdConvert:
		return p.vals[c.args[0]].dt
	case cmdWhere:
		return p.vals[c.args[1]].dt
	}
	return p.vals[c.dst].dt
}

// preparer holds the register files of one Prepare, made per dtype on
// first use.
type preparer struct {
	p     *Program
	be    backend.Engine
	files [op.NumDTypes]any // *registers[T]
}

// dtype returns the builder of dt.
func (b *preparer) dtype(dt tf.DType) builder { return builders[dt] }

// NumCommands returns the number of commands one run replays.
func (pp *Prepared) NumCommands() int { return len(pp.steps) }

// SlotBytes returns the bytes of slot storage the Prepared owns.
func (pp *Prepared) SlotBytes() int64 { return pp.slotBytes }

// Program returns the program pp runs.
func (pp *Prepared) Program() *Program { return pp.p }

// Run checks inputs against the program's signature (count, dtype, shape,
// live tensors; strided views are fine and are read in place), takes the
// outputs from the engine's pool, then claims the engine and replays the
// commands. The outputs are new compact tensors (Release them to
// recycle their storage).
func (pp *Prepared) Run(inputs ...tf.Value) ([]tf.Value, error) {
	const name = "Run"
	if err := pp.checkInputs(name, inputs); err != nil {
		return nil, err
	}
	outs := make([]tf.Value, len(pp.outputs))
	for j, b := range pp.outputs {
		v, err := b.alloc(pp.e)
		if err != nil {
			releaseAll(outs[:j])
			return nil, err
		}
		outs[j] = v
	}
	if err := pp.exec(name, inputs, outs); err != nil {
		releaseAll(outs)
		return nil, err
	}
	return outs, nil
}

func releaseAll(vs []tf.Value) {
	for _, v := range vs {
		v.Release()
	}
}

// RunInto is Run writing into the caller's outputs: outputs[j] must have
// output j's dtype and shape and distinct elements (any strides), and must
// not overlap any input or another output. Everything is validated before
// anything is written: on error the outputs are untouched. With a warm
// engine RunInto allocates nothing.
func (pp *Prepared) RunInto(outputs []tf.Value, inputs ...tf.Value) error {
	const name = "RunInto"
	if err := pp.checkInputs(name, inputs); err != nil {
		return err
	}
	if err := pp.checkOutputs(name, outputs, inputs); err != nil {
		return err
	}
	return pp.exec(name, inputs, outputs)
}

// exec claims the engine, binds the signature's registers and replays the
// steps.
func (pp *Prepared) exec(name string, inputs, outputs []tf.Value) error {
	if err := pp.be.Begin(name); err != nil {
		return err
	}
	defer pp.be.End()
	for i, b := range pp.inputs {
		b.bind(inputs[i])
	}
	for j, b := range pp.outputs {
		b.bind(outputs[j])
	}
	var err error
	marking := pp.marker != nil && pp.marker.Marking()
	for i, s := range pp.steps {
		if marking {
			pp.marker.Mark(pp.names[i])
		}
		if err = s.run(); err != nil {
			err = tf.WrapError(name, "command "+strconv.Itoa(i), err)
			break
		}
	}
	// Drop the caller's tensors so the Prepared does not keep them alive.
	for _, b := range pp.inputs {
		b.unbind()
	}
	for _, b := range pp.outputs {
		b.unbind()
	}
	return err
}

func (pp *Prepared) checkInputs(name string, inputs []tf.Value) error {
	p := pp.p
	if len(inputs) != len(p.inputs) {
		return tf.Errorf(tf.ErrArgument, name, "inputs", strconv.Itoa(len(p.inputs))+" inputs", "%d", len(inputs))
	}
	for i, in := range inputs {
		if err := checkSig(name, "inputs", i, &p.vals[p.inputs[i]], in); err != nil {
			return err
		}
	}
	return nil
}

// checkSig compares a caller's tensor with a signature entry.
func checkSig(name, what string, i int, v *value, x tf.Value) error {
	if x.DType() != v.dt {
		return tf.Errorf(tf.ErrDType, name, what+"["+strconv.Itoa(i)+"]", fmt.Sprintf("%v %v", v.dt, v.shape), "%v %v", x.DType(), x.Shape())
	}
	if !equalInts(x.Shape(), v.shape) {
		return tf.Errorf(tf.ErrShape, name, what+"["+strconv.Itoa(i)+"]", fmt.Sprintf("%v %v", v.dt, v.shape), "%v %v", x.DType(), x.Shape())
	}
	if !x.Valid() {
		return tf.Errorf(tf.ErrReleased, name, what+"["+strconv.Itoa(i)+"]", "a live tensor", "a released tensor")
	}
	return nil
}

// checkOutputs applies the destination rule of composite operations: every
// output has distinct elements and overlaps no input and no other output.
func (pp *Prepared) checkOutputs(name string, outputs, inputs []tf.Value) error {
	p := pp.p
	if len(outputs) != len(p.outputs) {
		return tf.Errorf(tf.ErrArgument, name, "outputs", strconv.Itoa(len(p.outputs))+" outputs", "%d", len(outputs))
	}
	for j, o := range outputs {
		arg := func() string { return "outputs[" + strconv.Itoa(j) + "]" } // only on failure
		if err := checkSig(name, "outputs", j, &p.vals[p.outputs[j]], o); err != nil {
			return err
		}
		if !op.Distinct(o.Shape(), o.Strides()) {
			return tf.Errorf(tf.ErrAlias, name, arg(), "a view with distinct elements", "a view whose strides repeat elements")
		}
		for i, in := range inputs {
			if o.Overlaps(in) {
				return tf.Errorf(tf.ErrAlias, name, arg(), "storage disjoint from every input", "a view overlapping inputs[%d]", i)
			}
		}
		for k := range j {
			if o.Overlaps(outputs[k]) {
				return tf.Errorf(tf.ErrAlias, name, arg(), "storage disjoint from the other outputs", "a view overlapping outputs[%d]", k)
			}
		}
	}
	return nil
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
