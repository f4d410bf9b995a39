package tenferro

import (
	"errors"
	"fmt"

	"github.com/tenferro-go/tenferro/internal/op"
)

// Error kinds. Every error the library returns matches exactly one of these
// with [errors.Is]; use [errors.As] with *[Error] to read the details.
var (
	// ErrShape: extents, ranks or sizes that do not fit together.
	ErrShape = op.ErrShape
	// ErrDType: an element type that is not allowed here.
	ErrDType = op.ErrDType
	// ErrArgument: any other invalid argument (axis out of range, bad
	// option value, nil tensor or engine).
	ErrArgument = op.ErrArgument
	// ErrReleased: the tensor's storage was returned with Release.
	ErrReleased = op.ErrReleased
	// ErrEngineBusy: the engine is in use by another goroutine.
	ErrEngineBusy = op.ErrEngineBusy
	// ErrClosed: the engine (or team) was closed.
	ErrClosed = op.ErrClosed
	// ErrLayout: the operation needs a layout the view does not have
	// (Data on a strided view, a Reshape that would need a copy).
	ErrLayout = op.ErrLayout
	// ErrAlias: a destination whose elements are not distinct, or that
	// overlaps an input in a way the operation does not allow (see the
	// package documentation, "Destinations").
	ErrAlias = op.ErrAlias
	// ErrUnsupported: the engine lacks the capability the operation needs
	// (for example an engine without contraction kernels for a dtype).
	ErrUnsupported = op.ErrUnsupported
	// ErrMemory: the operation would allocate more than the engine's
	// memory budget (or, for constructors, DefaultMemoryBudget); nothing
	// was allocated.
	ErrMemory = op.ErrMemory
	// ErrSingular: a solve or an inverse (package linalg) met an exactly
	// zero pivot; the message names the batch item and the pivot.
	ErrSingular = op.ErrSingular
	// ErrNotPositiveDefinite: a Cholesky factorization (package linalg)
	// met a leading minor that is not positive definite; the message names
	// the batch item and the order of the minor.
	ErrNotPositiveDefinite = op.ErrNotPositiveDefinite
	// ErrNoConvergence: an iterative algorithm (an eigenvalue or singular
	// value solver, a Krylov method) exhausted its documented iteration
	// bound before converging; the message names the item and the bound.
	ErrNoConvergence = op.ErrNoConvergence
	// ErrGauge: a gradient program (package ad) met a loss that depends on
	// the arbitrary phases of singular vectors or eigenvectors, whose
	// derivative is not defined; the message names the decomposition and
	// the size of the gauge-dependent part.
	ErrGauge = op.ErrGauge
)

// Error describes a failed operation: which operation, which argument, what
// was expected and what was found. Kind is one of the Err* values above and
// is what errors.Is matches.
type Error struct {
	Op       string // operation, e.g. "Matmul"
	Arg      string // argument, e.g. "b" or "dst"
	Expected string // what the operation needed
	Actual   string // what it got
	Kind     error  // ErrShape, ErrDType, ...
	Err      error  // optional underlying cause
}

func newError(op, arg, expected, actual string, kind error) *Error {
	return &Error{Op: op, Arg: arg, Expected: expected, Actual: actual, Kind: kind}
}

// faultError turns a catalog fault into the error of operation name.
func faultError(name string, f *op.Fault) error {
	return &Error{Op: name, Arg: f.Arg, Expected: f.Expected, Actual: f.Actual, Kind: f.Kind, Err: f.Err}
}

// Errorf is a helper for engines and packages built on this one: it returns
// an *Error of the given kind.
func Errorf(kind error, op, arg, expected string, actualFormat string, args ...any) error {
	return newError(op, arg, expected, fmt.Sprintf(actualFormat, args...), kind)
}

// WrapError returns an *Error for op that carries err as its cause; kind is
// taken from err when err already is (or wraps) an *Error.
func WrapError(op, arg string, err error) error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		if e.Op == op {
			return err
		}
		return &Error{Op: op, Arg: firstNonEmpty(arg, e.Arg), Expected: e.Expected, Actual: e.Actual, Kind: e.Kind, Err: err}
	}
	return &Error{Op: op, Arg: arg, Kind: ErrArgument, Err: err}
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func (e *Error) Error() string {
	msg := "tenferro: " + e.Op
	if e.Arg != "" {
		msg += ": " + e.Arg
	}
	if e.Kind != nil {
		msg += ": " + e.Kind.Error()
	}
	if e.Expected != "" || e.Actual != "" {
		msg += fmt.Sprintf(": expected %s, got %s", e.Expected, e.Actual)
	}
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

// Unwrap returns the kind and the cause, so errors.Is matches both.
func (e *Error) Unwrap() []error {
	if e.Err != nil {
		return []error{e.Kind, e.Err}
	}
	return []error{e.Kind}
}
