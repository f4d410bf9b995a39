// Package optest lists the catalog's generated operations with their eager,
// Into and traced forms as typed function values, so that conformance
// suites (backend/enginetest, the eager-versus-traced error table) iterate
// over every operation of the catalog without naming them one by one. The
// tables are generated with the wrappers (internal/op/gen).
package optest

import (
	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/internal/op"
	"github.com/tenferro-go/tenferro/trace"
)

// UnaryOp is an elementwise unary operation; alpha is its attribute (0 for
// operations without one).
type UnaryOp[T tf.Scalar] struct {
	Kind   op.Kind
	Eager  func(e tf.Engine, alpha T, a *tf.Tensor[T]) (*tf.Tensor[T], error)
	Into   func(e tf.Engine, dst *tf.Tensor[T], alpha T, a *tf.Tensor[T]) error
	Traced func(t *trace.Trace, alpha complex128, a trace.Var) (trace.Var, error)
}

// BinaryOp is an elementwise binary operation.
type BinaryOp[T tf.Scalar] struct {
	Kind   op.Kind
	Eager  func(e tf.Engine, a, b *tf.Tensor[T]) (*tf.Tensor[T], error)
	Into   func(e tf.Engine, dst, a, b *tf.Tensor[T]) error
	Traced func(t *trace.Trace, a, b trace.Var) (trace.Var, error)
}

// Reduction is a reduction over a set of axes.
type Reduction[T tf.Scalar] struct {
	Kind   op.Kind
	Eager  func(e tf.Engine, a *tf.Tensor[T], axes ...int) (*tf.Tensor[T], error)
	Into   func(e tf.Engine, dst, a *tf.Tensor[T], axes ...int) error
	Traced func(t *trace.Trace, a trace.Var, axes ...int) (trace.Var, error)
}
