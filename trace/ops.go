package trace

import (
	"errors"
	"fmt"
	"slices"
	"strconv"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/einsum"
)

func operandName(k int) string { return "operands[" + strconv.Itoa(k) + "]" }

// Einsum records the Einstein summation given by subscripts (see
// tenferro.Einsum): Out[output labels] = Σ over the other labels of the
// product of the operands. The subscripts are parsed and bound to the
// operand shapes now; the contraction path is chosen when the graph is
// compiled.
func (t *Trace) Einsum(subscripts string, operands ...Value) (Value, error) {
	const op = "Einsum"
	if len(operands) == 0 {
		return Value{}, argErr(op, "operands", "at least one operand", "none")
	}
	names := make([]string, len(operands))
	for k, v := range operands {
		names[k] = operandName(k)
		if err := t.check(op, names[k], v); err != nil {
			return Value{}, err
		}
	}
	if err := sameDType(op, names, operands); err != nil {
		return Value{}, err
	}
	expr, err := einsum.Parse(subscripts)
	if err != nil {
		return Value{}, einsumError(op, err)
	}
	if len(expr.Inputs) != len(operands) {
		return Value{}, argErr(op, "operands", fmt.Sprintf("%d operands for %q", len(expr.Inputs), subscripts), strconv.Itoa(len(operands)))
	}
	shapes := make([][]int, len(operands))
	for k, v := range operands {
		shapes[k] = v.shape
	}
	prob, err := expr.Bind(shapes)
	if err != nil {
		return Value{}, einsumError(op, err)
	}
	out := make([]int, len(prob.Output))
	for i, l := range prob.Output {
		out[i] = prob.Extents[l]
	}
	args := make([]int, len(operands))
	for k, v := range operands {
		args[k] = v.id
	}
	return t.add(Node{Op: OpEinsum, DType: operands[0].dt, Shape: out, Args: args, Subscripts: subscripts}), nil
}

// einsumError translates an einsum planning error into a *tenferro.Error:
// syntax errors are ErrArgument, binding errors ErrShape.
func einsumError(op string, err error) error {
	kind := tf.ErrShape
	arg := "operands"
	var ee *einsum.Error
	if errors.As(err, &ee) {
		if ee.Operand >= 0 {
			arg = operandName(ee.Operand)
		}
		if errors.Is(err, einsum.ErrSyntax) {
			kind, arg = tf.ErrArgument, "subscripts"
		}
	}
	return &tf.Error{Op: op, Arg: arg, Expected: "subscripts that fit the operands", Actual: err.Error(), Kind: kind, Err: err}
}

// Matmul records C = A·B with the semantics of tenferro.Matmul: A is
// (m, k, batch...), B is (k, n, batch...), C is (m, n, batch...); batch
// ranks are equal and a batch extent of 1 broadcasts.
func (t *Trace) Matmul(a, b Value) (Value, error) {
	const op = "Matmul"
	if err := t.check(op, "a", a); err != nil {
		return Value{}, err
	}
	if err := t.check(op, "b", b); err != nil {
		return Value{}, err
	}
	if err := sameDType(op, []string{"a", "b"}, []Value{a, b}); err != nil {
		return Value{}, err
	}
	if a.Rank() < 2 {
		return Value{}, tf.Errorf(tf.ErrShape, op, "a", "rank >= 2 (m, k, batch...)", "rank %d", a.Rank())
	}
	if b.Rank() != a.Rank() {
		return Value{}, tf.Errorf(tf.ErrShape, op, "b", fmt.Sprintf("rank %d like a", a.Rank()), "rank %d", b.Rank())
	}
	if a.shape[1] != b.shape[0] {
		return Value{}, tf.Errorf(tf.ErrShape, op, "b", fmt.Sprintf("%d rows (a is %v)", a.shape[1], a.shape), "%d rows (b is %v)", b.shape[0], b.shape)
	}
	shape := []int{a.shape[0], b.shape[1]}
	for d := 2; d < a.Rank(); d++ {
		x, y := a.shape[d], b.shape[d]
		switch {
		case x == y, y == 1:
			shape = append(shape, x)
		case x == 1:
			shape = append(shape, y)
		default:
			return Value{}, tf.Errorf(tf.ErrShape, op, "b", fmt.Sprintf("batch extent %d or 1 at axis %d (a is %v)", x, d, a.shape), "%d (b is %v)", y, b.shape)
		}
	}
	return t.add(Node{Op: OpMatmul, DType: a.dt, Shape: shape, Args: []int{a.id, b.id}}), nil
}

// binary records an elementwise binary operation with extent-1
// broadcasting between operands of equal rank.
func (t *Trace) binary(o Op, a, b Value) (Value, error) {
	op := o.String()
	if err := t.check(op, "a", a); err != nil {
		return Value{}, err
	}
	if err := t.check(op, "b", b); err != nil {
		return Value{}, err
	}
	if err := sameDType(op, []string{"a", "b"}, []Value{a, b}); err != nil {
		return Value{}, err
	}
	if a.Rank() != b.Rank() {
		return Value{}, tf.Errorf(tf.ErrShape, op, "b", fmt.Sprintf("rank %d like a", a.Rank()), "rank %d", b.Rank())
	}
	shape := make([]int, a.Rank())
	for d := range shape {
		x, y := a.shape[d], b.shape[d]
		switch {
		case x == y, y == 1:
			shape[d] = x
		case x == 1:
			shape[d] = y
		default:
			return Value{}, tf.Errorf(tf.ErrShape, op, "b", fmt.Sprintf("extent %d or 1 at axis %d (a is %v)", x, d, a.shape), "%d (b is %v)", y, b.shape)
		}
	}
	return t.add(Node{Op: o, DType: a.dt, Shape: shape, Args: []int{a.id, b.id}}), nil
}

