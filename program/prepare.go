package program

import (
	"fmt"
	"strconv"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/einsum"
)

// pcmd is a command resolved for one engine: operands are indices into the
// register file, which holds a *Tensor[T] (boxed) per value.
type pcmd struct {
	op     opcode
	binary tf.BinaryOp
	unary  tf.UnaryOp
	dst    int32
	a, b   int32
	mask   uint64
	alpha  complex128
	plan   *einsum.Plan
	kernel tf.FusedKernel
	ids    []int // einsum and fused operands (register indices)
	ops    []any // room for the operand list, refreshed per run
}

// Prepared is a program bound to one engine: slot storage, a tensor header
// per value and a flat command list. It is used by one goroutine at a time
// (the engine's rule); prepare a program once per engine for concurrency.
type Prepared struct {
	p         *Program
	e         tf.Engine
	ew        tf.Elementwise
	con       tf.Contractor
	regs      []any // per value: *Tensor[T] boxed; inputs and outputs bound per run
	cmds      []pcmd
	slotBytes int64
}

// Prepare binds p to engine e: it allocates p's slots (owned by the
// Prepared, not by e's pool), builds the tensor header of every
// intermediate and view, and resolves every command to the engine's
// methods. Engines must implement tenferro.Elementwise when the program
// has elementwise commands, tenferro.Contractor for einsums and
// tenferro.Fuser for fused commands.
func Prepare(p *Program, e tf.Engine) (*Prepared, error) {
	const op = "Prepare"
	if p == nil {
		return nil, tf.Errorf(tf.ErrArgument, op, "p", "a program", "nil")
	}
	if e == nil {
		return nil, tf.Errorf(tf.ErrArgument, op, "e", "an engine", "nil")
	}
	pp := &Prepared{p: p, e: e, regs: make([]any, len(p.vals)), cmds: make([]pcmd, len(p.cmds))}
	pp.ew, _ = e.(tf.Elementwise)
	pp.con, _ = e.(tf.Contractor)
	fuser, _ := e.(tf.Fuser)
	storage := make([]any, len(p.slots))
	for i, s := range p.slots {
		storage[i] = newStorage(s.dt, s.elems)
		pp.slotBytes += int64(s.elems * s.dt.Size())
	}
	for id := range p.vals {
		v := &p.vals[id]
		switch v.kind {
		case valSlot:
			pp.regs[id] = wrapStorage(storage[v.slot], v.shape)
		case valView:
			t, err := viewOf(pp.regs[v.parent], v.perm, v.shape)
			if err != nil {
				return nil, tf.WrapError(op, "view", err)
			}
			pp.regs[id] = t
		}
	}
	need := func(ok bool, what string) error {
		if ok {
			return nil
		}
		return tf.Errorf(tf.ErrArgument, op, "e", "an engine that implements "+what, "%T", e)
	}
	for i, c := range p.cmds {
		pc := pcmd{op: c.op, binary: c.binary, unary: c.unary, dst: int32(c.dst), mask: c.mask, alpha: c.alpha, plan: c.plan}
		if len(c.args) > 0 {
			pc.a = int32(c.args[0])
		}
		if len(c.args) > 1 {
			pc.b = int32(c.args[1])
		}
		switch c.op {
		case cmdBinary, cmdUnary, cmdSum:
			if err := need(pp.ew != nil, "tenferro.Elementwise"); err != nil {
				return nil, err
			}
		case cmdEinsum:
			if err := need(pp.con != nil, "tenferro.Contractor"); err != nil {
				return nil, err
			}
			pc.ids, pc.ops = c.args, make([]any, len(c.args))
		case cmdFused:
			if err := need(fuser != nil, "tenferro.Fuser"); err != nil {
				return nil, err
			}
			k, err := fuser.Fuse(p.vals[c.dst].dt, c.code, len(c.args))
			if err != nil {
				return nil, tf.WrapError(op, "fused command "+strconv.Itoa(i), err)
			}
			pc.kernel, pc.ids, pc.ops = k, c.args, make([]any, len(c.args))
		}
		pp.cmds[i] = pc
	}
	return pp, nil
}

// NumCommands returns the number of commands one run replays.
func (pp *Prepared) NumCommands() int { return len(pp.cmds) }

// SlotBytes returns the bytes of slot storage the Prepared owns.
func (pp *Prepared) SlotBytes() int64 { return pp.slotBytes }

// Program returns the program pp runs.
func (pp *Prepared) Program() *Program { return pp.p }

// Run checks inputs against the program's signature (count, dtype, shape,
// live tensors; strided views are fine and are read in place), claims the
// engine once and replays the commands. The outputs are new compact
// tensors with storage from the engine's pool (Release them to recycle).
func (pp *Prepared) Run(inputs ...tf.Value) ([]tf.Value, error) {
	const op = "Run"
	if err := pp.checkInputs(op, inputs); err != nil {
		return nil, err
	}
	if err := pp.e.Begin(op); err != nil {
		return nil, err
	}
	defer pp.e.End()
	outs := make([]tf.Value, len(pp.p.outputs))
	for j, id := range pp.p.outputs {
		v := &pp.p.vals[id]
		outs[j] = wrapValue(pp.e.Alloc(v.dt, tf.Numel(v.shape)), v.shape)
	}
	if err := pp.exec(inputs, outs); err != nil {
		for _, o := range outs {
			o.Release()
		}
		return nil, err
	}
	return outs, nil
}

