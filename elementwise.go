package tenferro

import (
	"fmt"
	"strconv"
)

// UnaryOp names an elementwise function of one tensor.
type UnaryOp uint8

// The unary operations.
const (
	OpCopy   UnaryOp = iota // y = x
	OpScale                 // y = alpha·x
	OpNegate                // y = -x
	OpConj                  // y = conj(x) (identity on real types)
)

// BinaryOp names an elementwise function of two tensors.
type BinaryOp uint8

// The binary operations.
const (
	OpAdd BinaryOp = iota // z = x + y
	OpSub                 // z = x - y
	OpMul                 // z = x·y (Hadamard product)
)

var unaryNames = [...]string{"Copy", "Scale", "Negate", "Conj"}
var binaryNames = [...]string{"Add", "Sub", "Mul"}

// Operation names of the Into forms, spelled out so errors cost no
// allocation on the success path.
var unaryIntoNames = [...]string{"CopyInto", "ScaleInto", "NegateInto", "ConjInto"}
var binaryIntoNames = [...]string{"AddInto", "SubInto", "MulInto"}

// axisMask turns validated axes (each < MaxRank) into a bit set.
func axisMask(axes []int) uint64 {
	var m uint64
	for _, a := range axes {
		m |= 1 << uint(a)
	}
	return m
}

func (op UnaryOp) String() string {
	if int(op) < len(unaryNames) {
		return unaryNames[op]
	}
	return "UnaryOp(" + strconv.Itoa(int(op)) + ")"
}

func (op BinaryOp) String() string {
	if int(op) < len(binaryNames) {
		return binaryNames[op]
	}
	return "BinaryOp(" + strconv.Itoa(int(op)) + ")"
}

// Elementwise is the part of the Engine contract that runs elementwise
// arithmetic and reductions (embedded in Engine).
type Elementwise interface {
	// Unary computes dst = op(alpha, a) for *Tensor[T] of equal shapes
	// (alpha is used by OpScale only, converted to T). dst may be the very
	// same view as a.
	Unary(op UnaryOp, alpha complex128, dst, a any) error
	// Binary computes dst = a op b. a and b have dst's rank; an extent of 1
	// in a or b broadcasts against dst's extent. dst may be the very same
	// view as a or b.
	Binary(op BinaryOp, dst, a, b any) error
	// Sum sets dst to the sum of src over the axes whose bits are set in
	// axes (bit d for axis d; ranks are at most MaxRank); dst has src's
	// shape without those axes.
	Sum(dst, src any, axes uint64) error
}

// sameView reports whether a and b are the identical view of one storage.
func sameView[T Scalar](a, b *Tensor[T]) bool {
	return a.st == b.st && a.off == b.off && equalInts(a.shape, b.shape) && equalInts(a.strides, b.strides)
}

// checkElementwiseDst validates dst for an elementwise op with inputs ins:
// live, the right shape, distinct elements, and no overlap with an input
// other than being the identical view (an in-place update).
func checkElementwiseDst[T Scalar](op string, dst *Tensor[T], shape []int, ins ...*Tensor[T]) error {
	if err := dst.check(op, "dst"); err != nil {
		return err
	}
	if !equalInts(dst.shape, shape) {
		return shapeError(op, "dst", shape, dst.shape)
	}
	if err := checkWritable(op, dst); err != nil {
		return err
	}
	for _, in := range ins {
		if overlaps(dst, in) && !sameView(dst, in) {
			return newError(op, "dst", "storage disjoint from the inputs, or the identical view (in place)", "a partly overlapping view", ErrAlias)
		}
	}
	return nil
}

// broadcastShape validates a and b for a binary op and appends the result
// shape to buf.
func broadcastShape[T Scalar](op string, a, b *Tensor[T], buf []int) ([]int, error) {
	if err := a.check(op, "a"); err != nil {
		return nil, err
	}
	if err := b.check(op, "b"); err != nil {
		return nil, err
	}
	if err := checkRank(op, "a", a); err != nil {
		return nil, err
	}
	if a.Rank() != b.Rank() {
		return nil, newError(op, "b", fmt.Sprintf("rank %d like a", a.Rank()), fmt.Sprintf("rank %d", b.Rank()), ErrShape)
	}
	for d := range a.shape {
		x, y := a.shape[d], b.shape[d]
		switch {
		case x == y, y == 1:
			buf = append(buf, x)
		case x == 1:
			buf = append(buf, y)
		default:
			return nil, newError(op, "b", fmt.Sprintf("extent %d or 1 at axis %d (a is %s)", x, d, fmtInts(a.shape)), fmt.Sprintf("%d (b is %s)", y, fmtInts(b.shape)), ErrShape)
		}
	}
	return buf, nil
}

// binary runs op on a new output from e's pool.
func binary[T Scalar](e Engine, op BinaryOp, a, b *Tensor[T]) (*Tensor[T], error) {
	name := op.String()
	var buf [8]int
	shape, err := broadcastShape(name, a, b, buf[:0])
	if err != nil {
		return nil, err
	}
	return produce(e, name, shape, func(out *Tensor[T]) error { return e.Binary(op, out, a, b) })
}

// binaryInto runs op into dst.
func binaryInto[T Scalar](e Engine, op BinaryOp, dst, a, b *Tensor[T]) error {
	name := binaryIntoNames[op]
	var buf [8]int
	shape, err := broadcastShape(name, a, b, buf[:0])
	if err != nil {
		return err
	}
	if err := checkElementwiseDst(name, dst, shape, a, b); err != nil {
		return err
	}
	if err := claim(e, name); err != nil {
		return err
	}
	defer e.End()
	return e.Binary(op, dst, a, b)
}

