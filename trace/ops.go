package trace

import (
	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/internal/op"
)

// The operations below have signatures of their own; the elementwise
// operations and reductions of the catalog are generated (ops_gen.go).

// Einsum records the Einstein summation given by subscripts (see
// tenferro.Einsum): Out[output labels] = Σ over the other labels of the
// product of the operands. The subscripts are parsed and bound to the
// operand shapes now; the contraction path is chosen when the graph is
// compiled.
func (t *Trace) Einsum(subscripts string, operands ...Var) (Var, error) {
	return t.record(op.Einsum, op.Attrs{Subscripts: subscripts}, operands...)
}

// Matmul records C = A·B with the semantics of tenferro.Matmul: A is
// (m, k, batch...), B is (k, n, batch...), C is (m, n, batch...); batch
// ranks are equal and a batch extent of 1 broadcasts.
func (t *Trace) Matmul(a, b Var) (Var, error) { return t.record(op.Matmul, op.Attrs{}, a, b) }

// Permute records the view whose axis d is axis perm[d] of a (NumPy's
// transpose(perm); negative entries count from the end).
func (t *Trace) Permute(a Var, perm ...int) (Var, error) {
	return t.record(op.Permute, op.Attrs{Axes: perm}, a)
}

// Reshape records a with a new shape and the same column-major element
// order. One extent may be -1 (inferred from the element count).
func (t *Trace) Reshape(a Var, shape ...int) (Var, error) {
	return t.record(op.Reshape, op.Attrs{Shape: shape}, a)
}

// Copy records a compact copy of a (the identity on values; a compiled
// program materializes it as a copy).
func (t *Trace) Copy(a Var) (Var, error) { return t.record(op.Copy, op.Attrs{}, a) }

// Where records tenferro.Where: a where mask (a bool Var) is true and b
// elsewhere, the three broadcast against each other as in NumPy.
func (t *Trace) Where(mask, a, b Var) (Var, error) { return t.record(op.Where, op.Attrs{}, mask, a, b) }

// Convert records tenferro.Convert: a's elements as dtype to (NumPy's
// astype rules).
func (t *Trace) Convert(a Var, to tf.DType) (Var, error) {
	return t.record(op.Convert, op.Attrs{Ints: []int{int(to)}}, a)
}
