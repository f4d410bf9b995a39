package slicing

import (
	"strconv"

	tf "github.com/tenferro-go/tenferro"
)

// ContractRange sets dst to the sum of slices lo..hi-1 (0 <= lo < hi <=
// p.Slices) of the contraction:
//
//	dst = Σ_{lo <= s < hi} slice_s(operands).
//
// dst has p.OutputShape and p's dtype, distinct elements and no overlap
// with the operands; operands are the full (unsliced) tensors. Each slice
// reads views of the operands (no copies) and adds into dst (the first
// overwrites it, the others accumulate with beta = 1), reusing the
// engine's pooled intermediates. Everything is checked before any work.
// An engine with a team evaluates as many slices of the range at once as
// fit the plan's memory limit together (cpu.Engine.ConcurrentSlices), or
// else one after another with the team inside each slice.
func ContractRange(e tf.Engine, p *Plan, lo, hi int, operands []tf.Value, dst tf.Value) error {
	const name = "slicing.ContractRange"
	c, err := p.use(name)
	if err != nil {
		return err
	}
	if lo < 0 || lo >= hi || hi > p.Slices {
		return tf.Errorf(tf.ErrArgument, name, "lo, hi", "a slice range 0 <= lo < hi <= "+strconv.Itoa(p.Slices), "%d, %d", lo, hi)
	}
	if err := c.check(name, operands); err != nil {
		return err
	}
	if err := c.checkValue(name, "dst", dst); err != nil {
		return err
	}
	var run func() error
	switch c.dt {
	case tf.Float32:
		run = func() error { return contractTyped[float32](e, c, lo, hi, operands, dst) }
	case tf.Float64:
		run = func() error { return contractTyped[float64](e, c, lo, hi, operands, dst) }
	case tf.Complex64:
		run = func() error { return contractTyped[complex64](e, c, lo, hi, operands, dst) }
	default:
		run = func() error { return contractTyped[complex128](e, c, lo, hi, operands, dst) }
	}
	return tf.WrapError(name, "", run())
}

func contractTyped[T tf.Scalar](e tf.Engine, c *compiled, lo, hi int, operands []tf.Value, dst tf.Value) error {
	d, err := tf.As[T](dst)
	if err != nil {
		return err
	}
	ops := make([]*tf.Tensor[T], len(operands))
	for k, v := range operands {
		if ops[k], err = tf.As[T](v); err != nil {
			return err
		}
	}
	return tf.EinsumSlicesInto(e, d, c.ep, lo, hi, ops...)
}

// checkValue checks that v is a live tensor of the plan's dtype and
// output shape.
func (c *compiled) checkValue(name, arg string, v tf.Value) error {
	switch {
	case !v.Valid():
		return tf.Errorf(tf.ErrArgument, name, arg, "a live tensor", "an empty or released value")
	case v.DType() != c.dt:
		return tf.Errorf(tf.ErrDType, name, arg, c.dt.String()+" (the plan's dtype)", "%v", v.DType())
	case !equal(v.Shape(), c.snap.OutputShape):
		return tf.Errorf(tf.ErrShape, name, arg, "the output shape "+shapeString(c.snap.OutputShape), "%s", shapeString(v.Shape()))
	}
	return nil
}