// Add returns a + b elementwise. a and b have equal ranks; an extent of 1
// broadcasts against the other operand's extent.
func Add[T Scalar](e Engine, a, b *Tensor[T]) (*Tensor[T], error) { return binary(e, OpAdd, a, b) }

// Sub returns a - b elementwise (broadcasting as in [Add]).
func Sub[T Scalar](e Engine, a, b *Tensor[T]) (*Tensor[T], error) { return binary(e, OpSub, a, b) }

// Mul returns the Hadamard product a·b elementwise (broadcasting as in
// [Add]).
func Mul[T Scalar](e Engine, a, b *Tensor[T]) (*Tensor[T], error) { return binary(e, OpMul, a, b) }

// AddInto computes dst = a + b. dst may be a or b itself (in place).
func AddInto[T Scalar](e Engine, dst, a, b *Tensor[T]) error { return binaryInto(e, OpAdd, dst, a, b) }

// SubInto computes dst = a - b. dst may be a or b itself (in place).
func SubInto[T Scalar](e Engine, dst, a, b *Tensor[T]) error { return binaryInto(e, OpSub, dst, a, b) }

// MulInto computes dst = a·b. dst may be a or b itself (in place).
func MulInto[T Scalar](e Engine, dst, a, b *Tensor[T]) error { return binaryInto(e, OpMul, dst, a, b) }

// unary runs op on a new output from e's pool.
func unary[T Scalar](e Engine, op UnaryOp, alpha T, a *Tensor[T]) (*Tensor[T], error) {
	name := op.String()
	if err := a.check(name, "a"); err != nil {
		return nil, err
	}
	if err := checkRank(name, "a", a); err != nil {
		return nil, err
	}
	return produce(e, name, a.shape, func(out *Tensor[T]) error { return e.Unary(op, toComplex128(alpha), out, a) })
}

// UnaryInto computes dst = op(a) (alpha is used by OpScale). dst may be a
// itself (in place).
func UnaryInto[T Scalar](e Engine, op UnaryOp, alpha T, dst, a *Tensor[T]) error {
	if op > OpConj {
		return newError("UnaryInto", "op", "OpCopy, OpScale, OpNegate or OpConj", op.String(), ErrArgument)
	}
	name := unaryIntoNames[op]
	if err := a.check(name, "a"); err != nil {
		return err
	}
	if err := checkRank(name, "a", a); err != nil {
		return err
	}
	if err := checkElementwiseDst(name, dst, a.shape, a); err != nil {
		return err
	}
	if err := claim(e, name); err != nil {
		return err
	}
	defer e.End()
	return e.Unary(op, toComplex128(alpha), dst, a)
}

// Scale returns alpha·a.
func Scale[T Scalar](e Engine, alpha T, a *Tensor[T]) (*Tensor[T], error) {
	return unary(e, OpScale, alpha, a)
}

// Negate returns -a.
func Negate[T Scalar](e Engine, a *Tensor[T]) (*Tensor[T], error) { return unary(e, OpNegate, 0, a) }

// Conj returns the complex conjugate of a (a copy for real T).
func Conj[T Scalar](e Engine, a *Tensor[T]) (*Tensor[T], error) { return unary(e, OpConj, 0, a) }

// sumShape validates axes (strictly increasing, in range) and appends the
// shape of t without them to buf.
func sumShape[T Scalar](op string, t *Tensor[T], axes []int, buf []int) ([]int, error) {
	if err := t.check(op, "t"); err != nil {
		return nil, err
	}
	if err := checkRank(op, "t", t); err != nil {
		return nil, err
	}
	prev := -1
	for _, ax := range axes {
		if ax <= prev || ax >= t.Rank() {
			return nil, newError(op, "axes", fmt.Sprintf("strictly increasing axes in [0, %d)", t.Rank()), fmtInts(axes), ErrArgument)
		}
		prev = ax
	}
	k := 0
	for d, n := range t.shape {
		if k < len(axes) && axes[k] == d {
			k++
			continue
		}
		buf = append(buf, n)
	}
	return buf, nil
}

// Sum returns the sum of t over the given axes (strictly increasing; none
// means all axes, giving a rank-0 tensor). The result has t's shape without
// those axes.
func Sum[T Scalar](e Engine, t *Tensor[T], axes ...int) (*Tensor[T], error) {
	var abuf [8]int
	if len(axes) == 0 && t != nil {
		axes = abuf[:0]
		for d := range t.shape {
			axes = append(axes, d)
		}
	}
	var buf [8]int
	shape, err := sumShape("Sum", t, axes, buf[:0])
	if err != nil {
		return nil, err
	}
	return produce(e, "Sum", shape, func(out *Tensor[T]) error { return e.Sum(out, t, axisMask(axes)) })
}

// SumInto sets dst to the sum of t over axes (strictly increasing; none
// makes it a copy). dst must not overlap t.
func SumInto[T Scalar](e Engine, dst, t *Tensor[T], axes ...int) error {
	var buf [8]int
	shape, err := sumShape("SumInto", t, axes, buf[:0])
	if err != nil {
		return err
	}
	if err := dst.check("SumInto", "dst"); err != nil {
		return err
	}
	if !equalInts(dst.shape, shape) {
		return shapeError("SumInto", "dst", shape, dst.shape)
	}
	if err := checkWritable("SumInto", dst); err != nil {
		return err
	}
	if overlaps(dst, t) {
		return newError("SumInto", "dst", "storage disjoint from t", "an overlapping view", ErrAlias)
	}
	if err := claim(e, "SumInto"); err != nil {
		return err
	}
	defer e.End()
	return e.Sum(dst, t, axisMask(axes))
}