// RunInto is Run writing into the caller's outputs: outputs[j] must have
// output j's dtype and shape, distinct elements (any strides), and share
// storage with no input and no other output. Everything is validated
// before anything is written: on error the outputs are untouched. With a
// warm engine RunInto allocates nothing.
func (pp *Prepared) RunInto(outputs []tf.Value, inputs ...tf.Value) error {
	const op = "RunInto"
	if err := pp.checkInputs(op, inputs); err != nil {
		return err
	}
	if err := pp.checkOutputs(op, outputs, inputs); err != nil {
		return err
	}
	if err := pp.e.Begin(op); err != nil {
		return err
	}
	defer pp.e.End()
	return pp.exec(inputs, outputs)
}

// exec binds the signature's registers and replays the commands. The
// caller holds the engine.
func (pp *Prepared) exec(inputs, outputs []tf.Value) error {
	p, regs := pp.p, pp.regs
	for i, id := range p.inputs {
		regs[id] = inputs[i].Tensor()
	}
	for j, id := range p.outputs {
		regs[id] = outputs[j].Tensor()
	}
	var err error
	for i := range pp.cmds {
		c := &pp.cmds[i]
		switch c.op {
		case cmdMatmul:
			err = pp.e.Matmul(regs[c.dst], regs[c.a], regs[c.b])
		case cmdBinary:
			err = pp.ew.Binary(c.binary, regs[c.dst], regs[c.a], regs[c.b])
		case cmdUnary:
			err = pp.ew.Unary(c.unary, c.alpha, regs[c.dst], regs[c.a])
		case cmdSum:
			err = pp.ew.Sum(regs[c.dst], regs[c.a], c.mask)
		case cmdCopy:
			err = pp.e.Copy(regs[c.dst], regs[c.a])
		case cmdEinsum:
			for k, id := range c.ids {
				c.ops[k] = regs[id]
			}
			err = pp.con.Einsum(regs[c.dst], c.plan, c.ops)
			clear(c.ops)
		case cmdFused:
			for k, id := range c.ids {
				c.ops[k] = regs[id]
			}
			err = c.kernel.Eval(regs[c.dst], c.ops)
			clear(c.ops)
		}
		if err != nil {
			err = tf.WrapError("Run", "command "+strconv.Itoa(i), err)
			break
		}
	}
	// Drop the caller's tensors so the Prepared does not keep them alive.
	for _, id := range p.inputs {
		regs[id] = nil
	}
	for _, id := range p.outputs {
		regs[id] = nil
	}
	return err
}

func (pp *Prepared) checkInputs(op string, inputs []tf.Value) error {
	p := pp.p
	if len(inputs) != len(p.inputs) {
		return tf.Errorf(tf.ErrArgument, op, "inputs", strconv.Itoa(len(p.inputs))+" inputs", "%d", len(inputs))
	}
	for i, in := range inputs {
		if err := checkSig(op, "inputs", i, &p.vals[p.inputs[i]], in); err != nil {
			return err
		}
	}
	return nil
}

// checkSig compares a caller's tensor with a signature entry.
func checkSig(op, what string, i int, v *value, x tf.Value) error {
	if x.DType() != v.dt {
		return tf.Errorf(tf.ErrDType, op, what+"["+strconv.Itoa(i)+"]", fmt.Sprintf("%v %v", v.dt, v.shape), "%v %v", x.DType(), x.Shape())
	}
	if !equalInts(x.Shape(), v.shape) {
		return tf.Errorf(tf.ErrShape, op, what+"["+strconv.Itoa(i)+"]", fmt.Sprintf("%v %v", v.dt, v.shape), "%v %v", x.DType(), x.Shape())
	}
	if !tensorValid(x.Tensor()) {
		return tf.Errorf(tf.ErrReleased, op, what+"["+strconv.Itoa(i)+"]", "a live tensor", "a released tensor")
	}
	return nil
}

func (pp *Prepared) checkOutputs(op string, outputs, inputs []tf.Value) error {
	p := pp.p
	if len(outputs) != len(p.outputs) {
		return tf.Errorf(tf.ErrArgument, op, "outputs", strconv.Itoa(len(p.outputs))+" outputs", "%d", len(outputs))
	}
	for j, o := range outputs {
		if err := checkSig(op, "outputs", j, &p.vals[p.outputs[j]], o); err != nil {
			return err
		}
		if !distinct(o) {
			return tf.Errorf(tf.ErrAlias, op, "outputs["+strconv.Itoa(j)+"]", "a view with distinct elements", "a view whose strides repeat elements")
		}
		id := storageID(o)
		if id == 0 {
			continue
		}
		for i, in := range inputs {
			if storageID(in) == id {
				return tf.Errorf(tf.ErrAlias, op, "outputs["+strconv.Itoa(j)+"]", "storage shared with no input", "the storage of inputs[%d]", i)
			}
		}
		for k := range j {
			if storageID(outputs[k]) == id {
				return tf.Errorf(tf.ErrAlias, op, "outputs["+strconv.Itoa(j)+"]", "storage shared with no other output", "the storage of outputs[%d]", k)
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
