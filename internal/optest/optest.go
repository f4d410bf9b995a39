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

// UnaryOp is an elementwise unary operation; alpha and beta are its
// attributes (the factor of Scale, the bounds of Clip; ignored by
// operations without them).
type UnaryOp[T tf.Scalar] struct {
	Kind   op.Kind
	Eager  func(e tf.Engine, alpha, beta T, a *tf.Tensor[T]) (*tf.Tensor[T], error)
	Into   func(e tf.Engine, dst *tf.Tensor[T], alpha, beta T, a *tf.Tensor[T]) error
	Traced func(t *trace.Trace, alpha, beta complex128, a trace.Var) (trace.Var, error)
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

// withReal appends, for a real T, the operations of the real-only table
// of T's precision: f32 and f64 are the tables' accessors, a func() []E
// for the T they serve.
func withReal[T tf.Scalar, E any](all []E, f32, f64 any) []E {
	var z T
	switch any(z).(type) {
	case float32:
		return append(all, f32.(func() []E)()...)
	case float64:
		return append(all, f64.(func() []E)()...)
	}
	return all
}
