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

// PredicateOp is an elementwise operation with a bool result (IsNaN, ...).
type PredicateOp[T tf.Scalar] struct {
	Kind   op.Kind
	Eager  func(e tf.Engine, a *tf.Tensor[T]) (*tf.Tensor[bool], error)
	Into   func(e tf.Engine, dst *tf.Tensor[bool], a *tf.Tensor[T]) error
	Traced func(t *trace.Trace, a trace.Var) (trace.Var, error)
}

// CompareOp is an elementwise comparison (bool result).
type CompareOp[T tf.Scalar] struct {
	Kind   op.Kind
	Eager  func(e tf.Engine, a, b *tf.Tensor[T]) (*tf.Tensor[bool], error)
	Into   func(e tf.Engine, dst *tf.Tensor[bool], a, b *tf.Tensor[T]) error
	Traced func(t *trace.Trace, a, b trace.Var) (trace.Var, error)
}

// LogicalOp is a logical operation on bool tensors; b is ignored (and may
// be nil) when Unary.
type LogicalOp struct {
	Kind   op.Kind
	Unary  bool
	Eager  func(e tf.Engine, a, b *tf.Tensor[bool]) (*tf.Tensor[bool], error)
	Into   func(e tf.Engine, dst, a, b *tf.Tensor[bool]) error
	Traced func(t *trace.Trace, a, b trace.Var) (trace.Var, error)
}

// RealOp is an elementwise operation with a real result of the real dtype
// of T (Abs, Real, Imag, Angle); results and destinations are Values of
// that dtype.
type RealOp[T tf.Scalar] struct {
	Kind   op.Kind
	Eager  func(e tf.Engine, a *tf.Tensor[T]) (tf.Value, error)
	Into   func(e tf.Engine, dst tf.Value, a *tf.Tensor[T]) error
	Traced func(t *trace.Trace, a trace.Var) (trace.Var, error)
}

// realEager picks the instantiation of a real-result operation whose
// result type is T's real type.
func realEager[T tf.Scalar](f32 func(tf.Engine, *tf.Tensor[T]) (*tf.Tensor[float32], error), f64 func(tf.Engine, *tf.Tensor[T]) (*tf.Tensor[float64], error)) func(tf.Engine, *tf.Tensor[T]) (tf.Value, error) {
	return func(e tf.Engine, a *tf.Tensor[T]) (tf.Value, error) {
		if tf.DTypeOf[T]().Real() == tf.Float32 {
			r, err := f32(e, a)
			if err != nil {
				return tf.Value{}, err
			}
			return tf.ValueOf(r), nil
		}
		r, err := f64(e, a)
		if err != nil {
			return tf.Value{}, err
		}
		return tf.ValueOf(r), nil
	}
}

// realInto is realEager for the Into forms.
func realInto[T tf.Scalar](f32 func(tf.Engine, *tf.Tensor[float32], *tf.Tensor[T]) error, f64 func(tf.Engine, *tf.Tensor[float64], *tf.Tensor[T]) error) func(tf.Engine, tf.Value, *tf.Tensor[T]) error {
	return func(e tf.Engine, dst tf.Value, a *tf.Tensor[T]) error {
		if tf.DTypeOf[T]().Real() == tf.Float32 {
			d, err := tf.As[float32](dst)
			if err != nil {
				return err
			}
			return f32(e, d, a)
		}
		d, err := tf.As[float64](dst)
		if err != nil {
			return err
		}
		return f64(e, d, a)
	}
}

// ComplexOp is an elementwise operation of two real tensors of dtype T
// with a result of the complex dtype of T's precision (Complex); results
// and destinations are Values of that dtype.
type ComplexOp[T tf.Scalar] struct {
	Kind   op.Kind
	Eager  func(e tf.Engine, a, b *tf.Tensor[T]) (tf.Value, error)
	Into   func(e tf.Engine, dst tf.Value, a, b *tf.Tensor[T]) error
	Traced func(t *trace.Trace, a, b trace.Var) (trace.Var, error)
}

// complexEager picks the instantiation of a complex-result operation whose
// result type has T's precision.
func complexEager[T tf.Float](c64 func(tf.Engine, *tf.Tensor[T], *tf.Tensor[T]) (*tf.Tensor[complex64], error), c128 func(tf.Engine, *tf.Tensor[T], *tf.Tensor[T]) (*tf.Tensor[complex128], error)) func(tf.Engine, *tf.Tensor[T], *tf.Tensor[T]) (tf.Value, error) {
	return func(e tf.Engine, a, b *tf.Tensor[T]) (tf.Value, error) {
		if tf.DTypeOf[T]() == tf.Float32 {
			return value(c64(e, a, b))
		}
		return value(c128(e, a, b))
	}
}

// complexInto is complexEager for the Into forms.
func complexInto[T tf.Float](c64 func(tf.Engine, *tf.Tensor[complex64], *tf.Tensor[T], *tf.Tensor[T]) error, c128 func(tf.Engine, *tf.Tensor[complex128], *tf.Tensor[T], *tf.Tensor[T]) error) func(tf.Engine, tf.Value, *tf.Tensor[T], *tf.Tensor[T]) error {
	return func(e tf.Engine, dst tf.Value, a, b *tf.Tensor[T]) error {
		if tf.DTypeOf[T]() == tf.Float32 {
			d, err := tf.As[complex64](dst)
			if err != nil {
				return err
			}
			return c64(e, d, a, b)
		}
		d, err := tf.As[complex128](dst)
		if err != nil {
			return err
		}
		return c128(e, d, a, b)
	}
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

// AnyReduction is a reduction or scan of any result dtype, its attribute
// p (the ddof of Var and Std, the order of Norm; ignored by the others)
// and axes (one axis for ArgMax, ArgMin and the scans) given uniformly.
// Results and destinations travel as values: T, T's real type, or int64.
type AnyReduction[T tf.Scalar] struct {
	Kind   op.Kind
	Eager  func(e tf.Engine, a *tf.Tensor[T], p float64, axes []int) (tf.Value, error)
	Into   func(e tf.Engine, dst tf.Value, a *tf.Tensor[T], p float64, axes []int) error
	Traced func(t *trace.Trace, a trace.Var, p float64, axes []int) (trace.Var, error)
}

// BoolReduction is a reduction of bool tensors (All, Any).
type BoolReduction struct {
	Kind   op.Kind
	Eager  func(e tf.Engine, a *tf.Tensor[bool], axes ...int) (*tf.Tensor[bool], error)
	Into   func(e tf.Engine, dst, a *tf.Tensor[bool], axes ...int) error
	Traced func(t *trace.Trace, a trace.Var, axes ...int) (trace.Var, error)
}

// value adapts an eager result to a Value.
func value[T tf.Elem](t *tf.Tensor[T], err error) (tf.Value, error) {
	if err != nil {
		return tf.Value{}, err
	}
	return tf.ValueOf(t), nil
}

// dstOf is the tensor of a destination value, nil when its element type
// is not R.
func dstOf[R tf.Elem](v tf.Value) *tf.Tensor[R] {
	t, _ := v.Tensor().(*tf.Tensor[R])
	return t
}

// axis0 is the one axis of the single-axis reductions (0 for none, which
// the operations' rules then check against the rank).
func axis0(axes []int) int {
	if len(axes) == 0 {
		return 0
	}
	return axes[0]
}

// isFloat32 reports whether T's real type is float32.
func isFloat32[T tf.Scalar]() bool { return tf.DTypeOf[T]().Real() == tf.Float32 }