// Add records a + b elementwise; a and b have equal ranks and an extent of
// 1 broadcasts against the other operand's extent.
func (t *Trace) Add(a, b Value) (Value, error) { return t.binary(OpAdd, a, b) }

// Sub records a - b elementwise (broadcasting as in Add).
func (t *Trace) Sub(a, b Value) (Value, error) { return t.binary(OpSub, a, b) }

// Mul records the Hadamard product a·b (broadcasting as in Add).
func (t *Trace) Mul(a, b Value) (Value, error) { return t.binary(OpMul, a, b) }

func (t *Trace) unary(o Op, alpha complex128, a Value) (Value, error) {
	if err := t.check(o.String(), "a", a); err != nil {
		return Value{}, err
	}
	if o == OpScale && !a.dt.IsComplex() && imag(alpha) != 0 {
		return Value{}, tf.Errorf(tf.ErrDType, "Scale", "alpha", "a real factor for a real dtype", "%v", alpha)
	}
	return t.add(Node{Op: o, DType: a.dt, Shape: a.shape, Args: []int{a.id}, Alpha: alpha}), nil
}

// Scale records alpha·a. For real dtypes alpha must be real.
func (t *Trace) Scale(alpha complex128, a Value) (Value, error) { return t.unary(OpScale, alpha, a) }

// Negate records -a.
func (t *Trace) Negate(a Value) (Value, error) { return t.unary(OpNegate, 0, a) }

// Conj records the complex conjugate of a (the identity for real dtypes).
func (t *Trace) Conj(a Value) (Value, error) { return t.unary(OpConj, 0, a) }

// Sum records the sum of a over axes (strictly increasing; none means all
// axes, giving a rank-0 result). The result has a's shape without those
// axes.
func (t *Trace) Sum(a Value, axes ...int) (Value, error) {
	const op = "Sum"
	if err := t.check(op, "a", a); err != nil {
		return Value{}, err
	}
	if len(axes) == 0 {
		axes = make([]int, a.Rank())
		for d := range axes {
			axes[d] = d
		}
	}
	for i, x := range axes {
		if x < 0 || x >= a.Rank() || (i > 0 && x <= axes[i-1]) {
			return Value{}, tf.Errorf(tf.ErrArgument, op, "axes", fmt.Sprintf("strictly increasing axes in [0, %d)", a.Rank()), "%v", axes)
		}
	}
	var shape []int
	for d, x := range a.shape {
		if !slices.Contains(axes, d) {
			shape = append(shape, x)
		}
	}
	return t.add(Node{Op: OpSum, DType: a.dt, Shape: shape, Args: []int{a.id}, Axes: slices.Clone(axes)}), nil
}

// Permute records the view whose axis d is axis perm[d] of a (NumPy's
// transpose(perm)).
func (t *Trace) Permute(a Value, perm ...int) (Value, error) {
	const op = "Permute"
	if err := t.check(op, "a", a); err != nil {
		return Value{}, err
	}
	if len(perm) != a.Rank() {
		return Value{}, tf.Errorf(tf.ErrArgument, op, "perm", fmt.Sprintf("a permutation of %d axes", a.Rank()), "%v", perm)
	}
	seen := make([]bool, len(perm))
	shape := make([]int, len(perm))
	for d, p := range perm {
		if p < 0 || p >= len(perm) || seen[p] {
			return Value{}, tf.Errorf(tf.ErrArgument, op, "perm", fmt.Sprintf("a permutation of %d axes", a.Rank()), "%v", perm)
		}
		seen[p] = true
		shape[d] = a.shape[p]
	}
	return t.add(Node{Op: OpPermute, DType: a.dt, Shape: shape, Args: []int{a.id}, Axes: slices.Clone(perm)}), nil
}

// Reshape records a with a new shape and the same column-major element
// order. One extent may be -1 (inferred from the element count).
func (t *Trace) Reshape(a Value, shape ...int) (Value, error) {
	const op = "Reshape"
	if err := t.check(op, "a", a); err != nil {
		return Value{}, err
	}
	if len(shape) > tf.MaxRank {
		return Value{}, tf.Errorf(tf.ErrShape, op, "shape", fmt.Sprintf("rank <= %d", tf.MaxRank), "rank %d", len(shape))
	}
	n := tf.Numel(a.shape)
	out := slices.Clone(shape)
	infer, prod := -1, 1
	for d, x := range out {
		switch {
		case x == -1 && infer < 0:
			infer = d
		case x < 0:
			return Value{}, tf.Errorf(tf.ErrShape, op, "shape", "non-negative extents and at most one -1", "%v", shape)
		default:
			prod *= x
		}
	}
	if infer >= 0 {
		if prod == 0 || n%prod != 0 {
			return Value{}, tf.Errorf(tf.ErrShape, op, "shape", fmt.Sprintf("extents whose product divides %d", n), "%v", shape)
		}
		out[infer] = n / prod
		prod = n
	}
	if prod != n {
		return Value{}, tf.Errorf(tf.ErrShape, op, "shape", fmt.Sprintf("%d elements (a is %v)", n, a.shape), "%v (%d elements)", shape, prod)
	}
	return t.add(Node{Op: OpReshape, DType: a.dt, Shape: out, Args: []int{a.id}}), nil
}
