package cpu

import (
	"strconv"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/internal/kernel/elementwise"
	"github.com/tenferro-go/tenferro/internal/kernel/strided"
)

// Fuse implements backend.Fusion: it translates code to the element-wise
// kernel's instruction set and checks it.
func (k *numeric[T]) Fuse(code []backend.FusedInstr, nin int) (backend.FusedKernel[T], error) {
	if nin < 0 || nin > backend.MaxFusedInputs {
		return nil, tf.Errorf(tf.ErrArgument, "Fuse", "nin", "0 to "+strconv.Itoa(backend.MaxFusedInputs)+" inputs", "%d", nin)
	}
	f := &fused[T]{e: k.e, k: k, nin: nin, prog: make([]elementwise.Instr[T], len(code))}
	for i, in := range code {
		ins := elementwise.Instr[T]{Op: elementwise.Apply, Kind: in.Op, Arg: in.Arg, Scalar: backend.FromComplex[T](in.Alpha), Beta: backend.FromComplex[T](in.Beta)}
		if in.Load {
			ins.Op = elementwise.Load
		}
		f.prog[i] = ins
	}
	depth, err := elementwise.Check(f.prog, nin)
	if err != nil {
		return nil, &tf.Error{Op: "Fuse", Arg: "code", Kind: tf.ErrArgument, Err: err}
	}
	if depth > backend.MaxFusedStack {
		return nil, tf.Errorf(tf.ErrArgument, "Fuse", "code", "stack depth <= "+strconv.Itoa(backend.MaxFusedStack), "%d", depth)
	}
	return f, nil
}

// fused is a checked program for one element type with its evaluation
// scratch and room for the kernel arguments, so that Eval allocates
// nothing.
type fused[T strided.Scalar] struct {
	e       *Engine
	k       *numeric[T] // the reductions of Reduce
	red     *fusedReduction[T]
	prog    []elementwise.Instr[T]
	nin     int
	scratch elementwise.Scratch[T]
	refs    [elementwise.MaxInputs]strided.Ref[T]
	strides [elementwise.MaxInputs][strided.MaxRank]int
}

// Eval implements backend.FusedKernel.
func (f *fused[T]) Eval(dst *backend.View[T], inputs []*backend.View[T]) error {
	if len(inputs) != f.nin {
		return tf.Errorf(tf.ErrArgument, "Fused", "inputs", strconv.Itoa(f.nin)+" inputs", "%d", len(inputs))
	}
	shape := dst.Shape
	for k, in := range inputs {
		f.refs[k] = broadcastRef(in, shape, f.strides[k][:len(shape)])
	}
	err := elementwise.Eval(f.e.runner, &f.scratch, f.prog, shape, ref(dst), f.refs[:f.nin])
	for k := range f.nin {
		f.refs[k].Data = nil
	}
	return err
}
