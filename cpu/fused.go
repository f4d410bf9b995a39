package cpu

import (
	"strconv"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/internal/kernel/elementwise"
	"github.com/tenferro-go/tenferro/internal/kernel/strided"
)

var _ tf.Fuser = (*Engine)(nil)

var fusedOps = [...]elementwise.OpCode{
	tf.FusedLoad:   elementwise.Load,
	tf.FusedAdd:    elementwise.AddOp,
	tf.FusedSub:    elementwise.SubOp,
	tf.FusedMul:    elementwise.MulOp,
	tf.FusedNegate: elementwise.NegOp,
	tf.FusedConj:   elementwise.ConjOp,
	tf.FusedScale:  elementwise.ScaleBy,
}

// Fuse implements tenferro.Fuser: it translates code to the element-wise
// kernel's instruction set for dt and checks it.
func (e *Engine) Fuse(dt tf.DType, code []tf.FusedInstr, nin int) (tf.FusedKernel, error) {
	switch dt {
	case tf.Float32:
		return newFused[float32](e, code, nin, func(a complex128) float32 { return float32(real(a)) })
	case tf.Float64:
		return newFused[float64](e, code, nin, func(a complex128) float64 { return real(a) })
	case tf.Complex64:
		return newFused[complex64](e, code, nin, func(a complex128) complex64 { return complex64(a) })
	case tf.Complex128:
		return newFused[complex128](e, code, nin, func(a complex128) complex128 { return a })
	}
	return nil, tf.Errorf(tf.ErrDType, "Fuse", "dt", "f32, f64, c64 or c128", "%v", dt)
}

// fused is a checked program for one element type with its evaluation
// scratch and room for the kernel arguments, so that Eval allocates
// nothing.
type fused[T tf.Scalar] struct {
	e       *Engine
	prog    []elementwise.Instr[T]
	nin     int
	scratch elementwise.Scratch[T]
	refs    [elementwise.MaxInputs]strided.Ref[T]
	strides [elementwise.MaxInputs][strided.MaxRank]int
}

func newFused[T tf.Scalar](e *Engine, code []tf.FusedInstr, nin int, conv func(complex128) T) (tf.FusedKernel, error) {
	if nin < 0 || nin > tf.MaxFusedInputs {
		return nil, tf.Errorf(tf.ErrArgument, "Fuse", "nin", "0 to "+strconv.Itoa(tf.MaxFusedInputs)+" inputs", "%d", nin)
	}
	f := &fused[T]{e: e, nin: nin, prog: make([]elementwise.Instr[T], len(code))}
	for i, in := range code {
		if int(in.Op) >= len(fusedOps) {
			return nil, tf.Errorf(tf.ErrArgument, "Fuse", "code", "known instructions", "op %d at %d", in.Op, i)
		}
		f.prog[i] = elementwise.Instr[T]{Op: fusedOps[in.Op], Arg: in.Arg, Scalar: conv(in.Alpha)}
	}
	depth, err := elementwise.Check(f.prog, nin)
	if err != nil {
		return nil, &tf.Error{Op: "Fuse", Arg: "code", Expected: "a valid stack program", Actual: err.Error(), Kind: tf.ErrArgument, Err: err}
	}
	if depth > tf.MaxFusedStack {
		return nil, tf.Errorf(tf.ErrArgument, "Fuse", "code", "stack depth <= "+strconv.Itoa(tf.MaxFusedStack), "%d", depth)
	}
	return f, nil
}

// Eval implements tenferro.FusedKernel.
func (f *fused[T]) Eval(dst any, inputs []any) error {
	d, ok := dst.(*tf.Tensor[T])
	if !ok || len(inputs) != f.nin {
		return tf.Errorf(tf.ErrDType, "Fused", "dst", "a *Tensor["+tf.DTypeOf[T]().String()+"] and "+strconv.Itoa(f.nin)+" inputs", "%T and %d inputs", dst, len(inputs))
	}
	shape := d.Shape()
	if len(shape) > strided.MaxRank {
		return tf.Errorf(tf.ErrShape, "Fused", "dst", "rank <= "+strconv.Itoa(strided.MaxRank), "rank %d", len(shape))
	}
	for k, in := range inputs {
		t, ok := in.(*tf.Tensor[T])
		if !ok {
			return tf.Errorf(tf.ErrDType, "Fused", "inputs["+strconv.Itoa(k)+"]", "a *Tensor["+tf.DTypeOf[T]().String()+"]", "%T", in)
		}
		f.refs[k] = fusedRef(t, shape, f.strides[k][:len(shape)])
	}
	dref := strided.Ref[T]{Data: d.Storage(), Off: d.Offset(), Strides: d.Strides()}
	err := elementwise.Eval(f.e.runner, &f.scratch, f.prog, shape, dref, f.refs[:f.nin])
	for k := range f.nin {
		f.refs[k].Data = nil
	}
	return err
}

// fusedRef describes input t read at the destination's shape: an axis where
// t has extent 1 and shape does not is read with stride 0. strides is room
// owned by the kernel.
func fusedRef[T tf.Scalar](t *tf.Tensor[T], shape, strides []int) strided.Ref[T] {
	ts, tshape := t.Strides(), t.Shape()
	for d := range shape {
		strides[d] = ts[d]
		if tshape[d] == 1 && shape[d] != 1 {
			strides[d] = 0
		}
	}
	return strided.Ref[T]{Data: t.Storage(), Off: t.Offset(), Strides: strides}
}
